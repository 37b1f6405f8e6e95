/* fig_partition.c: how work is partitioned — the grid of thread blocks
 * laid over the measured GPU's SMs in waves, and the warps inside one
 * block (split-K with its shared-memory reduction against split-Q).
 * Drawn from their descriptions (src/doc/figdiagram.c
 * figdesc_partition_grid, figdesc_partition_warps): the descriptors' grid
 * and warp mappings plus the launches and counters of the records. */
#include "render/figure_draw.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* A number part of group g (figdesc_partition_grid, _warps): its v as an int, 0 none. */
static int size_of(const struct figdesc *d, int g, const char *name)
{
	const struct figitem *it;
	for (size_t i = 0; (it = figdesc_part_of(d, g, "size", i)); i++)
		if (!strcmp(it->name, name))
			return (int)it->v;
	return 0;
}

/* ---- the grid over SMs -------------------------------------------------- */

static void draw_grid_panel(struct rctx *c, const struct figdesc *d, int grp, struct rbox box)
{
	const struct rstyle *st = c->st;
	double fs = st->size_chart;
	double h = text_block(c, box.x, box.y, box.w, figdesc_part_of(d, grp, "title", 0)->text, fs, TX_BOLD, NULL);
	rbox_cut_top(&box, h + sz(c, 3));
	/* the record's other launches (their grids are the libraries'): a line each */
	const struct figitem *lp;
	for (size_t k = 0; (lp = figdesc_part_of(d, grp, "launch", k)); k++) {
		h = text_block(c, box.x, box.y, box.w, lp->text, fs * 0.9, 0, NULL);
		rbox_cut_top(&box, h + sz(c, 1));
	}
	if (figdesc_part_of(d, grp, "launch", 0))
		rbox_cut_top(&box, sz(c, 2));
	/* left: the block grid (x by y), right: the SMs in waves */
	struct rbox gb = rbox_cut_left(&box, box.w * 0.34);
	rbox_cut_left(&box, sz(c, 10));
	struct rbox wb = box;

	const struct figitem *ax = figdesc_part_of(d, grp, "axis", 0), *ay = figdesc_part_of(d, grp, "axis", 1);
	int gx = (int)ax->v, gy = (int)ay->v;
	int showx = gx > 16 ? 16 : gx, showy = gy > 12 ? 12 : gy;
	double lab_h = fs * 1.3 * c->scale;
	/* below the cells: the "more rows" mark (when rows are left out) and two labels */
	struct rbox cells = rbox_inset(gb, lab_h, 0, lab_h * (gy > showy ? 3.3 : 2.5), lab_h);
	double cw = cells.w / showx, ch = cells.h / showy;
	double cs = fmin(cw, ch);
	cells.w = cs * showx;
	cells.h = cs * showy;
	const struct series_look *busy = style_series(st, 1);
	for (int y = 0; y < showy; y++)
		for (int x = 0; x < showx; x++) {
			struct rbox cb = rbox_make(cells.x + x * cs, cells.y + y * cs, cs, cs);
			/* one block picked out; the rest are alike */
			if (x == 0 && y == 0)
				fill_look(c, rbox_inset(cb, 0.6, 0.6, 0.6, 0.6), busy, 0);
			else
				fill_rect(c, rbox_inset(cb, 0.6, 0.6, 0.6, 0.6), &st->shared_fill);
			set_rgb(c, &st->ink);
			draw_rect(c, cb, st->thin * 0.6, 0);
		}
	draw_numeral(c, "block", "thread block", cells.x + cs / 2, cells.y + cs / 2, cells.x - lab_h * 0.5, cells.y - lab_h * 0.8);
	if (gx > showx)
		text_at(c, cells.x + cells.w + sz(c, 2), cells.y + cs / 2, "…", fs, 0, 0, 0.5, NULL);
	if (gy > showy)
		text_at(c, cells.x + cs / 2, cells.y + cells.h, "⋮", fs, 0, 0.5, 0, NULL);
	/* the axis labels below the "more rows" mark, not on it */
	double ly = cells.y + cells.h + lab_h * (gy > showy ? 1.2 : 0.4);
	ly += text_at(c, cells.x, ly, ax->text, fs * 0.9, 0, 0, 0, NULL) + lab_h * 0.1;
	text_at(c, cells.x, ly, ay->text, fs * 0.9, 0, 0, 0, NULL);
	text_at(c, cells.x, gb.y, figdesc_part_of(d, grp, "blocks", 0)->text, fs * 0.9, 0, 0, 0, NULL);

	/* waves: one row per wave, one cell per SM; long runs of full waves elided */
	struct wave_plan wp;
	const int sm = size_of(d, grp, "sm"), per_sm = size_of(d, grp, "per_sm");
	wave_plan(&wp, (long long)figdesc_part_of(d, grp, "blocks", 0)->v, sm, per_sm);
	h = text_block(c, wb.x, wb.y, wb.w, figdesc_part_of(d, grp, "waves", 0)->text, fs * 0.95, 0, NULL);
	rbox_cut_top(&wb, h + sz(c, 3));
	if (c->num) /* room for the first row's numeral below the text */
		rbox_cut_top(&wb, st->size_numeral * 1.2);
	size_t nr = 0;
	while (figdesc_part_of(d, grp, "wave", nr))
		nr++;
	double labw;
	text_extent(c, "wave 88", fs * 0.85, 0, 0, &labw, NULL);
	double rh = fmin(wb.h / (nr + 0.5), sz(c, 22));
	double cellw = (wb.w - labw - sz(c, 4)) / sm;
	double x0 = wb.x + labw + sz(c, 4);
	const struct series_look *full = style_series(st, 2);
	for (size_t i = 0; i < nr; i++) {
		const struct figitem *row = figdesc_part_of(d, grp, "wave", i);
		double y = wb.y + i * rh;
		if (isnan(row->v)) {
			text_at(c, x0 + (wb.w - labw) / 2, y + rh * 0.4, row->text, fs * 0.85, 0, 0.5, 0.5, &st->muted);
			continue;
		}
		const int wave = (int)row->v - 1;
		text_at(c, wb.x, y + rh * 0.4, row->text, fs * 0.85, 0, 0, 0.5, NULL);
		int idle_start = -1;
		for (int s = 0; s < sm; s++) {
			int k = wave_sm_blocks(&wp, wave, s);
			struct rbox cb = rbox_make(x0 + s * cellw, y, cellw, rh * 0.8);
			if (k > 0) {
				/* height shows how many of per_sm slots hold a block */
				double frac = (double)k / per_sm;
				fill_look(c, rbox_make(cb.x, cb.y + cb.h * (1 - frac), cb.w, cb.h * frac), full, 0);
			} else if (idle_start < 0) {
				idle_start = s;
			}
		}
		cairo_save(c->cr);
		set_rgb(c, &st->ink);
		draw_rect(c, rbox_make(x0, y, sm * cellw, rh * 0.8), st->thin, 0);
		/* SM boundaries, every SM when they are wide enough, else every 12 */
		int every = cellw >= sz(c, 3) ? 1 : 12;
		for (int s = every; s < sm; s += every)
			draw_line(c, x0 + s * cellw, y, x0 + s * cellw, y + rh * 0.8, st->thin * 0.4, 0);
		cairo_restore(c->cr);
		const struct figitem *idle = figdesc_part_of(d, grp, "idle", 0);
		if (idle_start >= 0 && idle) {
			struct rbox ib = rbox_make(x0 + idle_start * cellw, y, (sm - idle_start) * cellw, rh * 0.8);
			draw_rect(c, ib, st->line, 2.5);
			/* a narrow idle run: the label ends at the row's right edge, over the busy cells */
			if (ib.w >= fs * 3.5)
				text_at(c, ib.x + ib.w / 2, ib.y + ib.h / 2, idle->text, fs * 0.85, TX_BOLD | TX_KNOCKOUT, 0.5, 0.5, NULL);
			else
				text_at(c, ib.x + ib.w - 1, ib.y + ib.h / 2, idle->text, fs * 0.85, TX_BOLD | TX_KNOCKOUT, 1.0, 0.5, NULL);
			draw_numeral(c, "idle-sm", "SMs idle in the last wave", ib.x + ib.w * 0.75, ib.y + ib.h,
				     ib.x + ib.w * 0.75, ib.y + ib.h + st->size_numeral * 0.9);
		}
		if (i == 0)
			draw_numeral(c, "sm-row", "one wave over all SMs of the GPU", x0 + cellw * 2, y + rh * 0.4,
				     x0 - labw * 0.4, y - st->size_numeral * 0.6);
	}
}

void fig_grid(struct rctx *c, const struct rdata *rd, const struct figopts *o, struct rbox box)
{
	char title[256];
	struct figdesc d;
	figdesc_init(&d, "partition-grid");
	if (figdesc_partition_grid(rd, o, &d)) {
		figdesc_release(&d);
		return;
	}
	fig_grid_title(rd, o, title, sizeof(title));
	box = figure_frame_recs(c, rd, box, title, d.used, d.nused, o->standalone);
	if (d.notice[0]) {
		draw_notice(c, box, d.notice, d.notice_why);
		figdesc_release(&d);
		return;
	}
	int n = 0;
	while (figdesc_part_of(&d, n, "title", 0))
		n++;
	if (c->num)
		rbox_cut_right(&box, sz(c, 10));
	for (int i = 0; i < n; i++) {
		struct rbox cell = rbox_grid_cell(box, n, 1, i, 0, 0, sz(c, 12));
		draw_grid_panel(c, &d, i, cell);
	}
	figdesc_release(&d);
}

/* ---- warps inside a block -------------------------------------------------- */

static void tile(struct rctx *c, struct rbox b, const char *label, int slices, int vertical,
		 const char *part, const char *what)
{
	const struct rstyle *st = c->st;
	fill_rect(c, b, &st->paper);
	for (int i = 0; i < slices; i++) {
		struct rbox s = vertical ? rbox_make(b.x + i * b.w / slices, b.y, b.w / slices, b.h)
					 : rbox_make(b.x, b.y + i * b.h / slices, b.w, b.h / slices);
		if (slices > 1) {
			const struct series_look *lk = style_series(st, i == 0 ? 1 : i == 1 ? 2 : i == 2 ? 4 : 5);
			struct series_look light = *lk;
			/* warp slices: light fills so the labels stay readable */
			if (st->grey_fills) {
				light.fill.r = 1 - (1 - lk->fill.r) * 0.35;
				light.fill.g = 1 - (1 - lk->fill.g) * 0.35;
				light.fill.b = 1 - (1 - lk->fill.b) * 0.35;
				light.hatch = HATCH_NONE;
			} else {
				light.fill = st->paper;
				light.hatch = i == 0 ? HATCH_DIAG : i == 1 ? HATCH_BACK : i == 2 ? HATCH_HORIZ : HATCH_VERT;
			}
			fill_look(c, s, &light, 0);
			draw_rect(c, s, st->thin * 0.7, 0);
		}
	}
	set_rgb(c, &st->ink);
	draw_rect(c, b, st->line, 0);
	/* the label inside the tile, wrapped to its width, on paper over the slices */
	double th, lw = b.w - sz(c, 3), ww = 0;
	/* words wrap; a word wider than the tile is never broken: the name alone then */
	char name[64];
	snprintf(name, sizeof(name), "%.*s", (int)strcspn(label, " "), label);
	for (const char *p = label; *p;) {
		size_t n = strcspn(p, " ");
		char word[64];
		snprintf(word, sizeof(word), "%.*s", (int)(n < 63 ? n : 63), p);
		double w;
		text_extent(c, word, st->size_chart * 0.9, TX_BOLD, 0, &w, NULL);
		ww = fmax(ww, w);
		p += n;
		p += strspn(p, " ");
	}
	if (ww > lw)
		label = name;
	text_extent(c, label, st->size_chart * 0.9, TX_BOLD | TX_CENTER, lw, NULL, &th);
	text_block(c, b.x + sz(c, 1.5), b.y + b.h / 2 - th / 2, lw, label, st->size_chart * 0.9, TX_BOLD | TX_CENTER | TX_KNOCKOUT, NULL);
	if (part)
		draw_numeral(c, part, what, b.x + b.w - 2, b.y + 2, b.x + b.w + st->size_numeral * 0.6, b.y - st->size_numeral * 0.5);
}

static void draw_warp_panel(struct rctx *c, const struct figdesc *d, int grp, struct rbox box)
{
	const struct rstyle *st = c->st;
	double fs = st->size_chart;
	const struct figitem *nd = figdesc_part_of(d, grp, "nodesc", 0);
	if (nd) {
		draw_notice(c, box, nd->label, nd->text);
		return;
	}
	const struct figitem *title = figdesc_part_of(d, grp, "title", 0);
	double h = text_block(c, box.x, box.y, box.w, title->text, fs, TX_BOLD, NULL);
	rbox_cut_top(&box, h + sz(c, 4));
	/* measured shared-memory traffic, the cost a split-K reduction shows */
	struct rbox foot = rbox_cut_bottom(&box, fs * 2.8 * c->scale);
	text_block(c, foot.x, foot.y + sz(c, 2), foot.w, figdesc_part_of(d, grp, "foot", 0)->text, fs * 0.9, TX_ITALIC, NULL);
	const struct figitem *lib = figdesc_part_of(d, grp, "library", 0);
	if (lib) {
		text_block(c, box.x, box.y + box.h / 3, box.w, lib->text, fs, TX_CENTER | TX_ITALIC, &st->muted);
		return;
	}
	const int splitk = !strcmp(title->state, "split-K"), W = size_of(d, grp, "warps");
	/* columns: Q_i | K_j, V_j | S_ij | O_i (+ reduction) */
	double u = fmin(box.w / 10.5, box.h / 4.1);
	double y0 = box.y + u * 0.5;
	struct rbox q = rbox_make(box.x, y0, u * 1.3, u * 2.2);
	struct rbox kv = rbox_make(box.x + u * 2.0, y0, u * 2.2, u * 1.3);
	struct rbox s = rbox_make(box.x + u * 4.9, y0, u * 2.2, u * 2.2);
	struct rbox out = rbox_make(box.x + u * 7.9, y0, u * 1.3, u * 2.2);
	const struct rbox at[4] = { q, kv, s, out };
	/* Q_i and O_i cut across (rows), K_j along (keys), S_ij as the split cuts it */
	const int vertical[4] = { 0, 1, splitk, 0 };
	for (int i = 0; i < 4; i++) {
		const struct figitem *t = figdesc_part_of(d, grp, "tile", (size_t)i);
		char part[48];
		snprintf(part, sizeof(part), "tile:%s", t->name);
		tile(c, at[i], t->text, (int)t->v, vertical[i], part, t->what);
	}
	draw_arrow(c, q.x + q.w + 2, q.y + q.h / 2, s.x - 2, s.y + s.h / 2, st->line, sz(c, 5), NULL);
	draw_arrow(c, kv.x + kv.w / 2, kv.y + kv.h + 2, s.x + s.w * 0.3, s.y + s.h + sz(c, 6), st->thin, sz(c, 4), &st->muted);
	text_at(c, q.x, q.y + q.h + 2, figdesc_part_of(d, grp, "q-note", 0)->text, fs * 0.8, 0, 0, 0, NULL);
	text_at(c, kv.x + kv.w / 2, kv.y - 2, figdesc_part_of(d, grp, "kv-note", 0)->text, fs * 0.8, 0, 0.5, 1, NULL);
	for (int w = 0; w < W; w++) {
		char lab[16];
		double cx = splitk ? s.x + (w + 0.5) * s.w / W : s.x + s.w + sz(c, 3);
		double cy = splitk ? s.y - sz(c, 2) : s.y + (w + 0.5) * s.h / W;
		snprintf(lab, sizeof(lab), "w%d", w);
		text_at(c, cx, cy, lab, fs * 0.75, 0, splitk ? 0.5 : 0, splitk ? 1 : 0.5, NULL);
	}
	const struct figitem *rp = figdesc_part_of(d, grp, "reduction", 0);
	if (rp) {
		/* partial O per warp, summed through shared memory */
		struct rbox red = rbox_make(s.x, s.y + s.h + u * 0.45, out.x + out.w - s.x, u * 0.65);
		fill_rect(c, red, &st->shared_fill);
		draw_rect(c, red, st->line, 2);
		const char *choice[3] = { rp->text, rp->alt[0], rp->alt[1] };
		double f2;
		int pick = text_choose(c, choice, 3, fs * 0.85, 0, red.w - sz(c, 4), &f2);
		text_at(c, red.x + red.w / 2, red.y + red.h / 2, choice[pick], f2, 0, 0.5, 0.5, NULL);
		draw_numeral(c, "smem-reduction", "shared-memory reduction of partial outputs", red.x + 4, red.y + red.h,
			     red.x - st->size_numeral, red.y + red.h + st->size_numeral * 0.6);
		draw_arrow(c, s.x + s.w / 2, s.y + s.h + 1, s.x + s.w / 2, red.y - 1, st->line, sz(c, 5), NULL);
		draw_arrow(c, red.x + red.w * 0.9, red.y - 1, out.x + out.w / 2, out.y + out.h + 1, st->line, sz(c, 5), NULL);
	} else {
		draw_arrow(c, s.x + s.w + sz(c, 16), s.y + s.h / 2, out.x - 2, out.y + out.h / 2, st->line, sz(c, 5), NULL);
		text_block(c, s.x, s.y + s.h + u * 0.4, out.x + out.w - s.x, figdesc_part_of(d, grp, "note", 0)->text, fs * 0.85,
			   TX_CENTER, NULL);
	}
}

void fig_warps(struct rctx *c, const struct rdata *rd, const struct figopts *o, struct rbox box)
{
	char title[256];
	struct figdesc d;
	figdesc_init(&d, "partition-warps");
	if (figdesc_partition_warps(rd, o, &d)) {
		figdesc_release(&d);
		return;
	}
	fig_warps_title(rd, o, title, sizeof(title));
	box = figure_frame_recs(c, rd, box, title, d.used, d.nused, o->standalone);
	int n = 0;
	while (figdesc_part_of(&d, n, "title", 0) || figdesc_part_of(&d, n, "nodesc", 0))
		n++;
	for (int i = 0; i < n; i++) {
		struct rbox cell = rbox_grid_cell(box, n, 1, i, 0, 0, sz(c, 10));
		draw_warp_panel(c, &d, i, cell);
	}
	figdesc_release(&d);
}
