/* inputs.h: the random inputs, as a pure function of (seed, tensor, index).
 *
 * Why a function and not a host array: the GPU fills Q, K and V itself (a
 * 64 GiB KV cache is not generated on the host), and the fp64 reference on
 * the CPU recomputes exactly the elements it needs.  The same inline code
 * compiles as C11 and as CUDA, so both sides agree bit for bit: the value is
 * an exact float (a 24-bit integer times a power of two), then rounded to
 * fp16/bf16 to nearest even on both sides.
 *
 * Q and K are uniform in [-2, 2) (scores of std ≈ 1.3, enough to exercise the
 * running maximum), V and the backward's incoming gradient dO uniform in
 * [-1, 1).
 */
#ifndef ATTNPROF_INPUTS_H
#define ATTNPROF_INPUTS_H

#include <stdint.h>

#ifdef __CUDACC__
#define ATTN_HD __host__ __device__
#else
#define ATTN_HD
#endif

enum attn_tensor { TENSOR_Q = 0, TENSOR_K = 1, TENSOR_V = 2, TENSOR_DO = 3 };

/* splitmix64's finaliser: a bijective, well-mixed 64-bit hash. */
static inline ATTN_HD uint64_t attn_input_mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

/* Element `index` (flat, in the tensor's [B, H, N, d] layout) of a tensor. */
static inline ATTN_HD float attn_input_value(uint64_t seed, int tensor, uint64_t index)
{
	uint64_t h = attn_input_mix(seed ^ attn_input_mix(((uint64_t)tensor << 56) ^ index));
	int32_t u = (int32_t)(h >> 40) - (1 << 23);           /* [-2^23, 2^23) */
	float step = tensor == TENSOR_V || tensor == TENSOR_DO ? 1.0f / 8388608.0f : 2.0f / 8388608.0f;
	return (float)u * step;                                /* exact */
}

#endif
