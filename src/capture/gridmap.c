/* gridmap.c: a captured kernel's grid read against the call's shape; see gridmap.h. */
#include "capture/gridmap.h"

#include <stdio.h>
#include <string.h>

/* One way to read a grid dimension. */
struct cand {
	char label[40];
	int batch, heads;   /* how often it covers the batch and the heads */
	int q, kv, n;       /* blocks of Nq, of Nkv, of N (Nq = Nkv) */
	int split;          /* a leftover factor: KV splits (decode) */
	int rows;           /* b of ⌈·/b⌉ */
	int value;
};

#define MAXC 160

static int ceil_div(int a, int b) { return (a + b - 1) / b; }

static void add(struct cand *c, int *n, int value, const char *label, int batch, int heads)
{
	if (*n >= MAXC)
		return;
	struct cand *x = &c[(*n)++];
	memset(x, 0, sizeof(*x));
	snprintf(x->label, sizeof(x->label), "%s", label);
	x->batch = batch;
	x->heads = heads;
	x->value = value;
}

/* Block heights b of ⌈N/b⌉: the powers of two 16 … 256, then (wide
 * readings only) three times a power of two, 24 … 192 (tiles of 96 or 192
 * rows).  No more: every further b makes some block count of almost any
 * N, and a reading that fits anything says nothing. */
static const int rows_pow2[] = { 256, 128, 64, 32, 16 };
static const int rows_wide[] = { 256, 128, 64, 32, 16, 192, 96, 48, 24 };

/* The readings of value g, most plausible first; wide: also b = 3·2^k
 * and block counts flattened with the batch alone. */
static int candidates(int g, const struct attn_shape *s, struct cand *c, int wide)
{
	const int *rows = wide ? rows_wide : rows_pow2;
	size_t nrows = wide ? sizeof(rows_wide) / sizeof(*rows_wide) : sizeof(rows_pow2) / sizeof(*rows_pow2);
	int n = 0, B = s->batch, H = s->heads, Hkv = s->kv_heads > 0 ? s->kv_heads : s->heads;
	int gqa = Hkv != H;
	if (B > 1 && g == B) add(c, &n, g, "B", 1, 0);
	if (H > 1 && g == H) add(c, &n, g, "H", 0, 1);
	if (gqa && Hkv > 1 && g == Hkv) add(c, &n, g, "Hkv", 0, 1);
	if (B > 1 && H > 1 && g == (long long)B * H) add(c, &n, g, "B·H", 1, 1);
	if (gqa && B > 1 && Hkv > 1 && g == (long long)B * Hkv) add(c, &n, g, "B·Hkv", 1, 1);
	int same = s->seqlen_q == s->seqlen_kv;
	for (size_t i = 0; i < nrows; i++) {
		int b = rows[i], nq = ceil_div(s->seqlen_q, b), nkv = ceil_div(s->seqlen_kv, b);
		char l[40];
		/* a block count alone, or flattened with the heads (one dimension); wide: or with the batch */
		/* in 64 bits: ⌈N/16⌉ · B · H reaches 2^44 within the results file's limits */
		const long long mult[] = { 1, H, (long long)B * H, (long long)B * Hkv, B };
		const char *const ml[] = { "", "·H", "·B·H", "·B·Hkv", "·B" };
		const int mb[] = { 0, 0, 1, 1, 1 }, mh[] = { 0, 1, 1, 1, 0 };
		for (int k = 0; k < (wide ? 5 : 4); k++) {
			if (k == 3 && !gqa) continue;
			if (k > 0 && mult[k] <= 1) continue;
			if (nq > 1 && g == nq * mult[k]) { /* nq promoted: no int overflow */
				snprintf(l, sizeof(l), "⌈%s/%d⌉%s", same ? "N" : "Nq", b, ml[k]);
				add(c, &n, g, l, mb[k], mh[k]);
				if (same) c[n - 1].n = 1; else c[n - 1].q = 1;
				c[n - 1].rows = b;
			}
			if (!same && nkv > 1 && g == nkv * mult[k]) {
				snprintf(l, sizeof(l), "⌈Nkv/%d⌉%s", b, ml[k]);
				add(c, &n, g, l, mb[k], mh[k]);
				c[n - 1].kv = 1;
				c[n - 1].rows = b;
			}
		}
	}
	if (s->seqlen_q <= 16 && g >= 2) {
		char l[40];
		snprintf(l, sizeof(l), "%d KV splits", g);
		add(c, &n, g, l, 0, 0);
		c[n - 1].split = 1;
	}
	return n;
}

/* blockIdx.x counts blocks of the sequence in every attention kernel we
 * know: try those readings first for the first dimension. */
static void seq_first(struct cand *c, int n)
{
	struct cand tmp[MAXC];
	int k = 0;
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < n; i++)
			if (!!(c[i].q || c[i].kv || c[i].n) == !pass)
				tmp[k++] = c[i];
	memcpy(c, tmp, sizeof(*c) * (size_t)n);
}

struct pick {
	int ndims;
	int dims[3];
	struct cand c[3][MAXC];
	int nc[3];
	int choice[3];
	int found;
	int best[3];
	int nvalid;
	int order_ambiguous;   /* another valid reading with the same labels in another order */
	int alt[3], has_alt;   /* the first valid reading with other labels */
};

static int valid(const struct pick *p, const struct attn_shape *s)
{
	int batch = 0, heads = 0, seq = 0, q = 0, kv = 0, split = 0;
	for (int i = 0; i < p->ndims; i++) {
		const struct cand *x = &p->c[i][p->choice[i]];
		batch += x->batch;
		heads += x->heads;
		seq += x->q + x->kv + x->n;
		q += x->q;
		kv += x->kv;
		split += x->split;
	}
	if (batch != (s->batch > 1) || heads != (s->heads > 1 || (s->kv_heads > 1 && s->kv_heads != s->heads)))
		return 0;
	if (seq > 2 || q > 1 || kv > 1 || split > 1 || (split && seq))
		return 0;
	return 1;
}

static void search(struct pick *p, const struct attn_shape *s, int i)
{
	if (i == p->ndims) {
		if (!valid(p, s))
			return;
		p->nvalid++;
		if (!p->found) {
			p->found = 1;
			memcpy(p->best, p->choice, sizeof(p->best));
		} else {
			/* the same factors in another order (equal values): say so */
			int same = 1;
			for (int a = 0; a < p->ndims; a++) {
				int hit = 0;
				for (int b = 0; b < p->ndims; b++)
					if (!strcmp(p->c[a][p->choice[a]].label, p->c[b][p->best[b]].label))
						hit = 1;
				same &= hit;
			}
			if (same)
				p->order_ambiguous = 1;
			else if (!p->has_alt) {
				p->has_alt = 1;
				memcpy(p->alt, p->choice, sizeof(p->alt));
			}
		}
		return;
	}
	for (int k = 0; k < p->nc[i]; k++) {
		p->choice[i] = k;
		search(p, s, i + 1);
	}
}

const char *gridmap_dims(const int grid[3], char *buf, size_t len)
{
	size_t u = 0;
	buf[0] = '\0';
	for (int i = 0; i < 3; i++)
		if (grid[i] > 1 || (i == 0 && grid[1] <= 1 && grid[2] <= 1)) {
			int w = snprintf(buf + u, len - u, "%s%d", u ? " × " : "", grid[i] > 0 ? grid[i] : 1);
			if (w > 0 && (size_t)w < len - u)
				u += (size_t)w;
		}
	return buf;
}

int gridmap_infer(const int grid[3], const struct attn_shape *s, int sm_count, struct gridmap *m)
{
	memset(m, 0, sizeof(*m));
	char dims[64];
	gridmap_dims(grid, dims, sizeof(dims));
	long long total = 1;
	for (int i = 0; i < 3; i++)
		total *= grid[i] > 0 ? grid[i] : 1;
	if (!s || s->batch <= 0 || s->heads <= 0 || s->seqlen_q <= 0 || s->seqlen_kv <= 0) {
		m->kind = GM_UNKNOWN_SHAPE;
		snprintf(m->what, sizeof(m->what), "not inferred");
		snprintf(m->rule, sizeof(m->rule), "the call's shape is unknown, so the grid cannot be read against it");
		return 0;
	}
	static struct pick p; /* large: keep it off the stack */
	/* first the power-of-two blocks; a grid of one block per SM is persistent unless those
	 * read it; only then the wider readings (b = 3·2^k, blocks times the batch) */
	int persistent = sm_count > 0 && total == sm_count;
	for (int wide = 0; wide < 2; wide++) {
		if (wide && persistent)
			break;
		memset(&p, 0, sizeof(p));
		for (int i = 0; i < 3; i++)
			if (grid[i] > 1) {
				p.dims[p.ndims] = i;
				p.nc[p.ndims] = candidates(grid[i], s, p.c[p.ndims], wide);
				if (p.ndims == 0)
					seq_first(p.c[0], p.nc[0]);
				p.ndims++;
			}
		if (p.ndims)
			search(&p, s, 0);
		if (p.found) {
			m->widened = wide;
			break;
		}
	}
	if (!p.found) {
		if (persistent) {
			m->kind = GM_PERSISTENT;
			snprintf(m->what, sizeof(m->what), "persistent: one block per SM, tiles scheduled inside the kernel");
			snprintf(m->rule, sizeof(m->rule), "the grid is the GPU's %d SMs, not a product of B, H and blocks of N: "
				 "the partition of work is not inferred from it", sm_count);
		} else {
			m->kind = GM_NOT_INFERRED;
			snprintf(m->what, sizeof(m->what), "not inferred");
			snprintf(m->rule, sizeof(m->rule), "grid %s is not a product of B = %d, H = %d%s, blocks of %s "
				 "(b = 2^k in 16 … 256 or 3·2^k in 24 … 192)%s", dims, s->batch, s->heads,
				 s->kv_heads > 0 && s->kv_heads != s->heads ? ", Hkv" : "",
				 s->seqlen_q == s->seqlen_kv ? "N" : "Nq or Nkv",
				 s->seqlen_q <= 16 ? " or KV splits" : "");
		}
		return 0;
	}
	int q = 0, kv = 0, nb = 0, split = 0;
	size_t u = 0;
	for (int i = 0; i < p.ndims; i++) {
		const struct cand *x = &p.c[i][p.best[i]];
		q += x->q; kv += x->kv; nb += x->n;
		if (x->rows) m->block_rows = x->rows;
		if (x->split) { split = 1; m->splits = x->value; }
		int w = snprintf(m->formula + u, sizeof(m->formula) - u, "%s%s", u ? " × " : "", x->split ? "splits" : x->label);
		if (w > 0 && (size_t)w < sizeof(m->formula) - u)
			u += (size_t)w;
	}
	m->inferred = 1;
	char order[300] = "";
	if (m->widened) /* say how far the reading had to go */
		snprintf(order, sizeof(order), "; read only because no block count of a power-of-two height%s fits",
			 (m->block_rows & (m->block_rows - 1)) ? "" : " without the batch folded in");
	if (p.order_ambiguous) {
		size_t u1 = strlen(order);
		snprintf(order + u1, sizeof(order) - u1, "; equal factors, so which dimension is which is not inferred");
	}
	if (p.has_alt) { /* another product fits too: say which, the first reading is kept */
		size_t u2 = strlen(order);
		u2 += (size_t)snprintf(order + u2, sizeof(order) - u2, "; the grid also reads as ");
		for (int i = 0; i < p.ndims && u2 < sizeof(order); i++) {
			const struct cand *x = &p.c[i][p.alt[i]];
			u2 += (size_t)snprintf(order + u2, sizeof(order) - u2, "%s%s", i ? " × " : "", x->split ? "splits" : x->label);
		}
	}
	if (q + kv + nb == 2) {
		m->kind = GM_QBLOCKS;
		snprintf(m->what, sizeof(m->what), "tiles of the Nq × Nkv matrix, per (batch, head)");
		snprintf(m->rule, sizeof(m->rule), "two block counts of the sequence and the heads: a GEMM over the tiles "
			 "of S (or P), %d × %d each%s", m->block_rows, m->block_rows, order);
	} else if (q || (nb && s->pass != PASS_BWD)) {
		m->kind = GM_QBLOCKS;
		snprintf(m->what, sizeof(m->what), "sequence-parallel over query blocks");
		snprintf(m->rule, sizeof(m->rule), "a dimension is ⌈%s/%d⌉ and the others cover batch and heads: each block "
			 "owns %d query rows of one (batch, head)%s%s", nb ? "N" : "Nq", m->block_rows, m->block_rows,
			 nb ? " (Nq = Nkv: read as query rows in a forward pass, where each block writes its own rows of O)" : "",
			 order);
	} else if (kv) {
		m->kind = GM_KVBLOCKS;
		snprintf(m->what, sizeof(m->what), "sequence-parallel over key/value blocks");
		snprintf(m->rule, sizeof(m->rule), "a dimension is ⌈Nkv/%d⌉ and the others cover batch and heads: each block "
			 "owns %d key/value rows of one (batch, head)%s", m->block_rows, m->block_rows, order);
	} else if (nb) {
		m->kind = GM_NBLOCKS;
		snprintf(m->what, sizeof(m->what), "sequence-parallel over blocks of N (query or key/value blocks)");
		snprintf(m->rule, sizeof(m->rule), "a dimension is ⌈N/%d⌉ and the others cover batch and heads; with Nq = Nkv "
			 "in a backward pass the grid cannot tell query from key/value blocks%s", m->block_rows, order);
	} else if (split) {
		m->kind = GM_SPLITS;
		snprintf(m->what, sizeof(m->what), "split-KV: %d splits of the KV cache per (batch, head)", m->splits);
		snprintf(m->rule, sizeof(m->rule), "decode (Nq = %d): batch and heads cover all but one dimension, the "
			 "leftover %d is read as splits of the %d keys%s", s->seqlen_q, m->splits, s->seqlen_kv, order);
	} else {
		m->kind = GM_HEADS;
		snprintf(m->what, sizeof(m->what), "one block per (batch, head)");
		snprintf(m->rule, sizeof(m->rule), "the grid is batch × heads alone: each block owns a whole head%s", order);
	}
	return 1;
}

const char *gridmap_sentence(const int grid[3], const struct gridmap *m, char *buf, size_t len)
{
	char dims[64];
	gridmap_dims(grid, dims, sizeof(dims));
	if (m->inferred)
		snprintf(buf, len, "grid %s = %s: %s", dims, m->formula, m->what);
	else if (m->kind == GM_PERSISTENT)
		snprintf(buf, len, "grid %s: %s; mapping not inferred", dims, m->what);
	else
		snprintf(buf, len, "grid %s: mapping not inferred", dims);
	return buf;
}
