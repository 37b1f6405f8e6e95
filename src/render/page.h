/* page.h: a document written as one file beside a folder of its figures
 * (NAME.html or NAME.md with NAME_files/): what the HTML and Markdown
 * writers share — the model built once, the folder, the output transaction,
 * each figure drawn once as SVG.  The writers only write. */
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

/* Build the model, make the folder beside o->out (whose extension is ext),
 * open the page.  0, or RENDER_FAIL / RENDER_BAD_INPUT (message printed;
 * nothing to close). */
int page_open(struct page *p, const struct template *t, struct rdata *rd, const struct report_opts *o,
	      const char *ext);
/* Figure block b drawn into the folder as SVG: its file name in the folder
 * (file) and, when it has no caption, its title (title, else "").  0 or
 * the renderer's code. */
int page_figure(struct page *p, const struct dblock *b, const struct template *t, const struct rdata *rd,
		double dpi, char *file, size_t flen, char *title, size_t tlen);
/* Commit the page (rc == 0 and no write error) or leave every previous
 * output as it was; stats filled on success.  The result code. */
int page_close(struct page *p, int rc, int figures, int tables, const char *out, struct report_stats *stats);

#endif
