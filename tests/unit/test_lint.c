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
	layrec_fig_end(&r);
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

TESTS(test_clean_page, test_overlap, test_crossing_and_hatch, test_knockout, test_size_margins_empty, test_pdf_words,
      test_record_round_trip)
