/* inject.c: libattnprof-inject.so, the capture module's second client.
 *
 * `attnprof record -- CMD` starts CMD with CUDA_INJECTION64_PATH and
 * NVTX_INJECTION64_PATH both naming this library: the CUDA driver loads us
 * at cuInit (InitializeInjection: CUPTI subscription) and the program's
 * NVTX at its first NVTX call (InitializeInjectionNvtx2: we become its NVTX
 * tool, so every range push, pop and mark calls us directly).  CUPTI's own
 * NVTX callbacks did not reach us on the H200 with PyTorch 2.11's NVTX
 * (docs/capture.md), so we do not rely on them.
 * We profile only attention: an NVTX range whose name starts with
 * "attnprof:" (capture/range_name.h) is one call; the kernels launched
 * between its push and its pop, on its thread, are profiled and attributed
 * to it: a one-pass metric set (the default, `capture`) needs no replay,
 * a larger set is taken with kernel replay (CUPTI replays each kernel and
 * restores memory, so the program still sees one run).  Everything else runs unprofiled.
 * A mark "attnprof-check: call=N key=value ..." after a call (the Python
 * helper's correctness check, unprofiled timing and footprint) is attached
 * to call N.
 *
 * Each process writes its own part, DIR/part-PID.yaml, a results file
 * (results.h) saved atomically after the first calls and then at most
 * every PART_SAVE_MS, and at exit; `record` merges the parts.  Nothing CUDA
 * runs in InitializeInjection (the driver is inside cuInit): the session is
 * opened at the first attention range, on the program's current device.
 *
 * Configuration (set by `record`; docs/capture.md):
 *   ATTNPROF_INJECT_DIR          where parts go (required)
 *   ATTNPROF_INJECT_METRICS      metric names, comma-separated ("" = none)
 *   ATTNPROF_INJECT_METRIC_SET   the set's name, for the records
 *   ATTNPROF_INJECT_NVTX_INCLUDE fnmatch pattern on range names (default "attnprof:*")
 *   ATTNPROF_INJECT_KERNEL_REGEX POSIX ERE: only matching kernels are kept in a call
 *   ATTNPROF_INJECT_KERNEL_SHAPE a range name ("attnprof: impl=… B= …"): every
 *                                launch of a kernel matching the regex outside
 *                                any attention range is a call of that shape
 *   ATTNPROF_INJECT_FLUSH=0|1       flush the L2 before each marked call's first kernel
 *                                (default 1; Nsight Compute's --cache-control all
 *                                flushes before every kernel)
 *   ATTNPROF_INJECT_WINDOW=0|1      one-pass sets: one range-profiler window for many
 *                                calls, a user range per kernel (record --window on);
 *                                0 (default): Start and Stop around every call
 *   ATTNPROF_INJECT_APP_REPLAY=1  a set of several passes is cut into one-pass groups
 *                                (DIR/groups); this run counts the first (record
 *                                --replay application runs the program once per group)
 *   ATTNPROF_INJECT_SKIP_CALLS, ATTNPROF_INJECT_MAX_CALLS
 *   ATTNPROF_INJECT_VERBOSE=1    a line per call on stderr
 *   ATTNPROF_INJECT_SCAN=1       a launch of a family's attention kernel (family_scan) outside
 *                                any range is a pass of its own, shape unknown (origin family-scan);
 *                                its family's auxiliary kernels are profiled too (origin
 *                                family-scan-aux), and record groups them (capture/group.h);
 *                                a kernel of no family rule whose name looks like attention
 *                                (capture/candidates.h) is a call too (origin name-scan)
 *   ATTNPROF_INJECT_GRAPHS=1|2   attention captured into CUDA graphs (a range open, or a kernel the
 *                                scan takes, on the capturing thread) is followed through its graph
 *                                nodes to every replay (capture/graphs.h); 2: a record per replay too
 *   ATTNPROF_INJECT_WORKLOAD=1   every kernel's activity record: the program's GPU time and
 *                                attention's share (capture/workload.h, the part's header)
 * Both turn kernel activity on for the whole run (cupti_activity_program).
 * In every mode, launches outside every range of kernels whose names look
 * like attention are counted per kernel into DIR/candidates-PID.tsv
 * (capture/candidates.h), which record lists with the command that
 * captures them.
 *   ATTNPROF_INJECT_FAMILIES     the user's family rules (record --families FILE)
 */
#include <fnmatch.h>
#include <pthread.h>
#include <regex.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <cupti.h>
#include <nvtx3/nvToolsExt.h>

#include "capture/candidates.h"
#include "capture/family.h"
#include "capture/graphs.h"
#include "capture/workload.h"
#include "capture/group.h"
#include "capture/range_name.h"
#include "capture/verdict.h"
#include "attn.h"
#include "capture/cupti.h"
#include "results.h"
#include "util/error.h"
#include "variants.h"

/* libstdc++'s demangler (the kernels' names are C++) */
char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status);

/* Saving costs an fsync: the part is written after the first call, then at
 * most once a second, and at exit (a crash loses at most a second of calls). */
#define PART_SAVE_MS 1000.0
#define EAGER_SAVES 1
#define MAX_DEPTH 64

/* How long another thread's launch waits for a call to end, and how many of
 * their launches one call remembers to drop: threads_streams.py under record
 * (H200 2026-12-02 18:10) stopped in 3 runs of 3 while other threads' kernels
 * ran inside a call's profiling (calls of one cuDNN kernel recorded with 3
 * and 4), and in 0 of 2 without counters. */
enum { FOREIGN_WAIT_MS = 10000, FOREIGN_MAX = 1024 };

static struct {
	pthread_mutex_t lock;
	int ready;             /* configured and subscribed */
	char dir[4096], part[4200];
	char **metrics;
	size_t nmetrics;
	char *metric_set;
	char *include;
	regex_t kernel_re;
	int have_re;
	char *kernel_shape;    /* kernel-launch mode: the calls' range name */
	int scan;              /* unmarked programs: a launch of a family's attention kernel outside
				  any range is a call of its own, shape unknown (family_scan) */
	int captures;          /* CUDA graph captures in progress (any stream, any thread) */
	long in_capture_skipped; /* attention launches or ranges left alone: inside a graph capture */
	int disabled;          /* profiling stopped in this process after a failing profiler call:
				  the program runs on untouched (the results' notes say why) */
	int flush;             /* flush the L2 before each profiled kernel (ATTNPROF_INJECT_FLUSH) */
	int flush_ready;       /* the flush buffer exists and its kernel is loaded */
	long skip, max;        /* max < 0: no limit */
	long seen, captured;   /* attention ranges seen / captured */
	struct cupti_session *cupti;
	int session_tried;
	enum metrics_status mstatus;
	char mreason[512];
	struct results res;
	double last_save;
	int saves;
	int verbose;           /* ATTNPROF_INJECT_VERBOSE=1: a line per call on stderr */
	/* Other threads' launches during a call: they wait for its end (at most
	 * FOREIGN_WAIT_MS), so the profiler sees the call's kernels alone; one
	 * that ran anyway is dropped from the call by its correlation id. */
	uint32_t foreign[FOREIGN_MAX];
	int nforeign;          /* entries of foreign this call (atomic) */
	int foreign_nowait;    /* a wait ran out once: never wait again in this process */
	int foreign_waited;    /* launches that waited, over the process (the notes) */
	int foreign_dropped;   /* their kernels dropped from calls (the notes) */
	int trace;             /* ATTNPROF_INJECT_VERBOSE=2: also a line per lock and profiler step, with
				* thread and time (where a multi-threaded program stops: docs/capture.md) */
	/* the call in progress (calls do not nest) */
	int active;
	pthread_t thread;
	struct call_id id;
	char *range;
	char *problem;
	int graph_launches;
	double alloc_bytes;    /* device memory the program allocated during the call */
	long index;
	enum cupti_replay replay;
	int launch_call;       /* the call is one kernel launch (kernel-launch mode) */
	/* A call marked inside a tool's range titles (XLA: one range per thunk,
	 * an attention of several thunks in a row) stays open after its range
	 * closes, until a range with another name opens, an enclosing range
	 * closes or a kernel launches outside them: then the next thunk of the
	 * same name continues it.  Only on the call's thread. */
	int pending;
	int pending_nest;
	char pending_name[256];
	int aux_call;          /* the call is a scanned auxiliary kernel (capture/group.h): not counted as a call */
	int embedded_call;     /* the call came from a tool's title (XLA's thunk ranges) */
	long empty_calls;      /* tagged operations that launched no kernel of their own: not calls */
	int call_tid;          /* a scanned launch: its thread, stream and the thread's launch number */
	uint64_t call_stream, call_launch;
	int app_replay;        /* ATTNPROF_INJECT_APP_REPLAY: first run of an application replay */
	int graphs;            /* ATTNPROF_INJECT_GRAPHS: 1 follow in-graph calls, 2 and a record per replay */
	int workload;          /* ATTNPROF_INJECT_WORKLOAD: every kernel's time */
	int program_activity;  /* kernel activity on for the whole run (either of the two) */
	int floor_set;         /* the call's first launch gave the activity floor (cupti_activity_floor) */
	int window;            /* window mode (ATTNPROF_INJECT_WINDOW; one-pass sets only) */
	int in_window;         /* the call in progress is profiled in the window */
	struct results pend;   /* calls whose counters wait for the window to close */
	double window_since;   /* when the open window opened (ms) */
	/* Diagnostic (ATTNPROF_INJECT_WINDOW_SETTLE_MS): in the window, wait
	 * this long at a call's start and before the first kernel after an
	 * allocation, to test whether the driver's own memory traffic after an
	 * allocation or a free lands in the next kernel's range */
	long settle_ms;
	int settle_pending;
} g = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* Per thread: the open ranges, innermost last (nest of them), each marked
 * RANGE_TAKEN when it is the captured call and RANGE_OURS when it is one
 * of attnprof's (an attention range, the helper's own); depth counts the
 * open ranges that are ours.  Launches outside every range of ours are
 * the scan's, whatever the program's own ranges (its NVTX markup, XLA's
 * thunk ranges) around them. */
enum { RANGE_TAKEN = 1, RANGE_OURS = 2, RANGE_EMBEDDED = 4, RANGE_SITE = 8 /* an in-graph call site (graphs.h) */ };
static __thread int nest, depth;
static __thread unsigned char mine[MAX_DEPTH];
/* Per thread: running our own code (an NVTX entry point or a launch
 * callback, g.lock held): the CUDA calls we make then (the flush, CUPTI's
 * own kernels, a synchronize) must not re-enter the launch callback, which
 * would wait for g.lock forever. */
static __thread int in_callback;
/* Per thread: kernel launches so far (the scan's grouping reads which
 * launches were next to each other on a thread: capture/group.h). */
static __thread uint64_t thread_launches;

static double now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return 1e3 * (double)t.tv_sec + 1e-6 * (double)t.tv_nsec;
}

/* One line of the trace (ATTNPROF_INJECT_VERBOSE=2): the thread and the
 * time first, so a stop shows which thread waited for what. */
#define TRACE(...) do { if (g.trace) trace_line(__VA_ARGS__); } while (0)
__attribute__((format(printf, 1, 2))) static void trace_line(const char *fmt, ...)
{
	char msg[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	fprintf(stderr, "attnprof-inject: trace %.3f tid %d: %s\n", now_ms(), (int)syscall(SYS_gettid), msg);
}

static void lock_tool(void)
{
	if (g.trace && pthread_mutex_trylock(&g.lock)) {
		TRACE("waits for the lock");
		pthread_mutex_lock(&g.lock);
		TRACE("has the lock");
	} else if (!g.trace) {
		pthread_mutex_lock(&g.lock);
	}
	in_callback++;
}
static void unlock_tool(void)
{
	in_callback--;
	pthread_mutex_unlock(&g.lock);
}

static char *xstrdup(const char *s) { return s ? strdup(s) : NULL; }

static long env_long(const char *name, long dflt)
{
	const char *v = getenv(name);
	if (!v || !*v)
		return dflt;
	char *end;
	long x = strtol(v, &end, 10);
	return *end ? dflt : x;
}

/* Write the part; force = 1 also when the last save was recent. */
static void note_header(const char *why);

/* In-graph calls and the whole workload (graphs.h, workload.h), under
 * gr_lock: taken in CUPTI's resource callbacks, the activity sink (on
 * CUPTI's thread or the one that flushes) and, inside g.lock, by NVTX
 * pushes and saves; never held across a CUDA or CUPTI call. */
static pthread_mutex_t gr_lock = PTHREAD_MUTEX_INITIALIZER;
static struct graphs gr;
static struct results_header wl;        /* the workload's tallies and kept kernels */
/* correlation ids: launches of attention calls (their kernels are
 * attention's), of attnprof's own work in the program (the helper's
 * checks and re-timings: nobody's), and attention's already counted
 * (kernel replay delivers a record per pass) */
struct corrset { uint32_t *v; size_t n, cap; };
static struct corrset att_corr, ours_corr, att_counted;
static __thread int launch_site;        /* a site opened by this thread's launch in progress */

static size_t corr_slot(const struct corrset *c, uint32_t k)
{
	size_t i = (k * 2654435761u) & (c->cap - 1);
	while (c->v[i] && c->v[i] != k)
		i = (i + 1) & (c->cap - 1);
	return i;
}
static int corr_has(const struct corrset *c, uint32_t k) { return k && c->cap && c->v[corr_slot(c, k)] == k; }
static void corr_add(struct corrset *c, uint32_t k)
{
	if (!k || corr_has(c, k))
		return;
	if (2 * (c->n + 1) > c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 1024;
		uint32_t *v = calloc(cap, sizeof *v), *old = c->v;
		if (!v)
			return;
		size_t ocap = c->cap;
		c->v = v, c->cap = cap;
		for (size_t i = 0; i < ocap; i++)
			if (old[i])
				c->v[corr_slot(c, old[i])] = old[i];
		free(old);
	}
	c->v[corr_slot(c, k)] = k;
	c->n++;
}

static long thread_id(void) { return (long)syscall(SYS_gettid); }

/* Every kernel's activity record (cupti_activity_program's sink). */
static void on_kernel_record(const struct cupti_activity_kernel *k, void *arg)
{
	(void)arg;
	pthread_mutex_lock(&gr_lock);
	int att = 0;
	if (k->graph_node_id && g.graphs) {
		size_t before = gr.nkern;
		if (graphs_kernel(&gr, k->graph_node_id, k->correlation_id, k->start, k->end, k->name, k->grid, k->block,
				  k->registers, k->static_smem, k->dynamic_smem))
			fprintf(stderr, "attnprof-inject: %s\n", error_last());
		att = gr.nkern > before;
	}
	if (g.workload) {
		const int ours = corr_has(&ours_corr, k->correlation_id) || (k->name && !strcmp(k->name, "attnprof_l2_flush"));
		if (!att && !k->graph_node_id && corr_has(&att_corr, k->correlation_id)) {
			att = !corr_has(&att_counted, k->correlation_id);
			if (!att)
				goto done; /* another pass of a replayed kernel */
			corr_add(&att_counted, k->correlation_id);
		} else if (!att && k->graph_node_id && corr_has(&att_corr, k->correlation_id))
			att = 1; /* a graph launched inside an attention range */
		if (!ours) /* out of memory a kernel is counted in header.workload.dropped */
			(void)workload_keep(&wl, (int)getpid(), k->stream, k->name, k->start, k->end, k->grid, k->block, att);
	}
done:
	pthread_mutex_unlock(&gr_lock);
}

_Static_assert(CU_GRAPH_NODE_TYPE_KERNEL == GRAPHS_NODE_KERNEL, "graphs.h's kernel node type is CUDA's");

/* CUPTI's graph callbacks (resource domain): nodes, clones, executable graphs, updates. */
static void on_graph_resource(CUpti_CallbackId cbid, const CUpti_ResourceData *rd)
{
	const CUpti_GraphData *gd = rd ? rd->resourceDescriptor : NULL;
	if (!gd)
		return;
	uint32_t gid = 0, eid = 0;
	uint64_t nid = 0, oid = 0;
	switch (cbid) {
	case CUPTI_CBID_RESOURCE_GRAPHNODE_CREATED:
		if (cuptiGetGraphId(gd->graph, &gid) != CUPTI_SUCCESS || cuptiGetGraphNodeId(gd->node, &nid) != CUPTI_SUCCESS)
			return;
		pthread_mutex_lock(&gr_lock);
		TRACE("graph node %llu created in graph %u, type %d, call site open: %ld", (unsigned long long)nid, gid,
		      (int)gd->nodeType, graphs_site_open(&gr, thread_id()));
		if (graphs_node_created(&gr, gid, nid, (int)gd->nodeType, thread_id()))
			fprintf(stderr, "attnprof-inject: %s\n", error_last());
		pthread_mutex_unlock(&gr_lock);
		break;
	case CUPTI_CBID_RESOURCE_GRAPHNODE_CLONED:
		if (cuptiGetGraphNodeId(gd->node, &nid) != CUPTI_SUCCESS ||
		    cuptiGetGraphNodeId(gd->originalNode, &oid) != CUPTI_SUCCESS)
			return;
		if (gd->graph)
			cuptiGetGraphId(gd->graph, &gid);
		pthread_mutex_lock(&gr_lock);
		TRACE("graph node %llu cloned from %llu into graph %u", (unsigned long long)nid, (unsigned long long)oid, gid);
		if (graphs_node_cloned(&gr, gid, nid, oid))
			fprintf(stderr, "attnprof-inject: %s\n", error_last());
		pthread_mutex_unlock(&gr_lock);
		break;
	case CUPTI_CBID_RESOURCE_GRAPHEXEC_CREATED:
		if (cuptiGetGraphExecId(gd->graphExec, &eid) != CUPTI_SUCCESS || cuptiGetGraphId(gd->graph, &gid) != CUPTI_SUCCESS)
			return;
		pthread_mutex_lock(&gr_lock);
		TRACE("executable graph %u instantiated from graph %u", eid, gid);
		if (graphs_exec_created(&gr, eid, gid))
			fprintf(stderr, "attnprof-inject: %s\n", error_last());
		pthread_mutex_unlock(&gr_lock);
		break;
	case CUPTI_CBID_RESOURCE_GRAPH_NODE_SET_PARAMS: /* a node's parameters set in an executable graph */
		if (!gd->graphExec || cuptiGetGraphExecId(gd->graphExec, &eid) != CUPTI_SUCCESS)
			return;
		pthread_mutex_lock(&gr_lock);
		graphs_exec_updated(&gr, eid);
		pthread_mutex_unlock(&gr_lock);
		break;
	default: break;
	}
}

/* The part's workload tallies and, at the end, the in-graph calls (g.lock held). */
static void settle_graphs(int at_exit)
{
	if (!g.program_activity)
		return;
	pthread_mutex_lock(&gr_lock);
	if (g.workload) {
		if (workload_list_copy(&g.res.header.workload, &wl.workload))
			fprintf(stderr, "attnprof-inject: the workload's kernels are not in this save: out of memory\n");
		g.res.header.gpu_kernels = wl.gpu_kernels;
		g.res.header.gpu_kernel_ms = wl.gpu_kernel_ms;
		g.res.header.attention_kernels = wl.attention_kernels;
		g.res.header.attention_kernel_ms = wl.attention_kernel_ms;
	}
	if (at_exit && g.graphs) {
		size_t before = g.res.nrecords;
		if (graphs_records(&gr, &g.res, g.graphs == 2) < 0)
			fprintf(stderr, "attnprof-inject: the in-graph calls are not recorded: %s\n", error_last());
		for (size_t i = before; i < g.res.nrecords; i++)
			if (g.res.records[i].capture)
				g.res.records[i].capture->pid = (int)getpid();
		if (gr.unknown_nodes && gr.nsite) {
			char line[300];
			snprintf(line, sizeof line, "%ld kernel record(s) from graph nodes of no in-graph attention call "
				 "(the program's other graph work, or nodes created before the library saw them)", gr.unknown_nodes);
			note_header(line);
		}
	}
	pthread_mutex_unlock(&gr_lock);
}

/* Kernels nobody named (capture/candidates.h): launches outside every range
 * of kernels whose names look like attention, under scan_lock (the scan's
 * table of kernel names, below); written beside the part as
 * DIR/candidates-PID.tsv, which record lists. */
static pthread_mutex_t scan_lock = PTHREAD_MUTEX_INITIALIZER;
static struct candidates cands;
static void save_candidates(void)
{
	pthread_mutex_lock(&scan_lock);
	if (cands.n) {
		char path[4300];
		snprintf(path, sizeof path, "%s/candidates-%d.tsv", g.dir, (int)getpid());
		if (candidates_write(&cands, path))
			fprintf(stderr, "attnprof-inject: %s\n", error_last());
	}
	pthread_mutex_unlock(&scan_lock);
}

static void save_part(int force)
{
	double t = now_ms();
	if (!force && g.saves >= EAGER_SAVES && t - g.last_save < PART_SAVE_MS)
		return;
	settle_graphs(0);
	if (results_save(&g.res, g.part))
		fprintf(stderr, "attnprof-inject: cannot write %s: %s\n", g.part, error_last());
	save_candidates();
	g.last_save = t;
	g.saves++;
}

static void note_header(const char *why)
{
	/* (declared above: the in-graph calls' notes) */
	size_t old = g.res.header.notes ? strlen(g.res.header.notes) : 0;
	char *n = realloc(g.res.header.notes, old + strlen(why) + 2);
	if (!n)
		return;
	if (!old)
		n[0] = '\0';
	else
		strcat(n, "\n");
	strcat(n, why);
	g.res.header.notes = n;
}

/* Application replay, first run (ATTNPROF_INJECT_APP_REPLAY=1): a set that
 * needs more than one pass is cut into groups of one pass each, in order
 * (a metric that alone needs more stays a group of its own); the groups go
 * to DIR/groups, one comma-separated line each, for record to run the
 * program once per further group; this run counts the first.  0, or -1
 * when the set cannot be cut (then this run takes every pass by kernel
 * replay, as without the option). */
static int plan_groups(const char *chip)
{
	size_t *start = calloc(g.nmetrics + 1, sizeof *start), ngroups = 0;
	if (!start)
		return -1;
	int q = error_quiet(1);
	for (size_t i = 0; i < g.nmetrics;) {
		size_t j = i + 1;
		int passes = 0;
		while (j < g.nmetrics &&
		       !cupti_validate_metrics(chip, (const char *const *)g.metrics + i, j + 1 - i, &passes) && passes <= 1)
			j++;
		start[ngroups++] = i;
		i = j;
	}
	error_quiet(q);
	start[ngroups] = g.nmetrics;
	char path[4200], tmp[4300];
	snprintf(path, sizeof path, "%s/groups", getenv("ATTNPROF_INJECT_DIR") ? getenv("ATTNPROF_INJECT_DIR") : ".");
	snprintf(tmp, sizeof tmp, "%s.%d", path, (int)getpid());
	FILE *f = fopen(tmp, "w");
	int rc = f ? 0 : -1;
	for (size_t k = 0; f && k < ngroups; k++)
		for (size_t i = start[k]; i < start[k + 1]; i++)
			fprintf(f, "%s%s", g.metrics[i], i + 1 < start[k + 1] ? "," : "\n");
	if (f && (fclose(f) || rename(tmp, path)))
		rc = -1;
	if (!rc) /* this run: the first group */
		for (size_t i = start[1]; i < g.nmetrics; i++) {
			free(g.metrics[i]);
			g.metrics[i] = NULL;
		}
	if (!rc)
		g.nmetrics = start[1];
	free(start);
	return rc;
}

/* Stop profiling in this process: no CUPTI or CUDA call of ours from now
 * on, so the program runs to its end as it would without attnprof. */
static void stop_profiling(const char *why)
{
	char line[800];
	snprintf(line, sizeof line, "profiling stopped in process %d: %s; the program ran on unprofiled", (int)getpid(), why);
	fprintf(stderr, "attnprof-inject: %s\n", line);
	note_header(line);
	g.disabled = 1;
	save_part(1);
}

/* in_launch: called from inside a program's kernel launch (a launch callback) */
static void open_session(int in_launch)
{
	if (g.session_tried)
		return;
	g.session_tried = 1;
	/* the session takes the program's current device and context, as they are */
	int q = error_quiet(1);
	int rc = g.nmetrics ? cupti_session_open(&g.cupti, (const char *const *)g.metrics, g.nmetrics,
						  g.mreason, sizeof g.mreason)
			    : CUPTI_UNAVAILABLE;
	error_quiet(q);
	if (rc == 0 && g.app_replay && cupti_session_passes(g.cupti) > 1) {
		char chip[64];
		snprintf(chip, sizeof chip, "%s", cupti_session_chip(g.cupti));
		if (plan_groups(chip) == 0) {
			cupti_session_close(g.cupti);
			g.cupti = NULL;
			q = error_quiet(1);
			rc = cupti_session_open(&g.cupti, (const char *const *)g.metrics, g.nmetrics, g.mreason, sizeof g.mreason);
			error_quiet(q);
		} else
			fprintf(stderr, "attnprof-inject: cannot plan application replay: taking every pass by kernel replay\n");
	}
	if (rc == 0) {
		g.mstatus = METRICS_OK;
		if (g.flush) {
			q = error_quiet(1);
			g.flush_ready = attn_l2_flush_prepare() == 0;
			error_quiet(q);
			if (!g.flush_ready)
				note_header("the L2 could not be flushed before the profiled kernels (no memory for the "
					    "flush buffer): DRAM writes include lines other work left dirty");
		}
		return;
	}
	if (rc < 0)
		snprintf(g.mreason, sizeof g.mreason, "%s", error_last());
	/* Inside a launch, a profiler that failed is not tried again another way:
	 * under JAX (H200, 2026-12-02) counters were busy, and the fallback
	 * that followed inside the launch left the program with "Unknown
	 * error" and hung until killed */
	if (g.nmetrics && in_launch) {
		char why[700];
		snprintf(why, sizeof why, "the counters could not be opened inside a kernel launch (%s)", g.mreason);
		stop_profiling(why);
		return;
	}
	g.mstatus = g.nmetrics ? METRICS_UNAVAILABLE : METRICS_NOT_REQUESTED;
	if (g.nmetrics)
		fprintf(stderr, "attnprof-inject: counters unavailable (%s): recording kernels, times and verdicts without them\n",
			g.mreason);
	/* kernel records without counters */
	char why[512];
	q = error_quiet(1);
	rc = cupti_session_open_activity(&g.cupti, why, sizeof why);
	error_quiet(q);
	if (rc) {
		g.cupti = NULL;
		fprintf(stderr, "attnprof-inject: cannot collect kernel records: %s\n", rc < 0 ? error_last() : why);
	}
}

static void begin_call(const char *name, const char *origin)
{
	if (!origin || (strcmp(origin, "family-scan") && strcmp(origin, GROUP_AUX_ORIGIN))) {
		g.call_tid = 0; /* where it was launched: recorded for the scan's grouping only */
		g.call_stream = g.call_launch = 0;
		g.aux_call = 0;
	}
	char problem[200];
	int prc = range_parse(name, &g.id, problem, sizeof problem);
	if (origin && !g.id.origin[0])
		snprintf(g.id.origin, sizeof g.id.origin, "%s", origin);
	if (prc > 0)
		fprintf(stderr, "attnprof-inject: warning: attention range '%s' does not parse (%s): captured with its shape unknown\n",
			name, problem);
	open_session(origin != NULL);
	if (g.disabled)
		return;
	/* Empty the L2 of other work's dirty lines once, before the call's first
	 * kernel and before its profiling starts (so the flush is not profiled):
	 * on the legacy default stream, which orders it before every blocking
	 * stream's later work.  Not for a call that begins inside a launch
	 * callback (kernel-launch mode): no CUDA launch may happen there. */
	if (g.flush_ready && !origin)
		attn_l2_flush_on(NULL);
	TRACE("call %ld begins (%s)", g.seen - 1, origin ? origin : "range");
	g.range = xstrdup(name);
	g.problem = prc > 0 ? xstrdup(problem) : NULL;
	g.graph_launches = 0;
	g.alloc_bytes = 0;
	g.index = g.seen - 1;
	__atomic_store_n(&g.nforeign, 0, __ATOMIC_RELEASE);
	g.thread = pthread_self();
	g.active = 1;
	if (!g.cupti)
		return;
	/* One pass needs no replay: the program's own launches are the pass (no
	 * memory saved and restored per kernel).  More passes: CUPTI replays
	 * each kernel itself, restoring memory, so the program still sees one run. */
	g.replay = cupti_session_passes(g.cupti) <= 1 ? CUPTI_REPLAY_USER : CUPTI_REPLAY_KERNEL;
	int q = error_quiet(1);
	g.in_window = 0;
	if (g.window && g.mstatus == METRICS_OK && g.replay == CUPTI_REPLAY_USER) {
		if (!cupti_window_is_open(g.cupti))
			g.window_since = now_ms();
		if (cupti_window_open(g.cupti) == 0 && cupti_activity_begin(g.cupti) == 0) {
			g.in_window = 1;
			/* The call's first kernel range opens at its launch, with no Start
			 * to wait for the GPU: the flush and the program's earlier work
			 * are to be done by then */
			if (!origin)
				cudaDeviceSynchronize();
			if (g.settle_ms > 0)
				usleep((useconds_t)g.settle_ms * 1000);
			error_quiet(q);
			return;
		}
		/* not in this process: every call profiled on its own from now on */
		fprintf(stderr, "attnprof-inject: profiling window unavailable (%s): profiling each call on its own\n",
			error_last());
		g.window = 0;
	}
	const int began = cupti_call_begin(g.cupti, g.replay) || cupti_pass_begin(g.cupti);
	TRACE("call %ld: profiler started (%s replay)%s", g.index, cupti_replay_name(g.replay), began ? ": failed" : "");
	if (began) {
		if (origin) { /* inside a launch: stop rather than risk the program's launch */
			char why[600];
			snprintf(why, sizeof why, "call %ld could not be profiled inside its kernel launch (%s)", g.index,
				 error_last());
			g.active = 0;
			error_quiet(q);
			stop_profiling(why);
			return;
		}
		fprintf(stderr, "attnprof-inject: cannot profile call %ld: %s\n", g.index, error_last());
		g.active = 2; /* recorded without kernels */
	}
	error_quiet(q);
}

/* The FlashAttention benchmark convention, pass included (attn_flops). */
static double call_tflops(const struct record *r)
{
	if (!r->capture || !r->capture->shape_known || !(r->time_ms > 0))
		return 0;
	/* a block mask: FLOPs over the blocks computed */
	const double density = r->capture->density > 0 ? r->capture->density : 1;
	return density * attn_flops(&r->shape) / (r->time_ms * 1e-3) / 1e12;
}

/* A kernel another thread launched while the call was open (foreign_launch_wait). */
static int launched_elsewhere(uint32_t correlation_id)
{
	int n = __atomic_load_n(&g.nforeign, __ATOMIC_ACQUIRE);
	for (int i = 0; i < n && i < FOREIGN_MAX; i++)
		if (g.foreign[i] == correlation_id)
			return 1;
	return 0;
}

/* Drop our own L2 flushes and other threads' kernels; keep only kernels
 * the regex accepts (all when none is given). */
static void filter_kernels(struct launch **ls, size_t *n)
{
	size_t k = 0;
	for (size_t i = 0; i < *n; i++) {
		const char *name = (*ls)[i].name;
		int keep = name && strcmp(name, ATTN_L2_FLUSH_KERNEL) && (!g.have_re || !regexec(&g.kernel_re, name, 0, NULL, 0));
		if (keep && launched_elsewhere((*ls)[i].correlation_id)) { /* another thread's kernel */
			keep = 0;
			g.foreign_dropped++;
		}
		if (keep)
			(*ls)[k++] = (*ls)[i];
		else
			launch_release(&(*ls)[i]);
	}
	*n = k;
}

/* A record's fields that need its kernels' counters, then the record
 * into the results (and the part onto disk, at most once a second). */
static void finish_record(struct record *rec, const char *err)
{
	results_sum_launches(rec);
	struct capture_info *c = rec->capture;
	if (c) {
		const char **names = calloc(rec->nlaunches + 1, sizeof *names);
		double ms = 0;
		for (size_t i = 0; i < rec->nlaunches; i++) {
			if (names)
				names[i] = rec->launches[i].name;
			const double *t = kvlist_get(&rec->launches[i].metrics, "gpu__time_duration.sum");
			ms += t ? *t * 1e-6 : rec->launches[i].duration_ns * 1e-6;
		}
		free(c->family);
		c->family = strdup(family_of_call(names, rec->nlaunches));
		free(names);
		c->kernel_ms = ms;
		if (!c->time_source) { /* the helper's unprofiled re-timing, when it came first, stays */
			c->time_source = strdup("kernels");
			rec->time_ms = rec->time_ms_min = rec->time_ms_max = ms;
		}
		verdict_compute(rec, 0); /* record recomputes it with the GPU's L2 size */
	}
	rec->tflops = call_tflops(rec);
	const int graphs = c ? c->graph_launches : 0;
	if ((err && err[0]) || graphs) {
		char buf[700];
		snprintf(buf, sizeof buf, "%s%s%s", err && err[0] ? "profiling failed: " : "", err ? err : "",
			 graphs ? (err && err[0] ? "; CUDA graph launches inside the range were not profiled"
						 : "CUDA graph launches inside the range were not profiled")
				: "");
		free(rec->error);
		rec->error = strdup(buf);
	}
	if (g.verbose)
		fprintf(stderr, "attnprof-inject: call %d: %s %s, %zu kernel%s, %.3f ms, family %s%s%s\n",
			c ? c->call : -1, rec->variant, record_pass(rec), rec->nlaunches, rec->nlaunches == 1 ? "" : "s",
			rec->time_ms, c && c->family ? c->family : "?", err && err[0] ? ": " : "", err ? err : "");
	results_add(&g.res, rec);
	save_part(0);
}

/* Close the profiling window: the counters of every pending call's
 * kernels, matched by correlation id, and the calls into the results. */
static void close_window(void)
{
	if (!g.cupti || !cupti_window_is_open(g.cupti))
		return;
	uint32_t *ids = NULL;
	double *vals = NULL;
	size_t n = 0;
	char err[512] = "";
	int q = error_quiet(1);
	if (cupti_window_close(g.cupti, &ids, &vals, &n))
		snprintf(err, sizeof err, "%s", error_last());
	error_quiet(q);
	const size_t nm = cupti_session_metric_count(g.cupti);
	for (size_t r = 0; r < g.pend.nrecords; r++) {
		struct record *rec = &g.pend.records[r];
		char why[600] = "";
		snprintf(why, sizeof why, "%s", err);
		for (size_t k = 0; k < rec->nlaunches && !err[0]; k++) {
			struct launch *l = &rec->launches[k];
			size_t i = 0;
			while (i < n && ids[i] != l->correlation_id)
				i++;
			if (i == n) {
				snprintf(why, sizeof why, "no counters came back for kernel '%.200s' (launch %u)", l->name,
					 l->correlation_id);
				continue;
			}
			for (size_t m = 0; m < nm; m++)
				kvlist_set(&l->metrics, g.metrics[m], vals[i * nm + m]);
			/* a user range's duration is its markers', host gaps between them
			 * included (lazy module loading: 20x the kernel): the kernel's
			 * own time is its Activity record's */
			if (l->duration_ns > 0 && kvlist_get(&l->metrics, "gpu__time_duration.sum"))
				kvlist_set(&l->metrics, "gpu__time_duration.sum", l->duration_ns);
		}
		if (why[0]) /* counters of none of its kernels, rather than of some */
			for (size_t k = 0; k < rec->nlaunches; k++)
				kvlist_release(&rec->launches[k].metrics), kvlist_init(&rec->launches[k].metrics);
		finish_record(rec, why);
	}
	free(g.pend.records); /* each record moved into g.res by finish_record */
	g.pend.records = NULL;
	g.pend.nrecords = g.pend.alloc = 0;
	free(ids);
	free(vals);
}

/* The call is over: what described it is cleared for the next. */
static void call_state_clear(void)
{
	g.active = 0;
	g.floor_set = 0;
	g.aux_call = g.call_tid = g.embedded_call = 0;
	g.call_stream = g.call_launch = 0;
}

static void end_call(void)
{
	struct launch *ls = NULL;
	size_t n = 0;
	char err[512] = "";
	int q = error_quiet(1);
	TRACE("call %ld ends", g.index);
	if (g.cupti && g.active == 1 && g.in_window) {
		/* the kernels must be done for their records; the counters come when the window closes */
		cudaError_t ce = cudaDeviceSynchronize();
		if (cupti_activity_end(g.cupti, &ls, &n))
			snprintf(err, sizeof err, "%s", error_last());
		else if (ce != cudaSuccess)
			snprintf(err, sizeof err, "a kernel of the call failed: %s", cudaGetErrorString(ce));
	} else if (g.cupti && g.active == 1) {
		int all = 0;
		if (cupti_pass_end(g.cupti, &all))
			snprintf(err, sizeof err, "%s", error_last());
		else if (!all) {
			snprintf(err, sizeof err, "CUPTI wants more passes after kernel replay");
			cupti_call_abort(g.cupti);
		} else if (cupti_call_end(g.cupti, &ls, &n))
			snprintf(err, sizeof err, "%s", error_last());
	}
	error_quiet(q);
	TRACE("call %ld: profiler stopped, %zu kernels%s%s", g.index, n, err[0] ? ": " : "", err);
	filter_kernels(&ls, &n);

	/* An operation tagged as attention in XLA's thunk titles whose kernels
	 * all ran inside a command buffer launched nothing here: no kernel, no
	 * graph launch.  It is no call (H200 2026-12-02 15:19: 26 such rows, no
	 * time, no bytes, beside the 12 real calls); counted in the notes. */
	if (g.embedded_call && n == 0 && g.graph_launches == 0 && !err[0]) {
		free(ls);
		free(g.range);
		free(g.problem);
		g.range = g.problem = NULL;
		call_state_clear();
		g.in_window = 0;
		if (g.empty_calls++ == 0)
			note_header("operations tagged as attention in XLA's thunk titles that launched no kernel outside a "
				    "CUDA graph (their kernels ran in XLA's command buffers) are not recorded as calls: "
				    "their kernels were not profiled (docs/capture.md)");
		return;
	}

	struct record rec;
	record_init(&rec);
	const struct call_id *id = &g.id;
	rec.source = strdup("capture");
	rec.variant = strdup(id->impl);
	call_shape(id, &rec.shape);
	rec.pass_given = 1;
	rec.metrics_status = g.mstatus;
	rec.metrics_reason = g.mstatus == METRICS_UNAVAILABLE ? strdup(g.mreason) : NULL;
	rec.metric_set = xstrdup(g.metric_set);
	rec.replay = n && g.mstatus == METRICS_OK ? strdup(cupti_replay_name(g.replay)) : NULL;
	if (n && g.mstatus == METRICS_OK)
		rec.l2_flushed = g.flush_ready;
	rec.launches = ls;
	rec.nlaunches = n;
	struct capture_info *c = calloc(1, sizeof *c);
	rec.capture = c;
	if (c) {
		c->range = g.range;
		c->problem = g.problem;
		g.range = g.problem = NULL;
		c->origin = strdup(id->origin[0] ? id->origin : "nvtx");
		c->call = id->call >= 0 ? (int)id->call : (int)g.index;
		c->pid = (int)getpid();
		c->shape_known = id->shape_known;
		c->graph_launches = g.graph_launches;
		c->alloc_bytes = g.alloc_bytes;
		c->counter_window = g.in_window;
		c->footprint_bytes = -1;
		c->density = id->density;
		c->mask = id->mask[0] ? strdup(id->mask) : NULL;
		c->tid = g.call_tid;
		c->stream = g.call_stream;
		c->launch = g.call_launch;
	}
	g.captured += !g.aux_call; /* an auxiliary kernel is part of a call, not one */
	call_state_clear();
	if (g.in_window && !err[0]) {
		g.in_window = 0;
		if (results_add(&g.pend, &rec))
			fprintf(stderr, "attnprof-inject: out of memory keeping call %ld\n", g.index);
		/* a window is closed at least once a second, so a crash loses at most
		 * that much, and between calls once it is half full, so that a call
		 * of up to CUPTI_MAX_RANGES / 2 kernels never finds it full: closing
		 * inside a launch callback lost that call's counters (H200,
		 * 2026-12-01, one window for 281 kernels) */
		if (now_ms() - g.window_since >= PART_SAVE_MS || cupti_window_ranges(g.cupti) > CUPTI_MAX_RANGES / 2)
			close_window();
		return;
	}
	g.in_window = 0;
	finish_record(&rec, err);
}

/* "attnprof-check: call=N [pass=bwd] max_abs=... rel_l2=... tol_max_abs=... tol_rel_l2=...
 *  rows=... correct=0|1 time_ms=... time_ms_min=... time_ms_max=... reps=...
 *  footprint=..." from the Python helper. */
static void attach_check(const char *msg)
{
	const char *p = strchr(msg, ':');
	long call = -1;
	int pass = -1; /* any; PASS_BWD: the check of a call's backward (the helper's clones re-run) */
	double v[11];
	int have[11] = { 0 };
	static const char *const keys[] = { "max_abs", "rel_l2", "tol_max_abs", "tol_rel_l2", "rows", "correct",
					    "time_ms", "time_ms_min", "time_ms_max", "reps", "footprint" };
	for (p = p ? p + 1 : msg; *p;) {
		while (*p == ' ')
			p++;
		const char *eq = strchr(p, '=');
		if (!eq)
			break;
		size_t kl = (size_t)(eq - p);
		char *end;
		double x = strtod(eq + 1, &end);
		if (kl == 4 && !strncmp(p, "call", 4))
			call = (long)x;
		if (kl == 4 && !strncmp(p, "pass", 4)) {
			char w[8];
			enum pass ps;
			snprintf(w, sizeof w, "%.*s", (int)strcspn(eq + 1, " "), eq + 1);
			pass = pass_parse(w, &ps) ? PASS_COUNT : (int)ps; /* a pass it does not name: no record */
		}
		for (int i = 0; i < 11; i++)
			if (strlen(keys[i]) == kl && !strncmp(p, keys[i], kl)) {
				v[i] = x;
				have[i] = 1;
			}
		p = end;
		while (*p && *p != ' ')
			p++;
	}
	char skipped[32];
	const int skip = range_check_skipped(msg, skipped, sizeof skipped);
	for (size_t j = g.res.nrecords + g.pend.nrecords; j-- > 0;) {
		struct record *r = j < g.res.nrecords ? &g.res.records[j] : &g.pend.records[j - g.res.nrecords];
		if (!r->capture || r->capture->call != call || (pass >= 0 && (int)r->shape.pass != pass))
			continue;
		if (skip) {
			free(r->capture->check_skipped);
			r->capture->check_skipped = strdup(skipped);
		}
		if (have[0] && have[1]) {
			r->checked = 1;
			r->max_abs_err = v[0];
			r->rel_l2_err = v[1];
			r->tol_max_abs = have[2] ? v[2] : 0;
			r->tol_rel_l2 = have[3] ? v[3] : 0;
			r->rows_checked = have[4] ? (int)v[4] : 0;
			r->correct = have[5] && v[5] == 1;
		}
		if (have[6] && v[6] > 0) {
			r->time_ms = v[6];
			r->time_ms_min = have[7] ? v[7] : v[6];
			r->time_ms_max = have[8] ? v[8] : v[6];
			r->repetitions = have[9] ? (int)v[9] : 0;
			free(r->capture->time_source);
			r->capture->time_source = strdup("events");
			r->tflops = call_tflops(r);
		}
		if (have[10] && v[10] >= 0) {
			r->capture->footprint_bytes = v[10];
			r->peak_bytes = (uint64_t)v[10];
			verdict_compute(r, 0);
		}
		save_part(0);
		return;
	}
}

/* The CUDA graph captures in progress in this process (any stream, any
 * thread), for the Python helper (ctypes on CUDA_INJECTION64_PATH): while
 * one is, it neither checks nor re-times a call (its synchronising would
 * invalidate the capture). */
int attnprof_inject_captures(void);
int attnprof_inject_captures(void)
{
	return __atomic_load_n(&g.captures, __ATOMIC_ACQUIRE);
}

/* A launch or a range met while a CUDA graph is being captured is left
 * alone: profiling it would make CUDA calls (allocations, the flush, the
 * profiler's own) that invalidate the program's capture */
static int capture_in_progress(void)
{
	if (__atomic_load_n(&g.captures, __ATOMIC_ACQUIRE) <= 0)
		return 0;
	if (g.in_capture_skipped++ == 0)
		note_header("attention calls met while the program was capturing a CUDA graph were left unprofiled "
			    "(the graph's later launches are not profiled either: XLA's command buffers, CUDA-graph modes "
			    "of torch.compile; docs/capture.md)");
	return 1;
}

/* The call that waited for its next thunk ends (pending, on this thread). */
static void end_pending(void)
{
	if (g.pending && g.active && pthread_equal(g.thread, pthread_self())) {
		g.pending = 0;
		end_call();
	}
}

static void on_push(const char *title)
{
	int take = 0;
	if (g.verbose)
		fprintf(stderr, "attnprof-inject: range push '%s'\n", title ? title : "(no text)");
	TRACE("push (nest %d, call %s)", nest, g.active ? "open" : "none");
	/* a tool's title that carries an attention range (XLA's, with the helper's named_scope) */
	char embedded[256];
	const int is_embedded = range_find_embedded(title, embedded, sizeof embedded);
	const char *name = is_embedded ? embedded : title;
	const int attention = name && range_is_attention(name);
	const int ours = attention || (name && !strncmp(name, "attnprof", 8));
	if (g.pending && g.active && pthread_equal(g.thread, pthread_self())) {
		if (nest == g.pending_nest && (is_embedded ? !strcmp(name, g.pending_name) : range_thunk_unnamed(title))) {
			/* the next thunk of the same call, or one that names no
			 * operation of the program's (range_name.h): it goes on */
			g.pending = 0;
			if (nest < MAX_DEPTH)
				mine[nest] = RANGE_TAKEN | RANGE_OURS | RANGE_EMBEDDED;
			nest++;
			depth++;
			return;
		}
		end_pending();
	}
	int site = 0;
	if (!g.disabled && attention && !fnmatch(g.include, name, 0)) {
		g.seen++;
		take = g.seen > g.skip && (g.max < 0 || g.captured < g.max) && !g.active && !capture_in_progress();
		if (!take && g.graphs && !g.active && __atomic_load_n(&g.captures, __ATOMIC_ACQUIRE) > 0) {
			/* a call during a capture: its graph nodes, followed to every replay (graphs.h) */
			pthread_mutex_lock(&gr_lock);
			site = graphs_site_begin(&gr, name, g.seen - 1, thread_id()) >= 0;
			pthread_mutex_unlock(&gr_lock);
		}
	}
	if (nest < MAX_DEPTH)
		mine[nest] = (unsigned char)((take ? RANGE_TAKEN : 0) | (ours ? RANGE_OURS : 0) |
					     (is_embedded ? RANGE_EMBEDDED : 0) | (site ? RANGE_SITE : 0));
	nest++;
	depth += ours;
	if (take) {
		begin_call(name, NULL);
		g.embedded_call = is_embedded;
		if (is_embedded)
			snprintf(g.pending_name, sizeof g.pending_name, "%s", name);
	}
}

static void on_pop(void)
{
	TRACE("pop (nest %d, call %s)", nest, g.active ? "open" : "none");
	if (nest == 0)
		return;
	nest--;
	const unsigned char m = nest < MAX_DEPTH ? mine[nest] : 0;
	if (nest < MAX_DEPTH)
		mine[nest] = 0;
	if (m & RANGE_OURS)
		depth--;
	if (m & RANGE_SITE) {
		pthread_mutex_lock(&gr_lock);
		graphs_site_end(&gr, thread_id());
		pthread_mutex_unlock(&gr_lock);
	}
	if (!(m & RANGE_TAKEN) && g.pending && nest < g.pending_nest)
		end_pending(); /* the range around the call's thunks closed */
	if ((m & RANGE_TAKEN) && g.active && pthread_equal(g.thread, pthread_self())) {
		if (m & RANGE_EMBEDDED) {
			g.pending = 1;
			g.pending_nest = nest;
		} else {
			end_call();
		}
	}
}

/* ---- NVTX: we are the program's NVTX tool (NVTX_INJECTION64_PATH) ---- */

/* Domains and registered strings.  Without a tool, nvtxDomainCreateA
 * returns NULL, and XLA then pushes no range at all; as the tool we hand
 * out handles of our own, so XLA names its thunks (each title a
 * registered string) and the helper's named_scope reaches on_push.  Both
 * live until the process ends (a program registers each string once). */
#define STRING_MAGIC 0x61747470u /* "attp": a handle we made */
struct registered { unsigned magic; char text[]; };
struct domain { unsigned magic; };
static struct domain domain_handle = { STRING_MAGIC };

static nvtxDomainHandle_t NVTX_API nv_dom_create(const char *name)
{
	(void)name;
	return (nvtxDomainHandle_t)(void *)&domain_handle;
}

static void NVTX_API nv_dom_destroy(nvtxDomainHandle_t d) { (void)d; }

static nvtxStringHandle_t NVTX_API nv_dom_register_string(nvtxDomainHandle_t d, const char *text)
{
	(void)d;
	if (!text)
		return NULL;
	size_t n = strlen(text);
	struct registered *r = malloc(sizeof *r + n + 1);
	if (!r)
		return NULL;
	r->magic = STRING_MAGIC;
	memcpy(r->text, text, n + 1);
	return (nvtxStringHandle_t)(void *)r;
}

static const char *attr_message(const nvtxEventAttributes_t *a)
{
	if (!a)
		return NULL;
	if (a->messageType == NVTX_MESSAGE_TYPE_ASCII)
		return a->message.ascii;
	if (a->messageType == NVTX_MESSAGE_TYPE_REGISTERED && a->message.registered) {
		const struct registered *r = (const void *)a->message.registered;
		return r->magic == STRING_MAGIC ? r->text : NULL;
	}
	return NULL;
}

static int NVTX_API nv_push(const char *name)
{
	lock_tool();
	if (g.ready) {
		on_push(name);
	} else {
		if (nest < MAX_DEPTH)
			mine[nest] = 0;
		nest++;
	}
	int d = nest - 1;
	unlock_tool();
	return d;
}

static int NVTX_API nv_pop(void)
{
	lock_tool();
	int d = nest - 1;
	on_pop();
	unlock_tool();
	return d;
}

/* "attnprof-env: torch=2.11.0 cudnn=91900 ...": the libraries the helper
 * found, once, for the results' header */
static void attach_env(const char *msg)
{
	static int said;
	if (said++)
		return;
	char line[600];
	snprintf(line, sizeof line, "libraries:%.500s", msg + 13);
	note_header(line);
}

static void NVTX_API nv_mark(const char *m)
{
	if (!m || (strncmp(m, "attnprof-check:", 15) && strncmp(m, "attnprof-env:", 13)))
		return;
	lock_tool();
	TRACE("mark '%.60s'", m);
	if (g.ready && !strncmp(m, "attnprof-env:", 13))
		attach_env(m);
	else if (g.ready)
		attach_check(m);
	unlock_tool();
}

static int NVTX_API nv_push_a(const char *m) { return nv_push(m); }
static int NVTX_API nv_push_ex(const nvtxEventAttributes_t *a) { return nv_push(attr_message(a)); }
static void NVTX_API nv_mark_a(const char *m) { nv_mark(m); }
static void NVTX_API nv_mark_ex(const nvtxEventAttributes_t *a) { nv_mark(attr_message(a)); }
static int NVTX_API nv_dom_push_ex(nvtxDomainHandle_t d, const nvtxEventAttributes_t *a) { (void)d; return nv_push(attr_message(a)); }
static int NVTX_API nv_dom_pop(nvtxDomainHandle_t d) { (void)d; return nv_pop(); }
static void NVTX_API nv_dom_mark_ex(nvtxDomainHandle_t d, const nvtxEventAttributes_t *a) { (void)d; nv_mark(attr_message(a)); }

static void set_slot(NvtxFunctionTable t, unsigned n, unsigned id, NvtxFunctionPointer f)
{
	if (t && id < n && t[id])
		*t[id] = f;
}

/* Called by the program's NVTX at its first NVTX call. */
int NVTX_API InitializeInjectionNvtx2(NvtxGetExportTableFunc_t get);
int NVTX_API InitializeInjectionNvtx2(NvtxGetExportTableFunc_t get)
{
	const NvtxExportTableCallbacks *cb = get ? get(NVTX_ETID_CALLBACKS) : NULL;
	if (!cb || !cb->GetModuleFunctionTable)
		return 0;
	NvtxFunctionTable t = NULL;
	unsigned n = 0;
	if (cb->GetModuleFunctionTable(NVTX_CB_MODULE_CORE, &t, &n)) {
		set_slot(t, n, NVTX_CBID_CORE_RangePushA, (NvtxFunctionPointer)nv_push_a);
		set_slot(t, n, NVTX_CBID_CORE_RangePushEx, (NvtxFunctionPointer)nv_push_ex);
		set_slot(t, n, NVTX_CBID_CORE_RangePop, (NvtxFunctionPointer)nv_pop);
		set_slot(t, n, NVTX_CBID_CORE_MarkA, (NvtxFunctionPointer)nv_mark_a);
		set_slot(t, n, NVTX_CBID_CORE_MarkEx, (NvtxFunctionPointer)nv_mark_ex);
	}
	t = NULL;
	n = 0;
	if (cb->GetModuleFunctionTable(NVTX_CB_MODULE_CORE2, &t, &n)) {
		set_slot(t, n, NVTX_CBID_CORE2_DomainRangePushEx, (NvtxFunctionPointer)nv_dom_push_ex);
		set_slot(t, n, NVTX_CBID_CORE2_DomainRangePop, (NvtxFunctionPointer)nv_dom_pop);
		set_slot(t, n, NVTX_CBID_CORE2_DomainMarkEx, (NvtxFunctionPointer)nv_dom_mark_ex);
		set_slot(t, n, NVTX_CBID_CORE2_DomainCreateA, (NvtxFunctionPointer)nv_dom_create);
		set_slot(t, n, NVTX_CBID_CORE2_DomainDestroy, (NvtxFunctionPointer)nv_dom_destroy);
		set_slot(t, n, NVTX_CBID_CORE2_DomainRegisterStringA, (NvtxFunctionPointer)nv_dom_register_string);
	}
	if (g.verbose || getenv("ATTNPROF_INJECT_VERBOSE"))
		fprintf(stderr, "attnprof-inject: NVTX attached in pid %d\n", (int)getpid());
	return 1;
}

static int capture_delta(CUpti_CallbackId cbid)
{
	switch (cbid) {
	case CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture:
	case CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_ptsz:
	case CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2:
	case CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2_ptsz:
	case CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCaptureToGraph:
	case CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCaptureToGraph_ptsz:
		return 1;
	case CUPTI_DRIVER_TRACE_CBID_cuStreamEndCapture:
	case CUPTI_DRIVER_TRACE_CBID_cuStreamEndCapture_ptsz:
		return -1;
	default:
		return 0;
	}
}

static int is_graph_launch(CUpti_CallbackId cbid)
{
	return cbid == CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch || cbid == CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz;
}

/* The demangled name of a launched kernel (malloc'd), or NULL when it is
 * not a mangled C++ name (Triton's, cuDNN's generated kernels). */
static char *demangled(const char *symbol)
{
	if (!symbol || strncmp(symbol, "_Z", 2))
		return NULL;
	int st = 0;
	char *dm = __cxa_demangle(symbol, NULL, NULL, &st);
	if (st) {
		free(dm);
		return NULL;
	}
	return dm;
}

/* Kernel-launch mode: does the launched kernel's name (mangled, as the
 * driver has it, or demangled, as the records have it) match? */
static int launch_matches(const char *symbol)
{
	if (!symbol)
		return 0;
	if (!regexec(&g.kernel_re, symbol, 0, NULL, 0))
		return 1;
	char *dm = demangled(symbol);
	int m = dm && !regexec(&g.kernel_re, dm, 0, NULL, 0);
	free(dm);
	return m;
}

/* The scan's verdict on a launched kernel.  Every launch outside a range
 * asks, and a program launches the same few kernels thousands of times:
 * the answer is kept per kernel name, so a name is demangled and matched
 * against the family table once.  The table has a lock of its own, never
 * held across a CUDA call, so the program's other threads ask without
 * waiting for g.lock. */

static struct scan_seen {
	char *symbol;
	char *dm;              /* demangled, or NULL */
	const struct family_rule *rule;
	const char *pass;
	int aux;
	const char *cand;      /* why it is a candidate (candidate_pattern), or NULL */
} seen[256];

static struct scan_seen *scan_kernel_locked(const char *symbol)
{
	size_t h = 5381;
	for (const char *c = symbol; *c; c++)
		h = h * 33 + (unsigned char)*c;
	h %= sizeof seen / sizeof seen[0];
	struct scan_seen *e = &seen[h];
	if (!e->symbol || strcmp(e->symbol, symbol)) {
		free(e->symbol);
		free(e->dm);
		e->dm = demangled(symbol);
		const char *name = e->dm ? e->dm : symbol;
		e->symbol = strdup(symbol);
		e->pass = NULL;
		e->rule = family_scan(name, &e->pass);
		e->aux = 0;
		if (!e->rule) /* an auxiliary kernel of a scanned family: part of the call next to it */
			e->aux = (e->rule = family_scan_aux(name, &e->pass)) != NULL;
		e->cand = candidate_pattern(name, g.scan);
		if (!e->rule && e->cand)
			e->pass = family_kernel_pass(name);
		if (!e->symbol) { /* no memory: the answer for this launch only */
			free(e->dm);
			e->dm = NULL;
		}
	}
	return e;
}

/* The scan's verdict: the family rule of a kernel the scan takes (NULL:
 * none), its pass, whether it is an auxiliary kernel, and *cand, why a
 * kernel of no rule is a candidate (with --scan on, a call of its own). */
static const struct family_rule *scan_kernel(const char *symbol, const char **pass, int *aux, const char **cand)
{
	pthread_mutex_lock(&scan_lock);
	const struct scan_seen *e = scan_kernel_locked(symbol);
	const struct family_rule *r = e->rule;
	*pass = e->pass;
	if (aux)
		*aux = e->aux;
	if (cand)
		*cand = e->cand;
	pthread_mutex_unlock(&scan_lock);
	return r;
}

/* The base name of a launched kernel (candidates.h), for a call's impl. */
static void kernel_base_name(const char *symbol, char *buf, size_t len)
{
	pthread_mutex_lock(&scan_lock);
	const struct scan_seen *e = scan_kernel_locked(symbol);
	struct candidate k = { .name = (char *)symbol, .demangled = e->dm };
	candidate_base_name(&k, buf, len);
	pthread_mutex_unlock(&scan_lock);
}

/* A launch's grid and block (zeros where the launch call has none). */
static void launch_dims(CUpti_CallbackId cbid, const void *params, int grid[3], int block[3])
{
	memset(grid, 0, 3 * sizeof *grid);
	memset(block, 0, 3 * sizeof *block);
	if (cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel || cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz) {
		const cuLaunchKernel_params *p = params; /* the _ptsz parameters have the same layout */
		grid[0] = (int)p->gridDimX, grid[1] = (int)p->gridDimY, grid[2] = (int)p->gridDimZ;
		block[0] = (int)p->blockDimX, block[1] = (int)p->blockDimY, block[2] = (int)p->blockDimZ;
	} else if (cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx || cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz) {
		const CUlaunchConfig *c = ((const cuLaunchKernelEx_params *)params)->config;
		if (c) {
			grid[0] = (int)c->gridDimX, grid[1] = (int)c->gridDimY, grid[2] = (int)c->gridDimZ;
			block[0] = (int)c->blockDimX, block[1] = (int)c->blockDimY, block[2] = (int)c->blockDimZ;
		}
	}
}

/* A launch outside every range of ours (and outside a graph capture): a
 * candidate's is counted, captured when it became a call. */
static void tally_candidate(CUpti_CallbackId cbid, const CUpti_CallbackData *d, long launches, long captured)
{
	if (!d->symbolName)
		return;
	int grid[3], block[3];
	launch_dims(cbid, d->functionParams, grid, block);
	pthread_mutex_lock(&scan_lock);
	const struct scan_seen *e = scan_kernel_locked(d->symbolName);
	if (e->cand && candidates_add(&cands, d->symbolName, e->dm, e->cand, grid, block, launches, captured, 0))
		fprintf(stderr, "attnprof-inject: %s\n", error_last());
	pthread_mutex_unlock(&scan_lock);
}

/* The stream a kernel launch goes to (0: the legacy default stream; a
 * per-thread launch's default stream is CU_STREAM_PER_THREAD). */
/* The stream a graph launch goes to (as launch_stream). */
static uint64_t launch_stream_graph(CUpti_CallbackId cbid, const void *params)
{
	CUstream st = ((const cuGraphLaunch_params *)params)->hStream; /* the _ptsz parameters have the same layout */
	if (!st && cbid == CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz)
		return (uint64_t)(uintptr_t)CU_STREAM_PER_THREAD;
	return (uint64_t)(uintptr_t)st;
}

static uint64_t launch_stream(CUpti_CallbackId cbid, const void *params)
{
	CUstream s = NULL;
	switch (cbid) {
	case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel: s = ((const cuLaunchKernel_params *)params)->hStream; break;
	case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz:
		s = ((const cuLaunchKernel_ptsz_params *)params)->hStream;
		return s ? (uint64_t)(uintptr_t)s : (uint64_t)(uintptr_t)CU_STREAM_PER_THREAD;
	case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx:
	case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz: {
		const CUlaunchConfig *c = ((const cuLaunchKernelEx_params *)params)->config;
		s = c ? c->hStream : NULL;
		if (!s && cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz)
			return (uint64_t)(uintptr_t)CU_STREAM_PER_THREAD;
		break;
	}
	default: break;
	}
	return (uint64_t)(uintptr_t)s;
}

static int is_kernel_launch(CUpti_CallbackId cbid)
{
	return cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel || cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz ||
	       cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx || cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz;
}

/* CUDA graph launches inside a captured call are counted (not profiled).
 * In kernel-launch mode a matching kernel launched outside any range, on
 * a thread with no call open, is a call of its own: profiled from the
 * launch's entry to its exit. */
/* The bytes a driver allocation call asks for (0: not an allocation). */
static double alloc_size(CUpti_CallbackId cbid, const void *params)
{
	switch (cbid) {
	case CUPTI_DRIVER_TRACE_CBID_cuMemAlloc_v2: return (double)((const cuMemAlloc_v2_params *)params)->bytesize;
	case CUPTI_DRIVER_TRACE_CBID_cuMemCreate: return (double)((const cuMemCreate_params *)params)->size;
	case CUPTI_DRIVER_TRACE_CBID_cuMemAllocAsync: return (double)((const cuMemAllocAsync_params *)params)->bytesize;
	case CUPTI_DRIVER_TRACE_CBID_cuMemAllocFromPoolAsync:
		return (double)((const cuMemAllocFromPoolAsync_params *)params)->bytesize;
	default: return 0;
	}
}

/* Another thread launches while a call is profiled: the launch waits for
 * the call's end, polling, at most FOREIGN_WAIT_MS (no lock is taken: the
 * call's thread may need this one to go on, and a wait that runs out stops
 * the waiting for the rest of the process).  A launch that goes ahead
 * inside the call is remembered, and end_call drops its kernel. */
static void foreign_launch_wait(const CUpti_CallbackData *d)
{
	if (__atomic_load_n(&g.active, __ATOMIC_ACQUIRE) != 1 || !g.cupti)
		return;
	if (!__atomic_load_n(&g.foreign_nowait, __ATOMIC_RELAXED)) {
		TRACE("launch of '%.80s' waits for the call's end", d->symbolName ? d->symbolName : "?");
		__atomic_add_fetch(&g.foreign_waited, 1, __ATOMIC_RELAXED);
		double t0 = now_ms();
		while (__atomic_load_n(&g.active, __ATOMIC_ACQUIRE) == 1 && now_ms() - t0 < FOREIGN_WAIT_MS)
			usleep(100);
		if (__atomic_load_n(&g.active, __ATOMIC_ACQUIRE) != 1)
			return;
		__atomic_store_n(&g.foreign_nowait, 1, __ATOMIC_RELAXED);
		fprintf(stderr, "attnprof-inject: a launch on another thread waited %d s for call %ld to end: "
				"launches no longer wait (their kernels are dropped from the calls they fall in)\n",
			FOREIGN_WAIT_MS / 1000, g.index);
	}
	int k = __atomic_fetch_add(&g.nforeign, 1, __ATOMIC_ACQ_REL);
	if (k < FOREIGN_MAX)
		g.foreign[k] = d->correlationId;
}

static void CUPTIAPI on_callback(void *userdata, CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
				 const void *cbdata)
{
	(void)userdata;
	if (domain == CUPTI_CB_DOMAIN_RESOURCE && g.graphs) {
		on_graph_resource(cbid, cbdata);
		return;
	}
	if (domain != CUPTI_CB_DOMAIN_DRIVER_API || in_callback || g.disabled)
		return;
	if (g.graphs && (cbid == CUPTI_DRIVER_TRACE_CBID_cuGraphExecUpdate || cbid == CUPTI_DRIVER_TRACE_CBID_cuGraphExecUpdate_v2)) {
		const CUpti_CallbackData *ud = cbdata;
		uint32_t eid = 0;
		const CUgraphExec *exec = ud->functionParams; /* hGraphExec is both versions' first parameter */
		if (ud->callbackSite == CUPTI_API_EXIT && exec && cuptiGetGraphExecId(*exec, &eid) == CUPTI_SUCCESS) {
			pthread_mutex_lock(&gr_lock);
			graphs_exec_updated(&gr, eid);
			pthread_mutex_unlock(&gr_lock);
		}
		return;
	}
	const int cap = capture_delta(cbid);
	if (cap) { /* counted when the begin succeeded, and at every end (a failed end ends it too) */
		const CUpti_CallbackData *cd = cbdata;
		if (cap > 0 && cd->callbackSite == CUPTI_API_ENTER && g.active == 1 && pthread_equal(g.thread, pthread_self())) {
			/* a graph capture begins inside the call (XLA's command-buffer
			 * thunk records its graph at the first run): the call ends
			 * before it, as the profiler's CUDA calls inside a capture
			 * invalidate it (H200 2026-12-02 08:23: CUPTI_ERROR_UNKNOWN,
			 * then the program stopped until --timeout) */
			lock_tool();
			static int said;
			if (g.active == 1) {
				g.pending = 0;
				if (!said++)
					note_header("a call in progress when the program began capturing a CUDA graph was ended there "
						    "(its kernels before the capture are the call's; docs/capture.md)");
				end_call();
			}
			unlock_tool();
		}
		if (cd->callbackSite == CUPTI_API_EXIT &&
		    (cap < 0 || !cd->functionReturnValue || *(const CUresult *)cd->functionReturnValue == CUDA_SUCCESS))
			__atomic_add_fetch(&g.captures, cap, __ATOMIC_ACQ_REL);
		return;
	}
	if (is_kernel_launch(cbid) && ((const CUpti_CallbackData *)cbdata)->callbackSite == CUPTI_API_ENTER)
		thread_launches++;
	/* most launches are the program's own, outside any call: no lock for them
	 * (g.active and g.thread change only on the call's own thread) */
	int own_call = g.active == 1 && pthread_equal(g.thread, pthread_self());
	if (!own_call && (is_kernel_launch(cbid) || is_graph_launch(cbid)) &&
	    ((const CUpti_CallbackData *)cbdata)->callbackSite == CUPTI_API_ENTER)
		foreign_launch_wait((const CUpti_CallbackData *)cbdata);
	if (own_call && g.pending) { /* a launch outside the call's thunks: the call ended before it */
		lock_tool();
		end_pending();
		unlock_tool();
		own_call = 0;
	}
	if (!own_call && depth == 0 && is_kernel_launch(cbid) &&
	    ((const CUpti_CallbackData *)cbdata)->callbackSite == CUPTI_API_ENTER &&
	    __atomic_load_n(&g.captures, __ATOMIC_ACQUIRE) <= 0) /* not capture_in_progress: no lock held here */
		tally_candidate(cbid, cbdata, 1, 0);
	if (g.workload && !own_call && depth > 0 && (is_kernel_launch(cbid) || is_graph_launch(cbid)) &&
	    ((const CUpti_CallbackData *)cbdata)->callbackSite == CUPTI_API_ENTER) {
		/* inside a range of attnprof's that is no call (the helper's checks): nobody's work */
		pthread_mutex_lock(&gr_lock);
		corr_add(&ours_corr, ((const CUpti_CallbackData *)cbdata)->correlationId);
		pthread_mutex_unlock(&gr_lock);
	}
	if (launch_site && is_kernel_launch(cbid) && ((const CUpti_CallbackData *)cbdata)->callbackSite == CUPTI_API_EXIT) {
		launch_site = 0; /* the scanned kernel's nodes are made */
		pthread_mutex_lock(&gr_lock);
		graphs_site_end(&gr, thread_id());
		pthread_mutex_unlock(&gr_lock);
	}
	if (!own_call && !((g.kernel_shape || g.scan) && !g.active && depth == 0) && !is_graph_launch(cbid))
		return;
	const CUpti_CallbackData *d = cbdata;
	/* new device memory inside a call (capture.alloc_bytes) */
	const double asked = own_call && d->callbackSite == CUPTI_API_ENTER ? alloc_size(cbid, d->functionParams) : 0;
	if (asked > 0) {
		g.alloc_bytes += asked;
		g.settle_pending = g.in_window && g.settle_ms > 0;
		return;
	}
	if (is_graph_launch(cbid)) {
		if (d->callbackSite == CUPTI_API_ENTER && g.active && pthread_equal(g.thread, pthread_self()))
			g.graph_launches++;
		if (d->callbackSite == CUPTI_API_ENTER && g.program_activity) {
			/* a replay (graphs.h); one inside an attention range is attention's work */
			const CUgraphExec *exec = d->functionParams; /* hGraph, then hStream: both versions */
			uint32_t eid = 0;
			/* CUPTI's getters before gr_lock: the activity sink holds it inside CUPTI's buffer callback */
			const int have = g.graphs && exec && cuptiGetGraphExecId(*exec, &eid) == CUPTI_SUCCESS;
			pthread_mutex_lock(&gr_lock);
			if (have && graphs_launch(&gr, eid, d->correlationId, launch_stream_graph(cbid, d->functionParams), thread_id()))
				fprintf(stderr, "attnprof-inject: %s\n", error_last());
			if (g.workload && own_call)
				corr_add(&att_corr, d->correlationId);
			pthread_mutex_unlock(&gr_lock);
			if (own_call && !g.floor_set) { /* a call whose first work is a graph: its records from here on */
				cupti_activity_floor(d->correlationId);
				g.floor_set = 1;
			}
		}
		return;
	}
	/* Another thread's launch (not the call's) takes g.lock only when it
	 * may open a call: at its entry, and for the scan only when the kernel
	 * is an attention kernel.  A thread waiting for g.lock inside a launch
	 * while the call's thread profiles is how a multi-threaded program
	 * can stop (threads_streams.py under record, H200 2026-12-02 08:15: one
	 * run of two stopped until --timeout). */
	if (!own_call) {
		const char *scan_pass = NULL, *cand = NULL;
		if (d->callbackSite != CUPTI_API_ENTER)
			return;
		if (g.scan && !g.kernel_shape && (!d->symbolName || (!scan_kernel(d->symbolName, &scan_pass, NULL, &cand) && !cand)))
			return;
	}
	lock_tool();
	TRACE("launch %s '%.80s'%s", d->callbackSite == CUPTI_API_ENTER ? "enters" : "returns",
	      d->symbolName ? d->symbolName : "?", own_call ? " (the call's)" : "");
	if (g.ready && d->callbackSite == CUPTI_API_ENTER) {
		if ((g.kernel_shape || g.scan) && !g.active && depth == 0 && capture_in_progress()) {
			/* left alone, counted once in the notes; with --graphs on a kernel the scan
			 * (or --kernel-regex) takes is an in-graph call site for this launch */
			const char *pass = NULL, *cand = NULL;
			int aux = 0;
			const struct family_rule *fr = g.graphs && d->symbolName ? scan_kernel(d->symbolName, &pass, &aux, &cand) : NULL;
			const int match = g.graphs && d->symbolName &&
					  (g.kernel_shape ? launch_matches(d->symbolName) : ((fr && !aux) || (!fr && cand)));
			if (match) {
				char name[200], base[64];
				if (g.kernel_shape)
					snprintf(name, sizeof name, "%s", g.kernel_shape);
				else {
					if (fr)
						snprintf(base, sizeof base, "%s", fr->family);
					else
						kernel_base_name(d->symbolName, base, sizeof base);
					snprintf(name, sizeof name, RANGE_PREFIX " impl=%s pass=%s", base, pass);
				}
				g.seen++;
				pthread_mutex_lock(&gr_lock);
				launch_site = graphs_site_begin(&gr, name, g.seen - 1, thread_id()) >= 0;
				pthread_mutex_unlock(&gr_lock);
			}
		} else if (g.kernel_shape && !g.active && depth == 0 && launch_matches(d->symbolName)) {
			g.seen++;
			if (g.seen > g.skip && (g.max < 0 || g.captured < g.max)) {
				begin_call(g.kernel_shape, "kernel-regex");
				/* forward or backward by the kernel's family role, not the --shape's pass */
				const char *pass = NULL;
				if (d->symbolName && scan_kernel(d->symbolName, &pass, NULL, NULL) && pass_parse(pass, &g.id.shape.pass))
					g.id.shape.pass = PASS_FWD;
				g.launch_call = g.active != 0;
			}
		} else if (g.scan && !g.kernel_shape && !g.active && depth == 0 && d->symbolName) {
			const char *pass = NULL, *cand = NULL;
			int aux = 0;
			const struct family_rule *fr = scan_kernel(d->symbolName, &pass, &aux, &cand);
			/* an auxiliary kernel opens no call: profiled on its own, it joins the pass
			 * launched next to it when the parts are merged (capture/group.h); a
			 * kernel of no rule whose name looks like attention is a call of its
			 * own, named after the kernel, family unknown (capture/candidates.h) */
			if ((fr && !aux) || (!fr && cand))
				g.seen++;
			if ((fr || cand) && (aux ? g.seen >= g.skip : g.seen > g.skip) && (g.max < 0 || g.captured < g.max)) {
				char name[200], base[64];
				if (fr)
					snprintf(base, sizeof base, "%s", fr->family);
				else
					kernel_base_name(d->symbolName, base, sizeof base);
				snprintf(name, sizeof name, RANGE_PREFIX " impl=%s pass=%s", base, pass);
				g.call_tid = (int)syscall(SYS_gettid);
				g.call_stream = launch_stream(cbid, d->functionParams);
				g.call_launch = thread_launches;
				g.aux_call = aux;
				begin_call(name, !fr ? "name-scan" : aux ? GROUP_AUX_ORIGIN : "family-scan");
				g.launch_call = g.active != 0;
				if (!fr && g.active)
					tally_candidate(cbid, d, 0, 1);
			}
		}
		if (g.active == 1 && pthread_equal(g.thread, pthread_self()) && is_kernel_launch(cbid) && g.program_activity) {
			if (!g.floor_set) { /* the call's records are those of its launches from here on */
				cupti_activity_floor(d->correlationId);
				g.floor_set = 1;
			}
			if (g.workload) {
				pthread_mutex_lock(&gr_lock);
				corr_add(&att_corr, d->correlationId);
				pthread_mutex_unlock(&gr_lock);
			}
		}
		if (g.active == 1 && pthread_equal(g.thread, pthread_self())) {
			/* no CUDA launch here: a kernel launched from inside a launch
			 * callback broke the program's launch and hung it (H200,
			 * 2026-12-01); the flush is in begin_call */
			if (g.in_window) {
				if (g.settle_pending) {
					usleep((useconds_t)g.settle_ms * 1000);
					g.settle_pending = 0;
				}
				int q = error_quiet(1);
				int pr = cupti_window_push(g.cupti, d->correlationId);
				if (pr == 1) { /* full inside a call of over CUPTI_MAX_RANGES / 2 kernels: its calls out, a new one in */
					close_window();
					g.window_since = now_ms();
					pr = cupti_window_open(g.cupti) || cupti_window_push(g.cupti, d->correlationId);
				}
				if (pr)
					fprintf(stderr, "attnprof-inject: kernel of call %ld not profiled: %s\n", g.index, error_last());
				error_quiet(q);
			}
		}
	} else if (g.ready && d->callbackSite == CUPTI_API_EXIT && g.active == 1 && g.in_window &&
		   pthread_equal(g.thread, pthread_self())) {
		cupti_window_pop(g.cupti);
		if (g.launch_call) {
			g.launch_call = 0;
			end_call();
		}
	} else if (g.ready && d->callbackSite == CUPTI_API_EXIT && g.active && g.launch_call &&
		   pthread_equal(g.thread, pthread_self())) {
		g.launch_call = 0;
		end_call();
	}
	unlock_tool();
}

static void finish(void)
{
	if (in_callback) {
		/* exit() from inside our own code: a library called it while we
		 * stopped a call's profiling (H200 2026-12-02 18:10, "python3: :
		 * <errno text>" from inside CUPTI's end of a call, three runs of
		 * three).  This thread holds the lock: taking it again stopped the
		 * program for good.  What was recorded is written as it stands. */
		note_header("the program exited from inside the profiler's end of a call (a library called exit "
			    "there): that call was not recorded; the calls before it are");
		/* record reads it: the program did not run to its end (merge.h exits_inside) */
		free(g.res.header.program_exit);
		g.res.header.program_exit = strdup("exited from inside the profiler's end of a call (a library called exit there)");
		g.active = 0;
		save_part(1);
		g.ready = 0;
		return;
	}
	/* another thread may hold the lock and never give it back (it is stopped
	 * in the profiler): the exit goes on after a while rather than never */
	struct timespec until;
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += 5;
	if (pthread_mutex_timedlock(&g.lock, &until)) {
		fprintf(stderr, "attnprof-inject: the program exits while another thread is inside the profiler: "
				"the last second's calls may be missing from %s\n", g.part);
		return;
	}
	in_callback++;
	if (g.ready) {
		if (g.active && g.pending) { /* its last thunk ran: a whole call */
			g.pending = 0;
			end_call();
		}
		if (g.active) {
			if (g.cupti && !g.in_window)
				cupti_call_abort(g.cupti);
			g.active = 0;
			g.in_window = 0;
			note_header("the program exited inside an attention range: that call was not recorded");
		}
		close_window();
		if (g.program_activity) { /* every kernel's record in, then the in-graph calls (graphs.h) */
			cupti_activity_flush();
			settle_graphs(1);
		}
		if (g.foreign_waited || g.foreign_dropped) {
			char line[300];
			snprintf(line, sizeof line,
				 "%d kernel launches of other threads waited for a call in progress to end, so that a "
				 "call's profile holds its own kernels; %d that went ahead were left out of the calls "
				 "(docs/capture.md)", g.foreign_waited, g.foreign_dropped);
			note_header(line);
		}
		save_part(1);
		if (g.cupti)
			cupti_session_close(g.cupti);
		g.cupti = NULL;
		g.ready = 0;
	}
	unlock_tool();
}

static void split_metrics(const char *list)
{
	char *copy = strdup(list ? list : "");
	if (!copy)
		return;
	size_t n = 1;
	for (const char *p = copy; *p; p++)
		n += *p == ',';
	g.metrics = calloc(n, sizeof *g.metrics);
	for (char *tok = strtok(copy, ","); tok && g.metrics; tok = strtok(NULL, ","))
		if (*tok)
			g.metrics[g.nmetrics++] = strdup(tok);
	free(copy);
}

static int self_cmdline(char *buf, size_t len)
{
	FILE *f = fopen("/proc/self/cmdline", "r");
	if (!f)
		return -1;
	size_t n = fread(buf, 1, len - 1, f);
	fclose(f);
	for (size_t i = 0; i + 1 < n; i++)
		if (!buf[i])
			buf[i] = ' ';
	buf[n] = '\0';
	return 0;
}

/* Called by the CUDA driver during cuInit (CUDA_INJECTION64_PATH). */
int InitializeInjection(void);
int InitializeInjection(void)
{
	pthread_mutex_lock(&g.lock);
	if (g.ready) {
		pthread_mutex_unlock(&g.lock);
		return 1;
	}
	error_progname = "attnprof-inject";
	const char *dir = getenv("ATTNPROF_INJECT_DIR");
	if (!dir || !*dir) {
		fprintf(stderr, "attnprof-inject: ATTNPROF_INJECT_DIR is not set: run the program under 'attnprof record -o FILE -- CMD'\n");
		pthread_mutex_unlock(&g.lock);
		return 0;
	}
	snprintf(g.dir, sizeof g.dir, "%s", dir);
	snprintf(g.part, sizeof g.part, "%s/part-%d.yaml", dir, (int)getpid());
	split_metrics(getenv("ATTNPROF_INJECT_METRICS"));
	g.metric_set = xstrdup(getenv("ATTNPROF_INJECT_METRIC_SET"));
	const char *inc = getenv("ATTNPROF_INJECT_NVTX_INCLUDE");
	g.include = strdup(inc && *inc ? inc : RANGE_PREFIX "*");
	const char *re = getenv("ATTNPROF_INJECT_KERNEL_REGEX");
	if (re && *re) {
		if (regcomp(&g.kernel_re, re, REG_EXTENDED | REG_NOSUB))
			fprintf(stderr, "attnprof-inject: --kernel-regex '%s' is not a valid extended regular expression: ignored\n", re);
		else
			g.have_re = 1;
	}
	const char *shape = getenv("ATTNPROF_INJECT_KERNEL_SHAPE");
	if (shape && *shape && g.have_re)
		g.kernel_shape = strdup(shape);
	g.flush = env_long("ATTNPROF_INJECT_FLUSH", 1) != 0 && g.nmetrics > 0;
	g.window = env_long("ATTNPROF_INJECT_WINDOW", 0) != 0 && g.nmetrics > 0;
	g.app_replay = env_long("ATTNPROF_INJECT_APP_REPLAY", 0) != 0;
	g.settle_ms = env_long("ATTNPROF_INJECT_WINDOW_SETTLE_MS", 0);
	results_init(&g.pend);
	g.skip = env_long("ATTNPROF_INJECT_SKIP_CALLS", 0);
	g.max = env_long("ATTNPROF_INJECT_MAX_CALLS", -1);
	g.mstatus = METRICS_NOT_REQUESTED;
	g.verbose = env_long("ATTNPROF_INJECT_VERBOSE", 0) >= 1;
	g.trace = env_long("ATTNPROF_INJECT_VERBOSE", 0) == 2;
	g.scan = env_long("ATTNPROF_INJECT_SCAN", 0) == 1;
	g.graphs = (int)env_long("ATTNPROF_INJECT_GRAPHS", 0);
	if (g.graphs != 1 && g.graphs != 2)
		g.graphs = 0;
	g.workload = env_long("ATTNPROF_INJECT_WORKLOAD", 0) == 1;
	const char *fam = getenv("ATTNPROF_INJECT_FAMILIES");
	if (fam && *fam && family_load(fam))
		fprintf(stderr, "attnprof-inject: --families not used in this process: %s\n", error_last());

	results_init(&g.res);
	char cmd[4096] = "";
	self_cmdline(cmd, sizeof cmd);
	g.res.header.tool_version = strdup(ATTNPROF_VERSION);
	g.res.header.command_line = strdup(cmd);

	CUpti_SubscriberHandle sub;
	CUptiResult r = cuptiSubscribe(&sub, on_callback, NULL);
	if (r != CUPTI_SUCCESS) {
		const char *why = NULL;
		cuptiGetResultString(r, &why);
		char buf[600];
		snprintf(buf, sizeof buf,
			 "cannot subscribe to CUPTI (%s): another CUPTI client holds it in this process "
			 "(torch.profiler, Nsight, another tool); nothing was captured",
			 why ? why : "?");
		fprintf(stderr, "attnprof-inject: %s\n", buf);
		g.res.header.notes = strdup(buf);
		g.ready = 1;
		save_part(1);
		g.ready = 0;
		pthread_mutex_unlock(&g.lock);
		return 1;
	}
	cuptiEnableCallback(1, sub, CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch);
	cuptiEnableCallback(1, sub, CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz);
	static const CUpti_CallbackId captures[] = {
		CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture, CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_ptsz,
		CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2, CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2_ptsz,
		CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCaptureToGraph, CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCaptureToGraph_ptsz,
		CUPTI_DRIVER_TRACE_CBID_cuStreamEndCapture, CUPTI_DRIVER_TRACE_CBID_cuStreamEndCapture_ptsz,
	};
	for (size_t i = 0; i < sizeof captures / sizeof captures[0]; i++)
		cuptiEnableCallback(1, sub, CUPTI_CB_DOMAIN_DRIVER_API, captures[i]);
	{ /* every mode: launches outside the ranges are counted for the candidates (candidates.h) */
		static const CUpti_CallbackId launches[] = {
			CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
			CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz,
		};
		for (size_t i = 0; i < sizeof launches / sizeof launches[0]; i++)
			cuptiEnableCallback(1, sub, CUPTI_CB_DOMAIN_DRIVER_API, launches[i]);
	}
	if (g.graphs) {
		static const CUpti_CallbackId res_cbids[] = {
			CUPTI_CBID_RESOURCE_GRAPHNODE_CREATED, CUPTI_CBID_RESOURCE_GRAPHNODE_CLONED,
			CUPTI_CBID_RESOURCE_GRAPHEXEC_CREATED, CUPTI_CBID_RESOURCE_GRAPH_NODE_SET_PARAMS,
		};
		for (size_t i = 0; i < sizeof res_cbids / sizeof res_cbids[0]; i++)
			cuptiEnableCallback(1, sub, CUPTI_CB_DOMAIN_RESOURCE, res_cbids[i]);
		cuptiEnableCallback(1, sub, CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuGraphExecUpdate);
		cuptiEnableCallback(1, sub, CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuGraphExecUpdate_v2);
	}
	if (g.graphs || g.workload) {
		int q = error_quiet(1);
		if (cupti_activity_program(on_kernel_record, NULL)) {
			fprintf(stderr, "attnprof-inject: %s: no in-graph calls, no workload\n", error_last());
			char line[400];
			snprintf(line, sizeof line, "--graphs/--workload: %s (no in-graph calls, no workload)", error_last());
			g.res.header.notes = strdup(line);
			g.graphs = g.workload = 0;
		} else
			g.program_activity = 1;
		error_quiet(q);
	}
	static const CUpti_CallbackId allocs[] = {
		CUPTI_DRIVER_TRACE_CBID_cuMemAlloc_v2, CUPTI_DRIVER_TRACE_CBID_cuMemCreate,
		CUPTI_DRIVER_TRACE_CBID_cuMemAllocAsync, CUPTI_DRIVER_TRACE_CBID_cuMemAllocFromPoolAsync,
	};
	for (size_t i = 0; i < sizeof allocs / sizeof allocs[0]; i++)
		cuptiEnableCallback(1, sub, CUPTI_CB_DOMAIN_DRIVER_API, allocs[i]);
	if (g.verbose)
		fprintf(stderr, "attnprof-inject: loaded in pid %d, part %s, %zu metrics, NVTX_INJECTION64_PATH=%s\n",
			(int)getpid(), g.part, g.nmetrics, getenv("NVTX_INJECTION64_PATH") ? getenv("NVTX_INJECTION64_PATH") : "(unset)");
	g.ready = 1;
	save_part(1); /* the part exists from the start: `record` knows we were loaded */
	atexit(finish);
	pthread_mutex_unlock(&g.lock);
	return 1;
}
