/* fig_wshare.c: workload-share, a captured program's whole GPU time per
 * phase as a stacked bar (attention forward, backward, GEMMs,
 * communication, the rest), with attention's share and the bound of a
 * faster attention: the description's (src/doc/figworkload.c
 * figdesc_workload_share); this file only places it.
 */
#include "render/figure_draw.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* the look of each category: attention in the subject's colours, the rest in greys */
static const struct series_look *cat_look(const struct rstyle *st, int c)
{
	static const int slot[FD_WS_CATS] = { 2, 1, 3, 4, 8 };
	return style_series(st, slot[c]);
}

void fig_wshare(struct rctx *c, const struct rdata *rd, const struct figopts *o, struct rbox box)
{
	const struct rstyle *st = c->st;
	char title[200];
	fig_wshare_title(rd, o, title, sizeof(title));
	struct figdesc d;
	figdesc_init(&d, "workload-share");
	if (figdesc_workload_share(rd, o, &d)) {
		figdesc_release(&d);
		return;
	}
	box = figure_frame(c, box, title, d.cond, o->standalone);
	if (d.notice[0]) {
		draw_notice(c, box, d.notice, d.notice_why);
		figdesc_release(&d);
		return;
	}
	const double fs = st->size_chart;
	double lh;
	text_extent(c, "Ag", fs, 0, 0, NULL, &lh);
	/* the key: a swatch and a name per category */
	double x = box.x;
	for (int k = 0; k < FD_WS_CATS; k++) {
		struct rbox sw = rbox_make(x, box.y + lh * 0.15, lh * 0.7, lh * 0.7);
		fill_look(c, sw, cat_look(st, k), st->thin);
		set_rgb(c, &st->ink);
		double tw;
		text_extent(c, figdesc_ws_label[k], fs, 0, 0, &tw, NULL);
		text_at(c, x + lh, box.y, figdesc_ws_label[k], fs, 0, 0, 0, NULL);
		x += lh + tw + lh;
	}
	double y = box.y + lh * 1.8;
	const double lw = box.w * 0.18, bw = box.w - lw - fs * 6, bh = lh * 1.4;
	for (int g = 0;; g++) {
		const struct figitem *head = figdesc_part_of(&d, g, "head", 0);
		if (!head)
			break;
		const char *const heads[2] = { head->text, head->alt[0] };
		double hfs = fs;
		const int hi = text_choose(c, heads, 2, fs, TX_BOLD, box.w, &hfs);
		text_at(c, box.x, y, heads[hi], hfs, TX_BOLD, 0, 0, NULL);
		y += lh * 1.4;
		/* a program's bars on one scale: its longest phase */
		double most = 0;
		for (size_t i = 0; figdesc_part_of(&d, g, "phase", i); i++)
			most = fmax(most, figdesc_part_of(&d, g, "phase", i)->v);
		for (size_t i = 0;; i++) {
			const struct figitem *ph = figdesc_part_of(&d, g, "phase", i);
			if (!ph)
				break;
			set_rgb(c, &st->ink);
			text_at(c, box.x + lw - fs * 0.5, y + bh / 2, ph->text, fs, 0, 1, 0.5, NULL);
			double bx = box.x + lw;
			for (size_t j = 0;; j++) {
				const struct figitem *pt = figdesc_part_of(&d, g, "part", j);
				if (!pt)
					break;
				if (strcmp(pt->state, ph->state) || !(pt->v > 0) || !(most > 0))
					continue;
				int k = 0;
				while (k < FD_WS_CATS && strcmp(figdesc_ws_key[k], pt->name))
					k++;
				const double w = bw * pt->v / most;
				struct rbox seg = rbox_make(bx, y, w, bh);
				fill_look(c, seg, cat_look(st, k < FD_WS_CATS ? k : WS_REST), st->thin);
				rec_mark(c, seg.x, seg.y, seg.x + seg.w, seg.y + seg.h);
				bx += w;
			}
			char ms[48 + sizeof ph->label];
			snprintf(ms, sizeof ms, "%.3f ms%s%s%s", ph->v, ph->label[0] ? " (" : "", ph->label, ph->label[0] ? ")" : "");
			set_rgb(c, &st->ink);
			text_at(c, bx + fs * 0.5, y + bh / 2, ms, fs, 0, 0, 0.5, NULL);
			y += bh + lh * 0.5;
		}
		const struct figitem *sh = figdesc_part_of(&d, g, "share", 0), *bd = figdesc_part_of(&d, g, "bound", 0);
		char line[2][2 * sizeof d.item[0].text + 4];
		snprintf(line[0], sizeof line[0], "%s; %s", sh ? sh->text : "", bd ? bd->text : "");
		snprintf(line[1], sizeof line[1], "%s; %s", sh ? sh->alt[0] : "", bd ? bd->alt[0] : "");
		const char *const lines[2] = { line[0], line[1] };
		double lfs = fs;
		const int li = text_choose(c, lines, 2, fs, 0, box.w - lw, &lfs);
		set_rgb(c, &st->ink);
		text_at(c, box.x + lw, y, lines[li], lfs, 0, 0, 0, NULL);
		y += lh * 1.2;
		const struct figitem *dr = figdesc_part_of(&d, g, "dropped", 0);
		if (dr) {
			text_at(c, box.x + lw, y, dr->text, fs, 0, 0, 0, NULL);
			y += lh * 1.2;
		}
		y += lh * 0.6;
		if (y > box.y + box.h)
			break;
	}
	figdesc_release(&d);
}
