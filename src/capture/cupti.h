/* cupti.h: per-kernel hardware counters with CUPTI 13 (Range Profiler +
 * Profiler Host API) and launch records from the Activity API.
 *
 * One session per process: cupti_session_open() validates the metric names
 * for the device's chip and plans the passes; a profiled call
 * (cupti_call_begin .. cupti_call_end) covers the kernels its client
 * launches between them, with kernel or user replay and auto ranges (one
 * range per kernel launch), and returns one struct launch per kernel, in
 * launch order, with its metrics.  The range profiler
 * is enabled once, at the first profiled call, and stays enabled (but
 * stopped) until cupti_session_close(); each call re-initialises only the
 * counter-data image and the range profiler's config (cupti_reuse_steps).
 *
 * Counters can be unreadable (no GPU, unsupported GPU, profiling restricted
 * to admins): then open returns CUPTI_UNAVAILABLE with the reason and how to
 * enable them, so record can still time and verify.
 *
 * The host-only half (cupti_validate_metrics, cupti_version_string) works
 * without a GPU: the Profiler Host API accepts chip "GH100" on any machine.
 */
#ifndef ATTNPROF_CUPTI_H
#define ATTNPROF_CUPTI_H

#include <stddef.h>
#include <stdint.h>

#include "results.h"

/* Positive: counters cannot be read here (not an error of the input). */
#define CUPTI_UNAVAILABLE 3

struct cupti_session;

/*
 * Validate names for the current device's chip and plan passes: a session
 * uses the calling thread's current device and context as they are (the
 * device record made current, --device, 0 by default; in the injection
 * library the program's, never changed).  Returns 0;
 * CUPTI_UNAVAILABLE with a human reason in `reason` (what, and how to
 * enable counters); or -1 via error() for an unknown or unsupported metric,
 * naming the metric and the chip.  n == 0 is allowed (a session that only
 * records launches).
 */
int cupti_session_open(struct cupti_session **out, const char *const *metrics,
		       size_t n, char *reason, size_t reason_len);
int cupti_session_passes(const struct cupti_session *s);

/* A session that only collects kernel records (no counters, no profiler
 * initialised): for when counters are unavailable.  Same returns. */
int cupti_session_open_activity(struct cupti_session **out, char *reason, size_t reason_len);

/* The chip name of the session's device ("GH100"). */
const char *cupti_session_chip(const struct cupti_session *s);

/*
 * How the passes of a profiled call are taken.
 *
 * KERNEL: CUPTI replays each kernel itself inside one Start/Stop, saving
 * device memory before the first pass and restoring it before the others,
 * so a kernel that writes its inputs is measured on the same inputs every
 * pass.  The save/restore costs time (tens of ms per kernel on the H200)
 * and leaves the L2 full of dirty lines, which the kernel then writes back
 * and which count as its DRAM writes.
 *
 * USER: launch(arg) runs once per pass, memory is not restored: only for
 * call sequences that give the same result every time (attention variants
 * overwrite their outputs and never write Q, K, V).  The caller can flush
 * the L2 before each kernel (record does), as Nsight Compute does.
 */
enum cupti_replay { CUPTI_REPLAY_KERNEL, CUPTI_REPLAY_USER };
/* "kernel", "user" */
const char *cupti_replay_name(enum cupti_replay r);

/*
 * A profiled call, taken pass by pass by its client.  The capture module
 * does not know who launches the kernels: the sweep driver launches its own
 * (cupti_profile below), the injection library lets the program run.
 *
 *   cupti_call_begin(s, replay)         kernel activity on, counter image
 *                                       emptied, range profiler configured
 *   do { cupti_pass_begin(s)            range profiler started
 *        ... the kernels of the call, on one context ...
 *        cupti_pass_end(s, &all)        device synchronised, profiler stopped
 *   } while (!all)                      kernel replay: one round; user
 *                                       replay: one per pass (same launches)
 *   cupti_call_end(s, &launches, &n)    decoded, evaluated, mapped: one struct
 *                                       launch per kernel, in launch order
 *
 * Every function returns 0 or -1 via error(); after -1 the call is over
 * (nothing to abort).  cupti_call_abort() ends a call early (the client's
 * own failure).  Calls do not nest.  With a session of no metrics the
 * passes only bracket the launches: kernel records without counters.
 *
 * launches: malloc'd, each launch's fields owned; free with
 * cupti_launches_free.  Theoretical occupancy and its limiter are computed
 * with occupancy.h from the Activity records and the device's limits.
 * Ranges that cannot be matched to kernels are an error: never
 * mis-attributed.
 */
int cupti_call_begin(struct cupti_session *s, enum cupti_replay replay);
int cupti_pass_begin(struct cupti_session *s);
int cupti_pass_end(struct cupti_session *s, int *all_submitted);
int cupti_call_end(struct cupti_session *s, struct launch **launches, size_t *nlaunches);
void cupti_call_abort(struct cupti_session *s);

/*
 * The sweep driver's loop over the above: launch(arg) once per round (must
 * launch the same kernels on one stream each time and return 0, or -1 with
 * its own error, which aborts the call).
 */
int cupti_profile(struct cupti_session *s, enum cupti_replay replay, int (*launch)(void *arg), void *arg,
		  struct launch **launches, size_t *nlaunches);
void cupti_launches_free(struct launch *launches, size_t n);
void cupti_session_close(struct cupti_session *s);

/*
 * Window mode, for a program's own launches with a one-pass set (the
 * injection library): the range profiler is started once for many calls,
 * in user-range mode with user replay, and each profiled kernel is one
 * range, pushed just before its launch and popped just after, named by the
 * launch's correlation id.  Kernels launched outside a pushed range run
 * unprofiled, so the window can stay open across the program's other work;
 * the per-call Start (≈ 20 ms on the H200) and Stop (≈ 7 ms) are paid once
 * per window.  The counters are decoded when the window closes.
 *
 * cupti_window_open starts a window (no-op when one is open).
 * cupti_window_push returns 1 when the window already holds
 * CUPTI_MAX_RANGES ranges (close it, open another, push again);
 * cupti_window_ranges says how many it holds.
 * cupti_window_close synchronizes, stops, decodes and returns one entry per
 * range (values[i·n + m] is metric m of range i, n = the session's
 * metrics); free both arrays.
 * cupti_activity_begin/_end bracket one call's kernel records without
 * counters (launches in launch order, correlation ids set).
 */
int cupti_window_open(struct cupti_session *s);
int cupti_window_is_open(const struct cupti_session *s);
size_t cupti_window_ranges(const struct cupti_session *s);
int cupti_window_push(struct cupti_session *s, uint32_t correlation_id);
int cupti_window_pop(struct cupti_session *s);
int cupti_window_close(struct cupti_session *s, uint32_t **correlation_ids, double **values, size_t *nranges);
size_t cupti_session_metric_count(const struct cupti_session *s);
int cupti_activity_begin(struct cupti_session *s);
int cupti_activity_end(struct cupti_session *s, struct launch **launches, size_t *nlaunches);

/*
 * Program-wide kernel activity (the injection library's --workload and
 * --graphs): kernel records on for the whole run, each handed to sink (on
 * CUPTI's thread, or the thread that flushes: sink takes no lock a caller
 * of the capture may hold).  A call then keeps only the records of its own
 * launches: those from the correlation id given to cupti_activity_floor
 * (its first launch's) on; until that is given, none.  Without
 * cupti_activity_program nothing changes.  cupti_activity_flush delivers
 * what is buffered.  0, or -1 via error().
 */
struct cupti_activity_kernel {
	const char *name;
	uint32_t correlation_id;   /* the launch's; a graph's kernels carry the graph launch's */
	uint64_t start, end;       /* ns, GPU timestamps */
	uint64_t graph_node_id;    /* 0: not launched from a graph */
	uint32_t graph_id;
	uint32_t stream;
	int grid[3], block[3];
	int registers, static_smem, dynamic_smem;
};
int cupti_activity_program(void (*sink)(const struct cupti_activity_kernel *k, void *arg), void *arg);
void cupti_activity_floor(uint32_t correlation_id);
void cupti_activity_flush(void);

/* Device dev's occupancy limits (cudaDeviceGetAttribute, GH100 defaults for
 * what the runtime does not report); for occupancy_compute().  0 or -1. */
struct occupancy_limits;
int cupti_occupancy_limits(int dev, struct occupancy_limits *lim);

/* Most kernel launches one cupti_profile() call can hold (ranges per pass). */
#define CUPTI_MAX_RANGES 256

/* Host-only: validate names for chip ("GH100") and count passes.  0, or -1
 * via error() naming the first unknown metric and the chip. */
int cupti_validate_metrics(const char *chip, const char *const *metrics, size_t n,
			   int *passes);

/* Host-only: every counter chip's range profiler offers (the host API's
 * base metrics of type counter, without rollup) whose name starts with
 * prefix, each passed to fn while the list is valid.  The number passed,
 * or -1 via error(). */
int cupti_chip_counters(const char *chip, const char *prefix, void (*fn)(const char *name, void *arg), void *arg);

/* For 'attnprof info': whether counters are readable on device 0.  Returns
 * 1 (readable), 0 (not: reason says why and how to enable), -1 on error. */
int cupti_counters_readable(char *reason, size_t len);
/* "CUPTI API 130001" (static storage). */
const char *cupti_version_string(void);

/* ---- the range -> kernel mapping (pure; tested in CI) ------------------ */

/* One kernel as the Activity API reported it. */
struct cupti_kernel_rec {
	uint32_t correlation_id; /* the launch API call's id: replays share it */
	uint64_t start;          /* ns, GPU timestamp */
	const char *name;
};

/*
 * Match auto ranges to kernel records.  ranges[i] is the i-th range's name
 * as CUPTI reports it ("0", "1", ... in launch order); recs are the kernel
 * records in any order, possibly with repeats of one launch (replays share
 * the correlation id).  On success map[i] is the index in recs of range i's
 * kernel.  Returns 0, or -1 via error() when counts differ, a range name is
 * not an index, or ranges repeat: never a guess.
 */
int cupti_map_ranges(const char *const *ranges, size_t nranges,
		     const struct cupti_kernel_rec *recs, size_t nrecs, size_t *map);

/*
 * The same, for auto ranges numbered from base: a range profiler object kept
 * enabled across profiled calls goes on counting ("3", "4", ... in the second
 * call after a 3-kernel first one), so range "base + k" is launch k.
 */
int cupti_map_ranges_at(const char *const *ranges, size_t nranges, size_t base,
			const struct cupti_kernel_rec *recs, size_t nrecs, size_t *map);

/*
 * The same for user replay, where the caller launched the whole sequence
 * once per pass (`rounds` times, each launch with its own correlation id):
 * recs must hold rounds x nranges launches, each round naming the same
 * kernels in the same order as the first, and range k maps to the first
 * round's k-th launch.  rounds = 1 is cupti_map_ranges_at.
 */
int cupti_map_ranges_rounds(const char *const *ranges, size_t nranges, size_t base, size_t rounds,
			    const struct cupti_kernel_rec *recs, size_t nrecs, size_t *map);

/*
 * The lowest launch index among range names ("outer/7" counts as 7): the
 * base of one call's ranges.  0 for no ranges; -1 via error() when a name is
 * not an index.  Whether the names then run base, base+1, ... without gaps
 * or repeats is cupti_map_ranges_at's check.
 */
int cupti_ranges_base(const char *const *ranges, size_t nranges, size_t *base);

/* The launch index an auto range's name holds ("7", or "outer/7" nested):
 * 0, or -1 when the name is not an index (no message). */
int cupti_range_index(const char *name, size_t *index);

/*
 * A batch: runs launched one after another, each on its own stream, in one
 * profiled call.  Splits the call's launches (in launch order) into nruns
 * groups of consecutive launches on one stream: run k's are
 * [start[k], start[k + 1]), start has nruns + 1 entries.  0, or -1 via
 * error() unless there are exactly nruns such groups.
 */
int cupti_split_by_stream(const struct launch *l, size_t n, size_t nruns, size_t *start);

/* ---- session reuse (pure; tested in CI) --------------------------------- */

/*
 * What one cupti_profile() call must do before and after its Start/Stop
 * rounds.  The session sets up once what depends only on the metric set
 * (host object, config image, counter-data image buffer sized for
 * CUPTI_MAX_RANGES, the range profiler enabled on the context) and each call
 * re-initialises only what holds one call's ranges.
 */
enum {
	CUPTI_STEP_ENABLE = 1 << 0,      /* cuptiRangeProfilerEnable(ctx)            */
	CUPTI_STEP_SIZE_IMAGE = 1 << 1,  /* size + allocate the image (new object too) */
	CUPTI_STEP_INIT_IMAGE = 1 << 2,  /* CounterDataImageInitialize (empty image) */
	CUPTI_STEP_SET_CONFIG = 1 << 3,  /* SetConfig(config, image, AutoRange, ...) */
	CUPTI_STEP_DISABLE = 1 << 4,     /* Disable after the call                   */
};

struct cupti_reuse {
	int enabled;   /* a range profiler object is enabled and usable */
	int have_image;/* the counter-data image buffer exists (sized)  */
	int per_call;  /* ATTNPROF_CUPTI_PER_CALL=1: enable/disable every call (the old way) */
};

/* The steps for the next call, given the state. */
unsigned cupti_reuse_steps(const struct cupti_reuse *r);
/* Update the state after a call that took `steps` and succeeded (ok = 1) or
 * failed (ok = 0: the object is disabled, so the next call starts afresh). */
void cupti_reuse_after(struct cupti_reuse *r, unsigned steps, int ok);

#endif
