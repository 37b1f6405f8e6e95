/* template.h: document templates (the YAML files in templates/, docs/templates.md).
 *
 * A template says which pages, sections, figures, tables and text a
 * document has.  Loading checks its shape (keys, kinds, figure and table
 * names) with file:line:col; the text is interpolated at render time
 * against a results file (interp.h).  The YAML tree stays alive with the
 * template: blocks point into it for their strings and positions.
 */
#ifndef ATTNPROF_DOC_TEMPLATE_H
#define ATTNPROF_DOC_TEMPLATE_H

#include <stddef.h>

#include "doc/figkind.h"
#include "doc/glossary.h"
#include "doc/style.h"
#include "util/yamltree.h"

#define TEMPLATE_FORMAT "attnprof-template/1"

enum layout { LAYOUT_ARTICLE, LAYOUT_SHEETS, LAYOUT_SLIDES };

enum block_kind { B_TEXT, B_BULLETS, B_FIGURE, B_TABLE, B_NOTE, B_BRIEF, B_PAGE_BREAK, B_SUBHEADING, B_CONTENTS };

#define DOC_ID_MAX 48 /* an id's characters, with its NUL */

struct tblock {
	enum block_kind kind;
	const struct ynode *node;      /* the block's mapping */
	const struct ynode *text;      /* text, note, subheading: the scalar */
	const struct ynode *items;     /* bullets: the sequence */
	const struct figkind *fig;     /* figure */
	int table;                     /* table kind */
	const struct ynode *caption;   /* optional scalar */
	const struct ynode *when;      /* optional scalar */
	const struct ynode *legend;    /* figure: a line under its label ("Prior Art", MPEP 608.02(g)) */
	const char *id;                /* figure, table: the name {ref:ID} cites it by (NULL none) */
	const char *variant, *compare; /* figure options (may be "$v") */
	struct rsel sel;               /* figure conditions given */
	double height;                 /* figure height / width, 0 = the kind's */
	double width;                  /* fraction of the text width, 0 = all */
	int step;                      /* build step of a teaching figure, 0 = all */
};

struct tsection {
	const struct ynode *node;
	const struct ynode *title;     /* scalar, may be NULL (alternatives: the first's text) */
	/* title: a list of alternatives {text, when}: the first whose when holds
	 * (of each variant in a repeated section; no when: always) */
#define SECTION_TITLES 8
	const struct ynode *titles[SECTION_TITLES], *title_when[SECTION_TITLES];
	size_t ntitles;
	const struct ynode *when;
	const struct ynode *notes;     /* speaker notes (slides), scalar or NULL */
	int each_variant;              /* 1: repeat per variant in `variants`; 2: per captured implementation */
	const char *variants[16];      /* empty with each_variant: every measured one */
	size_t nvariants;
	struct tblock *blocks;
	size_t nblocks;
};

struct template {
	char *path;
	char *src;                     /* the file's text */
	size_t srclen;
	struct ytree tree;
	const char *name;
	const struct ynode *title, *subtitle;
	const struct ynode *notes;     /* speaker notes of the title slide, or NULL */
	const char *style;             /* default style name */
	enum layout layout;
	enum page_kind paper;
	int paper_set;
	struct rsel focus;             /* N, d, causal given (-1 otherwise) */
	struct glossary glossary;      /* `glossary:` (its strings in the tree), else the built-in */
	struct gloss_entry *gloss_own; /* the entries of a declared glossary (owned) */
	struct tsection *sections;
	size_t nsections;
};

/* Load and check a template.  0, or -1 with the message (file:line:col) printed. */
int template_load(struct template *t, const char *path);
void template_release(struct template *t);

#endif
