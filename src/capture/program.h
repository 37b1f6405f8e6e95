/* program.h: `attnprof record -- CMD`: capture another program's attention
 * calls through the injection library (GPU half only; docs/capture.md). */
#ifndef ATTNPROF_PROGRAM_H
#define ATTNPROF_PROGRAM_H

struct program_opts {
	const char *out_path;
	int force;             /* overwrite out_path */
	int argc;              /* the program and its arguments */
	char **argv;
	int record_argc;       /* record's own options, for the header */
	char **record_argv;
	const char *metrics;   /* comma-separated metric names ("" = none) */
	const char *metric_set;
	const char *nvtx_include; /* fnmatch pattern on range names */
	const char *kernel_regex; /* keep only matching kernels ("" = all) */
	const char *kernel_shape; /* with kernel_regex: every matching launch outside a range is a
				     call of this shape (a range name, RANGE_PREFIX included; "" = off) */
	long skip_calls, max_calls; /* max < 0: all */
	int check, retime;     /* the Python helper's fp64 check and unprofiled re-timing */
	int keep_parts;
	long timeout_s;        /* stop the program after this many seconds (0 = never) */
	int window;            /* one-pass sets: counters as kernel ranges in a window across calls (--window on) */
	int app_replay;        /* a set of several passes: the program once per one-pass group (--replay application) */
	int flush_l2;          /* flush the L2 before each profiled kernel (--cache-control all) */
	const char *families;  /* the user's family rules (--families FILE), or NULL */
	int scan;              /* attention kernels launched outside any range are calls (--scan on) */
	int quiet;             /* no line per run of the application replay (--quiet) */
	int graphs;            /* attention captured into CUDA graphs followed to its replays (--graphs on) */
	int per_replay;        /* with graphs: a record per replay too (--per-replay) */
	int workload;          /* every kernel's time and attention's share (--workload on) */
};

/* Run the program and write the results file.  Returns an exit code
 * (error.h): 0; 1 the program failed (what it captured is kept) or nothing
 * was captured; 2 bad options. */
int program_record(const struct program_opts *o);

#endif
