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
#include <stdlib.h>
#include <string.h>

#define DIFF_ROWS 24

struct diff_row {
	const struct record *base, *new_;
	double ratio, lo, hi;
};

/* a record's launch spread, or its median when it has none */
static void spread_of(const struct record *r, double *lo, double *hi)
{
	*lo = usable(r->time_ms_min) ? r->time_ms_min : r->time_ms;
	*hi = usable(r->time_ms_max) ? r->time_ms_max : r->time_ms;
}

static int by_change(const void *a, const void *b)
{
	const struct diff_row *p = a, *q = b;
	double x = fabs(log(p->ratio)), y = fabs(log(q->ratio));
	return x < y ? 1 : x > y ? -1 : 0;
}

static int by_ratio(const void *a, const void *b)
{
	const struct diff_row *p = a, *q = b;
	return p->ratio < q->ratio ? -1 : p->ratio > q->ratio ? 1 : 0;
}

/* Pairs of (older file's record, newer file's drawn record) of one identity;
 * returns how many, the largest changes first when there are more than max. */
static size_t diff_rows(const struct rdata *rd, struct diff_row *out, size_t max, size_t *total)
{
	size_t n = 0, cap = 0;
	struct diff_row *all = NULL;
	char k1[256], k2[256];
	*total = 0;
	for (size_t i = 0; rd->others && i < rd->res->nrecords; i++) {
		const struct record *r = &rd->res->records[i];
		if (r->error || !usable(r->time_ms) || record_captured(r))
			continue;
		record_key(r, k1, sizeof(k1));
		for (size_t j = 0; j < rd->others->nrecords; j++) {
			const struct record *o = &rd->others->records[j];
			if (o->error || !usable(o->time_ms) || rdata_origin(rd, o) == rdata_origin(rd, r))
				continue;
			record_key(o, k2, sizeof(k2));
			if (strcmp(k1, k2))
				continue;
			if (n == cap) {
				cap = cap ? 2 * cap : 64;
				struct diff_row *p = realloc(all, cap * sizeof(*p));
				if (!p)
					break;
				all = p;
			}
			double bl, bh, nl, nh;
			spread_of(o, &bl, &bh);
			spread_of(r, &nl, &nh);
			all[n++] = (struct diff_row){ o, r, r->time_ms / o->time_ms, nl / bh, nh / bl };
			break;
		}
	}
	*total = n;
	if (n > max)
		qsort(all, n, sizeof(*all), by_change);
	size_t m = n < max ? n : max;
	if (m)
		memcpy(out, all, m * sizeof(*out));
	free(all);
	qsort(out, m, sizeof(*out), by_ratio);
	return m;
}

void fig_diff(struct rctx *c, const struct rdata *rd, const struct figopts *o, struct rbox box)
{
	const struct rstyle *st = c->st;
	char title[300], cond[200], lab[DIFF_ROWS][120];
	struct diff_row row[DIFF_ROWS];
	size_t total, n = diff_rows(rd, row, DIFF_ROWS, &total);
	fig_diff_title(rd, o, title, sizeof(title));
	int reg = 0, imp = 0;
	for (size_t i = 0; i < n; i++) {
		reg += row[i].lo > 1;
		imp += row[i].hi < 1;
	}
	snprintf(cond, sizeof(cond), "%zu configurations in two files%s: %d slower and %d faster beyond the spread, "
		 "the rest equal within it", total, total > n ? " (the largest changes drawn)" : "", reg, imp);
	box = figure_frame(c, box, title, cond, o->standalone);
	if (!n) {
		draw_notice(c, box, "no configuration recorded twice",
			    "give report two results files of the same sweep (a base run and a new one)");
		return;
	}
	double fs = sz(c, st->size_chart), labw = 0, lh = 0;
	for (size_t i = 0; i < n; i++) {
		char d[120];
		record_describe(row[i].new_, d, sizeof(d));
		snprintf(lab[i], sizeof(lab[i]), "%s", d);
		double w;
		text_extent(c, lab[i], fs, 0, 0, &w, &lh);
		labw = fmax(labw, w);
	}
	labw = fmin(labw, box.w * 0.5);
	/* a log axis around 1 that holds every whisker */
	double lo = 1, hi = 1;
	for (size_t i = 0; i < n; i++) {
		if (isfinite(row[i].lo) && row[i].lo > 0) lo = fmin(lo, row[i].lo);
		if (isfinite(row[i].hi)) hi = fmax(hi, row[i].hi);
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
		const struct diff_row *d = &row[i];
		text_at(c, x0 - fs * 0.5, y, lab[i], fs, 0, 1, 0.5, NULL);
		const struct rgb *col = d->lo > 1 ? &st->warn : d->hi < 1 ? &st->accent : &st->muted;
		set_rgb(c, col);
		draw_line(c, XPOS(fmax(d->lo, exp(-span))), y, XPOS(fmin(d->hi, exp(span))), y, st->line, 0);
		struct rbox dot = rbox_make(XPOS(d->ratio) - fs * 0.3, y - fs * 0.3, fs * 0.6, fs * 0.6);
		fill_rect(c, dot, col);
		char v[32];
		snprintf(v, sizeof(v), "×%.3f", d->ratio);
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
}
