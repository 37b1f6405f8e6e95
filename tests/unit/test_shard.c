/* test_shard.c: the sweep's split into shards (src/shard.c) and the merge
 * of shards with its duplicate rule (src/results_merge.c). */

#include <unistd.h>

#include "check.h"
#include "results_merge.h"
#include "shard.h"
#include "spec.h"
#include "util/error.h"

static int load(struct spec *s, const char *path)
{
	spec_init(s);
	int old = error_quiet(1);
	int rc = spec_load(s, path);
	error_quiet(old);
	return rc;
}

/* Every config in exactly one part, the parts' union the sweep, each part in
 * sweep order; for every N up to past the sweep's size. */
static void test_parts_disjoint_union(void)
{
	struct spec s;
	CHECK_INT(load(&s, "experiments/fa2-paper.yaml"), 0);
	int ns[] = { 1, 2, 3, 7, 8, 200 };
	for (size_t t = 0; t < sizeof ns / sizeof ns[0]; t++) {
		int n = ns[t];
		int *owner = calloc(s.nconfigs, sizeof(*owner));
		size_t *seen = calloc(s.nconfigs, sizeof(*seen));
		CHECK_INT(shard_assign(&s, n, owner, NULL), 0);
		size_t total = 0;
		for (int k = 1; k <= n; k++) {
			struct spec p;
			CHECK_INT(load(&p, "experiments/fa2-paper.yaml"), 0);
			CHECK_INT(spec_keep_shard(&p, k, n, NULL, NULL), 0);
			size_t last = 0;
			for (size_t i = 0; i < p.nconfigs; i++) {
				/* find the config in the sweep: same variant and shape */
				size_t j;
				for (j = 0; j < s.nconfigs; j++)
					if (s.configs[j].variant == p.configs[i].variant &&
					    !memcmp(&s.configs[j].shape, &p.configs[i].shape, sizeof(p.configs[i].shape)))
						break;
				CHECK(j < s.nconfigs);
				if (j == s.nconfigs)
					continue;
				CHECK_INT(owner[j], k);
				CHECK(i == 0 || j > last); /* sweep order kept */
				last = j;
				seen[j]++;
			}
			total += p.nconfigs;
			spec_release(&p);
		}
		CHECK_INT(total, s.nconfigs);
		for (size_t j = 0; j < s.nconfigs; j++)
			CHECK_INT(seen[j], 1);
		free(owner);
		free(seen);
	}
	spec_release(&s);
}

/* Balanced by predicted time, not by count: the LPT bound (no part above
 * the mean by more than the largest config), and the same split twice. */
static void test_parts_balanced_by_time(void)
{
	struct spec s;
	CHECK_INT(load(&s, "experiments/fa2-paper.yaml"), 0);
	int n = 8;
	double load8[8], again[8], total = 0, largest = 0;
	int *owner = calloc(s.nconfigs, sizeof(*owner)), *owner2 = calloc(s.nconfigs, sizeof(*owner2));
	CHECK_INT(shard_assign(&s, n, owner, load8), 0);
	CHECK_INT(shard_assign(&s, n, owner2, again), 0);
	for (size_t i = 0; i < s.nconfigs; i++) {
		double ms = config_predicted_ms(&s.configs[i]);
		CHECK(ms > 0);
		total += ms;
		if (ms > largest)
			largest = ms;
		CHECK_INT(owner[i], owner2[i]);
	}
	double sum = 0;
	for (int k = 0; k < n; k++) {
		CHECK(load8[k] <= total / n + largest + 1e-9);
		CHECK(load8[k] == again[k]);
		sum += load8[k];
	}
	CHECK_NEAR(sum, total, 1e-12);
	/* the counts differ where the times do: the split is not by count */
	size_t count[9] = { 0 };
	for (size_t i = 0; i < s.nconfigs; i++)
		count[owner[i]]++;
	size_t lo = s.nconfigs, hi = 0;
	for (int k = 1; k <= n; k++) {
		lo = count[k] < lo ? count[k] : lo;
		hi = count[k] > hi ? count[k] : hi;
	}
	CHECK(hi > lo);
	free(owner);
	free(owner2);
	spec_release(&s);
}

static void test_shard_parse(void)
{
	int k = 0, n = 0;
	int old = error_quiet(1);
	CHECK_INT(shard_parse("--shard", "2/8", &k, &n), 0);
	CHECK_INT(k, 2);
	CHECK_INT(n, 8);
	CHECK_INT(shard_parse("--shard", "0/8", &k, &n), -1);
	CHECK_INT(shard_parse("--shard", "9/8", &k, &n), -1);
	CHECK_INT(shard_parse("--shard", "2", &k, &n), -1);
	CHECK_INT(shard_parse("--shard", "2/8x", &k, &n), -1);
	CHECK_INT(shard_parse("--shard", "1/99999", &k, &n), -1);
	CHECK_CONTAINS(error_last(), "must be K/N");
	error_quiet(old);
}

/* The one rule: newer date wins (as instants); equal dates: the later path; one file: 0. */
static void set_date(struct results_header *h, const char *d)
{
	h->date = (char *)d;
	h->date_known = d && !results_date(d, &h->date_utc);
}

static void test_supersedes_rule(void)
{
	struct results_header a = { 0 }, b = { 0 };
	set_date(&a, "2026-12-01T10:00:00Z");
	set_date(&b, "2026-12-01T11:00:00Z");
	CHECK(results_supersedes(&b, "a.yaml", &a, "b.yaml") > 0);
	CHECK(results_supersedes(&a, "b.yaml", &b, "a.yaml") < 0);
	/* the same second written two ways */
	set_date(&b, "2026-12-01 10:00:00+00:00");
	CHECK(results_supersedes(&a, "x/b.yaml", &b, "x/a.yaml") > 0);
	CHECK(results_supersedes(&a, "x/a.yaml", &b, "x/b.yaml") < 0);
	CHECK_INT(results_supersedes(&a, "x/a.yaml", &a, "x/a.yaml"), 0);
	/* an offset counts: 19:00+09:00 is 10:00Z, older than 10:30Z although its text sorts later */
	set_date(&a, "2026-12-01T19:00:00+09:00");
	set_date(&b, "2026-12-01T10:30:00Z");
	CHECK(results_supersedes(&b, "a.yaml", &a, "b.yaml") > 0);
	/* no date: older than any */
	set_date(&b, NULL);
	CHECK(results_supersedes(&a, "a.yaml", &b, "z.yaml") > 0);
}

static int merge_paths(const char *const *paths, size_t n, const char *primary, struct results *out,
		       struct merge_report *rep, struct merge_input *in)
{
	for (size_t j = 0; j < n; j++) {
		in[j].path = paths[j];
		if (results_load(&in[j].res, paths[j], &in[j].cut))
			return -1;
	}
	struct merge_opts o = { .primary = primary, .quiet = 1 };
	int old = error_quiet(1);
	int rc = results_merge(in, n, &o, out, rep);
	error_quiet(old);
	return rc;
}

static void release_inputs(struct merge_input *in, size_t n)
{
	for (size_t j = 0; j < n; j++)
		results_release(&in[j].res);
}

#define F "tests/fixtures/shards/"

/* The merge's records: the newer file's for a duplicate, --primary's when
 * given; the same output whatever the inputs' order. */
static void test_merge_rule_and_order(void)
{
	const char *fwd[] = { F "tiny.shard-1-of-3.yaml", F "tiny.shard-2-of-3.yaml", F "tiny.shard-3-of-3.yaml",
			      F "rerun-2-of-3.yaml" };
	const char *rev[] = { F "rerun-2-of-3.yaml", F "tiny.shard-3-of-3.yaml", F "tiny.shard-2-of-3.yaml",
			      F "tiny.shard-1-of-3.yaml" };
	struct merge_input a[4] = { 0 }, b[4] = { 0 }, c[4] = { 0 };
	struct results ra, rb, rc_;
	struct merge_report pa, pb, pc;
	CHECK_INT(merge_paths(fwd, 4, NULL, &ra, &pa, a), 0);
	CHECK_INT(merge_paths(rev, 4, NULL, &rb, &pb, b), 0);
	CHECK_INT(pa.records, 12);
	CHECK_INT(pa.superseded, 4);
	CHECK_INT(pa.missing, 0);
	CHECK(ra.header.shard == NULL);
	char *ta = NULL, *tb = NULL;
	size_t la = 0, lb = 0;
	FILE *fa = open_memstream(&ta, &la), *fb = open_memstream(&tb, &lb);
	CHECK_INT(results_write(&ra, fa), 0);
	CHECK_INT(results_write(&rb, fb), 0);
	fclose(fa);
	fclose(fb);
	CHECK(la == lb && !memcmp(ta, tb, la));
	free(ta);
	free(tb);
	/* shard 2's configs come from the rerun (times 10 % lower), the rest from the first run */
	struct results rerun, first;
	CHECK_INT(results_load(&rerun, F "rerun-2-of-3.yaml", NULL), 0);
	CHECK_INT(results_load(&first, F "tiny.shard-2-of-3.yaml", NULL), 0);
	char key[256];
	for (size_t i = 0; i < rerun.nrecords; i++) {
		record_key(&rerun.records[i], key, sizeof(key));
		long at = results_find(&ra, key);
		CHECK(at >= 0);
		if (at >= 0)
			CHECK(ra.records[at].time_ms == rerun.records[i].time_ms);
	}
	/* --primary puts the first run back on top */
	CHECK_INT(merge_paths(fwd, 4, F "tiny.shard-2-of-3.yaml", &rc_, &pc, c), 0);
	for (size_t i = 0; i < first.nrecords; i++) {
		record_key(&first.records[i], key, sizeof(key));
		long at = results_find(&rc_, key);
		CHECK(at >= 0);
		if (at >= 0)
			CHECK(rc_.records[at].time_ms == first.records[i].time_ms);
	}
	results_release(&rerun);
	results_release(&first);
	results_release(&ra);
	results_release(&rb);
	results_release(&rc_);
	release_inputs(a, 4);
	release_inputs(b, 4);
	release_inputs(c, 4);
}

/* The merged shards hold what the single run holds, in its order. */
static void test_merge_equals_single_run(void)
{
	const char *p[] = { F "tiny.shard-3-of-3.yaml", F "tiny.shard-1-of-3.yaml", F "tiny.shard-2-of-3.yaml" };
	struct merge_input in[3] = { 0 };
	struct results out, whole;
	struct merge_report rep;
	CHECK_INT(merge_paths(p, 3, NULL, &out, &rep, in), 0);
	CHECK_INT(results_load(&whole, F "whole.yaml", NULL), 0);
	CHECK_INT(out.nrecords, whole.nrecords);
	char k1[256], k2[256];
	for (size_t i = 0; i < out.nrecords && i < whole.nrecords; i++) {
		record_key(&out.records[i], k1, sizeof(k1));
		record_key(&whole.records[i], k2, sizeof(k2));
		CHECK_STR(k1, k2);
		/* each record's own conditions, kept */
		CHECK(out.records[i].time_ms == whole.records[i].time_ms);
		CHECK(out.records[i].sm_clock_mhz == whole.records[i].sm_clock_mhz);
		CHECK(out.records[i].settle_ms == whole.records[i].settle_ms);
		CHECK(out.records[i].seed == whole.records[i].seed);
	}
	results_release(&out);
	results_release(&whole);
	release_inputs(in, 3);
}

/* A partial shard and a missing part are counted; a driver differs: refused. */
static void test_merge_missing_and_mixed(void)
{
	const char *p[] = { F "tiny.shard-1-of-3.yaml", F "partial-2-of-3.yaml" };
	struct merge_input in[2] = { 0 };
	struct results out;
	struct merge_report rep;
	CHECK_INT(merge_paths(p, 2, NULL, &out, &rep, in), 0);
	/* one config of part 2, all of part 3 */
	struct spec s;
	CHECK_INT(load(&s, F "tiny.yaml"), 0);
	CHECK_INT(spec_keep_shard(&s, 3, 3, NULL, NULL), 0);
	CHECK_INT(rep.missing, 1 + s.nconfigs);
	spec_release(&s);
	results_release(&out);
	release_inputs(in, 2);

	const char *q[] = { F "tiny.shard-1-of-3.yaml", F "driver-3-of-3.yaml" };
	struct merge_input in2[2] = { 0 };
	CHECK_INT(merge_paths(q, 2, NULL, &out, &rep, in2), -1);
	CHECK_CONTAINS(error_last(), "header.gpu.driver");
	CHECK_CONTAINS(error_last(), "driver-3-of-3.yaml");
	CHECK_CONTAINS(error_last(), "tiny.shard-1-of-3.yaml");
	release_inputs(in2, 2);
}

/* header.shard is written (only when set) and read back */
static void test_header_shard_round_trip(void)
{
	struct results r, back;
	CHECK_INT(results_load(&r, F "tiny.shard-2-of-3.yaml", NULL), 0);
	CHECK_STR(r.header.shard, "2/3");
	char *t = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&t, &len);
	CHECK_INT(results_write(&r, f), 0);
	fclose(f);
	CHECK(strstr(t, "\n  shard: 2/3\n") != NULL);
	CHECK_INT(results_parse(&back, t, len, "mem.yaml", NULL), 0);
	CHECK_STR(back.header.shard, "2/3");
	free(t);
	results_release(&back);
	/* a whole sweep's file has no shard key */
	free(r.header.shard);
	r.header.shard = NULL;
	t = NULL;
	f = open_memstream(&t, &len);
	CHECK_INT(results_write(&r, f), 0);
	fclose(f);
	CHECK(strstr(t, "shard:") == NULL);
	free(t);
	results_release(&r);
}

TESTS(test_header_shard_round_trip, test_parts_disjoint_union, test_parts_balanced_by_time, test_shard_parse, test_supersedes_rule,
      test_merge_rule_and_order, test_merge_equals_single_run, test_merge_missing_and_mixed)
