/* fig_teach.c: teaching figures for slides, drawn from the descriptors,
 * the results and the tool's own worked examples (never by hand per variant).
 *
 *   tiling          the data flow of one variant as a build: step 1 loads a
 *                   Q block on chip, 2 streams a K/V block past it, 3 computes
 *                   the S tile, 4 updates the running max and sum, 5 rescales
 *                   O (0: every step at once); a variant that stores S and P
 *                   (standard) is drawn as its three kernels and the N×N
 *                   matrices they write.
 *   online-softmax  the recurrence on online_softmax.c's worked example, one
 *                   row per K/V block, with the direct softmax beside it.
 *   loop-order      where O lives: K/V-outer (O, m, ℓ in HBM, read and
 *                   written every step) against Q-outer (O in registers).
 *   warp-split      split-K warps exchanging partial outputs through shared
 *                   memory against split-Q warps that need no exchange, with
 *                   the measured shared-memory store wavefronts.
 *   causal-blocks   the tile pairs of a causal pass: computed, masked on the
 *                   diagonal, skipped (causal_tiles.c), with measured times.
 *
 * Each draws its description (src/doc/figdiagram.c: figdesc_tiling,
 * figdesc_online_softmax, figdesc_loop_order, figdesc_warp_split,
 * figdesc_causal_blocks; the ladder's figdesc.c), never a record itself.
 * Every text is set at the style's chart size or larger (slides: ≥ 16 pt).
 */
#include "render/figure_draw.h"

#include <math.h>
#include <stdio.h>
#include <string.h>


/* ---- shared pieces ----------------------------------------------------------- */

/* The text size of teaching figures: the style's chart size, never less. */
static double tfs(const struct rctx *c) { return sz(c, c->st->size_chart); }

/* A box with a one- or two-line label centred in it; hl draws it as the
 * step just added (accent outline, heavier). */
static void label_box(struct rctx *c, struct rbox b, const struct rgb *fill, const char *l1, const char *l2,
		      int hl, double dash)
{
	const struct rstyle *st = c->st;
	double fs = tfs(c);
	if (fill)
		fill_rect(c, b, fill);
	cairo_save(c->cr);
	set_rgb(c, hl ? &st->accent : &st->ink);
	draw_rect(c, b, hl ? st->heavy : st->line, dash);
	cairo_restore(c->cr);
	double h1 = 0, h2 = 0;
	if (l1)
		text_extent(c, l1, fs, TX_BOLD | TX_MARKUP, 0, NULL, &h1);
	if (l2)
		text_extent(c, l2, fs, TX_MARKUP, 0, NULL, &h2);
	double y = b.y + (b.h - h1 - h2) / 2;
	if (l1)
		text_at(c, b.x + b.w / 2, y, l1, fs, TX_BOLD | TX_MARKUP, 0.5, 0, NULL);
	if (l2)
		text_at(c, b.x + b.w / 2, y + h1, l2, fs, TX_MARKUP, 0.5, 0, NULL);
}

/* Width and height a label box needs. */
static void label_size(struct rctx *c, const char *l1, const char *l2, double *w, double *h)
{
	double fs = tfs(c), w1 = 0, h1 = 0, w2 = 0, h2 = 0;
	if (l1)
		text_extent(c, l1, fs, TX_BOLD | TX_MARKUP, 0, &w1, &h1);
	if (l2)
		text_extent(c, l2, fs, TX_MARKUP, 0, &w2, &h2);
	*w = fmax(w1, w2) + fs * 1.0;
	*h = h1 + h2 + fs * 0.6;
}

static const struct rgb *hl_col(const struct rctx *c, int hl)
{
	return hl ? &c->st->accent : NULL;
}

static void arrow(struct rctx *c, double x0, double y0, double x1, double y1, int hl)
{
	const struct rstyle *st = c->st;
	draw_arrow(c, x0, y0, x1, y1, hl ? st->heavy : st->line, sz(c, 7), hl ? &st->accent : &st->ink);
}

static void cond_caption(struct rctx *c, const struct rdata *rd, const struct record *const *recs, size_t n,
			 const char *title, const struct figopts *o, struct rbox *box)
{
	*box = figure_frame_recs(c, rd, *box, title, recs, n, o->standalone);
	/* strokes stay inside the box: inset by half the heaviest line */
	double in = c->st->heavy;
	*box = rbox_inset(*box, in, in, in, in);
}

/* ---- tiling: the build --------------------------------------------------------- */

/* standard: Q K S P V O in HBM, the three kernels under them */
static void tiling_standard(struct rctx *c, const struct figdesc *d, struct rbox box)
{
	const struct rstyle *st = c->st;
	double fs = tfs(c);
	double weights[6] = { 1, 1, 2.2, 2.2, 1, 1 }, wsum = 0, gap = fs * 0.8;
	for (int i = 0; i < 6; i++)
		wsum += weights[i];
	const char *heading = figdesc_text(d, "heading", 0);
	double lw;
	text_extent(c, heading, fs, TX_BOLD, 0, &lw, NULL);
	lw += fs;
	struct rbox hbm = rbox_cut_top(&box, fs * 5.2);
	struct rbox lab = rbox_cut_left(&hbm, lw);
	text_at(c, lab.x, lab.y + lab.h / 2, heading, fs, TX_BOLD, 0, 0.5, NULL);
	double unit = (hbm.w - 5 * gap) / wsum, x = hbm.x;
	double cx[6], bottom = hbm.y + hbm.h;
	const struct figitem *it;
	for (int i = 0; i < 6 && (it = figdesc_part(d, "hbm", (size_t)i)); i++) {
		double w = unit * weights[i];
		struct rbox b = rbox_make(x, hbm.y, w, hbm.h);
		int big = !strcmp(it->state, "stored");
		label_box(c, b, big ? NULL : &st->hbm_fill, it->text, it->alt[0], big, 0);
		cx[i] = b.x + w / 2;
		x += w + gap;
	}
	/* the kernels, each under what it reads and writes */
	rbox_cut_top(&box, fs * 3.2);
	struct rbox kr = rbox_cut_top(&box, fs * 3.2);
	double kx[3] = { (cx[0] + cx[2]) / 2, (cx[2] + cx[3]) / 2, (cx[3] + cx[5]) / 2 };
	double kw = unit * 2.4, ky = kr.y;
	for (int k = 0; k < 3 && (it = figdesc_part(d, "kernel", (size_t)k)); k++)
		label_box(c, rbox_make(kx[k] - kw / 2, ky, kw, kr.h), &st->chip_fill, it->text, it->alt[0], 0, 0);
	double up = ky - sz(c, 2), dn = bottom + sz(c, 2);
	/* reads down, writes up */
	arrow(c, cx[0], dn, kx[0] - kw * 0.3, up, 0);
	arrow(c, cx[1], dn, kx[0] - kw * 0.05, up, 0);
	arrow(c, kx[0] + kw * 0.3, up, cx[2] - unit * 0.5, dn, 1);
	arrow(c, cx[2] + unit * 0.5, dn, kx[1] - kw * 0.2, up, 0);
	arrow(c, kx[1] + kw * 0.2, up, cx[3] - unit * 0.5, dn, 1);
	arrow(c, cx[3] + unit * 0.5, dn, kx[2] - kw * 0.35, up, 0);
	arrow(c, cx[4], dn, kx[2] + kw * 0.05, up, 0);
	arrow(c, kx[2] + kw * 0.35, up, cx[5], dn, 0);
	text_block(c, box.x, box.y + fs * 0.6, box.w, figdesc_text(d, "foot", 0), fs, TX_CENTER, &st->muted);
}

/* A tile of the build: its part (name) drawn in b, highlighted when hl. */
static void tile_box(struct rctx *c, const struct figitem *t, struct rbox b, const struct rgb *fill, int hl)
{
	label_box(c, b, fill, t->text, t->alt[0], hl, 0);
}

static const struct figitem *named_part(const struct figdesc *d, const char *role, const char *name)
{
	const struct figitem *it;
	for (size_t i = 0; (it = figdesc_part(d, role, i)); i++)
		if (!strcmp(it->name, name))
			return it;
	return NULL;
}

void fig_tiling(struct rctx *c, const struct rdata *rd, const struct figopts *o, struct rbox box)
{
	const struct rstyle *st = c->st;
	char title[300];
	struct figdesc d;
	figdesc_init(&d, "tiling");
	if (figdesc_tiling(rd, o, &d)) {
		figdesc_release(&d);
		return;
	}
	fig_tiling_title(rd, o, title, sizeof(title));
	if (d.notice[0]) {
		box = figure_frame(c, box, title, NULL, o->standalone);
		draw_notice(c, box, d.notice, d.notice_why);
		figdesc_release(&d);
		return;
	}
	cond_caption(c, rd, d.used, d.nused, title, o, &box);
	if (!strcmp(figdesc_part(&d, "mode", 0)->state, "standard")) {
		tiling_standard(c, &d, box);
		figdesc_release(&d);
		return;
	}
	const int step = (int)figdesc_size(&d, 0, "step");
	double fs = tfs(c);
	const struct figitem *tQ = named_part(&d, "tile", "Q_i"), *tK = named_part(&d, "tile", "K_j"),
			     *tV = named_part(&d, "tile", "V_j"), *tS = named_part(&d, "tile", "S_ij"),
			     *tM = named_part(&d, "tile", "m_l"), *tO = named_part(&d, "tile", "O_i");
	const char *hbm_head = figdesc_text(&d, "heading", 0), *chip_head = figdesc_text(&d, "heading", 1);

	/* HBM: Q K V O as bars across the top, a band in each for the block */
	double lw;
	text_extent(c, chip_head, fs, TX_BOLD, 0, &lw, NULL);
	lw += fs;
	struct rbox hbm = rbox_cut_top(&box, fs * 3.0);
	struct rbox hl = rbox_cut_left(&hbm, lw);
	text_at(c, hl.x, hl.y + hl.h / 2, hbm_head, fs, TX_BOLD, 0, 0.5, NULL);
	double gap = fs * 1.2, bw = (hbm.w - 3 * gap) / 4;
	struct rbox bars[4], band[4];
	const struct figitem *it;
	for (int i = 0; i < 4 && (it = figdesc_part(&d, "hbm", (size_t)i)); i++) {
		bars[i] = rbox_make(hbm.x + i * (bw + gap), hbm.y + fs * 1.4, bw, hbm.h - fs * 1.4);
		double t;
		text_extent(c, it->text, fs, TX_BOLD, 0, &t, NULL);
		text_at(c, bars[i].x, hbm.y, it->text, fs, TX_BOLD, 0, 0, NULL);
		text_at(c, bars[i].x + t + fs * 0.4, hbm.y, it->alt[0], fs, 0, 0, 0, &st->muted);
		fill_rect(c, bars[i], &st->hbm_fill);
		/* the block this step touches: Q_i and O_i the 2nd of 8, K_j and V_j the 3rd */
		int pos = i == 0 || i == 3 ? 1 : 2;
		band[i] = rbox_make(bars[i].x + bars[i].w * pos / 8.0, bars[i].y, bars[i].w / 8.0, bars[i].h);
		int on = (i == 0 && step >= 1) || ((i == 1 || i == 2) && step >= 2) || (i == 3 && step >= 5);
		int now = (i == 0 && step == 1) || ((i == 1 || i == 2) && step == 2) || (i == 3 && step == 5);
		if (on) {
			struct series_look lk = *style_series(st, 2);
			if (now)
				lk.fill = st->accent;
			fill_look(c, band[i], &lk, 0);
		}
		set_rgb(c, &st->ink);
		for (int k = 1; k < 8; k++)
			draw_line(c, bars[i].x + bars[i].w * k / 8.0, bars[i].y, bars[i].x + bars[i].w * k / 8.0,
				  bars[i].y + bars[i].h, st->thin * 0.5, 0);
		draw_rect(c, bars[i], st->line, 0);
	}

	/* on chip: the tiles under their matrices, a second row for S, m/ℓ, O */
	rbox_cut_top(&box, fs * 2.6);
	double tw, th, tw2, th2, nh;
	label_size(c, tQ->text, tQ->alt[0], &tw, &th);
	label_size(c, tM->text, tM->alt[0], &tw2, &th2);
	text_extent(c, "Ag", fs, 0, 0, NULL, &nh);
	th = fmax(th, th2);
	double tile_w = fmin(bw * 0.8, fmax(tw, fs * 6));
	double row1 = box.y, row2 = box.y + th + fs * 2.2;
	struct rbox chip = rbox_make(box.x, box.y, box.w, row2 + th + nh * 1.8 - box.y);
	struct rbox cl = rbox_cut_left(&chip, lw);
	text_at(c, cl.x, cl.y + fs * 0.2, chip_head, fs, TX_BOLD, 0, 0, NULL);
	cairo_save(c->cr);
	set_rgb(c, &st->muted);
	draw_rect(c, rbox_make(chip.x - fs * 0.4, chip.y - fs * 0.4, chip.w + fs * 0.4, chip.h + fs * 0.4), st->thin, 3);
	cairo_restore(c->cr);
	struct rbox tq = rbox_make(bars[0].x + (bw - tile_w) / 2, row1, tile_w, th);
	struct rbox tk = rbox_make(bars[1].x + (bw - tile_w) / 2, row1, tile_w, th);
	struct rbox tvb = rbox_make(bars[2].x + (bw - tile_w) / 2, row1, tile_w, th);
	struct rbox ts = rbox_make((bars[0].x + bars[1].x + bw) / 2 - tile_w / 2, row2, tile_w, th);
	struct rbox tm = rbox_make(bars[2].x + (bw - fmax(tw2, tile_w)) / 2, row2, fmax(tw2, tile_w), th);
	struct rbox to = rbox_make(bars[3].x + (bw - tile_w) / 2, row2, tile_w, th);
	if (step >= 1) {
		tile_box(c, tQ, tq, &st->shared_fill, step == 1);
		arrow(c, band[0].x + band[0].w / 2, bars[0].y + bars[0].h + sz(c, 2), tq.x + tq.w / 2, tq.y - sz(c, 2), step == 1);
		text_at(c, tq.x + tq.w / 2 + fs * 0.6, (bars[0].y + bars[0].h + tq.y) / 2, tQ->alt[1], fs, 0, 0, 0.5,
			hl_col(c, step == 1));
	}
	if (step >= 2) {
		tile_box(c, tK, tk, &st->shared_fill, step == 2);
		tile_box(c, tV, tvb, &st->shared_fill, step == 2);
		arrow(c, band[1].x + band[1].w / 2, bars[1].y + bars[1].h + sz(c, 2), tk.x + tk.w / 2, tk.y - sz(c, 2), step == 2);
		arrow(c, band[2].x + band[2].w / 2, bars[2].y + bars[2].h + sz(c, 2), tvb.x + tvb.w / 2, tvb.y - sz(c, 2), step == 2);
		text_at(c, (tk.x + tk.w + tvb.x) / 2, (bars[1].y + bars[1].h + tk.y) / 2, figdesc_text(&d, "loop", 0), fs, 0, 0.5,
			0.5, hl_col(c, step == 2));
	}
	if (step >= 3) {
		tile_box(c, tS, ts, &st->reg_fill, step == 3);
		arrow(c, tq.x + tq.w / 2, tq.y + tq.h + sz(c, 2), ts.x + ts.w * 0.3, ts.y - sz(c, 2), step == 3);
		arrow(c, tk.x + tk.w / 2, tk.y + tk.h + sz(c, 2), ts.x + ts.w * 0.7, ts.y - sz(c, 2), step == 3);
	}
	if (step >= 4) {
		tile_box(c, tM, tm, &st->reg_fill, step == 4);
		arrow(c, ts.x + ts.w + sz(c, 2), ts.y + ts.h / 2, tm.x - sz(c, 2), tm.y + tm.h / 2, step == 4);
	}
	if (step >= 5) {
		tile_box(c, tO, to, &st->reg_fill, 1);
		arrow(c, tm.x + tm.w + sz(c, 2), tm.y + tm.h / 2, to.x - sz(c, 2), to.y + to.h / 2, 1);
		arrow(c, tvb.x + tvb.w * 0.8, tvb.y + tvb.h + sz(c, 2), to.x + to.w * 0.2, to.y - sz(c, 2), 1);
		arrow(c, to.x + to.w * 0.7, to.y - sz(c, 2), band[3].x + band[3].w / 2, bars[3].y + bars[3].h + sz(c, 2), 1);
	}
	/* what the newest step does, under the chip */
	text_at(c, chip.x + chip.w / 2, chip.y + chip.h - nh * 1.2, figdesc_text(&d, "note", 0), fs, 0, 0.5, 0, &st->accent);
	figdesc_release(&d);
}

/* ---- the online-softmax worked example --------------------------------------- */

void fig_softmax(struct rctx *c, const struct rdata *rd, const struct figopts *o, struct rbox box)
{
	const struct rstyle *st = c->st;
	char title[300];
	fig_softmax_title(rd, o, title, sizeof(title));
	cond_caption(c, rd, NULL, 0, title, o, &box);
	struct figdesc d;
	figdesc_init(&d, "online-softmax");
	if (figdesc_online_softmax(rd, o, &d) || d.notice[0]) {
		if (d.notice[0])
			draw_notice(c, box, d.notice, d.notice_why);
		figdesc_release(&d);
		return;
	}
	double fs = tfs(c);
	enum { NC = 7 };
	double colw[NC], wsum = 0, rowh;
	text_extent(c, "Ag", fs, 0, 0, NULL, &rowh);
	rowh *= 1.45;
	int nrows = 0;
	while (figdesc_part_of(&d, nrows + 1, "cell", 0))
		nrows++;
	/* column widths from the widest cell */
	for (int k = 0; k < NC; k++) {
		double w;
		text_extent(c, figdesc_text(&d, "head", (size_t)k), fs, TX_BOLD | TX_MARKUP, 0, &w, NULL);
		colw[k] = w;
		for (int j = 0; j < nrows; j++) {
			text_extent(c, figdesc_part_of(&d, j + 1, "cell", (size_t)k)->text, fs, TX_MARKUP, 0, &w, NULL);
			colw[k] = fmax(colw[k], w);
		}
		colw[k] += fs * 1.2;
		wsum += colw[k];
	}
	double x0 = box.x + fmax(0, (box.w - wsum) / 2), y = box.y;
	/* header */
	double x = x0;
	for (int k = 0; k < NC; k++) {
		text_at(c, x + colw[k] / 2, y + rowh / 2, figdesc_text(&d, "head", (size_t)k), fs, TX_BOLD | TX_MARKUP, 0.5, 0.5,
			NULL);
		x += colw[k];
	}
	y += rowh;
	set_rgb(c, &st->ink);
	draw_line(c, x0, y, x0 + wsum, y, st->line, 0);
	for (int j = 0; j < nrows; j++) {
		x = x0;
		for (int k = 0; k < NC; k++) {
			const struct figitem *ce = figdesc_part_of(&d, j + 1, "cell", (size_t)k);
			/* the row where the max moved: the rescale the recurrence needs */
			const int moved = !strcmp(ce->state, "moved");
			const struct rgb *col = moved && (k == 2 || k == 3) ? &st->accent : NULL;
			text_at(c, x + colw[k] / 2, y + rowh / 2, ce->text, fs, moved && k == 3 ? TX_BOLD : 0, 0.5, 0.5, col);
			x += colw[k];
		}
		y += rowh;
	}
	draw_line(c, x0, y, x0 + wsum, y, st->line, 0);
	/* the check: the same row computed directly */
	y += fs * 0.6;
	text_at(c, box.x + box.w / 2, y, figdesc_text(&d, "result", 0), fs, TX_BOLD, 0.5, 0, NULL);
	y += rowh;
	text_at(c, box.x + box.w / 2, y, figdesc_text(&d, "check", 0), fs, 0, 0.5, 0, &st->muted);
	figdesc_release(&d);
}

/* ---- loop order: where O lives ------------------------------------------------- */

static void loop_panel(struct rctx *c, const struct figdesc *d, int g, struct rbox box)
{
	const struct rstyle *st = c->st;
	double fs = tfs(c), h;
	const char *name = figdesc_part_of(d, g, "name", 0)->text;
	text_extent(c, name, fs, TX_BOLD, box.w, NULL, &h);
	text_block(c, box.x, box.y, box.w, name, fs * 1.1, TX_BOLD, NULL);
	rbox_cut_top(&box, h + fs * 0.6);
	/* nested loops as nested frames, as tall as their lines */
	double ind = fs * 1.2, lh = fs * 1.5;
	const struct figitem *pre = figdesc_part_of(d, g, "pre", 0), *post = figdesc_part_of(d, g, "post", 0), *it;
	int nbody = 0;
	while (figdesc_part_of(d, g, "body", (size_t)nbody))
		nbody++;
	double inner_h = lh * (1 + nbody) + fs * 0.6;
	double outer_h = lh + (pre ? lh : 0) + inner_h + (post ? lh : 0) + fs * 1.0;
	struct rbox outer = rbox_make(box.x, box.y, box.w, fmin(outer_h, box.h));
	set_rgb(c, &st->ink);
	draw_rect(c, outer, st->line, 0);
	text_at(c, outer.x + fs * 0.5, outer.y + fs * 0.3, figdesc_part_of(d, g, "outer", 0)->text, fs, TX_BOLD, 0, 0, NULL);
	double y = outer.y + lh + fs * 0.3;
	if (pre) {
		text_at(c, outer.x + ind, y, pre->text, fs, 0, 0, 0, NULL);
		y += lh;
	}
	struct rbox inner = rbox_make(outer.x + ind, y, outer.w - 2 * ind, inner_h);
	set_rgb(c, &st->ink);
	draw_rect(c, inner, st->line, 0);
	text_at(c, inner.x + fs * 0.5, inner.y + fs * 0.3, figdesc_part_of(d, g, "inner", 0)->text, fs, TX_BOLD, 0, 0, NULL);
	double iy = inner.y + lh + fs * 0.3;
	for (int k = 0; k < nbody && (it = figdesc_part_of(d, g, "body", (size_t)k)); k++, iy += lh)
		text_at(c, inner.x + ind, iy, it->text, fs, 0, 0, 0, !strcmp(it->state, "hbm") ? &st->accent : NULL);
	if (post)
		text_at(c, outer.x + ind, inner.y + inner.h + fs * 0.25, post->text, fs, 0, 0, 0, &st->accent);
	/* the measured DRAM traffic under the loops */
	if ((it = figdesc_part_of(d, g, "traffic", 0)))
		text_at(c, outer.x, outer.y + outer.h + fs * 0.5, it->text, fs, TX_BOLD, 0, 0, NULL);
}

void fig_looporder(struct rctx *c, const struct rdata *rd, const struct figopts *o, struct rbox box)
{
	char title[300];
	struct figdesc d;
	figdesc_init(&d, "loop-order");
	if (figdesc_loop_order(rd, o, &d)) {
		figdesc_release(&d);
		return;
	}
	fig_looporder_title(rd, o, title, sizeof(title));
	cond_caption(c, rd, d.used, d.nused, title, o, &box);
	if (d.notice[0]) {
		draw_notice(c, box, d.notice, d.notice_why);
		figdesc_release(&d);
		return;
	}
	double gap = tfs(c) * 2;
	struct rbox l = rbox_make(box.x, box.y, (box.w - gap) / 2, box.h);
	struct rbox r = rbox_make(box.x + l.w + gap, box.y, l.w, box.h);
	loop_panel(c, &d, 0, l);
	loop_panel(c, &d, 1, r);
	figdesc_release(&d);
}

/* ---- split-K against split-Q warps ---------------------------------------------- */

static void warp_panel(struct rctx *c, const struct figdesc *d, int grp, struct rbox box)
{
	const struct rstyle *st = c->st;
	double fs = tfs(c), h;
	char buf[200];
	const struct figitem *title = figdesc_part_of(d, grp, "title", 0), *wp = figdesc_part_of(d, grp, "size", 0);
	const int splitk = !strcmp(title->state, "split-K"), W = (int)wp->v;
	text_extent(c, title->text, fs * 1.1, TX_BOLD, box.w, NULL, &h);
	text_block(c, box.x, box.y, box.w, title->text, fs * 1.1, TX_BOLD, NULL);
	rbox_cut_top(&box, h + fs * 0.5);
	struct rbox foot = rbox_cut_bottom(&box, fs * 1.6);
	text_at(c, foot.x, foot.y + foot.h, figdesc_part_of(d, grp, "foot", 0)->text, fs, TX_BOLD, 0, 1, NULL);
	/* the tile split among warps: K columns (split-K) or Q rows (split-Q) */
	double lab_w;
	text_extent(c, "warp 4", fs, 0, 0, &lab_w, NULL);
	double ex_h = fs * 3.0;  /* the exchange row */
	struct rbox tile = rbox_make(box.x + lab_w + fs * 0.5, box.y, box.w * 0.55, box.h - ex_h - fs * 1.2);
	const struct series_look *lk[4] = { style_series(st, 0), style_series(st, 1), style_series(st, 2), style_series(st, 4) };
	for (int w = 0; w < W && w < 8; w++) {
		struct rbox s = splitk ? rbox_make(tile.x + w * tile.w / W, tile.y, tile.w / W, tile.h)
				       : rbox_make(tile.x, tile.y + w * tile.h / W, tile.w, tile.h / W);
		struct series_look light = *lk[w % 4];
		if (st->grey_fills) {
			light.fill.r = 1 - (1 - light.fill.r) * 0.3;
			light.fill.g = 1 - (1 - light.fill.g) * 0.3;
			light.fill.b = 1 - (1 - light.fill.b) * 0.3;
			light.hatch = HATCH_NONE;
		}
		fill_look(c, s, &light, 0);
		set_rgb(c, &st->ink);
		draw_rect(c, s, st->thin, 0);
		double lw2;
		snprintf(buf, sizeof(buf), "warp %d", w + 1);
		text_extent(c, buf, fs, 0, 0, &lw2, NULL);
		if (lw2 > s.w - fs * 0.4)
			snprintf(buf, sizeof(buf), "w%d", w + 1);
		text_at(c, s.x + s.w / 2, s.y + s.h / 2, buf, fs, 0, 0.5, 0.5, NULL);
	}
	set_rgb(c, &st->ink);
	draw_rect(c, tile, st->line, 0);
	/* what each warp holds, beside the tile */
	double tx = tile.x + tile.w + fs * 0.8, tw = box.x + box.w - tx;
	text_block(c, tx, tile.y, tw, figdesc_part_of(d, grp, "holds", 0)->text, fs, 0, NULL);
	/* the exchange */
	struct rbox ex = rbox_make(tile.x, tile.y + tile.h + fs * 1.2, box.x + box.w - tile.x, ex_h);
	if (splitk) {
		fill_rect(c, ex, &st->shared_fill);
		label_box(c, ex, NULL, "shared memory:", "partial Oᵢ summed", 1, 0);
		for (int w = 0; w < W; w++)
			arrow(c, tile.x + (w + 0.5) * tile.w / W, tile.y + tile.h + sz(c, 1), tile.x + (w + 0.5) * tile.w / W,
			      ex.y - sz(c, 1), 0);
	} else {
		label_box(c, ex, NULL, "no exchange between warps", NULL, 0, 4);
	}
}

void fig_warpsplit(struct rctx *c, const struct rdata *rd, const struct figopts *o, struct rbox box)
{
	char title[300];
	struct figdesc d;
	figdesc_init(&d, "warp-split");
	if (figdesc_warp_split(rd, o, &d)) {
		figdesc_release(&d);
		return;
	}
	fig_warpsplit_title(rd, o, title, sizeof(title));
	cond_caption(c, rd, d.used, d.nused, title, o, &box);
	if (d.notice[0]) {
		draw_notice(c, box, d.notice, d.notice_why);
		figdesc_release(&d);
		return;
	}
	double gap = tfs(c) * 2;
	struct rbox l = rbox_make(box.x, box.y, (box.w - gap) / 2, box.h);
	struct rbox r = rbox_make(box.x + l.w + gap, box.y, l.w, box.h);
	warp_panel(c, &d, 0, l);
	warp_panel(c, &d, 1, r);
	figdesc_release(&d);
}

/* ---- causal block skipping ------------------------------------------------------- */

/* A number part of d: its v, 0 none. */
static double size_v(const struct figdesc *d, const char *name)
{
	const struct figitem *it;
	for (size_t i = 0; (it = figdesc_part(d, "size", i)); i++)
		if (!strcmp(it->name, name))
			return it->v;
	return 0;
}

void fig_causal(struct rctx *c, const struct rdata *rd, const struct figopts *o, struct rbox box)
{
	const struct rstyle *st = c->st;
	char title[300];
	struct figdesc d;
	figdesc_init(&d, "causal-blocks");
	if (figdesc_causal_blocks(rd, o, &d)) {
		figdesc_release(&d);
		return;
	}
	fig_causal_title(rd, o, title, sizeof(title));
	cond_caption(c, rd, d.used, d.nused, title, o, &box);
	if (d.notice[0]) {
		draw_notice(c, box, d.notice, d.notice_why);
		figdesc_release(&d);
		return;
	}
	double fs = tfs(c);
	const double rows = size_v(&d, "rows"), cols = size_v(&d, "cols"), nq = size_v(&d, "Nq"), nkv = size_v(&d, "Nkv");
	const long step = (long)size_v(&d, "step");
	/* the grid of pairs, square cells, left */
	/* each cell Br tall and Bc wide, so the grid is the N×N score matrix */
	double side = fmin(box.h, box.w * 0.45);
	double ch = side * size_v(&d, "Br") / nq, cw = side * size_v(&d, "Bc") / nkv;
	struct rbox g = rbox_make(box.x, box.y, fmin(cw * cols, side * nkv / nq), fmin(ch * rows, side));
	const struct series_look *full = style_series(st, 2);
	struct series_look masked = *full;
	masked.hatch = HATCH_DIAG;
	masked.fill = st->paper;
	/* past CAUSAL_DRAW_MAX pairs a side, a cell stands for step × step pairs
	 * (hatched as masked when they are mixed): what a page can show */
	for (size_t k = 0; k < d.ncells; k++) {
		const struct figcell *ce = &d.cell[k];
		struct rbox cb = rbox_make(g.x + ce->j0 * cw, g.y + ce->i0 * ch, fmin(cw * step, g.x + g.w - (g.x + ce->j0 * cw)),
					   fmin(ch * step, g.y + g.h - (g.y + ce->i0 * ch)));
		fill_look(c, cb, ce->fate == FD_CELL_FULL ? full : &masked, 0);
	}
	set_rgb(c, &st->ink);
	draw_rect(c, g, st->line, 0);
	/* legend and numbers, right */
	double x = g.x + g.w + fs * 1.5, y = g.y, sw = fs * 1.1, lh = fs * 1.7;
	text_at(c, x, y, figdesc_text(&d, "head", 0), fs, TX_BOLD, 0, 0, NULL);
	y += lh * 1.2;
	const struct figitem *cn = figdesc_part(&d, "cellnote", 0);
	if (cn) {
		text_at(c, x, y, cn->text, fs, TX_ITALIC, 0, 0, NULL);
		y += lh * 1.2;
	}
	const struct figitem *it;
	for (size_t k = 0; (it = figdesc_part(&d, "fate", k)); k++) {
		const struct series_look *lk = !strcmp(it->state, "full") ? full : !strcmp(it->state, "masked") ? &masked : NULL;
		struct rbox s = rbox_make(x, y + (lh - sw) / 2 - fs * 0.3, sw, sw);
		if (lk)
			fill_look(c, s, lk, 0);
		set_rgb(c, &st->ink);
		draw_rect(c, s, st->thin, 0);
		text_at(c, x + sw + fs * 0.5, y, it->text, fs, 0, 0, 0, NULL);
		y += lh;
	}
	y += lh * 0.4;
	if (figdesc_part(&d, "measured", 0)) {
		text_at(c, x, y, figdesc_text(&d, "measured", 0), fs, TX_BOLD, 0, 0, NULL);
		y += lh;
		text_at(c, x, y, figdesc_text(&d, "measured", 1), fs, 0, 0, 0, NULL);
	} else {
		text_at(c, x, y, figdesc_text(&d, "unmeasured", 0), fs, TX_ITALIC, 0, 0, &st->muted);
	}
	figdesc_release(&d);
}

/* ---- the ablation ladder as steps ------------------------------------------------ */

void fig_ladder(struct rctx *c, const struct rdata *rd, const struct figopts *o, struct rbox box)
{
	const struct rstyle *st = c->st;
	char title[300], buf[200], b1[32];
	struct figdesc d;
	figdesc_init(&d, "ladder");
	if (figdesc_ladder(rd, o, &d)) {
		figdesc_release(&d);
		return;
	}
	fig_ladder_title(rd, o, title, sizeof(title));
	cond_caption(c, rd, d.used, d.nused, title, o, &box);
	const struct figpanel *dp = &d.panel[0];
	if (d.notice[0] && !dp->ncat) {
		draw_notice(c, box, d.notice, d.notice_why);
		figdesc_release(&d);
		return;
	}
	const size_t nl = dp->ncat;
	double fs = tfs(c), labw = 0, valw, lh;
	for (size_t i = 0; i < nl; i++) {
		double w;
		text_extent(c, dp->catlabel[i], fs, 0, 0, &w, &lh);
		labw = fmax(labw, w);
	}
	text_extent(c, "888.8 TFLOP/s  ×88.88 (within spread)", fs, TX_BOLD, 0, &valw, NULL);
	double x0 = box.x + labw + fs, x1 = box.x + box.w - valw - fs;
	double rowh = fmin(box.h / nl, fs * 2.6), barh = fmin(rowh * 0.6, fs * 1.6);
	const double top = dp->hi;
	if (d.notice[0]) {
		draw_notice(c, box, d.notice, d.notice_why);
		figdesc_release(&d);
		return;
	}
	set_rgb(c, &st->ink);
	draw_line(c, x0, box.y, x0, box.y + rowh * nl, st->line, 0);
	for (size_t i = 0; i < nl; i++) {
		const struct figpoint *t = figdesc_at(&d, 0, 0, i), *sp = figdesc_at(&d, 0, 1, i);
		double y = box.y + i * rowh + (rowh - barh) / 2;
		if (t->state != FP_VALUE)
			continue;
		const double tf = t->v;
		text_at(c, x0 - fs * 0.5, y + barh / 2, dp->catlabel[i], fs, 0, 1, 0.5, NULL);
		struct rbox bar = rbox_make(x0, y, (x1 - x0) * tf / top, barh);
		fill_look(c, bar, style_series(st, i + 1 == nl ? 2 : i == 0 ? 1 : 4), st->thin);
		/* run-to-run spread as a whisker: the slowest and fastest run's TFLOP/s */
		double xr = bar.x + bar.w;
		if (t->whisker) {
			double xa = x0 + (x1 - x0) * t->lo / top, xb = x0 + (x1 - x0) * t->hi / top, ym = y + barh / 2;
			set_rgb(c, &st->ink);
			draw_line(c, xa, ym, xb, ym, st->line, 0);
			draw_line(c, xa, ym - barh * 0.3, xa, ym + barh * 0.3, st->line, 0);
			draw_line(c, xb, ym - barh * 0.3, xb, ym + barh * 0.3, st->line, 0);
			xr = fmax(xr, xb); /* the value after the whisker, not across it */
		}
		fmt_quantity(tf, U_TFLOPS, NULL, b1, sizeof(b1));
		if (sp->state == FP_VALUE)
			snprintf(buf, sizeof(buf), "%s  ×%.2f%s", b1, sp->v, sp->within_spread ? " (within spread)" : "");
		else
			snprintf(buf, sizeof(buf), "%s", b1);
		text_at(c, xr + fs * 0.5, y + barh / 2, buf, fs, TX_BOLD, 0, 0.5, NULL);
	}
	figdesc_release(&d);
}
