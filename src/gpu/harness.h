/* harness.h: the record loop — run a spec's sweep on the GPU and write
 * the results file record by record (GPU half only). */
#ifndef ATTNPROF_HARNESS_H
#define ATTNPROF_HARNESS_H

#include "spec.h"

struct harness_opts {
	const char *out_path;     /* results file */
	const char *command_line; /* for the header */
	int resume;               /* keep records already in out_path, skip their configs */
	int force;                /* overwrite out_path */
	int progress;             /* one line per config on stderr, terminal or not (--progress) */
	int quiet;                /* none, not even on a terminal (--quiet; wins over progress) */
	double copy_bytes_gib;    /* size of the copy-bandwidth probe (0 = skip) */
	int ceilings;             /* measure the other ceilings (GEMM, mma.sync, L2, shared memory) */
	int profile_batch;        /* configs per profiled CUPTI call (1 to 8; 0 = the default, 8) */
	double settle_ms;         /* before timing, run a config until its SM clock settles, at most this long (0: no) */
	const char *shard;        /* "K/N": the spec holds part K of N only (record --shard; header.shard), or NULL */
	int device;               /* the CUDA device to run on (record --device; 0 by default) */
};

/* Run the sweep.  Returns an exit code (error.h): 0 all configs ran and
 * passed; 1 a run failed or a result was wrong (recorded as such); 2 bad
 * input (metric names, memory); 3 no GPU, or counters were unavailable
 * (everything else recorded). */
int harness_record(struct spec *s, const struct harness_opts *o);

/* Print device facts and counter availability for 'attnprof info'. */
int harness_info(int quiet);

#endif
