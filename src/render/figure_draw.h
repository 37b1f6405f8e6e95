/* figure_draw.h: the drawing side of the figure kinds (doc/figure.h
 * declares the kinds themselves): series looks and tables on a page.
 */
#ifndef ATTNPROF_RENDER_FIGURE_DRAW_H
#define ATTNPROF_RENDER_FIGURE_DRAW_H

#include "doc/data.h"
#include "doc/figkind.h"
#include "doc/figure.h"
#include "render/chart.h"
#include "render/draw.h"

/* A series' look, the same in every figure: standard, flash1, flash2 and the
 * other descriptors by table order; references grey (the second of keys[n]
 * dark grey, hatched).  keys may be NULL when n is 0. */
/* style_series of series_look_index (src/doc/figdesc.h) */
const struct series_look *series_look_of(struct rctx *c, const struct rdata *rd, const char *key);

/* Draw a built table (tables.c) from the box's top; returns its height at
 * the box's width (draw 0: measure only). */
double table_draw(struct rctx *c, const struct dtable *t, struct rbox box, int draw);
/* Build, draw and free in one (figures alone, output.c). */
double table_render(struct rctx *c, const struct rdata *rd, int kind, const struct figopts *o,
		    struct rbox box, int draw);

#endif
