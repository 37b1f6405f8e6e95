/* shard.h: a sweep split into N disjoint parts, one a process or a GPU.
 *
 * `record SPEC --shard K/N` runs part K of N and `check SPEC --shard K/N`
 * lists it.  The parts are balanced by the model's predicted time of each
 * config (model.h, time_roofline_ms on the H200 defaults, whatever GPU
 * runs it, so every machine splits a spec alike): the configs, longest
 * predicted first (equal times: the earlier in the sweep first), go one by
 * one to the part with the least predicted time so far (equal: the one
 * with fewer configs, then the lower K).  The parts are disjoint and their union is the sweep; a part keeps
 * the sweep's order.  Deterministic: the same spec text splits the same
 * way on every machine and in every run (merge recomputes it to name what
 * a partial shard lacks).
 *
 * Shards are numbered from 1: "1/3", "2/3", "3/3".
 */
#ifndef ATTNPROF_SHARD_H
#define ATTNPROF_SHARD_H

#include <stddef.h>

#include "spec.h"

#define SHARD_MAX 4096  /* parts of one sweep */

/* Parse "K/N" (1 <= K <= N <= SHARD_MAX).  0, or -1 after error() naming
 * opt ("--shard") and how to write it. */
int shard_parse(const char *opt, const char *text, int *k, int *n);

/* The predicted time of a config in ms (0 when the model has none). */
double config_predicted_ms(const struct config *c);

/* The part (1..n) of each of s's configs into owner[s->nconfigs]; the
 * predicted ms of each part into load[n] when load is not NULL.  0, or -1
 * after error() (no memory). */
int shard_assign(const struct spec *s, int n, int *owner, double *load);

/* Keep only part k of n of s's configs, in sweep order.  *total_ms and
 * *part_ms (when not NULL) get the predicted time of the whole sweep and of
 * the part.  0, or -1 after error(). */
int spec_keep_shard(struct spec *s, int k, int n, double *total_ms, double *part_ms);

#endif
