/* reference.h: naive attention in fp64, the yardstick for correctness.
 *
 * Inputs are float arrays already converted from fp16/bf16 (see
 * half_to_float, bf16_to_float), in the layouts the kernels use:
 * Q is [B, H, Nq, d], K and V are [B, Hkv, Nkv, d], row-major, contiguous.
 * Grouped-query attention: query head h reads KV head h / (H / Hkv).
 * Scores are s = q·k / sqrt(d); the causal mask is bottom-right aligned:
 * query row r sees key c iff c <= r + (Nkv - Nq).
 *
 * A row that sees no key (causal with Nq > Nkv) has O = 0 and
 * logsumexp = -inf, by convention.
 */
#ifndef ATTNPROF_REFERENCE_H
#define ATTNPROF_REFERENCE_H

#include <stddef.h>
#include <stdint.h>

#include "../kernels/variants.h"

/*
 * Exact attention for nrows query rows rows[] of head (b, h):
 * o is [nrows, d] (may be NULL), lse[nrows] the natural-log logsumexp of
 * the scaled scores (may be NULL).  All arithmetic is fp64, with
 * the row maximum subtracted first.  0, or -1 after error() on a bad
 * argument (row or head out of range, Hkv not dividing H).
 */
int attn_reference_rows(const struct attn_shape *s, const float *q,
			const float *k, const float *v, int b, int h,
			const int *rows, int nrows, double *o, double *lse);

/*
 * Gradients of the loss ⟨dO, O⟩ (so ∂loss/∂O = dO) for the G = H/Hkv query
 * heads of one KV head, in fp64: q and dout are [G][Nq][d] (those heads'
 * rows, consecutive as in Q), k and v are [Nkv][d].
 *   dq [G][nq][d]: dQ of query rows qrows[] (increasing or not) of each of
 *                  the G heads; costs G·nq·Nkv·d.
 *   dk, dv [nk][d]: dK, dV of key rows krows[], summed over the G heads and
 *                  over every query row that sees the key: the softmax
 *                  statistics of those rows are needed, up to G·Nq·Nkv·d
 *                  (pass nk = 0 to skip it; rows that see none of the keys
 *                  are skipped, so under the causal mask the last keys
 *                  cost only the last rows).
 * dq may be NULL when nq = 0, dk and dv when nk = 0.  Textbook formulas,
 * with the scaled scores s = q·k/sqrt(d), P = softmax(s) per row:
 * D_r = Σ_x dO_rx·O_rx, dS = P ∘ (dO·Vᵀ − D), dQ = dS·K/sqrt(d),
 * dK = dSᵀ·Q/sqrt(d), dV = Pᵀ·dO; rows that see no key contribute nothing
 * and get dQ = 0.  0, or -1 after error() on a bad argument.
 */
int attn_reference_grad(const struct attn_shape *s, const float *q, const float *k,
			const float *v, const float *dout, const int *qrows, int nq,
			double *dq, const int *krows, int nk, double *dk, double *dv);

/* Last key index query row r may see, or -1 for none (Nkv - 1 when not causal). */
long attn_last_key(const struct attn_shape *s, long r);

/*
 * Pick n distinct query rows of [0, nq) in increasing order, always with
 * the first and the last row (the ragged tail is where bounds bugs live),
 * the rest drawn from seed.  Returns the count written (min(n, nq)).
 */
int attn_sample_rows(int nq, int n, uint64_t seed, int *rows);

/* Error of a result against the reference, accumulated over rows. */
struct attn_error {
	double max_abs;        /* largest |got - ref| */
	double sum_sq_err;     /* Σ (got - ref)² */
	double sum_sq_ref;     /* Σ ref² */
	size_t n;              /* elements compared */
	size_t nonfinite;      /* got was NaN or ±inf (counted as failures) */
};
void attn_error_init(struct attn_error *e);
void attn_error_add(struct attn_error *e, const double *ref, const float *got, size_t n);
/* ‖got - ref‖₂ / ‖ref‖₂ (the absolute norm when ‖ref‖₂ is 0). */
double attn_error_rel_l2(const struct attn_error *e);

/* IEEE binary16 and bfloat16 bit patterns to float (exact). */
float half_to_float(uint16_t h);
float bf16_to_float(uint16_t b);
/* float to binary16 / bfloat16, round to nearest even. */
uint16_t float_to_half(float f);
uint16_t float_to_bf16(float f);

#endif
