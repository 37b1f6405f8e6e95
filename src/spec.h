/* spec.h: experiment specs (YAML) and their expansion into a sweep.
 *
 * A spec names variants, dtypes, head dims, sequence lengths, batch (fixed,
 * or fixed batch tokens B·N), heads (fixed, or hidden size H·d), KV heads,
 * causal, phase; repetitions, warm-up, seed; a metric set; tolerances.
 * Top-level values are defaults; an optional `sweeps:` list holds blocks
 * that override them, and each block's lists expand as a cross product.
 * docs/spec-format.md documents every key.
 *
 * Every error names file:line:col and, for unknown keys, the nearest valid
 * key.  Values that cannot work are refused before any launch.
 */
#ifndef ATTNPROF_SPEC_H
#define ATTNPROF_SPEC_H

#include <stddef.h>
#include <stdint.h>

#include "../kernels/variants.h"
#include "results.h"

/* One point of the sweep. */
struct config {
	const struct variant_desc *variant;
	struct attn_shape shape;
	int line;              /* spec line of the sweep block it came from */
};

struct tolerance {
	double max_abs;        /* largest |O - O_ref| allowed */
	double rel_l2;         /* largest ‖O - O_ref‖₂ / ‖O_ref‖₂ allowed */
};

#define SPEC_MAX_METRICS 64

/* How the counter passes of a profiled run are taken (docs/metrics.md).
 * AUTO: user replay, with the L2 flushed before each kernel; kernel replay
 * for variants that write their inputs and for sets with SASS metrics. */
enum replay_mode { REPLAY_AUTO, REPLAY_KERNEL, REPLAY_USER };

struct spec {
	char *path;
	char *text;            /* the file's bytes, kept for the results header */
	char *name;
	char *description;
	int repetitions;       /* timed runs (≥ 1; ≥ 20 recommended) */
	int warmup;
	uint64_t seed;
	int check_rows;        /* query rows compared per (batch, head), 0 = all */
	struct tolerance tol[DTYPE_COUNT];
	char *metric_set;      /* "default", "none", "full", or a name defined in metric_sets */
	size_t nmetrics;       /* the set's metric names (empty for none) */
	char *metrics[SPEC_MAX_METRICS];
	enum replay_mode replay;
	uint64_t max_device_bytes; /* refuse configs predicted above this (0 = GPU's memory) */
	size_t nconfigs;
	struct config *configs;
};

void spec_init(struct spec *s);
void spec_release(struct spec *s);

/* Read and parse a spec file.  0, or -1 after error() with file:line:col. */
int spec_load(struct spec *s, const char *path);
int spec_parse(struct spec *s, const char *text, size_t len, const char *filename);

struct metric_set;
/* Replace the spec's metric set with a built-in one (e.g. record --metrics).
 * 0, or -1 when out of memory. */
int spec_use_metric_set(struct spec *s, const struct metric_set *ms);

/* "auto", "kernel", "user"; and back (0, or -1 for an unknown word). */
const char *replay_mode_name(enum replay_mode m);
int replay_mode_parse(const char *word, enum replay_mode *out);
/* 1 when variant v of spec s is profiled with kernel replay, 0 with user
 * replay: s->replay, and under auto kernel replay for a variant that writes
 * its inputs or a metric set with SASS metrics (metric_needs_kernel_replay). */
int replay_is_kernel(const struct spec *s, const struct variant_desc *v);
/* Refuse user replay for a sweep holding a variant that writes its inputs
 * (its passes would see different inputs).  `what` names where the mode came
 * from ("the spec's replay", "--replay").  0 or -1 via error(). */
int spec_check_replay(const struct spec *s, const char *what);

/*
 * Refuse configs whose predicted device memory exceeds limit_bytes
 * (the GPU's memory, or the spec's max_device_memory).  0 or -1.
 */
int spec_check_memory(const struct spec *s, uint64_t limit_bytes, int sm_count);

/* The largest predicted device memory over the sweep. */
uint64_t spec_peak_memory(const struct spec *s, int sm_count);

/* Fill rec's identity (source, variant, phase, dtype, shape) from a config;
 * rec must be fresh (record_init).  0, or -1 when out of memory. */
int config_to_record(const struct config *c, const char *source, struct record *rec);

/* Human-readable byte count "1.50 GiB" into buf. */
const char *format_bytes(double bytes, char *buf, size_t len);

#endif
