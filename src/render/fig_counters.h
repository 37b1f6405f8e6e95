/* fig_counters.h: the geometry of the counter figures, apart from drawing
 * (plain numbers, tested without a surface in tests/unit/test_render_geom.c).
 *
 *   memory-workload (fig_workload.c)  a row per record, a cell per memory
 *                                     level (L1/TEX and shared, L2, DRAM),
 *                                     in each a bar of the level's bytes
 *                                     against the largest of that level
 *   warp-states (fig_stalls.c)        a row per record, one bar of 100 % of
 *                                     the active warp-cycles cut into the
 *                                     stall reasons' shares
 */
#ifndef ATTNPROF_RENDER_FIG_COUNTERS_H
#define ATTNPROF_RENDER_FIG_COUNTERS_H

#include <stddef.h>

#include "doc/geom.h"

#define WL_LEVELS 3 /* L1/TEX with shared memory, L2, DRAM: the order drawn */

/* The cells of one row: a label column of width label_w on the left, then
 * WL_LEVELS cells of equal width with gap between them (and after the label). */
void workload_cells(struct rbox row, double label_w, double gap, struct rbox cell[WL_LEVELS]);
/* The bar of a value in its cell: from the cell's left edge, frac (clamped
 * to [0, 1]; non-finite: 0) of its width, bar_h high at the cell's top. */
struct rbox workload_bar(struct rbox cell, double frac, double bar_h);

/* One stacked bar over `bar`: segment i is v[i] / full of its width, in
 * order from the left; a non-finite or non-positive value has zero width,
 * and the segments never run past the bar's right end.  Returns the sum of
 * the values drawn (clamped at full). */
double stall_segments(struct rbox bar, const double *v, size_t n, double full, struct rbox *out);

#endif
