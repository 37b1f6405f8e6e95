/* table_decode.c: the decode-paged table — the split-KV decode records
 * shape by shape: the contiguous cache beside the paged one (pages of each
 * size), ragged batches beside the equal batch of the same total bytes,
 * GQA ratios and query lengths as measured, each step's cache bytes over
 * its time against the read-only stream (header.gpu.ceilings.hbm_read_gbs)
 * and the data sheet, and what the page table costs: its bytes and the
 * time against the row's base.  A row's records (doc/claim.h) are its own
 * and its base's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doc/figkind.h"
#include "model.h"
#include "paged.h"
#include "variants.h"

static int splitkv_decode(const struct record *r)
{
	const struct variant_desc *v = r->variant ? variant_find(r->variant) : NULL;
	return r->shape.phase == PHASE_DECODE && v && v->family == FAMILY_SPLITKV && !record_captured(r) &&
	       (!r->source || !strcmp(r->source, "attnprof"));
}

/* the same problem but for the cache's layout, page size and lengths */
static int same_problem(const struct attn_shape *a, const struct attn_shape *b)
{
	return a->dtype == b->dtype && a->head_dim == b->head_dim && a->batch == b->batch && a->heads == b->heads &&
	       a->kv_heads == b->kv_heads && a->seqlen_q == b->seqlen_q && a->seqlen_kv == b->seqlen_kv &&
	       a->causal == b->causal && a->pass == b->pass;
}

static int cmp_shape(const void *pa, const void *pb)
{
	const struct record *x = *(const struct record *const *)pa, *y = *(const struct record *const *)pb;
	const struct attn_shape *a = &x->shape, *b = &y->shape;
	const int k[][2] = {
		{ a->dtype, b->dtype }, { a->head_dim, b->head_dim }, { a->heads / a->kv_heads, b->heads / b->kv_heads },
		{ a->seqlen_q, b->seqlen_q }, { a->causal, b->causal }, { a->batch, b->batch },
		{ a->seqlen_kv, b->seqlen_kv }, { a->kv_heads, b->kv_heads }, { a->kv_layout, b->kv_layout },
		{ a->page_size, b->page_size }, { a->kv_dist, b->kv_dist },
	};
	for (size_t i = 0; i < sizeof k / sizeof k[0]; i++)
		if (k[i][0] != k[i][1])
			return k[i][0] < k[i][1] ? -1 : 1;
	return x < y ? -1 : x > y; /* records in file order */
}

/* What a row is compared with: a paged equal batch with the contiguous
 * cache of its problem; a ragged batch with the equal batch of its page
 * size (the same total bytes); a contiguous row with nothing. */
static const struct record *row_base(const struct record *const *recs, size_t n, const struct record *r)
{
	const struct attn_shape *s = &r->shape;
	if (s->kv_layout != KV_PAGED)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		const struct attn_shape *b = &recs[i]->shape;
		if (recs[i] == r || recs[i]->error || !same_problem(s, b) || b->kv_dist != KV_DIST_EQUAL)
			continue;
		if (s->kv_dist == KV_DIST_EQUAL ? b->kv_layout == KV_CONTIGUOUS
						: b->kv_layout == KV_PAGED && b->page_size == s->page_size)
			return recs[i];
	}
	return NULL;
}

static void cell(char (*row)[TCELL], int col, const char *fmt, double v)
{
	snprintf(row[col], TCELL, fmt, v);
}

void build_decode_paged(struct dtable *T, const struct rdata *rd, const struct figopts *o)
{
	(void)o;
	static const char *const h[] = { "cache", "B", "H / Hkv", "q", "KV length", "read", "median µs", "GB/s",
					 "of read", "of sheet", "vs base", "table" };
	T->ncols = 12;
	for (int i = 0; i < T->ncols; i++) {
		snprintf(T->head[i], sizeof T->head[i], "%s", h[i]);
		T->right[i] = i > 0;
	}
	const struct results *res = rd->res;
	const struct gpu_info *g = &res->header.gpu;
	const double roof = g->ceil.hbm_read_gbs, sheet = g->peak_hbm_gbs;
	const struct record **recs = calloc(res->nrecords ? res->nrecords : 1, sizeof *recs);
	if (!recs)
		return;
	size_t n = 0;
	for (size_t i = 0; i < res->nrecords; i++)
		if (splitkv_decode(&res->records[i]))
			recs[n++] = &res->records[i];
	qsort(recs, n, sizeof *recs, cmp_shape);
	int ragged = 0, paged = 0, mixed = 0; /* mixed: more than one (dtype, d), each row names its own */
	for (size_t i = 1; i < n; i++)
		mixed |= recs[i]->shape.dtype != recs[0]->shape.dtype || recs[i]->shape.head_dim != recs[0]->shape.head_dim;
	for (size_t i = 0; i < n && T->nrows < TROWS; i++) {
		const struct record *r = recs[i], *base = row_base(recs, n, r);
		const struct attn_shape *s = &r->shape;
		const int row_at = T->nrows++;
		char(*row)[TCELL] = T->cell[row_at];
		T->rec[row_at][0] = r;
		T->rec[row_at][1] = base;
		paged |= s->kv_layout == KV_PAGED;
		ragged |= s->kv_dist != KV_DIST_EQUAL;
		/* "paged 16", "paged 16 long-tail", "contiguous": what a template's
		 * cache=… selects (docs/templates.md) */
		char dt[32] = "", dist[24] = "";
		if (mixed)
			snprintf(dt, sizeof dt, ", %s d %d", dtype_name(s->dtype), s->head_dim);
		if (s->kv_dist != KV_DIST_EQUAL)
			snprintf(dist, sizeof dist, " %s", kv_dist_names[s->kv_dist]);
		if (s->kv_layout == KV_PAGED)
			snprintf(row[0], TCELL, "paged %d%s%s", s->page_size, dist, dt);
		else
			snprintf(row[0], TCELL, "contiguous%s%s", dist, dt);
		cell(row, 1, "%.0f", s->batch);
		snprintf(row[2], TCELL, "%d / %d", s->heads, s->kv_heads);
		cell(row, 3, "%.0f", s->seqlen_q);
		cell(row, 4, "%.0f", s->seqlen_kv);
		const double bytes = model_decode_cache_bytes(s), table = model_block_table_bytes(s);
		cell(row, 5, "%.1f MiB", bytes / 1048576.0);
		const int timed = !r->error && r->time_ms > 0;
		const double gbs = timed ? bytes / (r->time_ms * 1e-3) / 1e9 : 0;
		if (timed) {
			cell(row, 6, "%.1f", r->time_ms * 1e3);
			cell(row, 7, "%.0f", gbs);
		}
		if (timed && roof > 0)
			cell(row, 8, "%.1f %%", 100 * gbs / roof);
		if (timed && sheet > 0)
			cell(row, 9, "%.1f %%", 100 * gbs / sheet);
		if (timed && base && base->time_ms > 0)
			cell(row, 10, "%.2f×", base->time_ms / r->time_ms);
		if (s->kv_layout == KV_PAGED)
			cell(row, 11, "%.3f %%", 100 * table / bytes);
		for (int c = 6; c < T->ncols; c++)
			if (!row[c][0])
				snprintf(row[c], TCELL, "–");
		if (r->error || (r->checked && !r->correct))
			T->bad[row_at] = 1;
	}
	free(recs);
	char rooftext[96];
	if (roof > 0)
		snprintf(rooftext, sizeof rooftext, "the read-only stream measured before the sweep (%.0f GB/s)", roof);
	else
		snprintf(rooftext, sizeof rooftext, "the read-only stream, which this file's header lacks (–)");
	snprintf(T->note, sizeof T->note,
		 "Split-KV decode, shape by shape. read = the bytes a step must read of its cache: K and V of every "
		 "request's own keys%s; GB/s = read / median time; of read = that / %s; of sheet = that / the "
		 "data-sheet HBM rate (%.0f GB/s); vs base = the base's time / this time (above 1× faster): a paged "
		 "batch's base is the contiguous cache of the same problem%s; table = the block table's share of "
		 "read.%s Rows are grouped by dtype, d, GQA ratio, q and causal, then B and KV length.",
		 paged ? " and, paged, the block table's used entries and the B lengths (int32)" : "", rooftext, sheet,
		 ragged ? ", a ragged batch's the equal batch of its page size (the same total bytes)" : "",
		 ragged ? " A ragged batch (uniform, long-tail) has B lengths adding up to B × KV length." : "");
}
