/* chart.c: panels, ticks, legends, figure frames; see chart.h. */
#include "render/chart.h"

#include "doc/glossary.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* "1.00 G" -> "1 G", "64.0 GiB" -> "64 GiB": a log axis's ticks are whole numbers. */
static const char *drop_zero_decimals(char *buf)
{
	char *p = strchr(buf, '.');
	if (!p)
		return buf;
	char *q = p + 1;
	while (*q == '0')
		q++;
	if (*q >= '1' && *q <= '9')
		return buf; /* a real fraction: kept */
	memmove(p, q, strlen(q) + 1);
	return buf;
}

const char *tick_label(double v, const struct axis *a, enum tick_fmt f, char *buf, size_t len)
{
	switch (f) {
	case TICK_BYTES: fmt_bytes(v, buf, len); return a->log ? drop_zero_decimals(buf) : buf;
	case TICK_SEQLEN: return fmt_seqlen(v, buf, len);
	case TICK_COUNT: fmt_count(v, buf, len); return a->log ? drop_zero_decimals(buf) : buf;
	case TICK_PCT: snprintf(buf, len, "%.0f %%", v); return buf;
	default: break;
	}
	if (a->log) {
		/* clean numbers on a log axis: 1, 10, 100, 64, 0.1 — never "1.00" or "10.0" */
		if (v >= 1 && v < 1e6 && fabs(v - round(v)) < 1e-9 * v)
			snprintf(buf, len, "%.0f", v);
		else
			snprintf(buf, len, "%g", v);
		return buf;
	}
	double step = a->nticks > 1 ? a->ticks[1] - a->ticks[0] : 1;
	return fmt_tick(v, step, buf, len);
}

/* Long category names ("flash1+seqpar+lazyrescale") may break after '+'. */
static void cat_label(const char *in, char *out, size_t len)
{
	size_t u = 0;
	for (const char *p = in; *p && u + 4 < len; p++) {
		out[u++] = *p;
		if (*p == '+') {
			memcpy(out + u, "\u200b", 3);
			u += 3;
		}
	}
	out[u] = '\0';
}

/* 1 when every piece (between '+') of every label fits width w. */
static int pieces_fit(struct rctx *c, char labels[][32], int n, double fs, double w)
{
	for (int i = 0; i < n; i++)
		for (const char *q = labels[i]; *q;) {
			char piece[32];
			size_t k = strcspn(q, "+");
			k += q[k] == '+';
			snprintf(piece, sizeof(piece), "%.*s", (int)k, q);
			double pw;
			text_extent(c, piece, fs, 0, 0, &pw, NULL);
			if (pw > w)
				return 0;
			q += k;
		}
	return 1;
}

void panel_layout(struct rctx *c, struct panel *p, struct rbox outer)
{
	const struct rstyle *st = c->st;
	double fs = st->size_chart;
	char buf[48];
	double lw = 0, th;
	p->outer = outer;
	for (int i = 0; i < p->y.nticks; i++) {
		double w;
		text_extent(c, tick_label(p->y.ticks[i], &p->y, p->yfmt, buf, sizeof(buf)), fs, 0, 0, &w, &th);
		if (w > lw)
			lw = w;
	}
	text_extent(c, "0", fs, 0, 0, NULL, &th);
	double cat_h = th;
	/* category labels wrap after '+'; a piece wider than its slot would break
	 * mid-word, so then every label turns upright and runs along its bar */
	p->cat_turned = p->cat_abbrev = 0;
	p->abbrev_key[0] = '\0';
	/* a category's slot as drawn: the plot's width (the outer box less the
	 * value labels on the left and the right margin) per category */
	double plot_w = outer.w - (lw + sz(c, 4) + (p->ylabel[0] ? th * 1.3 : 0)) - sz(c, 8);
	double longest = 0, slot = p->ncat ? plot_w / p->ncat * 0.95 : 0;
	for (int i = 0; i < p->ncat; i++) {
		double w;
		text_extent(c, p->cats[i], fs, 0, 0, &w, NULL);
		longest = fmax(longest, w);
		snprintf(p->cat_short[i], sizeof(p->cat_short[i]), "%s", p->cats[i]);
	}
	if (p->ncat && !pieces_fit(c, p->cats, p->ncat, fs, slot)) {
		/* abbreviate from the glossary (the template's, else the built-in; the
		 * chart lists what it used), else turn upright */
		for (int i = 0; i < p->ncat; i++)
			glossary_abbreviate(c->gloss, p->cats[i], p->cat_short[i], sizeof(p->cat_short[i]), p->abbrev_key,
					    sizeof(p->abbrev_key));
		if (pieces_fit(c, p->cat_short, p->ncat, fs, slot)) {
			p->cat_abbrev = 1;
		} else {
			p->cat_turned = 1;
			p->abbrev_key[0] = '\0';
		}
	}
	for (int i = 0; i < p->ncat && !p->cat_turned; i++) {
		char lab[64];
		double h;
		cat_label(p->cat_short[i], lab, sizeof(lab));
		text_extent(c, lab, fs, TX_CENTER, slot, NULL, &h);
		if (h > cat_h)
			cat_h = h;
	}
	if (p->cat_turned)
		cat_h = longest + sz(c, 2);
	if (p->cat_abbrev)
		cat_h += th * 1.3; /* the glossary line */
	double left = lw + sz(c, 4) + (p->ylabel[0] ? th * 1.3 : 0);
	double top = p->title[0] ? th * 1.5 : th * 0.6;
	double bottom = cat_h + th * 0.35 + (p->xlabel[0] ? th * 1.25 : 0) + sz(c, 3);
	/* the last x tick label is centred on the plot's right edge: room for its half */
	double right = sz(c, 8);
	if (p->x.nticks > 0) {
		double w;
		text_extent(c, tick_label(p->x.ticks[p->x.nticks - 1], &p->x, p->xfmt, buf, sizeof(buf)), fs, 0, 0, &w, NULL);
		right = fmax(right, w / 2 + sz(c, 2));
	}
	p->plot = rbox_inset(outer, top, right, bottom, left);
}

double panel_x(const struct panel *p, double v)
{
	return axis_map(&p->x, v, p->plot.x, p->plot.x + p->plot.w);
}

double panel_y(const struct panel *p, double v)
{
	return axis_map(&p->y, v, p->plot.y + p->plot.h, p->plot.y);
}

double panel_cat_x(const struct panel *p, int i)
{
	return p->plot.x + (i + 0.5) * p->plot.w / (p->ncat > 0 ? p->ncat : 1);
}

void panel_draw(struct rctx *c, const struct panel *p)
{
	const struct rstyle *st = c->st;
	double fs = st->size_chart;
	char buf[48];
	struct rbox pl = p->plot;
	double bottom = pl.y + pl.h;
	/* grid: light grey on screen and print; patent keeps only ticks */
	if (st->grey_fills) {
		cairo_save(c->cr);
		set_rgb(c, &st->grid);
		for (int i = 0; i < p->y.nticks; i++)
			draw_line(c, pl.x, panel_y(p, p->y.ticks[i]), pl.x + pl.w, panel_y(p, p->y.ticks[i]), st->thin * 0.7, 0);
		if (!p->ncat)
			for (int i = 0; i < p->x.nticks; i++)
				draw_line(c, panel_x(p, p->x.ticks[i]), pl.y, panel_x(p, p->x.ticks[i]), bottom, st->thin * 0.7, 0);
		cairo_restore(c->cr);
	}
	cairo_save(c->cr);
	set_rgb(c, &st->ink);
	draw_line(c, pl.x, pl.y, pl.x, bottom, st->thin, 0);
	draw_line(c, pl.x, bottom, pl.x + pl.w, bottom, st->thin, 0);
	double tk = sz(c, 3);
	int yaxis = rec_axis(c), xaxis = rec_axis(c);
	for (int i = 0; i < p->y.nticks; i++) {
		double y = panel_y(p, p->y.ticks[i]);
		draw_line(c, pl.x - tk, y, pl.x, y, st->thin, 0);
		rec_tick(c, yaxis, 'y', p->y.log ? LR_LOG : LR_LIN, pl.x, y, p->y.ticks[i]);
		text_at(c, pl.x - tk - sz(c, 1.5), y, tick_label(p->y.ticks[i], &p->y, p->yfmt, buf, sizeof(buf)),
			fs, 0, 1, 0.5, NULL);
	}
	for (int i = 0; i < p->y.nminor; i++) {
		double y = panel_y(p, p->y.minor[i]);
		if (p->y.minor[i] >= p->y.lo && p->y.minor[i] <= p->y.hi)
			draw_line(c, pl.x - tk * 0.55, y, pl.x, y, st->thin * 0.8, 0);
	}
	if (p->ncat) {
		double cw = pl.w / p->ncat * 0.95;
		for (int i = 0; i < p->ncat; i++) {
			char lab[64];
			cat_label(p->cat_short[i], lab, sizeof(lab));
			if (p->cat_value[i] > 0)
				rec_tick(c, xaxis, 'x', LR_CAT, panel_cat_x(p, i), bottom, p->cat_value[i]);
			if (p->cat_turned) {
				/* upright, its end under the axis */
				cairo_save(c->cr);
				cairo_translate(c->cr, panel_cat_x(p, i), bottom + tk);
				cairo_rotate(c->cr, -M_PI / 2);
				text_at(c, 0, 0, p->cats[i], fs, 0, 1, 0.5, NULL);
				cairo_restore(c->cr);
			} else {
				text_block(c, panel_cat_x(p, i) - cw / 2, bottom + tk, cw, lab, fs, TX_CENTER, NULL);
			}
		}
		if (p->cat_abbrev) {
			/* under the labels: what the abbreviations stand for */
			double lh = 0, th;
			for (int i = 0; i < p->ncat; i++) {
				char lab[64];
				double h;
				cat_label(p->cat_short[i], lab, sizeof(lab));
				text_extent(c, lab, fs, TX_CENTER, cw, NULL, &h);
				lh = fmax(lh, h);
			}
			text_extent(c, "0", fs, 0, 0, NULL, &th);
			text_at(c, pl.x + pl.w / 2, bottom + tk + lh + th * 0.15, p->abbrev_key, fs, TX_ITALIC, 0.5, 0, &st->muted);
		}
	} else {
		for (int i = 0; i < p->x.nticks; i++) {
			double x = panel_x(p, p->x.ticks[i]);
			draw_line(c, x, bottom, x, bottom + tk, st->thin, 0);
			rec_tick(c, xaxis, 'x', p->x.log ? LR_LOG : LR_LIN, x, bottom, p->x.ticks[i]);
			text_at(c, x, bottom + tk, tick_label(p->x.ticks[i], &p->x, p->xfmt, buf, sizeof(buf)),
				fs, 0, 0.5, 0, NULL);
		}
		for (int i = 0; i < p->x.nminor; i++)
			if (p->x.minor[i] >= p->x.lo && p->x.minor[i] <= p->x.hi)
				draw_line(c, panel_x(p, p->x.minor[i]), bottom, panel_x(p, p->x.minor[i]), bottom + tk * 0.55,
					  st->thin * 0.8, 0);
	}
	double th;
	text_extent(c, "0", fs, 0, 0, NULL, &th);
	if (p->xlabel[0])
		text_at(c, pl.x + pl.w / 2, bottom + tk + th * 1.15, p->xlabel, fs, 0, 0.5, 0, NULL);
	if (p->ylabel[0])
		text_vertical(c, p->outer.x + th * 0.55, pl.y + pl.h / 2, p->ylabel, fs, 0);
	if (p->title[0])
		text_at(c, pl.x + pl.w / 2, p->outer.y, p->title, fs * 1.05, TX_BOLD, 0.5, 0, NULL);
	cairo_restore(c->cr);
}

void draw_whisker(struct rctx *c, double x, double y0, double y1, double cap)
{
	double w = c->st->thin;
	draw_line(c, x, y0, x, y1, w, 0);
	draw_line(c, x - cap / 2, y0, x + cap / 2, y0, w, 0);
	draw_line(c, x - cap / 2, y1, x + cap / 2, y1, w, 0);
	rec_mark(c, x - cap / 2, fmin(y0, y1) - w / 2, x + cap / 2, fmax(y0, y1) + w / 2);
}

/* ---- legend ------------------------------------------------------------ */

const char *legend_key(const struct legend_entry *e) { return e->part[0] ? e->part : e->label; }

static double legend_size(const struct rctx *c) { return c->legend_fs > 0 ? c->legend_fs : c->st->size_chart; }

static double entry_width(struct rctx *c, const struct legend_entry *e, double *th)
{
	double w;
	text_extent(c, e->label, legend_size(c), 0, 0, &w, th);
	return sz(c, 22) + w + sz(c, 12);
}

double legend_height(struct rctx *c, const struct legend_entry *e, size_t n, double w)
{
	if (!n)
		return 0;
	double x = 0, th = 0;
	int rows = 1;
	for (size_t i = 0; i < n; i++) {
		double ew = entry_width(c, &e[i], &th);
		if (x > 0 && x + ew > w) {
			rows++;
			x = 0;
		}
		x += ew;
	}
	return rows * th * 1.35 + (c->num ? c->st->size_numeral * 1.2 : 0);
}

struct rbox legend_box(struct rctx *c, const struct legend_entry *e, size_t n, struct rbox *box)
{
	c->legend_fs = 0;
	double gap = sz(c, 4), lh = legend_height(c, e, n, box->w);
	if (n > 1 && lh + gap > box->h / 3) {
		/* many series or long names: one entry a row in a column at the
		 * right, in smaller type when the chart's would not fit (twelve
		 * long names on a slide left the plot a sliver under the legend) */
		for (int smaller = 0; smaller < 2; smaller++) {
			c->legend_fs = smaller ? c->st->size_chart * 0.8 : 0;
			double wmax = 0, th;
			for (size_t i = 0; i < n; i++)
				wmax = fmax(wmax, entry_width(c, &e[i], &th));
			double ch = legend_height(c, e, n, wmax);
			if (wmax + gap <= box->w * 0.6 && ch <= box->h) {
				struct rbox lb = rbox_cut_right(box, wmax + gap);
				return rbox_make(lb.x + gap, lb.y, wmax, ch);
			}
		}
		c->legend_fs = 0;
	}
	return rbox_cut_top(box, lh + gap);
}

double legend_draw(struct rctx *c, const struct legend_entry *e, size_t n, double x0, double y0, double w)
{
	if (!n) {
		c->legend_fs = 0;
		return 0;
	}
	double th = 0, total = 0;
	/* centre each row: measure rows first */
	size_t i = 0;
	double y = y0 + (c->num ? c->st->size_numeral * 1.2 : 0);
	while (i < n) {
		size_t j = i;
		double rw = 0;
		while (j < n) {
			double ew = entry_width(c, &e[j], &th);
			if (j > i && rw + ew > w)
				break;
			rw += ew;
			j++;
		}
		double x = x0 + (w - rw) / 2;
		for (size_t k = i; k < j; k++) {
			double ew = entry_width(c, &e[k], &th);
			double sw = sz(c, 16), sh = th * 0.7, sy = y + th * 0.15;
			if (e[k].bar) {
				fill_look(c, rbox_make(x, sy, sw, sh), e[k].look, c->st->thin);
			} else {
				cairo_save(c->cr);
				set_rgb(c, &e[k].look->line);
				draw_line(c, x, sy + sh / 2, x + sw, sy + sh / 2, c->st->line * 1.2, e[k].look->dash);
				cairo_restore(c->cr);
				draw_marker(c, x + sw / 2, sy + sh / 2, e[k].look->marker, sz(c, 5), e[k].look);
			}
			rec_legend(c, legend_key(&e[k]));
			if (e[k].part[0])
				draw_numeral(c, e[k].part, e[k].label, x + sw / 2, sy, x + sw / 2,
					     sy - c->st->size_numeral * 0.75);
			text_at(c, x + sw + sz(c, 4), y, e[k].label, legend_size(c), 0, 0, 0, NULL);
			x += ew;
		}
		y += th * 1.35;
		total = y - y0;
		i = j;
	}
	c->legend_fs = 0; /* legend_box's size is for this legend only */
	return total;
}

/* ---- frame ------------------------------------------------------------- */

struct rbox figure_frame(struct rctx *c, struct rbox box, const char *title, const char *conditions,
			 int standalone)
{
	const struct rstyle *st = c->st;
	if (standalone && title && *title && !st->patent) {
		char cut[800];
		if (c->cut) { /* no silent cap: the cut in the title, as a document's caption says it */
			snprintf(cut, sizeof cut, "%s (%s)", title, c->cut);
			title = cut;
		}
		double h = text_block(c, box.x, box.y, box.w, title, st->size_h2, TX_BOLD, NULL);
		rbox_cut_top(&box, h + sz(c, 4));
	}
	/* slides state their conditions on the deck's data slide and in the notes */
	if (conditions && *conditions && !st->patent && !(st->slides && !standalone)) {
		double h;
		text_extent(c, conditions, st->size_small, TX_ITALIC, box.w, NULL, &h);
		struct rbox cap = rbox_cut_bottom(&box, h + sz(c, 3));
		text_block(c, cap.x, cap.y + sz(c, 3), cap.w, conditions, st->size_small, TX_ITALIC, &st->muted);
	}
	set_rgb(c, &st->ink);
	return box;
}

struct rbox figure_frame_recs(struct rctx *c, const struct rdata *rd, struct rbox box, const char *title,
			      const struct record *const *recs, size_t n, int standalone)
{
	char cond[512];
	rdata_conditions(rd, recs, n, cond, sizeof(cond));
	return figure_frame(c, box, title, cond, standalone);
}

void draw_notice(struct rctx *c, struct rbox b, const char *what, const char *why)
{
	const struct rstyle *st = c->st;
	cairo_save(c->cr);
	set_rgb(c, &st->muted);
	draw_rect(c, rbox_inset(b, 2, 2, 2, 2), st->thin, 4);
	cairo_restore(c->cr);
	double w = b.w * 0.8;
	double h1, h2;
	text_extent(c, what, st->size_chart * 1.1, TX_BOLD | TX_CENTER, w, NULL, &h1);
	text_extent(c, why, st->size_chart, TX_CENTER, w, NULL, &h2);
	double y = b.y + (b.h - h1 - h2 - sz(c, 4)) / 2;
	text_block(c, b.x + (b.w - w) / 2, y, w, what, st->size_chart * 1.1, TX_BOLD | TX_CENTER, NULL);
	text_block(c, b.x + (b.w - w) / 2, y + h1 + sz(c, 4), w, why, st->size_chart, TX_CENTER, &st->muted);
}
