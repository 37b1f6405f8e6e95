/* figtitle.c: every figure kind's title, on the Cairo-free side.
 *
 * A title says what its figure draws, from the same selection as the
 * drawing (figure.c's fig_sel, fig_series, fig_pair; ablation.c;
 * capreview.c), so a document built without the renderer still names its
 * figures, the model holds each one (docmodel.c), and every writer prints
 * the same words.  The kinds' rows (figure.c) point here; the drawings are
 * in src/render/, one file per figure family, in the order below.
 */
#include "doc/figure.h"

#include <stdio.h>
#include <string.h>

#include "capture/verdict.h"
#include "doc/capreview.h"
#include "doc/figkind.h"
#include "doc/wsched.h"

/* "BEFORE the-subject AFTER": the figure's variant (its option's, else the
 * documents' subject) named inside a fixed sentence. */
static void subject_title(const struct rdata *rd, const struct figopts *o, const char *before, const char *after,
			  char *buf, size_t len)
{
	char k[SERIES_KEY];
	fig_series(rd, o->variant, variant_role(DOC_SUBJECT), k);
	snprintf(buf, len, "%s%s%s", before, k, after);
}

/* ---- data flow (render/fig_dataflow.c) --------------------------------------- */
void fig_dataflow_title(const struct rdata *rd, const struct figopts *o, char *buf, size_t len)
{
	char key[SERIES_KEY], d[128];
	struct rsel s;
	fig_sel(rd, o, &s);
	fig_series(rd, o->variant, variant_role(DOC_SUBJECT), key);
	snprintf(buf, len, "Data flow of %s: what it keeps in HBM and what lives only on chip (%s)", key,
		 rsel_describe(&s, d, sizeof(d)));
}

void fig_dataflow_compare_title(const struct rdata *rd, const struct figopts *o, char *buf, size_t len)
{
	char a[SERIES_KEY], b[SERIES_KEY], d[128];
	struct rsel s;
	fig_sel(rd, o, &s);
	fig_pair(rd, o, DOC_CONVENTIONAL, a, b);
	snprintf(buf, len, "Data flow of %s against %s (%s)", a, b, rsel_describe(&s, d, sizeof(d)));
}

/* ---- partition: the grid and the warps (render/fig_partition.c) -------------- */
void fig_grid_title(const struct rdata *rd, const struct figopts *o, char *buf, size_t len)
{
	char a[SERIES_KEY], b[SERIES_KEY];
	fig_pair(rd, o, DOC_BASELINE, a, b);
	snprintf(buf, len, "Partition over the GPU: the thread blocks of %s and %s, laid over the %d SMs in waves",
		 a, b, rdata_sm_count(rd));
}

void fig_warps_title(const struct rdata *rd, const struct figopts *o, char *buf, size_t len)
{
	char a[SERIES_KEY], b[SERIES_KEY];
	fig_pair(rd, o, DOC_BASELINE, a, b);
	snprintf(buf, len, "Warps inside a thread block: %s against %s", a, b);
}

/* ---- the backward's partition (render/fig_backward.c) ------------------------ */
void fig_bwdpart_title(const struct rdata *rd, const struct figopts *o, char *buf, size_t len)
{
	subject_title(rd, o, "The backward of ", ": a thread block per K/V block, its warps in the five products, "
		      "dQ reduced across blocks", buf, len);
}

/* ---- charts (render/fig_charts.c) -------------------------------------------- */
void fig_tflops_title(const struct rdata *rd, const struct figopts *o, char *buf, size_t len)
{
	(void)rd;
	const enum pass p = rsel_pass(&o->sel);
	snprintf(buf, len, "%s speed: TFLOP/s against sequence length, one panel per head dimension and mask",
		 p == PASS_BWD ? "Backward" : p == PASS_FWDBWD ? "Forward + backward" : "Forward");
}

void fig_hbm_title(const struct rdata *rd, const struct figopts *o, char *buf, size_t len)
{
	(void)rd; (void)o;
	snprintf(buf, len, "HBM traffic against sequence length: measured DRAM bytes (read + write) and the no-cache model's bytes");
}

void fig_memory_title(const struct rdata *rd, const struct figopts *o, char *buf, size_t len)
{
	(void)rd;
	const enum pass p = rsel_pass(&o->sel);
	snprintf(buf, len, "Peak device memory against sequence length, with each descriptor's buffers%s",
		 p == PASS_BWD ? " (backward)" : p == PASS_FWDBWD ? " (forward + backward)" : "");
}

void fig_decode_title(const struct rdata *rd, const struct figopts *o, char *buf, size_t len)
{
	struct rsel s;
	fig_decode_sel(rd, o, &s);
	if (s.batch >= 0)
		snprintf(buf, len, "Decode: time and achieved HBM bandwidth against KV-cache length (batch %d)", s.batch);
	else
		snprintf(buf, len, "Decode: time and achieved HBM bandwidth against KV-cache length");
}

void fig_smem_title(const struct rdata *rd, const struct figopts *o, char *buf, size_t len)
{
	fig_sel_title(rd, o, "Shared-memory wavefronts and bank conflicts per variant", buf, len);
}

void fig_occupancy_title(const struct rdata *rd, const struct figopts *o, char *buf, size_t len)
{
	fig_sel_title(rd, o, "Achieved against theoretical occupancy of the longest kernel", buf, len);
}

void fig_roofline_title(const struct rdata *rd, const struct figopts *o, char *buf, size_t len)
{
	(void)o;
	snprintf(buf, len, "Roofline of the %s from its measured ceilings", rd->res->header.gpu.name ? rd->res->header.gpu.name : "GPU");
}

/* ---- the memory hierarchy (render/fig_hierarchy.c) --------------------------- */
void fig_hierarchy_title(const struct rdata *rd, const struct figopts *o, char *buf, size_t len)
{
	(void)o;
	snprintf(buf, len, "The memory hierarchy of the %s: sizes and measured bandwidths",
		 rd->res->header.gpu.name ? rd->res->header.gpu.name : "GPU");
}

/* ---- the whole program's GPU time (render/fig_wshare.c) ---------------------- */
void fig_wshare_title(const struct rdata *rd, const struct figopts *o, char *buf, size_t len)
{
	(void)rd;
	(void)o;
	snprintf(buf, len, "The whole program's GPU time per phase: attention's share and the bound of a faster attention");
}

/* ---- memory workload (render/fig_workload.c) --------------------------------- */
void fig_workload_title(const struct rdata *rd, const struct figopts *o, char *buf, size_t len)
{
	fig_sel_title(rd, o, "Memory workload: bytes and hit rates at L1/shared, L2 and DRAM per kernel", buf, len);
}

/* ---- warp states (render/fig_stalls.c) --------------------------------------- */
void fig_stalls_title(const struct rdata *rd, const struct figopts *o, char *buf, size_t len)
{
	fig_sel_title(rd, o, "Warp states: the share of active warp-cycles stalled per reason", buf, len);
}

/* ---- the ablation ladder (render/fig_ablation.c) ----------------------------- */
void fig_ablation_title(const struct rdata *rd, const struct figopts *o, char *buf, size_t len)
{
	struct rsel s;
	char d[120];
	ablation_sel(rd, o, &s);
	const struct variant_desc *top = ablation_top(o);
	snprintf(buf, len, "Ablation ladder: %s to %s one %s at a time (%s)", ablation_base(o), top ? top->name : "?",
		 top && top->is_flash ? "switch" : "change", rsel_describe(&s, d, sizeof(d)));
}

/* ---- a run against a base (render/fig_diff.c) -------------------------------- */
void fig_diff_title(const struct rdata *rd, const struct figopts *o, char *buf, size_t len)
{
	(void)o;
	if (rd->nruns >= 2 && rd->run_names)
		snprintf(buf, len, "Time of the newer records against the older, per configuration both recorded "
			 "(new ÷ base; whiskers: both records' launch spread)");
	else
		snprintf(buf, len, "Time against a base run, per configuration (needs two results files)");
}

/* ---- step by step (render/fig_steps.c) --------------------------------------- */
void fig_steps_title(const struct rdata *rd, const struct figopts *o, char *buf, size_t len)
{
	char ka[SERIES_KEY], kb[SERIES_KEY];
	const struct record *ra = fig_steps_record(rd, o, o->variant, variant_role(DOC_BASELINE), ka);
	const struct record *rb = fig_steps_record(rd, o, o->compare, variant_role(DOC_SUBJECT), kb);
	struct rsel sel;
	fig_steps_sel(rd, o, &sel);
	char where[200] = "";
	if (ra && rb && strcmp(rdata_record_file(rd, ra), rdata_record_file(rd, rb)))
		snprintf(where, sizeof(where), " (records of %s and %s)", rdata_record_file(rd, ra),
			 rdata_record_file(rd, rb));
	else if (ra || rb)
		snprintf(where, sizeof(where), " (records of %s)", rdata_record_file(rd, ra ? ra : rb));
	char d[60] = "";
	if (sel.d > 0)
		snprintf(d, sizeof(d), ", d=%d", sel.d);
	snprintf(buf, len, "Step by step at N=%d%s, %s against %s%s: the tiles each step reads from HBM (↓, outlined "
		 "heavy on chip where they arrive) and writes back (↑); bytes per step measured in DRAM and L2 against "
		 "the tiles the loop moves", sel.n, d, ka, kb, where);
}

/* ---- teaching figures (render/fig_teach.c) ----------------------------------- */
void fig_tiling_title(const struct rdata *rd, const struct figopts *o, char *buf, size_t len)
{
	char k[SERIES_KEY];
	fig_series(rd, o->variant, variant_role(DOC_SUBJECT), k);
	const struct variant_desc *v = variant_find(k);
	if (v && variant_stores(v, "S"))
		snprintf(buf, len, "Data flow of %s: three kernels and the N×N matrices S and P they write to HBM", k);
	else if (o->step > 0)
		snprintf(buf, len, "Tiling in %s, step %d of 5", k, o->step);
	else
		snprintf(buf, len, "Tiling in %s: Q block on chip, K/V blocks streamed, S tile, running max and sum, O rescaled", k);
}

void fig_softmax_title(const struct rdata *rd, const struct figopts *o, char *buf, size_t len)
{
	(void)rd; (void)o;
	snprintf(buf, len, "Online softmax on one row of six scores in blocks of two: running max m, sum ℓ, "
		 "rescaled output Õ, against a direct softmax");
}

void fig_looporder_title(const struct rdata *rd, const struct figopts *o, char *buf, size_t len)
{
	char a[SERIES_KEY], b[SERIES_KEY];
	fig_pair(rd, o, DOC_BASELINE, a, b);
	snprintf(buf, len, "Loop order and where O lives: %s against %s", a, b);
}

void fig_warpsplit_title(const struct rdata *rd, const struct figopts *o, char *buf, size_t len)
{
	char a[SERIES_KEY], b[SERIES_KEY];
	fig_pair(rd, o, DOC_BASELINE, a, b);
	snprintf(buf, len, "Warps in a thread block: %s against %s, and the shared-memory exchange", a, b);
}

void fig_causal_title(const struct rdata *rd, const struct figopts *o, char *buf, size_t len)
{
	subject_title(rd, o, "Causal mask in ", ": tile pairs computed, masked on the diagonal and skipped", buf,
		      len);
}

void fig_ladder_title(const struct rdata *rd, const struct figopts *o, char *buf, size_t len)
{
	struct rsel s;
	char cond[160];
	ablation_sel(rd, o, &s);
	snprintf(buf, len, "The ablation ladder, one switch at a time (%s): TFLOP/s of each rung and the step's speed-up",
		 rsel_describe(&s, cond, sizeof(cond)));
}

void fig_laddern_title(const struct rdata *rd, const struct figopts *o, char *buf, size_t len)
{
	(void)rd;
	const struct variant_desc *top = ablation_top(o);
	snprintf(buf, len, "The ladder %s to %s over N: TFLOP/s of each rung, and TFLOP/s per GHz of its probed SM clock",
		 ablation_base(o), top ? top->name : "?");
}

/* ---- warp specialisation (render/fig_warpspec.c) ----------------------------- */
void fig_warpspec_title(const struct rdata *rd, const struct figopts *o, char *buf, size_t len)
{
	(void)rd;
	const struct variant_desc *v = ws_variant_or_default(o->variant);
	snprintf(buf, len, "The thread block of %s: warpgroup roles, register split, shared-memory ring and mbarriers",
		 v ? v->name : "a warp-specialised variant");
}

void fig_wstimeline_title(const struct rdata *rd, const struct figopts *o, char *buf, size_t len)
{
	(void)rd;
	const struct variant_desc *top = ws_ladder_top(o->variant);
	if (o->step > 0)
		snprintf(buf, len, "The loop of %s, step %d: the implemented schedule, not a measured trace",
			 top ? top->name : "a warp-specialised kernel", o->step);
	else
		snprintf(buf, len, "The loop of each rung of %s: the implemented schedule, not a measured trace",
			 top ? top->name : "the ladder");
}

void fig_pwarpspec_title(const struct rdata *rd, const struct figopts *o, char *buf, size_t len)
{
	fig_warpspec_title(rd, o, buf, len);
}

void fig_ptimeline_title(const struct rdata *rd, const struct figopts *o, char *buf, size_t len)
{
	(void)rd;
	const struct variant_desc *v = ws_variant_or_default(o->variant);
	snprintf(buf, len, "The loop of %s as a timing diagram of its schedule", v ? v->name : "a warp-specialised kernel");
}

/* ---- captured programs (render/fig_capture.c) -------------------------------- */
void fig_capdataflow_title(const struct rdata *rd, const struct figopts *o, char *buf, size_t len)
{
	const struct capimpl *im = capture_figure_impl(rd, o);
	const struct capgroup *g = im ? capture_figure_group(rd, im, o) : NULL;
	if (!g) {
		snprintf(buf, len, "Data flow of a captured call (no captured calls)");
		return;
	}
	char sh[96], v[64];
	const char *rule = g->rep->verdict_rule;
	snprintf(buf, len, "Data flow of %s, %s at %s, from measurement: %s (decided by %s)", capture_impl_name(im),
		 capture_call_kind(g->rep), capture_shape_text(g, sh, sizeof(sh)), capture_verdict_text(rd, g->rep, v, sizeof(v)),
		 capture_rule_text(rule));
}

void fig_capkernels_title(const struct rdata *rd, const struct figopts *o, char *buf, size_t len)
{
	const struct capimpl *im = capture_figure_impl(rd, o);
	snprintf(buf, len, "Kernel sequence of %s's calls: each kernel's share of the call, its duration and grid "
		 "(CUPTI activity records, under profiling)", capture_impl_name(im));
}

void fig_capgrid_title(const struct rdata *rd, const struct figopts *o, char *buf, size_t len)
{
	const struct capimpl *im = capture_figure_impl(rd, o);
	snprintf(buf, len, "Partition of %s's longest kernels, read from their grids: blocks over the %d SMs in "
		 "waves, and the mapping onto the call's shape where the grid factors", capture_impl_name(im),
		 rd->res->header.gpu.hw.sm_count);
}

void fig_capcompare_title(const struct rdata *rd, const struct figopts *o, char *buf, size_t len)
{
	const char *gpu = rd->res->header.gpu.name ? rd->res->header.gpu.name : "GPU";
	const char *conv = variant_role(DOC_CONVENTIONAL), *subject = variant_role(DOC_SUBJECT);
	if (capture_compare_pass(o) == PASS_BWD)
		snprintf(buf, len, "Captured backward calls beside attnprof's %s and %s backward at the same "
			 "shapes: TFLOP/s (2.5 × 4·B·H·N²·d / the call's kernel time) on the %s", conv, subject, gpu);
	else
		snprintf(buf, len, "Captured forward calls beside attnprof's %s and %s at the same shapes: "
			 "TFLOP/s (4·B·H·N²·d / median time) on the %s", conv, subject, gpu);
}

/* ---- patent views (render/fig_patent.c) -------------------------------------- */
void fig_pdataflow_title(const struct rdata *rd, const struct figopts *o, char *buf, size_t len)
{
	subject_title(rd, o, "Data flow of ", ": memory, processor and the paths between them", buf, len);
}

void fig_pgrid_title(const struct rdata *rd, const struct figopts *o, char *buf, size_t len)
{
	subject_title(rd, o, "Thread blocks of ", " and their waves over the multiprocessors", buf, len);
}

void fig_pwarps_title(const struct rdata *rd, const struct figopts *o, char *buf, size_t len)
{
	subject_title(rd, o, "The work of one thread block of ", " divided among its warps", buf, len);
}

void fig_pcausal_title(const struct rdata *rd, const struct figopts *o, char *buf, size_t len)
{
	subject_title(rd, o, "Tile pairs of a causal pass of ", "", buf, len);
}

void fig_pthroughput_title(const struct rdata *rd, const struct figopts *o, char *buf, size_t len)
{
	fig_sel_title(rd, o, "Throughput against sequence length", buf, len);
}

void fig_pladder_title(const struct rdata *rd, const struct figopts *o, char *buf, size_t len)
{
	struct rsel s;
	char b[120];
	ablation_sel(rd, o, &s);
	snprintf(buf, len, "Throughput of each step of the ablation ladder (%s)", rsel_describe(&s, b, sizeof(b)));
}

void fig_pdecode_title(const struct rdata *rd, const struct figopts *o, char *buf, size_t len)
{
	(void)rd; (void)o;
	snprintf(buf, len, "Decoding bandwidth against key-value cache length");
}

void fig_pcapdataflow_title(const struct rdata *rd, const struct figopts *o, char *buf, size_t len)
{
	const struct capimpl *im = capture_figure_impl(rd, o);
	const struct capgroup *g = im ? capture_figure_group(rd, im, o) : NULL;
	char v[64];
	snprintf(buf, len, "Data flow of the captured %s: memory, processor and the paths between them (%s)",
		 im && im->variant ? im->variant : "computation", g ? capture_verdict_text(rd, g->rep, v, sizeof(v)) : "no call");
}

void fig_pcapgrid_title(const struct rdata *rd, const struct figopts *o, char *buf, size_t len)
{
	const struct capimpl *im = capture_figure_impl(rd, o);
	snprintf(buf, len, "Thread blocks of the longest kernel of the captured %s and their waves over the multiprocessors",
		 im && im->variant ? im->variant : "computation");
}

void fig_pcapthroughput_title(const struct rdata *rd, const struct figopts *o, char *buf, size_t len)
{
	(void)rd;
	snprintf(buf, len, "Throughput of the captured computations%s beside the conventional and the second tiled "
		 "computation, against sequence length", capture_compare_pass(o) != PASS_BWD ? "" : " (backward)");
}
