/* problem.h: one attention problem as every kernel takes it.
 *
 * The shape (Q, O [B, H, Nq, d]; K, V [B, Hkv, Nkv, d]), the causal mask
 * and the softmax scale: the part that the parameters of every kernel
 * family share (the flash template's, split-KV decoding's, the backward's,
 * the Hopper forward's).  kernels/runtime.cu fills it once from the run's
 * attn_shape; plain C, so that the Hopper forward's C interface holds it too.
 */
#ifndef ATTNPROF_PROBLEM_H
#define ATTNPROF_PROBLEM_H

/* The field order is the kernels' parameter layout from before the struct
 * was shared (B ... scale_log2 at the same offsets after the buffers): the
 * forward rungs' register allocation depends on it (moved to the front,
 * flash1+splitq spilled at d = 128). */
struct attn_problem {
	int B, H, Hkv;    /* batch, query heads, key/value heads (H % Hkv == 0) */
	int Nq, Nkv;      /* query and key lengths (equal for self-attention) */
	int causal;       /* 0 or 1: key c is seen by query r when c <= r + (Nkv - Nq) */
	float scale;      /* softmax scale, 1/sqrt(d) (the Hopper forward: 0 means that) */
	float scale_log2; /* scale · log2(e), for exp2 (the Hopper forward derives its own) */
	int d;            /* head dimension */
};

#endif
