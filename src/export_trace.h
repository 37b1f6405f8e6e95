/* export_trace.h: a results file as a Chrome trace-event JSON file, the
 * format Perfetto (ui.perfetto.dev) and chrome://tracing open
 * (docs/results-format.md, "Timeline export").
 *
 * The file's GPU is one process (pid 1); each stream a record names is a
 * thread (a track): a captured call's stream handle where it was recorded,
 * else the one stream of the run.  Each record is a complete event (ph X)
 * with its identity, verdict and time source as args; its launches are X
 * events inside it, with grid, block and registers; its DRAM and L2 bytes
 * and SM clock are counter events (ph C).
 *
 * A record holds no absolute time, so the records are laid out in file
 * order, one after another, each as long as its median time (timing.time_ms;
 * the sum of its kernels' durations where it has none) and TRACE_GAP_NS
 * apart; a record's kernels follow each other from its start, each as long
 * as its gpu__time_duration.sum, scaled down together where they add up to
 * more than the record (kernel replay times one pass), an even split where
 * not measured.  The file's otherData says so.
 *
 * A file with the program's kernels (header.workload, record --workload
 * on) adds a process per program process (pid 2 on): its span a slice on
 * track 1, a track per stream with its kernels in GPU time from the
 * earliest start (cat workload; workload,attention for an attention
 * call's), a kernel that starts before the one before it ends on a further
 * track of its stream.  They are not aligned with the laid-out calls.
 */
#ifndef ATTNPROF_EXPORT_TRACE_H
#define ATTNPROF_EXPORT_TRACE_H

#include <stdio.h>

#include "results.h"

#define TRACE_GAP_NS 1000 /* between consecutive records: 1 µs */

/* Write r's records[0..r->nrecords) to f as one trace document; source
 * names the results file (in the process name).  0, or -1 on a write
 * error (nothing printed, errno set: the caller names the file). */
int export_trace(FILE *f, const struct results *r, const char *source);

#endif
