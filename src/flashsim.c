/* flashsim.c: the flash template's tiling and online softmax on the CPU
 * (see flashsim.h for the three switches and what is counted).
 *
 * Structure follows the kernel: a tile step updates the running (m, ℓ, O)
 * of the rows of one Q tile with one K/V tile; the loop order decides
 * whether that state lives in "registers" (Q-outer) or makes a round trip
 * through "HBM" arrays between steps (K/V-outer).
 */
#include "flashsim.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reference.h"
#include "util/error.h"

struct sim {
	const struct attn_shape *s;
	unsigned sw;
	int br, bc, warps, fp32, visit_masked;
	size_t d, esize;         /* head dim, input element bytes */
	long off;                /* Nkv - Nq: bottom-right alignment of the mask */
	double scale;
	struct flashsim_counts *c;
	const float *qh, *kh, *vh;
	double *sc;              /* one row of the tile's scores */
	double *pv_w, *l_w;      /* per-warp partial P·V [warps][d] and ℓ [warps] */
	double *pv;              /* combined P·V of one row [d] */
};

/* Round to fp32 where the kernel holds fp32; identity in pure fp64 mode. */
static double R(const struct sim *S, double x)
{
	return S->fp32 ? (double)(float)x : x;
}

/* e^{a-b} with e^{-inf - b} = 0 (also when b is -inf: nothing seen yet). */
static double rel_exp(double a, double b)
{
	return a == -INFINITY ? 0.0 : exp(a - b);
}

static int cdiv(long a, long b) { return (int)((a + b - 1) / b); }

/* Last K/V block that Q block i must visit, or -1 for none. */
static int last_kv_block(const struct sim *S, int i)
{
	int tc = cdiv(S->s->seqlen_kv, S->bc);
	if (!S->s->causal || S->visit_masked)
		return tc - 1;
	long r1 = (long)(i + 1) * S->br;
	if (r1 > S->s->seqlen_q)
		r1 = S->s->seqlen_q;
	long cmax = r1 - 1 + S->off;  /* last key the tile's last row sees */
	if (cmax < 0)
		return -1;
	int j = (int)(cmax / S->bc);
	return j < tc - 1 ? j : tc - 1;
}

/*
 * One step: rows [r0, r1) with state m[], l[], o[] (indexed from r0)
 * meet keys [c0, c1).
 */
static void tile_step(struct sim *S, long r0, long r1, long c0, long c1,
		      double *m, double *l, double *o)
{
	const size_t d = S->d;
	const long rows = r1 - r0, cols = c1 - c0;
	const int lazy = !!(S->sw & FLASH_LAZY), splitk = !(S->sw & FLASH_SPLITQ);
	const int nw = splitk ? S->warps : 1;   /* key slices of the tile */
	const long wcols = splitk ? (S->bc + S->warps - 1) / S->warps : S->bc;
	struct flashsim_counts *c = S->c;

	c->tile_pairs++;
	if (S->s->causal && c1 - 1 > r0 + S->off)
		c->masked_pairs++;
	c->score_elems += (uint64_t)rows * cols;
	c->row_steps += (uint64_t)rows;
	c->exps += (uint64_t)rows * cols + (uint64_t)rows * (lazy ? 1 : 2);
	c->rescale_flops += (uint64_t)rows * d * (lazy ? 1 : 3);
	if (splitk)
		c->reduce_flops += (uint64_t)rows * (uint64_t)(S->warps - 1) * (d + 1);

	for (long r = r0; r < r1; r++) {
		const long last = attn_last_key(S->s, r);
		const float *qr = S->qh + (size_t)r * d;
		double *orow = o + (size_t)(r - r0) * d;
		double *mr = &m[r - r0], *lr = &l[r - r0];

		/* S = Q Kᵀ·scale, masked; the row max over all warps' slices
		 * (max is exact, so its reduction order does not matter) */
		double mt = -INFINITY;
		for (long cc = c0; cc < c1; cc++) {
			double x = -INFINITY;
			if (cc <= last) {
				const float *kc = S->kh + (size_t)cc * d;
				double dot = 0;
				for (size_t t = 0; t < d; t++)
					dot += (double)qr[t] * kc[t];
				x = R(S, dot * S->scale);
			}
			S->sc[cc - c0] = x;
			if (x > mt)
				mt = x;
		}
		const double m_new = *mr > mt ? *mr : mt;
		/* every step: P̃ relative to the tile max; once: to the new max */
		const double mref = lazy ? m_new : mt;

		/* each warp's partial ℓ and P·V over its keys */
		for (int w = 0; w < nw; w++) {
			double *pvw = S->pv_w + (size_t)w * d;
			memset(pvw, 0, d * sizeof(*pvw));
			S->l_w[w] = 0;
			long a = c0 + w * wcols, e = a + wcols;
			if (e > c1)
				e = c1;
			for (long cc = a; cc < e; cc++) {
				double x = S->sc[cc - c0];
				double pp = x == -INFINITY ? 0.0 : R(S, exp(x - mref));
				if (pp == 0.0)
					continue;
				S->l_w[w] = R(S, S->l_w[w] + pp);
				const float *vc = S->vh + (size_t)cc * d;
				for (size_t t = 0; t < d; t++)
					pvw[t] = R(S, pvw[t] + pp * vc[t]);
			}
		}
		/* split-K: the shared-memory reduction of the partials */
		double lt = S->l_w[0];
		memcpy(S->pv, S->pv_w, d * sizeof(*S->pv));
		for (int w = 1; w < nw; w++) {
			lt = R(S, lt + S->l_w[w]);
			for (size_t t = 0; t < d; t++)
				S->pv[t] = R(S, S->pv[t] + S->pv_w[(size_t)w * d + t]);
		}

		if (lazy) {
			/* FA2: O ← e^{m-m_new}·O + P·V, unnormalised */
			double alpha = rel_exp(*mr, m_new);
			for (size_t t = 0; t < d; t++)
				orow[t] = R(S, alpha * orow[t] + S->pv[t]);
			*lr = R(S, alpha * *lr + lt);
		} else {
			/* FA1 Algorithm 1, line 12: O ← diag(ℓ_new)⁻¹(diag(ℓ)e^{m-m_new}O + e^{m̃-m_new}P̃V) */
			double a = *lr * rel_exp(*mr, m_new), b = rel_exp(mt, m_new);
			double l_new = R(S, a + b * lt);
			if (l_new > 0) {
				double fa = a / l_new, fb = b / l_new;
				for (size_t t = 0; t < d; t++)
					orow[t] = R(S, fa * orow[t] + fb * S->pv[t]);
			}
			*lr = l_new;
		}
		*mr = m_new;
	}
}

/* Write the finished rows [r0, r1): O and the policy's statistics. */
static void finish_rows(struct sim *S, long r0, long r1, int visited,
			double *m, double *l, double *o,
			double *o_out, double *m_out, double *l_out, double *lse_out)
{
	const size_t d = S->d;
	const long rows = r1 - r0;
	const int lazy = !!(S->sw & FLASH_LAZY);
	struct flashsim_counts *c = S->c;

	if (visited && lazy) {
		c->rescale_flops += (uint64_t)rows * d; /* O ← diag(ℓ)⁻¹ O, once */
		c->exps += (uint64_t)rows;              /* log ℓ */
	}
	for (long r = r0; r < r1; r++) {
		double *orow = o + (size_t)(r - r0) * d, lr = l[r - r0], mr = m[r - r0];
		double inv = lazy ? (lr > 0 ? 1.0 / lr : 0.0) : 1.0;
		for (size_t t = 0; t < d; t++)
			o_out[(size_t)r * d + t] = orow[t] * inv;
		if (lazy) {
			if (lse_out)
				lse_out[r] = lr > 0 ? mr + log(lr) : -INFINITY;
		} else {
			if (m_out)
				m_out[r] = mr;
			if (l_out)
				l_out[r] = lr;
		}
	}
	c->write_bytes[FS_O] += (uint64_t)rows * d * S->esize;
	if (lazy) {
		c->write_bytes[FS_LSE] += (uint64_t)rows * 4;
		/* the K/V-outer kernel also leaves the final m and ℓ in their
		 * workspace (kernels/flash.cuh): count what it does */
		if (!(S->sw & FLASH_SEQPAR)) {
			c->write_bytes[FS_M] += (uint64_t)rows * 4;
			c->write_bytes[FS_L] += (uint64_t)rows * 4;
		}
	} else {
		c->write_bytes[FS_M] += (uint64_t)rows * 4;
		c->write_bytes[FS_L] += (uint64_t)rows * 4;
	}
}

static void state_init(long rows, size_t d, double *m, double *l, double *o)
{
	for (long r = 0; r < rows; r++) {
		m[r] = -INFINITY;
		l[r] = 0;
	}
	memset(o, 0, (size_t)rows * d * sizeof(*o));
}

static long row_end(const struct sim *S, int i)
{
	long r1 = (long)(i + 1) * S->br;
	return r1 < S->s->seqlen_q ? r1 : S->s->seqlen_q;
}

static long col_end(const struct sim *S, int j)
{
	long c1 = (long)(j + 1) * S->bc;
	return c1 < S->s->seqlen_kv ? c1 : S->s->seqlen_kv;
}

/* Q-outer: one block per (i, b, h); state in registers. */
static void run_q_outer(struct sim *S, double *m, double *l, double *o,
			double *o_out, double *m_out, double *l_out, double *lse_out)
{
	const int tr = cdiv(S->s->seqlen_q, S->br);
	struct flashsim_counts *c = S->c;
	for (int i = 0; i < tr; i++) {
		long r0 = (long)i * S->br, r1 = row_end(S, i), rows = r1 - r0;
		c->blocks++;
		c->read_bytes[FS_Q] += (uint64_t)rows * S->d * S->esize;
		state_init(rows, S->d, m, l, o);
		int jl = last_kv_block(S, i);
		for (int j = 0; j <= jl; j++) {
			long c0 = (long)j * S->bc, c1 = col_end(S, j);
			c->read_bytes[FS_K] += (uint64_t)(c1 - c0) * S->d * S->esize;
			c->read_bytes[FS_V] += (uint64_t)(c1 - c0) * S->d * S->esize;
			tile_step(S, r0, r1, c0, c1, m, l, o);
		}
		finish_rows(S, r0, r1, jl >= 0, m, l, o, o_out, m_out, l_out, lse_out);
	}
}

/*
 * K/V-outer: one block per (b, h).  Between steps the rows' state goes
 * back to the HBM workspace (O_acc, m, ℓ in fp32): hm, hl, ho.
 */
static void run_kv_outer(struct sim *S, double *m, double *l, double *o,
			 double *hm, double *hl, double *ho, unsigned char *seen,
			 double *o_out, double *m_out, double *l_out, double *lse_out)
{
	const int tr = cdiv(S->s->seqlen_q, S->br), tc = cdiv(S->s->seqlen_kv, S->bc);
	const size_t d = S->d;
	struct flashsim_counts *c = S->c;
	c->blocks++;
	memset(seen, 0, (size_t)tr);
	for (int j = 0; j < tc; j++) {
		long c0 = (long)j * S->bc, c1 = col_end(S, j);
		c->read_bytes[FS_K] += (uint64_t)(c1 - c0) * d * S->esize;
		c->read_bytes[FS_V] += (uint64_t)(c1 - c0) * d * S->esize;
		for (int i = 0; i < tr; i++) {
			int jl = last_kv_block(S, i);
			if (j > jl)
				continue; /* wholly above the diagonal */
			long r0 = (long)i * S->br, r1 = row_end(S, i), rows = r1 - r0;
			c->read_bytes[FS_Q] += (uint64_t)rows * d * S->esize;
			if (seen[i]) {
				c->read_bytes[FS_OACC] += (uint64_t)rows * d * 4;
				c->read_bytes[FS_M] += (uint64_t)rows * 4;
				c->read_bytes[FS_L] += (uint64_t)rows * 4;
				memcpy(m, hm + r0, (size_t)rows * sizeof(*m));
				memcpy(l, hl + r0, (size_t)rows * sizeof(*l));
				memcpy(o, ho + (size_t)r0 * d, (size_t)rows * d * sizeof(*o));
			} else {
				state_init(rows, d, m, l, o);
			}
			seen[i] = 1;
			tile_step(S, r0, r1, c0, c1, m, l, o);
			if (j == jl) {
				finish_rows(S, r0, r1, 1, m, l, o, o_out, m_out, l_out, lse_out);
				continue;
			}
			c->write_bytes[FS_OACC] += (uint64_t)rows * d * 4;
			c->write_bytes[FS_M] += (uint64_t)rows * 4;
			c->write_bytes[FS_L] += (uint64_t)rows * 4;
			/* the workspace is fp32 in the kernel */
			for (long r = 0; r < rows; r++) {
				hm[r0 + r] = R(S, m[r]);
				hl[r0 + r] = R(S, l[r]);
			}
			for (size_t t = 0; t < (size_t)rows * d; t++)
				ho[(size_t)r0 * d + t] = R(S, o[t]);
		}
	}
	/* Q blocks that see no key at all still get their O and statistics. */
	for (int i = 0; i < tr; i++)
		if (!seen[i]) {
			long r0 = (long)i * S->br, r1 = row_end(S, i);
			state_init(r1 - r0, d, m, l, o);
			finish_rows(S, r0, r1, 0, m, l, o, o_out, m_out, l_out, lse_out);
		}
}

uint64_t flashsim_read_total(const struct flashsim_counts *c)
{
	uint64_t t = 0;
	for (int b = 0; b < FS_NBUF; b++)
		t += c->read_bytes[b];
	return t;
}

uint64_t flashsim_write_total(const struct flashsim_counts *c)
{
	uint64_t t = 0;
	for (int b = 0; b < FS_NBUF; b++)
		t += c->write_bytes[b];
	return t;
}

int flashsim_run(const struct attn_shape *s, const struct flashsim_opts *opts,
		 const float *q, const float *k, const float *v,
		 double *o, double *m, double *l, double *lse,
		 struct flashsim_counts *counts)
{
	if (s->batch < 1 || s->heads < 1 || s->kv_heads < 1 || s->head_dim < 1
	    || s->seqlen_q < 1 || s->seqlen_kv < 1)
		return error("flashsim: bad shape (every dimension must be at least 1)");
	if (s->heads % s->kv_heads)
		return error("flashsim: kv_heads %d does not divide heads %d", s->kv_heads, s->heads);
	if (opts->switches > FLASH_ALL)
		return error("flashsim: unknown switch bits 0x%x", opts->switches);

	struct tiling t;
	const struct variant_desc *vd = variant_flash(opts->switches);
	vd->tiling(s, 0, &t);
	struct sim S = {
		.s = s, .sw = opts->switches,
		.br = opts->block_m > 0 ? opts->block_m : t.block_m,
		.bc = opts->block_n > 0 ? opts->block_n : t.block_n,
		.warps = opts->warps > 0 ? opts->warps : t.warps,
		.fp32 = opts->fp32, .visit_masked = opts->visit_masked,
		.d = (size_t)s->head_dim, .esize = dtype_size(s->dtype),
		.off = (long)s->seqlen_kv - s->seqlen_q,
		.scale = 1.0 / sqrt((double)s->head_dim),
	};
	struct flashsim_counts scratch;
	S.c = counts ? counts : &scratch;
	memset(S.c, 0, sizeof(*S.c));

	const size_t d = S.d, nq = (size_t)s->seqlen_q, nkv = (size_t)s->seqlen_kv;
	const int kvouter = !(S.sw & FLASH_SEQPAR);
	const int tr = cdiv(s->seqlen_q, S.br);
	double *st_m = malloc((size_t)S.br * sizeof(double));
	double *st_l = malloc((size_t)S.br * sizeof(double));
	double *st_o = malloc((size_t)S.br * d * sizeof(double));
	S.sc = malloc((size_t)S.bc * sizeof(double));
	S.pv_w = malloc((size_t)S.warps * d * sizeof(double));
	S.l_w = malloc((size_t)S.warps * sizeof(double));
	S.pv = malloc(d * sizeof(double));
	double *hm = kvouter ? malloc(nq * sizeof(double)) : NULL;
	double *hl = kvouter ? malloc(nq * sizeof(double)) : NULL;
	double *ho = kvouter ? malloc(nq * d * sizeof(double)) : NULL;
	unsigned char *seen = kvouter ? malloc((size_t)tr) : NULL;
	int rc = 0;
	if (!st_m || !st_l || !st_o || !S.sc || !S.pv_w || !S.l_w || !S.pv
	    || (kvouter && (!hm || !hl || !ho || !seen))) {
		rc = error("flashsim: out of memory");
		goto out;
	}

	for (int b = 0; b < s->batch; b++)
		for (int h = 0; h < s->heads; h++) {
			int hkv = h / (s->heads / s->kv_heads);
			size_t qo = ((size_t)b * s->heads + h) * nq;
			size_t ko = ((size_t)b * s->kv_heads + hkv) * nkv;
			S.qh = q + qo * d;
			S.kh = k + ko * d;
			S.vh = v + ko * d;
			double *oo = o + qo * d;
			double *mo = m ? m + qo : NULL, *lo = l ? l + qo : NULL;
			double *lseo = lse ? lse + qo : NULL;
			if (kvouter)
				run_kv_outer(&S, st_m, st_l, st_o, hm, hl, ho, seen, oo, mo, lo, lseo);
			else
				run_q_outer(&S, st_m, st_l, st_o, oo, mo, lo, lseo);
		}
out:
	free(st_m); free(st_l); free(st_o);
	free(S.sc); free(S.pv_w); free(S.l_w); free(S.pv);
	free(hm); free(hl); free(ho); free(seen);
	return rc;
}
