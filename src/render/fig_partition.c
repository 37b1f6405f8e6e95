/* fig_partition.c: how work is partitioned — the grid of thread blocks
 * laid over the measured GPU's SMs in waves, and the warps inside one
 * block (split-K with its shared-memory reduction against split-Q).
 * Drawn from the descriptors' grid and warp mappings plus the launches
 * and counters of the records. */
#include "render/figure_draw.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "metric_sets.h"

struct gridinfo {
	const struct variant_desc *v;
	const struct record *r;
	struct attn_shape s;
	struct tiling t;
	int grid[3];
	int warps;          /* per block */
	int per_sm;
	int measured;       /* grid from a recorded launch */
	struct wave_plan wp;
	int kernel;         /* which kernel of the variant */
};

/* The descriptor of series key for the figure's pass (the backward's for bwd). */
static const struct variant_desc *pass_desc(const char *key, const struct figopts *o)
{
	return variant_pass_desc(variant_find(key), rsel_pass(&o->sel));
}

static int grid_info(const struct rdata *rd, const struct figopts *o, const char *key, struct gridinfo *g)
{
	memset(g, 0, sizeof(*g));
	g->v = pass_desc(key, o);
	if (!g->v)
		return -1;
	struct rsel sel;
	fig_sel(rd, o, &sel);
	if (g->v->phases & (1u << PHASE_DECODE) && !(g->v->phases & (1u << PHASE_PREFILL))) {
		sel.phase = PHASE_DECODE;
		sel.n = o->sel.n;
		sel.d = o->sel.d;
		sel.causal = o->sel.causal;
		sel.tokens = o->sel.tokens; /* a prefill sweep's family is not decode's */
		sel.hidden = o->sel.hidden;
	}
	g->r = rdata_find(rd, key, &sel);
	int sm = rdata_sm_count(rd);
	if (g->r) {
		g->s = g->r->shape;
	} else {
		g->s = fig_typical_shape(&sel, o->sel.batch > 0 ? o->sel.batch : 4);
		if (sel.phase == PHASE_DECODE)
			g->s.seqlen_q = 1, g->s.phase = PHASE_DECODE;
	}
	g->v->tiling(&g->s, sm, &g->t);
	/* the descriptor's main kernel (standard: the softmax kernel is ours; GEMM grids belong to cuBLAS) */
	g->kernel = g->v->main_kernel;
	g->v->grid(&g->s, &g->t, g->kernel, g->grid);
	g->warps = g->t.warps > 0 ? g->t.warps : 4;
	g->per_sm = 1;
	const struct launch *l = NULL;
	if (g->r) {
		for (size_t i = 0; i < g->r->nlaunches; i++) {
			const char *m = g->kernel < (int)g->v->nkernels ? g->v->kernels[g->kernel].match : NULL;
			if (m && g->r->launches[i].name && strstr(g->r->launches[i].name, m))
				l = &g->r->launches[i];
		}
		if (!l)
			l = record_main_launch(g->r);
	}
	if (l && l->grid[0] > 0) {
		memcpy(g->grid, l->grid, sizeof(g->grid));
		int threads = l->block[0] * (l->block[1] > 0 ? l->block[1] : 1) * (l->block[2] > 0 ? l->block[2] : 1);
		if (threads > 0)
			g->warps = (threads + 31) / 32;
		g->per_sm = blocks_per_sm_from_occupancy(l->theoretical_occupancy, g->warps, 64);
		g->measured = 1;
	} else if (g->r) {
		const double *m = kvlist_get(&g->r->model, "blocks_per_sm");
		if (m && *m >= 1 && *m <= 64) /* a results file's number: bounded before the cast */
			g->per_sm = (int)*m;
	}
	long long blocks = (long long)g->grid[0] * (g->grid[1] > 0 ? g->grid[1] : 1) * (g->grid[2] > 0 ? g->grid[2] : 1);
	return wave_plan(&g->wp, blocks, sm, g->per_sm);
}

/* ---- the grid over SMs -------------------------------------------------- */

static void draw_grid_panel(struct rctx *c, const struct rdata *rd, const struct gridinfo *g, struct rbox box)
{
	const struct rstyle *st = c->st;
	double fs = st->size_chart;
	char buf[320];
	const struct kernel_desc *kd = &g->v->kernels[g->kernel < (int)g->v->nkernels ? g->kernel : 0];
	snprintf(buf, sizeof(buf), "%s — %s", g->v->name, g->v->grid_text);
	double h = text_block(c, box.x, box.y, box.w, buf, fs, TX_BOLD, NULL);
	rbox_cut_top(&box, h + sz(c, 3));
	/* left: the block grid (x by y), right: the SMs in waves */
	struct rbox gb = rbox_cut_left(&box, box.w * 0.34);
	rbox_cut_left(&box, sz(c, 10));
	struct rbox wb = box;

	int gx = g->grid[0], gy = g->grid[1] > 0 ? g->grid[1] : 1;
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
	snprintf(buf, sizeof(buf), "blockIdx.x: %s (%d)", kd->grid_x ? kd->grid_x : "-", gx);
	ly += text_at(c, cells.x, ly, buf, fs * 0.9, 0, 0, 0, NULL) + lab_h * 0.1;
	snprintf(buf, sizeof(buf), "blockIdx.y: %s (%d)", kd->grid_y ? kd->grid_y : "-", gy);
	text_at(c, cells.x, ly, buf, fs * 0.9, 0, 0, 0, NULL);
	snprintf(buf, sizeof(buf), "%lld blocks · %d warps each%s", g->wp.blocks, g->warps, g->measured ? "" : " (descriptor)");
	text_at(c, cells.x, gb.y, buf, fs * 0.9, 0, 0, 0, NULL);

	/* waves: one row per wave, one cell per SM; long runs of full waves elided */
	int sm = g->wp.sm_count;
	snprintf(buf, sizeof(buf), "%d SMs × %d resident block%s = %.2f waves; last wave: %lld blocks, %d SM%s idle",
		 sm, g->per_sm, g->per_sm == 1 ? "" : "s", g->wp.waves_exact, g->wp.last_blocks, g->wp.idle_sms_last,
		 g->wp.idle_sms_last == 1 ? "" : "s");
	h = text_block(c, wb.x, wb.y, wb.w, buf, fs * 0.95, 0, NULL);
	rbox_cut_top(&wb, h + sz(c, 3));
	if (c->num) /* room for the first row's numeral below the text */
		rbox_cut_top(&wb, st->size_numeral * 1.2);
	int rows[8], nr = 0;
	if (g->wp.waves <= 6) {
		for (int w = 0; w < g->wp.waves; w++)
			rows[nr++] = w;
	} else {
		rows[nr++] = 0; rows[nr++] = 1; rows[nr++] = -1;
		rows[nr++] = g->wp.waves - 2; rows[nr++] = g->wp.waves - 1;
	}
	double labw;
	text_extent(c, "wave 88", fs * 0.85, 0, 0, &labw, NULL);
	double rh = fmin(wb.h / (nr + 0.5), sz(c, 22));
	double cellw = (wb.w - labw - sz(c, 4)) / sm;
	double x0 = wb.x + labw + sz(c, 4);
	const struct series_look *full = style_series(st, 2);
	for (int i = 0; i < nr; i++) {
		double y = wb.y + i * rh;
		if (rows[i] < 0) {
			text_at(c, x0 + (wb.w - labw) / 2, y + rh * 0.4, "⋯ full waves ⋯", fs * 0.85, 0, 0.5, 0.5, &st->muted);
			continue;
		}
		snprintf(buf, sizeof(buf), "wave %d", rows[i] + 1);
		text_at(c, wb.x, y + rh * 0.4, buf, fs * 0.85, 0, 0, 0.5, NULL);
		int idle_start = -1;
		for (int s = 0; s < sm; s++) {
			int k = wave_sm_blocks(&g->wp, rows[i], s);
			struct rbox cb = rbox_make(x0 + s * cellw, y, cellw, rh * 0.8);
			if (k > 0) {
				/* height shows how many of per_sm slots hold a block */
				double frac = (double)k / g->per_sm;
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
		if (idle_start >= 0) {
			struct rbox ib = rbox_make(x0 + idle_start * cellw, y, (sm - idle_start) * cellw, rh * 0.8);
			draw_rect(c, ib, st->line, 2.5);
			snprintf(buf, sizeof(buf), "%d idle", sm - idle_start);
			/* a narrow idle run: the label ends at the row's right edge, over the busy cells */
			if (ib.w >= fs * 3.5)
				text_at(c, ib.x + ib.w / 2, ib.y + ib.h / 2, buf, fs * 0.85, TX_BOLD | TX_KNOCKOUT, 0.5, 0.5, NULL);
			else
				text_at(c, ib.x + ib.w - 1, ib.y + ib.h / 2, buf, fs * 0.85, TX_BOLD | TX_KNOCKOUT, 1.0, 0.5, NULL);
			draw_numeral(c, "idle-sm", "SMs idle in the last wave", ib.x + ib.w * 0.75, ib.y + ib.h,
				     ib.x + ib.w * 0.75, ib.y + ib.h + st->size_numeral * 0.9);
		}
		if (i == 0)
			draw_numeral(c, "sm-row", "one wave over all SMs of the GPU", x0 + cellw * 2, y + rh * 0.4,
				     x0 - labw * 0.4, y - st->size_numeral * 0.6);
	}
	(void)rd;
}

void fig_grid(struct rctx *c, const struct rdata *rd, const struct figopts *o, struct rbox box)
{
	char a[SERIES_KEY], b[SERIES_KEY], title[256];
	fig_series(rd, o->variant, variant_role(DOC_BASELINE), a);
	fig_series(rd, o->compare, o->variant[0] && !o->compare[0] ? "" : variant_role(DOC_SUBJECT), b);
	struct gridinfo g[2];
	int n = 0;
	const struct record *recs[2];
	size_t nr = 0;
	if (!grid_info(rd, o, a, &g[n]))
		n++;
	if (b[0] && strcmp(a, b) && !grid_info(rd, o, b, &g[n]))
		n++;
	for (int i = 0; i < n; i++)
		if (g[i].r)
			recs[nr++] = g[i].r;
	fig_grid_title(rd, o, title, sizeof(title));
	box = figure_frame_recs(c, rd, box, title, recs, nr, o->standalone);
	if (!n) {
		draw_notice(c, box, "no grid to draw", "the variant has no descriptor in kernels/variants.c");
		return;
	}
	if (c->num)
		rbox_cut_right(&box, sz(c, 10));
	for (int i = 0; i < n; i++) {
		struct rbox cell = rbox_grid_cell(box, n, 1, i, 0, 0, sz(c, 12));
		draw_grid_panel(c, rd, &g[i], cell);
	}
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

static void draw_warp_panel(struct rctx *c, const struct rdata *rd, const struct figopts *o, const char *key,
			    struct rbox box, const struct record **used)
{
	const struct rstyle *st = c->st;
	double fs = st->size_chart;
	char buf[320], b1[32];
	const struct variant_desc *v = pass_desc(key, o);
	*used = NULL;
	if (!v) {
		draw_notice(c, box, "no warp picture", "no descriptor for this series");
		return;
	}
	struct gridinfo g;
	grid_info(rd, o, key, &g);
	*used = g.r;
	int W = g.t.warps > 0 ? g.t.warps : 4;
	const char *kind = v->warps == WARPS_SPLIT_K ? "split-K" : v->warps == WARPS_SPLIT_Q ? "split-Q"
			 : v->warps == WARPS_ROWS ? "rows" : "library";
	/* the descriptor's text may name the split itself ("split-K: each warp …"): once */
	if (!strncmp(v->warp_text, kind, strlen(kind)) && v->warp_text[strlen(kind)] == ':')
		snprintf(buf, sizeof(buf), "%s — %s", v->name, v->warp_text);
	else
		snprintf(buf, sizeof(buf), "%s — %s: %s", v->name, kind, v->warp_text);
	double h = text_block(c, box.x, box.y, box.w, buf, fs, TX_BOLD, NULL);
	rbox_cut_top(&box, h + sz(c, 4));
	/* measured shared-memory traffic, the cost a split-K reduction shows */
	struct rbox foot = rbox_cut_bottom(&box, fs * 2.8 * c->scale);
	if (g.r) {
		double st_wf = record_metric_or_nan(g.r, M_SMEM_ST_WF), ld_wf = record_metric_or_nan(g.r, M_SMEM_LD_WF);
		double cf = record_metric_or_nan(g.r, M_SMEM_ST_CONF);
		char b2[32], b3[32];
		if (isfinite(st_wf))
			snprintf(buf, sizeof(buf), "measured shared-memory store wavefronts %s, load %s, store bank conflicts %s",
				 fmt_count(st_wf, b1, sizeof(b1)), isfinite(ld_wf) ? fmt_count(ld_wf, b2, sizeof(b2)) : "n/a",
				 isfinite(cf) ? fmt_count(cf, b3, sizeof(b3)) : "n/a");
		else
			snprintf(buf, sizeof(buf), "shared-memory wavefronts not measured (%s)",
				 g.r->metrics_reason ? g.r->metrics_reason : "no hardware counters in this record");
	} else {
		snprintf(buf, sizeof(buf), "no record of %s at these conditions", v->name);
	}
	text_block(c, foot.x, foot.y + sz(c, 2), foot.w, buf, fs * 0.9, TX_ITALIC, NULL);
	if (v->warps == WARPS_LIBRARY || v->warps == WARPS_ROWS) {
		text_block(c, box.x, box.y + box.h / 3, box.w, "the libraries' kernels choose their own warp layout; "
			   "attnprof draws only what the descriptor states", fs, TX_CENTER | TX_ITALIC, &st->muted);
		return;
	}
	int splitk = v->warps == WARPS_SPLIT_K;
	/* columns: Q_i | K_j, V_j | S_ij | O_i (+ reduction) */
	double u = fmin(box.w / 10.5, box.h / 4.1);
	double y0 = box.y + u * 0.5;
	struct rbox q = rbox_make(box.x, y0, u * 1.3, u * 2.2);
	struct rbox kv = rbox_make(box.x + u * 2.0, y0, u * 2.2, u * 1.3);
	struct rbox s = rbox_make(box.x + u * 4.9, y0, u * 2.2, u * 2.2);
	struct rbox out = rbox_make(box.x + u * 7.9, y0, u * 1.3, u * 2.2);
	char lab[64];
	snprintf(lab, sizeof(lab), "Q_i %d×%d", g.t.block_m, g.s.head_dim);
	tile(c, q, lab, splitk ? 1 : W, 0, "tile:Q_i", "tile Q_i: a block of Br query rows");
	snprintf(lab, sizeof(lab), "K_j,V_j %d×%d", g.t.block_n, g.s.head_dim);
	tile(c, kv, lab, splitk ? W : 1, 1, "tile:K_j", "tile K_j: a block of Bc key rows");
	snprintf(lab, sizeof(lab), "S_ij %d×%d", g.t.block_m, g.t.block_n);
	tile(c, s, lab, W, splitk, "tile:S_ij", "tile S_ij: scores of the tile pair");
	snprintf(lab, sizeof(lab), "O_i");
	tile(c, out, lab, splitk ? 1 : W, 0, "tile:O_i", "tile O_i: output accumulator");
	draw_arrow(c, q.x + q.w + 2, q.y + q.h / 2, s.x - 2, s.y + s.h / 2, st->line, sz(c, 5), NULL);
	draw_arrow(c, kv.x + kv.w / 2, kv.y + kv.h + 2, s.x + s.w * 0.3, s.y + s.h + sz(c, 6), st->thin, sz(c, 4), &st->muted);
	text_at(c, q.x, q.y + q.h + 2, splitk ? "all rows, every warp" : "rows split over warps", fs * 0.8, 0, 0, 0, NULL);
	text_at(c, kv.x + kv.w / 2, kv.y - 2, splitk ? "keys split over warps" : "shared by all warps", fs * 0.8, 0, 0.5, 1, NULL);
	for (int w = 0; w < W; w++) {
		double cx = splitk ? s.x + (w + 0.5) * s.w / W : s.x + s.w + sz(c, 3);
		double cy = splitk ? s.y - sz(c, 2) : s.y + (w + 0.5) * s.h / W;
		snprintf(lab, sizeof(lab), "w%d", w);
		text_at(c, cx, cy, lab, fs * 0.75, 0, splitk ? 0.5 : 0, splitk ? 1 : 0.5, NULL);
	}
	if (splitk) {
		/* partial O per warp, summed through shared memory */
		struct rbox red = rbox_make(s.x, s.y + s.h + u * 0.45, out.x + out.w - s.x, u * 0.65);
		fill_rect(c, red, &st->shared_fill);
		draw_rect(c, red, st->line, 2);
		snprintf(buf, sizeof(buf), "shared memory: %d partial O_i (%d×%d fp32, %s) summed",
			 W, g.t.block_m, g.s.head_dim, fmt_bytes((double)W * g.t.block_m * g.s.head_dim * 4, b1, sizeof(b1)));
		char shorter[96];
		snprintf(shorter, sizeof(shorter), "%d partial O_i summed in shared memory", W);
		const char *choice[3] = { buf, shorter, "partial O_i summed" };
		double f2;
		int pick = text_choose(c, choice, 3, fs * 0.85, 0, red.w - sz(c, 4), &f2);
		text_at(c, red.x + red.w / 2, red.y + red.h / 2, choice[pick], f2, 0, 0.5, 0.5, NULL);
		draw_numeral(c, "smem-reduction", "shared-memory reduction of partial outputs", red.x + 4, red.y + red.h,
			     red.x - st->size_numeral, red.y + red.h + st->size_numeral * 0.6);
		draw_arrow(c, s.x + s.w / 2, s.y + s.h + 1, s.x + s.w / 2, red.y - 1, st->line, sz(c, 5), NULL);
		draw_arrow(c, red.x + red.w * 0.9, red.y - 1, out.x + out.w / 2, out.y + out.h + 1, st->line, sz(c, 5), NULL);
	} else {
		draw_arrow(c, s.x + s.w + sz(c, 16), s.y + s.h / 2, out.x - 2, out.y + out.h / 2, st->line, sz(c, 5), NULL);
		text_block(c, s.x, s.y + s.h + u * 0.4, out.x + out.w - s.x,
			   "each warp owns its rows of S_ij and O_i: no inter-warp reduction", fs * 0.85, TX_CENTER, NULL);
	}
}

void fig_warps(struct rctx *c, const struct rdata *rd, const struct figopts *o, struct rbox box)
{
	char a[SERIES_KEY], b[SERIES_KEY], title[256];
	fig_series(rd, o->variant, variant_role(DOC_BASELINE), a);
	fig_series(rd, o->compare, o->variant[0] && !o->compare[0] ? "" : variant_role(DOC_SUBJECT), b);
	fig_warps_title(rd, o, title, sizeof(title));
	/* conditions need the records: find them as the panels will */
	struct gridinfo g1, g2;
	const struct record *recs[2];
	size_t nr = 0;
	if (!grid_info(rd, o, a, &g1) && g1.r) recs[nr++] = g1.r;
	if (b[0] && !grid_info(rd, o, b, &g2) && g2.r) recs[nr++] = g2.r;
	box = figure_frame_recs(c, rd, box, title, recs, nr, o->standalone);
	int n = b[0] && strcmp(a, b) ? 2 : 1;
	const struct record *u;
	for (int i = 0; i < n; i++) {
		struct rbox cell = rbox_grid_cell(box, n, 1, i, 0, 0, sz(c, 10));
		draw_warp_panel(c, rd, o, i ? b : a, cell, &u);
	}
}
