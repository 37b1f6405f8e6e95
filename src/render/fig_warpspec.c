/* fig_warpspec.c: a warp-specialised kernel's thread block and its loop.
 *
 *   warpspec          the CTA of one rung: the producer warpgroup and the
 *                     consumer warpgroups with their register split
 *                     (setmaxnreg), the shared-memory ring (Q tile, K/V
 *                     stages with their bytes) and the mbarriers, who
 *                     arrives on which and who waits
 *   ws-timeline       the loop of each rung of the ladder as a timeline
 *                     (TMA unit, tensor cores, each consumer): what runs
 *                     under what, with each rung's measured time and step
 *   patent-warpspec   the CTA as a patent view (numerals only)
 *   patent-timeline   one rung's loop as a patent timing diagram
 *
 * Everything is read from the descriptor: the tiling and the ws trait
 * (kernels/variants.c, from kernels/hopper/hopper_tiles.h); the timeline
 * is computed by doc/wsched.c from the descriptor's schedule table
 * with schematic lengths and says so: it is the implemented schedule, not
 * a measured trace.  Measured numbers come from the records, through the
 * ablation table (the same cells the ladder table prints).
 */
#include "render/figure_draw.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "doc/wsched.h"

/* ---- which variant, which rungs -------------------------------------------------- */

/* The options' variant when it has a ws trait, else the first in table
 * order that has one and tops a ladder. */

/* The ladder top the timeline draws (the variant's own ladder). */
/* The rungs of top's ladder that have a ws trait, base first. */
static size_t ws_rungs(const struct variant_desc *top, const struct variant_desc **out, size_t max)
{
	const struct variant_desc *chain[8];
	size_t n = top ? variant_ladder(top, chain, 8, NULL, 0, NULL) : 0, k = 0;
	for (size_t i = 0; i < n && k < max; i++)
		if (chain[i]->ws)
			out[k++] = chain[i];
	if (!k && top && top->ws && max)
		out[k++] = top;
	return k;
}

/* The shape drawn: the record's where one is measured, else the focus's d. */
static const struct record *ws_shape(const struct rdata *rd, const struct figopts *o, const struct variant_desc *v,
				     struct attn_shape *s)
{
	struct rsel sel;
	fig_sel(rd, o, &sel);
	const struct record *r = rdata_find(rd, v->name, &sel);
	if (r) {
		*s = r->shape;
		return r;
	}
	*s = fig_typical_shape(&sel, 4);
	return NULL;
}

static double fs_(const struct rctx *c) { return c->st->size_chart; }

static const char *kib(long long bytes, char *buf, size_t len) { return fmt_bytes((double)bytes, buf, len); }

/* ---- the partition ---------------------------------------------------------------- */

/* A role's box: a bold first line and a second line, filled with fill. */
static void role_box(struct rctx *c, struct rbox b, const char *l1, const char *l2, const struct rgb *fill)
{
	const struct rstyle *st = c->st;
	fill_rect(c, b, fill);
	set_rgb(c, &st->ink);
	draw_rect(c, b, st->line, 0);
	double fs = fs_(c), pad = sz(c, 3);
	double h1 = text_block(c, b.x + pad, b.y + pad, b.w - 2 * pad, l1, fs, TX_BOLD, NULL);
	if (l2 && *l2)
		text_block(c, b.x + pad, b.y + pad + h1 + sz(c, 1), b.w - 2 * pad, l2, fs, 0, NULL);
}

/* An arrow between the columns with its label above it, clear of it. */
static void gap_arrow(struct rctx *c, double x0, double x1, double y, const char *label, const struct rgb *col)
{
	const struct rstyle *st = c->st;
	draw_arrow(c, x0, y, x1, y, st->line, sz(c, 4), col);
	if (label && *label)
		text_block(c, fmin(x0, x1) + sz(c, 2), y - fs_(c) * 2.6 * c->scale, fabs(x1 - x0) - sz(c, 4), label, fs_(c),
			   TX_CENTER, NULL);
}

void fig_warpspec(struct rctx *c, const struct rdata *rd, const struct figopts *o, struct rbox box)
{
	const struct rstyle *st = c->st;
	char title[300], b1[48], b2[48], l1[200], l2[300];
	fig_warpspec_title(rd, o, title, sizeof(title));
	const struct variant_desc *v = ws_variant_or_default(o->variant);
	struct attn_shape s;
	const struct record *r = v ? ws_shape(rd, o, v, &s) : NULL;
	const struct record *recs[1] = { r };
	box = figure_frame_recs(c, rd, box, title, recs, r ? 1 : 0, o->standalone);
	box = rbox_inset(box, st->heavy, st->heavy, st->heavy, st->heavy);
	struct ws_partition p;
	if (!v || ws_partition_of(v, &s, rdata_sm_count(rd), &p)) {
		draw_notice(c, box, "no warp-specialised variant", "no descriptor in kernels/variants.c has a ws trait");
		return;
	}
	double fs = fs_(c), lh = fs * 1.3 * c->scale;
	const struct launch *l = r ? record_main_launch(r) : NULL;
	/* the launch as measured, where recorded, over the descriptor's compiled count */
	if (l && l->registers > 0) {
		p.regs_launch = l->registers;
		if (!p.resplit)
			p.regs_producer = p.regs_consumer = l->registers;
		p.regs_total_launch = (long long)p.threads * p.regs_launch;
		if (!p.resplit)
			p.regs_total_split = p.regs_total_launch;
	}

	/* the register split under everything */
	struct rbox regs = rbox_cut_bottom(&box, lh * 5.2);
	rbox_cut_bottom(&box, sz(c, 6));
	/* left: the CTA and its roles; right: shared memory; the arrows between */
	struct rbox left = rbox_cut_left(&box, box.w * 0.42);
	struct rbox right = rbox_cut_right(&box, box.w * 0.52);
	struct rbox gap = box;

	snprintf(l1, sizeof(l1), "thread block: %d threads, %d query rows", p.threads, p.block_m);
	double hh = text_block(c, left.x, left.y, left.w, l1, fs, TX_BOLD, NULL);
	rbox_cut_top(&left, hh + sz(c, 3));
	int nrole = p.producers + p.consumers;
	double rg = sz(c, 6), role_h = (left.h - rg * (nrole - 1)) / nrole;
	double role_top[8];
	for (int k = 0; k < nrole && k < 8; k++) {
		int prod = k < p.producers, i = k - p.producers;
		struct rbox b = rbox_make(left.x, left.y + k * (role_h + rg), left.w, role_h);
		role_top[k] = b.y;
		if (prod) {
			snprintf(l1, sizeof(l1), "producer warpgroup: %d threads", p.warpgroup_threads);
			snprintf(l2, sizeof(l2), "%d registers each (setmaxnreg); %d thread issues the TMA loads", p.regs_producer,
				 p.issuing_threads);
		} else {
			snprintf(l1, sizeof(l1), "consumer warpgroup %d: rows %d–%d", i + 1, i * p.rows_per_consumer,
				 (i + 1) * p.rows_per_consumer - 1);
			snprintf(l2, sizeof(l2), "%d registers each%s; S, P and O in registers%s", p.regs_consumer,
				 p.resplit ? " (setmaxnreg)" : "", !p.producers && i == 0 ? "; its thread 0 issues the TMA loads" : "");
		}
		role_box(c, b, l1, l2, prod ? &st->chip_fill : &st->reg_fill);
	}

	/* shared memory: Q, then the K and V rings, one box a stage */
	snprintf(l1, sizeof(l1), "shared memory: %s per block", kib(p.smem_bytes, b1, sizeof(b1)));
	hh = text_block(c, right.x, right.y, right.w, l1, fs, TX_BOLD, NULL);
	rbox_cut_top(&right, hh + sz(c, 3));
	double sh = fmin(right.h / 3.6, lh * 3.2), sg = (right.h - 3 * sh) / 2;
	struct rbox qb = rbox_make(right.x, right.y, right.w * 0.5, sh);
	snprintf(l1, sizeof(l1), "Q tile %d×%d", p.block_m, p.head_dim);
	snprintf(l2, sizeof(l2), "%s, 1 full barrier", kib(p.q_bytes, b1, sizeof(b1)));
	role_box(c, qb, l1, l2, &st->shared_fill);
	for (int kv = 0; kv < 2; kv++) {
		double y = right.y + (kv + 1) * (sh + sg);
		double w = (right.w - sz(c, 3) * (p.stages - 1)) / p.stages;
		for (int sidx = 0; sidx < p.stages; sidx++) {
			struct rbox b = rbox_make(right.x + sidx * (w + sz(c, 3)), y, w, sh);
			snprintf(l1, sizeof(l1), "%s stage %d", kv ? "V" : "K", sidx);
			snprintf(l2, sizeof(l2), "%s; full + empty", kib(p.tile_bytes, b2, sizeof(b2)));
			role_box(c, b, l1, l2, &st->shared_fill);
		}
	}
	/* who arrives, who waits: loads into the ring, full to the consumers, empty back */
	const struct rgb *acc = &st->accent;
	double x0 = gap.x + sz(c, 2), x1 = gap.x + gap.w - sz(c, 2);
	int last = p.producers + p.consumers - 1;
	double y_load = p.producers ? role_top[0] + role_h * 0.45 : role_top[0] + role_h * 0.3;
	gap_arrow(c, x0, x1, y_load, p.producers ? "TMA into the ring" : "TMA (its thread 0)", acc);
	snprintf(l1, sizeof(l1), "%s waits: empty", p.producers ? "producer" : "thread 0");
	gap_arrow(c, x1, x0, p.producers ? role_top[0] + role_h * 0.9 : role_top[0] + role_h * 0.75, l1, acc);
	gap_arrow(c, x1, x0, role_top[p.producers] + role_h * (p.producers ? 0.6 : 0.98), "consumers wait: full", NULL);
	snprintf(l1, sizeof(l1), "%d warps arrive: empty", p.empty_arrivals);
	gap_arrow(c, x0, x1, role_top[last] + role_h * 0.6, l1, NULL);

	/* the register file of the block, before and after setmaxnreg */
	if (p.resplit)
		snprintf(l1, sizeof(l1), "registers: launched at %d a thread%s (%lld per block); setmaxnreg moves them: "
			 "producer %d, consumers %d (%lld per block)", p.regs_launch,
			 l ? "" : " (descriptor)", p.regs_total_launch, p.regs_producer, p.regs_consumer, p.regs_total_split);
	else
		snprintf(l1, sizeof(l1), "registers: %d a thread for every warpgroup%s (%lld per block), not re-split",
			 p.regs_launch, l ? "" : " (descriptor)", p.regs_total_launch);
	double th = text_block(c, regs.x, regs.y, regs.w, l1, fs, 0, NULL);
	double bh = lh * 1.1, by = regs.y + th + sz(c, 3);
	double total = (double)(p.regs_total_split > p.regs_total_launch ? p.regs_total_split : p.regs_total_launch);
	double x = regs.x, below_x = regs.x;
	for (int i = 0; i < p.producers + p.consumers; i++) {
		int prod = i < p.producers;
		double w = regs.w * (double)p.warpgroup_threads * (prod ? p.regs_producer : p.regs_consumer) / total;
		struct rbox b = rbox_make(x, by, w, bh);
		fill_rect(c, b, prod ? &st->chip_fill : &st->reg_fill);
		set_rgb(c, &st->ink);
		draw_rect(c, b, st->thin, 0);
		snprintf(l2, sizeof(l2), "%s %d", prod ? "producer" : i - p.producers ? "consumer 2" : "consumer 1",
			 prod ? p.regs_producer : p.regs_consumer);
		double tw;
		text_extent(c, l2, fs, 0, 0, &tw, NULL);
		if (tw < w - sz(c, 2))
			text_at(c, b.x + w / 2, by + bh / 2, l2, fs, 0, 0.5, 0.5, NULL);
		else if (x >= below_x) { /* too narrow: its label under it */
			text_at(c, x, by + bh + sz(c, 1), l2, fs, 0, 0, 0, NULL);
			below_x = x + tw + sz(c, 6);
		}
		x += w;
	}
	if (l) {
		snprintf(l2, sizeof(l2), "measured launch: %d threads, %d registers a thread, %s dynamic shared memory",
			 l->block[0] * (l->block[1] > 0 ? l->block[1] : 1), l->registers,
			 kib(l->dynamic_smem, b1, sizeof(b1)));
		text_at(c, regs.x + regs.w, by + bh + sz(c, 1), l2, fs, TX_ITALIC, 1, 0, &st->muted);
	}
}

/* ---- the timeline ------------------------------------------------------------------- */

/* The measured time and step of rung v, from the ablation table's cells. */
static void rung_measured(const struct dtable *T, const struct variant_desc *v, char *buf, size_t len)
{
	buf[0] = '\0';
	for (int i = 0; T && i < T->nrows; i++)
		if (!strcmp(T->cell[i][0], v->name)) {
			if (T->cell[i][5][0])
				snprintf(buf, len, "measured %s ms, step %s over %s", T->cell[i][2], T->cell[i][5],
					 v->parent ? v->parent : "the rung before");
			else
				snprintf(buf, len, "measured %s ms", T->cell[i][2]);
			return;
		}
	snprintf(buf, len, "not measured at these conditions");
}

enum { LANE_TMA, LANE_TENSOR, LANE_CONSUMER };

static int ev_lane(const struct ws_event *e)
{
	if (e->op == SO_LOAD_K || e->op == SO_LOAD_V || e->who < 0)
		return LANE_TMA; /* the producer's waits too (not drawn: its lane is the TMA unit's) */
	if (e->op == SO_GEMM_QK || e->op == SO_GEMM_PV)
		return LANE_TENSOR;
	return LANE_CONSUMER + (e->who > 0 ? e->who : 0);
}

static void ev_label(const struct ws_event *e, char *buf, size_t len)
{
	static const char *const sub[] = { "₀", "₁", "₂", "₃", "₄", "₅", "₆", "₇", "₈", "₉" };
	const char *n = e->block >= 0 && e->block < 10 ? sub[e->block] : "";
	switch (e->op) {
	case SO_LOAD_K: snprintf(buf, len, "K%s", n); break;
	case SO_LOAD_V: snprintf(buf, len, "V%s", n); break;
	case SO_GEMM_QK: snprintf(buf, len, "QK%s", n); break;
	case SO_GEMM_PV: snprintf(buf, len, "PV%s", n); break;
	case SO_SOFTMAX: snprintf(buf, len, "P%s", n); break;
	default: buf[0] = '\0';
	}
}

/* The look of an event: loads, each consumer's GEMMs and softmax apart. */
static const struct series_look *ev_look(const struct rstyle *st, const struct ws_event *e)
{
	if (e->op == SO_LOAD_K || e->op == SO_LOAD_V)
		return style_series(st, 3);
	/* a consumer's softmax in a lighter shade of its GEMMs' hue */
	if (e->op == SO_SOFTMAX)
		return style_series(st, e->who > 0 ? 4 : 5);
	return style_series(st, e->who > 0 ? 0 : 1);
}

/* One rung's panel: lanes TMA, tensor cores, consumer 1, 2 … over [0, tmax]. */
static void timeline_panel(struct rctx *c, const struct ws_timeline *tl, const char *head, struct rbox b, double tmax,
			   double labw)
{
	const struct rstyle *st = c->st;
	double fs = fs_(c);
	double hh = text_block(c, b.x, b.y, b.w, head, fs, TX_BOLD, NULL);
	rbox_cut_top(&b, hh + sz(c, 2));
	int lanes = LANE_CONSUMER + tl->consumers;
	double lh = b.h / lanes, x0 = b.x + labw, x1 = b.x + b.w;
	char buf[48];
	for (int i = 0; i < lanes; i++) {
		const char *nm = i == LANE_TMA ? (tl->producer ? "TMA (producer)" : "TMA (inline)")
			       : i == LANE_TENSOR ? "tensor cores" : NULL;
		if (!nm) {
			snprintf(buf, sizeof(buf), "consumer %d", i - LANE_CONSUMER + 1);
			nm = buf;
		}
		text_at(c, b.x, b.y + (i + 0.5) * lh, nm, fs, 0, 0, 0.5, NULL);
		cairo_save(c->cr);
		set_rgb(c, &st->grid);
		draw_line(c, x0, b.y + (i + 1) * lh, x1, b.y + (i + 1) * lh, st->thin * 0.6, 0);
		cairo_restore(c->cr);
	}
	double scale = (x1 - x0) / tmax;
	for (size_t i = 0; i < tl->nev; i++) {
		const struct ws_event *e = &tl->ev[i];
		int lane = ev_lane(e);
		struct rbox eb = rbox_make(x0 + e->t0 * scale, b.y + lane * lh + lh * 0.15, (e->t1 - e->t0) * scale, lh * 0.7);
		if (sched_op_is_wait(e->op)) {
			/* a stall: a thin hatched band, below the role's bars */
			if (lane < LANE_CONSUMER)
				continue;
			struct rbox wb = rbox_make(eb.x, b.y + lane * lh + lh * 0.42, eb.w, lh * 0.16);
			hatch_rect(c, wb, HATCH_DIAG, 2.5, &st->muted);
			continue;
		}
		const struct series_look *lk = ev_look(st, e);
		fill_look(c, rbox_inset(eb, 0, 0.4, 0, 0.4), lk, st->thin);
		ev_label(e, buf, sizeof(buf));
		double tw, th;
		text_extent(c, buf, fs, 0, 0, &tw, &th);
		if (lk->hatch == HATCH_NONE && tw < eb.w - sz(c, 2) && th < eb.h)
			text_at(c, eb.x + eb.w / 2, eb.y + eb.h / 2, buf, fs, 0, 0.5, 0.5, NULL);
	}
	/* what waits on what, for one middle phase: the hand-over of the turn
	 * (pingpong) and the Q·Kᵀ a softmax waited for (overlap) */
	int ph = tl->nblocks / 2;
	for (size_t i = 0; i < tl->nlinks; i++) {
		const struct ws_link *k = &tl->link[i];
		if (k->phase != ph || k->from < 0 || (k->wait != SO_TURN_WAIT && k->wait != SO_WAIT_GEMM_QK))
			continue;
		int fl = k->wait == SO_TURN_WAIT ? LANE_CONSUMER + (k->from_who > 0 ? k->from_who : 0) : LANE_TENSOR;
		int tlane = LANE_CONSUMER + (k->who > 0 ? k->who : 0);
		double fy = b.y + fl * lh + lh * (fl < tlane ? 0.85 : 0.15), ty = b.y + tlane * lh + lh * (fl < tlane ? 0.15 : 0.85);
		/* at the moment of the signal: the waiter goes on then or, busy, later */
		draw_arrow(c, x0 + k->t_from * scale, fy, x0 + k->t_from * scale, ty, st->line, sz(c, 3.5), &st->warn);
	}
}

void fig_wstimeline(struct rctx *c, const struct rdata *rd, const struct figopts *o, struct rbox box)
{
	const struct rstyle *st = c->st;
	char title[400], head[400], meas[200];
	fig_wstimeline_title(rd, o, title, sizeof(title));
	const struct variant_desc *top = ws_ladder_top(o->variant), *rung[8];
	size_t nr = ws_rungs(top, rung, 8);
	/* the measured numbers: the ablation table of this ladder, under the figure's conditions */
	struct figopts oa = *o;
	if (top)
		snprintf(oa.variant, sizeof(oa.variant), "%s", top->name);
	struct dtable *T = top ? table_build(rd, table_find("ablation"), &oa) : NULL;
	struct rsel as;
	ablation_sel(rd, &oa, &as);
	const struct record *recs[8];
	size_t nrec = 0;
	for (size_t i = 0; i < nr; i++) {
		const struct record *r = rdata_find(rd, rung[i]->name, &as);
		if (r)
			recs[nrec++] = r;
	}
	box = figure_frame_recs(c, rd, box, title, recs, nrec, o->standalone);
	box = rbox_inset(box, st->heavy, st->heavy, st->heavy, st->heavy);
	if (!nr) {
		draw_notice(c, box, "no warp-specialised ladder", "no descriptor in kernels/variants.c has a schedule table");
		table_free(T);
		return;
	}
	/* a build: step k draws rung k beside the one before it */
	size_t from = 0, to = nr;
	if (o->step > 0) {
		to = (size_t)o->step < nr ? (size_t)o->step : nr;
		from = to > 1 ? to - 2 : 0;
	}
	int d = as.d > 0 ? as.d : 128;
	static struct ws_timeline tl[8];
	double tmax = 0;
	for (size_t i = from; i < to; i++) {
		if (ws_timeline_build(&tl[i], rung[i]->ws, rung[i]->rung, d, 4, NULL)) {
			draw_notice(c, box, "the schedule table does not run", "a wait in kernels/variants.c's schedule is never satisfied");
			table_free(T);
			return;
		}
		tmax = fmax(tmax, tl[i].end);
	}
	double fs = fs_(c), labw = 0;
	const char *lane_names[] = { "TMA (producer)", "tensor cores", "consumer 2" };
	for (size_t i = 0; i < 3; i++) {
		double w;
		text_extent(c, lane_names[i], fs, 0, 0, &w, NULL);
		labw = fmax(labw, w + sz(c, 6));
	}
	/* the key under the panels */
	char key[700];
	struct ws_lengths wl;
	ws_lengths_default(&wl);
	if (st->slides)
		snprintf(key, sizeof(key), "The kernel's order and waits with schematic lengths: not a measured trace. "
			 "QK, PV: GEMMs in the colour of the consumer that issued them · P: its softmax · hatched: waiting");
	else
		snprintf(key, sizeof(key), "The implemented schedule, not a measured trace: order and waits are the kernel's "
			 "loop (its descriptor's schedule table), lengths schematic (load %g, GEMM %g, softmax %g); the times "
			 "printed are measured. QKⱼ: S = Q·Kⱼᵀ · PVⱼ: O += Pⱼ·Vⱼ on the tensor cores, in the colour of the "
			 "consumer that issued it · Pⱼ: that consumer's softmax of block j · Kⱼ, Vⱼ: TMA loads · hatched: "
			 "the consumer waits · arrows: a turn handed over (named barrier) and the Q·Kᵀ a softmax waits for "
			 "(wait_group 1).", wl.load, wl.gemm, wl.softmax);
	double kh;
	text_extent(c, key, fs, TX_ITALIC, box.w, NULL, &kh);
	struct rbox kb = rbox_cut_bottom(&box, kh + sz(c, 4));
	text_block(c, kb.x, kb.y + sz(c, 4), kb.w, key, fs, TX_ITALIC, &st->muted);
	size_t np = to - from;
	double gap = sz(c, 8), ph = (box.h - gap * (np - 1)) / np;
	for (size_t i = from; i < to; i++) {
		struct rbox pb = rbox_make(box.x, box.y + (i - from) * (ph + gap), box.w, ph);
		rung_measured(T, rung[i], meas, sizeof(meas));
		/* the rung, what it changes and its measured step; shorter where that does not fit one line */
		char shorter[400];
		snprintf(head, sizeof(head), "%s%s%s: %s", rung[i]->name, rung[i]->change ? " — " : "",
			 rung[i]->change ? rung[i]->change : "", meas);
		snprintf(shorter, sizeof(shorter), "%s: %s", rung[i]->name, meas);
		/* at the panel's own size: a head that fits only smaller would wrap
		 * there, and its second line takes the height the lanes' labels need */
		double hw;
		text_extent(c, head, fs, TX_BOLD, 0, &hw, NULL);
		timeline_panel(c, &tl[i], hw <= box.w ? head : shorter, pb, tmax, labw);
	}
	table_free(T);
}

/* ---- patent views --------------------------------------------------------------------- */

static double nfs(const struct rctx *c) { return c->st->size_numeral; }

/* a lead line ends inside the element it names (1.84(q)) */
static double into_(const struct rctx *c) { return c->st->size_numeral * 0.45; }

static double numeral_w(struct rctx *c)
{
	double w;
	text_extent(c, "888", nfs(c), TX_NOSCALE, 0, &w, NULL);
	return w;
}

/* A numeral at (tx, ty) with its lead line to the part at (px, py): keys "p:…" as fig_patent.c's. */
static void pnum(struct rctx *c, const char *key, const char *what, double px, double py, double tx, double ty)
{
	char k[96];
	snprintf(k, sizeof(k), "p:%.90s", key);
	draw_numeral(c, k, what, px, py, tx, ty);
}

/* The thread block of a producer/consumer arrangement: the producer group,
 * the consumer groups, the ring of stages with their barriers in shared
 * memory, the paths between them. */
void fig_pwarpspec(struct rctx *c, const struct rdata *rd, const struct figopts *o, struct rbox box)
{
	const struct rstyle *st = c->st;
	const struct variant_desc *v = ws_variant_or_default(o->variant);
	struct attn_shape s;
	struct ws_partition p;
	if (!v || (ws_shape(rd, o, v, &s), ws_partition_of(v, &s, rdata_sm_count(rd), &p))) {
		draw_notice(c, box, "no arrangement", "no descriptor has a ws trait");
		return;
	}
	double nw = numeral_w(c), gut = nw + nfs(c) * 1.2;
	struct rbox area = rbox_inset(box, nfs(c), gut, st->line, gut);
	/* the block's outline; inside it, groups at the top, shared memory below */
	struct rbox blk = area;
	set_rgb(c, &st->ink);
	draw_rect(c, blk, st->heavy, 0);
	pnum(c, "thread-block", "thread block", blk.x + into_(c), blk.y + blk.h * 0.04, box.x + nw / 2 + 1, blk.y + blk.h * 0.04);
	struct rbox in = rbox_inset(blk, nfs(c) * 2, nfs(c) * 1.5, nfs(c) * 1.5, nfs(c) * 1.5);
	int ng = p.producers + p.consumers;
	double gh = in.h * 0.34, gg = nfs(c) * 1.2, gw = (in.w - gg * (ng - 1)) / ng;
	double gx[8];
	for (int i = 0; i < ng && i < 8; i++) {
		struct rbox g = rbox_make(in.x + i * (gw + gg), in.y, gw, gh);
		int prod = i < p.producers;
		draw_rect(c, g, st->line, 0);
		/* its registers: a hatched band whose height is its share */
		double share = (double)(prod ? p.regs_producer : p.regs_consumer) / (p.regs_consumer > p.regs_producer ? p.regs_consumer : p.regs_producer);
		struct rbox rb = rbox_make(g.x + g.w * 0.55, g.y + g.h * (1 - 0.8 * share) - g.h * 0.1, g.w * 0.3, g.h * 0.8 * share);
		hatch_rect(c, rb, HATCH_DIAG, 4, &st->ink);
		set_rgb(c, &st->ink);
		draw_rect(c, rb, st->thin, 0);
		gx[i] = g.x + g.w / 2;
		if (prod) {
			pnum(c, "ws:producer", "producer warp group", g.x + into_(c), g.y + g.h * 0.2, g.x + into_(c), g.y - nfs(c) * 0.9);
			pnum(c, "ws:regs-producer", "registers of the producer warp group", rb.x + rb.w / 2, rb.y + rb.h / 2,
			     rb.x + rb.w / 2, g.y - nfs(c) * 0.9);
		} else if (i == p.producers) {
			pnum(c, "ws:consumer", "consumer warp group", g.x + into_(c), g.y + g.h * 0.2, g.x + into_(c), g.y - nfs(c) * 0.9);
			pnum(c, "ws:regs-consumer", "registers of a consumer warp group", rb.x + rb.w / 2, rb.y + rb.h / 2,
			     rb.x + rb.w / 2, g.y - nfs(c) * 0.9);
		}
	}
	/* shared memory: the query tile, then the key and value rings */
	struct rbox sm = rbox_make(in.x, in.y + gh + in.h * 0.18, in.w, in.h - gh - in.h * 0.18);
	draw_rect(c, sm, st->line, 4);
	pnum(c, "shared-memory", "shared memory", sm.x + into_(c), sm.y + sm.h - nfs(c), box.x + nw / 2 + 1, sm.y + sm.h - nfs(c));
	struct rbox si = rbox_inset(sm, nfs(c) * 1.2, nfs(c) * 1.2, nfs(c) * 1.2, nfs(c) * 1.2);
	double rowh = si.h / 3.4;
	struct rbox qt = rbox_make(si.x, si.y, si.w * 0.3, rowh);
	draw_rect(c, qt, st->line, 0);
	text_at(c, qt.x + qt.w / 2, qt.y + qt.h / 2, "Qᵢ", nfs(c), TX_BOLD | TX_NOSCALE, 0.5, 0.5, NULL);
	pnum(c, "tile:Q_i", "query block", qt.x + qt.w - into_(c), qt.y + qt.h * 0.2, box.x + box.w - nw / 2 - 1, qt.y + qt.h * 0.2);
	for (int kv = 0; kv < 2; kv++) {
		double y = si.y + (kv + 1) * rowh * 1.2;
		double w = (si.w * 0.75 - nfs(c) * (p.stages - 1)) / p.stages;
		for (int k = 0; k < p.stages; k++) {
			struct rbox b = rbox_make(si.x + k * (w + nfs(c)), y, w, rowh);
			draw_rect(c, b, st->line, 0);
			text_at(c, b.x + b.w * 0.35, b.y + b.h / 2, kv ? "Vⱼ" : "Kⱼ", nfs(c), TX_BOLD | TX_NOSCALE, 0.5, 0.5, NULL);
			/* its two barriers: small boxes at the right end */
			struct rbox f = rbox_make(b.x + b.w * 0.72, b.y + b.h * 0.15, b.w * 0.18, b.h * 0.3);
			struct rbox e = rbox_make(b.x + b.w * 0.72, b.y + b.h * 0.55, b.w * 0.18, b.h * 0.3);
			hatch_rect(c, f, HATCH_CROSS, 2, &st->ink); /* no solid black outside bar graphs (1.84) */
			set_rgb(c, &st->ink);
			draw_rect(c, f, st->thin, 0);
			draw_rect(c, e, st->thin, 0);
			if (kv == 0 && k == p.stages - 1) {
				double fy = f.y + f.h / 2;
				pnum(c, "ws:full", "full barrier of a stage", f.x + f.w / 2, fy, box.x + box.w - nw / 2 - 1, fy);
				pnum(c, "ws:empty", "empty barrier of a stage", e.x + e.w / 2, e.y + e.h / 2, box.x + box.w - nw / 2 - 1,
				     e.y + e.h / 2 + nfs(c) * 0.8);
			}
			if (kv == 1 && k == 0)
				pnum(c, "ws:stage", "stage of a ring buffer", b.x + into_(c), b.y + b.h * 0.5, box.x + nw / 2 + 1,
				     b.y + b.h * 0.5);
		}
	}
	/* the paths: producer to the ring (loads), ring to the consumers */
	double top = sm.y;
	for (int i = 0; i < ng && i < 8; i++) {
		int prod = i < p.producers;
		if (prod)
			draw_arrow(c, gx[i] - gw * 0.2, in.y + gh, gx[i] - gw * 0.2, top - 1, st->line, nfs(c) * 0.5, NULL);
		else
			draw_arrow(c, gx[i] - gw * 0.2, top - 1, gx[i] - gw * 0.2, in.y + gh, st->line, nfs(c) * 0.5, NULL);
	}
	if (p.producers)
		pnum(c, "ws:load-path", "load path into a stage", gx[0] - gw * 0.2, (in.y + gh + top) / 2,
		     box.x + nw / 2 + 1, (in.y + gh + top) / 2);
	pnum(c, "ws:read-path", "read path from a stage", gx[ng - 1] - gw * 0.2, (in.y + gh + top) / 2,
	     box.x + box.w - nw / 2 - 1, (in.y + gh + top) / 2);
}

/* One rung's loop: a lane for the copy unit, the matrix unit and each
 * consumer group; hatching tells the operations apart; numerals name one
 * of each in the middle of the loop. */
void fig_ptimeline(struct rctx *c, const struct rdata *rd, const struct figopts *o, struct rbox box)
{
	const struct rstyle *st = c->st;
	const struct variant_desc *v = ws_variant_or_default(o->variant);
	struct attn_shape s;
	static struct ws_timeline tl;
	if (!v || (ws_shape(rd, o, v, &s), ws_timeline_build(&tl, v->ws, v->rung, s.head_dim, 4, NULL))) {
		draw_notice(c, box, "no schedule", "no descriptor has a schedule table");
		return;
	}
	double nw = numeral_w(c), gut = nw + nfs(c) * 1.2;
	/* a band for numerals above the lanes, the time axis below */
	struct rbox area = rbox_inset(box, nfs(c) * 4, gut, nfs(c) * 3, gut);
	int lanes = LANE_CONSUMER + tl.consumers;
	double lh = area.h / lanes, scale = area.w / tl.end;
	static const char *const lane_key[] = { "ws:lane-copy", "ws:lane-matrix", "ws:lane-consumer1", "ws:lane-consumer2" };
	static const char *const lane_what[] = { "tensor memory copy unit", "matrix multiply unit",
						 "first consumer warp group", "second consumer warp group" };
	set_rgb(c, &st->ink);
	for (int i = 0; i <= lanes; i++)
		draw_line(c, area.x, area.y + i * lh, area.x + area.w, area.y + i * lh, i == 0 || i == lanes ? st->line : st->thin, 0);
	for (size_t i = 0; i < tl.nev; i++) {
		const struct ws_event *e = &tl.ev[i];
		int lane = ev_lane(e);
		if (sched_op_is_wait(e->op)) {
			if (lane >= LANE_CONSUMER)
				draw_line(c, area.x + e->t0 * scale, area.y + (lane + 0.5) * lh, area.x + e->t1 * scale,
					  area.y + (lane + 0.5) * lh, st->thin, 2);
			continue;
		}
		enum hatch h = e->op == SO_LOAD_K || e->op == SO_LOAD_V ? HATCH_VERT
			     : e->op == SO_GEMM_QK ? HATCH_DIAG : e->op == SO_GEMM_PV ? HATCH_BACK : HATCH_HORIZ;
		struct rbox eb = rbox_make(area.x + e->t0 * scale + 0.6, area.y + lane * lh + lh * 0.2,
					   (e->t1 - e->t0) * scale - 1.2, lh * 0.6);
		/* the second consumer's GEMMs crossed the other way */
		if (e->who > 0 && (e->op == SO_GEMM_QK || e->op == SO_GEMM_PV))
			h = h == HATCH_DIAG ? HATCH_CROSS : HATCH_DOTS;
		hatch_rect(c, eb, h, 3.5, &st->ink);
		set_rgb(c, &st->ink);
		draw_rect(c, eb, st->thin, 0);
	}
	for (int i = 0; i < lanes && i < 4; i++)
		pnum(c, lane_key[i], lane_what[i], area.x + into_(c), area.y + (i + 0.5) * lh, box.x + nw / 2 + 1,
		     area.y + (i + 0.5) * lh);
	/* one of each operation, from the middle of the loop, numbered in the band above */
	int ph = tl.nblocks / 2;
	struct { enum sched_op op; int who, block; const char *key, *what; } pick[] = {
		{ SO_LOAD_K, WS_PRODUCER, ph + 1, "ws:op-load", "transfer of a key block into a stage" },
		{ SO_GEMM_QK, 0, ph, "ws:op-scores", "product of a query block and a key block" },
		{ SO_GEMM_PV, 0, ph - 1, "ws:op-output", "product of a probability tile and a value block" },
		{ SO_SOFTMAX, 0, ph, "ws:op-softmax", "exponentiation and normalisation of a score tile" },
	};
	double lastx = -1e9;
	for (size_t i = 0; i < sizeof(pick) / sizeof(pick[0]); i++) {
		int k = ws_find(&tl, pick[i].op, pick[i].who, pick[i].block);
		if (k < 0)
			continue;
		const struct ws_event *e = &tl.ev[k];
		double px = area.x + (e->t0 + e->t1) / 2 * scale, py = area.y + (ev_lane(e) + 0.5) * lh;
		double tx = fmax(px, lastx + nw * 1.6);
		lastx = tx;
		pnum(c, pick[i].key, pick[i].what, px, py, tx, box.y + nfs(c) * 1.2);
	}
	/* a wait of a consumer: the dashed interval */
	for (size_t i = 0; i < tl.nev; i++) {
		const struct ws_event *e = &tl.ev[i];
		if (sched_op_is_wait(e->op) && e->who == 0 && e->phase == ph && (e->t1 - e->t0) * scale > nw) {
			pnum(c, "ws:op-wait", "waiting interval of a consumer warp group", area.x + (e->t0 + e->t1) / 2 * scale,
			     area.y + (LANE_CONSUMER + 0.5) * lh, area.x + (e->t0 + e->t1) / 2 * scale, area.y + area.h + nfs(c) * 2);
			break;
		}
	}
	/* what waits on what, as the colour timeline draws it for the middle phase:
	 * the turn handed over through a named barrier (pingpong) and the product
	 * of the scores a softmax waits for (wait_group 1), as black arrows */
	struct { double x, y0, y1; int turn; } ar[16];
	int na = 0;
	for (size_t i = 0; i < tl.nlinks && na < 16; i++) {
		const struct ws_link *k = &tl.link[i];
		if (k->phase != ph || k->from < 0 || (k->wait != SO_TURN_WAIT && k->wait != SO_WAIT_GEMM_QK))
			continue;
		int turn = k->wait == SO_TURN_WAIT;
		int fl = turn ? LANE_CONSUMER + (k->from_who > 0 ? k->from_who : 0) : LANE_TENSOR;
		int tlane = LANE_CONSUMER + (k->who > 0 ? k->who : 0), down = fl < tlane;
		ar[na].x = area.x + k->t_from * scale;
		ar[na].y0 = area.y + fl * lh + lh * (down ? 0.8 : 0.2);
		ar[na].y1 = area.y + tlane * lh + lh * (down ? 0.2 : 0.8);
		ar[na].turn = turn;
		draw_arrow(c, ar[na].x, ar[na].y0, ar[na].x, ar[na].y1, st->line, nfs(c) * 0.5, NULL);
		na++;
	}
	/* one of each kind numbered in the side gutter nearer along the free strip
	 * between its tail's bars and the lane line, crossing the fewest arrows */
	int said[2] = { 0, 0 };
	for (int i = 0; i < na; i++) {
		if (said[ar[i].turn]++)
			continue;
		double py = ar[i].y0 + (ar[i].y1 > ar[i].y0 ? 0.1 : -0.1) * lh;
		int left = 0, right = 0;
		for (int j = 0; j < na; j++)
			if (j != i && py > fmin(ar[j].y0, ar[j].y1) && py < fmax(ar[j].y0, ar[j].y1))
				ar[j].x < ar[i].x ? left++ : right++;
		int to_left = left < right || (left == right && ar[i].x - area.x < area.x + area.w - ar[i].x);
		pnum(c, ar[i].turn ? "ws:turn" : "ws:wait-scores",
		     ar[i].turn ? "hand-over of the turn between the consumer warp groups through a named barrier"
				: "wait of a consumer warp group for its product of a query block and a key block",
		     ar[i].x, py, to_left ? box.x + nw / 2 + 1 : box.x + box.w - nw / 2 - 1, py);
	}
	/* the time axis */
	double ay = area.y + area.h + nfs(c) * 0.8;
	draw_arrow(c, area.x, ay, area.x + area.w, ay, st->line, nfs(c) * 0.5, NULL);
	pnum(c, "ws:time", "time axis", area.x + area.w - into_(c) * 2, ay, box.x + box.w - nw / 2 - 1, ay + nfs(c) * 1.5);
}
