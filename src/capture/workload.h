/* workload.h: attention as a share of the whole program's GPU time.
 *
 * With every kernel's activity record (no counters: cheap), a captured
 * program's GPU time is the sum of its kernels' durations (kernels that
 * overlap on several streams count each), attention's the sum over the
 * kernels of its calls (in-graph calls' kernels included); attnprof's own
 * work in the program (the Python helper's checks and re-timings, the L2
 * flush) counts in neither.  The end-to-end bound of an attention k times
 * faster is Amdahl's, 1 / ((1 − s) + s / k) for a share s: attention at
 * 30 % made 2× faster gives at most 1.18×; made free, 1 / (1 − s).
 * Pure logic: no GPU.
 */
#ifndef ATTNPROF_WORKLOAD_H
#define ATTNPROF_WORKLOAD_H

#include "results.h"

/* Add one kernel's duration; attention: it belongs to an attention call. */
void workload_add(struct results_header *h, double ns, int attention);

/* The bounds a list of the workload's kernels is kept under (header.workload):
 * the first WORKLOAD_PER_STREAM kernels of each stream, WORKLOAD_MOST in all;
 * past them a kernel is counted in dropped, and in the tallies as always. */
#define WORKLOAD_PER_STREAM 65536
#define WORKLOAD_MOST 262144
/* Count one kernel (workload_add, its duration end - start) and keep it in
 * h->workload: pid, CUPTI stream id, name (copied), GPU timestamps, grid,
 * block.  0, or -1 out of memory (the kernel then counted as dropped). */
int workload_keep(struct results_header *h, int pid, uint32_t stream, const char *name, uint64_t start,
		  uint64_t end, const int grid[3], const int block[3], int attention);
/* dst becomes a copy of src's list (the injection library's saves take
 * one under its lock).  0, or -1 out of memory (dst then empty). */
int workload_list_copy(struct workload_list *dst, const struct workload_list *src);
/* Attention's share of the GPU time, 0..1, or -1 when no kernel ran. */
double workload_share(const struct results_header *h);
/* Amdahl's bound on the whole program's speed-up when attention (share s)
 * runs k times faster (k ≤ 0: infinitely).  NaN for s outside 0..1. */
double workload_amdahl(double s, double k);
/* Add part's tallies to h and its kept kernels to h's list, within h's
 * bounds (record's merge of the processes' parts).  0, or -1 out of
 * memory (the kernels not added counted as dropped). */
int workload_merge(struct results_header *h, const struct results_header *part);
/* Set h's share and 2× bound from its tallies; a line for the notes in
 * line (empty when no kernel was counted). */
void workload_settle(struct results_header *h, char *line, size_t len);

#endif
