/* results.h: the results file, in memory and on disk (docs/results-format.md).
 *
 * A results file is one YAML mapping: `format`, a `header` of conditions
 * (tool, GPU, clocks, driver, CUDA/CUPTI versions, host, date, command line,
 * the spec itself) and `records`, one per (source, variant, config).  Our
 * kernels have source "attnprof"; reference series measured by other
 * software (e.g. source "pytorch-sdpa", variant = its backend) use the same
 * format.
 *
 * Writing is incremental and atomic: record appends a record in memory and
 * rewrites the whole file through a temporary file and rename(), so the file
 * on disk is always a complete, valid document.  Reading recovers from a cut
 * file (one copied mid-write, or written by other software): complete records
 * are kept and the cut is reported.
 *
 * Invariants: every char * field is NULL or owned by the struct; kvlists own
 * their names.
 */
#ifndef ATTNPROF_RESULTS_H
#define ATTNPROF_RESULTS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "variants.h"

#define RESULTS_FORMAT "attnprof-results/2"
/* Read as before: no end markers, so a cut at a record boundary is not seen */
#define RESULTS_FORMAT_1 "attnprof-results/1"

/* Limits beyond which a shape or a size is absurd rather than merely large.
 * A spec is held to them, and so is every number a results file gives
 * before it sizes an allocation or a loop (docs/results-format.md). */
#define MAX_SEQLEN   (1 << 22)   /* 4M tokens */
#define MAX_BATCH    65536
#define MAX_HEADS    1024
#define MAX_HEAD_DIM 4096
#define MAX_SMS      1024        /* an H200 has 132 */
#define MAX_GRID_X   2147483647  /* CUDA's limits on a launch */
#define MAX_GRID_YZ  65535
#define MAX_BLOCK    1024        /* threads in a block */
/* source:variant names a series (doc/data.h SERIES_KEY, 96 with its NUL):
 * a longer pair would be cut, in a character, and merge with another series */
#define MAX_SERIES_NAME 95

/* An ordered list of named numbers: metrics, model predictions, allocations.
 * Past KVLIST_INDEX_MIN names a hash index (slot -> item + 1, 0 empty)
 * finds a name in constant time, so a record of 100 000 metric names loads
 * and exports in linear time; it is kvlist_set's to keep, items are only
 * changed through these functions. */
struct kv {
	char *name;
	double value;
};
struct kvlist {
	size_t n, alloc;
	struct kv *items;
	size_t *index, index_cap; /* NULL below KVLIST_INDEX_MIN items */
};
#define KVLIST_INDEX_MIN 16
void kvlist_init(struct kvlist *l);
void kvlist_release(struct kvlist *l);
/* Set name to value (replacing an existing entry).  0 or -1 (no memory). */
int kvlist_set(struct kvlist *l, const char *name, double value);
/* Pointer to the value of name, or NULL. */
const double *kvlist_get(const struct kvlist *l, const char *name);

struct gpu_info {
	char *name;            /* "NVIDIA H200" */
	char *chip;            /* "GH100" (CUPTI chip name) */
	struct gpu_facts hw;   /* header.gpu's sm_count, l2_bytes, clocks, ... (kernels/gpu.h) */
	double peak_hbm_gbs;   /* from clock × bus width (theoretical) */
	double copy_gbs;       /* measured device-to-device copy, read+write (0 = not measured) */
	double tensor_tflops;  /* measured dense fp16 GEMM by cuBLAS: the wgmma ceiling on Hopper (0 = not measured) */
	char *driver;          /* "580.159.04" */
	char *cuda_runtime;    /* "13.0" */
	char *cupti;           /* CUPTI API version */
	/* header.gpu.ceilings: the ceilings measured by kernels/ceilings.cu
	 * (0 = not measured, as in files before 2026-12-02) */
	struct gpu_ceilings {
		double mma_sync_tflops; /* dense fp16 mma.sync.m16n8k16 rate, all SMs */
		double l2_gbs;          /* L2 read bandwidth, a buffer of l2_buf_bytes */
		double smem_gbs;        /* shared-memory load bandwidth, all SMs */
		double hbm_read_gbs;    /* HBM read-only bandwidth: a buffer of 32 L2s read once (decode's roof) */
		uint64_t l2_buf_bytes;
		char *method;           /* how, one line */
	} ceil;
};
/* 1 when any of header.gpu.ceilings was measured. */
int gpu_ceilings_measured(const struct gpu_ceilings *c);
/* A measured ceiling kept only where it is one: the L2 read rate above the
 * HBM copy rate (else the kernel did not reach the L2's bound: H200
 * 2026-12-02, 3.6 TB/s against a 4.2 TB/s copy), the shared-memory rate
 * above the L2's and within 2 % of 128 bytes a clock an SM, the HBM read
 * rate within 2 % of the data sheet (above it the reads hit the L2) and
 * under the L2's.  One that is
 * not is set to 0 (not measured) and said in why (empty when all stand).
 * Returns how many were dropped. */
int gpu_ceilings_vet(struct gpu_info *g, char *why, size_t len);

/*
 * record -- CMD --workload on: every kernel's activity record, kept (no
 * counters), as header.workload (docs/results-format.md, "The workload's
 * kernels").  The first per_stream kernels of each stream are kept, at
 * most most in all; the others are counted in dropped, never silently
 * lost: n + dropped == gpu_kernels whenever the list is there (the reader
 * refuses a file where not).  names[] and streams[] are the tables the
 * kernels index; nothing here is a measurement of its own but the times.
 */
struct workload_kernel {
	uint32_t name;          /* index into names */
	uint32_t stream;        /* index into streams */
	uint64_t start_ns;      /* GPU timestamp (the file: from t0_ns, the earliest start) */
	uint64_t dur_ns;        /* end - start */
	int grid[3], block[3];
	int attention;          /* 1: a kernel of an attention call (workload_add's attention) */
};
struct workload_stream {
	int pid;                /* the process that launched on it */
	uint32_t id;            /* CUPTI's stream id in that process */
	uint64_t kept;          /* its kernels in the list */
};
struct workload_list {
	uint64_t per_stream, most; /* the bounds the list was kept under (0: no list) */
	uint64_t dropped;          /* kernels counted in gpu_kernels but not kept: past a bound */
	char **names;
	size_t nnames;
	struct workload_stream *streams;
	size_t nstreams;
	struct workload_kernel *k;
	size_t n, cap;
	/* in memory only (capture/workload.c): name -> index, the last stream found */
	size_t *name_slots, nslots;
	size_t last_stream;
};
void workload_list_release(struct workload_list *w);

struct results_header {
	char *tool_version;
	char *date;            /* RFC 3339: "2026-12-02T02:14:50Z" (record writes UTC) */
	double date_utc;       /* the same instant, seconds since 1970 UTC (results_date); */
	int date_known;        /* 0: no date (older than any dated file) */
	char *host;
	char *command_line;
	struct gpu_info gpu;
	char *spec_name;
	char *spec_path;
	char *spec_text;       /* a verbatim copy of the spec */
	char *notes;           /* free text (e.g. how a reference series was made) */
	char *shard;           /* "K/N": the file holds part K of N of the spec's sweep
				* (record --shard, shard.h); NULL: the whole sweep */
	/* record -- CMD: how the program ended ("exited with status 0", "was killed by signal 9 (Killed)",
	 * "was stopped by --timeout after 60 s (SIGTERM)"), or NULL; and whether it ran to its end
	 * (exited by itself, status 0 or not, no process of it leaving from inside the profiler) */
	char *program_exit;
	int program_ran_to_end;
	/* record -- CMD --workload on: every kernel's activity record (capture/workload.h): how many
	 * ran and their summed durations, those of attention calls, attention's share and the
	 * Amdahl bound of an attention 2x faster (0: not measured) */
	uint64_t gpu_kernels, attention_kernels;
	double gpu_kernel_ms, attention_kernel_ms;
	double attention_share, amdahl_2x;
	/* ... and the kernels themselves, the first per_stream of each stream (header.workload;
	 * capture/workload.h keeps them, export --trace draws them) */
	struct workload_list workload;
};

/* One kernel launch of a variant, with its Activity-API data and metrics. */
struct launch {
	char *name;            /* demangled kernel name */
	int grid[3], block[3];
	int registers;
	int static_smem, dynamic_smem;
	double theoretical_occupancy; /* 0..1, from the occupancy API */
	char *occupancy_limiter;      /* "registers", "shared memory", "warps", "blocks" */
	struct kvlist metrics;        /* CUPTI name -> value */
	uint32_t stream;              /* the stream CUPTI saw it on (in memory only: not in results files) */
	double duration_ns;           /* Activity API end - start (in memory only; under kernel replay: one pass's) */
	uint32_t correlation_id;      /* the launch's CUPTI correlation id (in memory only) */
};

enum metrics_status {
	METRICS_NOT_REQUESTED,  /* metric set "none" */
	METRICS_OK,
	METRICS_UNAVAILABLE,    /* see reason */
};

/*
 * What is known of an attention call captured in another program
 * (`attnprof record -- CMD`, docs/capture.md).  Its shape, when known,
 * is the record's; the intermediate verdicts are capture/verdict.h's rule.
 */
struct capture_info {
	char *range;           /* the NVTX range name, as the program gave it */
	char *origin;          /* what emitted it: python-sdpa, transformers-eager, c-helper, kernel-regex */
	char *family;          /* capture/family.h: flash-attn-2, cudnn, unfused, ... */
	char *problem;         /* why the name did not parse (shape unknown), or NULL */
	int call;              /* the call's number in the program (launch order of ranges) */
	int pid;               /* the process that made it */
	int shape_known;
	double kernel_ms;      /* sum of the call's kernel durations (under replay) */
	char *time_source;     /* where timing.time_ms comes from: "events" (unprofiled re-runs) or "kernels" */
	/* verdict inputs and result */
	double l2_write_bytes;   /* L2 writes from the SMs over the call's kernels (-1: not measured) */
	double dram_write_bytes; /* DRAM writes over the call's kernels (-1: not measured) */
	double nn_bytes;         /* one Nq x Nkv matrix over all heads, at its element size (verdict_nn_bytes) */
	double output_bytes;     /* what the pass must write anyway (fwd: O + L; bwd: dQ + dK + dV) */
	double footprint_bytes;  /* device memory the call allocated beyond its inputs (-1: not known) */
	int nn_matrices;         /* Nq x Nkv matrices written beyond the outputs (-1: unknown) */
	char *verdict_rule;      /* "l2-writes", "footprint" or "none" */
	int graph_launches;      /* CUDA graph launches inside the range (not profiled) */
	double alloc_bytes;      /* device memory the program allocated from the driver during the call (-1: not known) */
	int counter_window;      /* counted as kernel ranges in a window across calls (record --window on) */
	double density;          /* fraction of (query block, key block) pairs computed (a block mask; 0: all) */
	char *mask;              /* what its mask tensor was read as (range_name.h: "additive-causal", ...), or NULL */
	/* calls found by family (origin family-scan; capture/group.h): where each kernel was launched, and
	 * how the kernels were grouped into calls and passes */
	int tid;                 /* the launching thread (gettid; 0: not recorded) */
	uint64_t stream;         /* the stream it was launched on (the CUstream handle; 0: the legacy default) */
	uint64_t launch;         /* the thread's kernel launch number, from 1 (0: not recorded) */
	char *group_rule;        /* the grouping rule (group.h), or NULL */
	char *shape_inferred;    /* what the grids and kernel names tell of an unknown shape (shapeinfer.h:
				    "B=4 H=16 Nq=4096 d=128 causal=0 dtype=fp16"), never the record's shape; or NULL */
	char *shape_rule;        /* how it was inferred, kernel by kernel, or NULL */
	char *check_skipped;     /* why the Python helper neither checked nor re-timed the call ("capture":
				    a CUDA graph was being captured; range_check_skipped), or NULL */
	/* a call inside a CUDA graph (capture/graphs.h): the replays its time is taken over, and those
	   left out because some of its kernels' records were missing (0: not an in-graph call) */
	int graph_replays;
	int graph_replays_incomplete;
};

/* One gradient of a backward check against fp64 (src/gpu/check.c):
 * its errors over the checked rows and the bounds it was held to. */
struct grad_error {
	int checked;           /* 0: not compared (no rows sampled, or a file from before the fields) */
	int correct;           /* within both bounds */
	double max_abs_err, rel_l2_err;
	double tol_max_abs;    /* the fraction of grad_tolerance times the tensor's largest |reference| */
	double tol_rel_l2;
};
/* The gradients of a record, in this order (grad_check.h's enum grad_tensor). */
#define RECORD_GRADS 3
extern const char *const record_grad_names[RECORD_GRADS]; /* "dQ", "dK", "dV" */

struct record {
	char *source;          /* "attnprof", "pytorch-sdpa", "capture" */
	char *variant;         /* "flash2", "FLASH_ATTENTION" */
	/* the problem: phase, dtype, B, H, Hkv (H where the file names none),
	 * Nq, Nkv, d, causal and pass, as kernels/variants.h has them (a
	 * captured call of unknown shape: zeros, phase and maybe dtype unknown) */
	struct attn_shape shape;
	int pass_given;        /* the file names the pass (files before the backward
				* do not, and read as fwd): written only then */

	/* timing (CUDA events) */
	int repetitions, warmup;
	double time_ms, time_ms_min, time_ms_max; /* median, min, max */
	double tflops;         /* forward convention, from the median */
	double sm_clock_mhz, sm_clock_mhz_min; /* SM clock probed before each timed launch: median, min (0: not probed) */
	double settle_ms;      /* untimed runs before the warm-up, until the clock settled (0: none) */

	/* memory */
	uint64_t peak_bytes;   /* peak device memory of the run */
	struct kvlist allocs;  /* buffer name -> bytes */

	/* correctness against the fp64 CPU reference */
	int checked;           /* 0: not checked (e.g. reference series) */
	int correct;
	double max_abs_err, rel_l2_err;
	double tol_max_abs, tol_rel_l2;
	uint64_t seed;
	int rows_checked;      /* query rows compared (sampled for large N) */
	/* bwd, fwd+bwd: each gradient's own errors (the fields above keep the
	 * worst of them, and O's); written as correctness.gradients */
	struct grad_error grad[RECORD_GRADS];

	/* hardware counters */
	enum metrics_status metrics_status;
	char *metrics_reason;  /* why unavailable */
	char *metric_set;      /* name of the set */
	char *replay;          /* how passes were taken: "kernel" or "user" (NULL: not profiled) */
	int l2_flushed;        /* the L2 was flushed before each profiled kernel; -1 not said */
	size_t nlaunches;
	struct launch *launches;
	struct kvlist totals;  /* per-variant sums over launches (see results_sum_launches) */

	/* analytic model */
	struct kvlist model;   /* quantity -> value (flops, hbm_bytes_min, …) */

	char *error;           /* non-NULL: the run failed; this says why */

	struct capture_info *capture; /* NULL except for calls captured in another program */

	/* Resolved once where a document loads its files (records_resolve,
	 * src/doc/data.h), never written to a file; zero before: */
	int resolved;
	const struct variant_desc *desc; /* an attnprof record's variant (source attnprof or none), else NULL */
	int verdict_matrices;  /* capture/verdict.h verdict_matrices: Nq x Nkv matrices written, -1 unknown */
	const char *verdict_rule; /* its rule ("dram-writes", "l2-writes", "footprint", "descriptor", ...) */
	double verdict_nn_bytes;  /* one Nq x Nkv matrix at its element size (verdict_nn_bytes), 0 unknown */
	int verdict_elem_bytes;   /* that element size (verdict_matrix_elem_bytes) */
};

/* The name of a record's pass ("fwd" when the file gives none). */
const char *record_pass(const struct record *rec);

/* The run-to-run spread of a record's timed launches: the width
 * time_ms_max - time_ms_min, or NAN when the record has no usable pair
 * (a failed run, a file from before the fields). */
double record_spread_ms(const struct record *rec);
/* Two records' medians compared against both spreads (the rule of
 * 'attnprof diff' and of every "faster"/"slower" a document writes): 1
 * when b is slower than a by more than each record's spread, -1 when
 * faster by more, 0 equal within the spread, 2 when either has no spread
 * (none recorded, or one time not repeated) or no time. */
int record_times_differ(const struct record *a, const struct record *b);

/* A scalar of a record read through the results schema (the tables that
 * also write and read it): section "" (the top level), "timing", "memory",
 * "correctness" or "capture" (missing where the record has none), key as in the file.  SCALAR_STR sets *s (NULL: none; phase, dtype
 * and pass: their words, pass "fwd" where the file names none),
 * SCALAR_NUM and SCALAR_BOOL set *v (NaN: a quantity such as the probed clock
 * that the record did not measure); SCALAR_NONE: the schema has no such key. */
enum scalar_kind { SCALAR_NONE, SCALAR_STR, SCALAR_NUM, SCALAR_BOOL };
enum scalar_kind record_scalar(const struct record *r, const char *section, const char *key,
				    const char **s, double *v);
void capture_info_release(struct capture_info *c);

struct results {
	struct results_header header;
	size_t nrecords, alloc;
	struct record *records;
	/* results_find's index: record key -> place, for records[0..nkeyed);
	 * extended as records are added, rebuilt when it no longer matches */
	struct kvlist keys;
	size_t nkeyed;
	/* results_load found the file cut short: where ("record 3, at line 76,
	 * is incomplete"), else NULL */
	char *cut_where;
	/* the file's format: 2, or 1 (attnprof-results/1, which has no end
	 * marker: a cut between two records cannot be seen); 0 not read */
	int format;
};

void results_init(struct results *r);
void results_release(struct results *r);
void record_init(struct record *rec);
void record_release(struct record *rec);
void launch_release(struct launch *l);
void gpu_info_release(struct gpu_info *g);

/* Append a copy-by-move of rec (rec is left empty).  0 or -1. */
int results_add(struct results *r, struct record *rec);

/* The key that identifies a record's (source, variant, config), for
 * --resume: "attnprof/flash2/prefill/fp16/B4/H16/Hkv16/Nq4096/Nkv4096/d128/c0".
 * A source or variant holding '/' or '%' is written "%LEN:name", so the
 * key is a tuple: (lib, v/w) and (lib/v, w) never share one. */
void record_key(const struct record *rec, char *buf, size_t len);
/* Index of the record with this key, or -1. */
long results_find(struct results *r, const char *key);

/*
 * Recompute rec->totals from its launches, each metric by its aggregation
 * (metric_info, metric_sets.h): bytes, counts and instructions are summed,
 * a .max is the largest launch's, a .min the smallest, shares and rates are
 * averaged weighted by each launch's gpu__time_duration.sum.
 */
int results_sum_launches(struct record *rec);
/* One metric over rec's launches, as results_sum_launches combines it, into
 * *out: 0, or -1 when no launch has it. */
int record_launches_metric(const struct record *rec, const char *name, double *out);

/* Write the whole document to f.  0, or -1 with errno set and no message
 * (the caller names the file). */
int results_write(const struct results *r, FILE *f);
/* Write to path atomically (temporary file in the same folder, fsync, rename). */
int results_save(const struct results *r, const char *path);

/* An RFC 3339 date-time ("2026-12-02T10:00:00+09:00", "2026-11-29
 * 19:29:42+00:00", fractional seconds allowed, 'Z' or an offset required)
 * as seconds since 1970 UTC: 0, or -1 when s is not one. */
int results_date(const char *s, double *utc);

/*
 * Read a results file.  Returns 0 on success, -1 on a bad file (the message,
 * with file:line:col, went through error()).  A file cut short keeps its
 * complete records: then *cut (if given) is set to 1 and a warning names
 * the place; the return is still 0.
 */
int results_load(struct results *r, const char *path, int *cut);
int results_parse(struct results *r, const char *text, size_t len,
		  const char *filename, int *cut);

/* Metric value of a record: totals first.  NULL when absent. */
const double *record_metric(const struct record *rec, const char *name);
/* "flash2 fp16 B=4 H=16 N=4096 d=128 causal" into buf. */
const char *record_describe(const struct record *rec, char *buf, size_t len);

#endif
