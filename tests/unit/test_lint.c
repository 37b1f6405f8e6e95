/* test_lint.c: the linter's rules on layout records built by hand — each
 * rule fires on the case it names and stays quiet on a clean page — and
 * the layout record's file round trip. */
#include "check.h"

#include <unistd.h>

#include "layrec.h"
#include "lint.h"
#include "util/error.h"

static void page(struct lint *L)
{
	memset(L, 0, sizeof(*L));
	L->file = "t.pdf";
	layrec_init(&L->rec);
	snprintf(L->rec.style, sizeof(L->rec.style), "color");
	L->rec.min[LR_BODY] = 9;
	L->rec.min[LR_TEXT] = 7;
	L->rec.min[LR_FIGURE] = 7;
	layrec_page(&L->rec, 600, 800, 50, 50, 50, 50);
}

static void text(struct lint *L, double x, double y, double w, double h, double size, const char *s)
{
	double q[8] = { x, y, x + w, y, x + w, y + h, x, y + h };
	layrec_text(&L->rec, layrec_group(&L->rec), size, q, s, strlen(s));
}

static int has(const struct lint *L, const char *what)
{
	for (size_t i = 0; i < L->nf; i++)
		if (strstr(L->f[i].what, what))
			return 1;
	return 0;
}

static void test_clean_page(void)
{
	struct lint L;
	page(&L);
	text(&L, 60, 60, 100, 10, 9.5, "a heading");
	text(&L, 60, 75, 100, 10, 9.5, "a paragraph");
	layrec_line(&L.rec, 0.5, 60, 90, 300, 90);
	layrec_fig_begin(&L.rec, 60, 100, 300, 300, "tflops");
	layrec_line(&L.rec, 1, 70, 290, 290, 290);
	text(&L, 70, 292, 20, 6, 7.5, "1024");
	layrec_fig_end(&L.rec);
	CHECK_INT(lint_run(&L), 0);
	lint_release(&L);
}

static void test_overlap(void)
{
	struct lint L;
	page(&L);
	text(&L, 60, 60, 100, 10, 9.5, "first");
	text(&L, 150, 65, 100, 10, 9.5, "second");
	CHECK(lint_run(&L) >= 1);
	CHECK(has(&L, "text 'first' overlaps text 'second'"));
	lint_release(&L);
	/* touching ink (within 0.4 pt) is not a collision */
	page(&L);
	text(&L, 60, 60, 100, 10, 9.5, "first");
	text(&L, 159.8, 60, 100, 10, 9.5, "second");
	CHECK_INT(lint_run(&L), 0);
	lint_release(&L);
}

static void test_crossing_and_hatch(void)
{
	struct lint L;
	page(&L);
	text(&L, 60, 60, 100, 10, 9.5, "label");
	layrec_line(&L.rec, 0.5, 110, 50.5, 110, 80);
	CHECK(has((lint_run(&L), &L), "text 'label' crosses a line"));
	lint_release(&L);
	/* a rotated label crossed by a line through its middle */
	page(&L);
	double q[8] = { 100, 200, 170.7, 129.3, 177.8, 136.4, 107.1, 207.1 };
	layrec_text(&L.rec, 1, 9, q, "diagonal", 8);
	layrec_line(&L.rec, 0.5, 140, 100, 140, 240);
	CHECK(has((lint_run(&L), &L), "crosses a line"));
	lint_release(&L);
	/* a line beside the rotated label's box corner does not cross it */
	page(&L);
	layrec_text(&L.rec, 1, 9, q, "diagonal", 8);
	layrec_line(&L.rec, 0.5, 100, 130, 120, 130);
	CHECK_INT(lint_run(&L), 0);
	lint_release(&L);
	page(&L);
	layrec_fill(&L.rec, 1, 60, 60, 200, 100);
	text(&L, 70, 70, 30, 8, 9.5, "58");
	CHECK(has((lint_run(&L), &L), "on a hatched area"));
	lint_release(&L);
}

static void test_size_margins_empty(void)
{
	struct lint L;
	page(&L);
	L.rec.role = LR_BODY;
	text(&L, 60, 60, 100, 10, 8.5, "small body");
	L.rec.role = LR_TEXT;
	text(&L, 60, 80, 100, 10, 8.5, "caption is fine at 8.5");
	layrec_fig_begin(&L.rec, 60, 100, 300, 300, "hbm");
	layrec_line(&L.rec, 1, 70, 290, 290, 290);
	text(&L, 70, 200, 20, 6, 6.4, "tick");
	layrec_fig_end(&L.rec);
	layrec_fig_begin(&L.rec, 60, 400, 300, 500, "memory");
	text(&L, 70, 420, 60, 6, 7.5, "only words");
	layrec_fig_end(&L.rec);
	text(&L, 20, 700, 50, 10, 9.5, "in the margin");
	layrec_line(&L.rec, 1, 300, 760, 590, 760);
	lint_run(&L);
	CHECK(has(&L, "body text 'small body' is 8.5 pt, below the color style's 9.0 pt minimum"));
	CHECK(!has(&L, "'caption is fine"));
	CHECK(has(&L, "figure text 'tick' is 6.4 pt"));
	CHECK(has(&L, "figure 'memory' draws nothing"));
	CHECK(!has(&L, "figure 'hbm' draws nothing"));
	CHECK(has(&L, "text 'in the margin' outside the margins"));
	CHECK(has(&L, "a line outside the margins"));
	CHECK_INT(L.nf, 5);
	lint_release(&L);
}

static void test_knockout(void)
{
	struct lint L;
	page(&L);
	layrec_line(&L.rec, 0.5, 110, 50.5, 110, 80);
	layrec_fill(&L.rec, -1, 58, 58, 162, 72);
	text(&L, 60, 60, 100, 10, 9.5, "label");
	/* a grid line painted before the label, under its knockout: hidden */
	CHECK_INT(lint_run(&L), 0);
	lint_release(&L);
	page(&L);
	layrec_fill(&L.rec, -1, 58, 58, 162, 72);
	layrec_line(&L.rec, 0.5, 110, 50.5, 110, 80);
	text(&L, 60, 60, 100, 10, 9.5, "label");
	/* painted after the knockout: it crosses the label */
	CHECK(has((lint_run(&L), &L), "crosses a line"));
	lint_release(&L);
}

static void test_pdf_words(void)
{
	struct lint L;
	page(&L);
	text(&L, 60, 60, 100, 10, 9.5, "recorded words");
	struct lint_word w[3] = {
		{ 1, 1, 61, 60, 110, 70, "recorded" },
		{ 1, 2, 300, 300, 340, 310, "stray" },
		{ 1, 3, 305, 302, 345, 312, "under" },
	};
	L.words = w;
	L.nwords = 3;
	L.pdf_pages = 1;
	lint_run(&L);
	CHECK(has(&L, "word 'stray' of the PDF is not in the layout record"));
	CHECK(has(&L, "words 'stray' and 'under' overlap in the PDF"));
	CHECK(!has(&L, "word 'recorded'"));
	L.words = NULL;
	lint_release(&L);
}

/* The rules of issue 31 item 9: a label over a mark, a legend entry with
 * no series, ticks against their scale. */
static void test_label_on_mark(void)
{
	struct lint L;
	page(&L);
	layrec_fig_begin(&L.rec, 60, 100, 300, 300, "decode-bandwidth");
	layrec_line(&L.rec, 1, 70, 290, 290, 290);
	layrec_mark(&L.rec, 148, 196, 154, 202); /* the 32k point */
	text(&L, 100, 193, 80, 8, 7.5, "measured copy 4213 GB/s");
	layrec_fig_end(&L.rec);
	CHECK(has((lint_run(&L), &L), "text 'measured copy 4213 GB/s' over a plotted mark at 151.0,199.0"));
	lint_release(&L);
	/* the label moved beside the point */
	page(&L);
	layrec_fig_begin(&L.rec, 60, 100, 300, 300, "decode-bandwidth");
	layrec_line(&L.rec, 1, 70, 290, 290, 290);
	layrec_mark(&L.rec, 148, 196, 154, 202);
	text(&L, 160, 193, 80, 8, 7.5, "measured copy 4213 GB/s");
	layrec_fig_end(&L.rec);
	CHECK_INT(lint_run(&L), 0);
	lint_release(&L);
}

static void test_legend_without_series(void)
{
	struct lint L;
	page(&L);
	layrec_fig_begin(&L.rec, 60, 100, 300, 300, "tflops");
	layrec_line(&L.rec, 1, 70, 290, 290, 290);
	layrec_key(&L.rec, LR_LEGEND, "series:flash2");
	layrec_key(&L.rec, LR_LEGEND, "series:flash1");
	layrec_key(&L.rec, LR_SERIES, "series:flash2");
	layrec_fig_end(&L.rec);
	/* flash1 drawn in another figure does not count for this one */
	layrec_fig_begin(&L.rec, 60, 400, 300, 600, "hbm");
	layrec_line(&L.rec, 1, 70, 590, 290, 590);
	layrec_key(&L.rec, LR_SERIES, "series:flash1");
	layrec_fig_end(&L.rec);
	lint_run(&L);
	CHECK_INT(L.nf, 1);
	CHECK(has(&L, "legend entry 'series:flash1' of figure 'tflops' has no drawn series"));
	lint_release(&L);
}

static void ticks(struct layrec *r, enum lr_scale sc, const double *pos, const double *val, int n)
{
	int ax = layrec_axis(r);
	for (int i = 0; i < n; i++)
		layrec_tick(r, ax, 'x', sc, pos[i], val[i]);
}

static void test_tick_spacing(void)
{
	static const double kv[] = { 4096, 16384, 32768, 65536, 131072 }, eq[] = { 100, 150, 200, 250, 300 };
	static const double pw[] = { 512, 1024, 2048, 4096 }, eq4[] = { 100, 150, 200, 250 };
	static const double lin[] = { 0, 1000, 2000, 3000 };
	struct lint L;
	/* KV lengths 4k, 16k, 32k, 64k, 128k at equal steps: neither scale */
	page(&L);
	ticks(&L.rec, LR_CAT, eq, kv, 5);
	CHECK(has((lint_run(&L), &L), "x axis: categories 4096, 16384, 32768, 65536, 131072 at equal steps"));
	lint_release(&L);
	/* the same values on a log axis, placed by log2 */
	page(&L);
	double lp[5];
	for (int i = 0; i < 5; i++)
		lp[i] = 100 + 40 * log2(kv[i] / kv[0]);
	ticks(&L.rec, LR_LOG, lp, kv, 5);
	CHECK_INT(lint_run(&L), 0);
	lint_release(&L);
	/* ...but called linear, they are misplaced */
	page(&L);
	ticks(&L.rec, LR_LIN, lp, kv, 5);
	CHECK(has((lint_run(&L), &L), "are not placed by the axis's linear scale"));
	lint_release(&L);
	/* powers of two at equal steps read as a log scale; 0, 1000, 2000… as linear */
	page(&L);
	ticks(&L.rec, LR_CAT, eq4, pw, 4);
	ticks(&L.rec, LR_LIN, eq4, lin, 4);
	CHECK_INT(lint_run(&L), 0);
	lint_release(&L);
	/* linear values on a log axis are misplaced */
	page(&L);
	ticks(&L.rec, LR_LOG, eq4, lin + 0, 4);
	CHECK(has((lint_run(&L), &L), "not placed by the axis's log scale"));
	lint_release(&L);
}

static void test_record_round_trip(void)
{
	struct layrec r, back;
	layrec_init(&r);
	snprintf(r.style, sizeof(r.style), "patent");
	r.min[LR_FIGURE] = 12.42;
	layrec_page(&r, 595.28, 841.89, 70.87, 42.52, 28.35, 70.87);
	layrec_fig_begin(&r, 80, 90, 500, 700, "dataflow");
	double q[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	layrec_text(&r, 3, 13, q, "line one\nwith a newline", 23);
	layrec_line(&r, 0.8, 10, 20, 30, 40);
	layrec_fill(&r, 1, 1, 2, 3, 4);
	layrec_mark(&r, 14, 16, 10, 12);
	layrec_key(&r, LR_SERIES, "series:pytorch sdpa");
	layrec_key(&r, LR_SERIES, "series:pytorch sdpa"); /* a second panel: one line */
	layrec_key(&r, LR_LEGEND, "series:pytorch sdpa");
	int ax = layrec_axis(&r);
	layrec_tick(&r, ax, 'x', LR_LOG, 120.5, 4096);
	layrec_fig_end(&r);
	layrec_fact(&r, "capture-unchecked", 1);
	layrec_fact(&r, "capture-event-timed", 0);
	layrec_cell(&r, 100, 200, 150, 212.5, 0, "alloc_sum", "attnprof/flash2/prefill/fp16/B4 x");
	char path[] = "/tmp/attnprof-layrec-XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	close(fd);
	CHECK_INT(layrec_save(&r, path), 0);
	CHECK_INT(layrec_load(&back, path), 0);
	CHECK_STR(back.style, "patent");
	CHECK_NEAR(back.min[LR_FIGURE], 12.42, 1e-9);
	CHECK_INT(back.npages, 1);
	CHECK_INT(back.nfigs, 1);
	CHECK_STR(back.figs[0].kind, "dataflow");
	CHECK_INT(back.ntexts, 1);
	CHECK_STR(back.texts[0].text, "line one with a newline");
	CHECK_INT(back.texts[0].role, LR_FIGURE);
	CHECK_INT(back.texts[0].fig, 0);
	CHECK_NEAR(back.texts[0].q[7], 8, 1e-9);
	CHECK_INT(back.nlines, 1);
	CHECK_INT(back.nfills, 1);
	CHECK_INT(back.fills[0].hatch, 1);
	CHECK_INT(back.nmarks, 1);
	CHECK_NEAR(back.marks[0].x0, 10, 1e-9);
	CHECK_NEAR(back.marks[0].y1, 16, 1e-9);
	CHECK_INT(back.nkeys, 2);
	CHECK_STR(back.keys[0].key, "series:pytorch_sdpa");
	CHECK_INT(back.keys[1].kind, LR_LEGEND);
	CHECK_INT(back.nticks, 1);
	CHECK_INT(back.ticks[0].scale, LR_LOG);
	CHECK_INT(back.ticks[0].dir, 'x');
	CHECK_NEAR(back.ticks[0].value, 4096, 1e-9);
	CHECK_NEAR(back.ticks[0].pos, 120.5, 1e-9);
	CHECK_INT(back.ncells, 1);
	CHECK_INT(back.cells[0].page, 1);
	CHECK_INT(back.cells[0].measured, 0);
	CHECK_NEAR(back.cells[0].y1, 212.5, 1e-9);
	CHECK_STR(back.cells[0].qty, "alloc_sum");
	CHECK_STR(back.cells[0].rec, "attnprof/flash2/prefill/fp16/B4_x");
	CHECK_INT(back.nfacts, 2);
	CHECK_INT(layrec_fact_value(&back, "capture-unchecked"), 1);
	CHECK_INT(layrec_fact_value(&back, "capture-event-timed"), 0);
	CHECK_INT(layrec_fact_value(&back, "capture-no-versions"), -1);
	layrec_release(&back);
	/* a damaged record is refused with its line */
	FILE *f = fopen(path, "a");
	fputs("text 1 bogus\n", f);
	fclose(f);
	error_quiet(1);
	CHECK(layrec_load(&back, path) != 0);
	error_quiet(0);
	unlink(path);
	layrec_release(&r);
}

/* A caveat or time label whose fact is 0 is a finding, across the lines of its paragraph and
 * past the zero-width spaces of a break opportunity; a true fact, no fact line at all (an older
 * record), or a label denied ("not a median of") is not. */
static void test_claim_facts(void)
{
	struct lint L;
	page(&L);
	double q1[8] = { 60, 60, 400, 60, 400, 70, 60, 70 }, q2[8] = { 60, 72, 400, 72, 400, 82, 60, 82 };
	int g = layrec_group(&L.rec);
	layrec_text(&L.rec, g, 9.5, q1, "time: captured, median of unprofiled", 36);
	layrec_text(&L.rec, g, 9.5, q2, "re-\xe2\x80\x8bruns between CUDA events", 31);
	text(&L, 60, 100, 300, 10, 9.5, "Not every call was checked against fp64, not a median of unprofiled re-runs.");
	CHECK_INT(lint_run(&L), 0); /* no facts recorded: not checked */
	layrec_fact(&L.rec, "capture-event-timed", 0);
	layrec_fact(&L.rec, "capture-unchecked", 1);
	CHECK_INT(lint_run(&L), 1);
	CHECK(has(&L, "time label 'median of unprofiled re-runs' printed, but no drawn captured call is timed by unprofiled"));
	lint_release(&L);
	page(&L);
	text(&L, 60, 100, 300, 10, 9.5, "Not every call was checked against fp64; not a median of unprofiled re-runs.");
	layrec_fact(&L.rec, "capture-event-timed", 0);
	layrec_fact(&L.rec, "capture-unchecked", 0);
	CHECK_INT(lint_run(&L), 1);
	CHECK(has(&L, "caveat 'Not every call was checked against fp64' printed, but every drawn captured call was checked"));
	lint_release(&L);
}

/* "0 B" (or any zero) in a table cell whose record has no measurement of the column's
 * quantity is a finding; the same text in a measured cell, or "–" in an unmeasured one, is not */
static void test_unmeasured_zero(void)
{
	struct lint L;
	page(&L);
	layrec_cell(&L.rec, 100, 100, 160, 112, 0, "alloc_sum", "attnprof/sdpa/prefill/fp16/B4");
	layrec_cell(&L.rec, 160, 100, 220, 112, 1, "peak_bytes", "attnprof/sdpa/prefill/fp16/B4");
	layrec_cell(&L.rec, 100, 112, 160, 124, 0, "alloc_sum", "attnprof/flash2/prefill/fp16/B4");
	layrec_cell(&L.rec, 100, 124, 160, 136, 0, "alloc_sum", "attnprof/flash1/prefill/fp16/B4");
	text(&L, 140, 102, 18, 8, 7.5, "0 B");        /* unmeasured: a finding */
	text(&L, 200, 102, 18, 8, 7.5, "0 B");        /* measured zero */
	text(&L, 150, 114, 8, 8, 7.5, "\xe2\x80\x93"); /* "–" */
	text(&L, 130, 126, 28, 8, 7.5, "0.50 GiB");   /* a number, not zero */
	CHECK_INT(lint_run(&L), 1);
	CHECK(has(&L, "'0 B' printed in a table cell, but record attnprof/sdpa/prefill/fp16/B4 has no alloc_sum"));
	lint_release(&L);
	const char *const zeros[] = { "0", "0.00 GiB", "\xe2\x89\x88 0.0\xc3\x97", "0.0 %" };
	const char *const others[] = { "0.05 GiB", "10 B", "0 B, 2 KiB", "n/a" };
	for (int k = 0; k < 4; k++) {
		page(&L);
		layrec_cell(&L.rec, 100, 100, 160, 112, 0, "hbm_bytes", "r");
		text(&L, 110, 102, 40, 8, 7.5, zeros[k]);
		CHECK_INT(lint_run(&L), 1);
		lint_release(&L);
		page(&L);
		layrec_cell(&L.rec, 100, 100, 160, 112, 0, "hbm_bytes", "r");
		text(&L, 110, 102, 40, 8, 7.5, others[k]);
		CHECK_INT(lint_run(&L), 0);
		lint_release(&L);
	}
}

TESTS(test_unmeasured_zero, test_claim_facts, test_clean_page, test_overlap, test_crossing_and_hatch, test_knockout, test_size_margins_empty, test_pdf_words,
      test_label_on_mark, test_legend_without_series, test_tick_spacing, test_record_round_trip)
