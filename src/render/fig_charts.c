/* fig_charts.c: the measured charts — TFLOP/s bars, HBM bytes, peak
 * memory, shared-memory wavefronts, occupancy, roofline, the ablation
 * ladder and prefill-vs-decode.  Every chart: ticks, units, a legend and
 * a conditions caption (figure_frame). */
#include "render/figure_draw.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

const struct series_look *series_look_of(struct rctx *c, const struct rdata *rd, const char *key)
{
	return style_series(c->st, series_look_index(rd, key));
}

static void legend_for(struct rctx *c, const struct rdata *rd, char keys[][SERIES_KEY], size_t n, int bar,
		       struct legend_entry *e)
{
	for (size_t i = 0; i < n; i++) {
		memset(&e[i], 0, sizeof(e[i]));
		series_label(keys[i], e[i].label, sizeof(e[i].label));
		e[i].look = series_look_of(c, rd, keys[i]);
		e[i].bar = bar;
		snprintf(e[i].part, sizeof(e[i].part), "series:%.*s", (int)sizeof(e[i].part) - 8, keys[i]);
	}
}

/* The legend of a description's series (their labels as it names them). */
static void legend_desc(struct rctx *c, const struct rdata *rd, const struct figdesc *d, int bar,
			struct legend_entry *e)
{
	for (size_t i = 0; i < d->nseries; i++) {
		memset(&e[i], 0, sizeof(e[i]));
		snprintf(e[i].label, sizeof(e[i].label), "%.*s", (int)sizeof(e[i].label) - 1, d->series[i].label);
		e[i].look = series_look_of(c, rd, d->series[i].key);
		e[i].bar = bar;
		snprintf(e[i].part, sizeof(e[i].part), "series:%.*s", (int)sizeof(e[i].part) - 8, d->series[i].key);
	}
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

/* The top of a bar's ink: its whisker's fastest launch, else the bar. */
static double bar_label_y(const struct panel *pn, const struct figpoint *q)
{
	return panel_y(pn, q->whisker ? fmax(q->v, q->hi) : q->v);
}

/* "not measured" in an empty bar slot, from its foot (x, y) up when upright, else across;
 * "–" where the words do not fit in room */
static void empty_slot(struct rctx *c, double x, double y, int upright, double room, double fs)
{
	const char *t = "not measured";
	double w;
	text_extent(c, t, fs, 0, 0, &w, NULL);
	if (w > room)
		t = "–";
	if (!upright) {
		text_at(c, x, y, t, fs, TX_KNOCKOUT, 0.5, 1, &c->st->muted);
		return;
	}
	cairo_save(c->cr);
	cairo_translate(c->cr, x, y);
	cairo_rotate(c->cr, -M_PI / 2);
	text_at(c, 0, 0, t, fs, TX_KNOCKOUT, 0, 0.5, &c->st->muted);
	cairo_restore(c->cr);
}

void fig_tflops(struct rctx *c, const struct rdata *rd, const struct figopts *o, struct rbox box)
{
	struct figdesc d;
	figdesc_init(&d, "tflops");
	if (figdesc_tflops(rd, o, &d)) {
		figdesc_release(&d);
		return;
	}
	const size_t np = d.npanels, ns = d.nseries;
	char title[160];
	fig_tflops_title(rd, o, title, sizeof(title));
	box = figure_frame_recs(c, rd, box, title, d.used, d.nused, o->standalone);
	if (d.notice[0]) {
		draw_notice(c, box, d.notice, d.notice_why);
		figdesc_release(&d);
		return;
	}
	struct legend_entry e[FD_SERIES];
	legend_desc(c, rd, &d, 1, e);
	int rows, cols;
	chart_grid(c, &box, e, ns, (int)np, &rows, &cols);
	for (size_t p = 0; p < np; p++) {
		const struct figpanel *dp = &d.panel[p];
		struct panel pn;
		memset(&pn, 0, sizeof(pn));
		const size_t nn = dp->ncat;
		const double ymax = dp->hi;
		for (size_t i = 0; i < nn; i++) {
			fmt_seqlen(dp->cat[i], pn.cats[i], sizeof(pn.cats[i]));
			pn.cat_value[i] = dp->cat[i];
		}
		pn.ncat = (int)nn;
		/* room over the tallest bar for its whisker and its value */
		axis_linear(&pn.y, 0, ymax > 0 ? ymax * 1.16 : 1, c->st->slides ? 4 : 5, 1);
		snprintf(pn.title, sizeof(pn.title), "%s", dp->title);
		snprintf(pn.xlabel, sizeof(pn.xlabel), "%s", dp->xlabel);
		snprintf(pn.ylabel, sizeof(pn.ylabel), "%s", dp->ylabel);
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
		for (size_t i = 0; i < nn; i++)
			for (size_t k = 0; k < ns; k++) {
				const struct figpoint *q = figdesc_at(&d, p, k, i);
				bar_slot(pn.plot.x, pn.plot.x + pn.plot.w, (int)nn, (int)i, (int)ns, (int)k, 0.82, &bx, &bw);
				if (q->state == FP_NONE)
					continue;
				if (q->state == FP_MISSING) {
					/* a failed or missing run is marked, not left as a silent gap */
					text_at(c, bx + bw / 2, bottom - sz(c, 2), "×", c->st->size_chart, 0, 0.5, 1,
						&c->st->warn);
					continue;
				}
				double y = panel_y(&pn, q->v);
				fill_look(c, rbox_make(bx, y, bw, bottom - y), e[k].look, c->st->thin);
				rec_mark(c, bx, y - 0.5, bx + bw, y + 0.5);
				rec_series(c, legend_key(&e[k]));
				if (q->whisker) {
					/* the launches' spread: TFLOP/s at the slowest and the fastest launch */
					cairo_save(c->cr);
					set_rgb(c, &c->st->ink);
					draw_whisker(c, bx + bw / 2, panel_y(&pn, q->lo), panel_y(&pn, q->hi), fmin(bw * 0.6, sz(c, 4)));
					cairo_restore(c->cr);
				}
				if (!q->wrong)
					continue;
				text_at(c, bx + bw / 2, bar_label_y(&pn, q) - sz(c, 1), "!", c->st->size_chart, TX_BOLD, 0.5, 1,
					&c->st->warn);
			}
		for (size_t i = 0; labels && i < nn; i++)
			for (size_t k = 0; k < ns; k++) {
				const struct figpoint *q = figdesc_at(&d, p, k, i);
				char t[16];
				if (q->state == FP_NONE) {
					/* an empty slot among labelled bars says why it is empty (slide 16's
					 * hopper+overlap at N = 512 and 1k had no record and no word) */
					bar_slot(pn.plot.x, pn.plot.x + pn.plot.w, (int)nn, (int)i, (int)ns, (int)k, 0.82, &bx, &bw);
					empty_slot(c, bx + bw / 2, bottom - sz(c, 1), upright, upright ? pn.plot.h - sz(c, 2) : bw, vfs);
					continue;
				}
				if (q->state != FP_VALUE || !on_scale(q->v))
					continue;
				bar_slot(pn.plot.x, pn.plot.x + pn.plot.w, (int)nn, (int)i, (int)ns, (int)k, 0.82, &bx, &bw);
				snprintf(t, sizeof(t), "%.0f", q->v);
				/* over the bar and its whisker (and its "!" when wrong) */
				double ly = bar_label_y(&pn, q) - sz(c, 1);
				if (q->wrong) {
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
	figdesc_release(&d);
}

/* ---- lines over N (HBM bytes, peak memory, decode) ------------------------- */

/* How a panel of lines is drawn (its values: the description's). */
struct lines_look {
	enum tick_fmt yfmt;
	int ylog;                 /* 2 or 10; 0 linear */
};

/* Where a reference line's label goes: under or over the line, at its right
 * or left end, the first place whose box holds no plotted point. */
static struct rbox hline_label_place(struct rctx *c, const struct figdesc *d, size_t p, const struct panel *pn,
				     double y)
{
	const struct figpanel *dp = &d->panel[p];
	double w, h, fs = c->st->size_chart * 0.9, pad = sz(c, 2), mr = sz(c, 4);
	text_extent(c, dp->ref_label, fs, 0, 0, &w, &h);
	struct rbox at[4] = {
		rbox_make(pn->plot.x + pn->plot.w - pad - w, y + pad, w, h),
		rbox_make(pn->plot.x + pn->plot.w - pad - w, y - pad - h, w, h),
		rbox_make(pn->plot.x + pad, y - pad - h, w, h),
		rbox_make(pn->plot.x + pad, y + pad, w, h),
	};
	for (int a = 0; a < 4; a++) {
		int clear = 1;
		for (size_t k = 0; k < d->nseries && clear; k++)
			for (size_t i = 0; i < dp->ncat && clear; i++) {
				const struct figpoint *q = figdesc_at(d, p, k, i);
				if (q->state != FP_VALUE || !on_scale(q->v))
					continue;
				double px = panel_x(pn, dp->cat[i]), py0 = panel_y(pn, q->v), py1 = py0;
				if (q->whisker) {
					py0 = fmin(py0, fmin(panel_y(pn, q->lo), panel_y(pn, q->hi)));
					py1 = fmax(py1, fmax(panel_y(pn, q->lo), panel_y(pn, q->hi)));
				}
				clear = px + mr < at[a].x || px - mr > at[a].x + at[a].w || py1 + mr < at[a].y ||
					py0 - mr > at[a].y + at[a].h;
			}
		if (clear)
			return at[a];
	}
	return at[0];
}

static void draw_lines_panel(struct rctx *c, const struct figdesc *d, size_t p, struct panel *pn,
			     const struct legend_entry *e, const struct lines_look *ls, struct rbox cell)
{
	const struct figpanel *dp = &d->panel[p];
	const size_t nn = dp->ncat, ns = d->nseries;
	const double lo = dp->lo, hi = dp->hi;
	if (!nn)
		return;
	axis_log(&pn->x, dp->cat[0], dp->cat[nn - 1], 2, c->st->slides ? 6 : 8);
	pn->xfmt = TICK_SEQLEN;
	if (hi <= 0) {
		/* nothing measured: an empty frame with the notice */
		axis_linear(&pn->y, 0, 1, 4, 1);
		panel_layout(c, pn, cell);
		draw_notice(c, pn->plot, dp->notice, dp->notice_why);
		return;
	}
	if (ls->ylog) /* padded: no point sits on the frame */
		axis_log(&pn->y, lo / 1.25, hi * 1.25, ls->ylog, c->st->slides ? 5 : 7);
	else
		axis_linear(&pn->y, 0, hi * 1.08, 5, 1);
	pn->yfmt = ls->yfmt;
	panel_layout(c, pn, cell);
	panel_draw(c, pn);
	cairo_t *cr = c->cr;
	for (size_t k = 0; k < ns; k++) {
		/* model line: thin, dotted, in the series' line colour */
		if (dp->model_quantity[0]) {
			int started = 0;
			cairo_save(cr);
			set_rgb(c, &e[k].look->line);
			cairo_set_line_width(cr, c->st->thin);
			double dd[2] = { 1.2, 2.2 };
			cairo_set_dash(cr, dd, 2, 0);
			for (size_t i = 0; i < nn; i++) {
				const struct figpoint *q = figdesc_at(d, p, k, i);
				if (!q->has_model)
					continue;
				double x = panel_x(pn, dp->cat[i]), y = panel_y(pn, q->model);
				if (started) cairo_line_to(cr, x, y); else cairo_move_to(cr, x, y);
				started = 1;
			}
			if (started)
				rec_series(c, d->model_label);
			stroke(c);
			cairo_restore(cr);
		}
		int started = 0;
		cairo_save(cr);
		set_rgb(c, &e[k].look->line);
		cairo_set_line_width(cr, c->st->line);
		if (e[k].look->dash > 0) {
			double dd[2] = { e[k].look->dash, e[k].look->dash * 0.6 + 1 };
			cairo_set_dash(cr, dd, 2, 0);
		}
		for (size_t i = 0; i < nn; i++) {
			const struct figpoint *q = figdesc_at(d, p, k, i);
			if (q->state != FP_VALUE || !on_scale(q->v)) {
				started = 0; /* a gap in the data (or off scale) is a gap in the line */
				continue;
			}
			double x = panel_x(pn, dp->cat[i]), y = panel_y(pn, q->v);
			if (started) cairo_line_to(cr, x, y); else cairo_move_to(cr, x, y);
			started = 1;
		}
		stroke(c);
		cairo_restore(cr);
		for (size_t i = 0; i < nn; i++) {
			const struct figpoint *q = figdesc_at(d, p, k, i);
			if (q->state != FP_VALUE || !on_scale(q->v))
				continue;
			double x = panel_x(pn, dp->cat[i]);
			if (q->whisker && on_scale(q->lo) && on_scale(q->hi)) {
				cairo_save(cr);
				set_rgb(c, &e[k].look->line);
				draw_whisker(c, x, panel_y(pn, q->lo), panel_y(pn, q->hi), sz(c, 4));
				cairo_restore(cr);
			}
			plot_point(c, x, panel_y(pn, q->v), e[k].look->marker, sz(c, 5), e[k].look, legend_key(&e[k]));
		}
	}
	if (dp->ref > 0) {
		double y = panel_y(pn, dp->ref);
		cairo_save(cr);
		set_rgb(c, &c->st->ink);
		draw_line(c, pn->plot.x, y, pn->plot.x + pn->plot.w, y, c->st->thin, 3);
		cairo_restore(cr);
		/* at a corner of the line where no point is: a label over a point hides it */
		struct rbox lb = hline_label_place(c, d, p, pn, y);
		text_at(c, lb.x, lb.y, dp->ref_label, c->st->size_chart * 0.9, TX_KNOCKOUT, 0, 0, NULL);
	}
}

static void lines_figure(struct rctx *c, const struct rdata *rd, const struct figopts *o, struct rbox box,
			 const struct figdesc *d, const struct lines_look *ls, const char *title)
{
	const size_t np = d->npanels, ns = d->nseries;
	struct legend_entry e[FD_SERIES + 1];
	legend_desc(c, rd, d, 0, e);
	size_t ne = ns;
	/* the model's legend entry only where a record has a model value to draw */
	if (d->any_model && ne < FD_SERIES + 1) {
		static const struct series_look model_look = { { 0, 0, 0 }, { 0.3, 0.3, 0.3 }, HATCH_NONE, 1.2, 4 };
		memset(&e[ne], 0, sizeof(e[ne]));
		snprintf(e[ne].label, sizeof(e[ne].label), "%.*s", (int)sizeof(e[ne].label) - 1, d->model_label);
		e[ne].look = &model_look;
		ne++;
	}
	box = figure_frame_recs(c, rd, box, title, d->used, d->nused, o->standalone);
	if (d->notice[0]) {
		draw_notice(c, box, d->notice, d->notice_why);
		return;
	}
	int rows, cols;
	chart_grid(c, &box, e, ne, (int)np, &rows, &cols);
	for (size_t p = 0; p < np; p++) {
		struct panel pn;
		memset(&pn, 0, sizeof(pn));
		snprintf(pn.title, sizeof(pn.title), "%s", d->panel[p].title);
		snprintf(pn.xlabel, sizeof(pn.xlabel), "%s", d->panel[p].xlabel);
		snprintf(pn.ylabel, sizeof(pn.ylabel), "%s", d->panel[p].ylabel);
		struct rbox cell = rbox_grid_cell(box, rows, cols, (int)p / cols, (int)p % cols, sz(c, 10), sz(c, 8));
		draw_lines_panel(c, d, p, &pn, e, ls, cell);
	}
}

/* A chart of lines over N from the description builder makes. */
static void lines_chart(struct rctx *c, const struct rdata *rd, const struct figopts *o, struct rbox box,
			const char *kind, int (*build)(const struct rdata *, const struct figopts *, struct figdesc *),
			void (*titlef)(const struct rdata *, const struct figopts *, char *, size_t),
			const struct lines_look *ls)
{
	struct figdesc d;
	figdesc_init(&d, kind);
	if (!build(rd, o, &d)) {
		char title[160];
		titlef(rd, o, title, sizeof(title));
		lines_figure(c, rd, o, box, &d, ls, title);
	}
	figdesc_release(&d);
}

void fig_hbm(struct rctx *c, const struct rdata *rd, const struct figopts *o, struct rbox box)
{
	const struct lines_look ls = { .yfmt = TICK_BYTES, .ylog = 2 };
	lines_chart(c, rd, o, box, "hbm", figdesc_hbm, fig_hbm_title, &ls);
}

void fig_memory(struct rctx *c, const struct rdata *rd, const struct figopts *o, struct rbox box)
{
	const struct lines_look ls = { .yfmt = TICK_BYTES, .ylog = 2 };
	lines_chart(c, rd, o, box, "memory", figdesc_memory, fig_memory_title, &ls);
}

/* Line panels two to a row under one legend (decode, the ladder over N): the
 * description holds the panels; look[col] is the y axis of each column. */
static void panel_pairs(struct rctx *c, const struct rdata *rd, const struct figopts *o, struct rbox box,
			const char *name, int (*build)(const struct rdata *, const struct figopts *, struct figdesc *),
			void (*title_of)(const struct rdata *, const struct figopts *, char *, size_t),
			const struct lines_look look[2])
{
	struct figdesc d;
	figdesc_init(&d, name);
	if (build(rd, o, &d)) {
		figdesc_release(&d);
		return;
	}
	char title[200];
	title_of(rd, o, title, sizeof(title));
	box = figure_frame_recs(c, rd, box, title, d.used, d.nused, o->standalone);
	if (d.notice[0]) {
		draw_notice(c, box, d.notice, d.notice_why);
		figdesc_release(&d);
		return;
	}
	struct legend_entry e[FD_SERIES];
	legend_desc(c, rd, &d, 0, e);
	struct rbox lb = legend_box(c, e, d.nseries, &box);
	legend_draw(c, e, d.nseries, lb.x, lb.y, lb.w);
	const int rows = (int)(d.npanels / 2), cols = 2;
	for (size_t p = 0; p < d.npanels; p++) {
		struct panel pn;
		memset(&pn, 0, sizeof(pn));
		snprintf(pn.title, sizeof(pn.title), "%s", d.panel[p].title);
		snprintf(pn.xlabel, sizeof(pn.xlabel), "%s", d.panel[p].xlabel);
		snprintf(pn.ylabel, sizeof(pn.ylabel), "%s", d.panel[p].ylabel);
		struct rbox cell = rbox_grid_cell(box, rows, cols, (int)p / 2, (int)p % 2, sz(c, 14), sz(c, 10));
		draw_lines_panel(c, &d, p, &pn, e, &look[p % 2], cell);
	}
	figdesc_release(&d);
}

/* Decode: bandwidth (log) and its share of the roof, side by side. */
void fig_decode(struct rctx *c, const struct rdata *rd, const struct figopts *o, struct rbox box)
{
	const struct lines_look look[2] = { { .yfmt = TICK_NUM, .ylog = 10 }, { .yfmt = TICK_NUM, .ylog = 0 } };
	panel_pairs(c, rd, o, box, "decode", figdesc_decode, fig_decode_title, look);
}

/* The ladder over N: a row per (d, causal), TFLOP/s on the left, per GHz on the right. */
void fig_laddern(struct rctx *c, const struct rdata *rd, const struct figopts *o, struct rbox box)
{
	const struct lines_look look[2] = { { .yfmt = TICK_NUM, .ylog = 0 }, { .yfmt = TICK_NUM, .ylog = 0 } };
	panel_pairs(c, rd, o, box, "ladder-n", figdesc_ladder_n, fig_laddern_title, look);
}

/* ---- per-variant bars at the focus (smem, occupancy) ------------------------ */

static void category_bars(struct rctx *c, const struct rdata *rd, const struct figopts *o, struct rbox box,
			  const char *title, const struct figdesc *d, int ylog, enum tick_fmt yfmt, double ymax_fixed)
{
	const struct figpanel *dp = &d->panel[0];
	const size_t nr = dp->ncat, nq = d->nseries < 8 ? d->nseries : 8;
	box = figure_frame_recs(c, rd, box, title, d->used, d->nused, o->standalone);
	struct legend_entry e[8];
	for (size_t q = 0; q < nq; q++) {
		memset(&e[q], 0, sizeof(e[q]));
		snprintf(e[q].label, sizeof(e[q].label), "%.*s", (int)sizeof(e[q].label) - 1, d->series[q].label);
		e[q].look = style_series(c->st, (int)(q == 0 ? 0 : q == 1 ? 2 : q == 2 ? 1 : q == 3 ? 4 : q - 1));
		e[q].bar = 1;
		snprintf(e[q].part, sizeof(e[q].part), "bar:%.*s", (int)sizeof(e[q].part) - 5, d->series[q].key);
	}
	struct rbox lb = legend_box(c, e, nq, &box);
	if (d->notice[0]) {
		draw_notice(c, box, d->notice, d->notice_why);
		return;
	}
	const double lo = dp->lo, hi = dp->hi;
	legend_draw(c, e, nq, lb.x, lb.y, lb.w);
	struct panel pn;
	memset(&pn, 0, sizeof(pn));
	pn.ncat = (int)nr;
	for (size_t i = 0; i < nr; i++)
		snprintf(pn.cats[i], sizeof(pn.cats[i]), "%.*s", (int)sizeof(pn.cats[i]) - 1, dp->catlabel[i]);
	if (ylog)
		axis_log(&pn.y, lo > 0 && lo < 1e300 ? lo : 1, hi > 0 ? hi : 10, 10, 8);
	else
		axis_linear(&pn.y, 0, ymax_fixed > 0 ? ymax_fixed : hi * 1.1, 5, 1);
	pn.yfmt = yfmt;
	snprintf(pn.ylabel, sizeof(pn.ylabel), "%s", dp->ylabel);
	/* long variant names: smaller category labels rather than overlap */
	panel_layout(c, &pn, box);
	panel_draw(c, &pn);
	double bottom = pn.plot.y + pn.plot.h;
	for (size_t i = 0; i < nr; i++)
		if (dp->catnote[i][0]) {
			/* the group's note where its bars would stand: two lines at its foot */
			double bx0, bw0, bx1, bw1, th;
			bar_slot(pn.plot.x, pn.plot.x + pn.plot.w, (int)nr, (int)i, (int)nq, 0, 0.8, &bx0, &bw0);
			bar_slot(pn.plot.x, pn.plot.x + pn.plot.w, (int)nr, (int)i, (int)nq, (int)nq - 1, 0.8, &bx1, &bw1);
			char l1[40], l2[40];
			const char *cut = strstr(dp->catnote[i], " to ");
			snprintf(l1, sizeof l1, "%.*s", cut ? (int)(cut - dp->catnote[i] + 3) : (int)sizeof l1 - 1, dp->catnote[i]);
			snprintf(l2, sizeof l2, "%s", cut ? cut + 4 : "");
			const double fs = c->st->size_chart * 0.8;
			text_extent(c, l1, fs, 0, 0, NULL, &th);
			text_at(c, (bx0 + bx1 + bw1) / 2, bottom - sz(c, 2) - (l2[0] ? th * 1.2 : 0), l1, fs, 0, 0.5, 1,
				&c->st->muted);
			if (l2[0])
				text_at(c, (bx0 + bx1 + bw1) / 2, bottom - sz(c, 2), l2, fs, 0, 0.5, 1, &c->st->muted);
		}
	for (size_t i = 0; i < nr; i++)
		for (size_t q = 0; q < nq; q++) {
			const struct figpoint *pt = figdesc_at(d, 0, q, i);
			const double v = pt->state == FP_VALUE ? pt->v : NAN;
			double bx, bw;
			bar_slot(pn.plot.x, pn.plot.x + pn.plot.w, (int)nr, (int)i, (int)nq, (int)q, 0.8, &bx, &bw);
			if (!isfinite(v) && dp->catnote[i][0])
				continue;
			if (!isfinite(v)) {
				text_at(c, bx + bw / 2, bottom - sz(c, 2), "n/a", c->st->size_chart * 0.75, 0, 0.5, 1, &c->st->muted);
				continue;
			}
			if (ylog && !(v > 0)) {
				/* a zero has no place on a log axis: marked "0" at the foot of its slot */
				text_at(c, bx + bw / 2, bottom - sz(c, 1.5), "0", c->st->size_chart * 0.9, TX_BOLD, 0.5, 1, NULL);
				continue;
			}
			double y = panel_y(&pn, v > 0 ? v : pn.y.lo);
			fill_look(c, rbox_make(bx, y, bw, bottom - y), e[q].look, c->st->thin);
			rec_mark(c, bx, y - 0.5, bx + bw, y + 0.5);
			rec_series(c, legend_key(&e[q]));
			if (i == 0 && c->num)
				draw_numeral(c, e[q].part, e[q].label, bx + bw / 2, y + (bottom - y) / 2, bx + bw / 2,
					     y - c->st->size_numeral);
		}
}

/* A chart of bars per variant from the description build makes. */
static void bars_chart(struct rctx *c, const struct rdata *rd, const struct figopts *o, struct rbox box,
		       const char *kind, int (*build)(const struct rdata *, const struct figopts *, struct figdesc *),
		       void (*titlef)(const struct rdata *, const struct figopts *, char *, size_t), int ylog,
		       enum tick_fmt yfmt, double ymax_fixed)
{
	struct figdesc d;
	figdesc_init(&d, kind);
	if (!build(rd, o, &d)) {
		char title[200];
		titlef(rd, o, title, sizeof(title));
		category_bars(c, rd, o, box, title, &d, ylog, yfmt, ymax_fixed);
	}
	figdesc_release(&d);
}

void fig_smem(struct rctx *c, const struct rdata *rd, const struct figopts *o, struct rbox box)
{
	bars_chart(c, rd, o, box, "smem", figdesc_smem, fig_smem_title, 1, TICK_COUNT, 0);
}

void fig_occupancy(struct rctx *c, const struct rdata *rd, const struct figopts *o, struct rbox box)
{
	bars_chart(c, rd, o, box, "occupancy", figdesc_occupancy, fig_occupancy_title, 0, TICK_PCT, 100);
}

/* ---- roofline ------------------------------------------------------------------ */

/* Nsight Compute's hierarchical roofline: a point per tensor-core kernel of
 * each call (its own duration and bytes under profiling), the longest one
 * filled; the roofs of the instruction paths the kernels take (mma.sync,
 * wgmma: kernel_desc.path) and the bandwidth slopes of DRAM, L2 and shared
 * memory, each measured in the run (header.gpu) or not drawn and named as
 * not measured.  A kernel's FLOPs: the call's matmul FLOPs (the model's
 * flops_matmul, else the FlashAttention convention) shared equally by its
 * tensor-core kernels — exact for one fused kernel, and for standard's
 * GEMMs, which are of one size. */

enum roof_level { LV_DRAM, LV_L2, LV_SMEM, LV_COUNT };
/* the legend's key of a level's hollow marks (the layout record's series) */
static const char *const roof_level_key[LV_COUNT] = { NULL, "level:L2", "level:shared" };
/* the points (doc/figdesc.h marks): a copy the legend renumbers */
static struct {
	struct figmark p[FD_MARKS];
	size_t n;
} roof;

/* 1 when a plotted point of the roofline lies in (or within a marker of) box b. */
static int roof_points_under(struct rctx *c, const struct panel *pn, const int *drawn, struct rbox b)
{
	double mr = sz(c, 4);
	for (size_t i = 0; i < roof.n; i++)
		for (int lv = 0; lv < LV_COUNT; lv++) {
			double x = roof.p[i].x[lv];
			if (!drawn[lv] || !isfinite(x) || x < pn->x.lo || x > pn->x.hi)
				continue;
			double px = panel_x(pn, x), py = panel_y(pn, roof.p[i].y);
			if (px + mr >= b.x && px - mr <= b.x + b.w && py + mr >= b.y && py - mr <= b.y + b.h)
				return 1;
		}
	return 0;
}

static int box_hits(struct rbox b, const struct rbox *placed, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (b.x < placed[i].x + placed[i].w && placed[i].x < b.x + b.w && b.y < placed[i].y + placed[i].h &&
		    placed[i].y < b.y + b.h)
			return 1;
	return 0;
}

/* One ceiling: a slope of bandwidth gbs (GB/s) or a roof at tflops. */
struct ceiling {
	double gbs, tflops;
	double x_end;          /* a slope runs from the left edge to here (its ridge with the top roof) */
	double x_start;        /* a roof from its ridge with the HBM slope */
	double width, dash;
	const struct rgb *col; /* NULL: ink */
	char label[3][72];     /* longest form first */
};

/* 1 when another ceiling's line runs under a label at (x0, y0) turned by
 * ang, its text from off to off + h across and 0 to w along: the knockout
 * under the text would cut that line.  Tested in the label's own frame,
 * on points 2 pt apart along each line. */
static int crosses_other(const struct panel *pn, const struct ceiling *self, const struct ceiling *all, size_t nall,
			 double x0, double y0, double ang, double off, double w, double h)
{
	for (size_t i = 0; i < nall; i++) {
		const struct ceiling *q = &all[i];
		if (q == self)
			continue;
		double ax, ay, bx, by;
		if (q->gbs > 0) {
			ax = panel_x(pn, pn->x.lo), ay = panel_y(pn, q->gbs * pn->x.lo / 1e3);
			bx = panel_x(pn, q->x_end), by = panel_y(pn, q->gbs * q->x_end / 1e3);
		} else {
			ax = panel_x(pn, q->x_start), ay = bx = 0;
			bx = panel_x(pn, pn->x.hi);
			ay = by = panel_y(pn, q->tflops);
		}
		const double len = hypot(bx - ax, by - ay);
		for (double t = 0; t <= len; t += 2) {
			const double px = ax + (bx - ax) * t / len - x0, py = ay + (by - ay) * t / len - y0;
			const double u = px * cos(ang) + py * sin(ang), v = -px * sin(ang) + py * cos(ang);
			if (u >= -1 && u <= w + 1 && v >= off - 1 && v <= off + h + 1)
				return 1;
		}
	}
	return 0;
}

/* The label of a ceiling along it (turned with a slope), first where it
 * covers no point, no other label and stays in the plot, trying the longer
 * forms first; 0, or 1 when nowhere is clear (the caller lists it instead). */
static int ceiling_label(struct rctx *c, const struct panel *pn, const int *drawn, const struct ceiling *ce,
			 const struct ceiling *all, size_t nall, struct rbox *placed, size_t *nplaced, int dry)
{
	const double fs = c->st->size_chart * 0.85, pad = sz(c, 3);
	const struct rbox plot = pn->plot;
	for (int form = 0; form < 3; form++) {
		if (!ce->label[form][0])
			continue;
		double w, h;
		text_extent(c, ce->label[form], fs, 0, 0, &w, &h);
		for (int side = 0; side < 2; side++) {
			/* a slope's labels from its foot upwards; a roof's from the right */
			for (int step = 0; step < 60; step++) {
				double ang = 0, x0, y0;
				if (ce->gbs > 0) {
					double xs = pn->x.lo * pow(1.15, step + 1);
					if (xs >= ce->x_end)
						break;
					double sx0 = panel_x(pn, xs), sy0 = panel_y(pn, ce->gbs * xs / 1e3);
					double sx1 = panel_x(pn, xs * 10), sy1 = panel_y(pn, ce->gbs * xs * 10 / 1e3);
					ang = atan2(sy1 - sy0, sx1 - sx0);
					x0 = sx0, y0 = sy0;
					if (panel_x(pn, ce->x_end) - x0 < w * cos(ang) + pad)
						break; /* would run past the ridge */
				} else {
					x0 = plot.x + plot.w - pad - w - step * sz(c, 8);
					y0 = panel_y(pn, ce->tflops);
					if (x0 < fmax(plot.x + pad, panel_x(pn, ce->x_start) + pad))
						break;
				}
				/* the text's box, offset to one side of the line, turned */
				const double off = side ? -(pad + h) : pad;
				double cx[4], cy[4];
				const double lx[4] = { 0, w, w, 0 }, ly[4] = { off, off, off + h, off + h };
				double bx0 = 1e300, by0 = 1e300, bx1 = -1e300, by1 = -1e300;
				for (int k = 0; k < 4; k++) {
					cx[k] = x0 + lx[k] * cos(ang) - ly[k] * sin(ang);
					cy[k] = y0 + lx[k] * sin(ang) + ly[k] * cos(ang);
					bx0 = fmin(bx0, cx[k]), bx1 = fmax(bx1, cx[k]);
					by0 = fmin(by0, cy[k]), by1 = fmax(by1, cy[k]);
				}
				struct rbox b = rbox_make(bx0 - 1, by0 - 1, bx1 - bx0 + 2, by1 - by0 + 2);
				if (b.x < plot.x || b.y < plot.y || b.x + b.w > plot.x + plot.w || b.y + b.h > plot.y + plot.h)
					continue;
				if (roof_points_under(c, pn, drawn, b) || box_hits(b, placed, *nplaced) ||
				    crosses_other(pn, ce, all, nall, x0, y0, ang, off, w, h))
					continue;
				if (!dry) {
					cairo_save(c->cr);
					cairo_translate(c->cr, x0, y0);
					cairo_rotate(c->cr, ang);
					text_at(c, 0, off, ce->label[form], fs, TX_KNOCKOUT, 0, 0, ce->col);
					cairo_restore(c->cr);
				}
				if (*nplaced < FD_ROOF_CEILINGS + 2)
					placed[(*nplaced)++] = b;
				return 0;
			}
		}
	}
	return 1;
}

/* The roofline's legend entries: the series with a point here (the
 * points' series indices follow them to their new place), captured
 * implementations in their capture figures' look unless a series here
 * already has it (then the first free one of the others' slots, the
 * references' last).  Returns how many series are left. */
static size_t roof_legend(struct rctx *c, const struct rdata *rd, char keys[][SERIES_KEY], size_t ns, int *cap_slot,
			  struct legend_entry *e)
{
	size_t m = 0;
	for (size_t j = 0; j < ns; j++) {
		int hasp = 0;
		for (size_t i = 0; i < roof.n && !hasp; i++)
			hasp = roof.p[i].series == j;
		if (!hasp)
			continue;
		for (size_t i = 0; i < roof.n; i++)
			if (roof.p[i].series == j)
				roof.p[i].series = m;
		if (m != j) {
			memcpy(keys[m], keys[j], SERIES_KEY);
			cap_slot[m] = cap_slot[j];
		}
		m++;
	}
	ns = m;
	legend_for(c, rd, keys, ns, 0, e);
	for (size_t j = 0; j < ns; j++) {
		static const int order[STYLE_SERIES] = { 4, 5, 6, 7, 3, 8, 0, 1, 2 };
		if (!cap_slot[j])
			continue;
		int want = cap_slot[j] - 1, pick = want;
		for (int t = -1; t < STYLE_SERIES; t++) {
			const int slot = t < 0 ? want : order[t];
			const struct series_look *lk = style_series(c->st, slot);
			int taken = 0;
			for (size_t k = 0; k < ns && !taken; k++)
				taken = k != j && (!cap_slot[k] || k < j) && e[k].look == lk;
			if (!taken) {
				pick = slot;
				break;
			}
		}
		e[j].look = style_series(c->st, pick);
	}
	return ns;
}

/* The points: a kernel's DRAM point (filled where it is its call's
 * longest), its L2 and shared-memory points on one line at the same FLOP/s. */
static void roof_points_draw(struct rctx *c, const struct panel *pn, const int *drawn, const struct legend_entry *e,
			     size_t ns, const struct series_look *lv_look)
{
	for (size_t i = 0; i < roof.n; i++) {
		const struct figmark *q = &roof.p[i];
		const struct legend_entry *le = &e[q->series < ns ? q->series : 0];
		struct series_look hollow = *le->look;
		hollow.fill = c->st->paper;
		const double yy = panel_y(pn, q->y);
		/* a kernel's levels on one line: the same FLOP/s, other bytes */
		double xl = panel_x(pn, q->x[LV_DRAM]), xr = xl;
		for (int lv = LV_L2; lv < LV_COUNT; lv++)
			if (drawn[lv] && isfinite(q->x[lv])) {
				xl = fmin(xl, panel_x(pn, q->x[lv]));
				xr = fmax(xr, panel_x(pn, q->x[lv]));
			}
		if (xr > xl) {
			set_rgb(c, &le->look->line);
			draw_line(c, xl, yy, xr, yy, c->st->thin, 0);
		}
		for (int lv = LV_L2; lv < LV_COUNT; lv++)
			if (drawn[lv] && isfinite(q->x[lv])) {
				struct series_look lk = hollow;
				lk.marker = lv_look[lv].marker;
				plot_point(c, panel_x(pn, q->x[lv]), yy, lk.marker, sz(c, 4), &lk, legend_key(le));
				rec_series(c, roof_level_key[lv]);
			}
		plot_point(c, panel_x(pn, q->x[LV_DRAM]), yy, le->look->marker, sz(c, q->longest ? 5.5 : 4),
			   q->longest ? le->look : &hollow, legend_key(le));
	}
}

/* The ceilings as lines, clipped to the plot: slopes up to their ridge, roofs from it. */
static void roof_lines_draw(struct rctx *c, const struct panel *pn, const struct ceiling *ce, size_t nc)
{
	cairo_save(c->cr);
	cairo_rectangle(c->cr, pn->plot.x, pn->plot.y, pn->plot.w, pn->plot.h);
	cairo_clip(c->cr);
	for (size_t i = 0; i < nc; i++) {
		const struct ceiling *q = &ce[i];
		set_rgb(c, q->col ? q->col : &c->st->ink);
		if (q->gbs > 0)
			draw_line(c, panel_x(pn, pn->x.lo), panel_y(pn, q->gbs * pn->x.lo / 1e3), panel_x(pn, q->x_end),
				  panel_y(pn, q->gbs * q->x_end / 1e3), q->width, q->dash);
		else
			draw_line(c, panel_x(pn, q->x_start), panel_y(pn, q->tflops), panel_x(pn, pn->x.hi),
				  panel_y(pn, q->tflops), q->width, q->dash);
	}
	cairo_restore(c->cr);
}

/* The ceilings of the description (figdesc_roofline: its "ceiling" parts,
 * at most 6), their lines by kind: the roofs heavy (mma.sync dashed), the
 * HBM slope heavy, L2's and shared memory's dashed, the data sheet's thin
 * and grey.  Returns how many. */
static size_t roof_ceilings(struct rctx *c, const struct figdesc *d, struct ceiling ce[FD_ROOF_CEILINGS])
{
	size_t nc = 0;
	const struct figitem *it;
	for (size_t i = 0; nc < FD_ROOF_CEILINGS && (it = figdesc_part(d, "ceiling", i)); i++) {
		struct ceiling *q = &ce[nc++];
		const int is_roof = !strcmp(it->state, "gemm") || !strcmp(it->state, "mma-sync") || !strcmp(it->state, "fp32");
		*q = (struct ceiling){ .tflops = is_roof ? it->v : 0, .gbs = is_roof ? 0 : it->v, .width = c->st->heavy };
		if (!strcmp(it->state, "mma-sync"))
			q->dash = 6;
		else if (!strcmp(it->state, "fp32"))
			q->width = c->st->line, q->dash = 2.5;
		else if (!strcmp(it->state, "read"))
			q->width = c->st->line, q->dash = 8;
		else if (!strcmp(it->state, "l2"))
			q->width = c->st->line, q->dash = 4;
		else if (!strcmp(it->state, "smem"))
			q->width = c->st->line, q->dash = 1.5;
		else if (!strcmp(it->state, "sheet"))
			q->width = c->st->thin, q->dash = 3, q->col = &c->st->muted;
		snprintf(q->label[0], sizeof(q->label[0]), "%.71s", it->text);
		snprintf(q->label[1], sizeof(q->label[1]), "%.71s", it->alt[0]);
		snprintf(q->label[2], sizeof(q->label[2]), "%.71s", it->alt[1]);
	}
	return nc;
}

/* The roofline's foot: the ceilings' labels that found no clear place
 * along their lines (placed there unless dry), then those not measured. */
static void roof_foot(struct rctx *c, const struct panel *pn, const int *drawn, const struct ceiling *ce, size_t nc,
		      const char *missing, struct rbox *placed, size_t *np, int dry, char *foot, size_t len)
{
	foot[0] = '\0';
	for (size_t i = 0; i < nc; i++)
		if (ceiling_label(c, pn, drawn, &ce[i], ce, nc, placed, np, dry))
			snprintf(foot + strlen(foot), len - strlen(foot), "%s%s", *foot ? " · " : "ceilings: ",
				 ce[i].label[0]);
	if (*missing)
		snprintf(foot + strlen(foot), len - strlen(foot), "%snot measured: %s", *foot ? "; " : "", missing);
}

/* The foot's place inside the plot: bottom right, else bottom left, where
 * no point and no label lies.  1 with *at set, or 0. */
static int roof_foot_place(struct rctx *c, const struct panel *pn, const int *drawn, const char *foot,
			   const struct rbox *placed, size_t np, struct rbox *at)
{
	const double fs = c->st->size_chart * 0.8;
	double fw, fh;
	text_extent(c, foot, fs, TX_ITALIC, pn->plot.w * 0.6, &fw, &fh);
	const double fy = pn->plot.y + pn->plot.h - sz(c, 2) - fh;
	const double xs[2] = { pn->plot.x + pn->plot.w - sz(c, 2) - fw, pn->plot.x + sz(c, 2) + sz(c, 30) };
	for (int k = 0; k < 2; k++) {
		const struct rbox b = rbox_make(xs[k], fy, fw, fh);
		if (roof_points_under(c, pn, drawn, b) || box_hits(b, placed, np))
			continue;
		if (at)
			*at = b;
		return 1;
	}
	return 0;
}

void fig_roofline(struct rctx *c, const struct rdata *rd, const struct figopts *o, struct rbox box)
{
	static struct figdesc d;
	figdesc_init(&d, "roofline");
	if (figdesc_roofline(rd, o, &d)) {
		figdesc_release(&d);
		return;
	}
	char keys[FD_ROOF_SERIES][SERIES_KEY];
	int cap_slot[FD_ROOF_SERIES];
	size_t ns = d.nseries < FD_ROOF_SERIES ? d.nseries : FD_ROOF_SERIES;
	for (size_t j = 0; j < ns; j++) {
		memcpy(keys[j], d.series[j].key, SERIES_KEY);
		cap_slot[j] = d.series[j].capture_look;
	}
	roof.n = d.nmarks < FD_MARKS ? d.nmarks : FD_MARKS;
	memcpy(roof.p, d.mark, roof.n * sizeof(roof.p[0]));
	const double bw = figdesc_part(&d, "level", LV_DRAM)->v; /* GB/s: the measured copy's, else the peak */
	/* what the points are: kernels, or calls; levels drawn where measured */
	int kernels = 0, calls_model = 0, open = 0, have[LV_COUNT] = { 1, 0, 0 };
	double xlo = 1e300, xhi = 0, ylo = 1e300, yhi = 0;
	for (size_t i = 0; i < roof.n; i++) {
		const struct figmark *q = &roof.p[i];
		kernels += q->path != PATH_NONE || !q->model_x;
		calls_model += q->model_x;
		open += !q->longest;
		have[LV_L2] |= isfinite(q->x[LV_L2]);
		have[LV_SMEM] |= isfinite(q->x[LV_SMEM]);
	}
	const double lvbw[LV_COUNT] = { bw, figdesc_part(&d, "level", LV_L2)->v, figdesc_part(&d, "level", LV_SMEM)->v };
	int drawn[LV_COUNT];
	for (int lv = 0; lv < LV_COUNT; lv++)
		drawn[lv] = have[lv] && lvbw[lv] > 0;
	for (size_t i = 0; i < roof.n; i++)
		for (int lv = 0; lv < LV_COUNT; lv++) {
			const double x = roof.p[i].x[lv];
			if (!drawn[lv] || !isfinite(x) || !(x > 0))
				continue;
			xlo = fmin(xlo, x), xhi = fmax(xhi, x);
			ylo = fmin(ylo, roof.p[i].y), yhi = fmax(yhi, roof.p[i].y);
		}

	char title[200], cond[900];
	fig_roofline_title(rd, o, title, sizeof(title));
	rdata_conditions(rd, d.used, d.nused, cond, sizeof(cond));
	if (kernels)
		strncat(cond, open ? " · a point per tensor-core kernel of a call, its longest filled; a kernel's FLOPs "
				     "the call's matmul FLOPs shared by its tensor-core kernels"
				   : " · a point per call's tensor-core kernel", sizeof(cond) - strlen(cond) - 1);
	if (calls_model)
		strncat(cond, " · calls without counters: intensity from the no-cache model's bytes",
			sizeof(cond) - strlen(cond) - 1);
	box = figure_frame(c, box, title, cond, o->standalone);
	if (!roof.n || !(bw > 0)) {
		draw_notice(c, box, "no roofline", !(bw > 0) ? "the header has no HBM bandwidth (peak_hbm_gbs or copy_gbs)"
							   : "no timed records with bytes at these conditions");
		figdesc_release(&d);
		return;
	}

	/* the legend: the series with a point here, then what the marks mean */
	struct legend_entry e[FD_ROOF_SERIES + 3];
	ns = roof_legend(c, rd, keys, ns, cap_slot, e);
	static struct series_look lv_look[LV_COUNT + 1];
	size_t ne = ns;
	for (int lv = LV_L2; lv < LV_COUNT; lv++)
		if (drawn[lv]) {
			lv_look[lv] = (struct series_look){ .fill = c->st->paper, .line = c->st->ink, .marker = lv == LV_L2 ? 4 : 3 };
			memset(&e[ne], 0, sizeof(e[ne]));
			snprintf(e[ne].label, sizeof(e[ne].label), "%s", lv == LV_L2 ? "same kernel, L2 bytes"
										 : "same kernel, shared bytes");
			e[ne].look = &lv_look[lv];
			snprintf(e[ne].part, sizeof(e[ne].part), "%s", roof_level_key[lv]);
			ne++;
		}
	struct rbox lb = legend_box(c, e, ne, &box);
	legend_draw(c, e, ne, lb.x, lb.y, lb.w);

	/* the ceilings: roofs of the paths used (the top one always), slopes of the levels measured */
	struct ceiling ce[FD_ROOF_CEILINGS];
	const char *missing = figdesc_text(&d, "missing", 0);
	const size_t nc = roof_ceilings(c, &d, ce);
	const double top = figdesc_part(&d, "top", 0)->v;

	/* axes: every point and every ridge inside */
	if (top > 0) {
		yhi = fmax(yhi, top * 1.25);
		xhi = fmax(xhi, top * 1e3 / bw * 4);
	}
	xlo = fmin(xlo, 1);
	struct panel pn;
	memset(&pn, 0, sizeof(pn));
	axis_log(&pn.x, xlo, xhi, 10, 8);
	axis_log(&pn.y, fmin(ylo, bw * pn.x.lo / 1e3), yhi, 10, 8);
	snprintf(pn.xlabel, sizeof(pn.xlabel), "%s", drawn[LV_L2] || drawn[LV_SMEM]
							   ? "arithmetic intensity (FLOP per byte of the level, log)"
							   : "arithmetic intensity (FLOP per HBM byte, log)");
	snprintf(pn.ylabel, sizeof(pn.ylabel), "TFLOP/s (log)");
	panel_layout(c, &pn, box);
	for (size_t i = 0; i < nc; i++) {
		struct ceiling *q = &ce[i];
		if (q->gbs > 0) /* up to its ridge with the top roof (panel_y clamps, so never past the top) */
			q->x_end = fmin(pn.x.hi, (top > 0 ? top : pn.y.hi) * 1e3 / q->gbs);
		else
			q->x_start = q->tflops * 1e3 / bw;
	}
	/* The labels that find no clear place go into a foot in the plot's
	 * corner; where neither corner is clear (a narrow plot beside a long
	 * legend), a line under the plot is kept for it: placed on a dry run */
	struct rbox foot_box = { 0 };
	{
		struct rbox placed[FD_ROOF_CEILINGS + 2];
		size_t np = 0;
		char foot[600];
		roof_foot(c, &pn, drawn, ce, nc, missing, placed, &np, 1, foot, sizeof foot);
		if (*foot && !roof_foot_place(c, &pn, drawn, foot, placed, np, NULL)) {
			double fw, fh;
			text_extent(c, foot, c->st->size_chart * 0.8, TX_ITALIC, box.w, &fw, &fh);
			foot_box = rbox_cut_bottom(&box, fh + sz(c, 4));
			panel_layout(c, &pn, box);
		}
	}
	panel_draw(c, &pn);
	roof_lines_draw(c, &pn, ce, nc);

	/* the points, before the labels (which must find them) */
	roof_points_draw(c, &pn, drawn, e, ns, lv_look);

	/* the ceilings' labels along them, clear of the points; those with no
	 * clear place, and the ceilings not measured, in the foot */
	struct rbox placed[FD_ROOF_CEILINGS + 2];
	size_t np = 0;
	char foot[600];
	roof_foot(c, &pn, drawn, ce, nc, missing, placed, &np, 0, foot, sizeof foot);
	if (*foot) {
		const double fs = c->st->size_chart * 0.8;
		struct rbox at;
		if (foot_box.w > 0 || !roof_foot_place(c, &pn, drawn, foot, placed, np, &at)) {
			double fw, fh;
			text_extent(c, foot, fs, TX_ITALIC, foot_box.w > 0 ? foot_box.w : box.w, &fw, &fh);
			const struct rbox fb = foot_box.w > 0 ? foot_box : box;
			at = rbox_make(fb.x + fb.w - fw, fb.y + fb.h - fh, fw, fh);
		}
		text_block(c, at.x, at.y, at.w + 1, foot, fs, TX_ITALIC | TX_KNOCKOUT, &c->st->muted);
	}
	figdesc_release(&d);
}
