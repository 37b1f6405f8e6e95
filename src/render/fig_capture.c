/* fig_capture.c: figures of a call captured in another program, drawn from
 * measurement alone (no descriptor): its data flow with S, P, O, L as the
 * verdict reads them, its kernel sequence, its grid over the GPU's SMs with
 * the mapping gridmap.h infers, and the captured implementations' speed
 * beside attnprof's references.  The facts come from capreview.h. */
#include "render/figure_draw.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doc/capreview.h"
#include "doc/kernel_name.h"
#include "util/ustr.h"

/* ks one character shorter, ending in "…". */
static void name_shorter(char *ks)
{
	size_t n = strlen(ks);
	if (n >= 3 && !strcmp(ks + n - 3, "…"))
		n -= 3;
	if (n)
		n--;
	while (n && ((unsigned char)ks[n] & 0xC0) == 0x80)
		n--;
	snprintf(ks + n, 4, "…");
}

/* ks cut (with "…") until it fits width at size fs on one line. */
/* ks (cap bytes) cut to width at a character boundary, "…" marking the cut. */
static void fit_name(struct rctx *c, char *ks, size_t cap, double fs, double width)
{
	double w;
	text_extent(c, ks, fs, 0, 0, &w, NULL);
	if (w <= width)
		return;
	char *full = strdup(ks);
	if (!full)
		return;
	for (size_t n = strlen(full); w > width && n > 8;) {
		n = utf8_boundary(full, n - 1);
		ustr_prefix(ks, cap, full, n);
		text_extent(c, ks, fs, 0, 0, &w, NULL);
	}
	free(full);
}

/* ---- data flow -------------------------------------------------------------- */

/* The captured call's HBM column: the description's "hbm" rows (Q, K, V,
 * S/P or dS/dP, O or dQ, L) with their sizes and verdicts, struck through
 * where not stored. */
static void cap_hbm_column(struct rctx *c, struct rbox hbm, const struct figdesc *d, double lh)
{
	const struct rstyle *st = c->st;
	const double fs = st->size_chart;
	fill_rect(c, hbm, &st->hbm_fill);
	set_rgb(c, &st->ink);
	draw_rect(c, hbm, st->line, 0);
	double y = hbm.y + sz(c, 4);
	y += text_at(c, hbm.x + sz(c, 5), y, "HBM (off-chip)", fs, TX_BOLD, 0, 0, NULL) + sz(c, 3);
	/* seven rows in what is left of the box, no tighter than the type allows */
	double room = (hbm.y + hbm.h - sz(c, 3) - y) / 7;
	if (room < lh) lh = room > fs * 1.12 * c->scale ? room : fs * 1.12 * c->scale;
	double glyph = fmin(fs * 1.1 * c->scale, lh * 0.8);
	const struct figitem *m;
	for (int i = 0; (m = figdesc_part(d, "hbm", (size_t)i)); i++) {
		double gx = hbm.x + sz(c, 6);
		struct rbox gb = rbox_make(gx, y + (lh - glyph) / 2, glyph, glyph);
		int absent = !strcmp(m->state, "not stored");
		int stored = !strcmp(m->state, "stored") || !strcmp(m->state, "input") || !strcmp(m->state, "output");
		if (stored)
			fill_look(c, gb, style_series(st, i >= 5 ? 1 : 0), st->thin);
		else {
			set_rgb(c, &st->ink);
			draw_rect(c, gb, st->thin, 2);
		}
		if (absent) { /* struck through */
			set_rgb(c, &st->warn);
			draw_line(c, gb.x - 1, gb.y + gb.h + 1, gb.x + gb.w + 1, gb.y - 1, st->line, 0);
			set_rgb(c, &st->ink);
		}
		double tx = gx + glyph + sz(c, 4), tw = hbm.x + hbm.w - sz(c, 4) - tx;
		double f2 = text_fit(c, m->text, fs, st->min_figure, 0, tw);
		text_at(c, tx, y + lh / 2, m->text, f2, absent ? TX_ITALIC : 0, 0, 0.5, absent ? &st->muted : NULL);
		y += lh;
		if (y > hbm.y + hbm.h - lh * 0.9)
			break;
	}
}

/* The on-chip column: the call's longest kernel, then the description's
 * "chip" lines (what happened to S and P, the matrices counted, the family). */
static void cap_chip_column(struct rctx *c, struct rbox chip, const struct figdesc *d)
{
	const struct rstyle *st = c->st;
	const double fs = st->size_chart;
	fill_rect(c, chip, &st->chip_fill);
	set_rgb(c, &st->ink);
	draw_rect(c, chip, st->line, 0);
	double y = chip.y + sz(c, 4);
	y += text_at(c, chip.x + sz(c, 5), y, "on chip (the SMs)", fs, TX_BOLD, 0, 0, NULL) + sz(c, 3);
	char ks[160];
	snprintf(ks, sizeof(ks), "%s", figdesc_text(d, "chip-kernel", 0));
	double cw = chip.w - sz(c, 10);
	fit_name(c, ks, sizeof(ks), fs, cw);
	y += text_at(c, chip.x + sz(c, 5), y, "longest kernel:", fs, 0, 0, 0, NULL) + sz(c, 1);
	y += text_at(c, chip.x + sz(c, 5), y, ks, fs, 0, 0, 0, NULL) + sz(c, 3);
	const struct figitem *it;
	for (size_t i = 0; (it = figdesc_part(d, "chip", i)); i++) {
		double hh;
		text_extent(c, it->text, fs, 0, cw, NULL, &hh);
		if (y + hh > chip.y + chip.h - sz(c, 3))
			break; /* the box is full: the text says the rest */
		text_block(c, chip.x + sz(c, 5), y, cw, it->text, fs, 0, NULL);
		y += hh + sz(c, 3);
	}
}

/* The arrows between the columns: DRAM read and written by the call, and
 * what it wrote through the L2 (the description's "read", "write", "l2"). */
static void cap_traffic(struct rctx *c, struct rbox mid, const struct figdesc *d)
{
	const struct rstyle *st = c->st;
	const double fs = st->size_chart;
	double ax0 = mid.x + sz(c, 4), ax1 = mid.x + mid.w - sz(c, 4);
	double ay1 = mid.y + mid.h * 0.30, ay2 = mid.y + mid.h * 0.74;
	draw_arrow(c, ax0, ay1, ax1, ay1, st->line * 1.4, sz(c, 5), &st->ink);
	draw_arrow(c, ax1, ay2, ax0, ay2, st->line * 1.4, sz(c, 5), &st->accent);
	const char *rt[2] = { figdesc_text(d, "read", 0), "read" };
	double f3;
	int k = text_choose(c, rt, 2, fs, 0, mid.w - sz(c, 4), &f3);
	text_at(c, mid.x + mid.w / 2, ay1 - sz(c, 3), rt[k], f3, 0, 0.5, 1, NULL);
	text_at(c, mid.x + mid.w / 2, ay1 + sz(c, 4), "DRAM", f3, TX_ITALIC, 0.5, 0, &st->muted);
	rt[0] = figdesc_text(d, "write", 0);
	k = text_choose(c, rt, 2, fs, 0, mid.w - sz(c, 4), &f3);
	text_at(c, mid.x + mid.w / 2, ay2 - sz(c, 3), k ? "write" : rt[0], f3, 0, 0.5, 1, NULL);
	const struct figitem *l2 = figdesc_part(d, "l2", 0);
	if (l2) {
		double f4 = text_fit(c, l2->text, fs, st->min_figure, 0, mid.w - sz(c, 2));
		text_at(c, mid.x + mid.w / 2, ay2 + sz(c, 4), l2->text, f4, TX_ITALIC, 0.5, 0, &st->muted);
	}
}

void fig_capdataflow(struct rctx *c, const struct rdata *rd, const struct figopts *o, struct rbox box)
{
	const struct rstyle *st = c->st;
	struct figdesc d;
	figdesc_init(&d, "capture-dataflow");
	if (figdesc_capdataflow(rd, o, &d)) {
		figdesc_release(&d);
		return;
	}
	char title[400];
	fig_capdataflow_title(rd, o, title, sizeof(title));
	box = figure_frame(c, box, title, d.cond, o->standalone);
	if (d.notice[0]) {
		draw_notice(c, box, d.notice, d.notice_why);
		figdesc_release(&d);
		return;
	}
	double fs = st->size_chart, lh = fs * 1.45 * c->scale;
	/* header: which call */
	double h = text_block(c, box.x, box.y, box.w, figdesc_text(&d, "header", 0), fs, TX_BOLD, NULL);
	rbox_cut_top(&box, h + sz(c, 4));
	/* the rule, at the bottom */
	const char *rule = figdesc_text(&d, "rule", 0);
	double rh;
	text_extent(c, rule, fs, 0, box.w, NULL, &rh);
	struct rbox rb = rbox_cut_bottom(&box, rh + sz(c, 4));
	text_block(c, rb.x, rb.y + sz(c, 4), rb.w, rule, fs, 0, NULL);

	struct rbox hbm = rbox_cut_left(&box, box.w * 0.46);
	struct rbox mid = rbox_cut_left(&box, box.w * 0.30);
	struct rbox chip = box;
	cap_hbm_column(c, hbm, &d, lh);
	cap_chip_column(c, chip, &d);
	cap_traffic(c, mid, &d);
	figdesc_release(&d);
}

/* ---- kernel sequence ------------------------------------------------------------ */

void fig_capkernels(struct rctx *c, const struct rdata *rd, const struct figopts *o, struct rbox box)
{
	const struct rstyle *st = c->st;
	char title[300];
	struct figdesc d;
	figdesc_init(&d, "capture-kernels");
	if (figdesc_capture_kernels(rd, o, &d)) {
		figdesc_release(&d);
		return;
	}
	fig_capkernels_title(rd, o, title, sizeof(title));
	box = figure_frame(c, box, title, d.cond, o->standalone);
	if (d.notice[0]) {
		draw_notice(c, box, d.notice, d.notice_why);
		figdesc_release(&d);
		return;
	}
	int ng = 0;
	while (figdesc_part_of(&d, ng, "head", 0))
		ng++;
	double fs = st->size_chart, lh = fs * 1.35 * c->scale;
	double strip_h = fs * 2.2 * c->scale;
	double gap = sz(c, 8);
	double avail = (box.h - gap * (ng - 1)) / ng;
	/* listing lines a kind has room for (large type, several kinds: maybe one, or none) */
	int maxl = (int)floor((avail - lh - strip_h - sz(c, 3)) / lh);
	if (maxl > FD_KERNEL_LINES) maxl = FD_KERNEL_LINES;
	if (maxl < 0) maxl = 0;
	for (int p = 0; p < ng; p++) {
		const struct figitem *head = figdesc_part_of(&d, p, "head", 0);
		/* how many listing lines: the longest kernels, the rest summed in one line */
		size_t nk = 0;
		while (figdesc_part_of(&d, p, "kernel", nk))
			nk++;
		const size_t nl = figdesc_part_of(&d, p, "nodur", 0) ? head->rec->nlaunches : nk;
		int lines = nl > (size_t)maxl ? maxl : (int)nl;
		double need = lh + strip_h + sz(c, 3) + lines * lh;
		struct rbox pb = rbox_cut_top(&box, need);
		rbox_cut_top(&box, gap);
		char buf[600];
		const double total = head->v;
		double f0 = text_fit(c, head->text, fs, st->min_figure, TX_BOLD, pb.w);
		text_at(c, pb.x, pb.y, head->text, f0, TX_BOLD, 0, 0, NULL);
		struct rbox sb = rbox_make(pb.x, pb.y + lh, pb.w, strip_h);
		const struct figitem *nd = figdesc_part_of(&d, p, "nodur", 0);
		if (nd) {
			text_at(c, sb.x, sb.y, nd->text, fs, TX_ITALIC, 0, 0, &st->muted);
			continue;
		}
		/* the strip: one segment per kernel, numbered where the number fits */
		double x = sb.x;
		double last_num = -1e9;
		for (size_t i = 0; i < nk; i++) {
			double w = sb.w * figdesc_part_of(&d, p, "kernel", i)->v / total;
			struct rbox kb = rbox_make(x, sb.y, w, sb.h);
			const struct series_look *look = style_series(st, (int)(i % 2 ? 2 : 0));
			int hatched = look->hatch != HATCH_NONE; /* no text on hatching (print, patent): the number is left to the list */
			fill_look(c, kb, look, 0);
			set_rgb(c, &st->ink);
			draw_rect(c, kb, st->thin * 0.6, 0);
			char num[24];
			snprintf(num, sizeof(num), "%zu", i + 1);
			double nw;
			text_extent(c, num, fs, TX_BOLD, 0, &nw, NULL);
			/* a number where it fits, and apart from the last one drawn (a text extractor
			 * reads two numbers closer than a word space as one: "1 2" -> "12") */
			if (w > nw + sz(c, 3) && !hatched && x + w / 2 - nw / 2 - last_num > fs * 0.6 * c->scale) {
				text_at(c, x + w / 2, sb.y + sb.h / 2, num, fs, TX_BOLD | TX_KNOCKOUT, 0.5, 0.5, NULL);
				last_num = x + w / 2 + nw / 2;
			}
			x += w;
		}
		/* the listing, in launch order: the lines - 1 longest kernels (all when they fit), the rest in one
		 * line; with room for one line only, the longest kernel */
		int shown[256] = { 0 };
		int keep = nk > (size_t)lines && lines >= 2 ? lines - 1 : lines;
		const struct figitem *lg;
		for (int q = 0; q < keep && (lg = figdesc_part_of(&d, p, "longest", (size_t)q)); q++)
			shown[(int)lg->v] = 1;
		double y = sb.y + sb.h + sz(c, 3);
		size_t nrest = 0;
		for (size_t i = 0; i < nk; i++) {
			const struct figitem *kp = figdesc_part_of(&d, p, "kernel", i);
			char ks[160];
			if (i >= 256 || !shown[i]) {
				nrest++;
				continue;
			}
			snprintf(ks, sizeof(ks), "%.159s", kp->text);
			double f1 = fs, w1;
			/* the name gives way where the line does not fit even in the smallest type (slides) */
			for (;;) { /* smaller type down to the minimum, then a shorter name */
				snprintf(buf, sizeof(buf), "%s%s%s", kp->label, ks, kp->alt[0]);
				f1 = text_fit(c, buf, fs, st->min_figure, 0, pb.w);
				/* type does not scale exactly linearly: measure what was chosen */
				while (text_extent(c, buf, f1, 0, 0, &w1, NULL), w1 > pb.w && f1 > st->min_figure)
					f1 = fmax(st->min_figure, f1 * 0.98);
				size_t n = strlen(ks);
				if (w1 <= pb.w || n <= 8)
					break;
				name_shorter(ks);
			}
			text_at(c, pb.x, y, buf, f1, 0, 0, 0, NULL);
			y += lh;
		}
		const struct figitem *rest = figdesc_part_of(&d, p, "rest", (size_t)keep);
		if (nrest && lines >= 2 && rest)
			text_at(c, pb.x, y, rest->text, text_fit(c, rest->text, fs, st->min_figure, TX_ITALIC, pb.w), TX_ITALIC, 0, 0,
				&st->muted);
	}
	figdesc_release(&d);
}

/* ---- the grid over the SMs ----------------------------------------------------- */

/* A number part of group g: its v, 0 none. */
static double size_v(const struct figdesc *d, int g, const char *name)
{
	const struct figitem *it;
	for (size_t i = 0; (it = figdesc_part_of(d, g, "size", i)); i++)
		if (!strcmp(it->name, name))
			return it->v;
	return 0;
}

void fig_capgrid(struct rctx *c, const struct rdata *rd, const struct figopts *o, struct rbox box)
{
	const struct rstyle *st = c->st;
	char title[300];
	struct figdesc d;
	figdesc_init(&d, "capture-grid");
	if (figdesc_capture_grid(rd, o, &d)) {
		figdesc_release(&d);
		return;
	}
	fig_capgrid_title(rd, o, title, sizeof(title));
	box = figure_frame(c, box, title, d.cond, o->standalone);
	if (d.notice[0]) {
		draw_notice(c, box, d.notice, d.notice_why);
		figdesc_release(&d);
		return;
	}
	double fs = st->size_chart, lh = fs * 1.4 * c->scale;
	double gap = sz(c, 8);
	for (int p = 0; figdesc_part_of(&d, p, "head", 0); p++) {
		const char *head = figdesc_part_of(&d, p, "head", 0)->text, *rule = figdesc_part_of(&d, p, "rule", 0)->text;
		const struct figitem *sent = figdesc_part_of(&d, p, "sent", 0);
		const int inferred = !strcmp(sent->state, "inferred");
		/* text first: kind and kernel, the mapping, the rule */
		double th, sh1, rh;
		text_extent(c, head, fs, TX_BOLD, box.w, NULL, &th);
		text_extent(c, sent->text, fs, TX_BOLD, box.w, NULL, &sh1);
		text_extent(c, rule, fs, 0, box.w, NULL, &rh);
		double waves_h = lh * 2.6, need = th + sh1 + rh + waves_h + sz(c, 9);
		if (need > box.h + 0.5) { /* no room left: say what is not drawn */
			text_at(c, box.x, box.y, figdesc_part_of(&d, p, "more", 0)->text, fs, TX_ITALIC, 0, 0, &st->muted);
			break;
		}
		struct rbox pb = rbox_cut_top(&box, need);
		rbox_cut_top(&box, gap);
		double y = pb.y;
		y += text_block(c, pb.x, y, pb.w, head, fs, TX_BOLD, NULL) + sz(c, 2);
		y += text_block(c, pb.x, y, pb.w, sent->text, fs, inferred ? TX_BOLD : TX_ITALIC,
				inferred ? &st->accent : &st->warn) + sz(c, 2);
		y += text_block(c, pb.x, y, pb.w, rule, fs, 0, NULL) + sz(c, 3);
		const struct figitem *wv_it = figdesc_part_of(&d, p, "waves", 0);
		if (!wv_it)
			continue;
		/* waves: a bar per wave (at most 12 drawn), busy share filled */
		double f1 = text_fit(c, wv_it->text, fs, st->min_figure, 0, pb.w);
		text_at(c, pb.x, y, wv_it->text, f1, 0, 0, 0, NULL);
		y += lh;
		const double last = size_v(&d, p, "last");
		const int draw = (int)size_v(&d, p, "bars");
		double bar_h = lh * 0.9, x0 = pb.x;
		double bw = (pb.w - sz(c, 60)) / (draw > 0 ? draw : 1);
		for (int wv = 0; wv < draw; wv++) {
			int is_last = wv == draw - 1;
			double frac = is_last && last > 1e-9 ? last : 1.0;
			struct rbox wb = rbox_make(x0 + wv * bw + sz(c, 1), y, bw - sz(c, 2), bar_h);
			fill_rect(c, wb, &st->idle_fill);
			fill_look(c, rbox_make(wb.x, wb.y, wb.w * frac, wb.h), style_series(st, 1), 0);
			set_rgb(c, &st->ink);
			draw_rect(c, wb, st->thin, 0);
		}
		const char *tail = figdesc_part_of(&d, p, "tail", 0)->text;
		double tw;
		text_extent(c, tail, fs, 0, 0, &tw, NULL);
		if (tw < sz(c, 58))
			text_at(c, x0 + draw * bw + sz(c, 2), y + bar_h / 2, tail, fs, 0, 0, 0.5, NULL);
	}
	figdesc_release(&d);
}

/* ---- beside the references -------------------------------------------------- */

void fig_capcompare(struct rctx *c, const struct rdata *rd, const struct figopts *o, struct rbox box)
{
	const struct rstyle *st = c->st;
	struct figdesc d;
	figdesc_init(&d, "capture-compare");
	if (figdesc_capture_compare(rd, o, &d)) {
		figdesc_release(&d);
		return;
	}
	char title[300];
	fig_capcompare_title(rd, o, title, sizeof(title));
	box = figure_frame(c, box, title, d.cond, o->standalone);
	if (d.notice[0]) {
		draw_notice(c, box, d.notice, d.notice_why);
		figdesc_release(&d);
		return;
	}
	const struct figpanel *fp = &d.panel[0];
	const int ns = (int)fp->ncat, nser = (int)d.nseries;
	struct legend_entry e[FD_SERIES];
	memset(e, 0, sizeof(e));
	for (int s = 0; s < nser; s++) {
		snprintf(e[s].label, sizeof(e[s].label), "%s", d.series[s].label);
		e[s].look = d.series[s].capture_look ? style_series(st, d.series[s].capture_look - 1)
						     : series_look_of(c, rd, d.series[s].key);
		e[s].bar = 1;
	}
	/* the legend names the series with a bar to draw */
	struct legend_entry shown[FD_SERIES];
	size_t nshown = 0;
	for (int s = 0; s < nser; s++)
		if (d.series[s].drawn)
			shown[nshown++] = e[s];
	struct rbox lb = legend_box(c, shown, nshown, &box);
	legend_draw(c, shown, nshown, lb.x, lb.y, lb.w);
	struct panel pn;
	memset(&pn, 0, sizeof(pn));
	pn.ncat = ns;
	for (int k = 0; k < ns; k++)
		snprintf(pn.cats[k], sizeof(pn.cats[k]), "%s", fp->catlabel[k]);
	axis_linear(&pn.y, 0, fp->hi > 0 ? fp->hi * 1.16 : 1, st->slides ? 4 : 5, 1); /* room for the whiskers */
	snprintf(pn.xlabel, sizeof(pn.xlabel), "%s", fp->xlabel);
	snprintf(pn.ylabel, sizeof(pn.ylabel), "%s", fp->ylabel);
	const struct figitem *miss = figdesc_part(&d, "missing", 0);
	if (miss) {
		double nh;
		text_extent(c, miss->text, st->size_chart, TX_ITALIC, box.w, NULL, &nh);
		struct rbox nb = rbox_cut_bottom(&box, nh + sz(c, 3));
		text_block(c, nb.x, nb.y + sz(c, 3), nb.w, miss->text, st->size_chart, TX_ITALIC, &st->muted);
	}
	panel_layout(c, &pn, box);
	panel_draw(c, &pn);
	double bottom = pn.plot.y + pn.plot.h;
	for (int k = 0; k < ns; k++) {
		double cx = panel_cat_x(&pn, k), slot = pn.plot.w / ns * 0.82, bw = slot / nser;
		for (int s = 0; s < nser; s++) {
			double bx = cx - slot / 2 + s * bw;
			const struct figpoint *q = figdesc_at(&d, 0, (size_t)s, (size_t)k);
			if (q->state != FP_VALUE) {
				if (!d.series[s].capture_look) /* a reference without a record there */
					text_at(c, bx + bw / 2, bottom - sz(c, 1), "×", st->size_chart, 0, 0.5, 1, &st->warn);
				continue;
			}
			double y = panel_y(&pn, q->v);
			fill_look(c, rbox_make(bx, y, bw, bottom - y), e[s].look, st->thin);
			rec_mark(c, bx, y - 0.5, bx + bw, y + 0.5);
			rec_series(c, legend_key(&e[s]));
			if (q->whisker) {
				/* the spread of the timed launches (captured calls time theirs too) */
				cairo_save(c->cr);
				set_rgb(c, &st->ink);
				draw_whisker(c, bx + bw / 2, panel_y(&pn, q->lo), panel_y(&pn, q->hi), fmin(bw * 0.6, sz(c, 4)));
				cairo_restore(c->cr);
			}
		}
	}
	figdesc_release(&d);
}
