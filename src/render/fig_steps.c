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
 * mask off.
 */
#include "render/figure_draw.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "loop_steps.h"

#define STEPS_PANELS 4

struct steps_var {
	char key[SERIES_KEY];
	const struct variant_desc *v;
	const struct record *r;      /* NULL: not measured at the shape */
	struct loop_plan p;
	int ok;                      /* the plan exists */
};

static void steps_var(const struct rdata *rd, const struct figopts *o, const char *given, const char *def,
		      struct steps_var *sv)
{
	memset(sv, 0, sizeof(*sv));
	sv->r = fig_steps_record(rd, o, given, def, sv->key);
	sv->v = variant_find(sv->key);
	if (!sv->v || !sv->r)
		return;
	const struct attn_shape *s = &sv->r->shape;
	struct tiling t;
	int sm = rdata_sm_count(rd);
	sv->v->tiling(s, sm, &t);
	sv->ok = !loop_plan_init(&sv->p, sv->v, s, &t);
}

/* A measured quantity of the record as the text prints it ("40.4 KiB"), or -1 (why set). */
static double per_step(const struct rdata *rd, const struct steps_var *sv, const char *q, char *txt, size_t len)
{
	double v;
	enum qunit u;
	char why[200];
	if (!sv->r || rdata_quantity(rd, sv->r, q, NULL, &v, &u, why, sizeof(why))) {
		snprintf(txt, len, "not measured");
		return -1;
	}
	fmt_quantity(v, u, NULL, txt, len);
	return v;
}

/* The steps a row shows: the first ones, the return to the first Q block (K/V-outer), the last. */
static int pick_steps(const struct loop_plan *p, int npan, long *out)
{
	long want[STEPS_PANELS];
	int n = 0;
	want[n++] = 0;
	if (npan >= 4 || !p->kv_outer)
		want[n++] = 1;
	if (p->kv_outer)
		want[n++] = p->tr;  /* back at Q block 1 with the next K/V block: O, m, ℓ read back */
	else if (npan >= 4)
		want[n++] = 2;
	want[n++] = p->steps - 1;
	int m = 0;
	for (int k = 0; k < n; k++)
		if (want[k] < p->steps && (!m || want[k] > out[m - 1]))
			out[m++] = want[k];
	return m;
}

/* The label of a buffer's tile on chip: "Qᵢ", "Kⱼ"; the output and its accumulator are one "Oᵢ". */
static void chip_label(const struct loop_plan *p, size_t b, char *buf, size_t len)
{
	const struct buffer_desc *bd = &p->v->buffers[b];
	const char *lab = bd->role == ROLE_WORKSPACE ? "O" : bd->label;
	snprintf(buf, len, "%s%s", lab, p->per_query[b] ? "ᵢ" : "ⱼ");
}

static int same_chip_cell(const struct loop_plan *p, size_t a, size_t b)
{
	enum buf_role ra = p->v->buffers[a].role, rb = p->v->buffers[b].role;
	return (ra == ROLE_OUTPUT || ra == ROLE_WORKSPACE) && (rb == ROLE_OUTPUT || rb == ROLE_WORKSPACE);
}

/* Column widths of a row's panels: the wider of each buffer's two labels, padded. */
static double columns(struct rctx *c, const struct loop_plan *p, double fs, double *colw)
{
	double sum = 0;
	for (size_t b = 0; b < p->v->nbuffers; b++) {
		char lab[40];
		double w1, w2;
		text_extent(c, p->v->buffers[b].label, fs, 0, 0, &w1, NULL);
		chip_label(p, b, lab, sizeof(lab));
		text_extent(c, lab, fs, 0, 0, &w2, NULL);
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

static void draw_panel(struct rctx *c, const struct row_geom *g, const struct loop_plan *p, long n,
		       const double *colw, double colsum, struct rbox pb)
{
	const struct rstyle *st = c->st;
	double fs = g->fs;
	char buf[120], b1[32], b2[32];
	struct loop_step s;
	loop_plan_step(p, n, &s);
	if (p->kv_outer)
		snprintf(buf, sizeof(buf), "step %ld: j=%ld, i=%ld", n + 1, s.j + 1, s.i + 1);
	else
		snprintf(buf, sizeof(buf), "step %ld: j=%ld", n + 1, s.j + 1);
	text_at(c, pb.x, pb.y, buf, fs, TX_BOLD, 0, 0, NULL);
	/* the columns spread over the panel's width */
	double k = pb.w / colsum, x = pb.x;
	double hy = pb.y + g->title_h, cy = hy + g->cell_h + g->gap_h;
	double cx[MAX_BUFFERS], w[MAX_BUFFERS];
	for (size_t b = 0; b < p->v->nbuffers; b++) {
		w[b] = colw[b] * k;
		cx[b] = x + w[b] / 2;
		struct rbox hb = rbox_make(x + sz(c, 1), hy, w[b] - sz(c, 2), g->cell_h);
		fill_rect(c, hb, &st->hbm_fill);
		set_rgb(c, &st->ink);
		draw_rect(c, hb, st->thin, 0);
		text_at(c, cx[b], hy + g->cell_h / 2, p->v->buffers[b].label, fs, 0, 0.5, 0.5, NULL);
		x += w[b];
	}
	/* on chip: one cell per tile (the output and its accumulator share one), outlined
	 * heavy in the accent when the step brought it in, plain when it stayed */
	x = pb.x;
	for (size_t b = 0; b < p->v->nbuffers;) {
		size_t e = b + 1;
		double cw = w[b];
		while (e < p->v->nbuffers && same_chip_cell(p, b, e))
			cw += w[e++];
		int arrived = 0;
		for (size_t q = b; q < e; q++)
			arrived |= (s.io[q] & STEP_READ) != 0;
		struct rbox cb = rbox_make(x + sz(c, 1), cy, cw - sz(c, 2), g->cell_h);
		fill_rect(c, cb, p->v->buffers[b].role == ROLE_INPUT ? &st->shared_fill : &st->reg_fill);
		cairo_save(c->cr);
		set_rgb(c, arrived ? &st->accent : &st->ink);
		draw_rect(c, cb, arrived ? st->line * 1.4 : st->thin, 0);
		cairo_restore(c->cr);
		char lab[40];
		chip_label(p, b, lab, sizeof(lab));
		text_at(c, x + cw / 2, cy + g->cell_h / 2, lab, fs, 0, 0.5, 0.5, NULL);
		x += cw;
		b = e;
	}
	/* the arrows: reads down on the left of a column, writes up on the right */
	double top = hy + g->cell_h + sz(c, 1.5), bot = cy - sz(c, 1.5), head = fmin(sz(c, 5), g->gap_h * 0.45);
	for (size_t b = 0; b < p->v->nbuffers; b++) {
		unsigned io = s.io[b];
		if (!io)
			continue;
		double dx = io == (STEP_READ | STEP_WRITE) ? fmin(w[b] * 0.2, fs * 0.45) : 0;
		if (io & STEP_READ)
			draw_arrow(c, cx[b] - dx, top, cx[b] - dx, bot, st->line, head, NULL);
		if (io & STEP_WRITE)
			draw_arrow(c, cx[b] + dx, bot, cx[b] + dx, top, st->line, head, &st->accent);
	}
	/* the tiles' bytes (left out when room is scarcest) */
	if (g->foot_h <= 0)
		return;
	snprintf(buf, sizeof(buf), "↓ %s  ↑ %s", fmt_bytes(s.read_bytes, b1, sizeof(b1)),
		 fmt_bytes(s.write_bytes, b2, sizeof(b2)));
	text_at(c, pb.x, cy + g->cell_h + fs * 0.35, buf, fs, 0, 0, 0, NULL);
}

/* A row's line on its loop: the long form, or the short one when room is scarce. */
static void row_head(const struct steps_var *sv, int brief, char *buf, size_t len)
{
	const struct loop_plan *p = &sv->p;
	if (brief)
		snprintf(buf, len, "<b>%.95s</b> · %s: %.0f blocks × %ld steps, Br×Bc = %d×%d", sv->key,
			 p->kv_outer ? "K/V outer" : "Q outer", p->blocks, p->steps, p->t.block_m, p->t.block_n);
	else if (p->kv_outer)
		snprintf(buf, len, "<b>%.95s</b> · K/V outer: %.0f thread blocks, one per head, each %ld steps "
			 "(%ld K/V blocks j, and inside each the %ld Q blocks i); Br×Bc = %d×%d", sv->key, p->blocks,
			 p->steps, p->tc, p->tr, p->t.block_m, p->t.block_n);
	else
		snprintf(buf, len, "<b>%.95s</b> · Q outer: %.0f thread blocks, one per Q block i of a head, "
			 "each %ld steps (the K/V blocks j); Br×Bc = %d×%d", sv->key, p->blocks, p->steps, p->t.block_m,
			 p->t.block_n);
}

/* One variant: its line, then its panels; returns the height used. */
static double draw_row(struct rctx *c, const struct row_geom *g, const struct steps_var *sv, const char *head,
		       double x, double y, double w)
{
	const struct rstyle *st = c->st;
	const struct loop_plan *p = &sv->p;
	double fs = g->fs;
	double hh = text_block(c, x, y, w, head, fs, TX_MARKUP, NULL);
	y += hh + fs * 0.4;
	/* the row's labels, left */
	double hy = y + g->title_h, cy = hy + g->cell_h + g->gap_h;
	text_at(c, x, hy + g->cell_h / 2, "HBM", fs, TX_BOLD, 0, 0.5, NULL);
	text_at(c, x, cy + g->cell_h / 2, "on chip", fs, TX_BOLD, 0, 0.5, &st->muted);
	double colw[MAX_BUFFERS];
	double colsum = columns(c, p, fs, colw);
	long steps[STEPS_PANELS];
	int n = pick_steps(p, g->npan, steps);
	double px = x + g->label_w;
	for (int k = 0; k < n; k++) {
		struct rbox pb = rbox_make(px, y, g->pan_w, panel_h(g));
		draw_panel(c, g, p, steps[k], colw, colsum, pb);
		/* steps left out between two panels */
		if (k + 1 < n && steps[k + 1] > steps[k] + 1)
			text_at(c, px + g->pan_w + g->pan_gap / 2, hy + g->cell_h + g->gap_h / 2, "⋯", fs * 1.2, TX_BOLD,
				0.5, 0.5, &st->muted);
		px += g->pan_w + g->pan_gap;
	}
	return hh + fs * 0.4 + panel_h(g);
}

/* Bytes per step of one variant: the loop's tiles, DRAM and L2 measured (v < 0: not measured). */
struct step_bytes {
	char lab[3][160], val[3][200], brief[3][40];
	double v[3];
};

static void step_bytes(const struct rdata *rd, const struct steps_var *sv, struct step_bytes *b)
{
	static const char *const q[3] = { "tiles_per_step", "hbm_per_step", "l2_per_step" };
	static const char *const tot[3] = { NULL, "hbm_bytes", "l2_bytes" };
	static const char *const name[3] = { "tiles of the loop", "DRAM measured", "L2 measured" };
	for (int k = 0; k < 3; k++) {
		char t2[40], t3[40], why[200];
		snprintf(b->lab[k], sizeof(b->lab[k]), "%.95s, %s", sv->key, name[k]);
		b->v[k] = per_step(rd, sv, q[k], b->brief[k], sizeof(b->brief[k]));
		snprintf(b->val[k], sizeof(b->val[k]), "%s", b->brief[k]);
		/* measured: divided by the record's own count of steps (the model's tile pairs) */
		double pairs;
		enum qunit u;
		if (tot[k] && b->v[k] >= 0 && !rdata_quantity(rd, sv->r, "model", "tile_pairs", &pairs, &u, why, sizeof(why))) {
			per_step(rd, sv, tot[k], t2, sizeof(t2));
			fmt_quantity(pairs, U_INT, NULL, t3, sizeof(t3));
			snprintf(b->val[k], sizeof(b->val[k]), "%s = %s ÷ %s steps", b->brief[k], t2, t3);
		}
	}
}

/* The bars of every variant on one scale; returns the height. */
static double draw_bytes(struct rctx *c, const struct steps_var *sv, const struct step_bytes *b, int nv,
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
		const struct series_look *look = series_look_of(c, NULL, sv[r].key);
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

/* The short form under a row: "per step: tiles 40.4 KiB · DRAM 40.4 KiB · L2 60.6 KiB". */
static void bytes_line(const struct step_bytes *b, char *buf, size_t len)
{
	snprintf(buf, len, "<b>per step</b>: tiles %s · DRAM %s · L2 %s (measured)", b->brief[0], b->brief[1], b->brief[2]);
}

void fig_steps(struct rctx *c, const struct rdata *rd, const struct figopts *o, struct rbox box)
{
	const struct rstyle *st = c->st;
	char title[400];
	fig_steps_title(rd, o, title, sizeof(title));
	struct steps_var sv[2];
	steps_var(rd, o, o->variant, variant_role(DOC_BASELINE), &sv[0]);
	steps_var(rd, o, o->compare, variant_role(DOC_SUBJECT), &sv[1]);
	const struct record *recs[2];
	size_t nr = 0;
	for (int k = 0; k < 2; k++)
		if (sv[k].r)
			recs[nr++] = sv[k].r;
	box = figure_frame_recs(c, rd, box, title, recs, nr, o->standalone);
	box = rbox_inset(box, st->heavy, st->heavy, st->heavy, st->heavy);
	for (int k = 0; k < 2; k++)
		if (!sv[k].ok) {
			char why[200];
			snprintf(why, sizeof(why), !sv[k].v ? "'%s' has no descriptor"
				 : !sv[k].r ? "no non-causal record of %s at this shape"
				 : "%s has no flash loop to draw", sv[k].key);
			draw_notice(c, box, "no loop steps to draw", why);
			return;
		}
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
		need = fmax(need, fmax(columns(c, &sv[k].p, fs, colw), step_w));
	}
	double avail = box.w - g.label_w;
	g.npan = avail >= 4 * need + 3 * g.pan_gap ? 4 : 3;
	g.pan_w = (avail - (g.npan - 1) * g.pan_gap) / g.npan;
	struct step_bytes sb[2];
	step_bytes(rd, &sv[0], &sb[0]);
	step_bytes(rd, &sv[1], &sb[1]);
	/* the first layout that fits: long lines and bars, short lines and bars,
	 * short lines and a line of bytes under each row, the same packed tighter,
	 * and without each panel's bytes */
	char head[2][700], line[2][300];
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
			row_head(&sv[k], form > 0, head[k], sizeof(head[k]));
			text_extent(c, head[k], fs, TX_MARKUP, box.w, NULL, &head_h[k]);
			used += head_h[k] + fs * 0.4 + g.title_h + 2 * g.cell_h + g.foot_h + row_gap;
		}
		if (form < 2) {
			bars = draw_bytes(c, sv, sb, 2, box, fs, 0);
			if (bars < 0)
				continue;
			used += bars;
		} else {
			for (int k = 0; k < 2; k++) {
				bytes_line(&sb[k], line[k], sizeof(line[k]));
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
		draw_bytes(c, sv, sb, 2, rbox_make(box.x, y, box.w, box.y + box.h - y), fs, 1);
}
