/* fig_charts.c: the measured charts — TFLOP/s bars, HBM bytes, peak
 * memory, shared-memory wavefronts, occupancy, roofline, the ablation
 * ladder and prefill-vs-decode.  Every chart: ticks, units, a legend and
 * a conditions caption (figure_frame). */
#include "render/figure.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "metric_sets.h"

#define MAX_SERIES 16
#define MAX_VALS 32
#define MAX_RECS 1024

struct reclist {
	const struct record *r[MAX_RECS];
	size_t n;
};
static void rl_add(struct reclist *l, const struct record *r)
{
	if (r && l->n < MAX_RECS)
		l->r[l->n++] = r;
}

const struct series_look *series_look_of(struct rctx *c, const struct rdata *rd, const char *key)
{
	/* a series keeps its look in every figure of every document: attnprof's
	 * variants by their place in the descriptor table, references (grey,
	 * dashed; the second dark grey, hatched) by the order their records
	 * first appear in the results, never by what else a figure shows */
	int idx = 3;
	if (strchr(key, ':')) {
		char seen[8][SERIES_KEY], k[SERIES_KEY];
		size_t ns = 0;
		for (size_t i = 0; rd && i < rd->res->nrecords && ns < 8; i++) {
			const struct record *r = &rd->res->records[i];
			if (!r->source || !strcmp(r->source, "attnprof") || record_captured(r))
				continue;
			record_series(r, k, sizeof(k));
			size_t j;
			for (j = 0; j < ns && strcmp(seen[j], k); j++)
				;
			if (j < ns)
				continue;
			if (!strcmp(k, key)) {
				idx = ns % 2 ? 8 : 3;
				break;
			}
			snprintf(seen[ns++], SERIES_KEY, "%s", k);
		}
	} else {
		/* the descriptor's slot, else one of the variants' four by table order */
		for (size_t i = 0; i < variant_count; i++)
			if (!strcmp(variant_table[i]->name, key))
				idx = variant_table[i]->color_slot ? variant_table[i]->color_slot - 1 : 4 + (int)(i % 4);
	}
	return style_series(c->st, idx);
}

static void legend_for(struct rctx *c, const struct rdata *rd, char keys[][SERIES_KEY], size_t n, int bar,
		       struct legend_entry *e)
{
	for (size_t i = 0; i < n; i++) {
		memset(&e[i], 0, sizeof(e[i]));
		series_label(keys[i], e[i].label, sizeof(e[i].label));
		e[i].look = series_look_of(c, rd, keys[i]);
		e[i].bar = bar;
		snprintf(e[i].part, sizeof(e[i].part), "series:%s", keys[i]);
	}
}

/* Panels of (d, causal) among prefill records of the series, or the one the options fix. */
static size_t panel_combos(const struct rdata *rd, const struct figopts *o, enum series_filter f,
			   int dv[], int cv[], size_t max)
{
	struct rsel s;
	fig_prefill_sel(rd, o, &s);
	int ds[MAX_VALS], cs[2];
	size_t nd = rdata_values(rd, NULL, &s, RF_D, ds, MAX_VALS), n = 0;
	for (size_t i = 0; i < nd; i++) {
		if (o->sel.d >= 0 && ds[i] != o->sel.d)
			continue;
		s.d = ds[i];
		size_t nc = rdata_values(rd, NULL, &s, RF_CAUSAL, cs, 2);
		for (size_t j = 0; j < nc && n < max; j++) {
			if (o->sel.causal >= 0 && cs[j] != o->sel.causal)
				continue;
			struct rsel t = s;
			t.causal = cs[j];
			char keys[MAX_SERIES][SERIES_KEY];
			if (!rdata_series(rd, &t, f, keys, MAX_SERIES))
				continue;
			dv[n] = ds[i];
			cv[n] = cs[j];
			n++;
		}
	}
	return n;
}

static void panel_title(char *buf, size_t len, int d, int causal)
{
	snprintf(buf, len, "d = %d, %s", d, causal ? "causal" : "non-causal");
}

/* Split box into a legend strip on top and a grid of n panels. */
static void chart_grid(struct rctx *c, struct rbox *box, const struct legend_entry *e, size_t ne,
		       int n, int *rows, int *cols)
{
	struct rbox lb = legend_box(c, e, ne, box);
	legend_draw(c, e, ne, lb.x, lb.y, lb.w);
	grid_shape(n, box->w, box->h, rows, cols);
}

/* ---- TFLOP/s against N --------------------------------------------------- */

void fig_tflops_title(const struct rdata *rd, const struct figopts *o, char *buf, size_t len)
{
	(void)rd;
	const char *p = o->sel.pass ? o->sel.pass : "fwd";
	snprintf(buf, len, "%s speed: TFLOP/s against sequence length, one panel per head dimension and mask",
		 !strcmp(p, "bwd") ? "Backward" : !strcmp(p, "fwd+bwd") ? "Forward + backward" : "Forward");
}

/* The top of a bar's ink: its whisker's fastest launch, else the bar. */
static double bar_label_y(const struct panel *pn, const struct record *r, double v)
{
	double lo, hi;
	return panel_y(pn, value_spread(r, v, 1, &lo, &hi) ? v : fmax(v, hi));
}

void fig_tflops(struct rctx *c, const struct rdata *rd, const struct figopts *o, struct rbox box)
{
	int dv[16], cv[16];
	size_t np = panel_combos(rd, o, SERIES_MAIN, dv, cv, 16);
	struct rsel all;
	fig_prefill_sel(rd, o, &all);
	char keys[MAX_SERIES][SERIES_KEY];
	size_t ns = rdata_series(rd, &all, SERIES_MAIN, keys, MAX_SERIES);
	static struct reclist used;
	used.n = 0;
	for (size_t i = 0; i < rd->res->nrecords; i++) {
		const struct record *r = &rd->res->records[i];
		char k[SERIES_KEY];
		record_series(r, k, sizeof(k));
		for (size_t s = 0; s < ns; s++)
			if (!strcmp(k, keys[s]) && rsel_match(&all, r) && (o->sel.d < 0 || r->head_dim == o->sel.d))
				rl_add(&used, r);
	}
	char cond[512], title[160];
	rdata_conditions(rd, used.r, used.n, cond, sizeof(cond));
	fig_tflops_title(rd, o, title, sizeof(title));
	box = figure_frame(c, box, title, cond, o->standalone);
	if (!np || !ns) {
		draw_notice(c, box, "no prefill records", "the results hold no prefill timings to chart");
		return;
	}
	struct legend_entry e[MAX_SERIES];
	legend_for(c, rd, keys, ns, 1, e);
	int rows, cols;
	chart_grid(c, &box, e, ns, (int)np, &rows, &cols);
	for (size_t p = 0; p < np; p++) {
		struct panel pn;
		memset(&pn, 0, sizeof(pn));
		struct rsel s = all;
		s.d = dv[p];
		s.causal = cv[p];
		int nv[MAX_VALS];
		size_t nn = rdata_values(rd, NULL, &s, RF_N, nv, MAX_VALS);
		if (nn > PANEL_MAX_CATS) nn = PANEL_MAX_CATS;
		double ymax = 0;
		for (size_t i = 0; i < nn; i++) {
			s.n = nv[i];
			for (size_t k = 0; k < ns; k++) {
				const struct record *r = rdata_find(rd, keys[k], &s);
				double v;
				enum qunit u;
				char why[160];
				if (r && !rdata_quantity(rd, r, "tflops", NULL, &v, &u, why, sizeof(why)) && on_scale(v) && v > ymax)
					ymax = v;
			}
			fmt_seqlen(nv[i], pn.cats[i], sizeof(pn.cats[i]));
			pn.cat_value[i] = nv[i];
		}
		s.n = -1;
		pn.ncat = (int)nn;
		/* room over the tallest bar for its whisker and its value */
		axis_linear(&pn.y, 0, ymax > 0 ? ymax * 1.16 : 1, c->st->slides ? 4 : 5, 1);
		panel_title(pn.title, sizeof(pn.title), dv[p], cv[p]);
		snprintf(pn.xlabel, sizeof(pn.xlabel), "sequence length N");
		snprintf(pn.ylabel, sizeof(pn.ylabel), "TFLOP/s");
		struct rbox cell = rbox_grid_cell(box, rows, cols, (int)p / cols, (int)p % cols, sz(c, 10), sz(c, 8));
		panel_layout(c, &pn, cell);
		/* values on the bars, as the FA papers print them: across the bar
		 * where "888" fits its width, else turned upright over it (then
		 * the axis leaves room above the tallest bar for the label) */
		double lw, lh, bx, bw;
		double vfs = c->st->size_chart * 0.8;
		text_extent(c, "888", vfs, 0, 0, &lw, &lh);
		bar_slot(pn.plot.x, pn.plot.x + pn.plot.w, (int)nn, 0, (int)ns, 0, 0.82, &bx, &bw);
		int upright = bw < lw * 1.05 && bw >= lh * 0.9;
		if (upright && ymax > 0) {
			double room = (lw + sz(c, 3)) / fmax(pn.plot.h, 1) * ymax;
			axis_linear(&pn.y, 0, ymax * 1.12 + room, c->st->slides ? 4 : 5, 1);
			panel_layout(c, &pn, cell);
		}
		int labels = nn && (upright || bw >= lw * 1.05);
		panel_draw(c, &pn);
		double bottom = pn.plot.y + pn.plot.h;
		for (size_t i = 0; i < nn; i++) {
			s.n = nv[i];
			for (size_t k = 0; k < ns; k++) {
				const struct record *r = rdata_find(rd, keys[k], &s);
				double v;
				enum qunit u;
				char why[160];
				bar_slot(pn.plot.x, pn.plot.x + pn.plot.w, (int)nn, (int)i, (int)ns, (int)k, 0.82, &bx, &bw);
				if (!r)
					continue;
				if (rdata_quantity(rd, r, "tflops", NULL, &v, &u, why, sizeof(why))) {
					/* a failed or missing run is marked, not left as a silent gap */
					text_at(c, bx + bw / 2, bottom - sz(c, 2), "×", c->st->size_chart, 0, 0.5, 1,
						&c->st->warn);
					continue;
				}
				double y = panel_y(&pn, v), lo, hi;
				fill_look(c, rbox_make(bx, y, bw, bottom - y), e[k].look, c->st->thin);
				rec_mark(c, bx, y - 0.5, bx + bw, y + 0.5);
				rec_series(c, legend_key(&e[k]));
				if (!value_spread(r, v, 1, &lo, &hi)) {
					/* the launches' spread: TFLOP/s at the slowest and the fastest launch */
					cairo_save(c->cr);
					set_rgb(c, &c->st->ink);
					draw_whisker(c, bx + bw / 2, panel_y(&pn, lo), panel_y(&pn, hi), fmin(bw * 0.6, sz(c, 4)));
					cairo_restore(c->cr);
				}
				if (!r->checked || r->correct)
					continue;
				text_at(c, bx + bw / 2, bar_label_y(&pn, r, v) - sz(c, 1), "!", c->st->size_chart, TX_BOLD, 0.5, 1,
					&c->st->warn);
			}
		}
		for (size_t i = 0; labels && i < nn; i++) {
			s.n = nv[i];
			for (size_t k = 0; k < ns; k++) {
				const struct record *r = rdata_find(rd, keys[k], &s);
				double v;
				enum qunit u;
				char why[160], t[16];
				if (!r || rdata_quantity(rd, r, "tflops", NULL, &v, &u, why, sizeof(why)) || !on_scale(v))
					continue;
				bar_slot(pn.plot.x, pn.plot.x + pn.plot.w, (int)nn, (int)i, (int)ns, (int)k, 0.82, &bx, &bw);
				snprintf(t, sizeof(t), "%.0f", v);
				/* over the bar and its whisker (and its "!" when wrong) */
				double ly = bar_label_y(&pn, r, v) - sz(c, 1);
				if (r->checked && !r->correct) {
					double th;
					text_extent(c, "!", c->st->size_chart, TX_BOLD, 0, NULL, &th);
					ly -= th;
				}
				if (!upright) {
					text_at(c, bx + bw / 2, ly, t, vfs, TX_KNOCKOUT, 0.5, 1, NULL);
					continue;
				}
				cairo_save(c->cr);
				cairo_translate(c->cr, bx + bw / 2, ly);
				cairo_rotate(c->cr, -M_PI / 2);
				text_at(c, 0, 0, t, vfs, TX_KNOCKOUT, 0, 0.5, NULL);
				cairo_restore(c->cr);
			}
		}
	}
}

/* ---- lines over N (HBM bytes, peak memory) --------------------------------- */

typedef int (*getter)(const struct rdata *rd, const struct record *r, double *v);

static int get_hbm(const struct rdata *rd, const struct record *r, double *v)
{
	(void)rd;
	double b = r->error ? -1 : record_hbm_bytes(r);
	*v = b;
	return b > 0 ? 0 : 1;
}
static int get_hbm_model(const struct rdata *rd, const struct record *r, double *v)
{
	(void)rd;
	const double *m = kvlist_get(&r->model, "hbm_bytes_min");
	*v = m ? *m : NAN;
	return m && usable(*m) ? 0 : 1;
}
static int get_peak(const struct rdata *rd, const struct record *r, double *v)
{
	(void)rd;
	*v = (double)r->peak_bytes;
	return r->peak_bytes && !r->error ? 0 : 1;
}
static int get_footprint(const struct rdata *rd, const struct record *r, double *v)
{
	enum qunit u;
	char why[160];
	return rdata_quantity(rd, r, "footprint", NULL, v, &u, why, sizeof(why)) ? 1 : 0;
}
static int get_time_us(const struct rdata *rd, const struct record *r, double *v)
{
	(void)rd;
	*v = r->time_ms * 1000;
	return usable(r->time_ms) && !r->error ? 0 : 1;
}
static int get_bandwidth(const struct rdata *rd, const struct record *r, double *v)
{
	double b = record_hbm_bytes(r);
	if (!(b > 0))
		get_hbm_model(rd, r, &b);
	if (!usable(b) || !usable(r->time_ms) || r->error)
		return 1;
	*v = b / (r->time_ms * 1e-3) / 1e9;
	return 0;
}

struct lines_spec {
	enum series_filter filter;
	getter measured, model;   /* model may be NULL */
	enum tick_fmt yfmt;
	int ylog;                 /* 2 or 10; 0 linear */
	const char *ylabel, *xlabel, *model_label, *missing_what, *missing_why;
	double hline;             /* > 0: a horizontal reference line (e.g. peak bandwidth) */
	const char *hline_label;
	int spread;               /* the launches' spread as whiskers: 1 for a value per time, 2 for a time */
};

/* Where a reference line's label goes: under or over the line, at its right
 * or left end, the first place whose box holds no plotted point. */
static struct rbox hline_label_place(struct rctx *c, const struct rdata *rd, const struct panel *pn, struct rsel s,
				     char keys[][SERIES_KEY], size_t ns, const struct lines_spec *ls, double y)
{
	double w, h, fs = c->st->size_chart * 0.9, pad = sz(c, 2), mr = sz(c, 4);
	text_extent(c, ls->hline_label, fs, 0, 0, &w, &h);
	int nv[MAX_VALS];
	s.n = -1; /* every N of the panel */
	size_t nn = rdata_values(rd, NULL, &s, RF_N, nv, MAX_VALS);
	struct rbox at[4] = {
		rbox_make(pn->plot.x + pn->plot.w - pad - w, y + pad, w, h),
		rbox_make(pn->plot.x + pn->plot.w - pad - w, y - pad - h, w, h),
		rbox_make(pn->plot.x + pad, y - pad - h, w, h),
		rbox_make(pn->plot.x + pad, y + pad, w, h),
	};
	for (int a = 0; a < 4; a++) {
		int clear = 1;
		for (size_t k = 0; k < ns && clear; k++)
			for (size_t i = 0; i < nn && clear; i++) {
				s.n = nv[i];
				const struct record *r = rdata_find(rd, keys[k], &s);
				double v;
				if (!r || ls->measured(rd, r, &v) || !on_scale(v))
					continue;
				double px = panel_x(pn, nv[i]), py0 = panel_y(pn, v), py1 = py0, slow, fast;
				if (ls->spread && !value_spread(r, v, ls->spread == 1, &slow, &fast)) {
					py0 = fmin(py0, fmin(panel_y(pn, slow), panel_y(pn, fast)));
					py1 = fmax(py1, fmax(panel_y(pn, slow), panel_y(pn, fast)));
				}
				clear = px + mr < at[a].x || px - mr > at[a].x + at[a].w || py1 + mr < at[a].y ||
					py0 - mr > at[a].y + at[a].h;
			}
		if (clear)
			return at[a];
	}
	return at[0];
}

static void draw_lines_panel(struct rctx *c, const struct rdata *rd, struct panel *pn, struct rsel s,
			     char keys[][SERIES_KEY], size_t ns, const struct legend_entry *e,
			     const struct lines_spec *ls, struct rbox cell, struct reclist *used, int *drawn)
{
	int nv[MAX_VALS];
	size_t nn = rdata_values(rd, NULL, &s, RF_N, nv, MAX_VALS);
	double lo = 1e300, hi = 0;
	for (size_t k = 0; k < ns; k++)
		for (size_t i = 0; i < nn; i++) {
			s.n = nv[i];
			const struct record *r = rdata_find(rd, keys[k], &s);
			double v;
			if (!r)
				continue;
			if (!ls->measured(rd, r, &v) && on_scale(v)) {
				lo = fmin(lo, v); hi = fmax(hi, v);
				rl_add(used, r);
			}
			if (ls->model && !ls->model(rd, r, &v) && on_scale(v)) {
				lo = fmin(lo, v); hi = fmax(hi, v);
			}
		}
	s.n = -1;
	if (ls->hline > 0) {
		lo = fmin(lo, ls->hline);
		hi = fmax(hi, ls->hline);
	}
	if (!nn)
		return;
	axis_log(&pn->x, nv[0], nv[nn - 1], 2, c->st->slides ? 6 : 8);
	pn->xfmt = TICK_SEQLEN;
	if (hi <= 0) {
		/* nothing measured: an empty frame with the notice */
		axis_linear(&pn->y, 0, 1, 4, 1);
		panel_layout(c, pn, cell);
		draw_notice(c, pn->plot, ls->missing_what, ls->missing_why);
		return;
	}
	if (ls->ylog) /* padded: no point sits on the frame */
		axis_log(&pn->y, lo / 1.25, hi * 1.25, ls->ylog, c->st->slides ? 5 : 7);
	else
		axis_linear(&pn->y, 0, hi * 1.08, 5, 1);
	pn->yfmt = ls->yfmt;
	panel_layout(c, pn, cell);
	panel_draw(c, pn);
	*drawn = 1;
	cairo_t *cr = c->cr;
	for (size_t k = 0; k < ns; k++) {
		/* model line: thin, dotted, in the series' line colour */
		if (ls->model) {
			int started = 0;
			cairo_save(cr);
			set_rgb(c, &e[k].look->line);
			cairo_set_line_width(cr, c->st->thin);
			double d[2] = { 1.2, 2.2 };
			cairo_set_dash(cr, d, 2, 0);
			for (size_t i = 0; i < nn; i++) {
				s.n = nv[i];
				const struct record *r = rdata_find(rd, keys[k], &s);
				double v;
				if (!r || ls->model(rd, r, &v))
					continue;
				double x = panel_x(pn, nv[i]), y = panel_y(pn, v);
				if (started) cairo_line_to(cr, x, y); else cairo_move_to(cr, x, y);
				started = 1;
			}
			if (started)
				rec_series(c, ls->model_label);
			stroke(c);
			cairo_restore(cr);
		}
		int started = 0;
		cairo_save(cr);
		set_rgb(c, &e[k].look->line);
		cairo_set_line_width(cr, c->st->line);
		if (e[k].look->dash > 0) {
			double d[2] = { e[k].look->dash, e[k].look->dash * 0.6 + 1 };
			cairo_set_dash(cr, d, 2, 0);
		}
		for (size_t i = 0; i < nn; i++) {
			s.n = nv[i];
			const struct record *r = rdata_find(rd, keys[k], &s);
			double v;
			if (!r || ls->measured(rd, r, &v) || !on_scale(v)) {
				started = 0; /* a gap in the data (or off scale) is a gap in the line */
				continue;
			}
			double x = panel_x(pn, nv[i]), y = panel_y(pn, v);
			if (started) cairo_line_to(cr, x, y); else cairo_move_to(cr, x, y);
			started = 1;
		}
		stroke(c);
		cairo_restore(cr);
		for (size_t i = 0; i < nn; i++) {
			s.n = nv[i];
			const struct record *r = rdata_find(rd, keys[k], &s);
			double v;
			double slow, fast;
			if (!r || ls->measured(rd, r, &v) || !on_scale(v))
				continue;
			double x = panel_x(pn, nv[i]);
			if (ls->spread && !value_spread(r, v, ls->spread == 1, &slow, &fast) && on_scale(slow) && on_scale(fast)) {
				cairo_save(cr);
				set_rgb(c, &e[k].look->line);
				draw_whisker(c, x, panel_y(pn, slow), panel_y(pn, fast), sz(c, 4));
				cairo_restore(cr);
			}
			plot_point(c, x, panel_y(pn, v), e[k].look->marker, sz(c, 5), e[k].look, legend_key(&e[k]));
		}
	}
	if (ls->hline > 0) {
		double y = panel_y(pn, ls->hline);
		cairo_save(cr);
		set_rgb(c, &c->st->ink);
		draw_line(c, pn->plot.x, y, pn->plot.x + pn->plot.w, y, c->st->thin, 3);
		cairo_restore(cr);
		/* at a corner of the line where no point is: a label over a point hides it */
		struct rbox lb = hline_label_place(c, rd, pn, s, keys, ns, ls, y);
		text_at(c, lb.x, lb.y, ls->hline_label, c->st->size_chart * 0.9, TX_KNOCKOUT, 0, 0, NULL);
	}
}

static void lines_figure(struct rctx *c, const struct rdata *rd, const struct figopts *o, struct rbox box,
			 const struct lines_spec *ls, const char *title)
{
	int dv[16], cv[16];
	size_t np;
	struct rsel base;
	rsel_any(&base);
	if (ls->filter == SERIES_DECODE) {
		base.phase = "decode";
		np = 1;
		dv[0] = o->sel.d;
		cv[0] = o->sel.causal;
	} else {
		fig_prefill_sel(rd, o, &base);
		np = panel_combos(rd, o, ls->filter, dv, cv, 16);
	}
	base.pass = o->sel.pass;
	if (o->sel.batch >= 0) base.batch = o->sel.batch;
	char keys[MAX_SERIES][SERIES_KEY];
	size_t ns = rdata_series(rd, &base, ls->filter, keys, MAX_SERIES);
	struct legend_entry e[MAX_SERIES + 1];
	size_t ne;
	/* captions need the record list before drawing: a dry pass through the data */
	static struct reclist used;
	used.n = 0;
	for (size_t i = 0; i < rd->res->nrecords; i++) {
		const struct record *r = &rd->res->records[i];
		char k[SERIES_KEY];
		double v;
		if (!rsel_match(&base, r))
			continue;
		record_series(r, k, sizeof(k));
		for (size_t s = 0; s < ns; s++)
			if (!strcmp(keys[s], k) && (o->sel.d < 0 || ls->filter == SERIES_DECODE || r->head_dim == o->sel.d) &&
			    !ls->measured(rd, r, &v))
				rl_add(&used, r);
	}
	/* the legend names only the series with a value to draw (SDPA has no
	 * HBM counters: no entry for it in the HBM chart) */
	size_t kept = 0;
	for (size_t k = 0; k < ns; k++) {
		int drawn = 0;
		char rk[SERIES_KEY];
		for (size_t i = 0; i < used.n && !drawn; i++)
			drawn = !strcmp(record_series(used.r[i], rk, sizeof(rk)), keys[k]);
		if (drawn && kept != k)
			memcpy(keys[kept], keys[k], SERIES_KEY);
		kept += drawn;
	}
	ns = kept;
	legend_for(c, rd, keys, ns, 0, e);
	ne = ns;
	/* the model's legend entry only where a record has a model value to draw */
	int any_model = 0;
	for (size_t i = 0; ls->model && i < used.n && !any_model; i++) {
		double mv;
		any_model = !ls->model(rd, used.r[i], &mv);
	}
	if (any_model && ne < MAX_SERIES + 1) {
		static const struct series_look model_look = { { 0, 0, 0 }, { 0.3, 0.3, 0.3 }, HATCH_NONE, 1.2, 4 };
		memset(&e[ne], 0, sizeof(e[ne]));
		snprintf(e[ne].label, sizeof(e[ne].label), "%s", ls->model_label);
		e[ne].look = &model_look;
		ne++;
	}
	char cond[512];
	rdata_conditions(rd, used.r, used.n, cond, sizeof(cond));
	box = figure_frame(c, box, title, cond, o->standalone);
	if (!np || !ns) {
		draw_notice(c, box, ls->filter == SERIES_DECODE ? "no decode records" : "no records",
			    "nothing in the results to chart here");
		return;
	}
	int rows, cols;
	chart_grid(c, &box, e, ne, (int)np, &rows, &cols);
	struct reclist scratch;
	for (size_t p = 0; p < np; p++) {
		struct panel pn;
		memset(&pn, 0, sizeof(pn));
		struct rsel s = base;
		s.d = dv[p];
		s.causal = cv[p];
		if (ls->filter != SERIES_DECODE)
			panel_title(pn.title, sizeof(pn.title), dv[p], cv[p]);
		snprintf(pn.xlabel, sizeof(pn.xlabel), "%s", ls->xlabel);
		snprintf(pn.ylabel, sizeof(pn.ylabel), "%s", ls->ylabel);
		struct rbox cell = rbox_grid_cell(box, rows, cols, (int)p / cols, (int)p % cols, sz(c, 10), sz(c, 8));
		int drawn = 0;
		scratch.n = 0;
		draw_lines_panel(c, rd, &pn, s, keys, ns, e, ls, cell, &scratch, &drawn);
	}
}

void fig_hbm_title(const struct rdata *rd, const struct figopts *o, char *buf, size_t len)
{
	(void)rd; (void)o;
	snprintf(buf, len, "HBM traffic against sequence length: measured DRAM bytes (read + write) and the model's minimum");
}

void fig_hbm(struct rctx *c, const struct rdata *rd, const struct figopts *o, struct rbox box)
{
	char title[160];
	fig_hbm_title(rd, o, title, sizeof(title));
	struct lines_spec ls = {
		.filter = SERIES_MAIN, .measured = get_hbm, .model = get_hbm_model, .yfmt = TICK_BYTES, .ylog = 2,
		.ylabel = "HBM bytes (log)", .xlabel = "sequence length N (log)", .model_label = "model minimum (dotted)",
		.missing_what = "no HBM byte counts",
		.missing_why = "recorded without hardware counters: re-run 'attnprof record' with metrics: default",
	};
	lines_figure(c, rd, o, box, &ls, title);
}

void fig_memory_title(const struct rdata *rd, const struct figopts *o, char *buf, size_t len)
{
	(void)rd;
	const char *p = o->sel.pass ? o->sel.pass : "fwd";
	snprintf(buf, len, "Peak device memory against sequence length, with each descriptor's buffers%s",
		 !strcmp(p, "bwd") ? " (backward)" : !strcmp(p, "fwd+bwd") ? " (forward + backward)" : "");
}

void fig_memory(struct rctx *c, const struct rdata *rd, const struct figopts *o, struct rbox box)
{
	char title[160];
	fig_memory_title(rd, o, title, sizeof(title));
	struct lines_spec ls = {
		.filter = SERIES_MAIN, .measured = get_peak, .model = get_footprint, .yfmt = TICK_BYTES, .ylog = 2,
		.ylabel = "peak memory (log)", .xlabel = "sequence length N (log)",
		.model_label = "descriptor buffers (dotted)",
		.missing_what = "no peak memory", .missing_why = "the records carry no memory.peak_bytes",
	};
	lines_figure(c, rd, o, box, &ls, title);
}

void fig_decode_title(const struct rdata *rd, const struct figopts *o, char *buf, size_t len)
{
	struct rsel s;
	fig_decode_sel(rd, o, &s);
	if (s.batch >= 0)
		snprintf(buf, len, "Decode: time and achieved HBM bandwidth against KV-cache length (batch %d)", s.batch);
	else
		snprintf(buf, len, "Decode: time and achieved HBM bandwidth against KV-cache length");
}

void fig_decode(struct rctx *c, const struct rdata *rd, const struct figopts *o, struct rbox box)
{
	char title[160];
	fig_decode_title(rd, o, title, sizeof(title));
	struct rsel base;
	fig_decode_sel(rd, o, &base);
	char keys[MAX_SERIES][SERIES_KEY];
	size_t ns = rdata_series(rd, &base, SERIES_DECODE, keys, MAX_SERIES);
	static struct reclist used;
	used.n = 0;
	for (size_t i = 0; i < rd->res->nrecords; i++)
		if (rsel_match(&base, &rd->res->records[i]))
			rl_add(&used, &rd->res->records[i]);
	char cond[512];
	rdata_conditions(rd, used.r, used.n, cond, sizeof(cond));
	box = figure_frame(c, box, title, cond, o->standalone);
	if (!ns) {
		draw_notice(c, box, "no decode records", "record a spec with phase: decode (experiments/decode.yaml)");
		return;
	}
	struct legend_entry e[MAX_SERIES];
	legend_for(c, rd, keys, ns, 0, e);
	int rows = 1, cols = 2;
	struct rbox lb = legend_box(c, e, ns, &box);
	legend_draw(c, e, ns, lb.x, lb.y, lb.w);
	const struct gpu_info *g = &rd->res->header.gpu;
	double peak = g->copy_gbs > 0 ? g->copy_gbs : g->peak_hbm_gbs;
	char hl[64];
	snprintf(hl, sizeof(hl), "%s %.0f GB/s", g->copy_gbs > 0 ? "measured copy" : "HBM peak", peak);
	struct lines_spec t = {
		.filter = SERIES_DECODE, .measured = get_time_us, .yfmt = TICK_NUM, .ylog = 10,
		.ylabel = "time (µs, log)", .xlabel = "KV-cache length (log)",
		.missing_what = "no decode timings", .missing_why = "", .spread = 2,
	};
	struct lines_spec b = t;
	b.measured = get_bandwidth;
	b.spread = 1;
	b.ylog = 0;
	b.ylabel = "HBM GB/s (measured, else model bytes)";
	b.hline = peak;
	b.hline_label = hl;
	struct reclist scratch;
	for (int p = 0; p < 2; p++) {
		struct panel pn;
		memset(&pn, 0, sizeof(pn));
		snprintf(pn.title, sizeof(pn.title), "%s", p ? "achieved bandwidth" : "time per decode step");
		snprintf(pn.xlabel, sizeof(pn.xlabel), "KV-cache length (log)");
		snprintf(pn.ylabel, sizeof(pn.ylabel), "%s", p ? "HBM GB/s" : "time (µs, log)");
		struct rbox cell = rbox_grid_cell(box, rows, cols, 0, p, sz(c, 14), 0);
		int drawn = 0;
		scratch.n = 0;
		draw_lines_panel(c, rd, &pn, base, keys, ns, e, p ? &b : &t, cell, &scratch, &drawn);
	}
}

/* ---- per-variant bars at the focus (smem, occupancy, ablation) -------------- */

static size_t focus_records(const struct rdata *rd, const struct figopts *o, enum series_filter f,
			    char keys[][SERIES_KEY], const struct record **recs, struct rsel *s)
{
	fig_sel(rd, o, s);
	char k[MAX_SERIES][SERIES_KEY];
	size_t n = rdata_series(rd, s, f, k, MAX_SERIES), m = 0;
	for (size_t i = 0; i < n; i++) {
		const struct record *r = rdata_find(rd, k[i], s);
		if (!r)
			continue;
		memcpy(keys[m], k[i], SERIES_KEY);
		recs[m++] = r;
	}
	return m;
}

void fig_smem_title(const struct rdata *rd, const struct figopts *o, char *buf, size_t len)
{
	struct rsel s;
	char d[96];
	fig_sel(rd, o, &s);
	snprintf(buf, len, "Shared-memory wavefronts and bank conflicts per variant (%s)", rsel_describe(&s, d, sizeof(d)));
}

static void category_bars(struct rctx *c, const struct rdata *rd, const struct figopts *o, struct rbox box,
			  const char *title, enum series_filter f, const char *const *qs, const char *const *qlabels,
			  size_t nq, int ylog, enum tick_fmt yfmt, const char *ylabel, double ymax_fixed)
{
	char keys[MAX_SERIES][SERIES_KEY];
	const struct record *recs[MAX_SERIES];
	struct rsel s;
	size_t nr = focus_records(rd, o, f, keys, recs, &s);
	char cond[512];
	rdata_conditions(rd, recs, nr, cond, sizeof(cond));
	box = figure_frame(c, box, title, cond, o->standalone);
	struct legend_entry e[8];
	for (size_t q = 0; q < nq; q++) {
		memset(&e[q], 0, sizeof(e[q]));
		snprintf(e[q].label, sizeof(e[q].label), "%s", qlabels[q]);
		e[q].look = style_series(c->st, (int)(q == 0 ? 0 : q == 1 ? 2 : q == 2 ? 1 : 4));
		e[q].bar = 1;
		snprintf(e[q].part, sizeof(e[q].part), "bar:%s", qs[q]);
	}
	struct rbox lb = legend_box(c, e, nq, &box);
	double vals[MAX_SERIES][8];
	double lo = 1e300, hi = 0;
	char why[200] = "";
	int any = 0;
	for (size_t i = 0; i < nr; i++)
		for (size_t q = 0; q < nq; q++) {
			enum qunit u;
			vals[i][q] = NAN;
			if (!rdata_quantity(rd, recs[i], qs[q], NULL, &vals[i][q], &u, why, sizeof(why)) && on_scale(vals[i][q])) {
				any = 1;
				if (vals[i][q] > 0) lo = fmin(lo, vals[i][q]);
				hi = fmax(hi, vals[i][q]);
			} else {
				vals[i][q] = NAN;
			}
		}
	if (!nr || !any) {
		char w2[400];
		snprintf(w2, sizeof(w2), "%s%s%s", nr ? why : "no records at these conditions",
			 nr ? ": " : "", nr ? "re-run 'attnprof record' with metrics: default on a GPU whose counters are readable" : "");
		draw_notice(c, box, "no hardware counters for this chart", w2);
		return;
	}
	legend_draw(c, e, nq, lb.x, lb.y, lb.w);
	struct panel pn;
	memset(&pn, 0, sizeof(pn));
	pn.ncat = (int)nr;
	for (size_t i = 0; i < nr; i++)
		series_label(keys[i], pn.cats[i], sizeof(pn.cats[i]));
	if (ylog)
		axis_log(&pn.y, lo > 0 && lo < 1e300 ? lo : 1, hi > 0 ? hi : 10, 10, 8);
	else
		axis_linear(&pn.y, 0, ymax_fixed > 0 ? ymax_fixed : hi * 1.1, 5, 1);
	pn.yfmt = yfmt;
	snprintf(pn.ylabel, sizeof(pn.ylabel), "%s", ylabel);
	/* long variant names: smaller category labels rather than overlap */
	panel_layout(c, &pn, box);
	panel_draw(c, &pn);
	double bottom = pn.plot.y + pn.plot.h;
	for (size_t i = 0; i < nr; i++)
		for (size_t q = 0; q < nq; q++) {
			double bx, bw;
			bar_slot(pn.plot.x, pn.plot.x + pn.plot.w, (int)nr, (int)i, (int)nq, (int)q, 0.8, &bx, &bw);
			if (!isfinite(vals[i][q])) {
				text_at(c, bx + bw / 2, bottom - sz(c, 2), "n/a", c->st->size_chart * 0.75, 0, 0.5, 1, &c->st->muted);
				continue;
			}
			if (ylog && !(vals[i][q] > 0)) {
				/* a zero has no place on a log axis: marked "0" at the foot of its slot */
				text_at(c, bx + bw / 2, bottom - sz(c, 1.5), "0", c->st->size_chart * 0.9, TX_BOLD, 0.5, 1, NULL);
				continue;
			}
			double y = panel_y(&pn, vals[i][q] > 0 ? vals[i][q] : pn.y.lo);
			fill_look(c, rbox_make(bx, y, bw, bottom - y), e[q].look, c->st->thin);
			rec_mark(c, bx, y - 0.5, bx + bw, y + 0.5);
			rec_series(c, legend_key(&e[q]));
			if (i == 0 && c->num)
				draw_numeral(c, e[q].part, e[q].label, bx + bw / 2, y + (bottom - y) / 2, bx + bw / 2,
					     y - c->st->size_numeral);
		}
}

void fig_smem(struct rctx *c, const struct rdata *rd, const struct figopts *o, struct rbox box)
{
	static const char *const qs[] = { "smem_ld_wavefronts", "smem_st_wavefronts", "smem_ld_conflicts", "smem_st_conflicts" };
	static const char *const ql[] = { "load wavefronts", "store wavefronts", "load bank conflicts", "store bank conflicts" };
	char title[200];
	fig_smem_title(rd, o, title, sizeof(title));
	category_bars(c, rd, o, box, title, SERIES_LADDER, qs, ql, 4, 1, TICK_COUNT, "count (log)", 0);
}

void fig_occupancy_title(const struct rdata *rd, const struct figopts *o, char *buf, size_t len)
{
	struct rsel s;
	char d[96];
	fig_sel(rd, o, &s);
	snprintf(buf, len, "Achieved against theoretical occupancy of the longest kernel (%s)", rsel_describe(&s, d, sizeof(d)));
}

void fig_occupancy(struct rctx *c, const struct rdata *rd, const struct figopts *o, struct rbox box)
{
	static const char *const qs[] = { "occupancy_theoretical", "occupancy" };
	static const char *const ql[] = { "theoretical (occupancy API)", "achieved (sm__warps_active)" };
	char title[200];
	fig_occupancy_title(rd, o, title, sizeof(title));
	category_bars(c, rd, o, box, title, SERIES_LADDER, qs, ql, 2, 0, TICK_PCT, "warps active / maximum", 100);
}

/* ---- roofline ------------------------------------------------------------------ */

void fig_roofline_title(const struct rdata *rd, const struct figopts *o, char *buf, size_t len)
{
	(void)o;
	snprintf(buf, len, "Roofline of the %s from its measured ceilings", rd->res->header.gpu.name ? rd->res->header.gpu.name : "GPU");
}

/* Intensity (measured, else from the model's minimum bytes) and TFLOP/s of a record: 0, or 1 when not drawn. */
static int roof_point(const struct rdata *rd, const struct record *r, double *x, double *y)
{
	enum qunit u;
	char why[160];
	if (rdata_quantity(rd, r, "tflops", NULL, y, &u, why, sizeof(why)))
		return 1;
	if (!rdata_quantity(rd, r, "intensity", NULL, x, &u, why, sizeof(why)))
		return 0;
	double f, m;
	if (get_hbm_model(rd, r, &m) || rdata_quantity(rd, r, "flops", NULL, &f, &u, why, sizeof(why)))
		return 1;
	*x = f / m;
	return 0;
}

static struct reclist roof_used;

/* 1 when a plotted point of the roofline lies in (or within a marker of) box b. */
static int roof_points_under(struct rctx *c, const struct rdata *rd, const struct panel *pn, struct rbox b)
{
	double mr = sz(c, 4);
	for (size_t i = 0; i < roof_used.n; i++) {
		double x, y;
		if (roof_point(rd, roof_used.r[i], &x, &y))
			continue;
		double px = panel_x(pn, x), py = panel_y(pn, y);
		if (px + mr >= b.x && px - mr <= b.x + b.w && py + mr >= b.y && py - mr <= b.y + b.h)
			return 1;
	}
	return 0;
}

void fig_roofline(struct rctx *c, const struct rdata *rd, const struct figopts *o, struct rbox box)
{
	struct rsel s;
	fig_sel(rd, o, &s);
	s.n = o->sel.n; /* every N unless the options fix one */
	char keys[MAX_SERIES][SERIES_KEY];
	size_t ns = rdata_series(rd, &s, SERIES_MAIN, keys, MAX_SERIES);
	const struct gpu_info *g = &rd->res->header.gpu;
	double bw = g->copy_gbs > 0 ? g->copy_gbs : g->peak_hbm_gbs;      /* GB/s */
	double peak = g->tensor_tflops > 0 ? g->tensor_tflops : 0;          /* TFLOP/s */
	roof_used.n = 0;
	int measured_any = 0;
	double xlo = 1e300, xhi = 0, ylo = 1e300, yhi = 0;
	for (size_t i = 0; i < rd->res->nrecords; i++) {
		const struct record *r = &rd->res->records[i];
		char k[SERIES_KEY];
		if (!rsel_match(&s, r))
			continue;
		record_series(r, k, sizeof(k));
		size_t j;
		for (j = 0; j < ns && strcmp(keys[j], k); j++)
			;
		if (j == ns)
			continue;
		double x, y;
		enum qunit u;
		char why[160];
		if (rdata_quantity(rd, r, "tflops", NULL, &y, &u, why, sizeof(why)))
			continue;
		if (!rdata_quantity(rd, r, "intensity", NULL, &x, &u, why, sizeof(why)))
			measured_any = 1;
		else {
			double f, m;
			if (get_hbm_model(rd, r, &m) || rdata_quantity(rd, r, "flops", NULL, &f, &u, why, sizeof(why)))
				continue;
			x = f / m;
		}
		rl_add(&roof_used, r);
		xlo = fmin(xlo, x); xhi = fmax(xhi, x);
		ylo = fmin(ylo, y); yhi = fmax(yhi, y);
	}
	char title[200], cond[600];
	fig_roofline_title(rd, o, title, sizeof(title));
	rdata_conditions(rd, roof_used.r, roof_used.n, cond, sizeof(cond));
	if (!measured_any && roof_used.n)
		strncat(cond, " · intensity from the model's minimum bytes (no counters)", sizeof(cond) - strlen(cond) - 1);
	box = figure_frame(c, box, title, cond, o->standalone);
	if (!roof_used.n || !(bw > 0)) {
		draw_notice(c, box, "no roofline", !(bw > 0) ? "the header has no HBM bandwidth (peak_hbm_gbs or copy_gbs)"
							   : "no timed records with bytes at these conditions");
		return;
	}
	/* the legend names only the series that have a point here */
	{
		size_t m = 0;
		for (size_t j = 0; j < ns; j++) {
			int has = 0;
			for (size_t i = 0; i < roof_used.n && !has; i++) {
				char k[SERIES_KEY];
				record_series(roof_used.r[i], k, sizeof(k));
				has = !strcmp(k, keys[j]);
			}
			if (has) {
				if (m != j)
					memcpy(keys[m], keys[j], SERIES_KEY);
				m++;
			}
		}
		ns = m;
	}
	struct legend_entry e[MAX_SERIES];
	legend_for(c, rd, keys, ns, 0, e);
	struct rbox lb = legend_box(c, e, ns, &box);
	legend_draw(c, e, ns, lb.x, lb.y, lb.w);
	if (peak > 0) {
		yhi = fmax(yhi, peak * 1.2);
		xhi = fmax(xhi, peak * 1e3 / bw * 4);
	}
	xlo = fmin(xlo, 1);
	struct panel pn;
	memset(&pn, 0, sizeof(pn));
	axis_log(&pn.x, xlo, xhi, 10, 8);
	axis_log(&pn.y, fmin(ylo, bw * pn.x.lo / 1e3), yhi, 10, 8);
	snprintf(pn.xlabel, sizeof(pn.xlabel), "arithmetic intensity (FLOP per HBM byte, log)");
	snprintf(pn.ylabel, sizeof(pn.ylabel), "TFLOP/s (log)");
	panel_layout(c, &pn, box);
	panel_draw(c, &pn);
	/* ceilings: bandwidth slope up to the ridge, then the tensor roof */
	double ridge = peak > 0 ? peak * 1e3 / bw : pn.x.hi;
	cairo_save(c->cr);
	cairo_rectangle(c->cr, pn.plot.x, pn.plot.y, pn.plot.w, pn.plot.h);
	cairo_clip(c->cr);
	set_rgb(c, &c->st->ink);
	draw_line(c, panel_x(&pn, pn.x.lo), panel_y(&pn, bw * pn.x.lo / 1e3), panel_x(&pn, fmin(ridge, pn.x.hi)),
		  panel_y(&pn, bw * fmin(ridge, pn.x.hi) / 1e3), c->st->heavy, 0);
	if (peak > 0)
		draw_line(c, panel_x(&pn, ridge), panel_y(&pn, peak), panel_x(&pn, pn.x.hi), panel_y(&pn, peak), c->st->heavy, 0);
	if (g->peak_hbm_gbs > 0 && g->copy_gbs > 0 && g->peak_hbm_gbs > g->copy_gbs) {
		/* up to its own ridge (panel_y clamps, so never past the top) */
		double b2 = g->peak_hbm_gbs;
		double x2 = fmin(pn.x.hi, (peak > 0 ? peak : pn.y.hi) * 1e3 / b2);
		draw_line(c, panel_x(&pn, pn.x.lo), panel_y(&pn, b2 * pn.x.lo / 1e3), panel_x(&pn, x2),
			  panel_y(&pn, b2 * x2 / 1e3), c->st->thin, 3);
	}
	cairo_restore(c->cr);
	char t[96];
	/* the bandwidth labels run along their slopes: the measured copy line's
	 * below it, the data sheet's (dashed) above it, both starting near the
	 * left end, so neither sits on a line or on the tensor roof */
	double fs = c->st->size_chart * 0.9;
	double lx = pn.x.lo * 1.5;
	double sx0 = panel_x(&pn, pn.x.lo), sx1 = panel_x(&pn, pn.x.lo * 10);
	double sy0 = panel_y(&pn, bw * pn.x.lo / 1e3), sy1 = panel_y(&pn, bw * pn.x.lo * 10 / 1e3);
	double ang = atan2(sy1 - sy0, sx1 - sx0);
	/* shorter forms where a decade is narrow (a wide range of values);
	 * up to the ridge at most, where the tensor peak's label goes */
	char tc2[48], tc3[32];
	snprintf(t, sizeof(t), "%s %.0f GB/s", g->copy_gbs > 0 ? "measured copy" : "HBM peak", bw);
	snprintf(tc2, sizeof(tc2), "%s %.0f GB/s", g->copy_gbs > 0 ? "copy" : "HBM", bw);
	snprintf(tc3, sizeof(tc3), "%.0f GB/s", bw);
	const char *cchoice[3] = { t, tc2, tc3 };
	double crun = (fmin(panel_x(&pn, pn.x.lo * 100), panel_x(&pn, ridge)) - panel_x(&pn, lx)) / fmax(cos(ang), 0.2)
		      - sz(c, 4), fsc, slope_w;
	int cpick = text_choose(c, cchoice, 3, fs, 0, crun, &fsc);
	text_extent(c, cchoice[cpick], fsc, 0, 0, &slope_w, NULL);
	/* along the slope, from its foot up, to where no measured point lies under
	 * the label; where none is clear, a shorter form of it */
	for (int found = 0; !found && cpick < 3; cpick += !found) {
		double th0;
		text_extent(c, cchoice[cpick], fsc, 0, 0, &slope_w, &th0);
		for (double l2 = pn.x.lo * 1.5; l2 < pn.x.lo * 100 && !found; l2 *= 1.25) {
			double x1 = panel_x(&pn, l2), y1 = panel_y(&pn, bw * l2 / 1e3);
			double ex = slope_w * cos(ang), ey = slope_w * sin(ang);
			struct rbox b = rbox_make(x1 - sz(c, 3), fmin(y1, y1 + ey) - sz(c, 3), ex + th0 + sz(c, 6),
						  fabs(ey) + th0 + sz(c, 6));
			if (!roof_points_under(c, rd, &pn, b)) {
				lx = l2;
				found = 1;
			}
		}
		if (!found && cpick == 2)
			break; /* nowhere clear: the foot of the slope, the shortest form */
	}
	double slope_end = panel_x(&pn, lx) + slope_w * cos(ang); /* how far right the slope labels reach */
	cairo_save(c->cr);
	cairo_translate(c->cr, panel_x(&pn, lx), panel_y(&pn, bw * lx / 1e3));
	cairo_rotate(c->cr, ang);
	text_at(c, 0, sz(c, 3), cchoice[cpick], fsc, TX_KNOCKOUT, 0, 0, NULL);
	cairo_restore(c->cr);
	if (g->peak_hbm_gbs > 0 && g->copy_gbs > 0 && g->peak_hbm_gbs > g->copy_gbs) {
		double b2 = g->peak_hbm_gbs;
		snprintf(t, sizeof(t), "data-sheet HBM %.0f GB/s (dashed)", b2);
		char t2[64];
		snprintf(t2, sizeof(t2), "data sheet %.0f GB/s", b2);
		/* along the slope, short of the next decade's grid line */
		double run = (panel_x(&pn, pn.x.lo * 10) - panel_x(&pn, lx)) / fmax(cos(ang), 0.2) - sz(c, 4);
		const char *choice[2] = { t, t2 };
		double fs2;
		int pick = text_choose(c, choice, 2, fs, 0, run, &fs2);
		double w2;
		text_extent(c, choice[pick], fs2, 0, 0, &w2, NULL);
		slope_end = fmax(slope_end, panel_x(&pn, lx) + w2 * cos(ang));
		cairo_save(c->cr);
		cairo_translate(c->cr, panel_x(&pn, lx), panel_y(&pn, b2 * lx / 1e3));
		cairo_rotate(c->cr, ang);
		text_at(c, 0, -sz(c, 3), choice[pick], fs2, TX_KNOCKOUT, 0, 1, &c->st->muted);
		cairo_restore(c->cr);
	}
	if (peak > 0) {
		/* under the roof, right of the ridge, clear of the frame */
		/* the shorter forms where the plot right of the ridge is narrow */
		char t2[64], t3[32];
		snprintf(t, sizeof(t), "measured tensor peak %.0f TFLOP/s", peak);
		snprintf(t2, sizeof(t2), "tensor peak %.0f TFLOP/s", peak);
		snprintf(t3, sizeof(t3), "%.0f TFLOP/s", peak);
		const char *choice[3] = { t, t2, t3 };
		double xr = panel_x(&pn, ridge) + sz(c, 6), room = pn.plot.x + pn.plot.w - sz(c, 8) - xr, fs3, tw;
		int pick = text_choose(c, choice, 3, fs, 0, room, &fs3);
		text_extent(c, choice[pick], fs3, 0, 0, &tw, NULL);
		double x0 = fmin(xr, pn.plot.x + pn.plot.w - tw - sz(c, 8)), th;
		text_extent(c, choice[pick], fs3, 0, 0, NULL, &th);
		/* pushed left onto the slope's labels (a narrow plot), or over a
		 * measured point (a label hides it): above the roof instead */
		int above = x0 < slope_end + sz(c, 4) ||
			    roof_points_under(c, rd, &pn, rbox_make(x0, panel_y(&pn, peak) + sz(c, 3), tw, th));
		/* points on both sides there (values near the peak): further left along the roof, above it */
		int clear = !above;
		for (double xs = x0; !clear && xs >= slope_end + sz(c, 4); xs -= sz(c, 6))
			if (!roof_points_under(c, rd, &pn, rbox_make(xs, panel_y(&pn, peak) - sz(c, 3) - th, tw, th))) {
				x0 = xs;
				clear = 1;
			}
		/* points all along the roof: at the plot's left, over the roof's height, where the
		 * slope runs far below */
		if (!clear)
			x0 = pn.plot.x + sz(c, 2);
		text_at(c, x0, panel_y(&pn, peak) + (above ? -sz(c, 3) : sz(c, 3)), choice[pick], fs3, TX_KNOCKOUT, 0,
			above ? 1 : 0, NULL);
	} else {
		text_at(c, pn.plot.x + pn.plot.w - sz(c, 2), pn.plot.y + sz(c, 2), "tensor peak not measured",
			c->st->size_chart * 0.9, TX_ITALIC, 1, 0, &c->st->muted);
	}
	for (size_t i = 0; i < roof_used.n; i++) {
		const struct record *r = roof_used.r[i];
		char k[SERIES_KEY];
		record_series(r, k, sizeof(k));
		size_t j;
		for (j = 0; j < ns && strcmp(keys[j], k); j++)
			;
		double x, y, f, m;
		enum qunit u;
		char why[160];
		rdata_quantity(rd, r, "tflops", NULL, &y, &u, why, sizeof(why));
		if (rdata_quantity(rd, r, "intensity", NULL, &x, &u, why, sizeof(why))) {
			get_hbm_model(rd, r, &m);
			rdata_quantity(rd, r, "flops", NULL, &f, &u, why, sizeof(why));
			x = f / m;
		}
		const struct legend_entry *le = &e[j < ns ? j : 0];
		plot_point(c, panel_x(&pn, x), panel_y(&pn, y), le->look->marker, sz(c, 5), le->look, legend_key(le));
	}
}
