/* test_figdesc.c: the figure builders without Cairo (doc/figdesc.h) — the
 * series over N, the counter rows and the ladder rungs: each point is the
 * record of its panel's conditions, its category and its series, and its
 * value is that record's; the records a figure names are those it draws.
 * Runs in the RENDER=0 build too (make test builds and runs it there). */
#include "check.h"

#include <math.h>
#include <stdlib.h>

#include "variants.h"

#include "doc/capreview.h"
#include "doc/figdesc.h"
#include "doc/datasheet.h"
#include "fig_inputs.h"
#include "doc/figure.h"
#include "capture/verdict.h"
#include "metric_sets.h"
#include "causal_tiles.h"
#include "online_softmax.h"
#include "doc/wsched.h"

/* TFLOP/s over N: a panel per (d, causal); every point the record of its
 * series at the panel's d, mask and the category's N, with its TFLOP/s
 * and the launches' spread around it */
static void test_series_over_n(void)
{
	struct in x;
	if (load(&x, "tests/fixtures/results-small.yaml"))
		SKIP("fixture missing");
	struct figopts o;
	figopts_init(&o);
	struct figdesc d;
	figdesc_init(&d, "tflops");
	CHECK_INT(figdesc_tflops(&x.rd, &o, &d), 0);
	CHECK(!d.notice[0]);
	CHECK(d.npanels >= 1 && d.nseries >= 2);
	size_t values = 0, whiskers = 0;
	for (size_t p = 0; p < d.npanels; p++) {
		const struct figpanel *pn = &d.panel[p];
		CHECK(pn->ncat >= 2);
		CHECK_STR(pn->quantity, "tflops");
		for (size_t i = 1; i < pn->ncat; i++)
			CHECK(pn->cat[i] > pn->cat[i - 1]); /* N ascending */
		for (size_t s = 0; s < d.nseries; s++)
			for (size_t i = 0; i < pn->ncat; i++) {
				const struct figpoint *q = figdesc_at(&d, p, s, i);
				CHECK(q != NULL);
				if (!q || q->state == FP_NONE)
					continue;
				char k[SERIES_KEY];
				CHECK_STR(record_series(q->rec, k, sizeof k), d.series[s].key);
				CHECK_INT(q->rec->shape.seqlen_kv, pn->cat[i]);
				CHECK_INT(q->rec->shape.head_dim, pn->sel.d);
				CHECK_INT(!!q->rec->shape.causal, pn->sel.causal);
				CHECK(used_has(&d, q->rec));
				if (q->state != FP_VALUE)
					continue;
				double v;
				enum qunit u;
				char why[160];
				CHECK_INT(rdata_quantity(&x.rd, q->rec, "tflops", NULL, &v, &u, why, sizeof why), 0);
				CHECK_NEAR(q->v, v, 1e-12);
				CHECK(q->v <= pn->hi);
				values++;
				if (q->whisker) {
					CHECK(q->lo <= q->v && q->v <= q->hi);
					whiskers++;
				}
			}
	}
	CHECK(values >= 4);
	CHECK(whiskers >= 1);
	CHECK(figdesc_at(&d, d.npanels, 0, 0) == NULL);
	figdesc_release(&d);

	/* HBM bytes: the records named are those with bytes to draw; the model
	 * line is each record's minimum (hbm_bytes_min) */
	figdesc_init(&d, "hbm");
	CHECK_INT(figdesc_hbm(&x.rd, &o, &d), 0);
	CHECK(d.npanels >= 1);
	for (size_t i = 0; i < d.nused; i++)
		CHECK(record_hbm_bytes(d.used[i]) > 0);
	size_t models = 0;
	for (size_t p = 0; p < d.npanels; p++)
		for (size_t s = 0; s < d.nseries; s++)
			for (size_t i = 0; i < d.panel[p].ncat; i++) {
				const struct figpoint *q = figdesc_at(&d, p, s, i);
				if (q->state == FP_VALUE)
					CHECK_NEAR(q->v, record_hbm_bytes(q->rec), 1e-12);
				if (q->has_model) {
					const double *m = kvlist_get(&q->rec->model, "hbm_bytes_min");
					CHECK(m && fabs(*m - q->model) <= 1e-9 * *m);
					models++;
				}
			}
	CHECK(models >= 1);
	CHECK(d.any_model);
	figdesc_release(&d);

	/* the options fix a head dim: every panel is of it */
	o.sel.d = 64;
	figdesc_init(&d, "tflops");
	CHECK_INT(figdesc_tflops(&x.rd, &o, &d), 0);
	for (size_t p = 0; p < d.npanels; p++)
		CHECK_INT(d.panel[p].sel.d, 64);
	for (size_t i = 0; i < d.nused; i++)
		CHECK_INT(d.used[i]->shape.head_dim, 64);
	figdesc_release(&d);
	rinputs_release(&x.in);
}

/* no prefill records: the description carries the notice, no panel */
static void test_series_notice(void)
{
	struct in x;
	if (load(&x, "tests/fixtures/results-small.yaml"))
		SKIP("fixture missing");
	struct figopts o;
	figopts_init(&o);
	o.sel.d = 96; /* no record has it */
	struct figdesc d;
	figdesc_init(&d, "tflops");
	CHECK_INT(figdesc_tflops(&x.rd, &o, &d), 0);
	CHECK_STR(d.notice, "no prefill records");
	CHECK_INT(d.npanels, 0);
	CHECK_INT(d.nused, 0);
	figdesc_release(&d);
	rinputs_release(&x.in);
}

/* the shared-memory bars: a kernel that issues wgmma (its counters say so)
 * reads its operands from shared memory through the tensor cores, which
 * the LSU counters do not see: its zeros are "not visible to these
 * counters", not bars of 0; once its wgmma operand wavefronts are counted
 * they are a series of their own and its zeros are measurements again */
static void test_smem_beyond_lsu(void)
{
	struct in x;
	if (load(&x, "tests/fixtures/results-small.yaml"))
		SKIP("fixture missing");
	struct figopts o;
	figopts_init(&o);
	struct figdesc d;
	figdesc_init(&d, "smem");
	CHECK_INT(figdesc_smem(&x.rd, &o, &d), 0);
	CHECK_INT(d.nseries, 4);
	size_t cat = d.panel[0].ncat;
	for (size_t i = 0; i < d.panel[0].ncat; i++) {
		CHECK_STR(d.panel[0].catnote[i], "");
		if (!strcmp(d.panel[0].catlabel[i], "flash2"))
			cat = i;
	}
	CHECK(cat < d.panel[0].ncat);
	if (cat >= d.panel[0].ncat) {
		figdesc_release(&d);
		rinputs_release(&x.in);
		return;
	}
	struct record *r = (struct record *)figdesc_at(&d, 0, 0, cat)->rec;
	figdesc_release(&d);
	CHECK(!record_smem_beyond_lsu(r));
	/* flash2's record as a wgmma kernel's: wgmma instructions, no LSU shared traffic */
	CHECK_INT(kvlist_set(&r->totals, M_TENSOR_GMMA, 1e6), 0);
	CHECK_INT(kvlist_set(&r->totals, M_SMEM_LD_WF, 0), 0);
	CHECK_INT(kvlist_set(&r->totals, M_SMEM_ST_WF, 0), 0);
	CHECK(record_smem_beyond_lsu(r));
	figdesc_init(&d, "smem");
	CHECK_INT(figdesc_smem(&x.rd, &o, &d), 0);
	CHECK_STR(d.panel[0].catnote[cat], "not visible to these counters");
	CHECK_INT(figdesc_at(&d, 0, 0, cat)->state, FP_MISSING);
	CHECK_INT(figdesc_at(&d, 0, 1, cat)->state, FP_MISSING);
	for (size_t i = 0; i < d.panel[0].ncat; i++)
		if (i != cat)
			CHECK_STR(d.panel[0].catnote[i], "");
	figdesc_release(&d);
	/* its wgmma operand wavefronts counted: a fifth series, and the zeros stand */
	CHECK_INT(kvlist_set(&r->totals, M_SMEM_GMMA_WF, 3e8), 0);
	figdesc_init(&d, "smem");
	CHECK_INT(figdesc_smem(&x.rd, &o, &d), 0);
	CHECK_INT(d.nseries, 5);
	CHECK_STR(d.series[4].key, "smem_gmma_wavefronts");
	CHECK_STR(d.panel[0].catnote[cat], "");
	CHECK_INT(figdesc_at(&d, 0, 4, cat)->state, FP_VALUE);
	CHECK_NEAR(figdesc_at(&d, 0, 4, cat)->v, 3e8, 0);
	CHECK_INT(figdesc_at(&d, 0, 0, cat)->state, FP_VALUE);
	figdesc_release(&d);
	rinputs_release(&x.in);
}

/* counter rows: a row per record carrying the stalls set, each value its
 * record's stall_pct of that reason, the legend the set's labels */
static void test_counter_rows(void)
{
	struct in x;
	if (load(&x, "tests/fixtures/results-counters.yaml"))
		SKIP("fixture missing");
	struct figopts o;
	figopts_init(&o);
	struct figdesc d;
	figdesc_init(&d, "warp-states");
	CHECK_INT(figdesc_stalls(&x.rd, &o, &d), 0);
	const struct figpanel *pn = &d.panel[0];
	CHECK(pn->ncat >= 3);
	CHECK_INT(d.nused, pn->ncat);
	CHECK_INT(d.nseries, metric_stall_reason_count < FD_SERIES ? metric_stall_reason_count : FD_SERIES);
	CHECK_STR(d.series[0].label, metric_stall_reasons[0].label);
	size_t values = 0;
	for (size_t i = 0; i < pn->ncat; i++) {
		CHECK(pn->catlabel[i][0]);
		CHECK(!isnan(record_metric_or_nan(d.used[i], M_WARPS_ACTIVE)));
		for (size_t k = 0; k < d.nseries; k++) {
			const struct figpoint *q = figdesc_at(&d, 0, k, i);
			CHECK(q->rec == d.used[i]);
			double v;
			enum qunit u;
			char why[160];
			int rc = rdata_quantity(&x.rd, q->rec, "stall_pct", metric_stall_reasons[k].name, &v, &u, why, sizeof why);
			CHECK_INT(q->state, rc ? FP_MISSING : FP_VALUE);
			if (!rc) {
				CHECK_NEAR(q->v, v, 1e-12);
				values++;
			}
		}
	}
	CHECK(values >= 6);
	/* a backward row says so */
	int bwd = 0;
	for (size_t i = 0; i < pn->ncat; i++)
		bwd |= pn->cat[i] == PASS_BWD && strstr(pn->catlabel[i], " bwd") != NULL;
	CHECK(bwd);
	figdesc_release(&d);

	/* the workload set: DRAM bytes are the record's hbm_bytes */
	figdesc_init(&d, "memory-workload");
	CHECK_INT(figdesc_workload(&x.rd, &o, &d), 0);
	CHECK(d.panel[0].ncat >= 1);
	CHECK_STR(d.series[4].key, "hbm_bytes");
	for (size_t i = 0; i < d.panel[0].ncat; i++) {
		const struct figpoint *q = figdesc_at(&d, 0, 4, i);
		double v;
		enum qunit u;
		char why[160];
		if (!rdata_quantity(&x.rd, q->rec, "hbm_bytes", NULL, &v, &u, why, sizeof why))
			CHECK_NEAR(q->v, v, 1e-12);
		else
			CHECK(isnan(q->v));
	}
	figdesc_release(&d);
	/* results without counters: no row, the notice names the set */
	struct in y;
	if (!load(&y, "tests/fixtures/results-small.yaml")) {
		figdesc_init(&d, "warp-states");
		CHECK_INT(figdesc_stalls(&y.rd, &o, &d), 0);
		CHECK_INT(d.panel[0].ncat, 0);
		CHECK_STR(d.notice, "no warp-state counters at these conditions");
		figdesc_release(&d);
		rinputs_release(&y.in);
	}
	rinputs_release(&x.in);
}

/* ladder rungs: the ladder's rungs in order, base first, each step the
 * time of the rung before over this one's */
static void test_ladder(void)
{
	struct in x;
	if (load(&x, "tests/fixtures/results-small.yaml"))
		SKIP("fixture missing");
	struct figopts o;
	figopts_init(&o);
	struct figdesc d;
	figdesc_init(&d, "ladder");
	CHECK_INT(figdesc_ladder(&x.rd, &o, &d), 0);
	const struct figpanel *pn = &d.panel[0];
	CHECK(pn->ncat >= 2);
	CHECK_INT(d.nseries, 2);
	CHECK_STR(pn->catlabel[0], ablation_base(&o));
	CHECK(figdesc_at(&d, 0, 1, 0)->state != FP_VALUE); /* the base has no step */
	for (size_t i = 1; i < pn->ncat; i++) {
		const struct figpoint *t = figdesc_at(&d, 0, 0, i), *s = figdesc_at(&d, 0, 1, i),
				      *prev = figdesc_at(&d, 0, 0, i - 1);
		CHECK(!strncmp(pn->catlabel[i], "+ ", 2));
		CHECK(t->rec && prev->rec && t->rec != prev->rec);
		CHECK(t->rec->desc != NULL);
		if (s->state == FP_VALUE)
			CHECK_NEAR(s->v, prev->rec->time_ms / t->rec->time_ms, 1e-12);
		CHECK(t->state != FP_VALUE || t->v <= pn->hi);
	}
	/* the top rung names the ladder's top */
	CHECK(strstr(pn->catlabel[pn->ncat - 1], ablation_top(&o)->name) != NULL);
	CHECK_INT(d.nused, pn->ncat);
	figdesc_release(&d);
	rinputs_release(&x.in);
}

/* the ablation waterfall: its rungs those of the ladder table (one run),
 * each step from the rung before's TFLOP/s, the total named when both ends
 * were measured */
static void test_ablation_rungs(void)
{
	struct in x;
	if (load(&x, "tests/fixtures/results-small.yaml"))
		SKIP("fixture missing");
	struct figopts o;
	figopts_init(&o);
	struct figdesc d;
	figdesc_init(&d, "ablation");
	CHECK_INT(figdesc_ablation(&x.rd, &o, &d), 0);
	const struct figpanel *pn = &d.panel[0];
	struct rsel s;
	struct rung g[8];
	ablation_sel(&x.rd, &o, &s);
	size_t n = ablation_rungs(&x.rd, &o, &s, g, 8);
	CHECK(n >= 3);
	CHECK_INT(pn->ncat, n);
	CHECK(d.one_run && d.whisker_runs);
	for (size_t i = 0; i < n && i < pn->ncat; i++) {
		const struct figpoint *t = figdesc_at(&d, 0, 0, i), *p = figdesc_at(&d, 0, 1, i);
		CHECK(t->rec == g[i].r);
		CHECK_INT(pn->cat[i], g[i].ladder);
		CHECK_STR(d.catx[i].key, g[i].v->name);
		CHECK(p->rec == g[i].prev);
		if (g[i].prev && p->state == FP_VALUE) {
			double v;
			CHECK_INT(figdesc_value(&x.rd, g[i].prev, "tflops", NULL, &v), 0);
			CHECK_NEAR(p->v, v, 1e-12);
		}
		if (t->state == FP_VALUE)
			CHECK(t->v <= pn->hi && t->v >= pn->lo);
	}
	CHECK_CONTAINS(pn->total_label, "(total)");
	CHECK_CONTAINS(pn->group_label, ablation_base(&o));
	figdesc_release(&d);
	rinputs_release(&x.in);
}

/* roofline marks: each a kernel (or a call) of a record the figure names,
 * in a series it lists, its FLOP rate positive, the longest kernel of a
 * call filled (one per record) */
/* The roofline's ceilings (figdesc.c roof_ceilings): the header's rates,
 * the HBM slope the measured copy's (else the peak's); a level the
 * header did not measure is named in "missing", not drawn */
static void test_roofline_ceilings(void)
{
	struct in x;
	if (load(&x, "tests/fixtures/results-small.yaml"))
		SKIP("fixture missing");
	struct gpu_info *g = (struct gpu_info *)&x.rd.res->header.gpu;
	struct figopts o;
	figopts_init(&o);
	for (int pass = 0; pass < 2; pass++) {
		if (pass) /* the same results without an L2 bandwidth */
			g->ceil.l2_gbs = 0;
		struct figdesc d;
		figdesc_init(&d, "roofline");
		CHECK_INT(figdesc_roofline(&x.rd, &o, &d), 0);
		const struct figitem *dram = figdesc_part(&d, "level", 0), *l2 = figdesc_part(&d, "level", 1);
		CHECK(dram && l2 && figdesc_part(&d, "missing", 0));
		if (dram)
			CHECK_NEAR(dram->v, g->copy_gbs > 0 ? g->copy_gbs : g->peak_hbm_gbs, 0);
		if (l2)
			CHECK_NEAR(l2->v, g->ceil.l2_gbs, 0);
		int gemm = 0, l2c = 0, n = 0;
		const struct figitem *it;
		for (; (it = figdesc_part(&d, "ceiling", (size_t)n)); n++) {
			CHECK(it->v > 0 && it->text[0]);
			if (!strcmp(it->state, "gemm")) {
				gemm++;
				CHECK_NEAR(it->v, g->tensor_tflops, 0);
			}
			l2c += !strcmp(it->state, "l2");
		}
		CHECK(n >= 2 && n <= FD_ROOF_CEILINGS);
		CHECK_INT(gemm, g->tensor_tflops > 0);
		const int l2_missing = strstr(figdesc_text(&d, "missing", 0), "L2 roof") != NULL;
		CHECK_INT(l2_missing, !(g->ceil.l2_gbs > 0));
		if (l2_missing)
			CHECK_INT(l2c, 0);
		if (!pass)
			CHECK(g->ceil.l2_gbs > 0); /* the fixture measured it: the second pass tells */
		figdesc_release(&d);
	}
	rinputs_release(&x.in);
}

static void test_roofline_marks(void)
{
	struct in x;
	if (load(&x, "tests/fixtures/results-small.yaml"))
		SKIP("fixture missing");
	struct figopts o;
	figopts_init(&o);
	struct figdesc d;
	figdesc_init(&d, "roofline");
	CHECK_INT(figdesc_roofline(&x.rd, &o, &d), 0);
	CHECK(d.nmarks >= 2);
	for (size_t i = 0; i < d.nmarks; i++) {
		const struct figmark *m = &d.mark[i];
		CHECK(m->series < d.nseries);
		CHECK(used_has(&d, m->rec));
		CHECK(m->y > 0);
		CHECK(m->x[FD_DRAM] > 0);
		char k[SERIES_KEY];
		CHECK_STR(record_series(m->rec, k, sizeof k), d.series[m->series].key);
	}
	for (size_t u = 0; u < d.nused; u++) {
		int longest = 0;
		for (size_t i = 0; i < d.nmarks; i++)
			longest += d.mark[i].rec == d.used[u] && d.mark[i].longest;
		CHECK_INT(longest, 1);
	}
	figdesc_release(&d);
	rinputs_release(&x.in);
}

/* capture-dataflow (figdiagram.c): a captured call's stored/not-stored
 * rows, the count beside them and the rule's threshold all come from one
 * resolved verdict (rec->verdict_matrices, verdict_nn_bytes), not the
 * count the recorder stored.  capture-flex-eager.yaml's unfused call is
 * such a record: its GEMMs write fp32 (4-byte S and P); the test sets the
 * recorder's stored count apart from the verdict's and checks the figure
 * prints the verdict's. */
static void test_capdataflow(void)
{
	struct in x;
	if (load(&x, "experiments/results/capture/capture-flex-eager.yaml"))
		SKIP("capture-flex-eager.yaml missing");
	struct figopts o;
	figopts_init(&o);
	struct figdesc d;
	figdesc_init(&d, "capture-dataflow");
	CHECK_INT(figdesc_capdataflow(&x.rd, &o, &d), 0);
	CHECK(!d.notice[0]);
	CHECK_INT((int)d.nused, 1);
	const struct record *r = d.nused ? d.used[0] : NULL;
	if (!r || !r->capture) {
		figdesc_release(&d);
		rinputs_release(&x.in);
		return;
	}
	/* the recorder's own count, set apart from the verdict's, must not be
	 * what the figure prints: build again with it changed */
	r->capture->nn_matrices = r->verdict_matrices + 5;
	figdesc_release(&d);
	figdesc_init(&d, "capture-dataflow");
	CHECK_INT(figdesc_capdataflow(&x.rd, &o, &d), 0);
	CHECK(d.nused == 1 && d.used[0] == r);
	for (size_t i = 0; i < d.nitems; i++)
		CHECK(d.item[i].rec == r);
	const struct figitem *n = NULL, *it;
	for (size_t i = 0; (it = figdesc_part(&d, "chip", i)); i++)
		if (!strcmp(it->name, "verdict_matrices"))
			n = it;
	CHECK(n != NULL);
	if (n) {
		CHECK_NEAR(n->v, r->verdict_matrices, 0);
		char want[80];
		snprintf(want, sizeof want, ": %d", r->verdict_matrices);
		CHECK(strstr(n->text, want) != NULL);
	}
	/* seven HBM rows; S and P as the same verdict says, at its matrix size */
	size_t rows = 0;
	for (; (it = figdesc_part(&d, "hbm", rows)); rows++)
		if (!strcmp(it->name, "S") || !strcmp(it->name, "P")) {
			CHECK_STR(it->state, record_verdict_of(r, it->name));
			CHECK_NEAR(it->v, verdict_nn_bytes(r), 0);
		}
	CHECK_INT((int)rows, 7);
	const struct figitem *rule = figdesc_part(&d, "rule", 0);
	CHECK(rule != NULL);
	if (rule) {
		CHECK_NEAR(rule->v, 0.9 * verdict_nn_bytes(r), 1e-6);
		char want[80];
		snprintf(want, sizeof want, "at %d bytes an element", verdict_matrix_elem_bytes(r));
		CHECK(strstr(rule->text, want) != NULL);
	}
	CHECK(figdesc_part(&d, "read", 0) && figdesc_part(&d, "write", 0));
	figdesc_release(&d);
	rinputs_release(&x.in);
}

/* decode-bandwidth (patent-decode): one panel of the decode records, a
 * point per (series, KV length) that is that record's bandwidth with its
 * launches' spread; the reference the run's measured copy bandwidth */
static void test_decode_bandwidth(void)
{
	struct in x;
	if (load(&x, "tests/fixtures/results-small.yaml"))
		SKIP("fixture missing");
	struct figopts o;
	figopts_init(&o);
	struct figdesc d;
	figdesc_init(&d, "decode-bandwidth");
	CHECK_INT(figdesc_decode_bandwidth(&x.rd, &o, &d), 0);
	CHECK(!d.notice[0]);
	CHECK_INT((int)d.npanels, 1);
	CHECK(d.nseries >= 1);
	const struct figpanel *pn = &d.panel[0];
	CHECK_STR(pn->quantity, "bandwidth");
	const double cp = x.rd.res->header.gpu.copy_gbs;
	CHECK_NEAR(pn->ref, cp > 0 ? cp : 0, 0);
	size_t values = 0;
	for (size_t s = 0; s < d.nseries; s++) {
		CHECK(d.series[s].label[0] && d.series[s].generic[0]);
		for (size_t i = 0; i < pn->ncat; i++) {
			const struct figpoint *q = figdesc_at(&d, 0, s, i);
			CHECK(q != NULL);
			if (!q || !q->rec)
				continue;
			char k[SERIES_KEY];
			CHECK_STR(record_series(q->rec, k, sizeof k), d.series[s].key);
			CHECK_INT(q->rec->shape.phase, PHASE_DECODE);
			CHECK_INT(q->rec->shape.seqlen_kv, pn->cat[i]);
			CHECK(used_has(&d, q->rec));
			if (q->state != FP_VALUE)
				continue;
			double v;
			enum qunit u;
			char why[160];
			CHECK_INT(rdata_quantity(&x.rd, q->rec, "bandwidth", NULL, &v, &u, why, sizeof why), 0);
			CHECK_NEAR(q->v, v, 1e-9);
			CHECK(q->v <= pn->hi);
			if (q->whisker)
				CHECK(q->lo <= q->v && q->v <= q->hi);
			values++;
		}
	}
	CHECK(values >= 2);
	figdesc_release(&d);
	rinputs_release(&x.in);
}

/* dataflow (figdiagram.c): the subject's HBM rows stored or not as its
 * descriptor says, the arrows' bytes and the footer's peak its record's;
 * dataflow-compare: a group per variant, each with its own record */
static void test_dataflow(void)
{
	struct in x;
	if (load(&x, "tests/fixtures/results-small.yaml"))
		SKIP("fixture missing");
	struct figopts o;
	figopts_init(&o);
	struct figdesc d;
	figdesc_init(&d, "dataflow");
	CHECK_INT(figdesc_dataflow(&x.rd, &o, &d), 0);
	CHECK(!d.notice[0]);
	CHECK_INT((int)d.nused, 1);
	const struct record *r = d.nused ? d.used[0] : NULL;
	CHECK(r != NULL);
	if (r) {
		const struct variant_desc *v = variant_pass_desc(variant_find(r->variant), r->shape.pass);
		CHECK(v != NULL);
		const struct figitem *it;
		size_t rows = 0;
		for (; (it = figdesc_part_of(&d, 0, "hbm", rows)); rows++) {
			CHECK_STR(it->state, variant_stores(v, it->name) ? "stored" : "not stored");
			CHECK(it->v > 0 && it->label[0] && it->alt[1][0]);
		}
		CHECK(rows >= attn_matrix_count);
		const struct figitem *rp = figdesc_part_of(&d, 0, "read", 0);
		CHECK(rp != NULL);
		if (rp && isfinite(rp->v)) {
			CHECK(rp->rec == r);
			CHECK_NEAR(rp->v, record_metric_or_nan(r, M_DRAM_READ), 0);
		}
		const struct figitem *pk = figdesc_part(&d, "run_peak_bytes", 0);
		CHECK_INT(pk != NULL, r->peak_bytes != 0);
		if (pk) {
			CHECK(pk->rec == r);
			char b[32], want[64];
			snprintf(want, sizeof want, "Measured peak %s.", fmt_bytes((double)r->peak_bytes, b, sizeof b));
			CHECK(strstr(figdesc_text(&d, "footer", 0), want) != NULL);
		}
	}
	figdesc_release(&d);
	figdesc_init(&d, "dataflow-compare");
	CHECK_INT(figdesc_dataflow_compare(&x.rd, &o, &d), 0);
	CHECK(!d.notice[0]);
	CHECK(figdesc_part_of(&d, 0, "name", 0) && figdesc_part_of(&d, 1, "name", 0));
	CHECK(strcmp(figdesc_part_of(&d, 0, "name", 0)->text, figdesc_part_of(&d, 1, "name", 0)->text) != 0);
	for (int g = 0; g < 2; g++) {
		const struct figitem *rp = figdesc_part_of(&d, g, "read", 0);
		CHECK(rp != NULL);
		if (rp && rp->rec)
			CHECK_STR(rp->rec->variant, figdesc_part_of(&d, g, "name", 0)->text);
	}
	figdesc_release(&d);
	rinputs_release(&x.in);
}

/* dataflow-compare of the backward over the committed fa2-paper.yaml: every launch of
 * standard's backward has its DRAM bytes listed (the first 4 were: dq_gemm, the fifth of
 * dp_gemm, softmax_bwd, dv_gemm, dk_gemm, dq_gemm, was left out of the review's Fig. 2) */
static void test_dataflow_every_launch(void)
{
	struct in x;
	if (load(&x, "experiments/results/fa2-paper.yaml"))
		SKIP("experiments/results/fa2-paper.yaml missing");
	struct figopts o;
	figopts_init(&o);
	snprintf(o.variant, sizeof o.variant, "standard");
	snprintf(o.compare, sizeof o.compare, "flash2");
	o.sel.pass = PASS_BWD;
	struct figdesc d;
	figdesc_init(&d, "dataflow-compare");
	CHECK_INT(figdesc_dataflow_compare(&x.rd, &o, &d), 0);
	CHECK(!d.notice[0]);
	const struct figitem *rp = figdesc_part_of(&d, 0, "read", 0);
	const struct record *r = rp ? rp->rec : NULL;
	CHECK(r != NULL);
	if (r) {
		CHECK_STR(r->variant, "standard");
		CHECK(r->nlaunches >= 5);
		size_t n = 0;
		const struct figitem *lp;
		for (; (lp = figdesc_part_of(&d, 0, "launch", n)); n++)
			CHECK(lp->rec == r);
		CHECK_INT((int)n, (int)r->nlaunches);
		lp = figdesc_part_of(&d, 0, "launch", r->nlaunches - 1);
		CHECK(lp && strncmp(lp->text, "dq_gemm: r ", 11) == 0);
	}
	figdesc_release(&d);
	rinputs_release(&x.in);
}

/* partition-grid over the committed fa2-paper.yaml: standard's panel draws its softmax grid
 * and names its two cuBLAS GEMM launches with their recorded grids (the figure's title said
 * three launches and drew one); flash2, one launch, has no such line */
static void test_partition_grid_launches(void)
{
	struct in x;
	if (load(&x, "experiments/results/fa2-paper.yaml"))
		SKIP("experiments/results/fa2-paper.yaml missing");
	struct figopts o;
	figopts_init(&o);
	snprintf(o.variant, sizeof o.variant, "standard");
	snprintf(o.compare, sizeof o.compare, "flash2");
	struct figdesc d;
	figdesc_init(&d, "partition-grid");
	CHECK_INT(figdesc_partition_grid(&x.rd, &o, &d), 0);
	CHECK(!d.notice[0]);
	const struct figitem *l0 = figdesc_part_of(&d, 0, "launch", 0), *l1 = figdesc_part_of(&d, 0, "launch", 1),
			     *l2 = figdesc_part_of(&d, 0, "launch", 2);
	CHECK(l0 && l1 && l2 && !figdesc_part_of(&d, 0, "launch", 3));
	if (l0 && l1 && l2) {
		const struct record *r = l0->rec;
		CHECK(r && !strcmp(r->variant, "standard") && r->nlaunches == 3);
		CHECK(l1->rec == r);
		if (r && r->nlaunches == 3) {
			char want[160];
			snprintf(want, sizeof want, "launch 1, qk_gemm: grid %d×%d×%d = %lld blocks", r->launches[0].grid[0],
				 r->launches[0].grid[1], r->launches[0].grid[2],
				 (long long)r->launches[0].grid[0] * r->launches[0].grid[1] * r->launches[0].grid[2]);
			CHECK(strncmp(l0->text, want, strlen(want)) == 0);
			CHECK_NEAR(l0->v, (double)r->launches[0].grid[0] * r->launches[0].grid[1] * r->launches[0].grid[2], 0);
			CHECK(strncmp(l1->text, "launch 3, pv_gemm: grid ", 24) == 0);
			CHECK_STR(l2->text, "drawn below: launch 2, softmax");
		}
	}
	CHECK(figdesc_part_of(&d, 1, "title", 0) != NULL);
	CHECK(figdesc_part_of(&d, 1, "launch", 0) == NULL);
	figdesc_release(&d);
	rinputs_release(&x.in);
}

/* partition-bwd (figdiagram.c): the grid's blocks are the record's
 * launched grid where it has one (else the descriptor's at the shape), the
 * warp tiles multiply to the descriptor's warps, one kernel is the main */
static void test_partition_bwd(void)
{
	struct in x;
	if (load(&x, "tests/fixtures/results-small.yaml"))
		SKIP("fixture missing");
	struct figopts o;
	figopts_init(&o);
	snprintf(o.variant, sizeof o.variant, "flash2");
	struct figdesc d;
	figdesc_init(&d, "partition-bwd");
	CHECK_INT(figdesc_partition_bwd(&x.rd, &o, &d), 0);
	CHECK(!d.notice[0]);
	const struct figitem *g = figdesc_part(&d, "grid", 0);
	CHECK(g != NULL);
	double sizes[8] = { 0 };
	static const char *const names[8] = { "grid_x", "Br", "Bc", "d", "sr", "sc", "kr", "kc" };
	const struct figitem *it;
	for (size_t i = 0; (it = figdesc_part(&d, "size", i)); i++)
		for (size_t k = 0; k < 8; k++)
			if (!strcmp(it->name, names[k]))
				sizes[k] = it->v;
	for (size_t k = 0; k < 8; k++)
		CHECK(sizes[k] >= 1);
	CHECK_NEAR(sizes[4] * sizes[5], sizes[6] * sizes[7], 0); /* both layouts use every warp */
	CHECK_NEAR(sizes[4] * 32, sizes[1], 0);
	if (g && g->rec) {
		CHECK_INT(g->rec->shape.pass, PASS_BWD);
		const struct launch *l = record_main_launch(g->rec);
		CHECK(l != NULL);
		if (l)
			CHECK_NEAR(g->v, (double)l->grid[0] * l->grid[1], 0);
	}
	size_t nk = 0, main_k = 0;
	for (; (it = figdesc_part(&d, "kernel", nk)); nk++)
		main_k += !strcmp(it->state, "main");
	CHECK(nk >= 1);
	CHECK_INT((int)main_k, 1);
	figdesc_release(&d);
	rinputs_release(&x.in);
}

/* partition-grid (figdiagram.c): a group per series (baseline, subject);
 * the blocks are the record's launched grid where it has one, the waves
 * and the idle SMs the wave plan of those blocks over the GPU's SMs, the
 * rows drawn every wave (up to six) with the elision in between */
static void test_partition_grid(void)
{
	struct in x;
	if (load(&x, "tests/fixtures/results-small.yaml"))
		SKIP("fixture missing");
	struct figopts o;
	figopts_init(&o);
	struct figdesc d;
	figdesc_init(&d, "partition-grid");
	CHECK_INT(figdesc_partition_grid(&x.rd, &o, &d), 0);
	CHECK(!d.notice[0]);
	int groups = 0, launched = 0;
	for (int g = 0; figdesc_part_of(&d, g, "title", 0); g++, groups++) {
		const struct figitem *bl = figdesc_part_of(&d, g, "blocks", 0);
		const struct figitem *ax = figdesc_part_of(&d, g, "axis", 0), *ay = figdesc_part_of(&d, g, "axis", 1);
		const struct figitem *wv = figdesc_part_of(&d, g, "waves", 0);
		CHECK(bl && ax && ay && wv);
		if (!bl || !ax || !ay || !wv)
			continue;
		CHECK_NEAR(bl->v, ax->v * ay->v, 0); /* a 2-D grid: x by y */
		int sm = 0, per_sm = 0;
		const struct figitem *it;
		for (size_t i = 0; (it = figdesc_part_of(&d, g, "size", i)); i++) {
			if (!strcmp(it->name, "sm"))
				sm = (int)it->v;
			if (!strcmp(it->name, "per_sm"))
				per_sm = (int)it->v;
		}
		CHECK_INT(sm, rdata_sm_count(&x.rd));
		CHECK(per_sm >= 1);
		struct wave_plan wp;
		CHECK_INT(wave_plan(&wp, (long long)bl->v, sm, per_sm), 0);
		CHECK_NEAR(wv->v, wp.waves_exact, 1e-12);
		const struct figitem *idle = figdesc_part_of(&d, g, "idle", 0);
		CHECK_INT(idle ? (int)idle->v : 0, wp.idle_sms_last);
		if (idle) {
			char want[32];
			snprintf(want, sizeof want, "%d idle", wp.idle_sms_last);
			CHECK_STR(idle->text, want);
		}
		size_t rows = 0, elided = 0;
		for (; (it = figdesc_part_of(&d, g, "wave", rows)); rows++)
			elided += isnan(it->v);
		CHECK_INT((int)rows, wp.waves <= 6 ? wp.waves : 5);
		CHECK_INT((int)elided, wp.waves > 6);
		if (bl->rec) { /* a launch's grid: the record's */
			launched++;
			const struct launch *l = record_main_launch(bl->rec);
			CHECK(l != NULL);
			CHECK(used_has(&d, bl->rec));
		}
	}
	CHECK_INT(groups, 2); /* the baseline and the subject */
	CHECK(launched >= 1);
	figdesc_release(&d);
	/* a reference series has no descriptor: the notice, no group */
	snprintf(o.variant, sizeof o.variant, "pytorch-sdpa:FLASH_ATTENTION");
	snprintf(o.compare, sizeof o.compare, "pytorch-sdpa:FLASH_ATTENTION");
	figdesc_init(&d, "partition-grid");
	CHECK_INT(figdesc_partition_grid(&x.rd, &o, &d), 0);
	CHECK_STR(d.notice, "no grid to draw");
	CHECK(figdesc_part(&d, "title", 0) == NULL);
	figdesc_release(&d);
	rinputs_release(&x.in);
}

/* partition-warps (figdiagram.c): split-K (flash1) cuts the keys and sums
 * partial outputs in shared memory (its bytes the warps' fp32 O_i tiles),
 * split-Q (flash2) cuts the rows with no reduction; the measured
 * wavefronts are the record's counters */
static void test_partition_warps(void)
{
	struct in x;
	if (load(&x, "tests/fixtures/results-small.yaml"))
		SKIP("fixture missing");
	struct figopts o;
	figopts_init(&o);
	snprintf(o.variant, sizeof o.variant, "flash1");
	snprintf(o.compare, sizeof o.compare, "flash2");
	struct figdesc d;
	figdesc_init(&d, "partition-warps");
	CHECK_INT(figdesc_partition_warps(&x.rd, &o, &d), 0);
	for (int g = 0; g < 2; g++) {
		const struct figitem *t = figdesc_part_of(&d, g, "title", 0);
		CHECK(t != NULL);
		if (!t)
			continue;
		CHECK_STR(t->state, g ? "split-Q" : "split-K");
		int W = 0, Br = 0, hd = 0;
		const struct figitem *it;
		for (size_t i = 0; (it = figdesc_part_of(&d, g, "size", i)); i++) {
			if (!strcmp(it->name, "warps"))
				W = (int)it->v;
			if (!strcmp(it->name, "Br"))
				Br = (int)it->v;
			if (!strcmp(it->name, "d"))
				hd = (int)it->v;
		}
		CHECK(W >= 1 && Br >= 1 && hd >= 1);
		const struct figitem *kt = figdesc_part_of(&d, g, "tile", 1), *qt = figdesc_part_of(&d, g, "tile", 0);
		CHECK(kt && qt);
		if (kt && qt) {
			CHECK_STR(kt->name, "K_j");
			CHECK_NEAR(kt->v, g ? 1 : W, 0); /* split-K cuts the keys */
			CHECK_NEAR(qt->v, g ? W : 1, 0); /* split-Q the rows */
		}
		const struct figitem *red = figdesc_part_of(&d, g, "reduction", 0);
		CHECK((red != NULL) == !g);
		CHECK((figdesc_part_of(&d, g, "note", 0) != NULL) == !!g);
		if (red)
			CHECK_NEAR(red->v, (double)W * Br * hd * 4, 0);
		for (size_t i = 0; (it = figdesc_part_of(&d, g, "smem", i)); i++) {
			CHECK(it->rec != NULL);
			CHECK(used_has(&d, it->rec));
			if (!strcmp(it->name, "smem_st_wavefronts"))
				CHECK_NEAR(it->v, record_metric_or_nan(it->rec, M_SMEM_ST_WF), 0);
		}
	}
	figdesc_release(&d);
	rinputs_release(&x.in);
}

/* The grid parts of a patent view (pgrid_parts): blocks x by y, the
 * waves and the rows drawn those of the wave plan at its SMs */
static void check_pgrid(const struct figdesc *d, const struct launch *l)
{
	double gx = 0, gy = 0, blocks = 0, waves = 0, sm = 0, per_sm = 0;
	const struct figitem *it;
	for (size_t i = 0; i < d->nitems; i++) {
		it = &d->item[i];
		double *to = !strcmp(it->name, "grid_x") ? &gx : !strcmp(it->name, "grid_y") ? &gy
			   : !strcmp(it->name, "thread_blocks") ? &blocks : !strcmp(it->name, "waves") ? &waves
			   : !strcmp(it->name, "sm") ? &sm : !strcmp(it->name, "per_sm") ? &per_sm : NULL;
		if (to)
			*to = it->v;
	}
	CHECK(blocks >= gx * gy && gx * gy >= 1); /* x by y (by z) */
	if (l) {
		CHECK_NEAR(gx, l->grid[0], 0);
		CHECK_NEAR(gy, l->grid[1] > 0 ? l->grid[1] : 1, 0);
		CHECK_NEAR(blocks, (double)l->grid[0] * (l->grid[1] > 0 ? l->grid[1] : 1) * (l->grid[2] > 0 ? l->grid[2] : 1), 0);
	}
	struct wave_plan wp;
	CHECK_INT(wave_plan(&wp, (long long)blocks, (int)sm, (int)per_sm), 0);
	CHECK_NEAR(waves, wp.waves_exact, 1e-12);
	size_t rows = 0, elided = 0;
	for (; (it = figdesc_part(d, "wave", rows)); rows++)
		elided += isnan(it->v);
	CHECK_INT((int)rows, wp.waves <= 4 ? wp.waves : 3);
	CHECK_INT((int)elided, wp.waves > 4);
}

/* patent-grid, patent-warps, patent-capture-grid (figdiagram.c): the
 * subject's grid from its record's launch; split-K for flash1, split-Q
 * for flash2 with the descriptor's warps, the notice for standard; a
 * captured call's grid its main launch's */
static void test_patent_views(void)
{
	struct in x;
	if (load(&x, "tests/fixtures/results-small.yaml"))
		SKIP("fixture missing");
	struct figopts o;
	figopts_init(&o);
	struct figdesc d;
	figdesc_init(&d, "patent-grid");
	CHECK_INT(figdesc_patent_grid(&x.rd, &o, &d), 0);
	CHECK(!d.notice[0] && d.nused == 1);
	const struct figitem *bl = figdesc_part(&d, "blocks", 0);
	CHECK(bl && bl->rec && d.nused && bl->rec == d.used[0]);
	check_pgrid(&d, bl && bl->rec ? record_main_launch(bl->rec) : NULL);
	figdesc_release(&d);
	static const char *const vs[3] = { "flash1", "flash2", "standard" };
	static const char *const split[3] = { "split-K", "split-Q", "" };
	for (int i = 0; i < 3; i++) {
		snprintf(o.variant, sizeof o.variant, "%s", vs[i]);
		figdesc_init(&d, "patent-warps");
		CHECK_INT(figdesc_patent_warps(&x.rd, &o, &d), 0);
		const struct figitem *sp = figdesc_part(&d, "split", 0);
		CHECK((sp != NULL) == (i < 2));
		CHECK(!!d.notice[0] == (i == 2));
		if (sp) {
			CHECK_STR(sp->state, split[i]);
			struct pview pv;
			const struct variant_desc *v = patent_view(&x.rd, &o, &pv);
			CHECK(v != NULL);
			if (v)
				CHECK_NEAR(sp->v, pv.t.warps, 0);
		}
		figdesc_release(&d);
	}
	rinputs_release(&x.in);
	if (load(&x, "experiments/results/capture/capture-flex-eager.yaml"))
		SKIP("capture-flex-eager.yaml missing");
	figopts_init(&o);
	figdesc_init(&d, "patent-capture-grid");
	CHECK_INT(figdesc_patent_capture_grid(&x.rd, &o, &d), 0);
	CHECK(!d.notice[0] && d.nused == 1);
	if (d.nused) {
		bl = figdesc_part(&d, "blocks", 0);
		CHECK(bl && bl->rec == d.used[0]);
		check_pgrid(&d, capture_main_launch(d.used[0]));
	}
	figdesc_release(&d);
	rinputs_release(&x.in);
}

/* patent-causal (figdiagram.c): the cells cover every pair on or below
 * the diagonal once (the counts causal_tiles_count gives), none above it */
static void test_patent_causal(void)
{
	struct in x;
	if (load(&x, "tests/fixtures/results-small.yaml"))
		SKIP("fixture missing");
	struct figopts o;
	figopts_init(&o);
	snprintf(o.variant, sizeof o.variant, "flash2");
	struct figdesc d;
	figdesc_init(&d, "patent-causal");
	CHECK_INT(figdesc_patent_causal(&x.rd, &o, &d), 0);
	CHECK(!d.notice[0] && d.ncells > 0);
	double rows = 0, cols = 0, skipped = -1;
	const struct figitem *it;
	for (size_t i = 0; (it = figdesc_part(&d, "size", i)); i++) {
		if (!strcmp(it->name, "rows"))
			rows = it->v;
		if (!strcmp(it->name, "cols"))
			cols = it->v;
		if (!strcmp(it->name, "skipped"))
			skipped = it->v;
	}
	CHECK(rows >= 1 && cols >= 1 && skipped >= 0);
	double covered = 0;
	int masked = 0;
	for (size_t k = 0; k < d.ncells; k++) {
		const struct figcell *c = &d.cell[k];
		CHECK(c->i0 < c->i1 && c->j0 < c->j1 && c->i1 <= rows && c->j1 <= cols);
		covered += (double)(c->i1 - c->i0) * (c->j1 - c->j0);
		masked += c->fate == FD_CELL_MASKED;
		if (c->fate == FD_CELL_FULL) /* a full cell lies at or below the diagonal: its first row's last pair too */
			CHECK(c->j1 - 1 <= c->i0 * cols / rows + 1);
	}
	CHECK(masked > 0);
	if (rows <= CAUSAL_DRAW_MAX && cols <= CAUSAL_DRAW_MAX) /* a cell a pair: the pairs not skipped */
		CHECK_NEAR(covered, rows * cols - skipped, 0);
	figdesc_release(&d);
	rinputs_release(&x.in);
}

/* causal-blocks (figdiagram.c): the three fates add up to every pair,
 * their counts causal_tiles_count's at the causal record's shape and
 * tiling; the times are the causal and the unmasked records' */
static void test_causal_blocks(void)
{
	struct in x;
	if (load(&x, "tests/fixtures/results-small.yaml"))
		SKIP("fixture missing");
	struct figopts o;
	figopts_init(&o);
	snprintf(o.variant, sizeof o.variant, "flash2");
	struct figdesc d;
	figdesc_init(&d, "causal-blocks");
	CHECK_INT(figdesc_causal_blocks(&x.rd, &o, &d), 0);
	CHECK(!d.notice[0] && d.ncells > 0);
	double sz[8] = { 0 };
	static const char *const names[8] = { "rows", "cols", "full", "masked", "skipped", "Nq", "Br", "Bc" };
	const struct figitem *it;
	for (size_t i = 0; (it = figdesc_part(&d, "size", i)); i++)
		for (int k = 0; k < 8; k++)
			if (!strcmp(it->name, names[k]))
				sz[k] = it->v;
	CHECK_NEAR(sz[2] + sz[3] + sz[4], sz[0] * sz[1], 0);
	struct causal_count cc;
	CHECK_INT(causal_tiles_count((int)sz[5], (int)sz[5], (int)sz[6], (int)sz[7], &cc), 0);
	CHECK_NEAR(sz[2], cc.full, 0);
	CHECK_NEAR(sz[4], cc.skipped, 0);
	double fates = 0;
	for (size_t k = 0; (it = figdesc_part(&d, "fate", k)); k++)
		fates += it->v;
	CHECK_NEAR(fates, sz[0] * sz[1], 0);
	const struct figitem *m0 = figdesc_part(&d, "measured", 0), *m1 = figdesc_part(&d, "measured", 1);
	CHECK(m0 && m1 && d.nused == 2);
	if (m0 && m1 && m0->rec && m1->rec) {
		CHECK(m0->rec->shape.causal && !m1->rec->shape.causal);
		CHECK_NEAR(m0->v, m0->rec->time_ms * 1e3, 1e-9);
		CHECK_NEAR(m1->v, m1->rec->time_ms * 1e3, 1e-9);
		CHECK_INT(m0->rec->shape.seqlen_kv, (int)sz[5]);
	}
	figdesc_release(&d);
	rinputs_release(&x.in);
}

/* warp-split (figdiagram.c): flash1 split-K beside flash2 split-Q with
 * the descriptors' warps; the wavefronts the record's; a variant that
 * splits neither gives the notice */
static void test_warp_split(void)
{
	struct in x;
	if (load(&x, "tests/fixtures/results-small.yaml"))
		SKIP("fixture missing");
	struct figopts o;
	figopts_init(&o);
	snprintf(o.variant, sizeof o.variant, "flash1");
	snprintf(o.compare, sizeof o.compare, "flash2");
	struct figdesc d;
	figdesc_init(&d, "warp-split");
	CHECK_INT(figdesc_warp_split(&x.rd, &o, &d), 0);
	CHECK(!d.notice[0]);
	for (int g = 0; g < 2; g++) {
		const struct figitem *t = figdesc_part_of(&d, g, "title", 0), *f = figdesc_part_of(&d, g, "foot", 0);
		CHECK(t && f && figdesc_part_of(&d, g, "size", 0));
		if (!t || !f)
			continue;
		CHECK_STR(t->state, g ? "split-Q" : "split-K");
		if (f->rec) {
			CHECK(used_has(&d, f->rec));
			CHECK_NEAR(f->v, record_metric_or_nan(f->rec, M_SMEM_ST_WF), 0);
		}
	}
	figdesc_release(&d);
	snprintf(o.variant, sizeof o.variant, "standard");
	figdesc_init(&d, "warp-split");
	CHECK_INT(figdesc_warp_split(&x.rd, &o, &d), 0);
	CHECK_STR(d.notice, "no warp split to draw");
	CHECK(figdesc_part(&d, "title", 0) == NULL);
	figdesc_release(&d);
	rinputs_release(&x.in);
}

/* online-softmax (figdiagram.c): a row per block of the worked example,
 * its numbers the recurrence's (the last row's output the online
 * result); a row where the max moved is marked, the first never */
static void test_online_softmax(void)
{
	struct figopts o;
	figopts_init(&o);
	struct figdesc d;
	figdesc_init(&d, "online-softmax");
	CHECK_INT(figdesc_online_softmax(NULL, &o, &d), 0);
	struct osm_example ex;
	CHECK_INT(osm_teaching_example(&ex), 0);
	int rows = 0, moved = 0;
	while (figdesc_part_of(&d, rows + 1, "cell", 0))
		rows++;
	CHECK_INT(rows, ex.nsteps < 7 ? ex.nsteps : 7);
	for (int j = 0; j < rows; j++) {
		const struct figitem *m = figdesc_part_of(&d, j + 1, "cell", 2), *l = figdesc_part_of(&d, j + 1, "cell", 4);
		CHECK(m && l && figdesc_part_of(&d, j + 1, "cell", 6) && !figdesc_part_of(&d, j + 1, "cell", 7));
		if (!m || !l)
			continue;
		CHECK_NEAR(m->v, ex.steps[j].m, 0);
		CHECK_NEAR(l->v, ex.steps[j].l, 0);
		const int mv = !strcmp(m->state, "moved");
		CHECK_INT(mv, j > 0 && ex.steps[j].alpha < 1);
		moved += mv;
	}
	CHECK(moved >= 1); /* the example is chosen so that the max moves */
	const struct figitem *last = rows ? figdesc_part_of(&d, rows, "cell", 6) : NULL, *res = figdesc_part(&d, "result", 0);
	CHECK(last && res);
	if (last && res)
		CHECK_NEAR(last->v, res->v, 1e-12);
	figdesc_release(&d);
}

/* capture-kernels (figdiagram.c): a group per kind of call, its head the
 * sum of its kernels' times; "longest" the launches by time, longest
 * first; "rest" k the time of those not among the first k */
static void test_capture_kernels(void)
{
	struct in x;
	if (load(&x, "experiments/results/capture/capture-flex-eager.yaml"))
		SKIP("capture-flex-eager.yaml missing");
	struct figopts o;
	figopts_init(&o);
	struct figdesc d;
	figdesc_init(&d, "capture-kernels");
	CHECK_INT(figdesc_capture_kernels(&x.rd, &o, &d), 0);
	CHECK(!d.notice[0] && d.cond[0]);
	int ng = 0;
	for (; figdesc_part_of(&d, ng, "head", 0); ng++) {
		const struct figitem *head = figdesc_part_of(&d, ng, "head", 0), *it;
		CHECK(head->rec == d.used[ng]);
		double sum = 0;
		size_t nk = 0;
		for (; (it = figdesc_part_of(&d, ng, "kernel", nk)); nk++)
			sum += it->v;
		if (figdesc_part_of(&d, ng, "nodur", 0))
			continue;
		CHECK_INT((int)nk, (int)head->rec->nlaunches);
		CHECK_NEAR(sum, head->v, 1e-6 * head->v);
		double prev = INFINITY, top = 0;
		for (size_t q = 0; (it = figdesc_part_of(&d, ng, "longest", q)); q++) {
			const struct figitem *k = figdesc_part_of(&d, ng, "kernel", (size_t)it->v);
			CHECK(k && k->v <= prev);
			if (!k)
				break;
			prev = k->v;
			top += k->v;
			const struct figitem *rest = figdesc_part_of(&d, ng, "rest", q + 1);
			CHECK(rest != NULL);
			if (rest)
				CHECK_NEAR(rest->v, head->v - top, 1e-6 * head->v);
		}
		CHECK(figdesc_part_of(&d, ng, "rest", FD_KERNEL_LINES) != NULL);
		CHECK(figdesc_part_of(&d, ng, "rest", FD_KERNEL_LINES + 1) == NULL);
	}
	CHECK(ng >= 1);
	CHECK_INT(ng, (int)d.nused);
	figdesc_release(&d);
	rinputs_release(&x.in);
}

/* loop-steps (figdiagram.c): flash1's K/V-outer loop comes back to its
 * first Q block at step Tr + 1 (drawn at three panels and at four), the
 * last panel is the last step; a panel's io digits name only its buffers;
 * the measured bytes per step carry the record */
static void test_loop_steps(void)
{
	struct in x;
	if (load(&x, "tests/fixtures/results-small.yaml"))
		SKIP("fixture missing");
	struct figopts o;
	figopts_init(&o);
	struct figdesc d;
	figdesc_init(&d, "loop-steps");
	CHECK_INT(figdesc_loop_steps(&x.rd, &o, &d), 0);
	if (d.notice[0]) {
		printf("    notice: %s (%s)\n", d.notice, d.notice_why);
		CHECK(!d.notice[0]);
	}
	for (int g = 0; g < 2 && !d.notice[0]; g++) {
		size_t nb = 0;
		while (figdesc_part_of(&d, g, "buffer", nb))
			nb++;
		CHECK(nb >= 4);
		const struct figitem *it;
		for (int npan = 3; npan <= 4; npan++) {
			const char *role = npan == 3 ? "step3" : "step4";
			size_t n = 0;
			double prev = -1;
			for (; (it = figdesc_part_of(&d, g, role, n)); n++) {
				CHECK(it->v > prev);
				prev = it->v;
				CHECK_INT((int)strlen(it->label), (int)nb);
				CHECK(strspn(it->label, "0123") == nb);
				CHECK(it->alt[0][0]);
			}
			CHECK(n >= 2 && n <= (size_t)npan);
			CHECK_NEAR(figdesc_part_of(&d, g, role, 0)->v, 0, 0);
		}
		size_t nbytes = 0;
		for (; (it = figdesc_part_of(&d, g, "bytes", nbytes)); nbytes++)
			if (it->v >= 0 && nbytes > 0) {
				CHECK(it->rec != NULL && used_has(&d, it->rec));
			}
		CHECK_INT((int)nbytes, 3);
		CHECK(figdesc_part_of(&d, g, "line", 0) && figdesc_part_of(&d, g, "head", 0) && figdesc_part_of(&d, g, "brief", 0));
	}
	/* flash1 (group 0, K/V outer): at three panels the second is step Tr + 1, back at Q block 1 */
	const struct figitem *h = figdesc_part_of(&d, 0, "head", 0), *s2 = figdesc_part_of(&d, 0, "step3", 1);
	CHECK(h && s2 && strstr(h->text, "K/V outer") && strstr(s2->text, ", i=1"));
	figdesc_release(&d);
	rinputs_release(&x.in);
}

/* capture-grid (figdiagram.c): a group per kind of call, its waves the
 * main launch's blocks over the header's SMs at its resident blocks; the
 * bars the waves (at most 12), the last one's busy share their fraction */
static void test_capture_grid(void)
{
	struct in x;
	if (load(&x, "experiments/results/capture/capture-flex-eager.yaml"))
		SKIP("capture-flex-eager.yaml missing");
	struct figopts o;
	figopts_init(&o);
	struct figdesc d;
	figdesc_init(&d, "capture-grid");
	CHECK_INT(figdesc_capture_grid(&x.rd, &o, &d), 0);
	CHECK(!d.notice[0] && d.cond[0]);
	int ng = 0, drawn = 0;
	const int sm = x.rd.res->header.gpu.hw.sm_count > 0 ? x.rd.res->header.gpu.hw.sm_count : 1;
	for (; figdesc_part_of(&d, ng, "head", 0); ng++) {
		CHECK(figdesc_part_of(&d, ng, "sent", 0) && figdesc_part_of(&d, ng, "rule", 0));
		const struct figitem *more = figdesc_part_of(&d, ng, "more", 0), *w = figdesc_part_of(&d, ng, "waves", 0);
		CHECK(more && (int)more->v == (int)d.nused - ng);
		if (!w)
			continue;
		drawn++;
		CHECK(w->rec == d.used[ng]);
		const struct launch *l = capture_main_launch(w->rec);
		CHECK(l != NULL);
		if (!l)
			continue;
		long long blocks = (long long)l->grid[0] * (l->grid[1] > 0 ? l->grid[1] : 1) * (l->grid[2] > 0 ? l->grid[2] : 1);
		int threads = l->block[0] * (l->block[1] > 0 ? l->block[1] : 1) * (l->block[2] > 0 ? l->block[2] : 1);
		int per_sm = blocks_per_sm_from_occupancy(l->theoretical_occupancy, (threads + 31) / 32, 64);
		CHECK_NEAR(w->v, (double)blocks / ((double)sm * (per_sm < 1 ? 1 : per_sm)), 1e-12);
		double bars = -1, last = -1;
		const struct figitem *it;
		for (size_t i = 0; (it = figdesc_part_of(&d, ng, "size", i)); i++) {
			if (!strcmp(it->name, "bars"))
				bars = it->v;
			if (!strcmp(it->name, "last"))
				last = it->v;
		}
		CHECK_NEAR(bars, ceil(w->v - 1e-9) > 12 ? 12 : ceil(w->v - 1e-9), 0);
		CHECK_NEAR(last, w->v - floor(w->v), 1e-12);
		CHECK(figdesc_part_of(&d, ng, "tail", 0) != NULL);
	}
	CHECK(ng >= 1 && drawn >= 1);
	figdesc_release(&d);
	rinputs_release(&x.in);
}

/* hierarchy (figdiagram.c): three levels from the header, their numbers
 * the header's; a header without sizes gives the notice, no levels */
static void test_hierarchy(void)
{
	struct in x;
	if (load(&x, "tests/fixtures/results-small.yaml"))
		SKIP("fixture missing");
	struct figopts o;
	figopts_init(&o);
	struct figdesc d;
	figdesc_init(&d, "hierarchy");
	CHECK_INT(figdesc_hierarchy(&x.rd, &o, &d), 0);
	struct gpu_info *g = &x.in.res.header.gpu; /* the loaded file, rd reads it */
	CHECK(!d.notice[0]);
	CHECK(figdesc_part(&d, "level", 2) && !figdesc_part(&d, "level", 3));
	const struct figitem *it;
	for (size_t i = 0; (it = figdesc_part(&d, "level-size", i)); i++)
		if (!strcmp(it->name, "l2_bytes"))
			CHECK_NEAR(it->v, (double)g->hw.l2_bytes, 0);
	const struct figitem *ratio = figdesc_part(&d, "ratio", 0);
	CHECK_INT(ratio != NULL, g->ceil.smem_gbs > 0 && g->copy_gbs > 0 && g->hw.smem_per_sm && g->hw.hbm_bytes);
	if (ratio)
		CHECK_NEAR(ratio->v, g->ceil.smem_gbs / g->copy_gbs, 1e-12);
	figdesc_release(&d);
	const struct gpu_info saved = *g;
	g->hw.hbm_bytes = g->hw.l2_bytes = 0;
	figdesc_init(&d, "hierarchy");
	CHECK_INT(figdesc_hierarchy(&x.rd, &o, &d), 0);
	CHECK_STR(d.notice, "no memory hierarchy");
	CHECK(!figdesc_part(&d, "level", 0));
	*g = saved;
	figdesc_release(&d);
	rinputs_release(&x.in);
}

/* series_look_index: a variant's look is its descriptor's slot (else its
 * table place), a reference's the order its records first appear in:
 * the first grey (3), the second dark grey (8), whatever a figure shows */
static void test_series_look(void)
{
	struct in x;
	if (load(&x, "tests/fixtures/results-small.yaml"))
		SKIP("fixture missing");
	for (size_t i = 0; i < variant_count; i++) {
		const struct variant_desc *v = variant_table[i];
		CHECK_INT(series_look_index(&x.rd, v->name), v->color_slot ? v->color_slot - 1 : 4 + (int)(i % 4));
	}
	char refs[2][SERIES_KEY];
	size_t nref = 0;
	for (size_t i = 0; i < x.rd.res->nrecords && nref < 2; i++) {
		const struct record *r = &x.rd.res->records[i];
		char k[SERIES_KEY];
		if (!r->source || !strcmp(r->source, "attnprof") || record_captured(r))
			continue;
		record_series(r, k, sizeof k);
		if (!nref || strcmp(refs[0], k))
			snprintf(refs[nref++], SERIES_KEY, "%s", k);
	}
	CHECK(nref >= 1);
	if (nref >= 1)
		CHECK_INT(series_look_index(&x.rd, refs[0]), 3);
	if (nref >= 2)
		CHECK_INT(series_look_index(&x.rd, refs[1]), 8);
	CHECK_INT(series_look_index(NULL, "ref:unknown"), 3);
	rinputs_release(&x.in);
}

/* patent-capture-dataflow: S and P in memory exactly where the call's
 * resolved verdict stores them (or does not decide), the kernels drawn
 * the first, the longest attention kernel and the last */
static void test_pcapdataflow(void)
{
	struct in x;
	if (load(&x, "experiments/results/capture/capture-flex-eager.yaml"))
		SKIP("capture-flex-eager.yaml missing");
	struct figopts o;
	figopts_init(&o);
	struct figdesc d;
	figdesc_init(&d, "patent-capture-dataflow");
	CHECK_INT(figdesc_pcapdataflow(&x.rd, &o, &d), 0);
	CHECK(!d.notice[0] && d.nused == 1);
	const struct record *r = d.nused ? d.used[0] : NULL;
	if (r) {
		const struct figitem *it;
		size_t nn = 0;
		for (size_t i = 0; (it = figdesc_part(&d, "matrix", i)); i++)
			if (it->label[0]) {
				CHECK_STR(it->state, record_verdict_of(r, it->label));
				CHECK(strcmp(it->state, "not stored") != 0);
				nn++;
			}
		size_t want = 0;
		for (int j = 0; j < 2; j++)
			want += strcmp(record_verdict_of(r, j ? "P" : "S"), "not stored") != 0;
		CHECK_INT((int)nn, (int)want);
		const struct launch *ml = capture_main_launch(r);
		size_t nk = 0, mains = 0;
		double last = -1;
		for (; (it = figdesc_part(&d, "kernel", nk)); nk++) {
			CHECK(it->v > last);
			last = it->v;
			if (!strcmp(it->state, "main")) {
				mains++;
				CHECK(ml && it->v == (double)(ml - r->launches));
			}
		}
		CHECK(nk >= 1 && nk <= 4);
		CHECK_INT((int)mains, ml != NULL);
		CHECK_NEAR(figdesc_part(&d, "kernel", 0)->v, 0, 0);
		CHECK_NEAR(last, (double)r->nlaunches - 1, 0);
	}
	figdesc_release(&d);
	rinputs_release(&x.in);
}

/* warpspec (figdiagram.c): the roles, registers and ring of the variant's
 * partition (ws_partition_of); with no record the register line says the
 * counts are the descriptor's and no launch line is drawn; with one the
 * launch's registers replace the compiled count and the launch line
 * carries that record */
static void test_warpspec(void)
{
	struct in x;
	if (load(&x, "tests/fixtures/results-small.yaml"))
		SKIP("fixture missing");
	struct figopts o;
	figopts_init(&o);
	snprintf(o.variant, sizeof o.variant, "hopper+overlap");
	struct figdesc d;
	figdesc_init(&d, "warpspec");
	CHECK_INT(figdesc_warpspec(&x.rd, &o, &d), 0);
	CHECK(!d.notice[0]);
	CHECK_INT((int)d.nused, 0);
	const struct variant_desc *v = ws_variant_or_default("hopper+overlap");
	struct rsel sel;
	fig_sel(&x.rd, &o, &sel);
	struct attn_shape s = fig_typical_shape(&sel, 4);
	struct ws_partition p;
	CHECK(v && !ws_partition_of(v, &s, rdata_sm_count(&x.rd), &p));
	CHECK_INT(figdesc_size(&d, 0, "producers"), p.producers);
	CHECK_INT(figdesc_size(&d, 0, "consumers"), p.consumers);
	CHECK_INT(figdesc_size(&d, 0, "stages"), p.stages);
	CHECK_INT(figdesc_size(&d, 0, "regs_consumer"), p.regs_consumer);
	size_t nrole = 0, nbar = 0, nstage = 0;
	while (figdesc_part(&d, "role", nrole))
		nrole++;
	while (figdesc_part(&d, "regbar", nbar))
		nbar++;
	while (figdesc_part(&d, "stage", nstage))
		nstage++;
	CHECK_INT(nrole, p.producers + p.consumers);
	CHECK_INT(nbar, nrole);
	CHECK_INT(nstage, 2 * p.stages);
	const struct figitem *r0 = figdesc_part(&d, "role", 0);
	CHECK(r0 && !strcmp(r0->state, "producer") && r0->v == p.regs_producer);
	CHECK_NEAR(figdesc_part(&d, "smem", 0)->v, (double)p.smem_bytes, 0);
	CHECK_CONTAINS(figdesc_text(&d, "regs", 0), "(descriptor)");
	CHECK(figdesc_part(&d, "launch", 0) == NULL);
	figdesc_release(&d);
	rinputs_release(&x.in);

	if (load(&x, "experiments/results/hopper.yaml"))
		SKIP("hopper.yaml missing");
	o.sel.n = 4096;
	o.sel.batch = 4;
	figdesc_init(&d, "warpspec");
	CHECK_INT(figdesc_warpspec(&x.rd, &o, &d), 0);
	CHECK_INT((int)d.nused, 1);
	const struct figitem *l = figdesc_part(&d, "launch", 0);
	CHECK(l && d.nused && l->rec == d.used[0]);
	if (l && l->rec) {
		const struct launch *ml = record_main_launch(l->rec);
		CHECK(ml && l->v == ml->registers);
		CHECK(strstr(figdesc_text(&d, "regs", 0), "(descriptor)") == NULL);
		char want[32];
		snprintf(want, sizeof want, "launched at %d a thread", ml ? ml->registers : -1);
		CHECK_CONTAINS(figdesc_text(&d, "regs", 0), want);
	}
	figdesc_release(&d);
	rinputs_release(&x.in);
}

/* ws-timeline (figdiagram.c): a group per rung with a schedule, base
 * first; every bar is an event of the rung's timeline (ws_timeline_build)
 * on its unit's or role's lane, the producer's waits left out; the arrows
 * are of the middle phase; each rung's measured time is its one-run
 * record's and the step the rung before's time over its own */
static void test_ws_timeline(void)
{
	struct in x;
	if (load(&x, "experiments/results/hopper.yaml"))
		SKIP("hopper.yaml missing");
	struct figopts o;
	figopts_init(&o);
	snprintf(o.variant, sizeof o.variant, "hopper+overlap");
	o.sel.n = 4096;
	o.sel.batch = 4;
	struct figdesc d;
	figdesc_init(&d, "ws-timeline");
	CHECK_INT(figdesc_ws_timeline(&x.rd, &o, &d), 0);
	CHECK(!d.notice[0]);
	static const char *const rung[] = { "hopper+wgmma", "hopper+tma+ws", "hopper+pingpong", "hopper+overlap" };
	static struct ws_timeline tl;
	const char *file = NULL;
	for (int g = 0; g < 4; g++) {
		const struct figitem *h = figdesc_part_of(&d, g, "head", 0), *m = figdesc_part_of(&d, g, "measured", 0);
		CHECK(h && !strcmp(h->name, rung[g]));
		CHECK(m && m->rec);
		if (!h || !m || !m->rec)
			continue;
		CHECK_STR(m->rec->variant, rung[g]);
		CHECK_NEAR(m->v, m->rec->time_ms * 1000, 1e-12);
		CHECK_CONTAINS(h->text, m->text);
		if (!file)
			file = rdata_record_file(&x.rd, m->rec);
		CHECK_STR(rdata_record_file(&x.rd, m->rec), file); /* one run */
		const struct figitem *st = figdesc_part_of(&d, g, "step", 0), *pm = g ? figdesc_part_of(&d, g - 1, "measured", 0) : NULL;
		if (st && pm && pm->rec)
			CHECK_NEAR(st->v, pm->v / m->v, 1e-9);
		const struct variant_desc *v = ws_variant_or_default(rung[g]);
		CHECK(v && !ws_timeline_build(&tl, v->ws, v->rung, 128, 4, NULL));
		size_t kept = 0, n = 0;
		for (size_t i = 0; i < tl.nev; i++)
			kept += !(sched_op_is_wait(tl.ev[i].op) && tl.ev[i].who < 0);
		for (size_t i = 0; i < d.nspans; i++) {
			const struct figspan *sp = &d.span[i];
			if (sp->group != g)
				continue;
			CHECK(sp->lane >= 0 && sp->lane < figdesc_size(&d, g, "lanes"));
			CHECK(sp->wait ? !sp->label[0] && sp->lane >= FD_LANE_CONSUMER : sp->label[0] != 0);
			CHECK(sp->t1 >= sp->t0);
			n++;
		}
		CHECK_INT(n, kept);
		CHECK_NEAR(figdesc_size(&d, g, "end"), tl.end, 0);
		for (size_t i = 0; i < d.nlinks; i++)
			if (d.link[i].group == g)
				CHECK(d.link[i].to_lane >= FD_LANE_CONSUMER);
	}
	CHECK(figdesc_part_of(&d, 4, "head", 0) == NULL);
	CHECK(figdesc_part(&d, "key", 1) != NULL);
	CHECK_INT((int)d.nused, 4);
	figdesc_release(&d);
	/* a build step: rung 2 beside rung 1 */
	o.step = 2;
	figdesc_init(&d, "ws-timeline");
	CHECK_INT(figdesc_ws_timeline(&x.rd, &o, &d), 0);
	CHECK(figdesc_part_of(&d, 0, "head", 0) && !strcmp(figdesc_part_of(&d, 0, "head", 0)->name, rung[0]));
	CHECK(figdesc_part_of(&d, 1, "head", 0) && !strcmp(figdesc_part_of(&d, 1, "head", 0)->name, rung[1]));
	CHECK(figdesc_part_of(&d, 2, "head", 0) == NULL);
	figdesc_release(&d);
	/* patent-timeline: the variant's own loop; the picks it numbers are found */
	o.step = 0;
	snprintf(o.variant, sizeof o.variant, "hopper+pingpong");
	figdesc_init(&d, "patent-timeline");
	CHECK_INT(figdesc_ws_loop(&x.rd, &o, &d), 0);
	CHECK(!d.notice[0] && d.nspans > 0);
	const int ph = (int)figdesc_size(&d, 0, "nblocks") / 2;
	const struct figspan *qk = figdesc_span_find(&d, 0, SO_GEMM_QK, 0, ph);
	CHECK_INT(ph, 2);
	CHECK(qk && qk->lane == FD_LANE_TENSOR && !strcmp(qk->label, "QK₂"));
	CHECK(figdesc_span_find(&d, 0, SO_LOAD_K, WS_PRODUCER, ph + 1) != NULL);
	CHECK(figdesc_span_find(&d, 1, SO_GEMM_QK, 0, ph) == NULL);
	figdesc_release(&d);
	rinputs_release(&x.in);
	/* no record at the conditions: the heads say so, no measured part */
	if (load(&x, "tests/fixtures/results-small.yaml"))
		SKIP("fixture missing");
	snprintf(o.variant, sizeof o.variant, "hopper+overlap");
	figdesc_init(&d, "ws-timeline");
	CHECK_INT(figdesc_ws_timeline(&x.rd, &o, &d), 0);
	CHECK(figdesc_part(&d, "measured", 0) == NULL);
	CHECK_CONTAINS(figdesc_text(&d, "head", 0), "not measured at these conditions");
	figdesc_release(&d);
	rinputs_release(&x.in);
}

/* capture-compare (figdesc.c): a category per captured prefill shape by
 * N, a series per captured implementation then attnprof's two references;
 * each bar the TFLOP/s of the record of its series at its category's shape
 * with its launches' spread; a reference without a record there is left
 * empty and counted in the "missing" part */
static void check_capcompare(const struct figdesc *d, int want_missing)
{
	const struct figpanel *pn = &d->panel[0];
	CHECK(!d->notice[0] && d->npanels == 1 && d->nseries >= 3 && pn->ncat > 0);
	CHECK(d->nused > 0 && d->cond[0]);
	CHECK_STR(d->series[d->nseries - 2].key, variant_role(DOC_CONVENTIONAL));
	CHECK_STR(d->series[d->nseries - 1].key, variant_role(DOC_SUBJECT));
	CHECK_INT(d->series[d->nseries - 1].capture_look, 0);
	CHECK(d->series[0].capture_look > 0);
	double hi = 0;
	int missing = 0;
	for (size_t k = 0; k < pn->ncat; k++) {
		if (k)
			CHECK(pn->cat[k] >= pn->cat[k - 1]);
		char lab[16];
		snprintf(lab, sizeof lab, pn->cat[k] % 1024 ? "%d" : "%dk", pn->cat[k] % 1024 ? pn->cat[k] : pn->cat[k] / 1024);
		CHECK_STR(pn->catlabel[k], lab);
		for (size_t s = 0; s < d->nseries; s++) {
			const struct figpoint *q = figdesc_at(d, 0, s, k);
			if (q->state != FP_VALUE) {
				missing += !d->series[s].capture_look;
				continue;
			}
			CHECK(q->rec && !strcmp(q->rec->variant, d->series[s].key));
			CHECK_INT(q->rec->shape.seqlen_kv, pn->cat[k]);
			CHECK_NEAR(q->v, q->rec->tflops, 0);
			if (q->whisker)
				CHECK(q->lo <= q->v && q->v <= q->hi);
			hi = fmax(hi, q->v);
		}
	}
	CHECK_NEAR(pn->hi, hi, 0);
	CHECK_INT(missing, want_missing < 0 ? missing : want_missing);
	const struct figitem *m = figdesc_part(d, "missing", 0);
	CHECK(missing ? m && m->v == missing : m == NULL);
}

static void test_capture_compare(void)
{
	struct in x;
	memset(&x, 0, sizeof x);
	const char *files[2] = { "experiments/results/capture/capture-sdpa.yaml", "experiments/results/fa2-paper.yaml" };
	if (rinputs_load(&x.in, files, 2, NULL, 0, NULL))
		SKIP("capture-sdpa.yaml or fa2-paper.yaml missing");
	rdata_init_inputs(&x.rd, &x.in);
	struct figopts o;
	figopts_init(&o);
	struct figdesc d;
	figdesc_init(&d, "capture-compare");
	CHECK_INT(figdesc_capture_compare(&x.rd, &o, &d), 0);
	check_capcompare(&d, -1);
	/* every point a captured call's of the forward pass, or the reference's */
	for (size_t i = 0; i < d.nused; i++)
		CHECK(d.used[i]->capture && d.used[i]->shape.pass == PASS_FWD);
	figdesc_release(&d);
	rinputs_release(&x.in);
	/* without attnprof's records every reference slot is missing */
	if (load(&x, "experiments/results/capture/capture-sdpa.yaml"))
		SKIP("capture-sdpa.yaml missing");
	figdesc_init(&d, "capture-compare");
	CHECK_INT(figdesc_capture_compare(&x.rd, &o, &d), 0);
	check_capcompare(&d, (int)(2 * d.panel[0].ncat));
	figdesc_release(&d);
	rinputs_release(&x.in);
	/* no captured call: the notice */
	if (load(&x, "tests/fixtures/results-small.yaml"))
		SKIP("fixture missing");
	figdesc_init(&d, "capture-compare");
	CHECK_INT(figdesc_capture_compare(&x.rd, &o, &d), 0);
	CHECK_STR(d.notice, "no captured forward prefill call");
	o.sel.pass = PASS_BWD;
	figdesc_release(&d);
	figdesc_init(&d, "capture-compare");
	CHECK_INT(figdesc_capture_compare(&x.rd, &o, &d), 0);
	CHECK_STR(d.notice, "no captured backward prefill call");
	figdesc_release(&d);
	rinputs_release(&x.in);
}

/* tiling (figdiagram.c): the tiles' sizes are the descriptor's tiling at
 * the record's shape, the K/V blocks N / Bc rounded up, the note the
 * step's; a variant that stores S draws its N×N matrices at the record's
 * allocation; a name without a descriptor is a notice */
static void test_tiling(void)
{
	struct in x;
	if (load(&x, "tests/fixtures/results-small.yaml"))
		SKIP("fixture missing");
	struct figopts o;
	figopts_init(&o);
	snprintf(o.variant, sizeof o.variant, "flash2");
	o.step = 3;
	struct figdesc d;
	figdesc_init(&d, "tiling");
	CHECK_INT(figdesc_tiling(&x.rd, &o, &d), 0);
	CHECK(!d.notice[0]);
	CHECK_STR(figdesc_part(&d, "mode", 0)->state, "tiled");
	struct rsel sel;
	fig_sel(&x.rd, &o, &sel);
	const struct record *r = rdata_find(&x.rd, "flash2", &sel);
	struct attn_shape s = r ? r->shape : fig_typical_shape(&sel, sel.batch > 0 ? sel.batch : 4);
	struct tiling t;
	variant_find("flash2")->tiling(&s, rdata_sm_count(&x.rd), &t);
	CHECK_INT(figdesc_size(&d, 0, "Br"), t.block_m);
	CHECK_INT(figdesc_size(&d, 0, "Bc"), t.block_n);
	CHECK_INT(figdesc_size(&d, 0, "step"), 3);
	CHECK_INT(figdesc_part(&d, "loop", 0)->v, (s.seqlen_kv + t.block_n - 1) / t.block_n);
	char want[32];
	snprintf(want, sizeof want, "%d×%d", t.block_m, t.block_n);
	CHECK_STR(figdesc_part(&d, "tile", 3)->alt[0], want);
	CHECK_CONTAINS(figdesc_text(&d, "note", 0), "score tile");
	CHECK_INT((int)d.nused, r ? 1 : 0);
	figdesc_release(&d);
	o.step = 9; /* past the last step: all of it */
	figdesc_init(&d, "tiling");
	CHECK_INT(figdesc_tiling(&x.rd, &o, &d), 0);
	CHECK_INT(figdesc_size(&d, 0, "step"), 5);
	figdesc_release(&d);
	o.step = 0;
	snprintf(o.variant, sizeof o.variant, "standard");
	figdesc_init(&d, "tiling");
	CHECK_INT(figdesc_tiling(&x.rd, &o, &d), 0);
	CHECK_STR(figdesc_part(&d, "mode", 0)->state, "standard");
	const struct figitem *S = figdesc_part(&d, "hbm", 2);
	CHECK(S && !strcmp(S->name, "S") && !strcmp(S->state, "stored") && S->v > 0);
	if (S && S->rec) {
		const double *a = kvlist_get(&S->rec->allocs, "S");
		CHECK(a && *a == S->v);
	}
	CHECK(figdesc_part(&d, "kernel", 2) && figdesc_part(&d, "tile", 0) == NULL);
	figdesc_release(&d);
	snprintf(o.variant, sizeof o.variant, "pytorch-sdpa:FLASH_ATTENTION"); /* a reference: no descriptor */
	figdesc_init(&d, "tiling");
	CHECK_INT(figdesc_tiling(&x.rd, &o, &d), 0);
	CHECK_STR(d.notice, "no data flow to draw");
	figdesc_release(&d);
	rinputs_release(&x.in);
}

/* loop-order (figdiagram.c): the K/V-outer variant's body round-trips
 * through HBM, the Q-outer one's keeps O in registers and writes once;
 * the loops' counts are the tiling's; the traffic is the record's */
static void test_loop_order(void)
{
	struct in x;
	if (load(&x, "tests/fixtures/results-small.yaml"))
		SKIP("fixture missing");
	struct figopts o;
	figopts_init(&o);
	snprintf(o.variant, sizeof o.variant, "flash1");
	snprintf(o.compare, sizeof o.compare, "flash2");
	struct figdesc d;
	figdesc_init(&d, "loop-order");
	CHECK_INT(figdesc_loop_order(&x.rd, &o, &d), 0);
	CHECK(!d.notice[0]);
	for (int g = 0; g < 2; g++) {
		const struct figitem *nm = figdesc_part_of(&d, g, "name", 0);
		CHECK(nm != NULL);
		if (!nm)
			continue;
		const struct variant_desc *v = variant_find(nm->name);
		CHECK(v != NULL);
		if (!v)
			continue;
		int hbm = 0, nbody = 0;
		const struct figitem *it;
		for (; (it = figdesc_part_of(&d, g, "body", (size_t)nbody)); nbody++)
			hbm += !strcmp(it->state, "hbm");
		const int kv = v->loop == LOOP_KV_OUTER;
		CHECK_INT(hbm, kv ? 2 : 0);
		CHECK_INT(nbody, kv ? 3 : 2);
		CHECK((figdesc_part_of(&d, g, "pre", 0) != NULL) == !kv);
		CHECK((figdesc_part_of(&d, g, "post", 0) != NULL) == !kv);
		CHECK_INT(figdesc_part_of(&d, g, "outer", 0)->v, figdesc_size(&d, g, kv ? "Tc" : "Tr"));
		const struct figitem *tr = figdesc_part_of(&d, g, "traffic", 0);
		if (tr) {
			CHECK(tr->rec && used_has(&d, tr->rec));
			CHECK_NEAR(tr->v, record_hbm_bytes(tr->rec), 0);
		}
	}
	CHECK_STR(figdesc_part_of(&d, 0, "name", 0)->name, "flash1");
	figdesc_release(&d);
	snprintf(o.variant, sizeof o.variant, "standard");
	figdesc_init(&d, "loop-order");
	CHECK_INT(figdesc_loop_order(&x.rd, &o, &d), 0);
	CHECK_STR(d.notice, "no loop order to draw");
	CHECK(figdesc_part(&d, "name", 0) == NULL);
	figdesc_release(&d);
	rinputs_release(&x.in);
}

/* The roofline's read-only stream (issue 47 item 4): a slope at the
 * run's gpu.ceilings.hbm_read_gbs where it was measured, named as not
 * measured where not; and the FP32 roof over the FP32 (FFMA) GEMMs of a
 * captured call (sdpa-math's cuBLAS sgemm kernels, by their family rule),
 * at the data sheet's FP32 rate, drawn only where such a GEMM is. */
static const struct figitem *ceiling_of(const struct figdesc *d, const char *state)
{
	const struct figitem *it;
	for (size_t n = 0; (it = figdesc_part(d, "ceiling", n)); n++)
		if (!strcmp(it->state, state))
			return it;
	return NULL;
}

static void test_roofline_read_fp32(void)
{
	struct in x;
	if (load(&x, "tests/fixtures/results-small.yaml"))
		SKIP("fixture missing");
	struct gpu_info *g = (struct gpu_info *)&x.rd.res->header.gpu;
	struct figopts o;
	figopts_init(&o);
	for (int pass = 0; pass < 2; pass++) {
		g->ceil.hbm_read_gbs = pass ? 4321.5 : 0;
		struct figdesc d;
		figdesc_init(&d, "roofline");
		CHECK_INT(figdesc_roofline(&x.rd, &o, &d), 0);
		const struct figitem *rd = ceiling_of(&d, "read");
		const int named = strstr(figdesc_text(&d, "missing", 0), "read-only stream") != NULL;
		CHECK_INT(rd != NULL, pass);
		CHECK_INT(named, !pass);
		if (rd) {
			CHECK_NEAR(rd->v, 4321.5, 0);
			CHECK(strstr(rd->text, "read-only stream 4322 GB/s") != NULL);
		}
		CHECK(ceiling_of(&d, "fp32") == NULL); /* no FP32 GEMM among attnprof's kernels */
		figdesc_release(&d);
	}
	rinputs_release(&x.in);

	if (load(&x, "experiments/results/capture/capture-sdpa.yaml"))
		SKIP("capture-sdpa.yaml missing");
	struct figdesc d;
	figdesc_init(&d, "roofline");
	CHECK_INT(figdesc_roofline(&x.rd, &o, &d), 0);
	size_t fp32 = 0;
	for (size_t i = 0; i < d.nmarks; i++) {
		const struct figmark *m = &d.mark[i];
		int sgemm = 0;
		/* the mark's kernel by its duration (roof_add: a launch each, in order) */
		for (size_t k = 0; m->rec && k < m->rec->nlaunches && !sgemm; k++) {
			const char *nm = m->rec->launches[k].name;
			sgemm = nm && (strstr(nm, "sgemm") || strstr(nm, "xmma_gemm_f32f32"));
		}
		if (m->fp32) {
			fp32++;
			CHECK(sgemm);
			CHECK(m->rec && record_captured(m->rec));
		}
	}
	CHECK(fp32 > 0); /* sdpa-math's FP32 GEMMs */
	const struct figitem *f = ceiling_of(&d, "fp32");
	CHECK(f != NULL);
	if (f) {
		CHECK_NEAR(f->v, datasheet_fp32_tflops(x.rd.res->header.gpu.name, NULL), 0);
		CHECK(f->v > 0);
		for (size_t i = 0; i < d.nmarks; i++)
			if (d.mark[i].fp32)
				CHECK(d.mark[i].y < f->v); /* under its roof */
	}
	figdesc_release(&d);
	rinputs_release(&x.in);
}

/* ladder-n (issue 47 item 6): the Hopper ladder over N, a line per rung,
 * TFLOP/s beside TFLOP/s per GHz of each record's own probed clock; at
 * each N the rungs of one results file; a record without a clock left out
 * of the per-GHz panel and said by the figure's cut.  The ladder-clocks
 * table's lowest clock from N = 8k on, against the records themselves. */
static void test_ladder_n(void)
{
	struct in x;
	if (load(&x, "experiments/results/hopper.yaml"))
		SKIP("hopper.yaml missing");
	struct figopts o;
	figopts_init(&o);
	snprintf(o.variant, sizeof o.variant, "hopper+overlap");
	o.sel.d = 128;
	struct figdesc d;
	figdesc_init(&d, "ladder-n");
	CHECK_INT(figdesc_ladder_n(&x.rd, &o, &d), 0);
	CHECK(!d.notice[0]);
	CHECK_INT((int)d.npanels, 4); /* (non-causal, causal) × (TFLOP/s, per GHz) */
	CHECK_INT((int)d.nseries, 5); /* flash2 and the four Hopper rungs */
	CHECK_STR(d.series[0].key, "flash2");
	CHECK_STR(d.series[4].key, "hopper+overlap");
	CHECK(d.one_run);
	size_t values = 0;
	const struct record *clocked = NULL;
	for (size_t p = 0; p < d.npanels; p++) {
		CHECK_STR(d.panel[p].quantity, p % 2 ? "run_tflops_per_ghz" : "tflops");
		CHECK_INT(d.panel[p].sel.d, 128);
		CHECK_INT((int)d.panel[p].ncat, 4); /* N = 2k … 16k */
		for (size_t k = 0; k < d.nseries; k++)
			for (size_t i = 0; i < d.panel[p].ncat; i++) {
				const struct figpoint *q = figdesc_at(&d, p, k, i);
				CHECK(q && q->rec && q->state == FP_VALUE);
				if (!q || !q->rec || q->state != FP_VALUE)
					continue;
				values++;
				CHECK_STR(q->rec->variant, d.series[k].key);
				CHECK_INT(q->rec->shape.seqlen_kv, d.panel[p].cat[i]);
				CHECK_INT(!!q->rec->shape.causal, (int)(p / 2));
				CHECK(q->rec->shape.dtype == x.rd.focus.dtype);
				CHECK(used_has(&d, q->rec));
				/* the value is the record's TFLOP/s, per GHz of its own clock on the right */
				const double want = p % 2 ? q->rec->tflops / (q->rec->sm_clock_mhz / 1000) : q->rec->tflops;
				CHECK_NEAR(q->v, want, 1e-9 * want);
				if (p == 1 && i == 3 && k == 4)
					clocked = q->rec;
			}
	}
	CHECK_INT((int)values, 4 * 5 * 4);
	char why[200] = "";
	CHECK_INT(figdesc_ladder_n_cut(&x.rd, &o, why, sizeof why), 0);
	/* a record without a probed clock: left out of the per-GHz panel only, and said */
	CHECK(clocked != NULL);
	if (clocked) {
		struct record *r = (struct record *)clocked;
		const double mhz = r->sm_clock_mhz;
		r->sm_clock_mhz = 0;
		figdesc_release(&d);
		figdesc_init(&d, "ladder-n");
		CHECK_INT(figdesc_ladder_n(&x.rd, &o, &d), 0);
		const struct figpoint *t = figdesc_at(&d, 0, 4, 3), *g = figdesc_at(&d, 1, 4, 3);
		CHECK(t && t->rec == r && t->state == FP_VALUE);
		CHECK(g && g->rec == r && g->state == FP_MISSING && isnan(g->v));
		CHECK_INT(figdesc_ladder_n_cut(&x.rd, &o, why, sizeof why), 1);
		CHECK(strstr(why, "1 record without a probed SM clock") != NULL);
		/* the table counts it as drawn without a clock */
		struct dtable *T = table_build(&x.rd, table_find("ladder-clocks"), &o);
		CHECK(T && T->nrows == 5);
		if (T && T->nrows == 5)
			CHECK_STR(T->cell[4][1], "7 of 8");
		table_free(T);
		r->sm_clock_mhz = mhz;
	}
	figdesc_release(&d);
	/* ladder-clocks: per rung, its records' lowest clock from N = 8k on, and the records it claims */
	struct dtable *T = table_build(&x.rd, table_find("ladder-clocks"), &o);
	CHECK(T != NULL);
	CHECK_INT(T ? T->nrows : 0, 5);
	for (int row = 0; T && row < T->nrows; row++) {
		double lo = 1e300;
		const struct record *low = NULL;
		for (size_t i = 0; i < x.rd.res->nrecords; i++) {
			const struct record *r = &x.rd.res->records[i];
			if (r->variant && !strcmp(r->variant, T->cell[row][0]) && r->shape.head_dim == 128 &&
			    r->shape.dtype == x.rd.focus.dtype && r->shape.seqlen_kv >= 8192 && r->sm_clock_mhz > 0 &&
			    r->sm_clock_mhz < lo) {
				lo = r->sm_clock_mhz;
				low = r;
			}
		}
		char want[32];
		snprintf(want, sizeof want, "%.0f", lo);
		CHECK_STR(T->head[4], "from 8k: lowest MHz");
		CHECK_STR(T->cell[row][4], want);
		CHECK(T->rec[row][0] == low);
	}
	table_free(T);
	rinputs_release(&x.in);
}

/* every kind with a builder builds through figure_kinds[] */
static void test_build_by_kind(void)
{
	struct in x;
	if (load(&x, "tests/fixtures/results-small.yaml"))
		SKIP("fixture missing");
	struct figopts o;
	figopts_init(&o);
	int built = 0;
	for (size_t k = 0; k < figure_kind_count; k++) {
		struct figdesc d;
		int rc = figdesc_build(&figure_kinds[k], &x.rd, &o, &d);
		CHECK(rc >= 0);
		CHECK_INT(rc, figure_kinds[k].build != NULL);
		CHECK_STR(d.kind, figure_kinds[k].name);
		built += rc == 1;
		figdesc_release(&d);
	}
	CHECK(built >= 12);
	rinputs_release(&x.in);
}

/* no ladder is cut: every variant's ladder (its rungs, and the single
 * changes on its base) fits the ABLATION_MAX_RUNGS a figure draws */
static void test_ladders_fit(void)
{
	const struct variant_desc **chain = calloc(variant_count + 1, sizeof(*chain));
	const struct variant_desc **single = calloc(variant_count + 1, sizeof(*single));
	CHECK(chain && single);
	size_t ladders = 0;
	for (size_t i = 0; chain && single && i < variant_count; i++) {
		size_t ns = 0, n = variant_ladder(variant_table[i], chain, variant_count + 1, single, variant_count + 1, &ns);
		CHECK(n <= ABLATION_MAX_RUNGS);
		CHECK(ns <= ABLATION_MAX_RUNGS);
		ladders += n > 0;
	}
	CHECK(ladders > 0); /* the table has ladders to check */
	free(chain);
	free(single);
}

TESTS(test_ladders_fit, test_series_over_n, test_series_notice, test_counter_rows, test_smem_beyond_lsu, test_ladder, test_ladder_n, test_ablation_rungs, test_roofline_marks, test_roofline_ceilings, test_roofline_read_fp32, test_capdataflow,
      test_decode_bandwidth, test_dataflow, test_dataflow_every_launch, test_partition_bwd, test_partition_grid, test_partition_grid_launches, test_partition_warps, test_patent_views, test_patent_causal, test_causal_blocks, test_warp_split, test_online_softmax, test_capture_kernels, test_loop_steps, test_capture_grid,
      test_hierarchy, test_series_look,
      test_pcapdataflow, test_warpspec, test_ws_timeline, test_capture_compare, test_tiling, test_loop_order, test_build_by_kind)
