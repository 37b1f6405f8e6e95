/* fig_stalls.c: the warp-state figure (issue 31 item 4).
 *
 * What the warps of each kernel wait on, as Nsight Compute's WarpStateStats
 * section reads it: for every record at the figure's shape that was
 * recorded with the stalls set, one bar of its active warp-cycles
 * (smsp__warps_active) cut into the share stalled for each reason
 * (smsp__warps_issue_stalled_<reason>; "selected" is the share issuing).
 * The reasons that reach the largest shares get their own colour, the rest
 * are one "other" segment.  Rows: the forward records, then the backward
 * ones (unless the options fix a pass), attnprof's series first and the
 * calls captured in a program after them.  Geometry: fig_counters.h.
 */
#include "render/fig_counters.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "render/figure_draw.h"

#define ST_ROWS 16
#define ST_SHOWN 7 /* reasons with a colour of their own; the rest are "other" */

double stall_segments(struct rbox bar, const double *v, size_t n, double full, struct rbox *out)
{
	double sum = 0;
	for (size_t i = 0; i < n; i++) {
		double x = isfinite(v[i]) && v[i] > 0 && full > 0 ? v[i] : 0;
		if (sum + x > full)
			x = full > sum ? full - sum : 0;
		out[i] = rbox_make(bar.x + (full > 0 ? sum / full : 0) * bar.w, bar.y, full > 0 ? x / full * bar.w : 0,
				   bar.h);
		sum += x;
	}
	return sum;
}

struct st_row {
	char label[COUNTER_LABEL];
	double pct[FD_SERIES]; /* per reason (the description's series) */
};

/* The rows from the description: a reason's share per series. */
static size_t stall_rows(const struct figdesc *d, struct st_row *rows)
{
	const struct figpanel *dp = &d->panel[0];
	size_t n = dp->ncat < ST_ROWS ? dp->ncat : ST_ROWS;
	for (size_t i = 0; i < n; i++) {
		snprintf(rows[i].label, sizeof rows[i].label, "%s", dp->catlabel[i]);
		for (size_t k = 0; k < d->nseries; k++)
			rows[i].pct[k] = figdesc_at(d, 0, k, i)->v;
	}
	return n;
}

void fig_stalls(struct rctx *c, const struct rdata *rd, const struct figopts *o, struct rbox box)
{
	const struct rstyle *st = c->st;
	struct st_row rows[ST_ROWS];
	struct figdesc d;
	figdesc_init(&d, "warp-states");
	if (figdesc_stalls(rd, o, &d)) {
		figdesc_release(&d);
		return;
	}
	size_t nr = stall_rows(&d, rows);
	char title[200];
	fig_stalls_title(rd, o, title, sizeof title);
	box = figure_frame_recs(c, rd, box, title, d.used, d.nused, o->standalone);
	if (d.notice[0]) {
		draw_notice(c, box, d.notice, d.notice_why);
		figdesc_release(&d);
		return;
	}
	/* the reasons by their largest share over the rows; the first ST_SHOWN drawn alone */
	const size_t nreason = d.nseries < 32 ? d.nseries : 32;
	size_t order[32];
	double score[32];
	for (size_t k = 0; k < nreason; k++) {
		order[k] = k;
		score[k] = 0;
		for (size_t i = 0; i < nr; i++)
			if (isfinite(rows[i].pct[k]))
				score[k] = fmax(score[k], rows[i].pct[k]);
	}
	for (size_t a = 1; a < nreason; a++) /* stable: ties keep the set's order */
		for (size_t b = a; b > 0 && score[order[b]] > score[order[b - 1]]; b--) {
			size_t t = order[b];
			order[b] = order[b - 1];
			order[b - 1] = t;
		}
	size_t shown = 0;
	while (shown < ST_SHOWN && shown < nreason && score[order[shown]] >= 1)
		shown++;
	int other_any = 0;
	for (size_t k = shown; k < nreason; k++)
		other_any |= score[order[k]] > 0;
	struct legend_entry e[ST_SHOWN + 1];
	const struct series_look other_look = { .fill = st->grid, .line = st->muted, .hatch = HATCH_NONE };
	size_t ne = 0;
	for (size_t k = 0; k < shown; k++, ne++) {
		memset(&e[ne], 0, sizeof e[ne]);
		snprintf(e[ne].label, sizeof e[ne].label, "%.*s", (int)sizeof e[ne].label - 1, d.series[order[k]].label);
		e[ne].look = style_series(st, (int)k);
		e[ne].bar = 1;
	}
	if (other_any) {
		memset(&e[ne], 0, sizeof e[ne]);
		snprintf(e[ne].label, sizeof e[ne].label, "other reasons");
		e[ne].look = &other_look;
		e[ne].bar = 1;
		ne++;
	}
	struct rbox lb = legend_box(c, e, ne, &box);
	legend_draw(c, e, ne, lb.x, lb.y, lb.w);

	/* label column as wide as the widest label; an axis of 0–100 % under the bars */
	const double fs = st->size_chart;
	double label_w = 0, th = 0;
	for (size_t i = 0; i < nr; i++) {
		double w;
		text_extent(c, rows[i].label, fs, 0, 0, &w, &th);
		label_w = fmax(label_w, w);
	}
	label_w = fmin(label_w + sz(c, 6), box.w * 0.35);
	box.h -= th + sz(c, 8); /* the axis and its labels */
	const double pitch = fmin(box.h / (double)nr, sz(c, 26));
	const double bar_x = box.x + label_w, bar_w = box.w - label_w - sz(c, 4);
	for (size_t i = 0; i < nr; i++) {
		struct rbox bar = rbox_make(bar_x, box.y + pitch * (double)i + pitch * 0.18, bar_w, pitch * 0.64);
		text_at(c, box.x, bar.y + bar.h / 2, rows[i].label, fs, 0, 0, 0.5, NULL);
		double v[ST_SHOWN + 1];
		for (size_t k = 0; k < shown; k++)
			v[k] = rows[i].pct[order[k]];
		double rest = 0;
		for (size_t k = shown; k < nreason; k++)
			rest += isfinite(rows[i].pct[order[k]]) ? rows[i].pct[order[k]] : 0;
		v[shown] = rest;
		struct rbox seg[ST_SHOWN + 1];
		stall_segments(bar, v, shown + 1, 100, seg);
		for (size_t k = 0; k < shown + (other_any ? 1 : 0); k++) {
			if (!(seg[k].w > 0))
				continue;
			fill_look(c, seg[k], e[k].look, st->thin);
			/* the mark is the segment's top edge, as a bar's (its share is printed inside) */
			rec_mark(c, seg[k].x, seg[k].y - 0.5, seg[k].x + seg[k].w, seg[k].y + 0.5);
			rec_series(c, legend_key(&e[k]));
			char t[16];
			snprintf(t, sizeof t, "%.0f", v[k]);
			double tw, tth;
			text_extent(c, t, fs * 0.85, 0, 0, &tw, &tth);
			if (tw + sz(c, 3) < seg[k].w && tth + sz(c, 2) < seg[k].h)
				text_at(c, seg[k].x + seg[k].w / 2, seg[k].y + seg[k].h / 2, t, fs * 0.85, TX_KNOCKOUT, 0.5, 0.5, NULL);
		}
	}
	/* the axis: 0, 25, 50, 75, 100 % of the active warp-cycles */
	const double ay = box.y + pitch * (double)nr + sz(c, 2);
	set_rgb(c, &st->ink);
	draw_line(c, bar_x, ay, bar_x + bar_w, ay, st->thin, 0);
	int ax = rec_axis(c);
	for (int t = 0; t <= 4; t++) {
		const double x = bar_x + bar_w * t / 4.0;
		char lab[16];
		snprintf(lab, sizeof lab, "%d %%", t * 25);
		draw_line(c, x, ay, x, ay + sz(c, 3), st->thin, 0);
		text_at(c, x, ay + sz(c, 4), lab, fs, 0, t == 0 ? 0 : t == 4 ? 1 : 0.5, 0, NULL);
		rec_tick(c, ax, 'x', LR_LIN, x, ay, t * 25);
	}
	figdesc_release(&d);
}
