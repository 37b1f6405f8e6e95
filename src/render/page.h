/* page.h: a document written as one file beside a folder of its figures
 * (NAME.html or NAME.md with NAME_files/): what the HTML and Markdown
 * writers share — the model built once, the folder, the output transaction,
 * each figure drawn once as SVG and the walk over the blocks.  A writer is a
 * struct page_writer: how it spells each element, the model's inline text
 * (doc/inline.h) among them. */
#ifndef ATTNPROF_RENDER_PAGE_H
#define ATTNPROF_RENDER_PAGE_H

#include <stdio.h>

#include "doc/docmodel.h"
#include "render/render.h"
#include "util/file.h"

struct page {
	struct docmodel m;
	struct outfile of;
	FILE *f;                    /* the page being written */
	const struct rstyle *st;
	char dir[4200];             /* NAME_files, beside the page */
	char dirname[4200];         /* its last component, as the page links it */
};

/* How a one-file writer spells the document's elements.  page_write walks
 * the model once and writes every block through these; blocks only print
 * has (page breaks, the patent brief) are skipped. */
struct page_writer {
	const char *ext;                          /* ".html", ".md" */
	void (*begin)(struct page *);             /* before the first block: the title and what goes with it */
	void (*end)(struct page *);               /* after the last, or NULL */
	void (*inline_text)(FILE *, const char *); /* the model's inline text in the writer's own terms */
	void (*paragraph)(FILE *, char *one, int note); /* one paragraph of a text (note: D_NOTE); one is its to change */
	void (*section)(FILE *, int number);      /* a section heading's opening, with its anchor */
	const char *section_end;
	const char *sub[2], *list[2], *item[2];   /* opening and closing of subheading, bullet list, bullet */
	void (*contents)(struct page *, const struct dblock *);
	/* a figure block, drawn into the folder as file (SVG), with its caption or else its title,
	 * and its data (doc/figdata.h: the records it drew and their values; no rows: none) */
	void (*figure)(struct page *, const struct dblock *, const char *file, const struct dtable *data);
	void (*table)(FILE *, const struct dblock *);
};
/* The link to a figure file, "DIR/FILE" percent-encoded (RFC 3986: every
 * byte but letters, digits, '-', '.', '_', '~' and the one '/'), so a
 * folder or file name can neither end the link nor change its URL; it is
 * also safe inside an HTML attribute as it is. */
void page_put_link(FILE *f, const char *dir, const char *file);
/* The paragraphs of text (separated by blank lines), each through w->paragraph. */
void page_paragraphs(const struct page_writer *w, FILE *f, const char *text, int note);
/* Build the model, make the folder beside o->out, write every block with w
 * and commit the page, or leave every previous output as it was.  0, or
 * RENDER_FAIL / RENDER_BAD_INPUT (message printed); stats filled on success. */
int page_write(const struct page_writer *w, const struct template *t, struct rdata *rd, const struct report_opts *o,
	       struct report_stats *stats);

#endif
