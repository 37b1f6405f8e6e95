/* figure.h: the figure kinds, as a table.
 *
 * One kind per figure a document or `attnprof figure` can draw.  A kind
 * draws into any box, in any style, from the results and the variants'
 * descriptors; it never knows which document holds it.  Kinds that need
 * records of one sort (decode, the ablation ladder) say so in `needs`, and
 * templates skip them when the results have none.
 *
 * Each kind's title and drawing, declared without Cairo (struct rctx is
 * opaque here): the titles are figtitle.c's, here, in every build; the
 * drawings src/render/fig_*.c's, which figure.c's table points at only in a
 * build with the renderer.  Series looks and tables on a page are
 * render/figure_draw.h's.
 */
#ifndef ATTNPROF_DOC_FIGURE_H
#define ATTNPROF_DOC_FIGURE_H

#include <stddef.h>

#include "doc/data.h"
#include "doc/figkind.h"

struct rctx; /* render/draw.h */

/* Kinds, one file per concern. */
void fig_dataflow_title(const struct rdata *, const struct figopts *, char *, size_t);
void fig_dataflow(struct rctx *, const struct rdata *, const struct figopts *, struct rbox);
void fig_dataflow_compare_title(const struct rdata *, const struct figopts *, char *, size_t);
void fig_dataflow_compare(struct rctx *, const struct rdata *, const struct figopts *, struct rbox);
void fig_grid_title(const struct rdata *, const struct figopts *, char *, size_t);
void fig_grid(struct rctx *, const struct rdata *, const struct figopts *, struct rbox);
void fig_warps_title(const struct rdata *, const struct figopts *, char *, size_t);
void fig_warps(struct rctx *, const struct rdata *, const struct figopts *, struct rbox);
void fig_bwdpart_title(const struct rdata *, const struct figopts *, char *, size_t);
void fig_bwdpart(struct rctx *, const struct rdata *, const struct figopts *, struct rbox);
void fig_tflops_title(const struct rdata *, const struct figopts *, char *, size_t);
void fig_tflops(struct rctx *, const struct rdata *, const struct figopts *, struct rbox);
void fig_hbm_title(const struct rdata *, const struct figopts *, char *, size_t);
void fig_hbm(struct rctx *, const struct rdata *, const struct figopts *, struct rbox);
void fig_memory_title(const struct rdata *, const struct figopts *, char *, size_t);
void fig_memory(struct rctx *, const struct rdata *, const struct figopts *, struct rbox);
void fig_smem_title(const struct rdata *, const struct figopts *, char *, size_t);
void fig_smem(struct rctx *, const struct rdata *, const struct figopts *, struct rbox);
void fig_occupancy_title(const struct rdata *, const struct figopts *, char *, size_t);
void fig_occupancy(struct rctx *, const struct rdata *, const struct figopts *, struct rbox);
void fig_roofline_title(const struct rdata *, const struct figopts *, char *, size_t);
void fig_roofline(struct rctx *, const struct rdata *, const struct figopts *, struct rbox);
void fig_wshare_title(const struct rdata *, const struct figopts *, char *, size_t);
void fig_wshare(struct rctx *, const struct rdata *, const struct figopts *, struct rbox);
void fig_hierarchy_title(const struct rdata *, const struct figopts *, char *, size_t);
void fig_hierarchy(struct rctx *, const struct rdata *, const struct figopts *, struct rbox);
void fig_ablation_title(const struct rdata *, const struct figopts *, char *, size_t);
void fig_ablation(struct rctx *, const struct rdata *, const struct figopts *, struct rbox);
void fig_decode_title(const struct rdata *, const struct figopts *, char *, size_t);
void fig_decode(struct rctx *, const struct rdata *, const struct figopts *, struct rbox);
/* Counter figures (fig_workload.c, fig_stalls.c; geometry in fig_counters.h). */
void fig_workload_title(const struct rdata *, const struct figopts *, char *, size_t);
void fig_workload(struct rctx *, const struct rdata *, const struct figopts *, struct rbox);
void fig_stalls_title(const struct rdata *, const struct figopts *, char *, size_t);
void fig_stalls(struct rctx *, const struct rdata *, const struct figopts *, struct rbox);
/* Teaching figures (fig_teach.c). */
void fig_tiling_title(const struct rdata *, const struct figopts *, char *, size_t);
void fig_tiling(struct rctx *, const struct rdata *, const struct figopts *, struct rbox);
void fig_softmax_title(const struct rdata *, const struct figopts *, char *, size_t);
void fig_softmax(struct rctx *, const struct rdata *, const struct figopts *, struct rbox);
void fig_looporder_title(const struct rdata *, const struct figopts *, char *, size_t);
void fig_looporder(struct rctx *, const struct rdata *, const struct figopts *, struct rbox);
void fig_warpsplit_title(const struct rdata *, const struct figopts *, char *, size_t);
void fig_warpsplit(struct rctx *, const struct rdata *, const struct figopts *, struct rbox);
void fig_causal_title(const struct rdata *, const struct figopts *, char *, size_t);
void fig_causal(struct rctx *, const struct rdata *, const struct figopts *, struct rbox);
void fig_diff_title(const struct rdata *, const struct figopts *, char *, size_t);
void fig_diff(struct rctx *, const struct rdata *, const struct figopts *, struct rbox);
void fig_ladder_title(const struct rdata *, const struct figopts *, char *, size_t);
void fig_ladder(struct rctx *, const struct rdata *, const struct figopts *, struct rbox);
void fig_laddern_title(const struct rdata *, const struct figopts *, char *, size_t);
void fig_laddern(struct rctx *, const struct rdata *, const struct figopts *, struct rbox);
/* The per-step data flow as small multiples (fig_steps.c). */
void fig_steps_title(const struct rdata *, const struct figopts *, char *, size_t);
void fig_steps(struct rctx *, const struct rdata *, const struct figopts *, struct rbox);
/* A warp-specialised kernel: its thread block and its loop (fig_warpspec.c). */
void fig_warpspec_title(const struct rdata *, const struct figopts *, char *, size_t);
void fig_warpspec(struct rctx *, const struct rdata *, const struct figopts *, struct rbox);
void fig_wstimeline_title(const struct rdata *, const struct figopts *, char *, size_t);
void fig_wstimeline(struct rctx *, const struct rdata *, const struct figopts *, struct rbox);
void fig_pwarpspec_title(const struct rdata *, const struct figopts *, char *, size_t);
void fig_pwarpspec(struct rctx *, const struct rdata *, const struct figopts *, struct rbox);
void fig_ptimeline_title(const struct rdata *, const struct figopts *, char *, size_t);
void fig_ptimeline(struct rctx *, const struct rdata *, const struct figopts *, struct rbox);
/* Patent drawing views (fig_patent.c). */
void fig_pdataflow_title(const struct rdata *, const struct figopts *, char *, size_t);
void fig_pdataflow(struct rctx *, const struct rdata *, const struct figopts *, struct rbox);
void fig_pgrid_title(const struct rdata *, const struct figopts *, char *, size_t);
void fig_pgrid(struct rctx *, const struct rdata *, const struct figopts *, struct rbox);
void fig_pwarps_title(const struct rdata *, const struct figopts *, char *, size_t);
void fig_pwarps(struct rctx *, const struct rdata *, const struct figopts *, struct rbox);
void fig_pcausal_title(const struct rdata *, const struct figopts *, char *, size_t);
void fig_pcausal(struct rctx *, const struct rdata *, const struct figopts *, struct rbox);
void fig_pthroughput_title(const struct rdata *, const struct figopts *, char *, size_t);
void fig_pthroughput(struct rctx *, const struct rdata *, const struct figopts *, struct rbox);
void fig_pladder_title(const struct rdata *, const struct figopts *, char *, size_t);
void fig_pladder(struct rctx *, const struct rdata *, const struct figopts *, struct rbox);
void fig_pdecode_title(const struct rdata *, const struct figopts *, char *, size_t);
void fig_pdecode(struct rctx *, const struct rdata *, const struct figopts *, struct rbox);
void fig_pcapdataflow_title(const struct rdata *, const struct figopts *, char *, size_t);
void fig_pcapdataflow(struct rctx *, const struct rdata *, const struct figopts *, struct rbox);
void fig_pcapgrid_title(const struct rdata *, const struct figopts *, char *, size_t);
void fig_pcapgrid(struct rctx *, const struct rdata *, const struct figopts *, struct rbox);
void fig_pcapthroughput_title(const struct rdata *, const struct figopts *, char *, size_t);
void fig_pcapthroughput(struct rctx *, const struct rdata *, const struct figopts *, struct rbox);

/* Captured calls, drawn from measurement (fig_capture.c). */
void fig_capdataflow_title(const struct rdata *, const struct figopts *, char *, size_t);
void fig_capdataflow(struct rctx *, const struct rdata *, const struct figopts *, struct rbox);
void fig_capkernels_title(const struct rdata *, const struct figopts *, char *, size_t);
void fig_capkernels(struct rctx *, const struct rdata *, const struct figopts *, struct rbox);
void fig_capgrid_title(const struct rdata *, const struct figopts *, char *, size_t);
void fig_capgrid(struct rctx *, const struct rdata *, const struct figopts *, struct rbox);
void fig_capcompare_title(const struct rdata *, const struct figopts *, char *, size_t);
void fig_capcompare(struct rctx *, const struct rdata *, const struct figopts *, struct rbox);

#endif
