/* grad_check.h: what record compares for a backward pass, and the fp64
 * values it compares against (CPU side; src/gpu/harness.c reads the rows
 * back from the GPU).
 *
 * Sampling.  dQ rows need only their own softmax row (cost Nkv·d each);
 * dK and dV rows need every query row that sees the key (the softmax
 * statistics L, D of all G·Nq rows of the KV head group), so:
 *   - query rows: attn_sample_rows over [0, Nq) (all when check_rows is 0),
 *     the same rows in each of the G query heads of a checked group;
 *   - key rows: attn_sample_rows over [0, Nkv) when the group's full
 *     problem costs at most GRAD_CHECK_BUDGET multiply-adds (G·Nq·Nkv·d);
 *     above it, causal problems check the last min(Nkv, 64) keys, whose
 *     gradients involve only the last query rows; non-causal ones check
 *     dQ only (nk = 0, said in the record's rows_checked).
 * Groups: the first and the last (batch, KV head) pair.
 */
#ifndef ATTNPROF_GRAD_CHECK_H
#define ATTNPROF_GRAD_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "../kernels/variants.h"

/* Multiply-adds of the fp64 reference per KV head group for dK, dV over
 * sampled keys (about 2 s on one core). */
#define GRAD_CHECK_BUDGET (1ull << 31)

enum grad_tensor { GRAD_DQ, GRAD_DK, GRAD_DV, GRAD_COUNT };

struct grad_ref {
	int ngroups;
	int grp[2][2];         /* (batch, KV head) */
	int G;                 /* query heads per KV head */
	int d;                 /* head dim */
	int nq, nk;            /* sampled query rows, key rows (0: dK, dV not checked) */
	int *qrows, *krows;
	double *val[GRAD_COUNT]; /* dQ [ngroups][G][nq][d]; dK, dV [ngroups][nk][d] */
};

void grad_ref_init(struct grad_ref *g);
void grad_ref_release(struct grad_ref *g);
int grad_ref_copy(struct grad_ref *dst, const struct grad_ref *src);

/* The dtype-rounded input element i of a tensor (TENSOR_Q, …, TENSOR_DO),
 * exactly what attn_fill_input writes on the GPU. */
float grad_input(const struct attn_shape *s, uint64_t seed, int tensor, uint64_t i);

/* Build the reference of a bwd or fwd+bwd shape from the seeded inputs.
 * check_rows: query rows to compare over all checked heads (0 = all).
 * 0, or -1 after error(). */
int grad_ref_build(struct grad_ref *g, const struct attn_shape *s, uint64_t seed, int check_rows);

/* Rows of tensor t to compare: element offsets of their first element in
 * the tensor's layout ([B,H,Nq,d] for dQ, [B,Hkv,Nkv,d] for dK, dV), in the
 * order of val[t]; returns the count (first may be NULL to count). */
size_t grad_ref_rows(const struct grad_ref *g, const struct attn_shape *s, enum grad_tensor t,
		     uint64_t *first);

/* The tolerances of a gradient check, by dtype: rel_l2 over each tensor's
 * checked elements (fp16 1e-2, bf16 4e-2), and the largest |error| as a
 * fraction of the tensor's largest |reference| (fp16 5e-2, bf16 2e-1).
 * Why: P and dS are rounded to the input type for the tensor cores (FA2
 * does the same), 2⁻¹¹ (fp16) or 2⁻⁸ (bf16) relative per rounding, and
 * standard also rounds S and dP in HBM; dS = P ∘ (dP − D) loses relative
 * accuracy where dP ≈ D, so single elements stray more than the norm. */
void grad_tolerance(enum dtype t, double *rel_l2, double *max_abs_frac);

/* Buffer names of the tensors: "dQ", "dK", "dV". */
const char *grad_tensor_name(enum grad_tensor t);

#endif
