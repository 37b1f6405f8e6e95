/* hopper_attn.h: C interface of the Hopper-native (sm_90a) attention forward.
 *
 * One kernel template (kernels/hopper/hopper_fwd.cu), four rungs:
 *   HOPPER_RUNG_WGMMA     "+wgmma"    Q·Kᵀ and P·V on wgmma (waited at once), tiles by TMA
 *                                     issued inline by one consumer thread, 2 consumer warpgroups
 *   HOPPER_RUNG_TMA_WS    "+tma+ws"   + a producer warp (setmaxnreg 24) feeding a K/V ring of
 *                                     full/empty mbarriers; consumers setmaxnreg 240
 *   HOPPER_RUNG_PINGPONG  "+pingpong" + the two consumer warpgroups take turns issuing their
 *                                     GEMMs (named barriers): one's softmax under the other's GEMMs
 *   HOPPER_RUNG_OVERLAP   "+overlap"  + inside a warpgroup, the softmax of block j runs while
 *                                     its P·V GEMM of block j-1 is still in flight
 *
 * Layouts (the same as kernels/attn.h): Q, O [B, H, Nq, d]; K, V [B, Hkv, Nkv, d],
 * row major, 16-bit elements of the dtype; lse [B, H, Nq] fp32, natural log of the
 * row sums of exp(scale·s) (−inf for a row with no key).  Causal masks are
 * bottom-right aligned: key c is seen by query r when c <= r + (Nkv − Nq).
 * d one of HOPPER_HEAD_DIMS (hopper_tiles.h: 64, 128, 256); H a multiple of Hkv
 * (GQA/MQA); any Nq, Nkv ≥ 1.
 * Pointers must be 16-byte aligned.  Needs an sm_90 device (H100/H200).
 */
#ifndef ATTNPROF_HOPPER_ATTN_H
#define ATTNPROF_HOPPER_ATTN_H

#include "../problem.h"
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

enum hopper_dtype { HOPPER_FP16 = 0, HOPPER_BF16 = 1 };

enum hopper_rung {
	HOPPER_RUNG_WGMMA = 0,
	HOPPER_RUNG_TMA_WS = 1,
	HOPPER_RUNG_PINGPONG = 2,
	HOPPER_RUNG_OVERLAP = 3,
	HOPPER_RUNG_COUNT = 4
};

struct hopper_fwd_params {
	struct attn_problem pb; /* the shape (d: HOPPER_HEAD_DIMS), causal, scale (0 means 1/sqrt(d)) */
	int dtype;          /* enum hopper_dtype */
	const void *q, *k, *v;
	void *o;
	float *lse;         /* [B, H, Nq]; may be NULL (not written) */
	void *stream;       /* a cudaStream_t; NULL for the default stream */
};

/* Launch rung `rung` on p (asynchronous).  Returns 0 (cudaSuccess) or a
 * cudaError_t value: cudaErrorInvalidValue (1) for a shape or pointer it does
 * not take, cudaErrorNotSupported for a missing driver entry point. */
int hopper_fwd(const struct hopper_fwd_params *p, int rung);

/* "+wgmma", "+tma+ws", "+pingpong", "+overlap"; NULL outside the range. */
const char *hopper_rung_name(int rung);

struct hopper_kernel_info {
	int threads;        /* per CTA */
	int block_m, block_n, stages;
	int regs;           /* registers per thread as compiled (cudaFuncGetAttributes) */
	int regs_producer, regs_consumer; /* after setmaxnreg; both = regs when unused */
	int smem_bytes;     /* dynamic shared memory per CTA */
	int local_bytes;    /* local memory (spills) per thread */
};
/* Facts of the kernel a launch of (rung, d, dtype, causal) uses. */
int hopper_fwd_info(int rung, int d, int dtype, int causal, struct hopper_kernel_info *out);

/* ---- FP8 (e4m3) forward (hopper_fp8.cu; tiling: hopper_tiles.h) ----
 * Two launches a call of hopper_fp8_fwd: the quantisation (hopper_fp8_quant:
 * per-tensor amax of Q, K, V; Q and K to e4m3 at scale 448/amax; V to e4m3,
 * transposed to [B, Hkv, d, HOPPER_FP8_VT_LEN(Nkv)] (zero-padded), the keys of each
 * 32-key group permuted so that the S accumulators are P·V's A operand as
 * they lie), then the attention: S = Q8·K8ᵀ (wgmma e4m3, f32), the
 * descales (amax/448 of Q and K) folded into the softmax scale, P quantised
 * to e4m3 in registers, O += P8·Vt8, O · descale_v / l written in bf16.
 * d in HOPPER_FP8_HEAD_DIMS (64, 128); causal or not, GQA, any Nq, Nkv >= 1;
 * the layouts of hopper_fwd. */
struct hopper_fp8_params {
	struct attn_problem pb; /* shape, causal, scale (0: 1/sqrt(d)) */
	int dtype;              /* of q, k, v: enum hopper_dtype */
	const void *q, *k, *v;  /* 16-bit inputs */
	void *q8, *k8, *vt8;    /* e4m3 workspaces: Q's and K's sizes in bytes, vt8 hopper_fp8_vt_bytes */
	float *amax;            /* device, 3 floats: max |q|, |k|, |v| (written by the quantisation) */
	int incoherent;         /* 1: Q, K rows times diag(±1)·Hadamard/sqrt(d) before quantising (hopper_tiles.h) */
	unsigned seed;          /* of the ±1 diagonal */
	void *o;                /* bf16 [B, H, Nq, d] */
	float *lse;             /* [B, H, Nq]; may be NULL */
	void *stream;
};
/* Bytes of the transposed e4m3 V. */
size_t hopper_fp8_vt_bytes(const struct attn_problem *pb);
/* The quantisation launches alone (timed apart by the bench). */
int hopper_fp8_quant(const struct hopper_fp8_params *p);
/* The attention on q8, k8, vt8, amax as hopper_fp8_quant left them. */
int hopper_fp8_attn(const struct hopper_fp8_params *p);
/* Both: quantisation, then attention (asynchronous). 0 or a cudaError_t. */
int hopper_fp8_fwd(const struct hopper_fp8_params *p);
/* Facts of the FP8 attention kernel of (d, causal). */
int hopper_fp8_info(int d, int causal, struct hopper_kernel_info *out);

#ifdef __cplusplus
}
#endif
#endif
