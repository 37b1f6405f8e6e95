/* docmodel.h: a document as a list of blocks, apart from any drawing.
 *
 * The walk over a template — its sections' and blocks' `when:`, the
 * sections repeated per variant, values interpolated into text, figures
 * skipped when the results lack what they need, tables built from the
 * records — happens once, here, and yields neutral blocks: section
 * headings, paragraphs, bullets, notes, figures with their options and
 * captions, tables as owned rows of text.  A back end (report.c: PDF)
 * lays them out; articles, patent sheets and slides read the same list.
 * Its texts are inline text (doc/inline.h: UTF-8 with bold, italic and code
 * marks, no back end's markup), which each back end writes in its own terms.
 * Nothing here needs Cairo: it builds and is tested without the renderer.
 */
#ifndef ATTNPROF_DOC_DOCMODEL_H
#define ATTNPROF_DOC_DOCMODEL_H

#include <stddef.h>

#include "doc/claim.h"
#include "doc/figdesc.h"
#include "doc/figkind.h"
#include "doc/template.h"

enum dkind {
	D_SECTION,     /* a section begins: text is its title ("" none); a slide in slides */
	D_SUBHEADING,
	D_PARA,        /* text: inline text, paragraphs separated by blank lines */
	D_BULLETS,     /* items */
	D_NOTE,
	D_FIGURE,
	D_TABLE,
	D_BRIEF,       /* the brief description of the drawings (from the figures) */
	D_PAGE_BREAK,
	D_CONTENTS,    /* a table of contents: text is its heading; the sections and their pages */
};

struct dblock {
	enum dkind kind;
	char *text;                    /* section title, subheading, paragraph, note (inline text) */
	char *notes;                   /* section: speaker notes, plain text (NULL none) */
	char **items;                  /* bullets (inline text) */
	size_t nitems;
	int number;                    /* section, figure or table number (1-based) */
	char id[DOC_ID_MAX];           /* figure, table: the template's id ("" none) */
	char label[24];                /* figure: its label on a drawing sheet ("FIG. 3A": the views
	                                  of one section share a number; one alone "FIG. 3") */
	/* figure */
	const struct figkind *fig;
	struct figopts fo;
	char var[SERIES_KEY];          /* $v of the section ("" none) */
	char *title;                   /* its kind's title at its options (plain; doc/figtitle.c) */
	char *caption;                 /* inline text; NULL: the title stands for it */
	char *legend;                  /* inline text; NULL: none (sheets: under "FIG. n") */
	double height, width;          /* the template's, 0 = the kind's / the whole width */
	struct figdesc *desc;          /* owned: what it draws, every value with its record
	                                  (doc/figdesc.h); NULL where its kind has no builder yet */
	/* table */
	struct dtable *table;          /* owned */
	char table_title[200];         /* plain */
	unsigned runs;                 /* the runs its text and table drew records from (rtrace.runs) */
};

struct docmodel {
	enum layout layout;
	char *title, *subtitle;        /* inline text */
	char *meta;                    /* the title block's line: files, GPU, date, records (plain) */
	char *title_plain;             /* the title without markup (speaker notes) */
	char *notes;                   /* the title slide's speaker notes, plain (NULL none) */
	struct dblock *b;
	size_t n, cap;
	int nfigures, ntables, nsections;
	int missing;                   /* values the results lacked (written n/a) */
	/* every number its texts print, with its rule and records (doc/claim.h);
	 * each names its block (claim.block, (size_t)-1 the title block) */
	struct claim_list claims;
};

/* Build the model of template t over rd (rd's focus takes the template's).
 * quiet: no warning per missing value.  0, RENDER_BAD_INPUT (-2) for a
 * template error (message printed with file:line:col) or -1 out of memory. */
int docmodel_build(struct docmodel *m, const struct template *t, struct rdata *rd, int quiet);
void docmodel_release(struct docmodel *m);

#endif
