/* test_lint_profiles.c: the slides and patent profiles of the linter on
 * layout records built by hand — one fixture per rule that breaks only that
 * rule, and a clean deck and a clean patent that break none. */
#include "check.h"

#include <unistd.h>

#include "layrec.h"
#include "lint.h"

#define CM(x) ((x) * 72.0 / 2.54)

static int has(const struct lint *L, const char *what)
{
	if (getenv("LINT_SHOW"))
		for (size_t i = 0; i < L->nf; i++)
			printf("    finding: %d: %s\n", L->f[i].page, L->f[i].what);
	for (size_t i = 0; i < L->nf; i++)
		if (strstr(L->f[i].what, what))
			return 1;
	return 0;
}

static void text(struct lint *L, double x, double y, double w, double h, double size, const char *s)
{
	double q[8] = { x, y, x + w, y, x + w, y + h, x, y + h };
	layrec_text(&L->rec, layrec_group(&L->rec), size, q, s, strlen(s));
}

/* ---- slides ---------------------------------------------------------------------- */

#define NOTES "/tmp/attnprof-test-deck.notes.txt"

static void deck(struct lint *L, int pages, int notes_for)
{
	memset(L, 0, sizeof(*L));
	L->file = "/tmp/attnprof-test-deck.pdf";
	layrec_init(&L->rec);
	snprintf(L->rec.style, sizeof(L->rec.style), "slides");
	L->rec.min[LR_BODY] = 24;
	L->rec.min[LR_TEXT] = L->rec.min[LR_FIGURE] = L->rec.min[LR_NUMERAL] = 16;
	FILE *f = fopen(NOTES, "w");
	for (int p = 1; p <= pages; p++) {
		layrec_page(&L->rec, 960, 540, 28, 36, 24, 36);
		text(L, 40, 40, 300, 30, 30, "A title that states the message");
		layrec_fig_begin(&L->rec, 40, 100, 900, 480, "tiling");
		layrec_line(&L->rec, 1, 50, 400, 800, 400);
		text(L, 60, 420, 100, 16, 18, "Q block");
		layrec_fig_end(&L->rec);
		if (f)
			fprintf(f, "Slide %d — A title\n%s\n\n", p, p <= notes_for ? "What to say." : "(no notes)");
	}
	if (f)
		fclose(f);
	text(L, 40, 150, 400, 24, 24, "Results: fa2-paper.yaml"); /* the last slide may name files */
}

static void test_slides_clean(void)
{
	struct lint L;
	deck(&L, 3, 3);
	CHECK_INT(lint_run(&L), 0);
	lint_release(&L);
	unlink(NOTES);
}

static void test_slides_one_chart(void)
{
	struct lint L;
	deck(&L, 2, 2);
	layrec_fig_begin(&L.rec, 40, 100, 400, 300, "roofline");
	layrec_line(&L.rec, 1, 50, 200, 300, 200);
	layrec_fig_end(&L.rec);
	lint_run(&L);
	CHECK(has(&L, "slide 2 holds 2 figures"));
	CHECK_INT(L.nf, 1);
	lint_release(&L);
	unlink(NOTES);
}

static void test_slides_sources(void)
{
	struct lint L;
	deck(&L, 3, 3);
	/* a footer naming the results on slide 2 of 3 */
	L.rec.npages = 2;
	text(&L, 40, 500, 300, 16, 16, "attnprof 0.1.0 · decode.yaml");
	L.rec.npages = 3;
	lint_run(&L);
	CHECK(has(&L, "file name in 'attnprof 0.1.0 · decode.yaml' on slide 2"));
	CHECK_INT(L.nf, 1);
	lint_release(&L);
	unlink(NOTES);
}

static void test_slides_notes(void)
{
	struct lint L;
	deck(&L, 3, 2);
	lint_run(&L);
	CHECK(has(&L, "slide 3 has no speaker notes"));
	CHECK_INT(L.nf, 1);
	lint_release(&L);
	unlink(NOTES);
	deck(&L, 1, 1);
	unlink(NOTES);
	lint_run(&L);
	CHECK(has(&L, "no speaker notes '" NOTES "' beside the deck"));
	lint_release(&L);
}

/* ---- patent ---------------------------------------------------------------------- */

/* One description page (numeral list) and two drawing sheets. */
static void patent(struct lint *L)
{
	memset(L, 0, sizeof(*L));
	L->file = "t.pdf";
	layrec_init(&L->rec);
	snprintf(L->rec.style, sizeof(L->rec.style), "patent");
	L->rec.min[LR_BODY] = L->rec.min[LR_TEXT] = 10.9;
	L->rec.min[LR_FIGURE] = L->rec.min[LR_NUMERAL] = 12.5;
	layrec_page(&L->rec, 595, 842, CM(2.1), CM(2.1), CM(2.1), CM(2.6));
	/* a paragraph of three lines at 1.5 spacing (21.9 pt at 12.5 pt) */
	int g = layrec_group(&L->rec);
	for (int k = 0; k < 3; k++) {
		double q[8] = { 80, 80 + 21.9 * k, 400, 80 + 21.9 * k, 400, 90 + 21.9 * k, 80, 90 + 21.9 * k };
		layrec_text(&L->rec, g, 12.5, q, "FIG. 1 is a block diagram of a memory", 37);
	}
	text(L, 80, 200, 200, 10, 12.5, "10 — memory");
	text(L, 80, 220, 200, 10, 12.5, "12 — processor");
	/* the page number centred under the text (its centre 304.6 pt from the left) */
	text(L, 300, 772, 9, 10, 12.5, "1");
	for (int s = 1; s <= 2; s++) {
		layrec_page(&L->rec, 595, 842, CM(2.6), CM(1.6), CM(1.1), CM(2.6));
		text(L, 280, 80, 30, 12, 14, s == 1 ? "1/2" : "2/2");
		layrec_fig_begin(&L->rec, 80, 100, 500, 700, "patent-dataflow");
		layrec_line(&L->rec, 1, 100, 200, 400, 200);
		text(L, 120, 210, 20, 12, 13, "Q");
		L->rec.numeral = 1;
		text(L, 450, 300, 20, 12, 13, s == 1 ? "10" : "12");
		L->rec.numeral = 0;
		layrec_fig_end(&L->rec);
		text(L, 260, 720, 60, 18, 18, s == 1 ? "FIG. 1" : "FIG. 2");
	}
}

static void test_patent_clean(void)
{
	struct lint L;
	patent(&L);
	CHECK_INT(lint_run(&L), 0);
	lint_release(&L);
}

static void test_patent_numeral_list(void)
{
	struct lint L;
	patent(&L);
	/* drawn, not listed */
	layrec_fig_begin(&L.rec, 80, 100, 500, 700, "patent-dataflow");
	layrec_line(&L.rec, 1, 100, 600, 400, 600);
	L.rec.numeral = 1;
	text(&L, 450, 400, 20, 12, 13, "14");
	L.rec.numeral = 0;
	layrec_fig_end(&L.rec);
	lint_run(&L);
	CHECK(has(&L, "reference numeral 14 is drawn but not in the description's list"));
	CHECK_INT(L.nf, 1);
	lint_release(&L);
	/* listed, not drawn */
	patent(&L);
	L.rec.npages = 1;
	text(&L, 80, 240, 200, 10, 12.5, "16 — register file");
	L.rec.npages = 3;
	lint_run(&L);
	CHECK(has(&L, "reference numeral 16 is listed but drawn on no sheet"));
	CHECK_INT(L.nf, 1);
	lint_release(&L);
}

static void test_patent_sheets(void)
{
	struct lint L;
	patent(&L);
	/* sheet 2 relabelled FIG. 1 and its number dropped */
	for (size_t i = 0; i < L.rec.ntexts; i++) {
		struct lr_text *t = &L.rec.texts[i];
		if (t->page == 3 && !strcmp(t->text, "FIG. 2"))
			strcpy(t->text, "FIG. 1");
		if (t->page == 3 && !strcmp(t->text, "2/2"))
			strcpy(t->text, "2/3");
	}
	lint_run(&L);
	CHECK(has(&L, "'FIG. 1' also labels sheet 2"));
	CHECK(has(&L, "drawing sheet 2 lacks its sheet number '2/2'"));
	CHECK_INT(L.nf, 2);
	lint_release(&L);
}

static void test_patent_sight(void)
{
	struct lint L;
	patent(&L);
	L.rec.pages[1].ml = CM(1.9);  /* a sheet's left margin under 2.5 cm */
	L.rec.pages[0].mb = CM(1.1);  /* the description's bottom under 2 cm */
	lint_run(&L);
	CHECK(has(&L, "drawing sheet margins"));
	CHECK(has(&L, "description page margins"));
	CHECK_INT(L.nf, 2);
	lint_release(&L);
}

static void test_patent_spacing(void)
{
	struct lint L;
	patent(&L);
	int g = layrec_group(&L.rec);
	L.rec.npages = 1;
	for (int k = 0; k < 3; k++) {
		double q[8] = { 80, 300 + 12.8 * k, 400, 300 + 12.8 * k, 400, 310 + 12.8 * k, 80, 310 + 12.8 * k };
		layrec_text(&L.rec, g, 12.5, q, "single spaced", 13);
	}
	L.rec.npages = 3;
	lint_run(&L);
	CHECK(has(&L, "description lines 12.8 pt apart"));
	CHECK_INT(L.nf, 1);
	lint_release(&L);
}

static void test_patent_legends(void)
{
	struct lint L;
	patent(&L);
	layrec_fig_begin(&L.rec, 80, 100, 500, 700, "patent-dataflow");
	layrec_line(&L.rec, 1, 100, 600, 400, 600);
	text(&L, 100, 500, 300, 12, 13, "tiles are the libraries' own");
	text(&L, 100, 530, 150, 12, 13, "blockIdx.y");
	layrec_fig_end(&L.rec);
	lint_run(&L);
	CHECK(has(&L, "'tiles are the libraries' own' in a drawing is more than three words"));
	CHECK(has(&L, "'blockIdx.y' in a drawing is a code identifier"));
	CHECK_INT(L.nf, 2);
	lint_release(&L);
}

/* 1.52(b)(5): the number centred; a page without one */
static void test_patent_page_numbers(void)
{
	struct lint L;
	patent(&L);
	for (size_t i = 0; i < L.rec.ntexts; i++)
		if (L.rec.texts[i].page == 1 && !strcmp(L.rec.texts[i].text, "1")) {
			double *q = L.rec.texts[i].q; /* flush right, as the footer set it before */
			for (int k = 0; k < 8; k += 2)
				q[k] += 220;
		}
	lint_run(&L);
	CHECK(has(&L, "page number '1' of description page 1 stands 7.8 cm right of the text's centre"));
	CHECK_INT(L.nf, 1);
	lint_release(&L);
	patent(&L);
	for (size_t i = 0; i < L.rec.ntexts; i++)
		if (L.rec.texts[i].page == 1 && !strcmp(L.rec.texts[i].text, "1")) {
			free(L.rec.texts[i].text); /* owned, sized to "1" */
			L.rec.texts[i].text = strdup("one");
		}
	lint_run(&L);
	CHECK(has(&L, "description page 1 carries no page number"));
	CHECK_INT(L.nf, 1);
	lint_release(&L);
}

/* one numeral, two meanings; one meaning, two numerals (each drawn, so only this rule breaks) */
static void test_patent_meanings(void)
{
	struct lint L;
	patent(&L);
	L.rec.npages = 1;
	text(&L, 80, 240, 200, 10, 12.5, "12 — register file");
	L.rec.npages = 3;
	lint_run(&L);
	CHECK(has(&L, "reference numeral 12 has two meanings, 'processor' and 'register file'"));
	CHECK_INT(L.nf, 1);
	lint_release(&L);
	patent(&L);
	L.rec.npages = 1;
	text(&L, 80, 240, 200, 10, 12.5, "14 — memory");
	L.rec.npages = 3;
	layrec_fig_begin(&L.rec, 80, 100, 500, 700, "patent-dataflow");
	layrec_line(&L.rec, 1, 100, 600, 400, 600);
	L.rec.numeral = 1;
	text(&L, 450, 400, 20, 12, 13, "14");
	L.rec.numeral = 0;
	layrec_fig_end(&L.rec);
	lint_run(&L);
	CHECK(has(&L, "reference numerals 10 and 14 both name 'memory'"));
	CHECK_INT(L.nf, 1);
	lint_release(&L);
}

/* 11.5 pt DejaVu: capitals 0.296 cm, under 1.52's 0.3175 cm even where the style allowed it */
static void test_patent_type_size(void)
{
	struct lint L;
	patent(&L);
	L.rec.min[LR_BODY] = L.rec.min[LR_TEXT] = 10.9;
	L.rec.npages = 1;
	text(&L, 80, 300, 300, 10, 11.5, "In FIG. 1 the memory holds");
	L.rec.npages = 3;
	lint_run(&L);
	CHECK(has(&L, "description type 'In FIG. 1 the memory holds' is 11.5 pt, capitals 0.296 cm"));
	CHECK_INT(L.nf, 1);
	lint_release(&L);
}

/* a command line and a variant's name in the description */
static void test_patent_software(void)
{
	struct lint L;
	patent(&L);
	L.rec.npages = 1;
	text(&L, 80, 300, 400, 10, 12.5, "while another program ran (python3 run.py --seqlens 1024),");
	text(&L, 80, 330, 400, 10, 12.5, "the computation flash2 completes in 1.59 ms");
	text(&L, 80, 360, 400, 10, 12.5, "with 16-bit floating point on the H200 processor");
	L.rec.npages = 3;
	lint_run(&L);
	CHECK(has(&L, "'while another program ran (python3 run.py --seqlens 1024),' in the description holds a command-line option"));
	CHECK(has(&L, "'the computation flash2 completes in 1.59 ms' in the description holds a software name"));
	CHECK_INT(L.nf, 2);
	lint_release(&L);
}

TESTS(test_slides_clean, test_slides_one_chart, test_slides_sources, test_slides_notes, test_patent_clean,
      test_patent_numeral_list, test_patent_sheets, test_patent_sight, test_patent_spacing, test_patent_legends,
      test_patent_page_numbers, test_patent_meanings, test_patent_type_size, test_patent_software)
