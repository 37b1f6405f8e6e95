/* fig_dataflow.c: where a variant's data live — HBM buffers against on-chip
 * tiles — drawn from its descriptor and the measured bytes.
 *
 * The rows of the HBM column are the matrices of the attention story
 * (attn_matrices[]) then the variant's own extra buffers; a matrix the
 * variant does not store is drawn dashed and struck through, with the
 * tile that stands for it.  Arrows carry the measured DRAM bytes (and the
 * no-cache model's bytes); a variant of several kernels gets a line per kernel.
 */
#include "render/figure_draw.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The data flow's HBM column: the description's "hbm" rows of group g,
 * each stored (its formula and bytes, allocated where the record says) or
 * drawn dashed where the variant keeps it on chip. */
static void draw_hbm_column(struct rctx *c, const struct figdesc *d, int g, struct rbox hbm)
{
	const struct rstyle *st = c->st;
	const double fs = st->size_chart;
	fill_rect(c, hbm, &st->hbm_fill);
	draw_rect(c, hbm, st->line, 0);
	double hh = text_at(c, hbm.x + sz(c, 4), hbm.y + sz(c, 3), "HBM (off-chip)", fs, TX_BOLD, 0, 0, NULL);
	draw_numeral(c, "hbm", "high-bandwidth memory (HBM) of the GPU", hbm.x + hbm.w * 0.7, hbm.y + 1,
		     hbm.x + hbm.w * 0.85, hbm.y - st->size_numeral * 0.7);
	struct rbox rows = rbox_inset(hbm, hh + sz(c, 6), sz(c, 4), sz(c, 4), sz(c, 4));
	size_t nrows = 0;
	while (figdesc_part_of(d, g, "hbm", nrows))
		nrows++;
	double rh = rows.h / nrows, gap = fmin(rh * 0.18, sz(c, 3));
	for (size_t i = 0; i < nrows; i++) {
		const struct figitem *it = figdesc_part_of(d, g, "hbm", i);
		const int present = !strcmp(it->state, "stored");
		struct rbox rb = rbox_make(rows.x, rows.y + i * rh, rows.w, rh - gap);
		char part[64];
		if (present) {
			fill_rect(c, rb, &st->paper);
			draw_rect(c, rb, st->thin * 1.4, 0);
			snprintf(part, sizeof(part), "buffer:%s", it->name);
		} else {
			/* a dashed outline: the buffer is not there (no strike through the words) */
			cairo_save(c->cr);
			set_rgb(c, &st->muted);
			draw_rect(c, rb, st->thin, 3);
			cairo_restore(c->cr);
			snprintf(part, sizeof(part), "absent:%s", it->name);
		}
		double lw;
		const struct rgb *col = present ? NULL : &st->muted;
		double ls = fmin(fs * 1.15, rb.h * 0.8 / (c->scale > 0 ? c->scale : 1));
		text_extent(c, it->label, ls, TX_BOLD, 0, &lw, NULL);
		text_at(c, rb.x + sz(c, 3), rb.y + rb.h / 2, it->label, ls, TX_BOLD, 0, 0.5, col);
		double avail = rb.w - lw - sz(c, 9);
		/* the full description, else a shorter one: never type below the minimum */
		const char *choice[3] = { it->text, it->alt[0], it->alt[1] };
		double fsz;
		int pick = text_choose(c, choice, 3, fs * 0.85, present ? 0 : TX_ITALIC, avail, &fsz);
		text_at(c, rb.x + lw + sz(c, 7), rb.y + rb.h / 2, choice[pick], fsz, present ? 0 : TX_ITALIC, 0, 0.5, col);
		/* row numerals left of the HBM column: the arrows' labels own the middle */
		draw_numeral(c, part, it->what, rb.x + sz(c, 2), rb.y + rb.h / 2, hbm.x - c->st->size_numeral * 0.9, rb.y + rb.h / 2);
	}
}

/* The on-chip column: the library kernels' steps ("kernel" parts), or the
 * variant's tiles in shared memory and in registers with their sizes. */
static void draw_chip_column(struct rctx *c, const struct figdesc *d, int g, struct rbox chip)
{
	const struct rstyle *st = c->st;
	const double fs = st->size_chart;
	fill_rect(c, chip, &st->chip_fill);
	draw_rect(c, chip, st->line, 0);
	const double hh = text_at(c, chip.x + sz(c, 4), chip.y + sz(c, 3), "on chip: one SM", fs, TX_BOLD, 0, 0, NULL);
	draw_numeral(c, "sm", "streaming multiprocessor (on-chip)", chip.x + chip.w * 0.8, chip.y + 1,
		     chip.x + chip.w * 0.9, chip.y - st->size_numeral * 0.7);
	struct rbox in = rbox_inset(chip, hh + sz(c, 6), sz(c, 4), sz(c, 4), sz(c, 4));
	if (!figdesc_part_of(d, g, "tile", 0)) {
		/* library kernels: say what each does, the tiles are theirs */
		double y = in.y, bottom = in.y + in.h, h;
		size_t nk = 0;
		while (figdesc_part_of(d, g, "kernel", nk))
			nk++;
		for (size_t k = 0; k < nk; k++) {
			const struct figitem *it = figdesc_part_of(d, g, "kernel", k);
			/* what each does when there is room, else its name */
			const char *buf = it->text;
			text_extent(c, buf, fs * 0.85, 0, in.w, NULL, &h);
			if (y + h > bottom - (nk - 1 - k) * fs * 1.3 * c->scale)
				buf = it->alt[0];
			text_extent(c, buf, fs * 0.85, 0, in.w, NULL, &h);
			if (y + h > bottom)
				break;
			y += text_block(c, in.x, y, in.w, buf, fs * 0.85, 0, NULL) + sz(c, 3);
		}
		const char *tiles = "tiles are the libraries' own: every kernel reads its inputs from HBM and writes its whole output back";
		text_extent(c, tiles, fs * 0.8, TX_ITALIC, in.w, NULL, &h);
		if (y + h <= bottom)
			y += text_block(c, in.x, y, in.w, tiles, fs * 0.8, TX_ITALIC, &st->muted);
	} else {
		int nsh = 0, nreg = 0;
		const struct figitem *it;
		for (size_t k = 0; (it = figdesc_part_of(d, g, "tile", k)); k++)
			if (!strcmp(it->state, "shared")) nsh++; else nreg++;
		double unit = in.h / (nsh + nreg + 2.2);
		struct rbox shb = rbox_cut_top(&in, unit * (nsh + 1.1));
		rbox_cut_top(&in, unit * 0.1);
		struct rbox rgb_ = in;
		for (int place = 0; place < 2; place++) {
			struct rbox pb = place ? rgb_ : shb;
			fill_rect(c, pb, place ? &st->reg_fill : &st->shared_fill);
			draw_rect(c, pb, st->thin, 0);
			text_at(c, pb.x + sz(c, 3), pb.y + sz(c, 1.5), place ? "registers" : "shared memory (SRAM)",
				fs * 0.85, TX_ITALIC, 0, 0, NULL);
			draw_numeral(c, place ? "registers" : "smem", place ? "register file" : "shared memory (on-chip SRAM)",
				     pb.x + pb.w - sz(c, 2), pb.y + sz(c, 4), chip.x + chip.w + c->st->size_numeral * 0.9, pb.y + sz(c, 4));
			int row = 0;
			for (size_t k = 0; (it = figdesc_part_of(d, g, "tile", k)); k++) {
				if ((strcmp(it->state, "registers") == 0) != place)
					continue;
				double y = pb.y + unit * (row + 0.95);
				struct rbox tb = rbox_make(pb.x + sz(c, 6), y, pb.w - sz(c, 12), unit * 0.82);
				fill_rect(c, tb, &st->paper);
				draw_rect(c, tb, st->thin, 0);
				const char *choice[3] = { it->text, it->alt[0], it->alt[1] };
				double fsz;
				int pick = text_choose(c, choice, 3, fs * 0.85, 0, tb.w - sz(c, 6), &fsz);
				text_at(c, tb.x + sz(c, 3), tb.y + tb.h / 2, choice[pick], fsz, 0, 0, 0.5, NULL);
				char part[64];
				snprintf(part, sizeof(part), "tile:%s", it->name);
				draw_numeral(c, part, it->what, tb.x + tb.w, tb.y + tb.h / 2, chip.x + chip.w + c->st->size_numeral * 0.9, tb.y + tb.h / 2);
				row++;
			}
		}
	}
}

/* The arrows between the columns: the record's measured DRAM bytes read
 * and written, the no-cache model's bytes, and per kernel where there are several. */
static void draw_traffic(struct rctx *c, const struct figdesc *d, int g, struct rbox mid)
{
	const struct rstyle *st = c->st;
	const double fs = st->size_chart;
	double ax0 = mid.x + sz(c, 4), ax1 = mid.x + mid.w - sz(c, 4);
	double y1 = mid.y + mid.h * 0.22, y2 = mid.y + mid.h * 0.5;
	draw_arrow(c, ax0, y1, ax1, y1, st->line * 1.4, sz(c, 7), NULL);
	draw_arrow(c, ax1, y2, ax0, y2, st->line * 1.4, sz(c, 7), NULL);
	draw_numeral(c, "read", "reads from HBM to the chip", (ax0 + ax1) / 2, y1, (ax0 + ax1) / 2 + sz(c, 14), y1 + sz(c, 12));
	draw_numeral(c, "write", "writes from the chip to HBM", (ax0 + ax1) / 2, y2, (ax0 + ax1) / 2 + sz(c, 14), y2 + sz(c, 12));
	double afs = fs * 0.85;
	const struct figitem *rp = figdesc_part_of(d, g, "read", 0), *wp = figdesc_part_of(d, g, "write", 0);
	text_block(c, mid.x, y1 - sz(c, 2) - afs * 1.3 * c->scale, mid.w, rp ? rp->text : "", afs, TX_CENTER, NULL);
	double y = y2 + sz(c, 3) + text_block(c, mid.x, y2 + sz(c, 3), mid.w, wp ? wp->text : "", afs, TX_CENTER, NULL) + sz(c, 1);
	const struct figitem *mp = figdesc_part_of(d, g, "model", 0);
	if (mp)
		y += text_block(c, mid.x, y, mid.w, mp->text, afs * 0.9, TX_CENTER | TX_ITALIC, &st->muted);
	/* per kernel, when there are several and their counters are there */
	const struct figitem *lp;
	size_t nl = 0;
	while (figdesc_part_of(d, g, "launch", nl))
		nl++;
	for (size_t k = 0; (lp = figdesc_part_of(d, g, "launch", k)); k++) {
		double kh, mh = 0;
		char more[64];
		snprintf(more, sizeof more, "%zu more kernels not listed here", nl - k);
		text_extent(c, lp->text, afs * 0.8, TX_CENTER, mid.w, NULL, &kh);
		if (k + 1 < nl)
			text_extent(c, more, afs * 0.8, TX_CENTER | TX_ITALIC, mid.w, NULL, &mh);
		if (y + sz(c, 2) + kh + (mh > 0 ? sz(c, 2) + mh : 0) > mid.y + mid.h) {
			/* no room left in the column for this one and a line after it: say how many are not drawn */
			text_block(c, mid.x, y + sz(c, 2), mid.w, more, afs * 0.8, TX_CENTER | TX_ITALIC, &st->muted);
			break;
		}
		y += text_block(c, mid.x, y + sz(c, 2), mid.w, lp->text, afs * 0.8, TX_CENTER, NULL) + sz(c, 2);
	}
	const struct figitem *np = figdesc_part_of(d, g, "norecord", 0);
	if (np)
		text_block(c, mid.x, mid.y + mid.h * 0.8, mid.w, np->text, afs * 0.8, TX_CENTER | TX_ITALIC, &st->muted);
}

static void draw_one(struct rctx *c, const struct figdesc *d, int g, struct rbox box)
{
	const struct rstyle *st = c->st;
	double fs = st->size_chart;
	/* title strip: the variant and its one-line summary */
	double th = text_block(c, box.x, box.y, box.w, figdesc_part_of(d, g, "name", 0)->text, fs * 1.25, TX_BOLD | TX_MONO, NULL);
	rbox_cut_top(&box, th);
	double sh = text_block(c, box.x, box.y, box.w, figdesc_part_of(d, g, "summary", 0)->text, fs * 0.9, 0, &st->muted);
	rbox_cut_top(&box, sh + sz(c, 4));

	struct rbox hbm = rbox_cut_left(&box, box.w * 0.5);
	struct rbox mid = rbox_cut_left(&box, box.w * 0.3);
	struct rbox chip = box;

	draw_hbm_column(c, d, g, hbm);
	draw_chip_column(c, d, g, chip);
	draw_traffic(c, d, g, mid);
}

static void footer_line(struct rctx *c, struct rbox *box, const char *text)
{
	double h;
	text_extent(c, text, c->st->size_chart, 0, box->w, NULL, &h);
	struct rbox f = rbox_cut_bottom(box, h + sz(c, 5));
	text_block(c, f.x, f.y + sz(c, 4), f.w, text, c->st->size_chart, 0, NULL);
}

/* The description of kind (figdesc_dataflow or _compare) framed with its
 * title: 0 with d to draw, 1 when nothing is left to draw (d released). */
static int flow_framed(struct rctx *c, const struct rdata *rd, const struct figopts *o, const char *title,
		       int (*build)(const struct rdata *, const struct figopts *, struct figdesc *), struct figdesc *d,
		       struct rbox *box)
{
	if (build(rd, o, d)) {
		figdesc_release(d);
		return 1;
	}
	*box = figure_frame_recs(c, rd, *box, title, d->used, d->nused, o->standalone);
	if (d->notice[0]) {
		draw_notice(c, *box, d->notice, d->notice_why);
		figdesc_release(d);
		return 1;
	}
	footer_line(c, box, figdesc_text(d, "footer", 0));
	if (c->num) { /* room for numerals on both sides */
		rbox_cut_left(box, c->st->size_numeral * 1.8);
		rbox_cut_right(box, c->st->size_numeral * 1.8);
	}
	return 0;
}

void fig_dataflow(struct rctx *c, const struct rdata *rd, const struct figopts *o, struct rbox box)
{
	char title[256];
	fig_dataflow_title(rd, o, title, sizeof(title));
	struct figdesc d;
	figdesc_init(&d, "dataflow");
	if (flow_framed(c, rd, o, title, figdesc_dataflow, &d, &box))
		return;
	draw_one(c, &d, 0, box);
	figdesc_release(&d);
}

void fig_dataflow_compare(struct rctx *c, const struct rdata *rd, const struct figopts *o, struct rbox box)
{
	char title[256];
	fig_dataflow_compare_title(rd, o, title, sizeof(title));
	struct figdesc d;
	figdesc_init(&d, "dataflow-compare");
	if (flow_framed(c, rd, o, title, figdesc_dataflow_compare, &d, &box))
		return;
	/* one above the other on a portrait box, side by side on a wide one */
	double old = c->scale;
	if (box.h > box.w * 0.75) {
		struct rbox top = rbox_cut_top(&box, box.h / 2);
		rbox_cut_top(&box, sz(c, 10));
		draw_one(c, &d, 0, rbox_inset(top, 0, 0, sz(c, 4), 0));
		draw_one(c, &d, 1, box);
	} else {
		c->scale = old * 0.85;
		struct rbox left = rbox_cut_left(&box, box.w / 2);
		rbox_cut_left(&box, sz(c, 10));
		draw_one(c, &d, 0, rbox_inset(left, 0, sz(c, 6), 0, 0));
		draw_one(c, &d, 1, box);
		c->scale = old;
	}
	figdesc_release(&d);
}
