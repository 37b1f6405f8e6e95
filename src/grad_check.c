/* grad_check.c: the backward check's sample and reference (grad_check.h). */
#include "grad_check.h"

#include <stdlib.h>
#include <string.h>

#include "inputs.h"
#include "reference.h"
#include "results.h"
#include "util/error.h"

/* the record's gradients are indexed by this file's tensors */
_Static_assert(GRAD_COUNT == RECORD_GRADS, "one record gradient per checked tensor, in enum grad_tensor's order");

void grad_ref_init(struct grad_ref *g)
{
	memset(g, 0, sizeof(*g));
}

void grad_ref_release(struct grad_ref *g)
{
	free(g->qrows);
	free(g->krows);
	for (int t = 0; t < GRAD_COUNT; t++)
		free(g->val[t]);
	grad_ref_init(g);
}

static size_t val_count(const struct grad_ref *g, enum grad_tensor t)
{
	return (size_t)g->ngroups * (t == GRAD_DQ ? (size_t)g->G * g->nq : (size_t)g->nk) * g->d;
}

static void *dup_array(const void *p, size_t bytes)
{
	void *q = malloc(bytes + 1);
	if (q && bytes)
		memcpy(q, p, bytes);
	return q;
}

int grad_ref_copy(struct grad_ref *dst, const struct grad_ref *src)
{
	*dst = *src;
	dst->qrows = dup_array(src->qrows, (size_t)src->nq * sizeof(int));
	dst->krows = dup_array(src->krows, (size_t)src->nk * sizeof(int));
	int ok = dst->qrows && dst->krows;
	for (int t = 0; t < GRAD_COUNT; t++) {
		dst->val[t] = dup_array(src->val[t], val_count(src, (enum grad_tensor)t) * sizeof(double));
		ok = ok && dst->val[t];
	}
	if (!ok) {
		grad_ref_release(dst);
		return error("out of memory copying the gradient reference");
	}
	return 0;
}

float grad_input(const struct attn_shape *s, uint64_t seed, int tensor, uint64_t i)
{
	float x = attn_input_value(seed, tensor, i);
	return s->dtype == DTYPE_FP16 ? half_to_float(float_to_half(x)) : bf16_to_float(float_to_bf16(x));
}

void grad_tolerance(enum dtype t, double *rel_l2, double *max_abs_frac)
{
	*rel_l2 = t == DTYPE_FP16 ? 1e-2 : 4e-2;
	*max_abs_frac = t == DTYPE_FP16 ? 5e-2 : 2e-1;
}

const char *grad_tensor_name(enum grad_tensor t)
{
	return t < GRAD_COUNT ? record_grad_names[t] : "?";
}

int grad_ref_build(struct grad_ref *g, const struct attn_shape *s, uint64_t seed, int check_rows)
{
	grad_ref_release(g);
	const int B = s->batch, Hkv = s->kv_heads, nq = s->seqlen_q, nkv = s->seqlen_kv, d = s->head_dim;
	if (B < 1 || Hkv < 1 || s->heads % Hkv || nq < 1 || nkv < 1 || d < 1)
		return error("gradient reference: bad shape");
	g->G = s->heads / Hkv;
	g->d = d;
	g->grp[0][0] = g->grp[0][1] = 0;
	g->ngroups = 1;
	if (B > 1 || Hkv > 1) {
		g->grp[1][0] = B - 1;
		g->grp[1][1] = Hkv - 1;
		g->ngroups = 2;
	}
	/* query rows: check_rows over all checked heads */
	const int heads = g->ngroups * g->G;
	int want = check_rows ? (check_rows + heads - 1) / heads : nq;
	if (want > nq)
		want = nq;
	const double cost = (double)g->G * nq * nkv * d;
	const int kfull = cost <= (double)GRAD_CHECK_BUDGET;
	int kwant = check_rows ? want : nkv;
	if (kwant > nkv)
		kwant = nkv;
	if (!kfull)
		kwant = s->causal ? (nkv < 64 ? nkv : 64) : 0;
	g->qrows = malloc(sizeof(int) * (size_t)want + 1);
	g->krows = malloc(sizeof(int) * (size_t)kwant + 1);
	const size_t gq = (size_t)g->G * nq * d, kv = (size_t)nkv * d;
	float *q = malloc(gq * sizeof(float)), *dout = malloc(gq * sizeof(float));
	float *k = malloc(kv * sizeof(float)), *v = malloc(kv * sizeof(float));
	int rc = -1;
	if (!g->qrows || !g->krows || !q || !dout || !k || !v) {
		error("out of memory for the gradient reference of %d rows", nq);
		goto out;
	}
	g->nq = attn_sample_rows(nq, want, seed, g->qrows);
	if (kfull) {
		g->nk = attn_sample_rows(nkv, kwant, seed + 1, g->krows);
	} else { /* causal and large: the last keys, seen by the last rows only */
		g->nk = kwant;
		for (int j = 0; j < kwant; j++)
			g->krows[j] = nkv - kwant + j;
	}
	for (int t = 0; t < GRAD_COUNT; t++)
		if (!(g->val[t] = malloc(val_count(g, (enum grad_tensor)t) * sizeof(double) + 1))) {
			error("out of memory for the gradient reference");
			goto out;
		}
	for (int i = 0; i < g->ngroups; i++) {
		const int b = g->grp[i][0], kvh = g->grp[i][1];
		const uint64_t qoff = ((uint64_t)b * s->heads + (uint64_t)kvh * g->G) * nq * d;
		const uint64_t kvoff = ((uint64_t)b * Hkv + kvh) * nkv * d;
		for (size_t j = 0; j < gq; j++) {
			q[j] = grad_input(s, seed, TENSOR_Q, qoff + j);
			dout[j] = grad_input(s, seed, TENSOR_DO, qoff + j);
		}
		for (size_t j = 0; j < kv; j++) {
			k[j] = grad_input(s, seed, TENSOR_K, kvoff + j);
			v[j] = grad_input(s, seed, TENSOR_V, kvoff + j);
		}
		const size_t dq_per = (size_t)g->G * g->nq * d, dk_per = (size_t)g->nk * d;
		if (attn_reference_grad(s, q, k, v, dout, g->qrows, g->nq, g->val[GRAD_DQ] + i * dq_per,
					g->krows, g->nk, g->val[GRAD_DK] + i * dk_per, g->val[GRAD_DV] + i * dk_per))
			goto out;
	}
	rc = 0;
out:
	if (rc)
		grad_ref_release(g);
	free(q);
	free(dout);
	free(k);
	free(v);
	return rc;
}

size_t grad_ref_rows(const struct grad_ref *g, const struct attn_shape *s, enum grad_tensor t, uint64_t *first)
{
	size_t n = 0;
	const uint64_t d = (uint64_t)g->d;
	for (int i = 0; i < g->ngroups; i++) {
		const uint64_t b = (uint64_t)g->grp[i][0], kvh = (uint64_t)g->grp[i][1];
		if (t == GRAD_DQ) {
			for (int h = 0; h < g->G; h++)
				for (int r = 0; r < g->nq; r++, n++)
					if (first)
						first[n] = ((b * s->heads + kvh * g->G + h) * s->seqlen_q + g->qrows[r]) * d;
		} else {
			for (int j = 0; j < g->nk; j++, n++)
				if (first)
					first[n] = ((b * s->kv_heads + kvh) * s->seqlen_kv + g->krows[j]) * d;
		}
	}
	return n;
}
