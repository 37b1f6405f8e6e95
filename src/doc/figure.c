/* figure.c: the table of figure kinds and what they share; see figkind.h. */
#include "doc/figkind.h"
#include "doc/figure.h"
#include "doc/figdesc.h"
#include "doc/figpatent.h"

/* A kind's title (figtitle.c, in every build) and its drawing (src/render/,
 * NULL in a build without the renderer). */
#if ATTNPROF_HAVE_RENDER
#define DRAWN(f) f##_title, f
#else
#define DRAWN(f) f##_title, NULL
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doc/capreview.h"
#include "util/yamltree.h"

void figopts_init(struct figopts *o)
{
	memset(o, 0, sizeof(*o));
	rsel_any(&o->sel);
}

const struct figkind figure_kinds[] = {
	{ "dataflow", "one variant's data flow: HBM buffers (absent ones struck through), on-chip tiles, measured bytes",
	  0.62, NEEDS_PREFILL, DRAWN(fig_dataflow), figdesc_dataflow },
	{ "dataflow-compare", "two variants' data flow side by side (default {conventional} against {subject}) with the bytes saved",
	  0.62, NEEDS_PREFILL, DRAWN(fig_dataflow_compare), figdesc_dataflow_compare },
	{ "partition-grid", "the grid: what each thread block owns, laid over the GPU's SMs in waves (idle SMs shown)",
	  0.72, NEEDS_PREFILL, DRAWN(fig_grid), figdesc_partition_grid },
	{ "partition-warps", "the warps inside a block: split-K with its shared-memory reduction against split-Q",
	  0.6, NEEDS_PREFILL, DRAWN(fig_warps), figdesc_partition_warps },
	{ "partition-bwd", "the K/V-parallel backward: its grid, the warp tiles of its five products and dQ's reduction",
	  0.72, NEEDS_PREFILL, DRAWN(fig_bwdpart), figdesc_partition_bwd },
	{ "tflops", "TFLOP/s against N, grouped bars, one panel per (d, causal), with reference series",
	  0.62, NEEDS_PREFILL, DRAWN(fig_tflops), figdesc_tflops },
	{ "hbm", "HBM bytes against N on log axes: measured points, model lines",
	  0.62, NEEDS_PREFILL, DRAWN(fig_hbm), figdesc_hbm },
	{ "memory", "peak device memory against N, with the descriptors' buffers",
	  0.62, NEEDS_PREFILL, DRAWN(fig_memory), figdesc_memory },
	{ "smem", "shared-memory load/store wavefronts and bank conflicts per variant",
	  0.55, NEEDS_PREFILL | NEEDS_METRICS, DRAWN(fig_smem), figdesc_smem },
	{ "occupancy", "achieved against theoretical occupancy per variant",
	  0.55, NEEDS_PREFILL, DRAWN(fig_occupancy), figdesc_occupancy },
	{ "roofline", "a roofline from the GPU's measured ceilings with every variant's points",
	  0.62, NEEDS_PREFILL, DRAWN(fig_roofline), figdesc_roofline, figdesc_roofline_cut },
	{ "hierarchy", "the memory hierarchy (shared memory, L2, HBM) with sizes from the device and the bandwidths measured in the run (fig_hierarchy.c)",
	  0.42, NEEDS_NOTHING, DRAWN(fig_hierarchy), figdesc_hierarchy },
	{ "memory-workload", "bytes and sector hit rates at L1/shared, L2 and DRAM per kernel, with the no-cache model's DRAM bytes (the workload set)",
	  0.62, NEEDS_PREFILL | NEEDS_METRICS, DRAWN(fig_workload), figdesc_workload, figdesc_workload_cut },
	{ "warp-states", "the share of active warp-cycles stalled per reason, per kernel (the stalls set)",
	  0.5, NEEDS_PREFILL | NEEDS_METRICS, DRAWN(fig_stalls), figdesc_stalls, figdesc_stalls_cut },
	{ "ablation", "the ablation ladder: {baseline} to {subject} one switch at a time",
	  0.55, NEEDS_LADDER, DRAWN(fig_ablation), figdesc_ablation },
	{ "decode", "prefill against decode: decode time and achieved bandwidth against KV length",
	  0.5, NEEDS_DECODE, DRAWN(fig_decode), figdesc_decode },
	/* teaching figures (fig_teach.c) */
	{ "tiling", "one variant's tiling as a build (step: 1 Q block, 2 K/V streamed, 3 S tile, 4 max and sum, 5 O rescaled)",
	  0.42, NEEDS_PREFILL, DRAWN(fig_tiling), figdesc_tiling },
	{ "online-softmax", "the online-softmax recurrence on a worked example, checked against a direct softmax",
	  0.38, NEEDS_NOTHING, DRAWN(fig_softmax), figdesc_online_softmax },
	{ "loop-order", "K/V-outer against Q-outer loops: where O, m and l live, with measured DRAM traffic",
	  0.42, NEEDS_PREFILL, DRAWN(fig_looporder), figdesc_loop_order },
	{ "loop-steps", "small multiples of the loop, step by step: the tiles each step reads from HBM and writes back, bytes per step measured (DRAM, L2) and moved",
	  0.66, NEEDS_PREFILL, DRAWN(fig_steps), figdesc_loop_steps },
	{ "warp-split", "split-K against split-Q warps: the shared-memory exchange, measured store wavefronts",
	  0.42, NEEDS_PREFILL, DRAWN(fig_warpsplit), figdesc_warp_split },
	{ "causal-blocks", "the tile pairs of a causal pass (computed, masked, skipped) and the measured times",
	  0.42, NEEDS_PREFILL, DRAWN(fig_causal), figdesc_causal_blocks },
	{ "diff", "attnprof diff as a figure: per configuration two results files recorded, new ÷ base time with both records' spread",
	  0.62, NEEDS_PREFILL, DRAWN(fig_diff), figdesc_diff },
	{ "ladder", "the ablation ladder as bars: TFLOP/s of each rung, the step's speed-up, the run-to-run spread",
	  0.4, NEEDS_LADDER, DRAWN(fig_ladder), figdesc_ladder },
	{ "ladder-n", "the ablation ladder over N as the FA3 paper draws it: TFLOP/s against N, a line per rung, beside TFLOP/s per GHz of each record's probed SM clock",
	  0.62, NEEDS_PREFILL, DRAWN(fig_laddern), figdesc_ladder_n, figdesc_ladder_n_cut },
	/* a warp-specialised kernel (fig_warpspec.c): from the descriptor's ws trait and schedule table */
	{ "warpspec", "a warp-specialised thread block: producer and consumer warpgroups, the register split (setmaxnreg), the shared-memory ring of K/V stages and its full/empty mbarriers",
	  0.62, NEEDS_NOTHING, DRAWN(fig_warpspec), figdesc_warpspec },
	{ "ws-timeline", "each rung's loop as a timeline of the TMA unit, the tensor cores and the consumers: the implemented schedule (step: one rung beside the one before), with the measured time and step",
	  0.9, NEEDS_NOTHING, DRAWN(fig_wstimeline), figdesc_ws_timeline },
	/* patent drawing views (fig_patent.c): numerals and reference characters, no prose */
	{ "patent-dataflow", "patent view: memory with the stored matrices, processor with its tiles, read and write paths",
	  0.9, NEEDS_PREFILL, DRAWN(fig_pdataflow), figdesc_patent_dataflow },
	{ "patent-grid", "patent view: the grid of thread blocks and its waves over the multiprocessors",
	  0.75, NEEDS_NOTHING, DRAWN(fig_pgrid), figdesc_patent_grid },
	{ "patent-warps", "patent view: one tile divided among warps, with the reduction buffer of split-K",
	  0.8, NEEDS_PREFILL, DRAWN(fig_pwarps), figdesc_patent_warps },
	{ "patent-causal", "patent view: the tile pairs of a causal pass, computed, masked and skipped",
	  0.7, NEEDS_PREFILL, DRAWN(fig_pcausal), figdesc_patent_causal },
	{ "patent-throughput", "patent graph: throughput against sequence length, one head dimension and mask",
	  0.6, NEEDS_PREFILL, DRAWN(fig_pthroughput), figdesc_patent_throughput },
	{ "patent-ladder", "patent graph: throughput of each step of the ablation ladder",
	  0.6, NEEDS_LADDER, DRAWN(fig_pladder), figdesc_patent_ladder },
	{ "patent-warpspec", "patent view: a thread block of a producer warp group and consumer warp groups, their registers, the stages of shared memory and their barriers",
	  0.9, NEEDS_NOTHING, DRAWN(fig_pwarpspec), figdesc_warpspec },
	{ "patent-timeline", "patent view: one rung's loop as a timing diagram of the copy unit, the matrix unit and the consumer groups",
	  0.7, NEEDS_NOTHING, DRAWN(fig_ptimeline), figdesc_ws_loop },
	{ "decode-bandwidth", "decoding bandwidth against KV-cache length, one line a series, with the measured copy bandwidth",
	  0.45, NEEDS_DECODE, DRAWN(fig_pdecode), figdesc_decode_bandwidth },
	{ "patent-decode", "patent graph: decoding bandwidth against key-value cache length",
	  0.6, NEEDS_DECODE, DRAWN(fig_pdecode), figdesc_decode_bandwidth },
	/* calls captured in another program (fig_capture.c): drawn from measurement, no descriptor */
	{ "capture-dataflow", "a captured call's data flow: S, P, O, L stored or struck through by the measured verdict, DRAM bytes",
	  0.36, NEEDS_CAPTURE, DRAWN(fig_capdataflow), figdesc_capdataflow },
	{ "capture-kernels", "a captured implementation's kernel sequence per kind of call: duration, share, grid",
	  0.5, NEEDS_CAPTURE, DRAWN(fig_capkernels), figdesc_capture_kernels },
	{ "capture-grid", "a captured implementation's longest kernels: grid over the SMs in waves, the inferred mapping",
	  0.5, NEEDS_CAPTURE, DRAWN(fig_capgrid), figdesc_capture_grid },
	{ "capture-compare", "captured forward (pass: bwd, backward) calls beside attnprof's {conventional} and {subject}: TFLOP/s at the same shapes",
	  0.55, NEEDS_CAPTURE, DRAWN(fig_capcompare), figdesc_capture_compare, capture_compare_cut },
	/* their patent views (fig_patent.c): numerals only */
	{ "patent-capture-dataflow", "patent view: memory with the matrices a captured call stored, processor with its kernels",
	  0.9, NEEDS_CAPTURE, DRAWN(fig_pcapdataflow), figdesc_pcapdataflow },
	{ "patent-capture-grid", "patent view: the grid of a captured call's longest kernel and its waves over the multiprocessors",
	  0.75, NEEDS_CAPTURE, DRAWN(fig_pcapgrid), figdesc_patent_capture_grid },
	{ "patent-capture-throughput", "patent graph: throughput of the captured computations beside {conventional} and {subject}",
	  0.6, NEEDS_CAPTURE, DRAWN(fig_pcapthroughput), figdesc_patent_capture_throughput, capture_pthroughput_cut },
	/* the whole program (fig_wshare.c, figworkload.c): header.workload of each captured program */
	{ "workload-share", "each captured program's GPU time per phase (attention forward, backward, GEMMs, communication, the rest) and the bound of a faster attention",
	  0.42, NEEDS_CAPTURE, DRAWN(fig_wshare), figdesc_workload_share },
};
const size_t figure_kind_count = sizeof(figure_kinds) / sizeof(figure_kinds[0]);

const char *figkind_nearest(const char *name)
{
	const char **names = calloc(figure_kind_count, sizeof *names);
	if (!names)
		return NULL;
	for (size_t i = 0; i < figure_kind_count; i++)
		names[i] = figure_kinds[i].name;
	const char *near = nearest_word(name, names, figure_kind_count);
	free(names);
	return near;
}

const struct figkind *figkind_find(const char *name)
{
	for (size_t i = 0; i < figure_kind_count; i++)
		if (!strcmp(figure_kinds[i].name, name))
			return &figure_kinds[i];
	return NULL;
}

unsigned rdata_has(const struct rdata *rd)
{
	unsigned has = 0;
	for (size_t i = 0; i < rd->res->nrecords; i++) {
		const struct record *r = &rd->res->records[i];
		int decode = r->shape.phase == PHASE_DECODE;
		has |= decode ? NEEDS_DECODE : NEEDS_PREFILL;
		if (r->source && !strcmp(r->source, "capture"))
			has |= NEEDS_CAPTURE;
		if (!decode && (!r->source || !strcmp(r->source, "attnprof"))) {
			const struct variant_desc *v = r->desc;
			if (v && v->ladder_only)
				has |= NEEDS_LADDER;
		}
	}
	if (rd->with_metrics)
		has |= NEEDS_METRICS;
	return has;
}

int figkind_available(const struct figkind *k, const struct rdata *rd, char *why, size_t len)
{
	unsigned has = rdata_has(rd), need = k->needs & ~NEEDS_METRICS; /* missing counters draw a notice */
	if ((has & need) == need)
		return 1;
	snprintf(why, len, "%s has no %s records", rd->path,
		 need & NEEDS_DECODE ? "decode" : need & NEEDS_LADDER ? "ablation-ladder" :
		 need & NEEDS_CAPTURE ? "captured (attnprof record -- CMD)" : "prefill");
	return 0;
}

void fig_sel(const struct rdata *rd, const struct figopts *o, struct rsel *s)
{
	*s = o->sel;
	if (s->n < 0) s->n = rd->focus.n;
	if (s->d < 0) s->d = rd->focus.d;
	if (s->causal < 0) s->causal = rd->focus.causal;
	if (s->phase == RSEL_PHASE_ANY) s->phase = rd->focus.phase;
	rsel_family(s, rd);
}

void fig_steps_sel(const struct rdata *rd, const struct figopts *o, struct rsel *s)
{
	fig_sel(rd, o, s);
	s->causal = 0;
}

const struct record *fig_steps_record(const struct rdata *rd, const struct figopts *o, const char *given,
				      const char *def, char *key)
{
	struct rsel sel;
	fig_series(rd, given, def, key);
	fig_steps_sel(rd, o, &sel);
	return rdata_find(rd, key, &sel);
}

void fig_sel_title(const struct rdata *rd, const struct figopts *o, const char *head, char *buf, size_t len)
{
	struct rsel s;
	char d[128];
	fig_sel(rd, o, &s);
	snprintf(buf, len, "%s (%s)", head, rsel_describe(&s, d, sizeof(d)));
}

struct attn_shape fig_typical_shape(const struct rsel *sel, int batch)
{
	return (struct attn_shape){ .dtype = DTYPE_FP16, .phase = PHASE_PREFILL, .batch = batch, .heads = 16, .kv_heads = 16,
				    .seqlen_q = sel->n > 0 ? sel->n : 4096, .seqlen_kv = sel->n > 0 ? sel->n : 4096,
				    .head_dim = sel->d > 0 ? sel->d : 128, .causal = sel->causal > 0 };
}

size_t fig_counter_rows(const struct rdata *rd, const struct figopts *o, const char *metric, size_t max,
			char label[][COUNTER_LABEL], enum pass *pass, const struct record **recs)
{
	struct rsel s;
	fig_sel(rd, o, &s);
	size_t n = 0;
	if (!label) { /* how many rows there are */
		for (size_t p = 0; p < PASS_COUNT; p++)
			if (o->sel.pass == RSEL_PASS_UNSET || o->sel.pass == (enum pass)p) {
				s.pass = (enum pass)p;
				n += rdata_metric_records(rd, &s, metric, NULL, NULL, 0);
			}
		return n;
	}
	if (max > COUNTER_ROWS_MAX)
		max = COUNTER_ROWS_MAX;
	for (size_t p = 0; p < PASS_COUNT && n < max; p++) {
		if (o->sel.pass != RSEL_PASS_UNSET && o->sel.pass != (enum pass)p)
			continue;
		s.pass = (enum pass)p;
		char keys[COUNTER_ROWS_MAX][SERIES_KEY];
		size_t m = rdata_metric_records(rd, &s, metric, keys, recs + n, max - n);
		for (size_t i = 0; i < m; i++, n++) {
			char lab[64];
			series_label(keys[i], lab, sizeof lab);
			snprintf(label[n], COUNTER_LABEL, "%s%s%s", lab, p ? " " : "", p ? pass_names[p] : "");
			pass[n] = (enum pass)p;
		}
	}
	return n;
}

void fig_prefill_sel(const struct rdata *rd, const struct figopts *o, struct rsel *s)
{
	rsel_any(s);
	s->phase = PHASE_PREFILL;
	s->pass = o->sel.pass;
	s->batch = o->sel.batch;
	s->heads = o->sel.heads;
	s->tokens = o->sel.tokens;
	s->hidden = o->sel.hidden;
	s->dtype = o->sel.dtype;
	rsel_family(s, rd);
}

/* Decode records at one batch: the options' or the smallest measured. */
void fig_decode_sel(const struct rdata *rd, const struct figopts *o, struct rsel *base)
{
	rsel_any(base);
	base->phase = PHASE_DECODE;
	base->batch = o->sel.batch;
	if (o->sel.d >= 0)
		base->d = o->sel.d;
	if (base->batch < 0) {
		int b[32];
		size_t nb = rdata_values(rd, NULL, base, RF_BATCH, b, 32);
		base->batch = nb ? b[0] : -1;
	}
	/* one KV-head count: the options', else multi-head (the most KV heads measured);
	 * grouped-query records are another shape, not more points of this one */
	base->kv_heads = o->sel.kv_heads;
	if (base->kv_heads < 0) {
		int h[32];
		size_t nh = rdata_values(rd, NULL, base, RF_HKV, h, 32);
		base->kv_heads = nh ? h[nh - 1] : -1;
	}
}

const char *fig_series(const struct rdata *rd, const char *given, const char *def, char *key)
{
	if (given && *given && !rdata_resolve(rd, given, key, SERIES_KEY))
		return key;
	snprintf(key, SERIES_KEY, "%s", def);
	return key;
}

void fig_pair(const struct rdata *rd, const struct figopts *o, enum doc_role first, char *a, char *b)
{
	fig_series(rd, o->variant, variant_role(first), a);
	fig_series(rd, o->compare, variant_role(DOC_SUBJECT), b);
}
