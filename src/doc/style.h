/* style.h: the four styles as data (color, print, patent, slides).
 *
 * A style says the page (size, margins), the type (family, sizes), line
 * widths, and how series and parts are told apart: colours for the screen,
 * grey fills with hatching and dashes for print, black lines and hatching
 * only for patent sheets (37 CFR 1.84), larger type on 16:9 for slides.
 * Figures never test a style's name; they read these fields.
 */
#ifndef ATTNPROF_DOC_STYLE_H
#define ATTNPROF_DOC_STYLE_H

#include <stddef.h>

struct rgb {
	double r, g, b;
};

enum hatch {
	HATCH_NONE,     /* plain fill */
	HATCH_DIAG,     /* / lines */
	HATCH_BACK,     /* \ lines */
	HATCH_CROSS,    /* × lines */
	HATCH_HORIZ,    /* horizontal lines */
	HATCH_DOTS,     /* dots */
	HATCH_VERT,     /* vertical lines */
};

/* How one series (variant) is drawn. */
struct series_look {
	struct rgb fill;     /* bar fill */
	struct rgb line;     /* line and marker stroke */
	enum hatch hatch;    /* over the fill */
	double dash;         /* 0: solid line; else dash length (pt) */
	int marker;          /* 0 circle, 1 square, 2 triangle, 3 diamond, 4 cross */
};

/* 0-2 standard, flash1, flash2; 3 a reference; 4-7 other variants; 8 a second reference */
#define STYLE_SERIES 9

enum page_kind { PAGE_A4, PAGE_LETTER, PAGE_WIDE };

struct rstyle {
	const char *name;
	const char *about;
	int patent;          /* 37 CFR 1.84 rules: numerals, FIG. labels, sheet numbers */
	int slides;          /* one message per page, large type */
	int colour;          /* colours allowed (else greys or black only) */
	int grey_fills;      /* grey fills allowed (not in patent) */

	enum page_kind page;
	double margin_t, margin_r, margin_b, margin_l; /* pt */

	const char *family, *mono;
	double size_body, size_small, size_caption, size_title, size_h1, size_h2;
	double size_fig_label; /* "FIG. n" (patent) */
	double size_numeral;   /* reference numerals */
	double size_chart;     /* tick labels, legends inside figures */
	/* The smallest type the layout may place (pt), checked by `attnprof lint`:
	 * body text (paragraphs, bullets, headings), other text (captions,
	 * tables, footers), text inside figures.  Layout never shrinks below. */
	double min_body, min_text, min_figure;
	/* Text pages of a sheets layout (the patent description, 37 CFR 1.52):
	 * their own margins (pt; 0 = the style's) and line spacing (0 = single). */
	double text_margin_t, text_margin_r, text_margin_b, text_margin_l;
	double text_leading;

	double line, thin, heavy; /* line widths (pt) */

	struct rgb ink, paper, muted, grid, accent, warn;
	struct rgb hbm_fill, shared_fill, reg_fill, chip_fill, block_fill, idle_fill;
	struct series_look series[STYLE_SERIES];
	/* Figure width (pt) when a figure is rendered alone. */
	double figure_w, figure_h;
};

extern const struct rstyle style_color, style_print, style_patent, style_slides;
extern const struct rstyle *const style_table[];
extern const size_t style_count;

/* The style called name, or NULL. */
const struct rstyle *style_find(const char *name);
/* Page width and height (pt) of a page kind. */
void page_size(enum page_kind k, double *w, double *h);
/* Parse "a4", "letter", "16:9": 0 or -1. */
int page_parse(const char *s, enum page_kind *out);
/* Look of series i (wraps around). */
const struct series_look *style_series(const struct rstyle *st, int i);

#define CM_TO_PT(cm) ((cm) * 72.0 / 2.54)

#endif
