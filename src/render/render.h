/* render.h: what cmd_report.c and cmd_figure.c call.
 *
 * Return codes: 0 ok, RENDER_FAIL (-1) a runtime failure (cannot write,
 * Cairo failed), RENDER_BAD_INPUT (-2) the input is wrong (a template
 * placeholder, an unknown figure or option) — the message is printed.
 */
#ifndef ATTNPROF_RENDER_RENDER_H
#define ATTNPROF_RENDER_RENDER_H

#include "doc/data.h"
#include "render/figure_draw.h"
#include "doc/style.h"
#include "doc/template.h"
#include "util/progress.h"

enum { RENDER_OK = 0, RENDER_FAIL = -1, RENDER_BAD_INPUT = -2 };
/* PNG resolution when none is asked for: the smallest label (7 pt) stays legible. */
#define RENDER_DPI_DEFAULT 200

enum out_format { OUT_PDF, OUT_SVG, OUT_PNG };
/* The format of a path by its extension; -1 when it has none we write. */
int out_format_of(const char *path, enum out_format *f);

/* A cairo_write_func_t writing to the FILE * given as closure. */
cairo_status_t out_write(void *stream, const unsigned char *data, unsigned int len);

/* A figure's file name without its extension: "fig" NO "-" KIND ["-" VARIANT],
 * with '+', ':', ' ' and '/' made '_' (--figures-dir and the HTML page). */
void figure_file_base(const char *no, const char *kind, const char *variant, char *out, size_t len);
/* One figure (or a table: kind "table:speedup") alone in a file. */
int render_figure_file(const struct rdata *rd, const char *kind, const struct figopts *o,
		       const struct rstyle *st, const char *path, double dpi);

struct report_opts {
	const struct rstyle *style;    /* NULL: the template's */
	const char *out;               /* the PDF */
	const char *figures_dir;       /* NULL, or where each figure goes as SVG and PNG */
	double dpi;                    /* PNG resolution */
	int quiet;                     /* no per-placeholder warnings */
	const char *layout;            /* NULL, or where the layout record goes (layrec.h) */
	const struct progress *progress; /* NULL, or where the steps are said (page k of n, figure k of n) */
};
struct report_stats {
	int pages, figures, tables, missing;
};
int report_render(const struct template *t, struct rdata *rd, const struct report_opts *o,
		  struct report_stats *stats);
/* The same document as one HTML page, o->out (NAME.html), its figures as
 * SVG in NAME_files/ beside it (html.c); pages = 1. */
int report_html(const struct template *t, struct rdata *rd, const struct report_opts *o,
		struct report_stats *stats);
/* The same document as GitHub-flavoured Markdown, o->out (NAME.md), its
 * figures as SVG in NAME_files/ beside it (markdown.c); pages = 1. */
int report_markdown(const struct template *t, struct rdata *rd, const struct report_opts *o,
		    struct report_stats *stats);

#endif
