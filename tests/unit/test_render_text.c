/* test_render_text.c: quantities from a results file, placeholders in
 * template text (values, n/a for gaps, errors at file:line:col) and
 * template loading errors. */
#include "check.h"

#if ATTNPROF_HAVE_RENDER

#include <stdio.h>
#include <unistd.h>

#include "doc/data.h"
#include "doc/figkind.h"
#include "doc/interp.h"
#include "doc/template.h"
#include "util/error.h"
#include "expand_check.h"

static struct results R;
static struct rdata RD;
static int loaded;

static int load(void)
{
	if (loaded)
		return loaded > 0;
	error_quiet(1);
	loaded = results_load(&R, "tests/fixtures/results-small.yaml", NULL) ? -1 : 1;
	error_quiet(0);
	if (loaded > 0) {
		records_resolve(&R, (double)R.header.gpu.hw.l2_bytes);
		rdata_init(&RD, &R, "tests/fixtures/results-small.yaml");
	}
	return loaded > 0;
}

/* Expand text as if it sat at line 3, column 7 of a template. */
static int expand(const char *text, char *out, size_t len)
{
	static char src[2048];
	snprintf(src, sizeof(src), "a: 1\nb: 2\nc:    %s\n", text);
	struct ynode node = { Y_SCALAR, 3, 7, 1, 0, (char *)text, 0, NULL, NULL };
	struct interp ip = { &RD, NULL, "t.yaml", src, strlen(src), 0, 1, 0 };
	return check_expand(&ip, &node, text, out, len);
}

static void test_focus(void)
{
	if (!load()) SKIP("fixture did not load");
	CHECK_INT(RD.synthetic, 1);
	CHECK_INT(RD.focus.n, 4096);
	CHECK_INT(RD.focus.d, 128);
	CHECK_INT(RD.focus.causal, 0);
	CHECK(RD.with_metrics > 0);
}

static void test_quantities(void)
{
	if (!load()) SKIP("fixture did not load");
	struct rsel s;
	rsel_any(&s);
	s.n = 4096; s.d = 128; s.causal = 0; s.phase = PHASE_PREFILL;
	const struct record *f2 = rdata_find(&RD, "flash2", &s), *st = rdata_find(&RD, "standard", &s);
	CHECK(f2 && st);
	if (!f2 || !st)
		return;
	double v;
	enum qunit u;
	char why[256];
	CHECK_INT(rdata_quantity(&RD, f2, "speedup_vs", "standard", &v, &u, why, sizeof(why)), 0);
	CHECK_NEAR(v, st->time_ms / f2->time_ms, 1e-12);
	CHECK_INT(u, U_RATIO);
	/* saved bytes from the descriptors: S and P, 2 GiB each at this shape */
	CHECK_INT(rdata_quantity(&RD, f2, "saved_vs", "standard", &v, &u, why, sizeof(why)), 0);
	CHECK_NEAR(v, 4.0 * 1073741824.0 - 1048576.0, 1e-12);
	CHECK_INT(rdata_quantity(&RD, f2, "hbm_bytes", NULL, &v, &u, why, sizeof(why)), 0);
	CHECK_INT(rdata_quantity(&RD, f2, "no_such", NULL, &v, &u, why, sizeof(why)), -1);
	CHECK_CONTAINS(why, "unknown quantity");
	CHECK_INT(rdata_quantity(&RD, f2, "speedup_vs", NULL, &v, &u, why, sizeof(why)), -1);
	/* a reference series has no correctness check: missing, not an error */
	char key[SERIES_KEY];
	CHECK_INT(rdata_resolve(&RD, "sdpa", key, sizeof(key)), 0);
	CHECK_STR(key, "pytorch-sdpa:FLASH_ATTENTION");
	const struct record *ref = rdata_find(&RD, key, &s);
	CHECK(ref != NULL);
	if (ref)
		CHECK_INT(rdata_quantity(&RD, ref, "max_abs_err", NULL, &v, &u, why, sizeof(why)), 1);
	char keys[16][SERIES_KEY];
	size_t n = rdata_series(&RD, &s, SERIES_MAIN, keys, 16);
	CHECK_INT(n, 4);
	if (n == 4) {
		CHECK_STR(keys[0], "standard");
		CHECK_STR(keys[2], "flash2");
	}
	CHECK_INT(rdata_series(&RD, &s, SERIES_LADDER, keys, 16), 8);
}

static void test_placeholders(void)
{
	if (!load()) SKIP("fixture did not load");
	char out[1024];
	CHECK_INT(expand("GPU {gpu.name}, {gpu.sm_count} SMs", out, sizeof(out)), 0);
	CHECK_STR(out, "GPU NVIDIA H200, 132 SMs");
	CHECK_INT(expand("{standard.alloc.S@N=4096,d=128}", out, sizeof(out)), 0);
	CHECK_STR(out, "2.00 GiB");
	CHECK_INT(expand("{flash2.speedup_vs.standard|%.3f}", out, sizeof(out)), 0);
	CHECK(strlen(out) == 5 && out[1] == '.');
	CHECK_INT(expand("{max(flash2.tflops)|%.0f}", out, sizeof(out)), 0);
	CHECK_STR(out, "311");
	CHECK_INT(expand("{flash2.N@N=max}", out, sizeof(out)), 0);
	CHECK_STR(out, "16384");
	CHECK_INT(expand("{flash2.stores}; not: {flash2.absent}", out, sizeof(out)), 0);
	CHECK_STR(out, "Q, K, V, O, L; not: S, P, m, ℓ");
	CHECK_INT(expand("{{literal}}", out, sizeof(out)), 0);
	CHECK_STR(out, "{literal}");
	/* a value the results lack: n/a, counted */
	CHECK_INT(expand("{flash2.tflops@N=3000}", out, sizeof(out)), 1);
	CHECK_STR(out, "n/a");
}

/* The capture fixture's reference records (standard and flash2, forward
 * and backward at N = 4096, d = 128), a results set of the test's own. */
static int load_reference(struct results *cr, struct rdata *rd)
{
	error_quiet(1);
	int bad = results_load(cr, "tests/fixtures/capture-reference.yaml", NULL);
	error_quiet(0);
	if (!bad) {
		records_resolve(cr, (double)cr->header.gpu.hw.l2_bytes);
		rdata_init(rd, cr, "tests/fixtures/capture-reference.yaml");
	}
	return bad;
}

/* A backward's comparisons pair it with the other variant's backward, not
 * its forward (the fixture: standard 2.76 / 3.9 ms, flash2 1.57 / 5.84 ms
 * forward / backward at N = 4096, d = 128), and a table reference can ask
 * for a pass (@pass=bwd). */
static void test_backward_pairs(void)
{
	struct results cr;
	struct rdata rd;
	if (load_reference(&cr, &rd))
		SKIP("fixture did not load");
	struct rsel s;
	rsel_any(&s);
	s.n = 4096; s.d = 128; s.causal = 0; s.phase = PHASE_PREFILL; s.pass = PASS_BWD;
	const struct record *f2 = rdata_find(&rd, "flash2", &s);
	CHECK(f2 != NULL);
	double v;
	enum qunit u;
	char why[256];
	if (f2) {
		CHECK_INT(rdata_quantity(&rd, f2, "speedup_vs", "standard", &v, &u, why, sizeof(why)), 0);
		CHECK_NEAR(v, 3.9 / 5.84, 1e-9);
	}
	struct interp ip = { &rd, NULL, "t.yaml", "x", 1, 0, 1, 0 };
	struct ynode node = { Y_SCALAR, 1, 1, 1, 0, (char *)"", 0, NULL, NULL };
	struct sbuf sb;
	const char *texts[] = { "{table:speedup@pass=bwd[flash2 vs standard]}", "{table:speedup[flash2 vs standard]}",
				"{table:speedup@pass=fwd+bwd[flash2 vs standard]}", "{table:speedup@pass=back[flash2 vs standard]}" };
	const char *want[] = { "0.67×", "1.76×", NULL, NULL };
	for (int i = 0; i < 4; i++) {
		sbuf_init(&sb);
		error_clear();
		error_quiet(1);
		int rc = interp_expand(&ip, &node, texts[i], &sb);
		error_quiet(0);
		if (want[i]) {
			CHECK_INT(rc, 0);
			CHECK_STR(sb.buf, want[i]);
		} else if (i == 3) {
			CHECK(rc != 0); /* not a pass */
			CHECK_CONTAINS(error_last(), "bad value 'back' for pass");
		} else {
			CHECK_INT(rc, 0); /* no fwd+bwd records in the fixture: a gap, not an error */
			CHECK_STR(sb.buf, "n/a");
		}
		sbuf_release(&sb);
	}
	results_release(&cr);
}

/* The spread table lists a timed record whose median is more than 3 %
 * above its fastest launch, and no other (not a captured call, not a
 * failed run); with none, has:spread is false and the table is empty. */
static void test_timing_spread(void)
{
	struct record r;
	memset(&r, 0, sizeof(r));
	r.source = (char *)"attnprof";
	r.time_ms = 1.04, r.time_ms_min = 1.0, r.time_ms_max = 1.1;
	CHECK(record_spread_flagged(&r));
	r.time_ms = 1.02;
	CHECK(!record_spread_flagged(&r));
	r.time_ms = 1.04, r.error = (char *)"timing";
	CHECK(!record_spread_flagged(&r));
	r.error = NULL, r.time_ms_min = 0;
	CHECK(!record_spread_flagged(&r));
	r.time_ms_min = 1.0, r.source = (char *)"capture"; /* a captured call: its own caveats */
	CHECK(!record_spread_flagged(&r));

	struct results cr;
	struct rdata rd;
	if (load_reference(&cr, &rd))
		SKIP("fixture did not load");
	struct figopts o;
	figopts_init(&o);
	struct dtable *t = table_build(&rd, table_find("spread"), &o);
	CHECK(t != NULL);
	if (t) {
		CHECK_INT(t->nrows, 0); /* the fixture's medians equal their fastest launches */
		CHECK_CONTAINS(t->note, "0 of ");
		table_free(t);
	}
	/* one record made slow in its median: one row, its numbers */
	cr.records[0].time_ms = cr.records[0].time_ms_min * 1.1;
	t = table_build(&rd, table_find("spread"), &o);
	if (t) {
		CHECK_INT(t->nrows, 1);
		CHECK_INT(t->ncols, 10); /* no row has a probed clock: no clock column */
		if (t->nrows == 1)
			CHECK_STR(t->cell[0][9], "1.100");
		table_free(t);
	}
	/* probed: the clock column, lowest – median */
	cr.records[0].sm_clock_mhz = 1838.4, cr.records[0].sm_clock_mhz_min = 1690.2;
	t = table_build(&rd, table_find("spread"), &o);
	if (t) {
		CHECK_INT(t->ncols, 11);
		if (t->nrows == 1)
			CHECK_STR(t->cell[0][10], "1690–1838");
		CHECK_CONTAINS(t->note, "SM clock");
		table_free(t);
	}
	cr.records[0].sm_clock_mhz = cr.records[0].sm_clock_mhz_min = 0;
	/* two equally wide: the same rows whichever comes first in the results */
	cr.records[1].time_ms = cr.records[1].time_ms_min * 1.1;
	char first[2][TCELL] = { "", "" };
	for (int k = 0; k < 2; k++) {
		if (k) {
			struct record tmp = cr.records[0];
			cr.records[0] = cr.records[1];
			cr.records[1] = tmp;
		}
		t = table_build(&rd, table_find("spread"), &o);
		if (t) {
			CHECK_INT(t->nrows, 2);
			snprintf(first[k], TCELL, "%s", t->cell[0][0]);
			table_free(t);
		}
	}
	CHECK_STR(first[0], first[1]);
	results_release(&cr);
}

static void test_placeholder_errors(void)
{
	if (!load()) SKIP("fixture did not load");
	char out[1024];
	/* the column is that of the offending word inside the scalar */
	CHECK_INT(expand("x {flash3.tflops}", out, sizeof(out)), -2);
	CHECK_CONTAINS(out, "t.yaml:3:10: unknown variant 'flash3'");
	CHECK_CONTAINS(out, "did you mean 'flash1'");
	CHECK_INT(expand("{flash2.tflop}", out, sizeof(out)), -2);
	CHECK_CONTAINS(out, "t.yaml:3:15: unknown quantity 'tflop'");
	CHECK_CONTAINS(out, "did you mean 'tflops'");
	CHECK_INT(expand("{flash2.tflops@M=1}", out, sizeof(out)), -2);
	CHECK_CONTAINS(out, "unknown condition 'M'");
	CHECK_INT(expand("{flash2.tflops|%s}", out, sizeof(out)), -2);
	CHECK_CONTAINS(out, "unknown format");
	CHECK_INT(expand("open {flash2.tflops", out, sizeof(out)), -2);
	CHECK_CONTAINS(out, "t.yaml:3:12: '{' is not closed");
	CHECK_INT(expand("{$v.tflops}", out, sizeof(out)), -2);
	CHECK_CONTAINS(out, "each_variant");
	CHECK_INT(expand("{flash2.speedup_vs}", out, sizeof(out)), -2);
	CHECK_CONTAINS(out, "needs an argument");
}

static void test_when(void)
{
	if (!load()) SKIP("fixture did not load");
	struct ynode node = { Y_SCALAR, 1, 1, 1, 0, (char *)"", 0, NULL, NULL };
	struct interp ip = { &RD, NULL, "t.yaml", NULL, 0, 0, 1, 0 };
	int t = -1;
	CHECK_INT(interp_when(&ip, &node, "has:decode", &t), 0);
	CHECK_INT(t, 1);
	CHECK_INT(interp_when(&ip, &node, "not has:ablation", &t), 0);
	CHECK_INT(t, 0);
	CHECK_INT(interp_when(&ip, &node, "flash2.speedup_vs.standard > 1", &t), 0);
	CHECK_INT(t, 1);
	CHECK_INT(interp_when(&ip, &node, "flash2.tflops < standard.tflops", &t), 0);
	CHECK_INT(t, 0);
	CHECK_INT(interp_when(&ip, &node, "flash2.tflops@N=3 > 1", &t), 0); /* missing: false */
	CHECK_INT(t, 0);
	error_quiet(1);
	CHECK_INT(interp_when(&ip, &node, "has:wings", &t), -2);
	CHECK_INT(interp_when(&ip, &node, "flash2.tflops", &t), -2);
	error_quiet(0);
}

static const char *write_tmp(const char *text)
{
	static char path[64];
	snprintf(path, sizeof(path), "/tmp/attnprof-tpl-%d.yaml", (int)getpid());
	FILE *f = fopen(path, "w");
	if (!f)
		return NULL;
	fputs(text, f);
	fclose(f);
	return path;
}

static void test_template_errors(void)
{
	static const struct { const char *text, *want; } cases[] = {
		{ "template: attnprof-template/1\nsections:\n  - title: a\n    blokcs: []\n", ":4:5: unknown key 'blokcs' in a section: did you mean 'blocks'?" },
		{ "template: attnprof-template/1\nsections:\n  - title: a\n    blocks:\n      - figure: tflop\n", ":5:17: unknown figure 'tflop': did you mean 'tflops'?" },
		{ "template: attnprof-template/1\nsections:\n  - blocks:\n      - {table: speedups}\n", "unknown table 'speedups': did you mean 'speedup'?" },
		{ "template: attnprof-template/2\nsections: []\n", ":1:11: template format 'attnprof-template/2' is not supported" },
		{ "title: x\nsections: []\n", "no 'template: attnprof-template/1' line" },
		{ "template: attnprof-template/1\nstyle: neon\nsections: []\n", ":2:8: unknown style 'neon'" },
		{ "template: attnprof-template/1\nsections:\n  - blocks:\n      - {text: a, figure: tflops}\n", "a block has one kind" },
		{ "template: attnprof-template/1\nsections:\n  - blocks:\n      - {figure: dataflow, variant: flash9}\n", "unknown variant 'flash9'" },
		{ "template: attnprof-template/1\nsections: [\n", "" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		const char *p = write_tmp(cases[i].text);
		if (!p)
			SKIP("cannot write /tmp");
		struct template t;
		error_clear();
		error_quiet(1);
		int rc = template_load(&t, p);
		error_quiet(0);
		CHECK_INT(rc, -1);
		CHECK_CONTAINS(error_last(), cases[i].want);
		CHECK_CONTAINS(error_last(), p);
		if (!rc)
			template_release(&t);
		unlink(p);
	}
}

static void test_shipped_templates(void)
{
	static const char *const paths[] = { "templates/review.yaml", "templates/patent.yaml", "templates/slides.yaml" };
	for (size_t i = 0; i < 3; i++) {
		struct template t;
		int rc = template_load(&t, paths[i]);
		CHECK_INT(rc, 0);
		if (!rc) {
			CHECK(t.nsections > 0);
			template_release(&t);
		}
	}
}

TESTS(test_focus, test_quantities, test_placeholders, test_backward_pairs, test_timing_spread, test_placeholder_errors, test_when, test_template_errors,
      test_shipped_templates)

#else
static void test_built_without_render(void) { SKIP("built without the renderer"); }
TESTS(test_built_without_render)
#endif
