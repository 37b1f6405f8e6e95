/* data.h: what the renderer asks of a results file.
 *
 * Records are picked by a series key and a selection of conditions.  A
 * series key is the variant name for attnprof's own records ("flash2") and
 * "source:variant" for reference series ("pytorch-sdpa:FLASH_ATTENTION");
 * "sdpa" and "reference" name the first reference series.  Quantities
 * ("tflops", "hbm_bytes", "speedup_vs" …) are computed here once, for
 * charts, tables and template text alike.  No Cairo in this module.
 */
#ifndef ATTNPROF_DOC_DATA_H
#define ATTNPROF_DOC_DATA_H

#include <stddef.h>

#include "doc/series_index.h"
#include "results.h"
#include "variants.h"

/* Conditions; -1 and the RSEL_ values below mean "any". */
struct rsel {
	int n;        /* seqlen_kv: N for prefill, the KV-cache length for decode */
	int nq;       /* seqlen_q */
	int d, causal, batch, heads;
	int kv_heads; /* -1 any */
	long long tokens; /* B·N (batch_tokens in a spec): a sweep's shape family, with hidden */
	int hidden;   /* H·d */
	enum dtype dtype;   /* or RSEL_DTYPE_ANY */
	enum phase phase;   /* or RSEL_PHASE_ANY */
	enum pass pass;     /* or RSEL_PASS_UNSET: see there */
};
/* The enum fields' "any", one past each enum's names.  A record has one
 * pass, so an unset pass is not "any": rsel_match (rsel_pass) reads it as
 * the forward, and what draws each pass (a table, a figure) draws them all. */
#define RSEL_DTYPE_ANY DTYPE_COUNT
#define RSEL_PHASE_ANY PHASE_COUNT
#define RSEL_PASS_UNSET PASS_COUNT
/* Every field any, the pass unset. */
void rsel_any(struct rsel *s);
/* s's pass: the one set, else the forward. */
enum pass rsel_pass(const struct rsel *s);
int rsel_match(const struct rsel *s, const struct record *rec);
/* "N=4096, d=128, non-causal" for the fields set. */
const char *rsel_describe(const struct rsel *s, char *buf, size_t len);

/*
 * Every value a document draws is the record of one problem identity
 * (record_key: source, variant, phase, pass, dtype, B, H, Hkv, Nq, Nkv, d,
 * causal).  A selection that leaves fields open must still name one
 * identity: rdata_find returns NULL ("not measured") when it matches
 * several, and counts that as an ambiguous lookup.  Each lookup can be
 * traced (report --trace-records FILE), so a test can check every drawn
 * value against the results files by identity (tests/records-check.py).
 */
struct rtrace {
	void *f;              /* FILE *, or NULL: no trace */
	const char *context;  /* what is being drawn ("table speedup"), or NULL */
	unsigned found, missing, ambiguous;
	char first_ambiguous[320]; /* the first ambiguous lookup, for the note */
	unsigned runs;        /* the runs (files) of the records found or traced since it was
				 last cleared: bit k for run k (a page's dates, report.c) */
	struct rrecs *seen;   /* when set, every record found or traced is kept in it once
				 (a figure's records for its data table, page.c); NULL: none */
};
/* Records in the order first found (rtrace.seen): r[0..n), grown by realloc. */
struct rrecs {
	const struct record **r;
	size_t n, cap;
	int full;             /* an allocation failed: some were not kept */
};

struct rdata {
	const struct results *res;
	const char *path;      /* for messages */
	int synthetic;         /* the header says these are not measurements */
	struct rsel focus;     /* the document's default conditions */
	int with_metrics;      /* records with hardware counters */
	int without_metrics;   /* attnprof records without them */
	const char *metrics_reason; /* a reason given for missing counters */
	const struct results *repeats; /* second runs (--repeat): spread only, or NULL */
	/* Several files (inputs.c): which file (run) each record came from, and
	 * the records of a key another file already held (other runs). */
	const int *origin;             /* per record of res, or NULL (one file) */
	const struct results *others;  /* or NULL */
	const int *others_origin;      /* per record of others */
	int nruns;                     /* files merged */
	const char (*run_names)[64];   /* per run: the file's base name, or NULL (one file: path) */
	const char (*run_days)[16];    /* per run: the day it was recorded ("2026-12-01", "undated"), or NULL */
	/* per run: its own header's copy bandwidth and read-only stream (0: not measured), or NULL
	 * (one file: the header's); a record's percentages of them are of its own run (rdata_run_probe) */
	const double *run_copy_gbs, *run_read_gbs;
	/* the header of the earliest file with calls captured in a program
	 * (attnprof record -- CMD): what ran, for {program.*}; NULL when none */
	const struct results_header *program;
	const struct results_header *programs; /* every capture file's, nprograms of them */
	int nprograms;
	struct rtrace *trace;  /* lookups counted (and traced); NULL: none */
	const char *dates;     /* when the drawn records were recorded (inputs.c), or NULL: the header's */
	int ndates;            /* distinct days among them (2: "recorded on two days") */
	const char *days;      /* the days alone, no file names (for slides), or NULL */
	const char *superseded; /* what newer records replaced, or NULL */
	/* the records of each series key (inputs.c builds it), so a lookup
	 * reads its series alone; NULL: lookups scan every record */
	const struct series_index *by_series;
};
/* Set up over res; the focus is N=4096 (or the nearest N measured), d=128
 * (or the largest), non-causal, prefill. */
void rdata_init(struct rdata *rd, const struct results *res, const char *path);

/* Several results files as one (inputs.c), the same whatever order they
 * are given in: files are taken in the order they were recorded (header
 * date, then name).  An identity recorded in more than one file draws the
 * newest record (or --primary's); the other is kept as another run of that
 * identity (spread, run count), counters the drawn one lacks are filled
 * from it, and a note lists what was superseded.  The conditions are the
 * header of the file most drawn records come from; the dates are those of
 * every file drawn from.  The same file twice, or files of two GPUs, are
 * refused.  Repeat files only give run-to-run spread (rdata_runs). */
#define RINPUTS_MAX 32
struct rinputs {
	struct results res;      /* every file's records */
	int *origin;             /* per record of res: its file (0 = the earliest) */
	struct results others;   /* records of a key an earlier file had */
	int *others_origin;
	struct results repeats;  /* the records of the repeat files */
	char files[1024];        /* "fa2-paper.yaml, decode.yaml; repeat run: x.yaml" */
	char names[RINPUTS_MAX][64];  /* each file's base name, in the order recorded */
	char run_days[RINPUTS_MAX][16]; /* each file's recording day, in that order */
	double run_copy_gbs[RINPUTS_MAX], run_read_gbs[RINPUTS_MAX]; /* each file's own copy and read-only probes (0: none) */
	int nfiles, duplicates, filled, nrepeat_files;
	int ncounter_files, counter_records; /* --counters files that gave counters, records they filled */
	/* every file with captured calls, in the order read: what ran ({program.ran}) */
	struct results_header programs[RINPUTS_MAX];
	int nprograms;
	int header_file;         /* the file whose header gives the conditions */
	char dates[512];         /* recording dates of the files drawn from (drawn_dates) */
	int ndates;              /* distinct days among them */
	char days[160];          /* those days alone: "2026-11-29 and 2026-12-01" */
	char superseded[1024];   /* "12 records of decode.yaml by fa2-paper.yaml's", or "" */
	struct series_index by_series; /* of res */
};
/* primary: a file (path or base name) whose records win over any other's, or NULL. */
int rinputs_load(struct rinputs *in, const char *const *paths, size_t n, const char *const *repeats, size_t nr,
		 const char *primary);
/* The same with counters files (report --counters): records never drawn,
 * whose counters fill the drawn records of the same identity. */
struct rinputs_args {
	const char *const *paths;
	size_t n;
	const char *const *repeats;
	size_t nr;
	const char *primary;
	const char *const *counters;
	size_t ncounters;
};
int rinputs_load_args(struct rinputs *in, const struct rinputs_args *a);
void rinputs_release(struct rinputs *in);
void rdata_init_inputs(struct rdata *rd, const struct rinputs *in);
/* {program.ran}: a sentence per captured program (its command, the record
 * command, date, host and how it ended), every capture file's. */
void rdata_programs_ran(const struct rdata *rd, char *buf, size_t len);
/* {program.how}: how the calls drawn were found, per origin with their
 * count (the helper's ranges around SDPA, FlexAttention, JAX; the scan of
 * kernel families; --kernel-regex; the program's own ranges). */
void rdata_capture_how(const struct rdata *rd, char *buf, size_t len);
/* How a call of this origin (a capture record's origin: python-sdpa,
 * c-helper, family-scan …) was found, as {program.how} says it; NULL for
 * an origin no emitter of this version writes. */
const char *capture_origin_how(const char *origin);
/* Runs of rec's key: rec itself, the other files' records of that key and
 * the repeats; the fastest and slowest median. */
int rdata_runs(const struct rdata *rd, const struct record *rec, double *tmin, double *tmax);
/* The larger run-to-run spread of two records ((slowest − fastest) /
 * fastest over their runs, 0 where either ran once) and whether a step
 * between their medians is within it: the rule a ladder's "×r, equal
 * within spread" follows.  *spread may be NULL. */
int rdata_step_within_spread(const struct rdata *rd, const struct record *a, const struct record *b, double *spread);

/* 1 for a call captured in another program (source "capture"): such calls
 * are read as implementations by capreview.h, never as series of the
 * sweep's charts and tables, nor among the values a sweep spans. */
int record_captured(const struct record *r);
/* Resolve every record's identities once, where a document loads its
 * files (rinputs_load; a test or fuzzer that builds struct rdata itself
 * calls it): the variant descriptor of an attnprof record (rec->desc) and
 * the capture verdict (rec->verdict_matrices, rec->verdict_rule) under
 * the GPU's L2 size.  Figures, tables and sentences read these, never
 * resolve the name or recompute the verdict again. */
void records_resolve(struct results *res, double l2_bytes);
/* "stored", "not stored" or "unknown" for matrix S, P, dS, dP, O or L of
 * rec, from its resolved verdict (capture/verdict.h verdict_state). */
const char *record_verdict_of(const struct record *rec, const char *matrix);
/* The series key of a record into buf. */
const char *record_series(const struct record *rec, char *buf, size_t len);
/* Resolve a series name as a template or option gives it ("flash2",
 * "sdpa", "pytorch-sdpa:FLASH_ATTENTION") into a key.  0, or -1 when no
 * descriptor and no record has that name. */
int rdata_resolve(const struct rdata *rd, const char *name, char *key, size_t len);
/* A label for a series key: the variant name, or "SDPA FLASH_ATTENTION". */
const char *series_label(const char *key, char *buf, size_t len);
/* The record of series key under sel, or NULL when none or several
 * identities match (see struct rtrace). */
const struct record *rdata_find(const struct rdata *rd, const char *key, const struct rsel *sel);
/* The record of series name (as rdata_resolve takes it) at rec's problem and
 * pass: what a "_vs" quantity compares rec with; NULL (why says) when none. */
const struct record *rdata_other(const struct rdata *rd, const struct record *rec, const char *name, char *why,
				 size_t whylen);
/* Any one record of series key under sel (the first): for what does not
 * draw a value, such as a descriptor's example shape.  Not traced. */
const struct record *rdata_find_any(const struct rdata *rd, const char *key, const struct rsel *sel);
/* Trace a record drawn by other means than rdata_find (an extreme over
 * several identities: what is "max", "min" or another word). */
void rdata_trace_record(const struct rdata *rd, const char *what, const char *key, const struct rsel *sel,
			const struct record *rec);
/* Fill a prefill selection's open shape family (B·N, H·d) and dtype from
 * the focus: where B (H) is not stated, tokens (hidden) is the focus's;
 * where no dtype is, the focus's. */
void rsel_family(struct rsel *s, const struct rdata *rd);
/* The same from one run (file) only: the merged record when it came from
 * that file, else that file's own record of the key; NULL when it has none. */
const struct record *rdata_find_run(const struct rdata *rd, const char *key, const struct rsel *sel, int run);
/* The SM count of the GPU the results were measured on, or an H200's where
 * the header names none (sm_count_or_default, kernels/variants.h). */
int rdata_sm_count(const struct rdata *rd);
/* The file (run) a record came from: 0 for a single file. */
int rdata_origin(const struct rdata *rd, const struct record *rec);
/* The base name of the file a record came from ("fa2-paper.yaml"). */
const char *rdata_record_file(const struct rdata *rd, const struct record *rec);
/* The bandwidth probe of rec's own run (its results file's header): the device-to-device copy
 * (read 0) or the read-only stream (read 1, header.gpu.ceilings.hbm_read_gbs); 0 where that
 * run did not measure it. */
double rdata_run_probe(const struct rdata *rd, const struct record *rec, int read);

enum series_filter {
	SERIES_MAIN,      /* prefill: standard, flash1, flash2, other non-ablation, references */
	SERIES_LADDER,    /* prefill: flash-template variants (flash1 … flash2) */
	SERIES_DECODE,    /* decode-phase series */
	SERIES_ALL,
};
/* Distinct series keys under sel and filter, in descriptor-table order then
 * references; returns the count (≤ max). */
size_t rdata_series(const struct rdata *rd, const struct rsel *sel, enum series_filter f,
		    char keys[][SERIES_KEY], size_t max);
/* Distinct values of a field (n, d, causal, batch) among records of series
 * (NULL: any but captured calls) under sel, ascending; returns the count (≤ max). */
enum rfield { RF_N, RF_D, RF_CAUSAL, RF_BATCH, RF_HEADS, RF_NQ, RF_HKV };
size_t rdata_values(const struct rdata *rd, const char *key, const struct rsel *sel,
		    enum rfield f, int *out, size_t max);
int record_field(const struct record *rec, enum rfield f);

/* The records under sel that carry metric: one per series key (attnprof's
 * and reference series as rdata_find resolves them, captured calls their
 * implementation's first call), in the order rdata_series lists keys, then
 * the captured ones; keys[i] names recs[i].  What the memory-workload and
 * warp-state figures draw.  Returns the count (≤ max); keys NULL: how many
 * there are, at any count (what a figure that draws max of them states). */
size_t rdata_metric_records(const struct rdata *rd, const struct rsel *sel, const char *metric,
			    char keys[][SERIES_KEY], const struct record **recs, size_t max);

/* ---- quantities --------------------------------------------------------- */

enum qunit { U_NUM, U_BYTES, U_MS, U_TFLOPS, U_RATIO, U_PCT, U_COUNT, U_GBS,
	     U_FLOP_PER_BYTE, U_INT, U_FLOPS, U_MHZ };

/* A quantity's row: all that is known of it, its function included (data.c). */
struct qcall;
struct qinfo {
	const char *name;     /* "tflops", "speedup_vs" */
	enum qunit unit;
	int arg;              /* 1: takes ".<series>"; 2: takes ".<name>" (metric, model, alloc) */
	const char *about;
	int (*value)(struct qcall *c); /* finds it for one record */
	const char *of;       /* the counter it reads (hbm_read: M_DRAM_READ), or the quantity
			       * it compares with the other series' (speedup_vs: "time_ms") */
	int of_shape;         /* part of the problem's shape: defined for a failed run too */
};
extern const struct qinfo quantity_table[];
extern const size_t quantity_count;
const struct qinfo *quantity_find(const char *name);
/* The unit a counter's value is formatted in (metric.NAME): its row's
 * (metric_info) in the quantities' units. */
enum qunit metric_qunit(const char *metric);

/*
 * The value of quantity q (arg: its argument, or NULL) for a record.
 * Returns 0 with *out set, 1 when the record lacks it (why says what is
 * missing), -1 when q is not a quantity (why says so).
 */
int rdata_quantity(const struct rdata *rd, const struct record *rec, const char *q,
		   const char *arg, double *out, enum qunit *unit, char *why, size_t whylen);

/* Format a value by unit, or by spec ("bytes", "count", "x", "pct", "num",
 * "int", "seqlen", "%.2f"); -1 when spec is unknown. */
int fmt_quantity(double v, enum qunit u, const char *spec, char *buf, size_t len);

/* ---- helpers for figures ------------------------------------------------ */

/* The tensor-core path of launch l of record r: an attnprof variant's from
 * its descriptor (kernel_desc.path); a captured call's kernel by its
 * family's role (fused or GEMM: tensor cores, *path PATH_NONE as the family
 * table names none).  1 when the kernel does matmuls on tensor cores. */
int launch_tensor_path(const struct record *r, const struct launch *l, enum tensor_path *path);
/* The launch that ran longest (by gpu__time_duration.sum), else the first; NULL if none. */
const struct launch *record_main_launch(const struct record *rec);
/* 1 when r's kernels move shared-memory data the LSU pipe's counters
 * (M_SMEM_LD_WF, M_SMEM_ST_WF, their bank conflicts) do not see: a kernel
 * whose descriptor's path is wgmma (its operands are read from shared
 * memory by the tensor cores, its tiles written there by TMA), or one
 * whose counters show wgmma instructions, wgmma operand wavefronts or TMA
 * bytes.  Such a kernel's 0 there is not a measurement of its traffic. */
int record_smem_beyond_lsu(const struct record *r);
/* Device memory beyond the inputs: a captured call's footprint (else its peak), attnprof's
 * peak minus its Q, K, V allocations; -1 where neither was measured. */
double record_beyond_inputs(const struct record *r);
/* Measured HBM bytes (read + write), or -1 when not recorded. */
double record_hbm_bytes(const struct record *rec);
/* Metric value (totals, else its launches combined: record_launches_metric) or NAN. */
double record_metric_or_nan(const struct record *rec, const char *name);
/* A time is usable (finite and positive). */
int usable(double v);
/* Sort n records by KV length, shortest first, in place (the categories
 * of a chart over N: few). */
void records_by_kv_len(const struct record **r, int n);

/*
 * A conditions caption for a set of records: GPU, SMs, clocks, dtype, the
 * shapes they share ("B·N = 16k, H·d = 2048"), d, causal, software.
 */
const char *rdata_conditions(const struct rdata *rd, const struct record *const *recs, size_t n,
			     char *buf, size_t len);
/* One line on hardware counters missing from this file, or "" when none are. */
const char *rdata_gap(const struct rdata *rd, char *buf, size_t len);

#endif
