/* test_series_index.c: lookups through the index of series keys
 * (src/doc/series_index.h) find what a scan of every record finds. */
#include "check.h"

#include "doc/data.h"
#include "doc/series_index.h"
#include "util/error.h"

#include <stdlib.h>
#include <unistd.h>

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
		s.n = r->shape.seqlen_kv;
		s.causal = r->shape.causal;
		s.phase = r->shape.phase;
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

/* report --counters: a counters file's records are never drawn; a drawn
 * record of the same identity takes the counters it lacks (and only those)
 * from it, and the file is named among the inputs */
static void test_counters_file(void)
{
	struct results r;
	CHECK_INT(results_load(&r, "tests/fixtures/results-small.yaml", NULL), 0);
	CHECK(r.nrecords > 2);
	char dir[] = "/tmp/attnprof-counters-XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	char path[128];
	snprintf(path, sizeof path, "%s/workload.yaml", dir);
	/* record 0 again: another time, a counter the drawn one lacks, and one it has */
	const double drawn_ms = r.records[0].time_ms;
	const double *had = r.records[0].totals.n ? &r.records[0].totals.items[0].value : NULL;
	const double had_value = had ? *had : 0;
	char had_name[128] = "";
	if (had)
		snprintf(had_name, sizeof had_name, "%s", r.records[0].totals.items[0].name);
	r.records[0].time_ms = drawn_ms * 3; /* another run's time: min and max with it */
	r.records[0].time_ms_min *= 3;
	r.records[0].time_ms_max *= 3;
	CHECK_INT(kvlist_set(&r.records[0].totals, "l1tex__t_bytes.sum", 123456), 0);
	if (had)
		CHECK_INT(kvlist_set(&r.records[0].totals, had_name, had_value + 1), 0);
	/* record 1 at a shape none of the drawn records has */
	r.records[1].shape.batch = 999;
	for (size_t i = 2; i < r.nrecords; i++) /* the file holds these two only */
		record_release(&r.records[i]);
	r.nrecords = 2;
	CHECK_INT(results_save(&r, path), 0);
	results_release(&r);

	const char *files[] = { "tests/fixtures/results-small.yaml" }, *counters[] = { path };
	const struct rinputs_args a = { files, 1, NULL, 0, NULL, counters, 1 };
	struct rinputs in;
	error_quiet(1);
	CHECK_INT(rinputs_load_args(&in, &a), 0);
	error_quiet(0);
	const struct record *d = &in.res.records[0];
	CHECK(d->time_ms == drawn_ms);
	const double *got = record_metric(d, "l1tex__t_bytes.sum");
	CHECK(got && *got == 123456);
	if (had) {
		const double *kept = record_metric(d, had_name);
		CHECK(kept && *kept == had_value);
	}
	for (size_t i = 0; i < in.res.nrecords; i++)
		CHECK(in.res.records[i].shape.batch != 999);
	CHECK_INT(in.counter_records, 1);
	CHECK(strstr(in.files, "counters from: workload.yaml") != NULL);
	rinputs_release(&in);
	unlink(path);
	rmdir(dir);
}

TESTS(test_positions_in_file_order, test_lookups_agree_with_a_scan, test_counters_file)
