/* fig_backward.c: the partition of a K/V-parallel backward (FA2 Algorithm 2).
 *
 *   partition-bwd   the grid of thread blocks (one a K/V block of one KV
 *                   head, walking the query blocks), the warp tiles of the
 *                   block's five products, and the path dQ takes: a tile
 *                   reduced into an fp32 accumulator in HBM by each K/V
 *                   block, converted by the pass's last kernel
 *
 * Every size comes from the backward descriptor (kernels/variants.c, whose
 * tiling is kernels/tiles.h's) and the record's launch; the kernels and
 * buffers are named by the descriptor.  The warp tiles follow
 * kernels/flash_bwd.cu's layouts: every warp owns 32-row slices of both
 * operands (BWD_WARP_ROWS), so Br × Bc splits into (Br/32) × (Bc/32) warp
 * tiles, Bc × d into Bc/32 rows of warps and Br × d into Br/32 rows.
 */
#include "render/figure_draw.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Rows of one operand a warp of flash_bwd.cu's layouts owns. */
#define BWD_WARP_ROWS 32

struct bwd_part {
	const struct variant_desc *v;
	const struct record *r;
	struct attn_shape s;
	struct tiling t;
	int grid[3];
	int measured; /* grid from the record's launch */
};

static int bwd_part_of(const struct rdata *rd, const struct figopts *o, struct bwd_part *p)
{
	char key[SERIES_KEY];
	memset(p, 0, sizeof(*p));
	fig_series(rd, o->variant, variant_role(DOC_SUBJECT), key);
	p->v = variant_pass_desc(variant_find(key), PASS_BWD);
	if (!p->v || p->v->loop != LOOP_KV_OUTER || !p->v->tiling || !p->v->grid)
		return -1;
	struct figopts ob = *o;
	ob.sel.pass = PASS_BWD;
	struct rsel sel;
	fig_sel(rd, &ob, &sel);
	p->r = rdata_find(rd, key, &sel);
	if (p->r) {
		p->s = p->r->shape;
	} else {
		p->s = fig_typical_shape(&sel, 4);
	}
	const int sm = rdata_sm_count(rd);
	p->v->tiling(&p->s, sm, &p->t);
	p->grid[0] = p->grid[1] = p->grid[2] = 1;
	p->v->grid(&p->s, &p->t, p->v->main_kernel, p->grid);
	const struct launch *l = p->r ? record_main_launch(p->r) : NULL;
	if (l && l->grid[0] > 0) {
		memcpy(p->grid, l->grid, sizeof(p->grid));
		p->measured = 1;
	}
	return p->t.block_m > 0 && p->t.block_n > 0 && p->t.warps > 0 ? 0 : -1;
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
	struct bwd_part p;
	char title[300];
	fig_bwdpart_title(rd, o, title, sizeof(title));
	if (bwd_part_of(rd, o, &p)) {
		draw_notice(c, box, "no K/V-parallel backward", "the variant's backward descriptor walks no K/V blocks");
		return;
	}
	const struct record *recs[1] = { p.r };
	box = figure_frame_recs(c, rd, box, title, recs, p.r ? 1 : 0, o->standalone);
	const int Br = p.t.block_m, Bc = p.t.block_n, W = p.t.warps, d = p.s.head_dim;
	const double fs = st->size_chart, line_h = fs * 1.35;
	const long qblocks = (p.s.seqlen_q + Br - 1) / Br;

	/* the grid, in words and a strip of its first K/V blocks */
	char b1[320];
	snprintf(b1, sizeof(b1), "grid %d × %d = %lld thread blocks%s: blockIdx.x a K/V block j of Bc = %d keys, "
		 "blockIdx.y a (batch, KV head); each walks the %ld query blocks i of Br = %d rows of its %d query head%s%s",
		 p.grid[0], p.grid[1], (long long)p.grid[0] * p.grid[1], p.measured ? " (launched)" : "", Bc, qblocks, Br,
		 p.s.kv_heads > 0 ? p.s.heads / p.s.kv_heads : 1, p.s.kv_heads > 0 && p.s.heads / p.s.kv_heads > 1 ? "s" : "",
		 p.s.causal ? " (causal: on or below the diagonal)" : "");
	double th = text_block(c, box.x, box.y, box.w, b1, fs, 0, NULL);
	double y = box.y + th + sz(c, 4);
	int shown = p.grid[0] > 16 ? 16 : p.grid[0];
	double cs = fmin(box.w * 0.6 / shown, line_h * 1.2);
	for (int j = 0; j < shown; j++) {
		struct rbox cell = rbox_make(box.x + j * cs, y, cs, cs);
		if (j == 1)
			fill_look(c, cell, style_series(st, 2), st->thin);
		set_rgb(c, &st->ink);
		draw_rect(c, cell, st->thin, 0);
	}
	if (p.grid[0] > shown)
		text_at(c, box.x + shown * cs + sz(c, 3), y + cs / 2, "⋯", fs, 0, 0, 0.5, NULL);
	text_at(c, box.x + shown * cs + sz(c, 16), y + cs / 2, "block j = 1: Kⱼ, Vⱼ in shared memory for the whole walk",
		fs, 0, 0, 0.5, NULL);
	y += cs + line_h * 1.6;

	/* the five products: S, dP over Br × Bc; dK, dV over Bc × d; dQᵢ over Br × d, at one scale */
	int sr = Br / BWD_WARP_ROWS, sc = W / (sr > 0 ? sr : 1);
	int kr = Bc / BWD_WARP_ROWS, kc = W / (kr > 0 ? kr : 1);
	if (sr < 1 || sc < 1 || kr < 1 || kc < 1 || sr * sc != W || kr * kc != W) {
		draw_notice(c, rbox_make(box.x, y, box.w, box.y + box.h - y), "no warp layout",
			    "the tiles do not split into 32-row warp slices");
		return;
	}
	double bottom_h = line_h * 4, gap = sz(c, 18);
	double avail_h = box.y + box.h - y - bottom_h - line_h * 2;
	double u = fmin(avail_h / Bc, (box.w - 2 * gap) / (Bc + 2.0 * d));
	char sub[96];
	snprintf(sub, sizeof(sub), "%d × %d, %d × %d warp tiles", Br, Bc, sr, sc);
	double x = box.x;
	warp_tiles(c, x, y, u, Br, Bc, sr, sc, "S = QᵢKⱼᵀ, dP = dOᵢVⱼᵀ", sub);
	double ax0 = x + Bc * u;
	x += Bc * u + gap;
	snprintf(sub, sizeof(sub), "%d × %d each, registers, whole walk", Bc, d);
	warp_tiles(c, x, y, u, Bc, d, kr, kc, "dVⱼ += PᵀdOᵢ, dKⱼ += dSᵀQᵢ", sub);
	draw_arrow(c, ax0 + 2, y + Br * u * 0.5, x - 2, y + Br * u * 0.5, st->line, sz(c, 5), NULL);
	double qx = x + d * u + gap;
	snprintf(sub, sizeof(sub), "%d × %d fp32, %d × %d warp tiles", Br, d, sr, sc);
	warp_tiles(c, qx, y, u, Br, d, sr, sc, "dQᵢ = dSKⱼ", sub);
	draw_arrow(c, x + d * u + 2, y + Br * u * 0.5, qx - 2, y + Br * u * 0.5, st->line, sz(c, 5), NULL);
	text_block(c, box.x, y + Br * u + line_h * 1.5, Bc * u, "P and dS pass through shared memory between the "
		   "products; S and P are recomputed from Q, K and the forward's L: nothing N × N is stored",
		   fs, 0, &st->muted);
	/* dQᵢ leaves the block: into the accumulator every K/V block adds to */
	const struct buffer_desc *acc = NULL;
	for (size_t i = 0; i < p.v->nbuffers; i++)
		if (p.v->buffers[i].role == ROLE_WORKSPACE)
			acc = &p.v->buffers[i];
	if (acc) {
		double ay0 = y + Br * u + line_h * 1.3, ay1 = ay0 + line_h * 1.4;
		draw_arrow(c, qx + d * u / 2, ay0, qx + d * u / 2, ay1, st->line, sz(c, 5), NULL);
		char t[260];
		snprintf(t, sizeof(t), "<b>%s</b> in HBM: %s", acc->label, acc->meaning);
		text_block(c, qx, ay1 + sz(c, 2), d * u, t, fs, TX_MARKUP, NULL);
	}
	y += Bc * u + line_h * 2.2;

	/* the pass's kernels in launch order */
	size_t nk = p.v->nkernels;
	double kw = (box.w - gap * (double)(nk ? nk - 1 : 0)) / (double)(nk ? nk : 1), kh = line_h * 3.2;
	for (size_t k = 0; k < nk; k++) {
		struct rbox kb = rbox_make(box.x + k * (kw + gap), y, kw, kh);
		if ((int)k == p.v->main_kernel && st->colour) {
			const struct rgb *f = &style_series(st, 2)->fill;
			struct rgb light = { 0.75 + 0.25 * f->r, 0.75 + 0.25 * f->g, 0.75 + 0.25 * f->b };
			fill_rect(c, kb, &light);
		}
		set_rgb(c, &st->ink);
		draw_rect(c, kb, (int)k == p.v->main_kernel ? st->heavy : st->line, 0);
		char t[200];
		snprintf(t, sizeof(t), "<b>%s</b>\n%s", p.v->kernels[k].name, p.v->kernels[k].does);
		text_block(c, kb.x + sz(c, 4), kb.y + sz(c, 3), kb.w - sz(c, 8), t, fs * 0.95, TX_MARKUP, NULL);
		if (k + 1 < nk)
			draw_arrow(c, kb.x + kb.w + 2, kb.y + kh / 2, kb.x + kb.w + gap - 2, kb.y + kh / 2, st->line, sz(c, 5), NULL);
	}
}
