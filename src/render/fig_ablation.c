/* fig_ablation.c: the ablation ladder flash1 -> +seqpar -> +splitq ->
 * +lazy rescale (= flash2), each step with the counter that evidences its
 * mechanism, and the run-to-run spread from repeat runs.  The rungs come
 * from ablation.c, which the `ablation` table reads too. */
#include "render/figure_draw.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The rows' names: the rungs' (the description's categories), the total
 * after the ladder when it is drawn. */
static void row_names(const struct figpanel *dp, int nl, int total, char names[9][64])
{
	const size_t n = dp->ncat;
	for (size_t i = 0, r = 0; i < n; i++, r++) {
		if (total && i == (size_t)nl)
			snprintf(names[r++], sizeof(names[0]), "%.63s", dp->total_label);
		snprintf(names[r], sizeof(names[0]), "%.63s", dp->catlabel[i]);
	}
	if (total && nl == (int)n)
		snprintf(names[n], sizeof(names[0]), "%.63s", dp->total_label);
}

/* A step's evidence (its counters before → after, two lines) in the
 * column ev, centred on yc, shrunk rather than overlap the next row. */
static void draw_evidence(struct rctx *c, const struct figcatx *x, struct rbox ev, double yc, double rh, double small)
{
	const char *e1 = x->note[0], *e2 = x->note[1];
	if (!e1[0] && !e2[0])
		return;
	char both[640];
	snprintf(both, sizeof(both), "%s%s%s", e1, e1[0] && e2[0] ? "\n" : "", e2);
	double th;
	text_extent(c, both, small, 0, ev.w, NULL, &th);
	double tsz = small;
	if (th > rh * 0.95) {
		tsz = small * rh * 0.95 / th;
		text_extent(c, both, tsz, 0, ev.w, NULL, &th);
	}
	text_block(c, ev.x, yc - th / 2, ev.w, both, tsz, 0, NULL);
}

/* The log TFLOP/s axis in inner, with room right of the longest bar for
 * its label: the axis grows, then (where the plot is narrow, as in patent
 * lettering) the labels drop the TFLOP/s and keep the speed-ups.  Returns
 * 1 for the brief labels. */
static int fit_axis(struct rctx *c, struct panel *pn, struct rbox inner, double vmin, double vmax, double fs)
{
	double labw[2];
	char t[96];
	snprintf(t, sizeof(t), "%.0f TFLOP/s: ×%.1f in all", vmax, 100.0);
	text_extent(c, t, fs, TX_BOLD, 0, &labw[0], NULL);
	snprintf(t, sizeof(t), "×%.1f in all", 100.0);
	text_extent(c, t, fs, TX_BOLD, 0, &labw[1], NULL);
	int brief = 0;
	for (int tries = 0; ; tries++) {
		double top = vmax * 1.3 * (double)(1 << (tries % 4));
		brief = tries >= 4;
		axis_log(&pn->x, vmin / 1.5, top, 2, 8);
		axis_linear(&pn->y, 0, 1, 1, 1);
		pn->y.nticks = 0;
		snprintf(pn->xlabel, sizeof(pn->xlabel), "TFLOP/s (log: each step's length is its speed-up)");
		panel_layout(c, pn, inner);
		if (panel_x(pn, vmax) + labw[brief] + sz(c, 6) <= pn->plot.x + pn->plot.w || tries == 7)
			break;
	}
	return brief;
}

void fig_ablation(struct rctx *c, const struct rdata *rd, const struct figopts *o, struct rbox box)
{
	struct figdesc d;
	figdesc_init(&d, "ablation");
	if (figdesc_ablation(rd, o, &d)) {
		figdesc_release(&d);
		return;
	}
	const struct figpanel *dp = &d.panel[0];
	const size_t n = dp->ncat;
	char title[200];
	fig_ablation_title(rd, o, title, sizeof(title));
	box = figure_frame(c, box, title, d.cond, o->standalone);
	if (n < 2) {
		draw_notice(c, box, d.notice, d.notice_why);
		figdesc_release(&d);
		return;
	}
	/* A waterfall on a log TFLOP/s axis: flash1's bar, then each step of the
	 * ladder as a floating bar from the rung before to this rung (its length
	 * is the log of the step's speed-up, so the steps add up to the total),
	 * then flash2's bar for the total; the single changes float from
	 * flash1.  Beside each step: its speed-up and the counters that evidence
	 * its mechanism. */
	double fs = c->st->size_chart, small = fs * 0.85;
	double vals[8], lo[8], hi[8];
	int nl = 0;
	for (size_t i = 0; i < n; i++) {
		const struct figpoint *t = figdesc_at(&d, 0, 0, i);
		nl += dp->cat[i];
		vals[i] = t->state == FP_VALUE ? t->v : NAN;
		lo[i] = t->whisker ? t->lo : NAN;
		hi[i] = t->whisker ? t->hi : NAN;
	}
	const int total = dp->total_label[0] != '\0';
	/* rows: the ladder, [the total], [a gap, the single changes] */
	const size_t nrows = n + (total ? 1 : 0);
	char names[9][64];
	row_names(dp, nl, total, names);
	double lw = 0;
	for (size_t r = 0; r < nrows; r++) {
		double w;
		text_extent(c, names[r], fs, 0, 0, &w, NULL);
		lw = fmax(lw, w);
	}
	struct rbox inner = box;
	rbox_cut_left(&inner, lw + sz(c, 8));
	struct rbox ev = inner;
	double evw = inner.w * 0.44;
	ev.x = inner.x + inner.w - evw;
	ev.w = evw;
	inner.w -= evw + sz(c, 6);
	const double vmin = dp->lo, vmax = dp->hi;
	if (d.notice[0]) {
		draw_notice(c, box, d.notice, d.notice_why);
		figdesc_release(&d);
		return;
	}
	struct panel pn;
	memset(&pn, 0, sizeof(pn));
	const int brief = fit_axis(c, &pn, inner, vmin, vmax, fs);
	panel_draw(c, &pn);
	double slots = (double)nrows + (nl < (int)n ? 0.5 : 0);
	double rh = pn.plot.h / slots;
	{
		const char *eh = "evidence for the step (before → after)";
		double ehh;
		text_extent(c, eh, small, TX_BOLD, ev.w, NULL, &ehh);
		text_block(c, ev.x, pn.plot.y - sz(c, 2) - ehh, ev.w, eh, small, TX_BOLD, NULL);
	}
	const struct series_look *lk_base = style_series(c->st, 1), *lk_top = style_series(c->st, 2),
				 *lk_up = style_series(c->st, 4), *lk_down = style_series(c->st, 5);
	double prev_x = NAN, prev_yb = NAN;
	for (size_t r = 0, i = 0; r < nrows; r++) {
		int is_total = total && r == (size_t)nl;
		size_t k = is_total ? (size_t)nl - 1 : i; /* the rung drawn on this row */
		int single = !is_total && !dp->cat[k];
		double y0 = pn.plot.y + ((double)r + (single ? 0.5 : 0)) * rh;
		double y = y0 + rh * 0.2, h = rh * 0.6;
		text_at(c, pn.plot.x - sz(c, 6), y + h / 2, names[r], fs, is_total ? TX_BOLD : 0, 1, 0.5, NULL);
		if (!is_total)
			i++;
		if (single && (k == 0 || dp->cat[k - 1])) {
			set_rgb(c, &c->st->muted);
			draw_line(c, pn.plot.x - lw - sz(c, 6), y0 - rh * 0.25, ev.x + ev.w, y0 - rh * 0.25, c->st->thin, 2);
			text_at(c, ev.x + ev.w, y0 - rh * 0.25 + sz(c, 1), dp->group_label, small, TX_ITALIC, 1, 0, &c->st->muted);
			prev_x = NAN;
		}
		if (!isfinite(vals[k]))
			continue;
		const struct figpoint *pq = figdesc_at(&d, 0, 1, k);
		double pv = !is_total && pq->state == FP_VALUE ? pq->v : NAN;
		int step = isfinite(pv);		double x1 = panel_x(&pn, vals[k]);
		double xa = step ? panel_x(&pn, pv) : pn.plot.x;
		const struct series_look *lk = is_total ? lk_top : !step ? lk_base : vals[k] >= pv ? lk_up : lk_down;
		struct rbox bar = rbox_make(fmin(xa, x1), y, fmax(fabs(x1 - xa), 1.0), h);
		fill_look(c, bar, lk, c->st->thin);
		set_rgb(c, &c->st->ink);
		draw_rect(c, bar, c->st->thin, 0);
		/* the connector from the rung before (dotted) */
		if (step && !single && isfinite(prev_x))
			draw_line(c, prev_x, prev_yb, xa, y, c->st->thin, 2);
		if (!single) {
			prev_x = x1;
			prev_yb = y + h;
		}
		if (single && step) /* flash1's level, where the single change starts */
			draw_line(c, xa, y - rh * 0.1, xa, y + h + rh * 0.1, c->st->thin, 2);
		double xr = fmax(x1, xa);
		if (isfinite(lo[k])) {
			double a = panel_x(&pn, lo[k]), b = panel_x(&pn, hi[k]);
			set_rgb(c, &c->st->ink);
			draw_line(c, a, y + h / 2, b, y + h / 2, c->st->thin, 0);
			draw_line(c, a, y + h * 0.25, a, y + h * 0.75, c->st->thin, 0);
			draw_line(c, b, y + h * 0.25, b, y + h * 0.75, c->st->thin, 0);
			xr = fmax(xr, b);
		}
		char lab[96];
		if (is_total && isfinite(vals[0]) && vals[0] > 0)
			snprintf(lab, sizeof(lab), brief ? "×%.1f in all" : "%.0f TFLOP/s: ×%.1f in all",
				 brief ? vals[k] / vals[0] : vals[k], vals[k] / vals[0]);
		else if (step && brief)
			snprintf(lab, sizeof(lab), "×%.2f", vals[k] / pv);
		else if (step)
			snprintf(lab, sizeof(lab), vals[k] < 10 ? "×%.2f → %.1f" : "×%.2f → %.0f", vals[k] / pv, vals[k]);
		else
			snprintf(lab, sizeof(lab), "%.1f TFLOP/s", vals[k]);
		text_at(c, xr + sz(c, 3), y + h / 2, lab, fs, (step || is_total ? TX_BOLD : 0) | TX_KNOCKOUT, 0, 0.5, NULL);
		if (!is_total) {
			char part[64];
			snprintf(part, sizeof(part), "series:%.56s", d.catx[k].key);
			double xm = (bar.x + bar.x + bar.w) * 0.5;
			draw_numeral(c, part, d.catx[k].key, xm, y + h / 2, xm, y - c->st->size_numeral * 0.2);
			draw_evidence(c, &d.catx[k], ev, y + h / 2, rh, small);
		}
	}
	figdesc_release(&d);
}
