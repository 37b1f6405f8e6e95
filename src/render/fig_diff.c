/* fig_diff.c: `attnprof diff` as a figure — for every identity that two
 * of the document's results files both recorded, the newer file's median
 * time over the older's, on a log axis around 1, with a whisker from both
 * records' launch spread (new fastest ÷ base slowest to new slowest ÷ base
 * fastest).  A ratio whose whisker stays above 1 is a regression beyond the
 * spread, below 1 an improvement; the rest are equal within the spread —
 * the same verdicts as `attnprof diff`.  Drawn from the records only. */
#include "render/figure_draw.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void fig_diff(struct rctx *c, const struct rdata *rd, const struct figopts *o, struct rbox box)
{
	const struct rstyle *st = c->st;
	char title[300];
	struct figdesc desc;
	figdesc_init(&desc, "diff");
	if (figdesc_diff(rd, o, &desc)) {
		figdesc_release(&desc);
		return;
	}
	const struct figpanel *dp = &desc.panel[0];
	const size_t n = dp->ncat;
	fig_diff_title(rd, o, title, sizeof(title));
	box = figure_frame(c, box, title, desc.cond, o->standalone);
	if (desc.notice[0]) {
		draw_notice(c, box, desc.notice, desc.notice_why);
		figdesc_release(&desc);
		return;
	}
	double fs = sz(c, st->size_chart), labw = 0, lh = 0;
	for (size_t i = 0; i < n; i++) {
		double w;
		text_extent(c, dp->catlabel[i], fs, 0, 0, &w, &lh);
		labw = fmax(labw, w);
	}
	labw = fmin(labw, box.w * 0.5);
	/* a log axis around 1 that holds every whisker */
	double lo = 1, hi = 1;
	for (size_t i = 0; i < n; i++) {
		const struct figpoint *q = figdesc_at(&desc, 0, 0, i);
		if (isfinite(q->lo) && q->lo > 0) lo = fmin(lo, q->lo);
		if (isfinite(q->hi)) hi = fmax(hi, q->hi);
	}
	double span = fmax(log(hi), -log(lo)) * 1.15;
	span = fmax(span, log(1.05));
	double x0 = box.x + labw + fs, x1 = box.x + box.w - fs * 4, axis_h = lh * 2.2;
	double rowh = fmin((box.h - axis_h) / (double)n, fs * 2.0);
#define XPOS(v) (x0 + (x1 - x0) * (log(v) / span + 1) / 2)
	double ybot = box.y + rowh * n;
	set_rgb(c, &st->grid);
	draw_line(c, XPOS(1.0), box.y, XPOS(1.0), ybot, st->line, 0);
	for (size_t i = 0; i < n; i++) {
		double y = box.y + (i + 0.5) * rowh;
		const struct figpoint *d = figdesc_at(&desc, 0, 0, i);
		text_at(c, x0 - fs * 0.5, y, dp->catlabel[i], fs, 0, 1, 0.5, NULL);
		const struct rgb *col = d->lo > 1 ? &st->warn : d->hi < 1 ? &st->accent : &st->muted;
		set_rgb(c, col);
		draw_line(c, XPOS(fmax(d->lo, exp(-span))), y, XPOS(fmin(d->hi, exp(span))), y, st->line, 0);
		struct rbox dot = rbox_make(XPOS(d->v) - fs * 0.3, y - fs * 0.3, fs * 0.6, fs * 0.6);
		fill_rect(c, dot, col);
		char v[32];
		snprintf(v, sizeof(v), "×%.3f", d->v);
		text_at(c, x1 + fs * 0.4, y, v, fs, 0, 0, 0.5, NULL);
	}
	/* ticks: 1 and the span's ends */
	set_rgb(c, &st->ink);
	draw_line(c, x0, ybot, x1, ybot, st->thin, 0);
	const double ticks[] = { exp(-span / 1.15), 1.0, exp(span / 1.15) };
	for (size_t k = 0; k < 3; k++) {
		char t[32];
		snprintf(t, sizeof(t), "×%.2f", ticks[k]);
		draw_line(c, XPOS(ticks[k]), ybot, XPOS(ticks[k]), ybot + fs * 0.3, st->thin, 0);
		text_at(c, XPOS(ticks[k]), ybot + fs * 0.4, t, fs, 0, 0.5, 0, NULL);
	}
	text_at(c, (x0 + x1) / 2, ybot + lh * 1.3, "new time ÷ base time (log; right of 1: slower)", fs, TX_ITALIC, 0.5, 0,
		&st->muted);
#undef XPOS
	figdesc_release(&desc);
}
