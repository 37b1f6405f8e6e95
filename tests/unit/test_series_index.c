/* test_series_index.c: lookups through the index of series keys
 * (src/render/series_index.h) find what a scan of every record finds. */
#include "check.h"

#include "render/data.h"
#include "render/series_index.h"

static void test_positions_in_file_order(void)
{
	struct rinputs in;
	const char *files[] = { "tests/fixtures/results-small.yaml" };
	CHECK_INT(rinputs_load(&in, files, 1, NULL, 0, NULL), 0);
	const struct series_index *x = &in.by_series;
	CHECK(x->nkeys > 3);
	size_t total = 0;
	char k[SERIES_KEY];
	for (size_t i = 0; i < x->nkeys; i++) {
		size_t n;
		const size_t *pos = series_index_get(x, x->keys[i], &n);
		CHECK(pos && n > 0);
		for (size_t j = 0; pos && j < n; j++) {
			CHECK_STR(record_series(&in.res.records[pos[j]], k, sizeof k), x->keys[i]);
			if (j)
				CHECK(pos[j] > pos[j - 1]);
		}
		if (i)
			CHECK(strcmp(x->keys[i - 1], x->keys[i]) < 0);
		total += n;
	}
	CHECK_INT(total, in.res.nrecords);
	size_t n = 7;
	CHECK(!series_index_get(x, "no-such-series", &n));
	CHECK_INT(n, 0);
	rinputs_release(&in);
}

/* every series at every N and mask it was measured at: the same record
 * (or the same refusal of an ambiguous selection) with and without the index */
static void test_lookups_agree_with_a_scan(void)
{
	struct rinputs in;
	const char *files[] = { "tests/fixtures/results-small.yaml" };
	CHECK_INT(rinputs_load(&in, files, 1, NULL, 0, NULL), 0);
	struct rdata with, without;
	rdata_init_inputs(&with, &in);
	rdata_init_inputs(&without, &in);
	without.by_series = NULL;
	CHECK(with.by_series != NULL);
	int found = 0;
	char k[SERIES_KEY];
	for (size_t i = 0; i < in.res.nrecords; i++) {
		const struct record *r = &in.res.records[i];
		record_series(r, k, sizeof k);
		struct rsel s;
		rsel_any(&s);
		s.n = r->seqlen_kv;
		s.causal = r->causal;
		s.phase = r->phase;
		const struct record *a = rdata_find(&with, k, &s), *b = rdata_find(&without, k, &s);
		CHECK(a == b);
		found += a != NULL;
		CHECK(rdata_find_any(&with, k, &s) == rdata_find_any(&without, k, &s));
		int va[64], vb[64];
		size_t na = rdata_values(&with, k, &s, RF_D, va, 64), nb = rdata_values(&without, k, &s, RF_D, vb, 64);
		CHECK_INT(na, nb);
		CHECK(na == nb && !memcmp(va, vb, na * sizeof(*va)));
	}
	CHECK(found > 0);
	rinputs_release(&in);
}

TESTS(test_positions_in_file_order, test_lookups_agree_with_a_scan)
