/* test_wshare.c: workload-share (src/doc/figworkload.c) without Cairo — a
 * captured program's kernels (header.workload of
 * tests/fixtures/capture-workload.yaml: 10 kept, 4 of attention calls, 1
 * dropped) split per phase and category, the share and Amdahl's bound;
 * the phase of each kernel from its call's record; no list, no group. */
#include "check.h"

#include <math.h>
#include <stdlib.h>

#include "variants.h"

#include "capture/workload.h"
#include "doc/figdesc.h"
#include "fig_inputs.h"
#include "doc/figure.h"

#define FIX "tests/fixtures/capture-workload.yaml"

static const struct figitem *part(const struct figdesc *d, const char *phase, const char *key)
{
	const struct figitem *it;
	for (size_t i = 0; (it = figdesc_part(d, "part", i)); i++)
		if (!strcmp(it->state, phase) && !strcmp(it->name, key))
			return it;
	return NULL;
}

/* names: an attention call's by its pass; NCCL's communication; a GEMM by
 * the family table's gemm rules; anything else the rest */
static void test_categories(void)
{
	CHECK_INT(workload_category("mha_forward", 1, 0), WS_ATTN_FWD);
	CHECK_INT(workload_category("mha_forward", 1, 1), WS_ATTN_BWD);
	CHECK_INT(workload_category("ncclDevKernel_AllReduce_Sum_f32_RING_LL", 0, 0), WS_COMM);
	CHECK_INT(workload_category("nvjet_sm90_tst_128x256_64x4_2x1_v_bz_coopA_NNT", 0, 0), WS_GEMM);
	CHECK_INT(workload_category("sm80_xmma_gemm_f32f32_f32f32_f32_nt_n_tilesize64x128x8", 0, 0), WS_GEMM);
	CHECK_INT(workload_category("elementwise_add", 0, 0), WS_REST);
	/* a GEMM inside an attention call is attention's */
	CHECK_INT(workload_category("sm80_xmma_gemm_f32f32_f32f32_f32_nt_n_tilesize64x128x8", 1, 0), WS_ATTN_FWD);
}

/* the fixture's 10 kept kernels, one phase (its calls' records say
 * "unknown"): 2 forward attention kernels of 276 512 ns, the backward's
 * 10 000 + 589 500 ns, 3 GEMMs (5 000 + 10 000 + 9 500) and 3 others of
 * 1 000 ns; with backward kernels it is a training step */
static void test_one_phase(void)
{
	struct in x;
	if (load(&x, FIX))
		SKIP("fixture missing");
	CHECK_INT(x.rd.nprograms, 1);
	/* the document's copy of the program keeps the list */
	CHECK_INT((int)x.rd.programs[0].workload.n, 10);
	CHECK_INT((int)x.rd.programs[0].workload.dropped, 1);
	struct figopts o;
	figopts_init(&o);
	struct figdesc d;
	figdesc_init(&d, "workload-share");
	CHECK_INT(figdesc_workload_share(&x.rd, &o, &d), 0);
	CHECK(!d.notice[0]);
	const struct figitem *ph = figdesc_part(&d, "phase", 0);
	CHECK(ph != NULL);
	CHECK(figdesc_part(&d, "phase", 1) == NULL);
	if (ph) {
		CHECK_STR(ph->state, "unknown");
		CHECK_STR(ph->text, "training step");
		CHECK_NEAR(ph->v, 1.180024, 1e-12);
		CHECK(ph->rec != NULL && ph->rec->capture && !strcmp(ph->rec->launches[0].name, "mha_forward"));
	}
	const struct figitem *f = part(&d, "unknown", "attention_fwd"), *b = part(&d, "unknown", "attention_bwd"),
			     *g = part(&d, "unknown", "gemm"), *c = part(&d, "unknown", "communication"),
			     *r = part(&d, "unknown", "rest");
	CHECK(f && b && g && c && r);
	if (f && b && g && c && r) {
		CHECK_NEAR(f->v, 0.553024, 1e-12);
		CHECK_NEAR(b->v, 0.5995, 1e-12);
		CHECK_NEAR(g->v, 0.0245, 1e-12);
		CHECK_NEAR(c->v, 0, 0);
		CHECK_NEAR(r->v, 0.003, 1e-12);
		CHECK(f->rec != NULL && g->rec == NULL);
	}
	const struct figitem *s = figdesc_part(&d, "share", 0), *bd = figdesc_part(&d, "bound", 0);
	CHECK(s && bd);
	if (s && bd) {
		/* the header's, of every kernel counted (the dropped one's 1 us too), not the kept ones' 1.152524 / 1.180024 */
		CHECK_NEAR(s->v, 0.9758683989487089, 1e-12);
		CHECK_NEAR(bd->v, 1.9528740231694453, 1e-12);
		CHECK_CONTAINS(bd->text, "at most 1.95×");
	}
	const struct figitem *dr = figdesc_part(&d, "dropped", 0);
	CHECK(dr && dr->v == 1);
	figdesc_release(&d);
	rinputs_release(&x.in);
}

/* the backward call's record made a decode call: its kernels and every
 * later one (process 610's 380 000 ns add and 9 500 ns GEMM) fall in the
 * decode phase; the kernels before stay in the first */
static void test_phases_split(void)
{
	struct in x;
	if (load(&x, FIX))
		SKIP("fixture missing");
	struct record *bwd = NULL;
	for (size_t i = 0; i < x.in.res.nrecords; i++)
		if (x.in.res.records[i].shape.pass == PASS_BWD)
			bwd = &x.in.res.records[i];
	CHECK(bwd != NULL);
	if (!bwd) {
		rinputs_release(&x.in);
		return;
	}
	bwd->shape.phase = PHASE_DECODE;
	struct ws_phases ph;
	CHECK_INT(workload_phases(&x.rd, &x.rd.programs[0], &ph), 0);
	CHECK_INT((int)ph.kernels[1], 4);
	CHECK_INT((int)ph.kernels[2], 6);
	CHECK_NEAR(ph.ms[1][WS_ATTN_BWD], 0.5995, 1e-12);
	CHECK_NEAR(ph.ms[1][WS_GEMM], 0.0095, 1e-12);
	CHECK_NEAR(ph.ms[1][WS_REST], 0.001, 1e-12);
	CHECK_NEAR(ph.ms[2][WS_ATTN_FWD], 0.553024, 1e-12);
	CHECK_NEAR(ph.ms[2][WS_GEMM], 0.015, 1e-12);
	CHECK_STR(ph.label[1], "decode");
	CHECK_STR(ph.label[2], "phase unknown");
	CHECK(ph.rec[1] == bwd);
	rinputs_release(&x.in);
}

/* training steps: the fixture's forward, forward, backward is one step; its
 * second forward moved after the backward starts a second */
static void test_steps(void)
{
	struct in x;
	if (load(&x, FIX))
		SKIP("fixture missing");
	struct ws_phases ph;
	CHECK_INT(workload_phases(&x.rd, &x.rd.programs[0], &ph), 0);
	CHECK_INT((int)ph.steps[2], 1);
	struct workload_list *w = &((struct results_header *)&x.rd.programs[0])->workload;
	/* the file's starts are from t0_ns, its first kernel's */
	CHECK(w->n == 10 && w->k[5].attention && w->k[5].start_ns - w->k[0].start_ns == 100000);
	if (w->n == 10)
		w->k[5].start_ns = w->k[0].start_ns + 1000000;
	CHECK_INT(workload_phases(&x.rd, &x.rd.programs[0], &ph), 0);
	CHECK_INT((int)ph.steps[2], 2);
	struct figopts o;
	figopts_init(&o);
	struct figdesc d;
	figdesc_init(&d, "workload-share");
	CHECK_INT(figdesc_workload_share(&x.rd, &o, &d), 0);
	const struct figitem *p = figdesc_part(&d, "phase", 0);
	CHECK(p != NULL);
	if (p)
		CHECK_STR(p->label, "2 steps, 0.590 ms each");
	figdesc_release(&d);
	rinputs_release(&x.in);
}

/* a results file without a program's kernels: no group, the notice */
static void test_no_list(void)
{
	struct in x;
	if (load(&x, "tests/fixtures/capture-two-streams.yaml"))
		SKIP("fixture missing");
	struct figopts o;
	figopts_init(&o);
	struct figdesc d;
	figdesc_init(&d, "workload-share");
	CHECK_INT(figdesc_workload_share(&x.rd, &o, &d), 0);
	CHECK(d.notice[0] != '\0');
	CHECK(figdesc_part(&d, "head", 0) == NULL);
	figdesc_release(&d);
	rinputs_release(&x.in);
}

TESTS(test_categories, test_one_phase, test_phases_split, test_steps, test_no_list)
