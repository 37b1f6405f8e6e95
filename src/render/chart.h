/* chart.h: axes, panels and legends shared by every chart.
 *
 * A panel is laid out first (panel_layout: plot area from the label sizes,
 * axes from the data range) and drawn second; figures put bars, lines and
 * points in the plot area through panel_x() / panel_y().  Units decide the
 * tick labels: bytes in KiB/MiB/GiB, sequence lengths as 1k/2k, counts as
 * k/M/G.
 */
#ifndef ATTNPROF_RENDER_CHART_H
#define ATTNPROF_RENDER_CHART_H

#include "doc/data.h"
#include "doc/figdesc.h"
#include "render/draw.h"

enum tick_fmt { TICK_NUM, TICK_BYTES, TICK_SEQLEN, TICK_COUNT, TICK_PCT };

#define PANEL_MAX_CATS FD_BAR_CATS
struct panel {
	struct rbox outer, plot;
	struct axis x, y;
	enum tick_fmt xfmt, yfmt;
	int ncat;                      /* > 0: categorical x (grouped bars) */
	char cats[PANEL_MAX_CATS][32];
	double cat_value[PANEL_MAX_CATS]; /* > 0: the number a category reads (N), for the linter's scale check */
	int cat_turned;                /* labels run upwards: a piece is wider than its slot */
	int cat_abbrev;                /* labels abbreviated from the glossary (listed under the chart) */
	char cat_short[PANEL_MAX_CATS][32];
	char abbrev_key[160];          /* "sp = seqpar · sq = splitq" */
	char title[96], xlabel[64], ylabel[64];
};

/* Set the data ranges first (x via axis_*, or ncat + cats), then lay out. */
void panel_layout(struct rctx *c, struct panel *p, struct rbox outer);
void panel_draw(struct rctx *c, const struct panel *p);
double panel_x(const struct panel *p, double v);
double panel_y(const struct panel *p, double v);
/* Centre x of category i. */
double panel_cat_x(const struct panel *p, int i);
/* A tick label by format. */
const char *tick_label(double v, const struct axis *a, enum tick_fmt f, char *buf, size_t len);

/* A min–max whisker at x between y positions y0 and y1 (caps of width cap),
 * in the current colour; recorded as a plotted mark. */
void draw_whisker(struct rctx *c, double x, double y0, double y1, double cap);
/* value_spread: doc/figdesc.h */

struct legend_entry {
	char label[64];
	const struct series_look *look;
	int bar;      /* 1: a filled swatch; 0: a line with a marker */
	char part[80]; /* numeral key (patent), or "" */
};
/* The key a legend entry names its series by (the linter matches it with
 * rec_series): its part, else its label. */
const char *legend_key(const struct legend_entry *e);
/* Height of a legend laid out in rows across width w. */
double legend_height(struct rctx *c, const struct legend_entry *e, size_t n, double w);
/* Where a legend of n entries goes, cut from *box: a strip on top, or a
 * column at the right when the strip would take more than a third of the
 * height (many series, long names) and the column fits 60 % of the width. */
struct rbox legend_box(struct rctx *c, const struct legend_entry *e, size_t n, struct rbox *box);
/* Draw it from (x, y) across width w; returns the height. */
double legend_draw(struct rctx *c, const struct legend_entry *e, size_t n, double x, double y, double w);

/*
 * The frame of a figure in box: for a standalone figure the title on top;
 * the conditions caption at the bottom (not in patent style, where the
 * brief description carries conditions); returns the box left for content.
 */
struct rbox figure_frame(struct rctx *c, struct rbox box, const char *title, const char *conditions,
			 int standalone);
/* figure_frame with the conditions of the n records drawn (rdata_conditions)
 * as its caption. */
struct rbox figure_frame_recs(struct rctx *c, const struct rdata *rd, struct rbox box, const char *title,
			      const struct record *const *recs, size_t n, int standalone);
/* A notice in place of a chart whose data are missing (says what and how to fix). */
void draw_notice(struct rctx *c, struct rbox b, const char *what, const char *why);

#endif
