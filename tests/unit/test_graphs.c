/* Attention calls inside CUDA graphs (capture/graphs.h), driven by recorded
 * sequences of what the injection library sees: a site opened during a
 * stream capture, CUPTI's node-creation and cloning callbacks, the
 * instantiation, graph launches and the kernels' activity records with
 * their node and correlation ids.  The bad inputs of issue 54: a graph
 * captured on one stream and replayed on another, updated between
 * replays, two captures at once on a thread, launched from several
 * threads, activity records missing. */
#include <unistd.h>

#include "check.h"
#include "capture/graphs.h"

#define MEMSET_NODE 2 /* CU_GRAPH_NODE_TYPE_MEMSET */

static const int G[3] = { 32, 4, 16 }, BL[3] = { 128, 1, 1 };
#define SDPA "attnprof: impl=sdpa-flash B=4 H=16 Hkv=16 Nq=4096 Nkv=4096 d=128 causal=0 dtype=fp16 pass=fwd call=0"

/* A torch.cuda.CUDAGraph of one SDPA call: a GEMM node before it (no site),
 * the call's kernel node, instantiated (nodes cloned: 1001 -> 2001, 1002 ->
 * 2002), replayed n times from stream 7 (captured on stream 5) */
static void one_call_graph(struct graphs *g, int n, const double *us)
{
	graphs_init(g);
	CHECK_INT(graphs_node_created(g, 1, 1001, GRAPHS_NODE_KERNEL, 42), 0); /* the program's GEMM, outside the call */
	CHECK_INT(graphs_site_begin(g, SDPA, 0, 42), 0);
	CHECK_INT(graphs_node_created(g, 1, 1002, GRAPHS_NODE_KERNEL, 42), 0);
	graphs_site_end(g, 42);
	CHECK_INT(graphs_exec_created(g, 9, 1), 0);
	CHECK_INT(graphs_node_cloned(g, 9, 2001, 1001), 0);
	CHECK_INT(graphs_node_cloned(g, 9, 2002, 1002), 0);
	uint64_t t = 1000000;
	for (int r = 0; r < n; r++) {
		uint32_t corr = 500 + (uint32_t)r;
		CHECK_INT(graphs_launch(g, 9, corr, 7, 42), 0);
		CHECK_INT(graphs_kernel(g, 2001, corr, t, t + 300000, "ampere_gemm", G, BL, 128, 0, 0), 0);
		t += 300000;
		uint64_t d = (uint64_t)(us[r] * 1000);
		CHECK_INT(graphs_kernel(g, 2002, corr, t, t + d, "flash_fwd_kernel", G, BL, 255, 0, 49152), 0);
		t += d + 50000;
	}
}

static void test_replays_one_call(void)
{
	struct graphs g;
	const double us[5] = { 1550, 1553, 1600, 1551, 1549 };
	one_call_graph(&g, 5, us);
	CHECK_INT(g.nkern, 5); /* the GEMM's kernels are not kept */
	struct results res;
	results_init(&res);
	CHECK_INT(graphs_records(&g, &res, 0), 1);
	CHECK_INT(res.nrecords, 1);
	const struct record *r = &res.records[0];
	CHECK_STR(r->variant, "sdpa-flash");
	CHECK_INT(r->shape.seqlen_q, 4096);
	CHECK_INT(r->capture->shape_known, 1);
	CHECK_STR(r->capture->origin, "graph-replay");
	CHECK_STR(r->capture->time_source, "graph-replays");
	CHECK_INT(r->capture->graph_replays, 5);
	CHECK_INT(r->capture->graph_replays_incomplete, 0);
	CHECK_INT(r->repetitions, 5);
	CHECK_NEAR(r->time_ms, 1.551, 1e-9);  /* the median */
	CHECK_NEAR(r->time_ms_min, 1.549, 1e-9);
	CHECK_NEAR(r->time_ms_max, 1.600, 1e-9);
	CHECK_INT(r->nlaunches, 1);
	CHECK_STR(r->launches[0].name, "flash_fwd_kernel");
	CHECK_INT(r->launches[0].grid[0], 32);
	CHECK_INT(r->launches[0].registers, 255);
	CHECK_INT(r->launches[0].dynamic_smem, 49152);
	CHECK(res.header.notes == NULL);
	/* the replay counts go through a results file */
	char path[] = "/tmp/attnprof-graphsXXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	close(fd);
	CHECK_INT(results_save(&res, path), 0);
	struct results back;
	int cut = 0;
	results_init(&back);
	CHECK_INT(results_load(&back, path, &cut), 0);
	CHECK_INT(back.nrecords, 1);
	CHECK_INT(back.records[0].capture->graph_replays, 5);
	CHECK_STR(back.records[0].capture->time_source, "graph-replays");
	CHECK_NEAR(back.records[0].time_ms_max, 1.600, 1e-9);
	results_release(&back);
	unlink(path);
	results_release(&res);

	/* per replay: one record each beside the call's */
	results_init(&res);
	CHECK_INT(graphs_records(&g, &res, 1), 6);
	CHECK_STR(res.records[1].capture->origin, "graph-replay-one");
	CHECK_NEAR(res.records[3].time_ms, 1.600, 1e-9); /* the third replay, in time order */
	CHECK_INT(res.records[3].repetitions, 1);
	results_release(&res);
	graphs_release(&g);
}

static void test_nodes_without_instantiation_clone(void)
{
	/* a driver that reports the template graph's node ids in the records (no clone callback) */
	struct graphs g;
	graphs_init(&g);
	graphs_site_begin(&g, SDPA, 3, 1);
	graphs_node_created(&g, 1, 77, GRAPHS_NODE_KERNEL, 1);
	graphs_node_created(&g, 1, 78, MEMSET_NODE, 1); /* a memset node: no kernel of a replay */
	graphs_site_end(&g, 1);
	graphs_exec_created(&g, 2, 1);
	graphs_launch(&g, 2, 10, 0, 1);
	graphs_kernel(&g, 77, 10, 0, 2000000, "k", G, BL, 0, 0, 0);
	graphs_kernel(&g, 99, 10, 0, 1000, "unseen", G, BL, 0, 0, 0);
	CHECK_INT(g.unknown_nodes, 1);
	struct results res;
	results_init(&res);
	CHECK_INT(graphs_records(&g, &res, 0), 1);
	CHECK_INT(res.records[0].capture->graph_replays, 1);
	CHECK_NEAR(res.records[0].time_ms, 2.0, 1e-12);
	CHECK_INT(res.records[0].capture->call, 0); /* the range's call=0 */
	results_release(&res);
	graphs_release(&g);
}

static void test_missing_records(void)
{
	/* a replay whose call kernel's record was dropped: left out of the times, counted */
	struct graphs g;
	const double us[3] = { 100, 200, 300 };
	one_call_graph(&g, 3, us);
	graphs_site_begin(&g, "attnprof: impl=x pass=fwd", 1, 42); /* a second site of two kernels */
	graphs_node_created(&g, 1, 1003, GRAPHS_NODE_KERNEL, 42);
	graphs_node_created(&g, 1, 1004, GRAPHS_NODE_KERNEL, 42);
	graphs_site_end(&g, 42);
	graphs_node_cloned(&g, 9, 2003, 1003);
	graphs_node_cloned(&g, 9, 2004, 1004);
	graphs_kernel(&g, 2003, 500, 5000000, 5100000, "a", G, BL, 0, 0, 0);
	graphs_kernel(&g, 2004, 500, 5100000, 5200000, "b", G, BL, 0, 0, 0);
	graphs_kernel(&g, 2003, 501, 6000000, 6100000, "a", G, BL, 0, 0, 0); /* its "b" record is missing */
	struct results res;
	results_init(&res);
	CHECK_INT(graphs_records(&g, &res, 0), 2);
	const struct record *r = &res.records[1];
	CHECK_INT(r->capture->graph_replays, 1);
	CHECK_INT(r->capture->graph_replays_incomplete, 1);
	CHECK_NEAR(r->time_ms, 0.2, 1e-9);
	CHECK_INT(r->nlaunches, 2);
	CHECK_INT(r->capture->shape_known, 0);
	CHECK(res.header.notes && strstr(res.header.notes, "1 replay(s) of in-graph calls missed"));
	results_release(&res);
	graphs_release(&g);
}

static void test_updated_between_replays(void)
{
	/* cuGraphExecUpdate after two replays: the later replays are a call of their own */
	struct graphs g;
	const double us[2] = { 100, 100 };
	one_call_graph(&g, 2, us);
	graphs_exec_updated(&g, 9);
	graphs_launch(&g, 9, 600, 7, 42);
	graphs_kernel(&g, 2002, 600, 9000000, 9400000, "flash_fwd_kernel", G, BL, 255, 0, 0);
	graphs_launch(&g, 9, 601, 7, 42);
	graphs_kernel(&g, 2002, 601, 9500000, 9900000, "flash_fwd_kernel", G, BL, 255, 0, 0);
	struct results res;
	results_init(&res);
	CHECK_INT(graphs_records(&g, &res, 0), 2);
	CHECK_NEAR(res.records[0].time_ms, 0.1, 1e-9);
	CHECK_INT(res.records[0].capture->graph_replays, 2);
	CHECK_NEAR(res.records[1].time_ms, 0.4, 1e-9);
	CHECK_INT(res.records[1].capture->graph_replays, 2);
	CHECK(res.header.notes && strstr(res.header.notes, "1 update(s) of executable graphs"));
	results_release(&res);
	graphs_release(&g);
}

static void test_two_captures_and_threads(void)
{
	struct graphs g;
	graphs_init(&g);
	/* thread 1 opens a call while capturing graph 1, and starts a second capture (graph 2)
	 * inside it: graph 2's nodes are not the call's */
	CHECK_INT(graphs_site_begin(&g, SDPA, 0, 1), 0);
	CHECK_INT(graphs_site_begin(&g, SDPA, 5, 1), -1); /* calls do not nest */
	graphs_node_created(&g, 1, 11, GRAPHS_NODE_KERNEL, 1);
	graphs_node_created(&g, 2, 21, GRAPHS_NODE_KERNEL, 1);
	/* thread 2 captures graph 3 with a call of its own at the same time */
	CHECK_INT(graphs_site_begin(&g, "attnprof: impl=y pass=fwd", 1, 2), 1);
	graphs_node_created(&g, 3, 31, GRAPHS_NODE_KERNEL, 2);
	graphs_site_end(&g, 2);
	graphs_site_end(&g, 1);
	CHECK_INT(g.foreign_nodes, 1);
	CHECK_INT(g.site[0].nodes, 1);
	CHECK_INT(g.site[1].nodes, 1);
	/* graph 1 launched from threads 1 and 2 at once (two execs of it), graph 3 once */
	graphs_exec_created(&g, 100, 1);
	graphs_exec_created(&g, 101, 1);
	graphs_exec_created(&g, 300, 3);
	graphs_node_cloned(&g, 100, 111, 11);
	graphs_node_cloned(&g, 101, 112, 11);
	graphs_node_cloned(&g, 300, 311, 31);
	graphs_launch(&g, 100, 1, 5, 1);
	graphs_launch(&g, 101, 2, 6, 2);
	graphs_launch(&g, 300, 3, 6, 2);
	graphs_launch(&g, 100, 4, 6, 2);
	graphs_kernel(&g, 111, 1, 0, 1000000, "k1", G, BL, 0, 0, 0);
	graphs_kernel(&g, 112, 2, 100, 3000100, "k1", G, BL, 0, 0, 0); /* overlapping the first */
	graphs_kernel(&g, 311, 3, 200, 500200, "k3", G, BL, 0, 0, 0);
	graphs_kernel(&g, 111, 4, 5000000, 6000000, "k1", G, BL, 0, 0, 0);
	graphs_kernel(&g, 21, 9, 0, 10, "k2", G, BL, 0, 0, 0); /* graph 2's node: no site */
	CHECK_INT(g.unknown_nodes, 1);
	struct results res;
	results_init(&res);
	CHECK_INT(graphs_records(&g, &res, 0), 3);
	CHECK_INT(res.records[0].capture->graph_replays, 2); /* exec 100: replays 1 and 4 */
	CHECK_NEAR(res.records[0].time_ms, 1.0, 1e-9);
	CHECK_INT(res.records[1].capture->graph_replays, 1); /* exec 101 */
	CHECK_NEAR(res.records[1].time_ms, 3.0, 1e-9);
	CHECK_STR(res.records[2].variant, "y");
	CHECK_NEAR(res.records[2].time_ms, 0.5, 1e-9);
	CHECK(res.header.notes && strstr(res.header.notes, "1 graph node(s) added to another graph"));
	results_release(&res);
	graphs_release(&g);
}

static void test_no_site_no_record(void)
{
	/* a graph with no attention call in it: its kernels are nobody's, no record */
	struct graphs g;
	graphs_init(&g);
	graphs_node_created(&g, 1, 5, GRAPHS_NODE_KERNEL, 1);
	graphs_exec_created(&g, 2, 1);
	graphs_node_cloned(&g, 2, 6, 5);
	graphs_launch(&g, 2, 1, 0, 1);
	graphs_kernel(&g, 6, 1, 0, 10, "gemm", G, BL, 0, 0, 0);
	CHECK_INT(g.nkern, 0);
	struct results res;
	results_init(&res);
	CHECK_INT(graphs_records(&g, &res, 0), 0);
	CHECK_INT(res.nrecords, 0);
	results_release(&res);
	graphs_release(&g);
}

/* What experiments/programs/cudagraph_sdpa.py gave CUPTI on the H100
 * (experiments/results/h100-2026-12-07/gc-sdpa-*.yaml): torch.cuda.graph
 * captures one causal SDPA call (cuDNN's sm90 kernel) on its side stream;
 * the capture creates the call's kernel node and one more node reported
 * with a kernel's type that runs no kernel in a replay; instantiation
 * fires GRAPHNODE_CREATED for each copy (no site open by then) and
 * GRAPHNODE_CLONED; 20 replays on the default stream, each with one kernel
 * record.  The logic of that day waited for 2 kernels per replay: all 20
 * "incomplete", no median. */
#define CUDNN "cudnn_generated_fort_native_sdpa_sm90_flash_fprop_wgmma_f16_knob_7_64x128x64_4x1x1_cga1x1x1_kernel0_0"
#define SDPA_CUDNN "attnprof: impl=sdpa-cudnn B=2 H=8 Hkv=8 Nq=1024 Nkv=1024 d=64 causal=1 dtype=fp16 pass=fwd call=2 origin=python-sdpa"
static void cudagraph_sdpa(struct graphs *g, int repeat_created, int extra_type)
{
	static const int cg[3] = { 128, 1, 1 }, cb[3] = { 384, 1, 1 };
	graphs_init(g);
	CHECK_INT(graphs_site_begin(g, SDPA_CUDNN, 2, 1369), 0);
	CHECK_INT(graphs_node_created(g, 4, 40, GRAPHS_NODE_KERNEL, 1369), 0);
	if (repeat_created)
		CHECK_INT(graphs_node_created(g, 4, 40, GRAPHS_NODE_KERNEL, 1369), 0); /* the same node again */
	else
		CHECK_INT(graphs_node_created(g, 4, 41, extra_type, 1369), 0);
	graphs_site_end(g, 1369);
	/* cudaGraphInstantiate: a copy of each node, created and cloned */
	CHECK_INT(graphs_node_created(g, 5, 50, GRAPHS_NODE_KERNEL, 1369), 0);
	CHECK_INT(graphs_node_cloned(g, 5, 50, 40), 0);
	if (!repeat_created) {
		CHECK_INT(graphs_node_created(g, 5, 51, extra_type, 1369), 0);
		CHECK_INT(graphs_node_cloned(g, 5, 51, 41), 0);
	}
	CHECK_INT(graphs_exec_created(g, 6, 4), 0);
	uint64_t t = 5000000000ull;
	for (int r = 0; r < 20; r++) {
		uint32_t corr = 2100 + 7 * (uint32_t)r; /* the copy of the inputs between replays */
		CHECK_INT(graphs_launch(g, 6, corr, 0, 1369), 0);
		uint64_t d = 13000 + (uint64_t)(r % 5) * 100; /* 13.0 .. 13.4 us */
		CHECK_INT(graphs_kernel(g, 50, corr, t, t + d, CUDNN, cg, cb, 168, 0, 134144), 0);
		t += 1000000;
	}
}

static void test_cudagraph_sdpa_h100(void)
{
	for (int variant = 0; variant < 3; variant++) {
		/* 0: the extra node has a kernel's type; 1: a memset node (type 2); 2: GRAPHNODE_CREATED twice for one node */
		struct graphs g;
		cudagraph_sdpa(&g, variant == 2, variant == 1 ? MEMSET_NODE : GRAPHS_NODE_KERNEL);
		CHECK_INT(g.nkern, 20);
		struct results res;
		results_init(&res);
		CHECK_INT(graphs_records(&g, &res, 0), 1);
		const struct record *r = &res.records[0];
		CHECK_STR(r->variant, "sdpa-cudnn");
		CHECK_INT(r->capture->call, 2);
		CHECK_INT(r->capture->graph_replays, 20);
		CHECK_INT(r->capture->graph_replays_incomplete, 0);
		CHECK_INT(r->repetitions, 20);
		CHECK_NEAR(r->time_ms, 0.0132, 1e-9); /* the median of 4 x 13.0, 13.1, ... 13.4 us */
		CHECK_NEAR(r->time_ms_min, 0.0130, 1e-9);
		CHECK_NEAR(r->time_ms_max, 0.0134, 1e-9);
		CHECK_INT(r->nlaunches, 1);
		CHECK_STR(r->launches[0].name, CUDNN);
		CHECK_INT(r->launches[0].dynamic_smem, 134144);
		CHECK(!res.header.notes || !strstr(res.header.notes, "missed some"));
		if (variant == 2)
			CHECK_CONTAINS(res.header.notes, "1 repeated node-creation callback");
		else
			CHECK_CONTAINS(res.header.notes, variant == 0 ? "1 node(s) created during in-graph calls' captures ran no kernel in any replay (1 with a kernel's type"
							: "1 node(s) created during in-graph calls' captures ran no kernel in any replay (0 with a kernel's type");
		results_release(&res);
		graphs_release(&g);
	}
}

/* What experiments/programs/decode_graph.py gave CUPTI on the same H100
 * (gc-dec-graphs.yaml): one decode step captured — index_copy_ x2, the
 * mask, then SDPA with a boolean mask (two fills, where, cuDNN's sm80
 * kernel: the call's 4 kernel nodes), then the projection GEMM — and 200
 * replays, each with the call's 4 kernels and 5 of the program's.  It
 * worked that day (200 replays, median 0.095 ms) and must stay so. */
static void test_decode_loop_h100(void)
{
	struct graphs g;
	graphs_init(&g);
	long tid = 1566;
	uint64_t id = 100;
	for (int i = 0; i < 3; i++) /* index_copy_ x2, the mask: no site */
		graphs_node_created(&g, 7, id++, GRAPHS_NODE_KERNEL, tid);
	CHECK_INT(graphs_site_begin(&g, "attnprof: impl=sdpa-cudnn B=8 H=16 Hkv=16 Nq=1 Nkv=4096 d=128 causal=0 mask=bool "
				    "dtype=fp16 pass=fwd call=2 origin=python-sdpa", 2, tid), 0);
	for (int i = 0; i < 4; i++)
		graphs_node_created(&g, 7, id++, GRAPHS_NODE_KERNEL, tid);
	graphs_site_end(&g, tid);
	graphs_node_created(&g, 7, id++, GRAPHS_NODE_KERNEL, tid); /* the GEMM */
	graphs_node_created(&g, 7, id++, GRAPHS_NODE_KERNEL, tid); /* the next input */
	for (uint64_t n = 100; n < id; n++) {
		graphs_node_created(&g, 8, n + 100, GRAPHS_NODE_KERNEL, tid);
		graphs_node_cloned(&g, 8, n + 100, n);
	}
	graphs_exec_created(&g, 9, 7);
	static const char *names[9] = { "index_copy", "index_copy", "le", "fill", "fill", "where",
					"cudnn_generated_fort_native_sdpa_sm80_flash_fprop_wmma_f16_knob_35", "gemm", "mul" };
	uint64_t t = 1000000;
	for (int r = 0; r < 200; r++) {
		uint32_t corr = 9000 + 3 * (uint32_t)r;
		graphs_launch(&g, 9, corr, 0, tid);
		for (int k = 0; k < 9; k++) {
			uint64_t d = k == 6 ? 93376 + (uint64_t)(r % 10) * 400 : 2000;
			CHECK_INT(graphs_kernel(&g, 200 + (uint64_t)k, corr, t, t + d, names[k], G, BL, 64, 0, 0), 0);
			t += d + 1000;
		}
	}
	CHECK_INT(g.unknown_nodes, 1000);
	struct results res;
	results_init(&res);
	CHECK_INT(graphs_records(&g, &res, 0), 1);
	const struct record *r = &res.records[0];
	CHECK_INT(r->capture->graph_replays, 200);
	CHECK_INT(r->capture->graph_replays_incomplete, 0);
	CHECK_INT(r->nlaunches, 4);
	CHECK_STR(r->launches[3].name, names[6]);
	CHECK_NEAR(r->time_ms, (3 * 0.002 + 0.093376 + 0.0018), 1e-9); /* median of the cuDNN kernel's 10 values (4.5 x 400 ns) + 3 x 2 us */
	CHECK_INT(r->shape.seqlen_kv, 4096);
	CHECK(!res.header.notes || !strstr(res.header.notes, "ran no kernel"));
	results_release(&res);
	graphs_release(&g);
}

static void test_instantiated_inside_the_call(void)
{
	/* a call that captures and instantiates its own graph inside its range
	 * (nested: the program's capture goes on around it): CUPTI creates
	 * each copy, in the executable graph's graph, then says it was cloned
	 * from the call's node; the copy is the call's, and no "other graph"
	 * note for it; a node of a second capture that is no copy stays out */
	struct graphs g;
	graphs_init(&g);
	CHECK_INT(graphs_site_begin(&g, SDPA, 0, 7), 0);
	CHECK_INT(graphs_node_created(&g, 1, 10, GRAPHS_NODE_KERNEL, 7), 0);
	CHECK_INT(graphs_node_created(&g, 2, 20, GRAPHS_NODE_KERNEL, 7), 0); /* the copy, created ... */
	CHECK_INT(graphs_node_cloned(&g, 2, 20, 10), 0);                    /* ... then named a clone */
	CHECK_INT(graphs_node_created(&g, 3, 30, GRAPHS_NODE_KERNEL, 7), 0); /* another capture's node */
	CHECK_INT(graphs_node_cloned(&g, 4, 40, 30), 0);                    /* its copy is no one's either */
	CHECK_INT(graphs_exec_created(&g, 5, 2), 0);
	graphs_site_end(&g, 7);
	CHECK_INT(g.foreign_nodes, 1);
	CHECK_INT(g.site[0].nodes, 1);
	for (uint32_t r = 0; r < 3; r++) {
		graphs_launch(&g, 5, 70 + r, 3, 8); /* replayed from another thread and stream */
		CHECK_INT(graphs_kernel(&g, 20, 70 + r, 1000000 * r, 1000000 * r + 500000, "k", G, BL, 0, 0, 0), 0);
		CHECK_INT(graphs_kernel(&g, 40, 70 + r, 1000000 * r, 1000000 * r + 900, "other", G, BL, 0, 0, 0), 0);
	}
	CHECK_INT(g.unknown_nodes, 3);
	struct results res;
	results_init(&res);
	CHECK_INT(graphs_records(&g, &res, 0), 1);
	CHECK_INT(res.records[0].capture->graph_replays, 3);
	CHECK_NEAR(res.records[0].time_ms, 0.5, 1e-9);
	CHECK_CONTAINS(res.header.notes, "1 graph node(s) added to another graph");
	results_release(&res);
	graphs_release(&g);
}

TESTS(test_replays_one_call, test_nodes_without_instantiation_clone, test_missing_records,
      test_updated_between_replays, test_two_captures_and_threads, test_no_site_no_record, test_cudagraph_sdpa_h100,
      test_decode_loop_h100, test_instantiated_inside_the_call)
