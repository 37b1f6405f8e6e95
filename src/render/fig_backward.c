/* fig_backward.c: the partition of a K/V-parallel backward (FA2 Algorithm 2).
 *
 *   partition-bwd   the grid of thread blocks (one a K/V block of one KV
 *                   head, walking the query blocks), the warp tiles of the
 *                   block's five products, and the path dQ takes: a tile
 *                   reduced into an fp32 accumulator in HBM by each K/V
 *                   block, converted by the pass's last kernel
 *
 * Drawn from its description (src/doc/figdiagram.c figdesc_partition_bwd):
 * every size from the backward descriptor and the record's launch, the
 * warp tiles of the flash backward's layouts (32-row slices of both
 * operands), the kernels and buffers as the descriptor names them.
 */
#include "render/figure_draw.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* A size part of the description (figdesc_partition_bwd). */
static int size_of(const struct figdesc *d, const char *name)
{
	const struct figitem *it;
	for (size_t i = 0; (it = figdesc_part(d, "size", i)); i++)
		if (!strcmp(it->name, name))
			return (int)it->v;
	return 0;
}

/* A rows × cols operand at scale u (pt a row), split into gr × gc warp tiles w0…, labelled. */
static void warp_tiles(struct rctx *c, double x, double y, double u, int rows, int cols, int gr, int gc,
		       const char *label, const char *sub)
{
	const struct rstyle *st = c->st;
	struct rbox b = rbox_make(x, y, cols * u, rows * u);
	double cw = b.w / gc, ch = b.h / gr, fs = st->size_chart;
	for (int i = 0; i < gr; i++)
		for (int j = 0; j < gc; j++) {
			int w = i * gc + j;
			struct rbox cell = rbox_make(b.x + j * cw, b.y + i * ch, cw, ch);
			const struct series_look *lk = style_series(st, 4 + w % 4);
			struct rgb light = { 0.65 + 0.35 * lk->fill.r, 0.65 + 0.35 * lk->fill.g, 0.65 + 0.35 * lk->fill.b };
			/* grey without colour: hatching would run under the warp's label */
			struct rgb grey = { 0.88, 0.88, 0.88 };
			if (st->colour)
				fill_rect(c, cell, &light);
			else if (w % 2)
				fill_rect(c, cell, &grey);
			set_rgb(c, &st->ink);
			draw_rect(c, cell, st->thin, 0);
			char wn[16];
			snprintf(wn, sizeof(wn), "w%d", w);
			text_at(c, cell.x + cw / 2, cell.y + ch / 2, wn, fs, TX_KNOCKOUT, 0.5, 0.5, NULL);
		}
	set_rgb(c, &st->ink);
	draw_rect(c, b, st->line, 0);
	double h = text_at(c, b.x, b.y - sz(c, 3), label, fs, TX_BOLD, 0, 1, NULL);
	text_at(c, b.x, b.y + b.h + sz(c, 3), sub, fs, 0, 0, 0, &st->muted);
	(void)h;
}

void fig_bwdpart(struct rctx *c, const struct rdata *rd, const struct figopts *o, struct rbox box)
{
	const struct rstyle *st = c->st;
	char title[300];
	fig_bwdpart_title(rd, o, title, sizeof(title));
	struct figdesc dd;
	figdesc_init(&dd, "partition-bwd");
	if (figdesc_partition_bwd(rd, o, &dd) || dd.notice[0]) {
		if (dd.notice[0])
			draw_notice(c, box, dd.notice, dd.notice_why);
		figdesc_release(&dd);
		return;
	}
	box = figure_frame_recs(c, rd, box, title, dd.used, dd.nused, o->standalone);
	const int Br = size_of(&dd, "Br"), Bc = size_of(&dd, "Bc"), d = size_of(&dd, "d"), gx = size_of(&dd, "grid_x");
	const double fs = st->size_chart, line_h = fs * 1.35;

	/* the grid, in words and a strip of its first K/V blocks */
	double th = text_block(c, box.x, box.y, box.w, figdesc_text(&dd, "grid", 0), fs, 0, NULL);
	double y = box.y + th + sz(c, 4);
	int shown = gx > 16 ? 16 : gx;
	double cs = fmin(box.w * 0.6 / shown, line_h * 1.2);
	for (int j = 0; j < shown; j++) {
		struct rbox cell = rbox_make(box.x + j * cs, y, cs, cs);
		if (j == 1)
			fill_look(c, cell, style_series(st, 2), st->thin);
		set_rgb(c, &st->ink);
		draw_rect(c, cell, st->thin, 0);
	}
	if (gx > shown)
		text_at(c, box.x + shown * cs + sz(c, 3), y + cs / 2, "⋯", fs, 0, 0, 0.5, NULL);
	text_at(c, box.x + shown * cs + sz(c, 16), y + cs / 2, "block j = 1: Kⱼ, Vⱼ in shared memory for the whole walk",
		fs, 0, 0, 0.5, NULL);
	y += cs + line_h * 1.6;

	/* the five products: S, dP over Br × Bc; dK, dV over Bc × d; dQᵢ over Br × d, at one scale */
	const struct figitem *nl = figdesc_part(&dd, "nolayout", 0);
	if (nl) {
		draw_notice(c, rbox_make(box.x, y, box.w, box.y + box.h - y), "no warp layout", nl->text);
		figdesc_release(&dd);
		return;
	}
	const int sr = size_of(&dd, "sr"), sc = size_of(&dd, "sc"), kr = size_of(&dd, "kr"), kc = size_of(&dd, "kc");
	double bottom_h = line_h * 4, gap = sz(c, 18);
	double avail_h = box.y + box.h - y - bottom_h - line_h * 2;
	double u = fmin(avail_h / Bc, (box.w - 2 * gap) / (Bc + 2.0 * d));
	double x = box.x;
	warp_tiles(c, x, y, u, Br, Bc, sr, sc, "S = QᵢKⱼᵀ, dP = dOᵢVⱼᵀ", figdesc_text(&dd, "sub", 0));
	double ax0 = x + Bc * u;
	x += Bc * u + gap;
	warp_tiles(c, x, y, u, Bc, d, kr, kc, "dVⱼ += PᵀdOᵢ, dKⱼ += dSᵀQᵢ", figdesc_text(&dd, "sub", 1));
	draw_arrow(c, ax0 + 2, y + Br * u * 0.5, x - 2, y + Br * u * 0.5, st->line, sz(c, 5), NULL);
	double qx = x + d * u + gap;
	warp_tiles(c, qx, y, u, Br, d, sr, sc, "dQᵢ = dSKⱼ", figdesc_text(&dd, "sub", 2));
	draw_arrow(c, x + d * u + 2, y + Br * u * 0.5, qx - 2, y + Br * u * 0.5, st->line, sz(c, 5), NULL);
	text_block(c, box.x, y + Br * u + line_h * 1.5, Bc * u, "P and dS pass through shared memory between the "
		   "products; S and P are recomputed from Q, K and the forward's L: nothing N × N is stored",
		   fs, 0, &st->muted);
	/* dQᵢ leaves the block: into the accumulator every K/V block adds to */
	const struct figitem *acc = figdesc_part(&dd, "acc", 0);
	if (acc) {
		double ay0 = y + Br * u + line_h * 1.3, ay1 = ay0 + line_h * 1.4;
		draw_arrow(c, qx + d * u / 2, ay0, qx + d * u / 2, ay1, st->line, sz(c, 5), NULL);
		text_block(c, qx, ay1 + sz(c, 2), d * u, acc->text, fs, TX_MARKUP, NULL);
	}
	y += Bc * u + line_h * 2.2;

	/* the pass's kernels in launch order */
	size_t nk = 0;
	while (figdesc_part(&dd, "kernel", nk))
		nk++;
	double kw = (box.w - gap * (double)(nk ? nk - 1 : 0)) / (double)(nk ? nk : 1), kh = line_h * 3.2;
	for (size_t k = 0; k < nk; k++) {
		const struct figitem *kp = figdesc_part(&dd, "kernel", k);
		const int main_k = !strcmp(kp->state, "main");
		struct rbox kb = rbox_make(box.x + k * (kw + gap), y, kw, kh);
		if (main_k && st->colour) {
			const struct rgb *f = &style_series(st, 2)->fill;
			struct rgb light = { 0.75 + 0.25 * f->r, 0.75 + 0.25 * f->g, 0.75 + 0.25 * f->b };
			fill_rect(c, kb, &light);
		}
		set_rgb(c, &st->ink);
		draw_rect(c, kb, main_k ? st->heavy : st->line, 0);
		text_block(c, kb.x + sz(c, 4), kb.y + sz(c, 3), kb.w - sz(c, 8), kp->text, fs * 0.95, TX_MARKUP, NULL);
		if (k + 1 < nk)
			draw_arrow(c, kb.x + kb.w + 2, kb.y + kh / 2, kb.x + kb.w + gap - 2, kb.y + kh / 2, st->line, sz(c, 5), NULL);
	}
	figdesc_release(&dd);
}
