/* test_wsched.c: the warp-specialised thread block and its loop as the
 * figures draw them (doc/wsched.c), against the kernel's tiling header
 * and its schedule table: the register split is hopper_tiles.h's, and what
 * overlaps in each rung's timeline follows the table's rows. */
#include "check.h"

#include "hopper/hopper_tiles.h"
#include "doc/wsched.h"
#include "variants.h"

/* 1 if events a and b overlap in time by more than a hair. */
static int events_overlap(const struct ws_event *a, const struct ws_event *b)
{
	double lo = a->t0 > b->t0 ? a->t0 : b->t0, hi = a->t1 < b->t1 ? a->t1 : b->t1;
	return hi - lo > 1e-6;
}

static const char *const rung_names[4] = { "hopper+wgmma", "hopper+tma+ws", "hopper+pingpong", "hopper+overlap" };

static const struct variant_desc *rung(int r)
{
	const struct variant_desc *v = variant_find(rung_names[r]);
	return v && v->ws && v->rung == r ? v : NULL;
}

static struct attn_shape shape(int d)
{
	return (struct attn_shape){ .dtype = DTYPE_FP16, .phase = PHASE_PREFILL, .batch = 4, .heads = 16, .kv_heads = 16,
				    .seqlen_q = 4096, .seqlen_kv = 4096, .head_dim = d };
}

/* The register split, the roles and the ring are hopper_tiles.h's. */
static void test_partition_is_the_tiling_header(void)
{
	static const int dims[] = HOPPER_HEAD_DIMS;
	for (int r = 0; r < 4; r++)
		for (size_t di = 0; di < sizeof(dims) / sizeof(dims[0]); di++) {
			const int d = dims[di];
			const struct variant_desc *v = rung(r);
			CHECK(v != NULL);
			if (!v)
				return;
			struct attn_shape s = shape(d);
			struct ws_partition p;
			CHECK_INT(ws_partition_of(v, &s, 132, &p), 0);
			CHECK_INT(p.threads, HOPPER_THREADS(r));
			CHECK_INT(p.producers, HOPPER_PRODUCERS(r));
			CHECK_INT(p.consumers, HOPPER_CONSUMERS);
			CHECK_INT(p.rows_per_consumer * p.consumers, HOPPER_BLOCK_M);
			CHECK_INT(p.regs_launch, HOPPER_REGS(r, d));
			CHECK_INT(p.resplit, r >= 1);
			CHECK_INT(p.regs_producer, r >= 1 ? HOPPER_REGS_PRODUCER : HOPPER_REGS(r, d));
			CHECK_INT(p.regs_consumer, r >= 1 ? HOPPER_REGS_CONSUMER : HOPPER_REGS(r, d));
			/* setmaxnreg moves registers, it cannot make more than the launch allocated */
			CHECK(p.regs_total_split <= p.regs_total_launch);
			CHECK_INT(p.stages, HOPPER_STAGES(d));
			CHECK_INT(p.tile_bytes, HOPPER_BLOCK_N(d) * d * 2);
			CHECK_INT(p.q_bytes, HOPPER_BLOCK_M * d * 2);
			CHECK_INT(p.smem_bytes, HOPPER_SMEM(d));
			CHECK(p.q_bytes + p.ring_bytes < p.smem_bytes); /* the rest: barriers and alignment */
			CHECK_INT(p.empty_arrivals, HOPPER_EMPTY_ARRIVALS);
		}
	/* a variant without the trait has no partition */
	struct attn_shape s = shape(128);
	struct ws_partition p;
	CHECK_INT(ws_partition_of(variant_find("flash2"), &s, 132, &p), -1);
}

/* Every statement the schedule table names is in the kernel's source. */
static void test_table_rows_are_the_kernels_code(void)
{
	FILE *f = fopen("kernels/hopper/hopper_fwd.cu", "rb");
	if (!f)
		SKIP("kernels/hopper/hopper_fwd.cu not found (run from the repository root)");
	static char src[1 << 17];
	size_t n = fread(src, 1, sizeof(src) - 1, f);
	fclose(f);
	src[n] = '\0';
	const struct ws_desc *ws = rung(3)->ws;
	CHECK(ws->nsteps > 10);
	for (size_t i = 0; i < ws->nsteps; i++) {
		CHECK(ws->steps[i].code != NULL);
		if (ws->steps[i].code && !strstr(src, ws->steps[i].code)) {
			printf("    row %zu: '%s' is not in hopper_fwd.cu\n", i, ws->steps[i].code);
			CHECK(0);
		}
	}
}

static int is_gemm(const struct ws_event *e) { return e->op == SO_GEMM_QK || e->op == SO_GEMM_PV; }

/* No silent cap: every block adds waits, so a timeline that builds has more
 * links than one block fewer; past the room for them the build fails (it
 * stopped adding links at WS_MAX_LINKS and returned 0, from 17 blocks at rung 0) */
static void test_links_never_cut(void)
{
	static struct ws_timeline tl;
	for (int r = 0; r < 4; r++) {
		size_t prev = 0;
		int built = 0, failed = 0;
		for (int nb = 1; nb <= 32; nb++) {
			if (ws_timeline_build(&tl, rung(r)->ws, r, 128, nb, NULL)) {
				failed = 1;
				continue;
			}
			CHECK(!failed); /* once too many, always too many */
			CHECK(tl.nlinks > prev);
			CHECK(tl.nlinks <= WS_MAX_LINKS);
			prev = tl.nlinks;
			built++;
		}
		CHECK(built >= 8); /* the figures' 4 blocks and the test's 8 fit */
	}
}

/* Every block loaded once, every consumer computes every block. */
static void test_every_rung_runs_to_the_end(void)
{
	static struct ws_timeline tl;
	for (int r = 0; r < 4; r++)
		for (int nb = 1; nb <= 8; nb++) {
			CHECK_INT(ws_timeline_build(&tl, rung(r)->ws, r, 128, nb, NULL), 0);
			for (int b = 0; b < nb; b++) {
				CHECK(ws_find(&tl, SO_LOAD_K, WS_PRODUCER, b) >= 0);
				CHECK(ws_find(&tl, SO_LOAD_V, WS_PRODUCER, b) >= 0);
				for (int c = 0; c < 2; c++) {
					CHECK(ws_find(&tl, SO_GEMM_QK, c, b) >= 0);
					CHECK(ws_find(&tl, SO_GEMM_PV, c, b) >= 0);
					CHECK(ws_find(&tl, SO_SOFTMAX, c, b) >= 0);
				}
			}
			int loads = 0;
			for (size_t i = 0; i < tl.nev; i++)
				loads += tl.ev[i].op == SO_LOAD_K || tl.ev[i].op == SO_LOAD_V;
			CHECK_INT(loads, 2 * nb);
			CHECK(tl.end > 0);
		}
}

/* +wgmma: the consumers' thread 0 refills a stage only once both released
 * it, so no refill runs under a GEMM and a consumer waits for a tile;
 * +tma+ws: the producer loads block j + 1 under the GEMMs of block j. */
static void test_loads_hide_only_with_a_producer(void)
{
	static struct ws_timeline tl;
	for (int r = 0; r < 2; r++) {
		CHECK_INT(ws_timeline_build(&tl, rung(r)->ws, r, 128, 4, NULL), 0);
		int hidden = 0, waited = 0;
		for (size_t i = 0; i < tl.nev; i++) {
			const struct ws_event *l = &tl.ev[i];
			if ((l->op == SO_LOAD_K || l->op == SO_LOAD_V) && l->block >= tl.stages)
				for (size_t k = 0; k < tl.nev; k++)
					hidden += is_gemm(&tl.ev[k]) && tl.ev[k].block == l->block - 1 && events_overlap(l, &tl.ev[k]);
			waited += tl.ev[i].op == SO_WAIT_FULL_K && tl.ev[i].block >= tl.stages && tl.ev[i].who >= 0;
		}
		if (r == 0) {
			CHECK_INT(hidden, 0);
			CHECK(waited > 0);
		} else {
			CHECK(hidden > 0);
			CHECK_INT(waited, 0);
		}
	}
	/* the producer is what pays: the loop ends sooner with it */
	static struct ws_timeline t0;
	CHECK_INT(ws_timeline_build(&t0, rung(0)->ws, 0, 128, 4, NULL), 0);
	CHECK(tl.end < t0.end);
}

/* Up to +pingpong a warpgroup's softmax never runs under its own GEMMs
 * (wait_group 0); +overlap runs the softmax of block j under its own P·V of
 * block j - 1 (wait_group 1). */
static void test_overlap_is_wait_group_1(void)
{
	static struct ws_timeline tl;
	for (int r = 0; r < 4; r++) {
		CHECK_INT(ws_timeline_build(&tl, rung(r)->ws, r, 128, 4, NULL), 0);
		int own = 0;
		for (int c = 0; c < 2; c++)
			for (int j = 1; j < 4; j++) {
				int s = ws_find(&tl, SO_SOFTMAX, c, j), pv = ws_find(&tl, SO_GEMM_PV, c, j - 1);
				own += s >= 0 && pv >= 0 && events_overlap(&tl.ev[s], &tl.ev[pv]);
			}
		if (r < 3)
			CHECK_INT(own, 0);
		else
			CHECK_INT(own, 2 * 3);
	}
	/* the table decides: rung 3 with its wait_group 1 row taken out waits for everything again */
	struct ws_desc ws = *rung(3)->ws;
	struct sched_step rows[64];
	CHECK(ws.nsteps <= 64);
	memcpy(rows, ws.steps, ws.nsteps * sizeof(rows[0]));
	for (size_t i = 0; i < ws.nsteps; i++)
		if (rows[i].op == SO_WAIT_GEMM_QK)
			rows[i].op = SO_WAIT_GEMM_ALL;
	ws.steps = rows;
	CHECK_INT(ws_timeline_build(&tl, &ws, 3, 128, 4, NULL), 0);
	int s = ws_find(&tl, SO_SOFTMAX, 0, 2), pv = ws_find(&tl, SO_GEMM_PV, 0, 1);
	CHECK(s >= 0 && pv >= 0 && !events_overlap(&tl.ev[s], &tl.ev[pv]));
}

/* +pingpong: the consumers issue their phases in turn (consumer 1 first),
 * the turn handed over by the named barrier, and one's softmax runs under
 * the other's GEMMs. */
static void test_pingpong_takes_turns(void)
{
	static struct ws_timeline tl;
	CHECK_INT(ws_timeline_build(&tl, rung(2)->ws, 2, 128, 4, NULL), 0);
	for (int j = 0; j < 4; j++) {
		int a = ws_find(&tl, SO_GEMM_QK, 0, j), b = ws_find(&tl, SO_GEMM_QK, 1, j);
		CHECK(a >= 0 && b >= 0 && tl.ev[a].t0 < tl.ev[b].t0);
	}
	int turns = 0, under = 0;
	for (size_t i = 0; i < tl.nlinks; i++)
		turns += tl.link[i].wait == SO_TURN_WAIT && tl.link[i].from_who != tl.link[i].who && tl.link[i].t >= tl.link[i].t_from;
	CHECK(turns >= 2 * 4);
	for (size_t i = 0; i < tl.nev; i++)
		for (size_t k = 0; k < tl.nev; k++)
			under += tl.ev[i].op == SO_SOFTMAX && is_gemm(&tl.ev[k]) && tl.ev[k].who != tl.ev[i].who &&
				 events_overlap(&tl.ev[i], &tl.ev[k]);
	CHECK(under > 0);
	/* +tma+ws has no turns */
	CHECK_INT(ws_timeline_build(&tl, rung(1)->ws, 1, 128, 4, NULL), 0);
	for (size_t i = 0; i < tl.nlinks; i++)
		CHECK(tl.link[i].wait != SO_TURN_WAIT);
}

/* A table whose wait nothing satisfies is refused, not drawn. */
static void test_a_wait_never_satisfied_is_an_error(void)
{
	static struct ws_timeline tl;
	struct ws_desc ws = *rung(1)->ws;
	struct sched_step rows[64];
	size_t n = 0;
	for (size_t i = 0; i < ws.nsteps; i++)
		if (ws.steps[i].op != SO_LOAD_V) /* nobody loads V: the consumers wait for it forever */
			rows[n++] = ws.steps[i];
	ws.steps = rows;
	ws.nsteps = n;
	CHECK_INT(ws_timeline_build(&tl, &ws, 1, 128, 4, NULL), -1);
	CHECK_INT(ws_timeline_build(&tl, rung(1)->ws, 1, 128, 0, NULL), -1);
	CHECK_INT(ws_timeline_build(&tl, NULL, 1, 128, 4, NULL), -1);
}

TESTS(test_links_never_cut, test_partition_is_the_tiling_header, test_table_rows_are_the_kernels_code, test_every_rung_runs_to_the_end,
      test_loads_hide_only_with_a_producer, test_overlap_is_wait_group_1, test_pingpong_takes_turns,
      test_a_wait_never_satisfied_is_an_error)
