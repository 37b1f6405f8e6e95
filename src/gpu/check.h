/* check.h: comparing a run's buffers with the fp64 reference (GPU half).
 * Only the sampled rows come back from the GPU. */
#ifndef ATTNPROF_GPU_CHECK_H
#define ATTNPROF_GPU_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "attn.h"
#include "grad_check.h"
#include "reference.h"
#include "results.h"

/* Rows of the run's 16-bit buffer `name` (element offsets first[0..n), d
 * elements each) against ref[n][d]; adds to e.  0, or -1 after error(). */
int check_compare_rows(struct attn_run *run, const char *name, enum dtype t, const uint64_t *first, size_t n,
		       size_t d, const double *ref, struct attn_error *e);

/* dQ, dK, dV of a bwd or fwd+bwd run against g: the record keeps the worst
 * tensor's rel-L2 and largest |error| with the gradient tolerances
 * (grad_tolerance); when rec is checked already (fwd+bwd: O), its verdict,
 * errors and rows carry over into the combined ones; each tensor's own
 * errors and bounds go to rec->grad[].  0, or -1 after error(). */
int check_gradients(struct attn_run *run, const struct grad_ref *g, const struct attn_shape *s, struct record *rec);

#endif
