/* fig_workload.c: the memory-workload figure (issue 31 item 3).
 *
 * Where each kernel's bytes go, level by level, as Nsight Compute's memory
 * chart shows them: for every record at the figure's shape recorded with
 * the workload set, a row of three cells — L1/TEX with shared memory
 * (l1tex__t_bytes, its sector hit rate, the shared-memory wavefronts), the
 * L2 (lts__t_bytes, its sector hit rate, and in a backward the bytes
 * reduced there: flash2's dQ), DRAM (bytes read and written, with the
 * no-cache model's bytes marked).  Each cell's bar is the row's bytes against the
 * largest of that level over the rows of its pass, so a matrix that never reaches HBM
 * shows as a short DRAM bar beside the long one of the variant that stores
 * it, while its traffic stays visible at L1 and L2.  Rows as fig_stalls.c
 * orders them; geometry: fig_counters.h.
 */
#include "render/fig_counters.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "render/figure_draw.h"

#define WL_ROWS 16

void workload_cells(struct rbox row, double label_w, double gap, struct rbox cell[WL_LEVELS])
{
	const double x0 = row.x + label_w + gap, w = (row.w - label_w - gap * WL_LEVELS) / WL_LEVELS;
	for (int i = 0; i < WL_LEVELS; i++)
		cell[i] = rbox_make(x0 + i * (w + gap), row.y, w > 0 ? w : 0, row.h);
}

struct rbox workload_bar(struct rbox cell, double frac, double bar_h)
{
	double f = isfinite(frac) ? frac : 0;
	f = f < 0 ? 0 : f > 1 ? 1 : f;
	return rbox_make(cell.x, cell.y, cell.w * f, bar_h < cell.h ? bar_h : cell.h);
}

/* The quantities of a level: bytes (the bar), then what its text reads. */
struct wl_row {
	char label[COUNTER_LABEL];
	double bytes[WL_LEVELS], hit[WL_LEVELS];
	double smem_wf, red, rd_bytes, wr_bytes, model;
	int pass; /* 0 fwd, 1 bwd, 2 fwd+bwd: each pass's bars share a scale */
};

/* A row's values from the description (figdesc_workload_q's order). */
static size_t workload_rows(const struct figdesc *d, struct wl_row *rows)
{
	const struct figpanel *dp = &d->panel[0];
	size_t n = dp->ncat < WL_ROWS ? dp->ncat : WL_ROWS;
	for (size_t i = 0; i < n; i++) {
		struct wl_row *w = &rows[i];
		double v[FD_WORKLOAD_Q];
		for (size_t q = 0; q < FD_WORKLOAD_Q; q++)
			v[q] = figdesc_at(d, 0, q, i)->v;
		snprintf(w->label, sizeof w->label, "%s", dp->catlabel[i]);
		w->bytes[0] = v[0];
		w->hit[0] = v[1];
		w->bytes[1] = v[2];
		w->hit[1] = v[3];
		w->bytes[2] = v[4];
		w->hit[2] = NAN;
		w->smem_wf = v[5];
		w->red = v[6];
		w->rd_bytes = v[7];
		w->wr_bytes = v[8];
		w->model = v[9];
		w->pass = dp->cat[i];
	}
	return n;
}

void fig_workload(struct rctx *c, const struct rdata *rd, const struct figopts *o, struct rbox box)
{
	const struct rstyle *st = c->st;
	struct wl_row rows[WL_ROWS];
	struct figdesc d;
	figdesc_init(&d, "memory-workload");
	if (figdesc_workload(rd, o, &d)) {
		figdesc_release(&d);
		return;
	}
	size_t nr = workload_rows(&d, rows);
	char title[200];
	fig_workload_title(rd, o, title, sizeof title);
	box = figure_frame_recs(c, rd, box, title, d.used, d.nused, o->standalone);
	if (d.notice[0]) {
		draw_notice(c, box, d.notice, d.notice_why);
		figdesc_release(&d);
		return;
	}
	figdesc_release(&d);
	const double fs = st->size_chart, gap = sz(c, 8);
	double label_w = 0, th = 0;
	for (size_t i = 0; i < nr; i++) {
		double w;
		text_extent(c, rows[i].label, fs, 0, 0, &w, &th);
		label_w = fmax(label_w, w);
	}
	label_w = fmin(label_w + sz(c, 4), box.w * 0.25);

	/* the levels' heads, SM side on the left: the order says the way the bytes go (an
	 * arrow of the 8-unit gap's size read as a stray mark before 'L2' and 'DRAM') */
	char l2[64], l2size[32];
	const struct gpu_info *g = &rd->res->header.gpu;
	if (g->hw.l2_bytes)
		fmt_quantity((double)g->hw.l2_bytes, U_BYTES, NULL, l2size, sizeof l2size);
	snprintf(l2, sizeof l2, g->hw.l2_bytes ? "L2 (%s)" : "L2", l2size);
	/* each head the longest that fits its cell (a slide's type is larger) */
	const char *const heads[WL_LEVELS][3] = { { "L1/TEX and shared memory", "L1/TEX, shared", "L1" },
						  { l2, "L2", "L2" }, { "DRAM (HBM)", "DRAM", "DRAM" } };
	const struct rgb *const fills[WL_LEVELS] = { &st->shared_fill, &st->chip_fill, &st->hbm_fill };
	struct rbox head = rbox_cut_top(&box, th * 1.2 + sz(c, 6)), hc[WL_LEVELS];
	workload_cells(head, label_w, gap, hc);
	for (int l = 0; l < WL_LEVELS; l++) {
		const char *alt[3] = { heads[l][0], heads[l][1], heads[l][2] };
		double hf;
		const int k = text_choose(c, alt, 3, fs, TX_BOLD, hc[l].w - gap, &hf);
		text_at(c, hc[l].x, hc[l].y, alt[k], hf, TX_BOLD, 0, 0, NULL);
	}
	double maxp[3][WL_LEVELS] = { { 0 } };
	for (size_t i = 0; i < nr; i++)
		for (int l = 0; l < WL_LEVELS; l++)
			if (isfinite(rows[i].bytes[l]))
				maxp[rows[i].pass][l] = fmax(maxp[rows[i].pass][l], rows[i].bytes[l]);

	const double pitch = fmin(box.h / (double)nr, sz(c, 44)), bar_h = fmin(pitch * 0.28, sz(c, 9));
	const double small = fs * 0.9;
	/* a second line under the bar only where the row has room for it */
	const int second_line = pitch * 0.9 >= bar_h + sz(c, 2) + th * 2.1;
	for (size_t i = 0; i < nr; i++) {
		const struct wl_row *w = &rows[i];
		const double *maxb = maxp[w->pass];
		struct rbox row = rbox_make(box.x, box.y + pitch * (double)i, box.w, pitch * 0.9), cell[WL_LEVELS];
		workload_cells(row, label_w, gap, cell);
		text_at(c, row.x, row.y + bar_h / 2, w->label, fs, 0, 0, 0.5, NULL);
		for (int l = 0; l < WL_LEVELS; l++) {
			fill_rect(c, cell[l], fills[l]);
			struct rbox bar = workload_bar(cell[l], maxb[l] > 0 ? w->bytes[l] / maxb[l] : 0, bar_h);
			char b[48], h[48], r1[48], w1[48];
			char l1[3][160], m2[3][160]; /* each line most detailed first: the first that fits is drawn */
			int n1 = 1, n2 = 0;
			if (!isfinite(w->bytes[l])) {
				text_at(c, cell[l].x + sz(c, 2), cell[l].y + bar_h / 2, "not measured", small, TX_ITALIC, 0, 0.5, &st->muted);
				continue;
			}
			if (bar.w > 0) {
				fill_rect(c, bar, &st->block_fill);
				rec_mark(c, bar.x, bar.y, bar.x + bar.w, bar.y + bar.h);
			}
			fmt_quantity(w->bytes[l], U_BYTES, NULL, b, sizeof b);
			snprintf(l1[0], sizeof l1[0], "%s", b);
			if (isfinite(w->hit[l])) {
				fmt_quantity(w->hit[l], U_PCT, NULL, h, sizeof h);
				snprintf(l1[0], sizeof l1[0], "%s · hit %s", b, h);
				snprintf(l1[1], sizeof l1[1], "%s · %s", b, h);
				snprintf(l1[2], sizeof l1[2], "%s", b);
				n1 = 3;
			} else if (l == 2 && isfinite(w->rd_bytes) && isfinite(w->wr_bytes)) {
				fmt_quantity(w->rd_bytes, U_BYTES, NULL, r1, sizeof r1);
				fmt_quantity(w->wr_bytes, U_BYTES, NULL, w1, sizeof w1);
				snprintf(l1[0], sizeof l1[0], "%s: read %s, written %s", b, r1, w1);
				snprintf(l1[1], sizeof l1[1], "%s: r %s, w %s", b, r1, w1);
				snprintf(l1[2], sizeof l1[2], "%s", b);
				n1 = 3;
			}
			if (l == 0 && isfinite(w->smem_wf)) {
				fmt_quantity(w->smem_wf, U_COUNT, NULL, h, sizeof h);
				snprintf(m2[0], sizeof m2[0], "shared: %s wavefronts", h);
				snprintf(m2[1], sizeof m2[0], "shared %s wf", h);
				n2 = 2;
			} else if (l == 1 && isfinite(w->red) && w->red > 0) {
				fmt_quantity(w->red, U_BYTES, NULL, h, sizeof h);
				snprintf(m2[0], sizeof m2[0], "reduced in L2 (dQ): %s", h);
				snprintf(m2[1], sizeof m2[0], "dQ reduced %s", h);
				n2 = 2;
			} else if (l == 2 && isfinite(w->model) && maxb[2] > 0) {
				/* the no-cache model's bytes, a tick across the bar */
				const double mx = cell[l].x + cell[l].w * fmin(1, w->model / maxb[2]);
				set_rgb(c, &st->ink);
				draw_line(c, mx, bar.y - sz(c, 1.5), mx, bar.y + bar_h + sz(c, 1.5), st->line, 0);
				fmt_quantity(w->model, U_BYTES, NULL, h, sizeof h);
				snprintf(m2[0], sizeof m2[0], "no-cache model %s (the tick)", h);
				snprintf(m2[1], sizeof m2[0], "no-cache %s", h);
				snprintf(m2[2], sizeof m2[0], "model %s", h);
				n2 = 3;
			}
			const double ty = cell[l].y + bar_h + sz(c, 2), tw = cell[l].w - sz(c, 2);
			const char *t1[3] = { l1[0], l1[1], l1[2] }, *t2[3] = { m2[0], m2[1], m2[2] };
			double f1, f2;
			int k1 = text_choose(c, t1, n1, small, 0, tw, &f1);
			text_at(c, cell[l].x + sz(c, 1), ty, t1[k1], f1, 0, 0, 0, NULL);
			if (n2 && second_line) {
				int k2 = text_choose(c, t2, n2, small, 0, tw, &f2);
				text_at(c, cell[l].x + sz(c, 1), ty + th * 1.05, t2[k2], f2, 0, 0, 0, &st->muted);
			}
		}
	}
}
