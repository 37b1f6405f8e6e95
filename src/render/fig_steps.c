/* fig_steps.c: the per-step data flow as small multiples (loop-steps).
 *
 * One row per variant (default flash1 against flash2), one panel per step
 * of one thread block's loop: the first steps, the step where a K/V-outer
 * loop comes back to its first Q block, and the last.  Each panel is the
 * descriptor's HBM buffers over their tiles on chip, with an arrow down
 * for every tile the step reads and up for every tile it writes
 * (loop_steps.c), and the bytes of those tiles.  Under the rows, bytes per
 * (Q block, K/V block) step: the tiles the loop moves, on average over all
 * its steps, against the DRAM and L2 bytes measured, each divided by the
 * model's tile pairs (hbm_per_step, l2_per_step of data.c).  The title,
 * which is the caption when the template gives none, names the shape and
 * the file the records come from.  Non-causal: the focus's shape with the
 * mask off.  Drawn from its description (src/doc/figdiagram.c
 * figdesc_loop_steps): the steps of three and of four panels, every text
 * and number the builder's; here only the layout that fits.
 */
#include "render/figure_draw.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* A row (figdesc_loop_steps group) as the panels read it. */
struct steps_row {
	const struct figdesc *d;
	int g;
	size_t nbuf;
	const struct figitem *buf[MAX_BUFFERS];
};

static void steps_row(const struct figdesc *d, int g, struct steps_row *sr)
{
	sr->d = d, sr->g = g, sr->nbuf = 0;
	const struct figitem *it;
	while (sr->nbuf < MAX_BUFFERS && (it = figdesc_part_of(d, g, "buffer", sr->nbuf)))
		sr->buf[sr->nbuf++] = it;
}

/* The output and its accumulator are one cell on chip. */
static int same_chip_cell(const struct steps_row *sr, size_t a, size_t b)
{
	return !strcmp(sr->buf[a]->state, "output") && !strcmp(sr->buf[b]->state, "output");
}

/* Column widths of a row's panels: the wider of each buffer's two labels, padded. */
static double columns(struct rctx *c, const struct steps_row *sr, double fs, double *colw)
{
	double sum = 0;
	for (size_t b = 0; b < sr->nbuf; b++) {
		double w1, w2;
		text_extent(c, sr->buf[b]->text, fs, 0, 0, &w1, NULL);
		text_extent(c, sr->buf[b]->label, fs, 0, 0, &w2, NULL);
		colw[b] = fmax(w1, w2) + fs * 0.9;
		sum += colw[b];
	}
	return sum;
}

struct row_geom {
	double fs, label_w;          /* text size; the "HBM" / "on chip" column */
	double title_h, cell_h, gap_h, foot_h;
	double pan_w, pan_gap;
	int npan;
};

static double panel_h(const struct row_geom *g) { return g->title_h + 2 * g->cell_h + g->gap_h + g->foot_h; }

static void draw_panel(struct rctx *c, const struct row_geom *g, const struct steps_row *sr, const struct figitem *stp,
		       const double *colw, double colsum, struct rbox pb)
{
	const struct rstyle *st = c->st;
	double fs = g->fs;
	text_at(c, pb.x, pb.y, stp->text, fs, TX_BOLD, 0, 0, NULL);
	/* the columns spread over the panel's width */
	double k = pb.w / colsum, x = pb.x;
	double hy = pb.y + g->title_h, cy = hy + g->cell_h + g->gap_h;
	double cx[MAX_BUFFERS], w[MAX_BUFFERS];
	unsigned io[MAX_BUFFERS];
	for (size_t b = 0; b < sr->nbuf; b++) {
		io[b] = stp->label[b] >= '0' && stp->label[b] <= '3' ? (unsigned)(stp->label[b] - '0') : 0;
		w[b] = colw[b] * k;
		cx[b] = x + w[b] / 2;
		struct rbox hb = rbox_make(x + sz(c, 1), hy, w[b] - sz(c, 2), g->cell_h);
		fill_rect(c, hb, &st->hbm_fill);
		set_rgb(c, &st->ink);
		draw_rect(c, hb, st->thin, 0);
		text_at(c, cx[b], hy + g->cell_h / 2, sr->buf[b]->text, fs, 0, 0.5, 0.5, NULL);
		x += w[b];
	}
	/* on chip: one cell per tile (the output and its accumulator share one), outlined
	 * heavy in the accent when the step brought it in, plain when it stayed */
	x = pb.x;
	for (size_t b = 0; b < sr->nbuf;) {
		size_t e = b + 1;
		double cw = w[b];
		while (e < sr->nbuf && same_chip_cell(sr, b, e))
			cw += w[e++];
		int arrived = 0;
		for (size_t q = b; q < e; q++)
			arrived |= (io[q] & FD_STEP_READ) != 0;
		struct rbox cb = rbox_make(x + sz(c, 1), cy, cw - sz(c, 2), g->cell_h);
		fill_rect(c, cb, !strcmp(sr->buf[b]->state, "input") ? &st->shared_fill : &st->reg_fill);
		cairo_save(c->cr);
		set_rgb(c, arrived ? &st->accent : &st->ink);
		draw_rect(c, cb, arrived ? st->line * 1.4 : st->thin, 0);
		cairo_restore(c->cr);
		text_at(c, x + cw / 2, cy + g->cell_h / 2, sr->buf[b]->label, fs, 0, 0.5, 0.5, NULL);
		x += cw;
		b = e;
	}
	/* the arrows: reads down on the left of a column, writes up on the right */
	double top = hy + g->cell_h + sz(c, 1.5), bot = cy - sz(c, 1.5), head = fmin(sz(c, 5), g->gap_h * 0.45);
	for (size_t b = 0; b < sr->nbuf; b++) {
		if (!io[b])
			continue;
		double dx = io[b] == (FD_STEP_READ | FD_STEP_WRITE) ? fmin(w[b] * 0.2, fs * 0.45) : 0;
		if (io[b] & FD_STEP_READ)
			draw_arrow(c, cx[b] - dx, top, cx[b] - dx, bot, st->line, head, NULL);
		if (io[b] & FD_STEP_WRITE)
			draw_arrow(c, cx[b] + dx, bot, cx[b] + dx, top, st->line, head, &st->accent);
	}
	/* the tiles' bytes (left out when room is scarcest) */
	if (g->foot_h <= 0)
		return;
	text_at(c, pb.x, cy + g->cell_h + fs * 0.35, stp->alt[0], fs, 0, 0, 0, NULL);
}

/* One variant: its line, then its panels; returns the height used. */
static double draw_row(struct rctx *c, const struct row_geom *g, const struct steps_row *sr, const char *head,
		       double x, double y, double w)
{
	const struct rstyle *st = c->st;
	double fs = g->fs;
	double hh = text_block(c, x, y, w, head, fs, TX_MARKUP, NULL);
	y += hh + fs * 0.4;
	/* the row's labels, left */
	double hy = y + g->title_h, cy = hy + g->cell_h + g->gap_h;
	text_at(c, x, hy + g->cell_h / 2, "HBM", fs, TX_BOLD, 0, 0.5, NULL);
	text_at(c, x, cy + g->cell_h / 2, "on chip", fs, TX_BOLD, 0, 0.5, &st->muted);
	double colw[MAX_BUFFERS];
	double colsum = columns(c, sr, fs, colw);
	const char *role = g->npan >= 4 ? "step4" : "step3";
	size_t n = 0;
	while (figdesc_part_of(sr->d, sr->g, role, n))
		n++;
	double px = x + g->label_w;
	for (size_t k = 0; k < n; k++) {
		const struct figitem *stp = figdesc_part_of(sr->d, sr->g, role, k), *nx = figdesc_part_of(sr->d, sr->g, role, k + 1);
		struct rbox pb = rbox_make(px, y, g->pan_w, panel_h(g));
		draw_panel(c, g, sr, stp, colw, colsum, pb);
		/* steps left out between two panels */
		if (nx && nx->v > stp->v + 1)
			text_at(c, px + g->pan_w + g->pan_gap / 2, hy + g->cell_h + g->gap_h / 2, "⋯", fs * 1.2, TX_BOLD,
				0.5, 0.5, &st->muted);
		px += g->pan_w + g->pan_gap;
	}
	return hh + fs * 0.4 + panel_h(g);
}

/* Bytes per step of one variant: the loop's tiles, DRAM and L2 measured (v < 0: not measured). */
struct step_bytes {
	const char *lab[3], *val[3];
	double v[3];
	char key[SERIES_KEY];
};

static void step_bytes(const struct steps_row *sr, struct step_bytes *b)
{
	for (int k = 0; k < 3; k++) {
		const struct figitem *it = figdesc_part_of(sr->d, sr->g, "bytes", (size_t)k);
		b->lab[k] = it->text;
		b->val[k] = it->alt[0];
		b->v[k] = it->v;
	}
	snprintf(b->key, sizeof b->key, "%.95s", figdesc_part_of(sr->d, sr->g, "key", 0)->text);
}

/* The bars of every variant on one scale; returns the height. */
static double draw_bytes(struct rctx *c, const struct step_bytes *b, int nv,
			 struct rbox box, double fs, int draw)
{
	const struct rstyle *st = c->st;
	double vmax = 0, lw = 0, vw = 0, w;
	for (int r = 0; r < nv; r++)
		for (int k = 0; k < 3; k++) {
			vmax = fmax(vmax, b[r].v[k]);
			text_extent(c, b[r].lab[k], fs, 0, 0, &w, NULL);
			lw = fmax(lw, w);
			text_extent(c, b[r].val[k], fs, 0, 0, &w, NULL);
			vw = fmax(vw, w);
		}
	const char *title = "Bytes per (Q block, K/V block) step";
	double th;
	text_extent(c, title, fs, TX_BOLD, box.w, NULL, &th);
	double y = box.y + th + fs * 0.3, bh = fs * 1.05, pitch = fs * 1.45;
	double height = th + fs * 0.3 + nv * (3 * pitch + fs * 0.4);
	double bx = box.x + lw + fs * 0.8, bw = box.w - (bx - box.x) - vw - fs * 0.8;
	if (!draw)
		return bw >= fs * 4 ? height : -1;
	text_block(c, box.x, box.y, box.w, title, fs, TX_BOLD, NULL);
	for (int r = 0; r < nv; r++) {
		const struct series_look *look = series_look_of(c, NULL, b[r].key);
		for (int k = 0; k < 3; k++, y += pitch) {
			double v = b[r].v[k];
			text_at(c, box.x, y + bh / 2, b[r].lab[k], fs, 0, 0, 0.5, NULL);
			double len = v > 0 && vmax > 0 ? bw * v / vmax : 0;
			struct rbox bar = rbox_make(bx, y, fmax(len, sz(c, 1)), bh);
			if (v >= 0 && k == 0) { /* from the loop, not measured: an outline */
				set_rgb(c, &look->line);
				draw_rect(c, bar, st->line, 3);
			} else if (v >= 0) {
				struct series_look lk = *look;
				if (k == 2) { /* L2: the lighter of the two, hatched */
					if (st->grey_fills) {
						lk.fill.r = 1 - (1 - lk.fill.r) * 0.4;
						lk.fill.g = 1 - (1 - lk.fill.g) * 0.4;
						lk.fill.b = 1 - (1 - lk.fill.b) * 0.4;
					}
					lk.hatch = look->hatch == HATCH_DIAG ? HATCH_BACK : HATCH_DIAG;
				}
				fill_look(c, bar, &lk, st->thin);
			}
			text_at(c, bx + (v >= 0 ? len : 0) + fs * 0.5, y + bh / 2, b[r].val[k], fs, 0, 0, 0.5,
				v >= 0 ? NULL : &st->muted);
		}
		y += fs * 0.4;
	}
	return height;
}

void fig_steps(struct rctx *c, const struct rdata *rd, const struct figopts *o, struct rbox box)
{
	const struct rstyle *st = c->st;
	char title[400];
	fig_steps_title(rd, o, title, sizeof(title));
	struct figdesc d;
	figdesc_init(&d, "loop-steps");
	if (figdesc_loop_steps(rd, o, &d)) {
		figdesc_release(&d);
		return;
	}
	box = figure_frame_recs(c, rd, box, title, d.used, d.nused, o->standalone);
	box = rbox_inset(box, st->heavy, st->heavy, st->heavy, st->heavy);
	if (d.notice[0]) {
		draw_notice(c, box, d.notice, d.notice_why);
		figdesc_release(&d);
		return;
	}
	struct steps_row sv[2];
	steps_row(&d, 0, &sv[0]);
	steps_row(&d, 1, &sv[1]);
	struct row_geom g;
	memset(&g, 0, sizeof(g));
	g.fs = sz(c, st->size_chart);
	double fs = g.fs, lw1, lw2;
	text_extent(c, "HBM", fs, TX_BOLD, 0, &lw1, NULL);
	text_extent(c, "on chip", fs, TX_BOLD, 0, &lw2, NULL);
	g.label_w = fmax(lw1, lw2) + fs * 0.8;
	g.pan_gap = fs * 1.6;
	/* four panels a row when each row's columns fit them, else three */
	double colw[MAX_BUFFERS], need = 0;
	for (int k = 0; k < 2; k++) {
		double step_w;
		text_extent(c, "step 8888: j=88, i=888", fs, TX_BOLD, 0, &step_w, NULL);
		need = fmax(need, fmax(columns(c, &sv[k], fs, colw), step_w));
	}
	double avail = box.w - g.label_w;
	g.npan = avail >= 4 * need + 3 * g.pan_gap ? 4 : 3;
	g.pan_w = (avail - (g.npan - 1) * g.pan_gap) / g.npan;
	struct step_bytes sb[2];
	step_bytes(&sv[0], &sb[0]);
	step_bytes(&sv[1], &sb[1]);
	/* the first layout that fits: long lines and bars, short lines and bars,
	 * short lines and a line of bytes under each row, the same packed tighter,
	 * and without each panel's bytes */
	const char *head[2], *line[2];
	double head_h[2], line_h = 0, bars = 0, row_gap = 0, min_gap = 0, used = 0;
	int form;
	for (form = 0; form < 5; form++) {
		double kk = form < 3 ? 1 : 0.82;
		g.title_h = fs * 1.45 * kk;
		g.cell_h = fs * 1.9 * kk;
		g.foot_h = form < 4 ? fs * 1.5 * kk : 0;
		row_gap = fs * 1.2 * kk * kk;
		min_gap = fs * 1.6 * kk;
		used = 0;
		for (int k = 0; k < 2; k++) {
			head[k] = figdesc_part_of(&d, k, form > 0 ? "brief" : "head", 0)->text;
			text_extent(c, head[k], fs, TX_MARKUP, box.w, NULL, &head_h[k]);
			used += head_h[k] + fs * 0.4 + g.title_h + 2 * g.cell_h + g.foot_h + row_gap;
		}
		if (form < 2) {
			bars = draw_bytes(c, sb, 2, box, fs, 0);
			if (bars < 0)
				continue;
			used += bars;
		} else {
			for (int k = 0; k < 2; k++) {
				line[k] = figdesc_part_of(&d, k, "line", 0)->text;
				double h;
				text_extent(c, line[k], fs, TX_MARKUP, box.w - g.label_w, NULL, &h);
				line_h = fmax(line_h, h + fs * 0.3);
			}
			used += 2 * line_h;
		}
		if (used + 2 * min_gap <= box.h)
			break;
	}
	if (form == 5) {
		char why[200];
		snprintf(why, sizeof(why), "the steps need %.0f pt of height at this type size; the box has %.0f pt "
			 "(give the figure a larger height:)", used + 2 * min_gap, box.h);
		draw_notice(c, box, "no room for the loop steps", why);
		figdesc_release(&d);
		return;
	}
	g.gap_h = fmin((box.h - used) / 2, fs * 4);
	double y = box.y;
	for (int k = 0; k < 2; k++) {
		y += draw_row(c, &g, &sv[k], head[k], box.x, y, box.w);
		if (form >= 2) {
			y += fs * 0.3;
			text_block(c, box.x + g.label_w, y, box.w - g.label_w, line[k], fs, TX_MARKUP, NULL);
			y += line_h - fs * 0.3;
		}
		y += row_gap;
	}
	if (form < 2)
		draw_bytes(c, sb, 2, rbox_make(box.x, y, box.w, box.y + box.h - y), fs, 1);
	figdesc_release(&d);
}
