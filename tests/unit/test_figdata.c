/* test_figdata.c: a figure's data for the writers that embed a picture
 * (src/doc/figdata.h): a row per record it drew with its kind's values,
 * formatted as the documents format them, and an alt text carrying them.
 * No Cairo: runs in the RENDER=0 build too. */
#include "check.h"

#include "doc/docmodel.h"
#include "doc/figdesc.h"
#include "doc/figdata.h"
#include "doc/inline.h"
#include "util/error.h"

static struct rinputs in;
static struct rdata rd;

static int load(void)
{
	const char *files[1] = { "tests/fixtures/results-small.yaml" };
	if (rinputs_load(&in, files, 1, NULL, 0, NULL))
		return -1;
	rdata_init_inputs(&rd, &in);
	return 0;
}

/* the fixture's record of key at N (fwd, d = 64, non-causal, B·N = 16k, H = 32), or NULL */
static const struct record *at(const char *key, int n)
{
	struct rsel s;
	rsel_any(&s);
	s.n = n;
	s.d = 64;
	s.causal = 0;
	s.batch = 16384 / n;
	s.heads = 32;
	s.phase = PHASE_PREFILL;
	return rdata_find(&rd, key, &s);
}

static void test_tflops_rows(void)
{
	CHECK_INT(load(), 0);
	const struct record *recs[2] = { at("flash2", 512), at("standard", 512) };
	CHECK(recs[0] && recs[1]);
	if (!recs[0] || !recs[1])
		return;
	static struct dtable T;
	/* a block without a description: the records it drew, its kind's quantities */
	struct dblock fb = { .kind = D_FIGURE, .fig = figkind_find("tflops") };
	CHECK(fb.fig != NULL);
	figure_data(&rd, &fb, recs, 2, &T);
	CHECK_INT(T.nrows, 2);
	CHECK_INT(T.ncols, 4);
	CHECK_STR(T.head[0], "record");
	CHECK_STR(T.head[1], "throughput");
	CHECK_STR(T.head[2], "median time");
	CHECK_STR(T.head[3], "results file");
	CHECK_STR(T.cell[0][0], "flash2 fp16 B=32 H=32 N=512 d=64");
	/* the record's own value, as the documents format it */
	char want[64];
	fmt_quantity(recs[0]->tflops, U_TFLOPS, NULL, want, sizeof want);
	CHECK_STR(T.cell[0][1], want);
	CHECK_STR(T.cell[0][3], "results-small.yaml");
	CHECK(T.rec[1][0] == recs[1]);
	CHECK(T.right[1] && !T.right[0]);

	struct dblock b = { .kind = D_FIGURE, .number = 9, .caption = (char *)"Forward \x10TFLOP/s\x11 over N\n" };
	char alt[FIGURE_ALT_MAX];
	figure_alt(&b, &T, alt, sizeof alt);
	char row[200];
	snprintf(row, sizeof row, "Figure 9: Forward TFLOP/s over N. Data: flash2 fp16 B=32 H=32 N=512 d=64: throughput %s,", want);
	CHECK(!strncmp(alt, row, strlen(row)));
	CHECK_CONTAINS(alt, "; standard fp16 B=32 H=32 N=512 d=64: throughput ");
	CHECK(!strchr(alt, '\n') && !strchr(alt, INLINE_OPEN));

	/* too many rows for the room: the rest counted, never cut mid-row */
	char small[200];
	figure_alt(&b, &T, small, sizeof small);
	CHECK_CONTAINS(small, "… and 1 more rows in the figure's data table");
	CHECK(!strstr(small, "standard"));
	rinputs_release(&in);
}

static void test_no_records(void)
{
	CHECK_INT(load(), 0);
	static struct dtable T;
	struct dblock fb = { .kind = D_FIGURE, .fig = figkind_find("tiling") };
	figure_data(&rd, &fb, NULL, 0, &T);
	CHECK_INT(T.nrows, 0);
	struct dblock b = { .kind = D_FIGURE, .number = 2, .title = (char *)"Tiling, step by step" };
	char alt[200];
	figure_alt(&b, &T, alt, sizeof alt);
	CHECK_STR(alt, "Figure 2: Tiling, step by step.");
	rinputs_release(&in);
}

/* a quantity no record has is no column: a data-flow figure of records without counters */
static void test_columns_only_measured(void)
{
	CHECK_INT(load(), 0);
	const struct record *r = at("flash2", 1024);
	CHECK(r != NULL);
	if (!r)
		return;
	static struct dtable T;
	struct dblock fb = { .kind = D_FIGURE, .fig = figkind_find("partition-grid") };
	figure_data(&rd, &fb, &r, 1, &T);
	CHECK_STR(T.head[1], "thread blocks");
	for (int c = 0; c < T.ncols; c++)
		CHECK(strcmp(T.cell[0][c], "–"));
	rinputs_release(&in);
}

/* a figure with a description: a row per point it draws, its value and record */
static void test_from_description(void)
{
	CHECK_INT(load(), 0);
	struct figopts fo;
	figopts_init(&fo);
	static struct figdesc d;
	const struct figkind *k = figkind_find("tflops");
	CHECK_INT(figdesc_build(k, &rd, &fo, &d), 1);
	struct dblock b = { .kind = D_FIGURE, .number = 4, .fig = k, .desc = &d };
	static struct dtable T;
	figure_data(&rd, &b, NULL, 0, &T);
	int points = 0;
	const struct figpoint *first = NULL;
	size_t fs = 0;
	for (size_t p = 0; p < d.npanels; p++)
		for (size_t s = 0; s < d.nseries; s++)
			for (size_t i = 0; i < d.panel[p].ncat; i++) {
				const struct figpoint *pt = figdesc_at(&d, p, s, i);
				if (pt && pt->state == FP_VALUE && pt->rec) {
					if (!points)
						first = pt, fs = s;
					points++;
				}
			}
	CHECK(points > 0);
	CHECK_INT(T.nrows, points < TROWS ? points : TROWS);
	CHECK_STR(T.head[2], "value");
	if (first) {
		char want[64];
		fmt_quantity(first->v, U_TFLOPS, NULL, want, sizeof want);
		CHECK_STR(T.cell[0][2], want);
		CHECK_STR(T.cell[0][1], d.series[fs].label);
		CHECK(T.rec[0][0] == first->rec);
		char alt[FIGURE_ALT_MAX];
		figure_alt(&b, &T, alt, sizeof alt);
		CHECK_CONTAINS(alt, want);
	}
	figdesc_release(&d);
	rinputs_release(&in);
}

TESTS(test_tflops_rows, test_no_records, test_columns_only_measured, test_from_description)
