/* shapeinfer.h: what a call found by family (no shape came with it) tells
 * of its shape through its kernels' grids and names.
 *
 * Only where a family's launch convention fixes it (the conventions, each
 * checked against the calls of the committed SDPA and FlexAttention
 * captures, whose shapes the helper recorded):
 *
 *   FA2 forward flash_fwd_kernel      grid (⌈Nq/kBlockM⌉, B, H)
 *   FA2 backward dot(dO, O), dQ conv. grid (⌈Nq/kBlockM⌉, B, H)
 *   FA2 backward main kernel          grid (·, B, H) (its x counts key blocks,
 *                                     or SM shares in deterministic mode: not read)
 *     kHeadDim, kBlockM from Flash_*_kernel_traits<kHeadDim, kBlockM, kBlockN, …>
 *     in the mangled name: d in (kHeadDim − 32, kHeadDim], d = kHeadDim when
 *     Is_even_K; Nq a multiple of kBlockM when Is_even_MN; Is_causal; the
 *     element type (cutlass::half_t fp16, bfloat16_t bf16): the kernel's bool
 *     template arguments, read only when there are as many as this FA2's
 *     signature has (8 forward, 7 backward)
 *   mem-efficient fmha_cutlassF_<t>_…_<Q>x<K>   grid (⌈Nq/Q⌉, H, B), d ≤ kMaxK
 *   mem-efficient fmha_cutlassB_<t>_…_k<D>       grid (·, H, B), d ≤ D
 *   cuDNN's dot(dO, O) and dQ conversion          grid (·, B, H)
 *   FlexAttention's template kernels             grid (·, B, H) (BLOCK_M is
 *                                                 the autotuner's, not in the name)
 *
 * A persistent grid (cuDNN's fused kernels: one block per SM) says
 * nothing.  Where the kernels of one call disagree on a quantity it is
 * left out.  The result is stated as inferred, with its rule, and never
 * made the record's shape (capture.shape_known stays false).
 * Pure logic: no GPU.
 */
#ifndef ATTNPROF_SHAPEINFER_H
#define ATTNPROF_SHAPEINFER_H

#include <stddef.h>

#include "results.h"

struct inferred_shape {
	int batch, heads;       /* 0: not inferred */
	int nq_min, nq_max;     /* 0: not inferred */
	int d_min, d_max;       /* 0: not inferred */
	int causal;             /* -1: not inferred */
	enum dtype dtype;       /* DTYPE_UNKNOWN: not inferred */
	char text[160];         /* "B=4 H=16 Nq=4096 d=128 causal=0 dtype=fp16" */
	char rule[700];         /* how, kernel by kernel */
};

/* Read rec's kernels; 1 when anything was inferred (s->text, s->rule
 * filled), 0 when nothing (s->rule says why when a kernel was known). */
int shape_infer(const struct record *rec, struct inferred_shape *s);

#endif
