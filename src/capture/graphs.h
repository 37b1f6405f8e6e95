/* graphs.h: attention calls inside CUDA graphs, followed from their capture
 * to every replay.
 *
 * A call that a program makes while it captures a stream into a graph
 * (torch.cuda.CUDAGraph, torch.compile's reduce-overhead, XLA's command
 * buffers, a serving stack's decode loop) launches nothing: its kernels
 * become graph nodes, and they run when the graph is replayed, outside
 * any range.  This module keeps what the injection library sees of them,
 * as events in the order they happen, and turns them into calls:
 *
 *   graphs_site_begin/_end   an attention range (or a kernel the scan
 *                            takes) opens and closes on a thread while a
 *                            capture is under way: a call site
 *   graphs_node_created      a node is added to a graph (CUPTI's resource
 *                            callback GRAPHNODE_CREATED, on the thread that
 *                            adds it): it belongs to the site open on that
 *                            thread, if one is (a site's nodes all belong to
 *                            one graph: a node of another graph while the site
 *                            is open is left out and counted; a second
 *                            callback for a node already seen is counted once)
 *   graphs_node_cloned       a node copied (instantiation, cuGraphClone;
 *                            GRAPHNODE_CLONED): the copy keeps the site
 *                            (CUPTI reports the copy as created first: one
 *                            made inside an open call, counted as another
 *                            graph's, becomes the call's here)
 *   graphs_exec_created      an executable graph instantiated from a graph
 *   graphs_exec_updated      an executable graph's nodes changed
 *                            (cuGraphExecUpdate, a node's parameters set in
 *                            it): its later replays are a new version
 *   graphs_launch            a replay (cuGraphLaunch): its correlation id,
 *                            stream and thread
 *   graphs_kernel            a kernel's activity record, with the node id and
 *                            the correlation id of the graph launch it ran in
 *
 * A site replayed many times is one call per (executable graph, version):
 * its replays are the graph launches whose records hold its nodes'
 * kernels, each replay's time the sum of those kernels' durations; the
 * call's time is the median over replays with its minimum and maximum
 * (graphs_records; per replay as well with an option).  What a replay
 * must hold is what ran: every node of the site (a clone counts as the
 * node it was cloned from) whose kernel is in any replay of that
 * executable graph and version.  A node created during the capture that
 * runs no kernel is not waited for: a memset or memcpy node (its record
 * is no kernel's), a node CUPTI reports with a kernel's type that runs
 * none, one removed before instantiation; such nodes are counted in the
 * notes.  (Counting the kernel-typed nodes seen at creation made every
 * replay of the H100 2026-12-07 torch.cuda.CUDAGraph SDPA call
 * "incomplete": one kernel ran in each, and that count was not one.)
 * A replay missing some of the kernels that ran in the others (activity
 * records dropped) is left out of the times and counted.  Nothing here
 * depends on the stream or thread a graph is launched from: a graph
 * captured on one stream and replayed on another, or from several
 * threads, is followed by node and correlation id.
 * Pure logic: no GPU (tests/unit/test_graphs.c drives it with recorded
 * sequences).
 */
#ifndef ATTNPROF_GRAPHS_H
#define ATTNPROF_GRAPHS_H

#include <stddef.h>
#include <stdint.h>

#include "results.h"

/* CUDA's CUgraphNodeType of a kernel node (CU_GRAPH_NODE_TYPE_KERNEL;
 * the injection library asserts they agree). */
#define GRAPHS_NODE_KERNEL 0

struct graph_kernel {
	size_t site;
	uint64_t node;
	uint64_t root;         /* the node created in the site that this one is (a clone's original) */
	uint32_t exec;         /* the executable graph of its replay (0: the launch was not seen) */
	int version;           /* that graph's version at the launch */
	uint32_t correlation;  /* the graph launch's */
	uint64_t start_ns, end_ns;
	char *name;
	int grid[3], block[3];
	int registers, static_smem, dynamic_smem;
};

struct graph_site {
	char *range;           /* the call's range name (range_name.h) */
	long call;             /* the program's call number */
	long thread;           /* the capturing thread */
	uint32_t graph;        /* the graph its nodes went into (0: none yet) */
	size_t nodes;          /* nodes created with a kernel's type while it was open */
	size_t other_nodes;    /* nodes of other types (memset, memcpy, event, ...) */
	int open;
};

struct graphs {
	struct graph_site *site;
	size_t nsite, asite;
	/* site (size_t)-1: a node kept as no site's (another graph's, created inside a call) */
	struct gnode { uint64_t node, root; uint32_t graph; size_t site; int type; } *node;
	size_t nnode, anode;
	struct gexec { uint32_t exec, graph; int version; } *exec;
	size_t nexec, aexec;
	struct glaunch { uint32_t correlation, exec; int version; uint64_t stream; long thread; } *launch;
	size_t nlaunch, alaunch;
	struct graph_kernel *kern;
	size_t nkern, akern;
	long foreign_nodes;    /* nodes of another graph while a site was open: left out */
	long unknown_nodes;    /* graph kernels of nodes never seen created or cloned */
	long updates;          /* executable graphs updated between replays */
	long repeated_nodes;   /* creation callbacks for a node already seen: counted once */
};

void graphs_init(struct graphs *g);
void graphs_release(struct graphs *g);

/* A site opens on thread (an attention call during a capture); calls do
 * not nest: one already open on that thread stays the site.  Returns the
 * site's index, or -1 (no memory, or one is open). */
long graphs_site_begin(struct graphs *g, const char *range, long call, long thread);
void graphs_site_end(struct graphs *g, long thread);
/* The site open on thread, or -1. */
long graphs_site_open(const struct graphs *g, long thread);

/* type: the node's CUgraphNodeType as CUPTI reports it (GRAPHS_NODE_KERNEL
 * for a kernel node; kept for the notes, a replay waits only for nodes
 * that ran).  0 or -1 (no memory). */
int graphs_node_created(struct graphs *g, uint32_t graph, uint64_t node, int type, long thread);
int graphs_node_cloned(struct graphs *g, uint32_t graph, uint64_t node, uint64_t original);
int graphs_exec_created(struct graphs *g, uint32_t exec, uint32_t graph);
void graphs_exec_updated(struct graphs *g, uint32_t exec);
int graphs_launch(struct graphs *g, uint32_t exec, uint32_t correlation, uint64_t stream, long thread);
/* A kernel that ran from a graph.  Kept when its node belongs to a site.
 * 0 or -1 (no memory). */
int graphs_kernel(struct graphs *g, uint64_t node, uint32_t correlation, uint64_t start_ns, uint64_t end_ns,
		  const char *name, const int grid[3], const int block[3], int registers, int static_smem,
		  int dynamic_smem);

/* One record per (site, executable graph, version) with replays: source
 * capture, origin graph-replay, the range's shape, the kernels of its
 * first complete replay, timing over the complete replays (time_ms the
 * median, time_ms_min, time_ms_max, repetitions the count),
 * capture.time_source graph-replays, capture.graph_replays and
 * graph_replays_incomplete; per_replay: also a record per complete replay
 * (origin graph-replay-one, repetitions 1).  Records in the order of the
 * sites, then of their executable graphs' first kernels.  Appended to out;
 * notes say what was left out (replays missing kernels, nodes that ran
 * none, a site none of whose nodes ran, repeated callbacks).  Returns the
 * number of records added, or -1 (no memory). */
long graphs_records(const struct graphs *g, struct results *out, int per_replay);

#endif
