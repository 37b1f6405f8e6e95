/* check.c: rows of a run's buffers against fp64 reference rows (check.h). */
#include "gpu/check.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"

int check_compare_rows(struct attn_run *run, const char *name, enum dtype t, const uint64_t *first, size_t n,
			size_t d, const double *ref, struct attn_error *e)
{
	/* only the sampled rows come back: a few hundred rows, not all of it */
	uint16_t *x = malloc(n * d * sizeof(uint16_t) + 1);
	float *row = malloc(sizeof(float) * d);
	int rc = -1;
	if (!x || !row) {
		error("out of memory for %zu rows of %s", n, name);
		goto out;
	}
	if (attn_run_get_buffer_rows(run, name, first, n, d, x)) {
		error("cannot read %s back: %s", name, attn_last_error());
		goto out;
	}
	for (size_t k = 0; k < n; k++) {
		for (size_t j = 0; j < d; j++)
			row[j] = t == DTYPE_FP16 ? half_to_float(x[k * d + j]) : bf16_to_float(x[k * d + j]);
		attn_error_add(e, ref + k * d, row, d);
	}
	rc = 0;
out:
	free(x);
	free(row);
	return rc;
}

int check_gradients(struct attn_run *run, const struct grad_ref *g, const struct attn_shape *s, struct record *rec)
{
	memset(rec->grad, 0, sizeof rec->grad); /* a tensor with no rows sampled stays unchecked */
	double tol_rel, frac;
	grad_tolerance(s->dtype, &tol_rel, &frac);
	uint64_t *first = malloc(sizeof(uint64_t) * (grad_ref_rows(g, s, GRAD_DQ, NULL) + grad_ref_rows(g, s, GRAD_DK, NULL)) + 8);
	if (!first)
		return error("out of memory for the gradient rows");
	int ok = rec->checked ? rec->correct : 1, rows = rec->checked ? rec->rows_checked : 0;
	double worst_rel = rec->checked ? rec->rel_l2_err : 0, worst_abs = rec->checked ? rec->max_abs_err : 0;
	double tol_abs = 0;
	/* The largest gradient of all three: a tensor whose reference is below
	 * 1e-6 of it is an exact cancellation (at Nkv = 1, P = 1 and dS = 0, so
	 * dQ and dK are 0 up to fp64 rounding): its relative error is not
	 * defined, and it is held to the absolute bound of the largest gradient
	 * (seen on the H200: flash2's dQ at N = 1 off by 6e-8 failed a bound of
	 * frac x 1e-17). */
	double big_all = 0;
	for (int t = 0; t < GRAD_COUNT; t++) {
		const size_t n = grad_ref_rows(g, s, (enum grad_tensor)t, NULL);
		for (size_t i = 0; i < n * (size_t)s->head_dim; i++)
			big_all = fabs(g->val[t][i]) > big_all ? fabs(g->val[t][i]) : big_all;
	}
	for (int t = 0; t < GRAD_COUNT; t++) {
		const size_t n = grad_ref_rows(g, s, (enum grad_tensor)t, first);
		if (n == 0)
			continue;
		struct attn_error e;
		attn_error_init(&e);
		if (check_compare_rows(run, grad_tensor_name((enum grad_tensor)t), s->dtype, first, n, (size_t)s->head_dim,
				 g->val[t], &e)) {
			free(first);
			return -1;
		}
		double big = 0;
		for (size_t i = 0; i < n * (size_t)s->head_dim; i++)
			big = fabs(g->val[t][i]) > big ? fabs(g->val[t][i]) : big;
		const int cancels = big < 1e-6 * big_all;
		const double rel = cancels ? 0 : attn_error_rel_l2(&e);
		const double bound = frac * (cancels ? big_all : big);
		/* NaN compares false: a poisoned element left unwritten fails here */
		const int within = e.nonfinite == 0 && rel <= tol_rel && e.max_abs <= bound;
		ok = ok && within;
		rec->grad[t] = (struct grad_error){ .checked = 1, .correct = within, .max_abs_err = e.max_abs,
						    .rel_l2_err = rel, .tol_max_abs = bound, .tol_rel_l2 = tol_rel };
		worst_rel = rel > worst_rel ? rel : worst_rel;
		worst_abs = e.max_abs > worst_abs ? e.max_abs : worst_abs;
		tol_abs = bound > tol_abs ? bound : tol_abs;
		if (t != GRAD_DV)
			rows += (int)n;
	}
	free(first);
	rec->checked = 1;
	rec->correct = ok;
	rec->max_abs_err = worst_abs;
	rec->rel_l2_err = worst_rel;
	rec->tol_max_abs = tol_abs;
	rec->tol_rel_l2 = tol_rel;
	rec->rows_checked = rows; /* O and dQ rows, and dK (= dV) rows */
	return 0;
}

