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
 * Each draws its description (src/doc/figdiagram.c: figdesc_warpspec,
 * figdesc_ws_timeline, figdesc_ws_loop), which reads the descriptor (the
 * tiling and the ws trait, kernels/variants.c), runs the schedule
 * (doc/wsched.c, schematic lengths: the implemented schedule, not a
 * measured trace) and takes the measured numbers from the records (the
 * ablation table's cells, the launch).
 */
#include "render/figure_draw.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "doc/wsched.h"

static double fs_(const struct rctx *c) { return c->st->size_chart; }

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
	char title[300];
	struct figdesc d;
	figdesc_init(&d, "warpspec");
	if (figdesc_warpspec(rd, o, &d)) {
		figdesc_release(&d);
		return;
	}
	fig_warpspec_title(rd, o, title, sizeof(title));
	box = figure_frame_recs(c, rd, box, title, d.used, d.nused, o->standalone);
	box = rbox_inset(box, st->heavy, st->heavy, st->heavy, st->heavy);
	if (d.notice[0]) {
		draw_notice(c, box, d.notice, d.notice_why);
		figdesc_release(&d);
		return;
	}
	const int producers = (int)figdesc_size(&d, 0, "producers"), consumers = (int)figdesc_size(&d, 0, "consumers");
	const int stages = (int)figdesc_size(&d, 0, "stages");
	double fs = fs_(c), lh = fs * 1.3 * c->scale;

	/* the register split under everything */
	struct rbox regs = rbox_cut_bottom(&box, lh * 5.2);
	rbox_cut_bottom(&box, sz(c, 6));
	/* left: the CTA and its roles; right: shared memory; the arrows between */
	struct rbox left = rbox_cut_left(&box, box.w * 0.42);
	struct rbox right = rbox_cut_right(&box, box.w * 0.52);
	struct rbox gap = box;

	double hh = text_block(c, left.x, left.y, left.w, figdesc_text(&d, "head", 0), fs, TX_BOLD, NULL);
	rbox_cut_top(&left, hh + sz(c, 3));
	int nrole = producers + consumers;
	double rg = sz(c, 6), role_h = (left.h - rg * (nrole - 1)) / nrole;
	double role_top[8];
	const struct figitem *it;
	for (int k = 0; k < nrole && k < 8 && (it = figdesc_part(&d, "role", (size_t)k)); k++) {
		struct rbox b = rbox_make(left.x, left.y + k * (role_h + rg), left.w, role_h);
		role_top[k] = b.y;
		role_box(c, b, it->text, it->alt[0], k < producers ? &st->chip_fill : &st->reg_fill);
	}

	/* shared memory: Q, then the K and V rings, one box a stage */
	hh = text_block(c, right.x, right.y, right.w, figdesc_text(&d, "smem", 0), fs, TX_BOLD, NULL);
	rbox_cut_top(&right, hh + sz(c, 3));
	double sh = fmin(right.h / 3.6, lh * 3.2), sg = (right.h - 3 * sh) / 2;
	struct rbox qb = rbox_make(right.x, right.y, right.w * 0.5, sh);
	if ((it = figdesc_part(&d, "qtile", 0)))
		role_box(c, qb, it->text, it->alt[0], &st->shared_fill);
	for (int kv = 0; kv < 2; kv++) {
		double y = right.y + (kv + 1) * (sh + sg);
		double w = (right.w - sz(c, 3) * (stages - 1)) / stages;
		for (int sidx = 0; sidx < stages && (it = figdesc_part(&d, "stage", (size_t)(kv * stages + sidx))); sidx++) {
			struct rbox b = rbox_make(right.x + sidx * (w + sz(c, 3)), y, w, sh);
			role_box(c, b, it->text, it->alt[0], &st->shared_fill);
		}
	}
	/* who arrives, who waits: loads into the ring, full to the consumers, empty back */
	const struct rgb *acc = &st->accent;
	double x0 = gap.x + sz(c, 2), x1 = gap.x + gap.w - sz(c, 2);
	int last = producers + consumers - 1;
	double y_load = producers ? role_top[0] + role_h * 0.45 : role_top[0] + role_h * 0.3;
	gap_arrow(c, x0, x1, y_load, figdesc_text(&d, "arrow", 0), acc);
	gap_arrow(c, x1, x0, producers ? role_top[0] + role_h * 0.9 : role_top[0] + role_h * 0.75, figdesc_text(&d, "arrow", 1),
		  acc);
	gap_arrow(c, x1, x0, role_top[producers] + role_h * (producers ? 0.6 : 0.98), figdesc_text(&d, "arrow", 2), NULL);
	gap_arrow(c, x0, x1, role_top[last] + role_h * 0.6, figdesc_text(&d, "arrow", 3), NULL);

	/* the register file of the block, before and after setmaxnreg */
	double th = text_block(c, regs.x, regs.y, regs.w, figdesc_text(&d, "regs", 0), fs, 0, NULL);
	double bh = lh * 1.1, by = regs.y + th + sz(c, 3);
	const double total = figdesc_size(&d, 0, "regs_total"), wgt = figdesc_size(&d, 0, "warpgroup_threads");
	double x = regs.x, below_x = regs.x;
	for (size_t i = 0; (it = figdesc_part(&d, "regbar", i)); i++) {
		const int prod = !strcmp(it->state, "producer");
		double w = regs.w * wgt * it->v / total;
		struct rbox b = rbox_make(x, by, w, bh);
		fill_rect(c, b, prod ? &st->chip_fill : &st->reg_fill);
		set_rgb(c, &st->ink);
		draw_rect(c, b, st->thin, 0);
		double tw;
		text_extent(c, it->text, fs, 0, 0, &tw, NULL);
		if (tw < w - sz(c, 2))
			text_at(c, b.x + w / 2, by + bh / 2, it->text, fs, 0, 0.5, 0.5, NULL);
		else if (x >= below_x) { /* too narrow: its label under it */
			text_at(c, x, by + bh + sz(c, 1), it->text, fs, 0, 0, 0, NULL);
			below_x = x + tw + sz(c, 6);
		}
		x += w;
	}
	if ((it = figdesc_part(&d, "launch", 0)))
		text_at(c, regs.x + regs.w, by + bh + sz(c, 1), it->text, fs, TX_ITALIC, 1, 0, &st->muted);
	figdesc_release(&d);
}

/* ---- the timeline ------------------------------------------------------------------- */

/* The look of a bar: loads, each consumer's GEMMs and softmax apart. */
static const struct series_look *span_look(const struct rstyle *st, const struct figspan *e)
{
	if (e->op == SO_LOAD_K || e->op == SO_LOAD_V)
		return style_series(st, 3);
	/* a consumer's softmax in a lighter shade of its GEMMs' hue */
	if (e->op == SO_SOFTMAX)
		return style_series(st, e->who > 0 ? 4 : 5);
	return style_series(st, e->who > 0 ? 0 : 1);
}

/* Group g's panel: lanes TMA, tensor cores, consumer 1, 2 … over [0, tmax]. */
static void timeline_panel(struct rctx *c, const struct figdesc *d, int g, const char *head, struct rbox b, double tmax,
			   double labw)
{
	const struct rstyle *st = c->st;
	double fs = fs_(c);
	double hh = text_block(c, b.x, b.y, b.w, head, fs, TX_BOLD, NULL);
	rbox_cut_top(&b, hh + sz(c, 2));
	int lanes = (int)figdesc_size(d, g, "lanes");
	double lh = b.h / lanes, x0 = b.x + labw, x1 = b.x + b.w;
	const struct figitem *it;
	for (int i = 0; i < lanes && (it = figdesc_part_of(d, g, "lane", (size_t)i)); i++) {
		text_at(c, b.x, b.y + (i + 0.5) * lh, it->text, fs, 0, 0, 0.5, NULL);
		cairo_save(c->cr);
		set_rgb(c, &st->grid);
		draw_line(c, x0, b.y + (i + 1) * lh, x1, b.y + (i + 1) * lh, st->thin * 0.6, 0);
		cairo_restore(c->cr);
	}
	double scale = (x1 - x0) / tmax;
	for (size_t i = 0; i < d->nspans; i++) {
		const struct figspan *e = &d->span[i];
		if (e->group != g)
			continue;
		struct rbox eb = rbox_make(x0 + e->t0 * scale, b.y + e->lane * lh + lh * 0.15, (e->t1 - e->t0) * scale, lh * 0.7);
		if (e->wait) { /* a stall: a thin hatched band, below the role's bars */
			struct rbox wb = rbox_make(eb.x, b.y + e->lane * lh + lh * 0.42, eb.w, lh * 0.16);
			hatch_rect(c, wb, HATCH_DIAG, 2.5, &st->muted);
			continue;
		}
		const struct series_look *lk = span_look(st, e);
		fill_look(c, rbox_inset(eb, 0, 0.4, 0, 0.4), lk, st->thin);
		double tw, th;
		text_extent(c, e->label, fs, 0, 0, &tw, &th);
		if (lk->hatch == HATCH_NONE && tw < eb.w - sz(c, 2) && th < eb.h)
			text_at(c, eb.x + eb.w / 2, eb.y + eb.h / 2, e->label, fs, 0, 0.5, 0.5, NULL);
	}
	/* what waits on what (the middle phase's links) */
	for (size_t i = 0; i < d->nlinks; i++) {
		const struct figlink *k = &d->link[i];
		if (k->group != g)
			continue;
		const int fl = k->from_lane, tlane = k->to_lane;
		double fy = b.y + fl * lh + lh * (fl < tlane ? 0.85 : 0.15), ty = b.y + tlane * lh + lh * (fl < tlane ? 0.15 : 0.85);
		/* at the moment of the signal: the waiter goes on then or, busy, later */
		draw_arrow(c, x0 + k->t * scale, fy, x0 + k->t * scale, ty, st->line, sz(c, 3.5), &st->warn);
	}
}

void fig_wstimeline(struct rctx *c, const struct rdata *rd, const struct figopts *o, struct rbox box)
{
	const struct rstyle *st = c->st;
	char title[400];
	struct figdesc d;
	figdesc_init(&d, "ws-timeline");
	if (figdesc_ws_timeline(rd, o, &d)) {
		figdesc_release(&d);
		return;
	}
	fig_wstimeline_title(rd, o, title, sizeof(title));
	box = figure_frame_recs(c, rd, box, title, d.used, d.nused, o->standalone);
	box = rbox_inset(box, st->heavy, st->heavy, st->heavy, st->heavy);
	if (d.notice[0]) {
		draw_notice(c, box, d.notice, d.notice_why);
		figdesc_release(&d);
		return;
	}
	size_t np = 0;
	double tmax = 0;
	while (figdesc_part_of(&d, (int)np, "head", 0))
		tmax = fmax(tmax, figdesc_size(&d, (int)np++, "end"));
	/* the lanes' labels' column: as wide as the widest a panel may print */
	double fs = fs_(c), labw = 0;
	const char *lane_names[] = { "TMA (producer)", "tensor cores", "consumer 2" };
	for (size_t i = 0; i < 3; i++) {
		double w;
		text_extent(c, lane_names[i], fs, 0, 0, &w, NULL);
		labw = fmax(labw, w + sz(c, 6));
	}
	/* the key under the panels */
	const struct figitem *key = figdesc_part(&d, "key", st->slides ? 1 : 0);
	double kh;
	text_extent(c, key->text, fs, TX_ITALIC, box.w, NULL, &kh);
	struct rbox kb = rbox_cut_bottom(&box, kh + sz(c, 4));
	text_block(c, kb.x, kb.y + sz(c, 4), kb.w, key->text, fs, TX_ITALIC, &st->muted);
	double gap = sz(c, 8), ph = (box.h - gap * (np - 1)) / np;
	for (size_t i = 0; i < np; i++) {
		struct rbox pb = rbox_make(box.x, box.y + i * (ph + gap), box.w, ph);
		const struct figitem *head = figdesc_part_of(&d, (int)i, "head", 0);
		/* at the panel's own size: a head that fits only smaller would wrap
		 * there, and its second line takes the height the lanes' labels need */
		double hw;
		text_extent(c, head->text, fs, TX_BOLD, 0, &hw, NULL);
		timeline_panel(c, &d, (int)i, hw <= box.w ? head->text : head->alt[0], pb, tmax, labw);
	}
	figdesc_release(&d);
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
	struct figdesc d;
	figdesc_init(&d, "patent-warpspec");
	if (figdesc_warpspec(rd, o, &d) || d.notice[0]) {
		if (d.notice[0])
			draw_notice(c, box, "no arrangement", "no descriptor has a ws trait");
		figdesc_release(&d);
		return;
	}
	const struct {
		int producers, consumers, stages;
		double regs_producer, regs_consumer;
	} p = { (int)figdesc_size(&d, 0, "producers"), (int)figdesc_size(&d, 0, "consumers"),
		(int)figdesc_size(&d, 0, "stages"), figdesc_size(&d, 0, "regs_producer"),
		figdesc_size(&d, 0, "regs_consumer") };
	figdesc_release(&d);
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
		double share = (prod ? p.regs_producer : p.regs_consumer) / (p.regs_consumer > p.regs_producer ? p.regs_consumer : p.regs_producer);
		struct rbox rb = rbox_make(g.x + g.w * 0.55, g.y + g.h * (1 - 0.8 * share) - g.h * 0.1, g.w * 0.3, g.h * 0.8 * share);
		hatch_rect(c, rb, HATCH_DIAG, 4, &st->ink);
		set_rgb(c, &st->ink);
		draw_rect(c, rb, st->thin, 0);
		gx[i] = g.x + g.w / 2;
		if (prod) {
			pnum(c, "ws:producer", "producer warp group", g.x + into_(c), g.y + g.h * 0.2, g.x + into_(c), g.y - nfs(c) * 0.9);
			pnum(c, "ws:regs-producer", "registers of the producer warp group", rb.x + rb.w / 2, rb.y + rb.h / 2,
			     rb.x + rb.w / 2, g.y - nfs(c) * 0.9);
		} else {
			/* every consumer group is one: the same numerals on each (the second bore none) */
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
	struct figdesc d;
	figdesc_init(&d, "patent-timeline");
	if (figdesc_ws_loop(rd, o, &d) || d.notice[0]) {
		if (d.notice[0])
			draw_notice(c, box, d.notice, d.notice_why);
		figdesc_release(&d);
		return;
	}
	double nw = numeral_w(c), gut = nw + nfs(c) * 1.2;
	/* a band for numerals above the lanes, the time axis below */
	struct rbox area = rbox_inset(box, nfs(c) * 4, gut, nfs(c) * 3, gut);
	int lanes = (int)figdesc_size(&d, 0, "lanes");
	double lh = area.h / lanes, scale = area.w / figdesc_size(&d, 0, "end");
	static const char *const lane_key[] = { "ws:lane-copy", "ws:lane-matrix", "ws:lane-consumer1", "ws:lane-consumer2" };
	static const char *const lane_what[] = { "tensor memory copy unit", "matrix multiply unit",
						 "first consumer warp group", "second consumer warp group" };
	set_rgb(c, &st->ink);
	for (int i = 0; i <= lanes; i++)
		draw_line(c, area.x, area.y + i * lh, area.x + area.w, area.y + i * lh, i == 0 || i == lanes ? st->line : st->thin, 0);
	for (size_t i = 0; i < d.nspans; i++) {
		const struct figspan *e = &d.span[i];
		int lane = e->lane;
		if (e->wait) {
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
	int ph = (int)figdesc_size(&d, 0, "nblocks") / 2;
	struct { enum sched_op op; int who, block; const char *key, *what; } pick[] = {
		{ SO_LOAD_K, WS_PRODUCER, ph + 1, "ws:op-load", "transfer of a key block into a stage" },
		{ SO_GEMM_QK, 0, ph, "ws:op-scores", "product of a query block and a key block" },
		{ SO_GEMM_PV, 0, ph - 1, "ws:op-output", "product of a probability tile and a value block" },
		{ SO_SOFTMAX, 0, ph, "ws:op-softmax", "exponentiation and normalisation of a score tile" },
	};
	double lastx = -1e9;
	for (size_t i = 0; i < sizeof(pick) / sizeof(pick[0]); i++) {
		const struct figspan *e = figdesc_span_find(&d, 0, pick[i].op, pick[i].who, pick[i].block);
		if (!e)
			continue;
		double px = area.x + (e->t0 + e->t1) / 2 * scale, py = area.y + (e->lane + 0.5) * lh;
		double tx = fmax(px, lastx + nw * 1.6);
		lastx = tx;
		pnum(c, pick[i].key, pick[i].what, px, py, tx, box.y + nfs(c) * 1.2);
	}
	/* a wait of a consumer: the dashed interval */
	for (size_t i = 0; i < d.nspans; i++) {
		const struct figspan *e = &d.span[i];
		if (e->wait && e->who == 0 && e->phase == ph && (e->t1 - e->t0) * scale > nw) {
			pnum(c, "ws:op-wait", "waiting interval of a consumer warp group", area.x + (e->t0 + e->t1) / 2 * scale,
			     area.y + (FD_LANE_CONSUMER + 0.5) * lh, area.x + (e->t0 + e->t1) / 2 * scale, area.y + area.h + nfs(c) * 2);
			break;
		}
	}
	/* what waits on what, as the colour timeline draws it for the middle phase:
	 * the turn handed over through a named barrier (pingpong) and the product
	 * of the scores a softmax waits for (wait_group 1), as black arrows */
	struct { double x, y0, y1; int turn; } ar[16];
	int na = 0;
	for (size_t i = 0; i < d.nlinks && na < 16; i++) {
		const struct figlink *k = &d.link[i];
		int turn = k->turn, fl = k->from_lane, tlane = k->to_lane, down = fl < tlane;
		ar[na].x = area.x + k->t * scale;
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
	figdesc_release(&d);
}
