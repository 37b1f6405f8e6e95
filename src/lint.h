/* lint.h: the document linter — `attnprof lint FILE.pdf`.
 *
 * Reads the layout record beside a PDF (layrec.h: every text line, stroke,
 * fill and figure box the layout placed, with the style's minimums and each
 * page's margins) and the words of the real PDF (`pdftotext -bbox-layout`),
 * and reports what a reader would trip over, one finding a line:
 *
 *     FILE:PAGE:X,Y: WHAT        (X, Y in points from the page's top-left)
 *
 * Core rules, every style: text overlapping text, text crossing a drawn
 * line, text on a hatched area, type below the style's minimum for its
 * role, ink outside the margins, a figure that draws nothing, a label over
 * a plotted mark, a legend entry with no drawn series, ticks placed against
 * their axis's scale (or categories at equal steps that read as neither a
 * linear nor a log scale), claims against the records' facts (a caveat
 * whose condition, a time label whose time source the layout's "fact" lines
 * say is false), and the
 * cross-checks (a word of the PDF the record does not hold, a stale
 * record, words overlapping in the PDF).  A profile (named by the record's
 * style) adds rules of its own: see lint_profiles in lint.c.
 */
#ifndef ATTNPROF_LINT_H
#define ATTNPROF_LINT_H

#include <stddef.h>

#include "layrec.h"

/* A word of the PDF as pdftotext places it. */
struct lint_word {
	int page, line;     /* line: pdftotext's line number on the page */
	double x0, y0, x1, y1;
	char text[96];
};

struct lint_finding {
	int page;
	double x, y;
	char what[400];
};

struct lint {
	const char *file;               /* the PDF, for messages */
	struct layrec rec;
	struct lint_word *words;        /* NULL when no PDF is read (tests) */
	size_t nwords, awords;
	int pdf_pages;
	struct lint_finding *f;
	size_t nf, af;
};

/* Findings go through this (deduplicated; sorted by page, y, x when printed). */
void lint_add(struct lint *L, int page, double x, double y, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 5, 6)))
#endif
	;

/* A profile: the extra rules of one style (core rules always run). */
#define LINT_MAX_RULES 10
struct lint_profile {
	const char *style;
	const char *about;
	void (*rules[LINT_MAX_RULES])(struct lint *L);
};
extern const struct lint_profile lint_profiles[];
extern const size_t lint_profile_count;

/* The slides and patent profiles' rules (lint_profiles.c). */
void lint_slides_one_chart(struct lint *L);
void lint_slides_sources(struct lint *L);
void lint_slides_notes(struct lint *L);
void lint_patent_numerals(struct lint *L);
void lint_patent_sheets(struct lint *L);
void lint_patent_sight(struct lint *L);
void lint_patent_spacing(struct lint *L);
void lint_patent_legends(struct lint *L);
void lint_patent_meanings(struct lint *L);
void lint_patent_page_numbers(struct lint *L);
void lint_patent_type_size(struct lint *L);
void lint_patent_software(struct lint *L);

/* Run every rule on L->rec (and L->words when read).  Returns the finding count. */
size_t lint_run(struct lint *L);
/* Print the findings as FILE:page:x,y: what. */
void lint_print(struct lint *L);
/* Load FILE.pdf's record and words (pdftotext); 0, or -1 with the message printed. */
int lint_load(struct lint *L, const char *pdf);
void lint_release(struct lint *L);

/* Geometry the rules share (exposed for the tests). */
int lint_quads_overlap(const double *a, const double *b, double tol);
int lint_segment_hits_quad(const double *q, double x0, double y0, double x1, double y1, double inset);

#endif
