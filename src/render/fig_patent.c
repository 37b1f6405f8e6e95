/* fig_patent.c: drawing views for patent sheets (37 CFR 1.84).
 *
 * One view a figure kind, drawn from the descriptors and the results like
 * every other kind, but with what a drawing may carry: outlines, hatching,
 * single reference characters (Q, K, S …) and reference numerals with lead
 * lines in gutters beside the parts — no sentences, byte counts or code
 * identifiers (those belong in the description).  Parts are named
 * generically ("query matrix", "thread block"), keyed "p:…" so that the
 * same element keeps its numeral on every sheet.  Numerals stand in the
 * gutters, never on hatching or across a line.
 *
 *   patent-dataflow    memory with the matrices a variant stores, the processor
 *                      with its on-chip tiles (or kernels), the read and write paths
 *   patent-grid        the grid of thread blocks and its waves over the multiprocessors
 *   patent-warps       one tile divided among warps, and the reduction buffer of split-K
 *   patent-causal      the tile pairs of a causal pass: computed, masked, skipped
 *   patent-throughput  bar graph: throughput against sequence length, one (d, causal)
 *   patent-ladder      bar graph: throughput of each rung of the ablation ladder
 *   patent-decode      line graph: decode bandwidth against cache length
 *
 * Each view draws its description (doc/figdesc.h; the builders in
 * src/doc/figpatent.c and figdiagram.c): the records, values, reference
 * characters and parts are chosen there, here only placed.
 */
#include "render/figure_draw.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "doc/figpatent.h"

/* ---- names and numerals ---------------------------------------------------------- */

static double nfs(const struct rctx *c) { return c->st->size_numeral; }
static double cfs(const struct rctx *c) { return c->st->size_chart; }

/* Width of the widest numeral, for gutters. */
static double numeral_w(struct rctx *c)
{
	double w;
	text_extent(c, "888", nfs(c), TX_NOSCALE, 0, &w, NULL);
	return w;
}

/* The area a view draws in: box less top above and a gutter for the
 * numerals left and right (*nw: the widest numeral). */
static struct rbox numeral_area(struct rctx *c, struct rbox box, double top, double *nw)
{
	*nw = numeral_w(c);
	double gut = *nw + nfs(c) * 1.2;
	return rbox_inset(box, top, gut, c->st->line, gut);
}

/* How far a lead line reaches into its part: it ends inside the element it
 * names, not on an outline another element may share (1.84(q)). */
static double into(const struct rctx *c) { return c->st->size_numeral * 0.45; }

/* A numeral at (tx, ty) with its lead line to the part at (px, py). */
static void numeral(struct rctx *c, const char *key, const char *what, double px, double py, double tx, double ty)
{
	char k[96];
	snprintf(k, sizeof(k), "p:%.90s", key);
	draw_numeral(c, k, what, px, py, tx, ty);
}

/* A box with one reference character centred in it. */
static void char_box(struct rctx *c, struct rbox b, const char *chr, double dash)
{
	const struct rstyle *st = c->st;
	set_rgb(c, &st->ink);
	draw_rect(c, b, st->line, dash);
	if (chr && *chr)
		text_at(c, b.x + b.w / 2, b.y + b.h / 2, chr, cfs(c) * 1.1, TX_BOLD | TX_NOSCALE, 0.5, 0.5, NULL);
}

/* A number part of d : its v, 0 none. */
static double part_v(const struct figdesc *d, const char *role, const char *name)
{
	const struct figitem *it;
	for (size_t i = 0; (it = figdesc_part(d, role, i)); i++)
		if (!strcmp(it->name, name))
			return it->v;
	return 0;
}

/* ---- data flow ---------------------------------------------------------------------- */

/* The outlines of a data-flow view: memory on the left, processor on the right, with their numerals. */
static void pflow_frame(struct rctx *c, struct rbox box, struct rbox area, double colw, struct rbox *mem, struct rbox *chip)
{
	const struct rstyle *st = c->st;
	double nw = numeral_w(c);
	*mem = rbox_make(area.x, area.y, colw, area.h);
	*chip = rbox_make(area.x + area.w - colw, area.y, colw, area.h);
	set_rgb(c, &st->ink);
	draw_rect(c, *mem, st->heavy, 0);
	draw_rect(c, *chip, st->heavy, 0);
	numeral(c, "memory", "memory", mem->x + mem->w * 0.5, mem->y + into(c) * 0.8, mem->x + mem->w * 0.5 - nw,
		box.y + nfs(c) * 0.7);
	numeral(c, "processor", "processor", chip->x + chip->w * 0.5, chip->y + into(c) * 0.8, chip->x + chip->w * 0.5 + nw,
		box.y + nfs(c) * 0.7);
}

/* A matrix in the memory of a data-flow view: its numeral's key (after
 * "buf:"), character and words; nn: N×N, drawn twice as tall; dashed: its
 * storage not decided. */
struct pmatrix { const char *key, *chr, *what; int nn, dashed; };

/* A data-flow view laid out: its area, the memory and processor outlines,
 * the widest numeral, and the padding and gap inside the outlines. */
struct pflow { struct rbox area, mem, chip; double nw, pad, gap; };

/* The outlines as tall as their contents (an N×N matrix counts twice, the
 * processor cu units), and the matrices down the memory with their
 * numerals; the processor's contents are the caller's. */
static void pflow_memory(struct rctx *c, struct rbox box, const struct pmatrix *m, int nm, double cu, struct pflow *f)
{
	f->area = numeral_area(c, box, nfs(c) * 2.2, &f->nw);
	double colw = f->area.w * 0.38, units = 0;
	for (int i = 0; i < nm; i++)
		units += m[i].nn ? 2 : 1;
	f->area.h = fmin(f->area.h, nfs(c) * 3.7 * fmax(units, cu) + nfs(c) * 2);
	pflow_frame(c, box, f->area, colw, &f->mem, &f->chip);
	f->pad = nfs(c) * 0.8;
	f->gap = nfs(c) * 0.5;
	const struct rbox mem = f->mem;
	double uh = fmin((mem.h - 2 * f->pad - f->gap * (double)(nm ? nm - 1 : 0)) / (units > 0 ? units : 1), nfs(c) * 3.2);
	double y = mem.y + f->pad;
	for (int i = 0; i < nm; i++) {
		double h = uh * (m[i].nn ? 2 : 1);
		struct rbox bb = rbox_make(mem.x + f->pad, y, mem.w - 2 * f->pad, h);
		char_box(c, bb, m[i].chr, m[i].dashed ? 3 : 0);
		char key[64];
		snprintf(key, sizeof(key), "buf:%s", m[i].key);
		numeral(c, key, m[i].what, bb.x + into(c), bb.y + h / 2, box.x + f->nw / 2 + 1, bb.y + h / 2);
		y += h + f->gap;
	}
}

/* The read and write paths across the gap between memory and processor. */
static void pflow_paths(struct rctx *c, struct rbox area, struct rbox mem, struct rbox chip)
{
	const struct rstyle *st = c->st;
	double gx0 = mem.x + mem.w + 2, gx1 = chip.x - 2, ry = area.y + area.h * 0.3, wy = area.y + area.h * 0.6;
	draw_arrow(c, gx0, ry, gx1, ry, st->heavy, nfs(c) * 0.6, NULL);
	draw_arrow(c, gx1, wy, gx0, wy, st->heavy, nfs(c) * 0.6, NULL);
	double mx = (gx0 + gx1) / 2;
	numeral(c, "read-path", "read path from the memory to the processor", mx, ry - st->heavy, mx, ry - nfs(c) * 1.3);
	numeral(c, "write-path", "write path from the processor to the memory", mx, wy - st->heavy, mx, wy - nfs(c) * 1.3);
}


void fig_pdataflow(struct rctx *c, const struct rdata *rd, const struct figopts *o, struct rbox box)
{
	const struct rstyle *st = c->st;
	struct figdesc d;
	figdesc_init(&d, "patent-dataflow");
	if (figdesc_patent_dataflow(rd, o, &d) || d.notice[0]) {
		if (d.notice[0])
			draw_notice(c, box, d.notice, d.notice_why);
		figdesc_release(&d);
		return;
	}
	/* the matrices the variant stores; the processor's tiles and kernels count once */
	struct pmatrix m[MAX_BUFFERS];
	int nm = 0;
	const struct figitem *it;
	for (size_t i = 0; (it = figdesc_part(&d, "matrix", i)) && nm < MAX_BUFFERS; i++)
		m[nm++] = (struct pmatrix){ it->name, it->label, it->what, !strcmp(it->state, "nxn"), 0 };
	size_t nsh = 0, nrg = 0, ntiles = 0, nkernels = (size_t)part_v(&d, "size", "kernels");
	for (; (it = figdesc_part(&d, "tile", ntiles)); ntiles++)
		!strcmp(it->state, "shared") ? nsh++ : nrg++;
	struct pflow f;
	pflow_memory(c, box, m, nm, (double)(ntiles ? ntiles + 2 : nkernels * 2), &f);
	const struct rbox area = f.area, mem = f.mem, chip = f.chip;
	const double nw = f.nw, pad = f.pad, gap = f.gap;

	/* the processor: on-chip tiles by where they live, or the variant's kernels */
	struct rbox in = rbox_inset(chip, pad, pad, pad, pad);
	double row = fmin(nfs(c) * 3.0, (in.h - 4 * pad) / (double)(nsh + nrg + (ntiles ? 0 : nkernels) + 1));
	double yy = in.y;
	if (ntiles) {
		for (int place = 0; place < 2; place++) {
			size_t cnt = place == 0 ? nsh : nrg;
			if (!cnt)
				continue;
			struct rbox sub = rbox_make(in.x, yy, in.w, (double)cnt * (row + gap) + pad * 1.5);
			set_rgb(c, &st->ink);
			draw_rect(c, sub, st->line, 3);
			numeral(c, place == 0 ? "shared-memory" : "registers", place == 0 ? "shared memory" : "register file",
				sub.x + sub.w - into(c), sub.y + pad * 0.6, box.x + box.w - nw / 2 - 1, sub.y + pad * 0.6);
			double ty = sub.y + pad;
			for (size_t i = 0; (it = figdesc_part(&d, "tile", i)); i++) {
				if (!strcmp(it->state, "shared") != (place == 0))
					continue;
				struct rbox tb = rbox_make(sub.x + pad, ty, sub.w * 0.6, row);
				char_box(c, tb, it->label, 0);
				char key[64];
				snprintf(key, sizeof(key), "tile:%s", it->name);
				numeral(c, key, it->what, tb.x + tb.w - into(c), tb.y + row / 2, box.x + box.w - nw / 2 - 1,
					tb.y + row / 2);
				ty += row + gap;
			}
			yy = sub.y + sub.h + pad;
		}
	} else {
		/* library kernels, one box each, in launch order */
		for (size_t k = 0; (it = figdesc_part(&d, "kernel", k)); k++) {
			struct rbox kb = rbox_make(in.x, yy, in.w * 0.7, row * 1.3);
			char_box(c, kb, NULL, 0);
			char key[64];
			snprintf(key, sizeof(key), "kernel:%zu", k);
			numeral(c, key, it->what, kb.x + kb.w - into(c), kb.y + kb.h / 2, box.x + box.w - nw / 2 - 1, kb.y + kb.h / 2);
			if (k + 1 < nkernels)
				draw_arrow(c, kb.x + kb.w / 2, kb.y + kb.h + 1, kb.x + kb.w / 2, kb.y + kb.h + gap * 2 - 1, st->line,
					   nfs(c) * 0.4, NULL);
			yy += kb.h + gap * 2;
		}
	}

	pflow_paths(c, area, mem, chip);
	figdesc_release(&d);
}

/* ---- the grid in waves --------------------------------------------------------------- */

static void pgrid_draw(struct rctx *c, struct rbox box, const struct figdesc *d);

void fig_pgrid(struct rctx *c, const struct rdata *rd, const struct figopts *o, struct rbox box)
{
	struct figdesc d;
	figdesc_init(&d, "patent-grid");
	if (!figdesc_patent_grid(rd, o, &d)) {
		if (d.notice[0])
			draw_notice(c, box, d.notice, d.notice_why);
		else
			pgrid_draw(c, box, &d);
	}
	figdesc_release(&d);
}

/* The grid (x by y, at most 16 × 8 cells drawn) and its waves over the sm multiprocessors. */
static void pgrid_draw(struct rctx *c, struct rbox box, const struct figdesc *d)
{
	const struct rstyle *st = c->st;
	const int sm = (int)part_v(d, "size", "sm"), per_sm = (int)part_v(d, "size", "per_sm");
	struct wave_plan wp;
	wave_plan(&wp, (long long)part_v(d, "blocks", "thread_blocks"), sm, per_sm);
	double nw;
	struct rbox area = numeral_area(c, box, nfs(c), &nw);
	/* top: the grid (x by y), at most 16 × 8 cells drawn */
	int gx = (int)part_v(d, "axis", "grid_x"), gy = (int)part_v(d, "axis", "grid_y");
	int shx = gx > 16 ? 16 : gx, shy = gy > 8 ? 8 : gy;
	double cs = fmin(fmin(area.w * 0.8 / shx, area.h * 0.4 / shy), nfs(c) * 2.5);
	struct rbox cells = rbox_make(area.x + nfs(c) * 0.5, area.y, cs * shx, cs * shy);
	for (int yv = 0; yv < shy; yv++)
		for (int xv = 0; xv < shx; xv++) {
			struct rbox cb = rbox_make(cells.x + xv * cs, cells.y + yv * cs, cs, cs);
			if (!xv && !yv)
				hatch_rect(c, cb, HATCH_DIAG, 3, &st->ink);
			set_rgb(c, &st->ink);
			draw_rect(c, cb, st->thin, 0);
		}
	if (gx > shx)
		text_at(c, cells.x + cells.w + nfs(c) * 0.3, cells.y + cs / 2, "⋯", cfs(c), TX_NOSCALE, 0, 0.5, NULL);
	if (gy > shy)
		text_at(c, cells.x + cs / 2, cells.y + cells.h + 1, "⋮", cfs(c), TX_NOSCALE, 0.5, 0, NULL);
	numeral(c, "thread-block", "thread block", cells.x + cs * 0.5, cells.y + cs / 2, box.x + nw / 2 + 1, cells.y + cs / 2);
	/* from inside the last cell down, clear of the ellipses beside the last column (⋯) and under
	 * the first (⋮, the last when there is one column: then down and to the right) */
	numeral(c, "grid", "grid of thread blocks", cells.x + cells.w - cs * 0.5, cells.y + cells.h - cs * 0.3,
		cells.x + cells.w + (shx == 1 ? nw : -cs * 0.5), cells.y + cells.h + nfs(c) * 1.2);

	/* bottom: one row a wave, one cell a multiprocessor; runs of full waves elided */
	int rows[6], nr = 0;
	const struct figitem *wv;
	while (nr < 6 && (wv = figdesc_part(d, "wave", (size_t)nr)))
		rows[nr++] = isnan(wv->v) ? -1 : (int)wv->v - 1;
	double y0 = cells.y + cells.h + nfs(c) * 3.5, rh = fmin(nfs(c) * 3, (area.y + area.h - y0) / (nr + 1));
	double cw = area.w / sm;
	for (int i = 0; i < nr; i++) {
		double y = y0 + i * rh * 1.5;
		if (rows[i] < 0) {
			text_at(c, area.x + area.w / 2, y + rh * 0.4, "⋮", cfs(c), TX_NOSCALE, 0.5, 0.5, NULL);
			continue;
		}
		/* runs of multiprocessors holding the same number of blocks: all per_sm
		 * slots busy (hatched), some (hatched as high as the share busy), none */
		set_rgb(c, &st->ink);
		struct rbox row = rbox_make(area.x, y, area.w, rh);
		double part_x = -1, part_y = 0, idle_x = -1;
		for (int k = 0; k < sm;) {
			int n = wave_sm_blocks(&wp, rows[i], k), k1 = k;
			while (k1 < sm && wave_sm_blocks(&wp, rows[i], k1) == n)
				k1++;
			double share = per_sm > 0 ? fmin(1, (double)n / per_sm) : 1, x0 = area.x + k * cw, w = (k1 - k) * cw;
			if (n > 0) {
				struct rbox busy = rbox_make(x0, y + rh * (1 - share), w, rh * share);
				hatch_rect(c, busy, HATCH_BACK, 4, &st->ink);
				set_rgb(c, &st->ink);
				if (share < 1) {
					draw_line(c, x0, busy.y, x0 + w, busy.y, st->thin, 0);
					part_x = x0 + w / 2, part_y = busy.y + busy.h / 2;
				}
			} else if (idle_x < 0) {
				idle_x = x0 + w - into(c);
			}
			if (k > 0)
				draw_line(c, x0, y, x0, y + rh, st->line, 0);
			k = k1;
		}
		draw_rect(c, row, st->line, 0);
		if (idle_x >= 0)
			numeral(c, "idle-sms", "multiprocessors left idle by the last wave", idle_x, y + rh / 2,
				box.x + box.w - nw / 2 - 1, y + rh / 2);
		if (part_x >= 0) /* below the last row: the gutters hold the others */
			numeral(c, "part-busy-sms", "multiprocessors partly busy in the last wave", part_x, part_y, part_x,
				y + rh + nfs(c) * 1.1);
		if (i == 0)
			numeral(c, "wave", "wave of thread blocks over the multiprocessors", area.x + into(c), y + rh / 2,
				box.x + nw / 2 + 1, y + rh / 2);
	}
}

/* ---- warps in a block ------------------------------------------------------------------ */

void fig_pwarps(struct rctx *c, const struct rdata *rd, const struct figopts *o, struct rbox box)
{
	const struct rstyle *st = c->st;
	struct figdesc d;
	figdesc_init(&d, "patent-warps");
	const struct figitem *sp = figdesc_patent_warps(rd, o, &d) ? NULL : figdesc_part(&d, "split", 0);
	if (!sp) {
		if (d.notice[0])
			draw_notice(c, box, d.notice, d.notice_why);
		figdesc_release(&d);
		return;
	}
	const int splitk = !strcmp(sp->state, "split-K"), W = (int)sp->v;
	figdesc_release(&d);
	double nw;
	struct rbox area = numeral_area(c, box, nfs(c), &nw);
	double side = fmin(area.w * 0.6, area.h * (splitk ? 0.5 : 0.7));
	struct rbox tile = rbox_make(area.x + (area.w - side) / 2, area.y, side, side);
	static const enum hatch h[4] = { HATCH_DIAG, HATCH_BACK, HATCH_HORIZ, HATCH_VERT };
	for (int w = 0; w < W; w++) {
		struct rbox sl = splitk ? rbox_make(tile.x + w * side / W, tile.y, side / W, side)
					: rbox_make(tile.x, tile.y + w * side / W, side, side / W);
		hatch_rect(c, sl, h[w % 4], 5, &st->ink);
		set_rgb(c, &st->ink);
		draw_rect(c, sl, st->thin, 0);
	}
	draw_rect(c, tile, st->heavy, 0);
	/* the tile the warps divide: the key block (split-K) or the query block (split-Q) */
	numeral(c, splitk ? "tile:K_j" : "tile:Q_i", splitk ? "key block" : "query block", tile.x + into(c),
		tile.y + side * 0.1, box.x + nw / 2 + 1, tile.y + side * 0.1);
	/* one warp's part: from the middle of the first slice to the gutter, clear of the arrows below */
	if (splitk)
		numeral(c, "warp-part", "part of a block assigned to one warp", tile.x + side / W / 2, tile.y + side * 0.6,
			box.x + nw / 2 + 1, tile.y + side * 0.6);
	else
		numeral(c, "warp-part", "part of a block assigned to one warp", tile.x + side - into(c), tile.y + side / W / 2,
			box.x + box.w - nw / 2 - 1, tile.y + side / W / 2);
	if (splitk) {
		/* the partial outputs meet in a reduction buffer */
		struct rbox red = rbox_make(tile.x, tile.y + side + nfs(c) * 4, side, fmin(nfs(c) * 2.5, area.h * 0.15));
		set_rgb(c, &st->ink);
		draw_rect(c, red, st->heavy, 0);
		for (int w = 0; w < W; w++) {
			double x = tile.x + (w + 0.5) * side / W;
			draw_arrow(c, x, tile.y + side + 2, x, red.y - 2, st->line, nfs(c) * 0.5, NULL);
		}
		numeral(c, "reduction", "reduction buffer in shared memory", red.x + red.w - into(c), red.y + red.h / 2,
			box.x + box.w - nw / 2 - 1, red.y + red.h / 2);
	}
}

/* ---- causal tile pairs ------------------------------------------------------------------ */

void fig_pcausal(struct rctx *c, const struct rdata *rd, const struct figopts *o, struct rbox box)
{
	const struct rstyle *st = c->st;
	struct figdesc d;
	figdesc_init(&d, "patent-causal");
	if (figdesc_patent_causal(rd, o, &d) || d.notice[0]) {
		if (d.notice[0])
			draw_notice(c, box, d.notice, d.notice_why);
		figdesc_release(&d);
		return;
	}
	const long rows = (long)part_v(&d, "size", "rows"), cols = (long)part_v(&d, "size", "cols");
	double nw;
	struct rbox area = numeral_area(c, box, nfs(c), &nw);
	double side = fmin(area.w, area.h);
	struct rbox g = rbox_make(area.x + (area.w - side) / 2, area.y, side, side);
	double ch = side / rows, cw = side / cols;
	double fx = -1, fy = 0, mx = -1, my = 0;
	for (size_t k = 0; k < d.ncells; k++) {
		const struct figcell *ce = &d.cell[k];
		struct rbox cb = rbox_make(g.x + ce->j0 * cw, g.y + ce->i0 * ch, cw * (ce->j1 - ce->j0), ch * (ce->i1 - ce->i0));
		const int full = ce->fate == FD_CELL_FULL;
		hatch_rect(c, cb, full ? HATCH_DIAG : HATCH_CROSS, full ? 4 : 2.5, &st->ink);
		if (full && ce->j0 == 0 && ce->i1 == rows)
			fx = cb.x + cb.w / 2, fy = cb.y + cb.h / 2;
		if (!full && mx < 0 && ce->i0 >= rows / 2)
			mx = cb.x + cb.w / 2, my = cb.y + cb.h / 2;
	}
	set_rgb(c, &st->ink);
	draw_rect(c, g, st->heavy, 0);
	if (fx >= 0)
		numeral(c, "tile-full", "tile pair computed in full", fx, fy, box.x + nw / 2 + 1, fy);
	if (mx >= 0)
		numeral(c, "tile-masked", "tile pair on the diagonal, masked element by element", mx, my,
			box.x + box.w - nw / 2 - 1, my);
	if (part_v(&d, "size", "skipped") > 0)
		numeral(c, "tile-skipped", "tile pairs above the diagonal, skipped", g.x + g.w - side * 0.1, g.y + side * 0.2,
			box.x + box.w - nw / 2 - 1, g.y + side * 0.2);
	figdesc_release(&d);
}

/* ---- graphs ---------------------------------------------------------------------------- */

/* A value past the chart's scale (on_scale): a short mark at the base, no bar. */
static void off_scale(struct rctx *c, double x, double base_y)
{
	text_at(c, x, base_y - cfs(c) * 1.2, "off scale", cfs(c), TX_NOSCALE | TX_ITALIC, 0.5, 1, NULL);
}

/* Axes of a graph: y ticks at nice steps from 0 to top, category labels on
 * x at equal steps, or, given logx (the numbers the categories stand for),
 * placed on a log scale: 4k, 16k, 32k at equal steps would draw a scale
 * that is not there. */
struct pgraph {
	struct rbox plot;
	double top;
	int ncat;
	const int *logx;
};

static double pgraph_x(const struct pgraph *g, int i)
{
	if (!g->logx || g->ncat < 2 || !(g->logx[0] > 0))
		return g->plot.x + g->plot.w * (i + 0.5) / g->ncat;
	/* half a step of margin at each end, as the categories have */
	double lo = log2(g->logx[0]), hi = log2(g->logx[g->ncat - 1]), pad = (hi - lo) / (2.0 * (g->ncat - 1));
	return g->plot.x + g->plot.w * (log2(g->logx[i]) - lo + pad) / (hi - lo + 2 * pad);
}

static void pgraph_axes(struct rctx *c, struct pgraph *g, struct rbox area, double top, const char *ylab,
			const char *const *cats, int ncat, const int *logx, const char *xlab)
{
	const struct rstyle *st = c->st;
	double fs = cfs(c), tw, th;
	struct axis ax;
	if (!on_scale(top) || !(top > 0))
		top = 1; /* no value on scale: an empty axis, the bars say "off scale" */
	axis_linear(&ax, 0, top, 5, 1);
	g->top = ax.hi;
	char b[32];
	tick_label(ax.hi, &ax, TICK_NUM, b, sizeof(b));
	text_extent(c, b, fs, TX_NOSCALE, 0, &tw, &th);
	double ylw;
	text_extent(c, ylab, fs, TX_NOSCALE, 0, NULL, &ylw);
	g->plot = rbox_inset(area, th, fs * 0.5, th * 2 + fs * 1.2, tw + ylw + fs * 1.2);
	g->ncat = ncat;
	g->logx = logx;
	int yaxis = rec_axis(c), xaxis = rec_axis(c);
	set_rgb(c, &st->ink);
	draw_line(c, g->plot.x, g->plot.y, g->plot.x, g->plot.y + g->plot.h, st->line, 0);
	draw_line(c, g->plot.x, g->plot.y + g->plot.h, g->plot.x + g->plot.w, g->plot.y + g->plot.h, st->line, 0);
	for (int i = 0; i < ax.nticks; i++) {
		double v = ax.ticks[i], y = g->plot.y + g->plot.h * (1 - v / g->top);
		draw_line(c, g->plot.x - fs * 0.3, y, g->plot.x, y, st->line, 0);
		rec_tick(c, yaxis, 'y', LR_LIN, g->plot.x, y, v);
		tick_label(v, &ax, TICK_NUM, b, sizeof(b));
		text_at(c, g->plot.x - fs * 0.5, y, b, fs, TX_NOSCALE, 1, 0.5, NULL);
	}
	text_vertical(c, area.x + ylw / 2, g->plot.y + g->plot.h / 2, ylab, fs, TX_NOSCALE);
	for (int i = 0; i < ncat; i++) {
		text_at(c, pgraph_x(g, i), g->plot.y + g->plot.h + fs * 0.3, cats[i], fs, TX_NOSCALE, 0.5, 0, NULL);
		if (logx)
			rec_tick(c, xaxis, 'x', LR_LOG, pgraph_x(g, i), g->plot.y + g->plot.h, logx[i]);
	}
	text_at(c, g->plot.x + g->plot.w / 2, g->plot.y + g->plot.h + th + fs * 0.6, xlab, fs, TX_NOSCALE, 0.5, 0, NULL);
}

/* A bar graph of throughput (panel 0 of d: figdesc_patent_throughput,
 * figdesc_patent_capture_throughput): the key (a swatch a series with its
 * numeral) above the graph, then one group of bars a category; a point
 * without a value is not drawn. */
static void pbars(struct rctx *c, struct rbox box, const struct figdesc *d)
{
	const struct rstyle *st = c->st;
	const struct figpanel *pn = &d->panel[0];
	const int ns = (int)d->nseries, nn = (int)pn->ncat;
	double nw = numeral_w(c);
	double sw = nfs(c) * 1.4, kh = sw + nfs(c);
	struct rbox key = rbox_cut_top(&box, kh);
	double kx = box.x + nw;
	for (int k = 0; k < ns; k++) {
		struct rbox s = rbox_make(kx, key.y + (kh - sw) / 2, sw, sw);
		fill_look(c, s, style_series(st, k), st->thin);
		char pk[SERIES_KEY + 16];
		snprintf(pk, sizeof(pk), "series:%.90s", d->series[k].key);
		numeral(c, pk, d->series[k].generic, s.x + s.w * 0.6, s.y + sw / 2, s.x + s.w + nw, s.y + sw / 2);
		kx += sw + nw * 2.2;
	}
	char cat[FD_CATS][16];
	const char *cats[FD_CATS] = { 0 };
	for (int i = 0; i < nn; i++) {
		fmt_seqlen(pn->cat[i], cat[i], sizeof(cat[i]));
		cats[i] = cat[i];
	}
	struct pgraph g;
	pgraph_axes(c, &g, box, pn->hi * 1.05, "TFLOP/s", cats, nn, NULL, "N");
	for (int i = 0; i < nn; i++)
		for (int k = 0; k < ns; k++) {
			const struct figpoint *q = figdesc_at(d, 0, (size_t)k, (size_t)i);
			if (q->state != FP_VALUE || isnan(q->v))
				continue;
			double v = q->v, gw = g.plot.w / nn, bw = gw * 0.8 / ns;
			double x = g.plot.x + gw * i + gw * 0.1 + bw * k;
			if (!on_scale(v) || v > g.top) {
				off_scale(c, x + bw / 2, g.plot.y + g.plot.h);
				continue;
			}
			double h = g.plot.h * v / g.top;
			fill_look(c, rbox_make(x, g.plot.y + g.plot.h - h, bw, h), style_series(st, k), st->thin);
		}
}

/* A bar graph of kind built by build, or its notice. */
static void pbars_of(struct rctx *c, const struct rdata *rd, const struct figopts *o, struct rbox box, const char *kind,
		     int (*build)(const struct rdata *, const struct figopts *, struct figdesc *))
{
	struct figdesc d;
	figdesc_init(&d, kind);
	if (!build(rd, o, &d)) {
		if (d.notice[0])
			draw_notice(c, box, d.notice, d.notice_why);
		else
			pbars(c, box, &d);
	}
	figdesc_release(&d);
}

void fig_pthroughput(struct rctx *c, const struct rdata *rd, const struct figopts *o, struct rbox box)
{
	pbars_of(c, rd, o, box, "patent-throughput", figdesc_patent_throughput);
}

void fig_pladder(struct rctx *c, const struct rdata *rd, const struct figopts *o, struct rbox box)
{
	const struct rstyle *st = c->st;
	struct figdesc d;
	figdesc_init(&d, "patent-ladder");
	if (figdesc_patent_ladder(rd, o, &d) || d.notice[0]) {
		if (d.notice[0])
			draw_notice(c, box, d.notice, d.notice_why);
		figdesc_release(&d);
		return;
	}
	/* the rungs with a value, in order, each a bar with its numeral above */
	const struct figitem *it;
	size_t nl = 0;
	double top = 0;
	while ((it = figdesc_part(&d, "rung", nl))) {
		const double v = figdesc_at(&d, 0, 0, (size_t)it->v)->v;
		if (on_scale(v))
			top = fmax(top, v);
		nl++;
	}
	const char *cats[8] = { "", "", "", "", "", "", "", "" };
	struct pgraph pg;
	pgraph_axes(c, &pg, rbox_inset(box, nfs(c) * 2.2, 0, 0, 0), top * 1.05, "TFLOP/s", cats, (int)nl, NULL, "");
	for (size_t i = 0; (it = figdesc_part(&d, "rung", i)); i++) {
		const double tf = figdesc_at(&d, 0, 0, (size_t)it->v)->v;
		double gw = pg.plot.w / nl, bw = gw * 0.55, x = pg.plot.x + gw * i + (gw - bw) / 2;
		if (!on_scale(tf) || tf > pg.top) {
			off_scale(c, x + bw / 2, pg.plot.y + pg.plot.h);
			continue;
		}
		double h = pg.plot.h * tf / pg.top;
		struct rbox bar = rbox_make(x, pg.plot.y + pg.plot.h - h, bw, h);
		fill_look(c, bar, style_series(st, (int)i), st->thin);
		char k[32];
		snprintf(k, sizeof(k), "rung:%zu", i);
		numeral(c, k, it->what, x + bw / 2, bar.y + fmin(into(c), h / 2), x + bw / 2,
			fmax(box.y + nfs(c) * 0.7, bar.y - nfs(c) * 1.4));
	}
	figdesc_release(&d);
}

void fig_pdecode(struct rctx *c, const struct rdata *rd, const struct figopts *o, struct rbox box)
{
	const struct rstyle *st = c->st;
	struct figdesc d;
	figdesc_init(&d, "decode-bandwidth");
	if (figdesc_decode_bandwidth(rd, o, &d)) {
		figdesc_release(&d);
		return;
	}
	if (d.notice[0]) {
		draw_notice(c, box, d.notice, d.notice_why);
		figdesc_release(&d);
		return;
	}
	const struct figpanel *pn = &d.panel[0];
	const size_t ns = d.nseries, nn = pn->ncat;
	double top = pn->hi;
	char cat[16][16];
	const char *cats[16];
	int nv[16];
	for (size_t i = 0; i < nn; i++) {
		nv[i] = pn->cat[i];
		fmt_seqlen(nv[i], cat[i], sizeof(cat[i]));
		cats[i] = cat[i];
	}
	/* patent: numerals in the right gutter; elsewhere (slides) the series' names */
	double nw = numeral_w(c), gut = nw * 1.6;
	for (size_t k = 0; k < ns; k++) {
		double w;
		text_extent(c, d.series[k].label, cfs(c), TX_NOSCALE, 0, &w, NULL);
		if (!c->num)
			gut = fmax(gut, w + cfs(c));
	}
	struct pgraph g;
	pgraph_axes(c, &g, rbox_inset(box, c->num ? 0 : cfs(c) * 1.5, gut, 0, 0), top * 1.08, "GB/s", cats, (int)nn, nv,
		    c->num ? "N (log scale)" : "KV-cache length (log scale)");
	double last_label_y = 0;
	for (size_t k = 0; k < ns; k++) {
		const struct series_look *lk = style_series(st, (int)k + 1);
		double px = NAN, py = NAN;
		for (size_t i = 0; i < nn; i++) {
			const struct figpoint *q = figdesc_at(&d, 0, k, i);
			if (q->state != FP_VALUE || !isfinite(q->v))
				continue;
			double x = pgraph_x(&g, (int)i), y = g.plot.y + g.plot.h * (1 - q->v / g.top);
			if (!on_scale(q->v) || q->v > g.top) {
				off_scale(c, x, g.plot.y + g.plot.h);
				continue;
			}
			if (isfinite(px)) {
				set_rgb(c, st->colour ? &lk->line : &st->ink);
				draw_line(c, px, py, x, y, st->line, lk->dash);
				set_rgb(c, &st->ink);
			}
			if (!c->num && q->whisker && q->hi <= g.top)
				/* the launches' spread (not on patent sheets: lines, numerals only) */
				draw_whisker(c, x, g.plot.y + g.plot.h * (1 - q->lo / g.top), g.plot.y + g.plot.h * (1 - q->hi / g.top),
					     nfs(c) * 0.5);
			plot_point(c, x, y, lk->marker, nfs(c) * 0.5, lk, NULL);
			px = x;
			py = y;
		}
		char pk[SERIES_KEY + 16];
		snprintf(pk, sizeof(pk), "series:%.90s", d.series[k].key);
		if (isfinite(px) && c->num)
			numeral(c, pk, d.series[k].generic, px, py, box.x + box.w - nw / 2 - 1, py);
		else if (isfinite(px)) {
			/* beyond the plot's right edge, apart from the label before */
			double ly = py;
			if (k > 0 && fabs(ly - last_label_y) < cfs(c) * 1.3)
				ly = last_label_y + (ly >= last_label_y ? 1 : -1) * cfs(c) * 1.3;
			text_at(c, g.plot.x + g.plot.w + cfs(c) * 0.4, ly, d.series[k].label, cfs(c), TX_NOSCALE, 0, 0.5, &lk->line);
			last_label_y = ly;
		}
	}
	if (pn->ref > 0) {
		double y = g.plot.y + g.plot.h * (1 - pn->ref / g.top);
		draw_line(c, g.plot.x, y, g.plot.x + g.plot.w, y, st->thin, 4);
		if (c->num) {
			numeral(c, "copy", "measured copy bandwidth of the memory", g.plot.x + g.plot.w * 0.15, y,
				g.plot.x + g.plot.w * 0.15, y - nfs(c) * 1.4);
		} else
			text_at(c, g.plot.x + cfs(c) * 0.5, y - cfs(c) * 0.3, pn->ref_label, cfs(c), TX_NOSCALE, 0, 1, &st->muted);
	}
	figdesc_release(&d);
}

/* ---- a computation captured in another program (capreview.h) ---------------------------
 *
 * The same views, drawn from the measurements of a captured call: the memory
 * holds the inputs and the output, and the N×N matrices only where the
 * verdict says the call stored them (dashed where traffic does not decide);
 * the processor holds the call's kernels in launch order, the longest
 * attention kernel hatched; the grid is the one that kernel launched. */
void fig_pcapdataflow(struct rctx *c, const struct rdata *rd, const struct figopts *o, struct rbox box)
{
	const struct rstyle *st = c->st;
	struct figdesc d;
	figdesc_init(&d, "patent-capture-dataflow");
	if (figdesc_pcapdataflow(rd, o, &d) || d.notice[0]) {
		if (d.notice[0])
			draw_notice(c, box, d.notice, d.notice_why);
		figdesc_release(&d);
		return;
	}
	/* the matrices in memory, undecided ones dashed; not stored ones are not drawn */
	struct pmatrix m[6];
	int nm = 0;
	const struct figitem *it;
	for (size_t i = 0; (it = figdesc_part(&d, "matrix", i)) && nm < 6; i++) {
		if (!it->label[0]) { /* an input or the output: its name on every sheet */
			const char *chr = it->name, *what = "";
			patent_part_name(0, it->name, &chr, &what);
			m[nm++] = (struct pmatrix){ it->name, chr, what, 0, 0 };
		} else
			m[nm++] = (struct pmatrix){ it->name, it->label, it->what, 1, strcmp(it->state, "stored") != 0 };
	}
	const struct figitem *nkp = figdesc_part(&d, "size", 0);
	size_t nk = nkp ? (size_t)nkp->v : 0;
	struct pflow f;
	pflow_memory(c, box, m, nm, (nk > 4 ? 4 : (double)nk) * 2.0, &f);
	const struct rbox area = f.area, mem = f.mem, chip = f.chip;
	const double nw = f.nw, pad = f.pad, gap = f.gap;
	/* the kernels the description picked, in launch order ("⋮" where kernels between are not drawn) */
	size_t pick[4];
	int main_of[4];
	int np = 0;
	for (size_t i = 0; (it = figdesc_part(&d, "kernel", i)) && np < 4; i++) {
		pick[np] = (size_t)it->v;
		main_of[np++] = !strcmp(it->state, "main");
	}
	struct rbox inb = rbox_inset(chip, pad, pad, pad, pad);
	double row = fmin(nfs(c) * 3.0 * 1.3, (inb.h - gap * 2 * np) / (np > 0 ? np : 1));
	double yy = inb.y;
	int other_done = 0;
	for (int k = 0; k < np; k++) {
		struct rbox kb = rbox_make(inb.x, yy, inb.w * 0.7, row);
		int main = main_of[k];
		if (main)
			hatch_rect(c, kb, HATCH_DIAG, 4, &st->ink);
		char_box(c, kb, NULL, 0);
		if (main)
			numeral(c, "capkernel:main", "longest attention kernel of a captured computation", kb.x + kb.w - into(c),
				kb.y + row / 2, box.x + box.w - nw / 2 - 1, kb.y + row / 2);
		else if (!other_done++)
			numeral(c, "capkernel:other", "other kernel of a captured computation", kb.x + kb.w - into(c), kb.y + row / 2,
				box.x + box.w - nw / 2 - 1, kb.y + row / 2);
		if (k + 1 < np && pick[k + 1] == pick[k] + 1)
			draw_arrow(c, kb.x + kb.w / 2, kb.y + kb.h + 1, kb.x + kb.w / 2, kb.y + kb.h + gap * 2 - 1, st->line,
				   nfs(c) * 0.4, NULL);
		else if (k + 1 < np)
			text_at(c, kb.x + kb.w / 2, kb.y + kb.h + gap, "⋮", cfs(c), TX_NOSCALE, 0.5, 0.5, NULL);
		yy += row + gap * 2;
	}
	pflow_paths(c, area, mem, chip);
	figdesc_release(&d);
}

void fig_pcapgrid(struct rctx *c, const struct rdata *rd, const struct figopts *o, struct rbox box)
{
	struct figdesc d;
	figdesc_init(&d, "patent-capture-grid");
	if (!figdesc_patent_capture_grid(rd, o, &d)) {
		if (d.notice[0])
			draw_notice(c, box, d.notice, d.notice_why);
		else
			pgrid_draw(c, box, &d);
	}
	figdesc_release(&d);
}

void fig_pcapthroughput(struct rctx *c, const struct rdata *rd, const struct figopts *o, struct rbox box)
{
	pbars_of(c, rd, o, box, "patent-capture-throughput", figdesc_patent_capture_throughput);
}
