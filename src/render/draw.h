/* draw.h: the drawing context and primitives every figure uses.
 *
 * Text goes through Pango (font fallback for ℓ, ᵀ, ⌈ ⌉, ×), never Cairo's
 * toy text API.  Metrics hinting is off, so text measures the same on a
 * recording surface, a PDF, an SVG and a PNG at any DPI: a document laid
 * out in the counting pass lands on the same places in the drawing pass.
 *
 * Drawing functions return void: Cairo's error state is sticky, callers
 * check cairo_status() once at the end (render_check()).
 */
#ifndef ATTNPROF_RENDER_DRAW_H
#define ATTNPROF_RENDER_DRAW_H

#include <cairo.h>
#include <pango/pangocairo.h>

#include "layrec.h"
#include "doc/figdesc.h"
#include "doc/geom.h"
#include "doc/style.h"

/* Reference numerals, one per part, the same in every figure of a document:
 * the document's one allocation table, so a numeral means one thing on all
 * its sheets.  A part asked for again with another description keeps the
 * first and notes the second in also: the description then lists both and
 * the linter names the numeral with two meanings, instead of one meaning
 * being dropped unseen. */
struct part {
	char key[64];    /* "hbm", "matrix:S", "series:flash2" */
	char what[128];  /* "high-bandwidth memory (HBM)" */
	char also[128];  /* a second description asked for under key ("": none) */
	int numeral;
};
#define FIG_MAX_PARTS 48

/* PLOT_MAX and on_scale: doc/figdesc.h */

/* Cairo's status in words; a write error names the system's reason
 * (outfile_errno: "No space left on device"), not "error while writing". */
const char *cairo_why(cairo_status_t s);
struct numerals {
	struct part *parts;
	size_t n, alloc;
	/* parts used by the figure being drawn (indices into parts) */
	int used[FIG_MAX_PARTS];
	int nused;
};
void numerals_init(struct numerals *n);
void numerals_release(struct numerals *n);
/* The numeral of a part, giving it the next free one if new (-1: no memory). */
int numerals_get(struct numerals *n, const char *key, const char *what);

struct glossary; /* glossary.h */
struct sbuf;     /* interp.h */

struct rctx {
	cairo_t *cr;
	const struct rstyle *st;
	PangoContext *pango;
	struct numerals *num;  /* non-NULL: draw reference numerals (patent) */
	double scale;          /* type scale for this figure (1 = style sizes) */
	double leading;        /* line spacing of wrapped text (0: single) */
	struct layrec *rec;    /* non-NULL: every text line, stroke and fill placed is recorded */
	const struct glossary *gloss; /* abbreviations for labels that do not fit (NULL: the built-in) */
	/* non-NULL (SVG files): text is not drawn as glyph outlines but added
	 * here as SVG <text> elements naming the font, one a run of a line, in
	 * the surface's coordinates; output.c puts them on top of the drawing */
	struct sbuf *svg_text;
	/* the legend's type size, set by legend_box for the legend_draw after
	 * it (0: the style's chart size) */
	double legend_fs;
	/* a standalone figure that draws less than its records hold: why
	 * (figkind.cut), which figure_frame appends to its title; or NULL */
	const char *cut;
};

/* Set up c for cr (creates the Pango context); 0 or -1. */
int rctx_init(struct rctx *c, cairo_t *cr, const struct rstyle *st);
void rctx_release(struct rctx *c);

/* Text flags. */
enum {
	TX_BOLD = 1, TX_ITALIC = 2, TX_MONO = 4, TX_MARKUP = 8,
	TX_CENTER = 16, TX_RIGHT = 32, TX_NOSCALE = 64,
	TX_KNOCKOUT = 128, /* paint paper under the label first (grid lines stop at it) */
	TX_INLINE = 256,   /* the document model's inline text (doc/inline.h), written as Pango markup */
};
/* The model's inline text as Pango markup: & < > escaped, b, i and tt for
 * its styles.  A new string (g_free), never NULL. */
char *inline_pango(const char *s);
/* A laid-out text (caller unrefs with g_object_unref). width ≤ 0: no wrap. */
PangoLayout *text_layout(struct rctx *c, const char *utf8, double size, int flags, double width);
/* Size of a text in points. */
void text_extent(struct rctx *c, const char *utf8, double size, int flags, double width,
		 double *w, double *h);
/* Draw text with its anchor (ax, ay ∈ [0, 1]: 0 left/top, 1 right/bottom) at x, y.
 * col NULL: the style's ink.  Returns the height drawn. */
double text_at(struct rctx *c, double x, double y, const char *utf8, double size, int flags,
	       double ax, double ay, const struct rgb *col);
/* Wrapped text in a column of width w from (x, y); returns the height. */
double text_block(struct rctx *c, double x, double y, double w, const char *utf8, double size,
		  int flags, const struct rgb *col);
/* Text turned 90° anticlockwise, centred on x, y (y-axis titles). */
void text_vertical(struct rctx *c, double x, double y, const char *utf8, double size, int flags);
/* The first of n texts (most detailed first) that fits width w on one line at
 * size, or shrunk no further than the style's minimum; *fsz the size to
 * use.  The last is used when none fits. */
int text_choose(struct rctx *c, const char *const *texts, int n, double size, int flags, double w, double *fsz);
/* Largest size ≤ size at which text fits width w on one line (≥ min). */
double text_fit(struct rctx *c, const char *utf8, double size, double min, int flags, double w);

void set_rgb(struct rctx *c, const struct rgb *col);
/* Paint paper over b (recorded as a knockout: it hides what was drawn before). */
void knockout(struct rctx *c, struct rbox b);
/* cairo_stroke() that records the path's segments (c->rec); figures stroke through it. */
void stroke(struct rctx *c);
void draw_line(struct rctx *c, double x0, double y0, double x1, double y1, double width, double dash);
void draw_rect(struct rctx *c, struct rbox b, double width, double dash);
/* Fill a box by a series look (fill, then hatching), outline when width > 0. */
void fill_look(struct rctx *c, struct rbox b, const struct series_look *look, double width);
/* Plain fill with a colour (patent: only white or black survive). */
void fill_rect(struct rctx *c, struct rbox b, const struct rgb *col);
void hatch_rect(struct rctx *c, struct rbox b, enum hatch h, double spacing, const struct rgb *col);
/* An arrow from (x0, y0) to (x1, y1) with a filled head of size head. */
void draw_arrow(struct rctx *c, double x0, double y0, double x1, double y1, double width,
		double head, const struct rgb *col);
void draw_marker(struct rctx *c, double x, double y, int kind, double size,
		 const struct series_look *look);
/* A reference numeral for part `key` with a leader line from the part
 * (px, py) to the numeral at (tx, ty).  Only when c->num is set. */
void draw_numeral(struct rctx *c, const char *key, const char *what, double px, double py,
		  double tx, double ty);
/* What a chart plotted, for the linter (layrec.h; nothing without c->rec):
 * a data mark's box (a point's marker, a bar's top edge, a whisker), the
 * series a mark belongs to, a legend entry, an axis and its labelled ticks
 * (x, y the tick's place in user space; value the number it reads). */
void rec_mark(struct rctx *c, double x0, double y0, double x1, double y1);
/* A table cell's box in user space, the record key its row is of and whether that record
 * has the column's quantity qty (layrec.h "cell"). */
void rec_cell(struct rctx *c, double x0, double y0, double x1, double y1, int measured, const char *qty,
	      const char *rec);
void rec_series(struct rctx *c, const char *key);
void rec_legend(struct rctx *c, const char *key);
int rec_axis(struct rctx *c);
void rec_tick(struct rctx *c, int axis, char dir, enum lr_scale scale, double x, double y, double value);
/* A plotted point: its marker, recorded as a mark of series key (NULL: none named). */
void plot_point(struct rctx *c, double x, double y, int kind, double size, const struct series_look *look,
		const char *key);

/* A size in points scaled by c->scale. */
double sz(const struct rctx *c, double size);

/* cairo's sticky status as 0 or an error() naming what failed (-1). */
int render_check(cairo_t *cr, const char *what);

#endif
