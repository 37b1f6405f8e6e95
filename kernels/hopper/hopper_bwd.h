/* hopper_bwd.h: C interface and tiling of the Hopper-native (sm_90a) attention
 * backward (kernels/hopper/hopper_bwd.cu), rung 0 "+wgmma" of issue 49.
 *
 * Three launches on one stream:
 *   hopper_bwd_prep   D = rowsum(dO ∘ O) (fp32) per query row
 *   hopper_bwd_kernel a CTA owns HOPPER_BWD_BLOCK_N keys of one KV head (two
 *                     warpgroups of 64 keys, wgmma's M) and walks the query
 *                     blocks of HOPPER_BWD_BLOCK_M rows of every query head of
 *                     that KV head; dK, dV accumulate in registers; dQ goes to
 *                     an fp32 workspace by atomics (red.global.add)
 *   hopper_bwd_dq     dQ = workspace · scale, rounded to the dtype
 * The workspace (hopper_bwd_workspace_bytes) holds the fp32 dQ accumulator
 * and D; the accumulator is zeroed by the launch (cudaMemsetAsync).
 * Rung 1 "+tma+ws" (hopper_bwd_ws_kernel, 384 threads) adds dQ by TMA
 * reductions instead of per-element atomics; with .deterministic it stores
 * each key block's partial dQ to its own slot and hopper_bwd_dq_det sums the
 * slots in key-block order (no zeroing, no atomics: the same bits every run).
 *
 * Layouts as hopper_attn.h: Q, O, dO, dQ [B, H, Nq, d]; K, V, dK, dV
 * [B, Hkv, Nkv, d]; lse [B, H, Nq] fp32, natural log, the forward's (−inf for
 * a row with no key).  Causal masks bottom-right aligned.  d ∈ {64, 128}; any
 * Nq, Nkv ≥ 1; H a multiple of Hkv.  Pointers 16-byte aligned.
 */
#ifndef ATTNPROF_HOPPER_BWD_H
#define ATTNPROF_HOPPER_BWD_H

#include <stddef.h>

#include "hopper_attn.h"

/* The head dims the backward takes: hopper_bwd.cu's dispatch instantiates
 * these and its entry check takes these, and the backward descriptor's
 * head-dim trait (variants.c) is this list. */
#define HOPPER_BWD_HEAD_DIMS { 64, 128 }
#define HOPPER_BWD_BLOCK_N 128 /* keys per CTA: two warpgroups of 64 */
#define HOPPER_BWD_BLOCK_M 64  /* query rows per step of the walk */
#define HOPPER_BWD_THREADS 256 /* two warpgroups, both compute; thread 0 issues the TMA loads */
/* dynamic shared memory: K, V (BLOCK_N rows), two stages of Q and dO
 * (BLOCK_M rows), the dS tile (BLOCK_M × BLOCK_N), two stages of the
 * block's lse and D (fp32), mbarriers and the 1024-byte alignment */
#define HOPPER_BWD_SMEM(d)                                                                                  \
	(2 * HOPPER_BWD_BLOCK_N * (d) * 2 + 2 * 2 * HOPPER_BWD_BLOCK_M * (d) * 2 + HOPPER_BWD_BLOCK_M * HOPPER_BWD_BLOCK_N * 2 + \
	 2 * 2 * HOPPER_BWD_BLOCK_M * 4 + 64 + 1024)

/* rung 1 "+tma+ws": 384 threads (a producer warpgroup, two consumer
 * warpgroups of 64 keys); a ring of HOPPER_BWD_WS_STAGES Q/dO stages, each
 * with its lse and D; two dS buffers; each consumer's fp32 dQ tile
 * (BLOCK_M × 64) for the TMA reduction; the full and empty mbarriers */
#define HOPPER_BWD_WS_STAGES 2
#define HOPPER_BWD_WS_THREADS 384
#define HOPPER_BWD_WS_SMEM(d)                                                                                     \
	(2 * HOPPER_BWD_BLOCK_N * (d) * 2 + 2 * HOPPER_BWD_WS_STAGES * HOPPER_BWD_BLOCK_M * (d) * 2 +                  \
	 2 * HOPPER_BWD_BLOCK_M * HOPPER_BWD_BLOCK_N * 2 + 2 * HOPPER_BWD_BLOCK_M * 64 * 4 +                          \
	 HOPPER_BWD_WS_STAGES * 2 * HOPPER_BWD_BLOCK_M * 4 + 8 * (1 + 2 * HOPPER_BWD_WS_STAGES) + 1024)

#ifdef __cplusplus
extern "C" {
#endif

enum hopper_bwd_rung { HOPPER_BWD_RUNG_WGMMA = 0, HOPPER_BWD_RUNG_WS = 1, HOPPER_BWD_RUNG_COUNT = 2 };

struct hopper_bwd_params {
	struct attn_problem pb; /* the shape (d: 64 or 128), causal, scale (0 means 1/sqrt(d)) */
	int dtype;              /* enum hopper_dtype */
	const void *q, *k, *v, *o, *dout;
	const float *lse;       /* the forward's, [B, H, Nq] */
	void *dq, *dk, *dv;
	void *workspace;        /* hopper_bwd_workspace_bytes(&pb, deterministic) bytes, 16-byte aligned */
	float *dsum;            /* D = rowsum(dO ∘ O), B·H·Nq fp32; NULL: in the workspace, after the accumulator */
	int deterministic;      /* rung 1 only: dQ summed in a fixed order (partial dQ per key block, then a
	                         * reduction kernel), so two launches give the same bits; 0: TMA reduce-adds */
	void *stream;           /* a cudaStream_t; NULL for the default stream */
};

/* Bytes of the workspace a launch on pb needs: the fp32 dQ accumulator
 * (B·H·Nq·d; deterministic: one per 128-key block at d = 128, two at d = 64)
 * and D (B·H·Nq). */
size_t hopper_bwd_workspace_bytes(const struct attn_problem *pb, int deterministic);

/* Launch rung `rung` (asynchronous).  0 (cudaSuccess) or a cudaError_t:
 * cudaErrorInvalidValue for a shape or pointer it does not take. */
int hopper_bwd(const struct hopper_bwd_params *p, int rung);

/* "+wgmma", "+tma+ws"; NULL outside the range. */
const char *hopper_bwd_rung_name(int rung);

/* Facts of the main kernel of (rung, d, dtype, causal): threads, tile
 * (block_m = keys per CTA, block_n = query rows per step), registers,
 * shared memory, local (spill) bytes. */
int hopper_bwd_info(int rung, int d, int dtype, int causal, struct hopper_kernel_info *out);

#ifdef __cplusplus
}
#endif
#endif
