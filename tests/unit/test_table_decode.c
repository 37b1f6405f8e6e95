/* test_table_decode.c: the decode-paged table (src/doc/table_decode.c) and
 * has:paged, over records made here (synthetic times, not measurements):
 * rows grouped by shape whatever the file's order, each step's cache bytes
 * from the model (K + V of the requests' own keys, the block table and
 * lengths), GB/s against the read-only stream and the data sheet, a paged
 * row against the contiguous cache of its problem, a ragged row against
 * the equal batch of its page size, the table's share of the bytes, and a
 * header without the read stream drawn as "–". */
#include "check.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "doc/figkind.h"
#include "doc/interp.h"
#include "model.h"
#include "paged.h"
#include "results.h"
#include "util/yamltree.h"
#include "variants.h"

static struct record *add(struct results *res, const char *variant, int B, int hkv, int q, int nkv, int page,
			  enum kv_dist dist, double ms)
{
	struct record *r = &res->records[res->nrecords++];
	record_init(r);
	r->source = strdup("attnprof");
	r->variant = strdup(variant);
	r->shape.phase = PHASE_DECODE;
	r->shape.dtype = DTYPE_FP16;
	r->shape.batch = B, r->shape.heads = 32, r->shape.kv_heads = hkv;
	r->shape.seqlen_q = q, r->shape.seqlen_kv = nkv, r->shape.head_dim = 128;
	r->shape.kv_layout = page ? KV_PAGED : KV_CONTIGUOUS;
	r->shape.page_size = page;
	r->shape.kv_dist = dist;
	r->shape.kv_seed = dist == KV_DIST_EQUAL ? 0 : 3;
	r->time_ms = ms;
	r->checked = r->correct = 1;
	return r;
}

static void fill(struct results *res)
{
	results_init(res);
	res->records = calloc(8, sizeof *res->records);
	res->header.gpu.peak_hbm_gbs = 3352.3;
	res->header.gpu.ceil.hbm_read_gbs = 3200;
	/* out of order on purpose: ragged first, the contiguous base last */
	add(res, "decode-paged", 32, 8, 1, 1024, 16, KV_DIST_LONG_TAIL, 0.0250);
	add(res, "decode-paged", 32, 8, 1, 1024, 16, KV_DIST_EQUAL, 0.0200);
	add(res, "decode-paged", 1, 8, 1, 16384, 16, KV_DIST_EQUAL, 0.0210);
	add(res, "decode-splitkv", 1, 8, 1, 16384, 0, KV_DIST_EQUAL, 0.0200);
	add(res, "decode-splitkv", 32, 8, 1, 1024, 0, KV_DIST_EQUAL, 0.0190);
}

static int row_of(const struct dtable *t, const char *c0, const char *b, const char *kv)
{
	for (int i = 0; i < t->nrows; i++)
		if (!strcmp(t->cell[i][0], c0) && !strcmp(t->cell[i][1], b) && !strcmp(t->cell[i][4], kv))
			return i;
	return -1;
}

static void test_decode_paged_table(void)
{
	struct results res;
	fill(&res);
	struct rdata rd;
	rdata_init(&rd, &res, "synthetic.yaml");
	struct figopts o;
	figopts_init(&o);
	CHECK(table_find("decode-paged") >= 0);
	struct dtable *t = table_build(&rd, table_find("decode-paged"), &o);
	CHECK(t != NULL);
	if (!t) {
		results_release(&res);
		return;
	}
	CHECK_INT(t->nrows, 5);
	CHECK_INT(t->ncols, 12);
	/* grouped: B 1 before B 32, contiguous before paged, equal before ragged */
	CHECK_STR(t->cell[0][0], "contiguous");
	CHECK_STR(t->cell[0][1], "1");
	CHECK_STR(t->cell[1][0], "paged 16");
	CHECK_STR(t->cell[2][0], "contiguous");
	CHECK_STR(t->cell[2][1], "32");
	CHECK_STR(t->cell[4][0], "paged 16 long-tail");
	CHECK_STR(t->cell[4][4], "1024");

	/* contiguous, B 1, 16k: K + V = 2·8·16384·128·2 = 64 MiB over 20 µs */
	int c = row_of(t, "contiguous", "1", "16384");
	CHECK(c >= 0);
	if (c >= 0) {
		CHECK_STR(t->cell[c][2], "32 / 8");
		CHECK_STR(t->cell[c][5], "64.0 MiB");
		CHECK_STR(t->cell[c][6], "20.0");
		CHECK_STR(t->cell[c][7], "3355");       /* 67108864 B / 20 µs */
		CHECK_STR(t->cell[c][8], "104.9 %");    /* of the 3200 GB/s read stream */
		CHECK_STR(t->cell[c][9], "100.1 %");    /* of the 3352 data sheet */
		CHECK_STR(t->cell[c][10], "–");         /* no base */
		CHECK_STR(t->cell[c][11], "–");         /* no table */
		CHECK(t->rec[c][0] == &res.records[3] && t->rec[c][1] == NULL);
	}
	/* paged 16: + 1024 table entries + 1 length, int32; against the contiguous row */
	int p = row_of(t, "paged 16", "1", "16384");
	CHECK(p >= 0);
	if (p >= 0) {
		const double bytes = 67108864.0 + 4 * (1024 + 1);
		CHECK(model_decode_cache_bytes(&res.records[2].shape) == bytes);
		CHECK(model_block_table_bytes(&res.records[2].shape) == 4100);
		char want[32];
		snprintf(want, sizeof want, "%.0f", bytes / 21e-6 / 1e9);
		CHECK_STR(t->cell[p][7], want);
		CHECK_STR(t->cell[p][10], "0.95×");     /* 20 / 21 µs */
		CHECK_STR(t->cell[p][11], "0.006 %");   /* 4100 of 67113 kB */
		CHECK(t->rec[p][0] == &res.records[2] && t->rec[p][1] == &res.records[3]);
	}
	/* ragged: against the equal batch of its page size, not the contiguous one */
	int g = row_of(t, "paged 16 long-tail", "32", "1024");
	CHECK(g >= 0);
	if (g >= 0) {
		CHECK_STR(t->cell[g][10], "0.80×");     /* 20 / 25 µs */
		CHECK(t->rec[g][1] == &res.records[1]);
		/* its own keys add up to B·Nkv: the same K + V as the equal batch, more pages */
		const double kv = 2.0 * 8 * 32 * 1024 * 128 * 2;
		CHECK(model_decode_cache_bytes(&res.records[0].shape) - model_block_table_bytes(&res.records[0].shape) == kv);
		CHECK(model_block_table_bytes(&res.records[0].shape) >= model_block_table_bytes(&res.records[1].shape));
	}
	int e = row_of(t, "paged 16", "32", "1024");
	CHECK(e >= 0 && t->rec[e][1] == &res.records[4]);
	CHECK_CONTAINS(t->note, "read-only stream measured before the sweep (3200 GB/s)");
	CHECK_CONTAINS(t->note, "ragged batch's the equal batch");
	table_free(t);

	/* no read stream in the header: that column is –, and the note says so */
	res.header.gpu.ceil.hbm_read_gbs = 0;
	t = table_build(&rd, table_find("decode-paged"), &o);
	if (t) {
		CHECK_STR(t->cell[0][8], "–");
		CHECK_STR(t->cell[0][9], "100.1 %");
		CHECK_CONTAINS(t->note, "which this file's header lacks");
		table_free(t);
	}
	/* a failed run: flagged, no rate */
	res.records[3].error = strdup("planted: a test's failure");
	t = table_build(&rd, table_find("decode-paged"), &o);
	if (t) {
		c = row_of(t, "contiguous", "1", "16384");
		CHECK(c >= 0 && t->bad[c] && !strcmp(t->cell[c][7], "–"));
		p = row_of(t, "paged 16", "1", "16384");
		CHECK(p >= 0 && !strcmp(t->cell[p][10], "–")); /* its base failed: no ratio */
		table_free(t);
	}
	results_release(&res);
}

/* has:paged is true only with a paged decode record that ran */
static void test_has_paged(void)
{
	struct results res;
	fill(&res);
	struct rdata rd;
	rdata_init(&rd, &res, "synthetic.yaml");
	struct ynode node = { Y_SCALAR, 1, 1, 1, 0, (char *)"", 0, NULL, NULL };
	struct interp ip = { &rd, NULL, "t.yaml", NULL, 0, 0, 1, 0 };
	int truth = -1;
	CHECK_INT(interp_when(&ip, &node, "has:paged", &truth), 0);
	CHECK_INT(truth, 1);
	for (size_t i = 0; i < 3; i++)
		res.records[i].shape.kv_layout = KV_CONTIGUOUS, res.records[i].shape.page_size = 0;
	CHECK_INT(interp_when(&ip, &node, "has:paged", &truth), 0);
	CHECK_INT(truth, 0);
	results_release(&res);
}

TESTS(test_decode_paged_table, test_has_paged)
