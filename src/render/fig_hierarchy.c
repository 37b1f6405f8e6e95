/* fig_hierarchy.c: the memory hierarchy, the motivation for tiling.
 *
 * Shared memory (the SRAM on each SM), the L2 and HBM as a stepped pyramid,
 * small and fast on top, each level with its size from the device
 * properties in the header of the results and its bandwidth from the ceilings
 * measured in the run, as its description gives them (src/doc/figdiagram.c
 * figdesc_hierarchy: a value the header lacks reads "not measured").
 */
#include "render/figure_draw.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void fig_hierarchy(struct rctx *c, const struct rdata *rd, const struct figopts *o, struct rbox box)
{
	const struct rstyle *st = c->st;
	char title[200];
	fig_hierarchy_title(rd, o, title, sizeof(title));
	struct figdesc d;
	figdesc_init(&d, "hierarchy");
	if (figdesc_hierarchy(rd, o, &d)) {
		figdesc_release(&d);
		return;
	}
	box = figure_frame(c, box, title, d.cond, o->standalone);
	if (d.notice[0]) {
		draw_notice(c, box, d.notice, d.notice_why);
		figdesc_release(&d);
		return;
	}
	const struct rgb *fills[3] = { &st->shared_fill, &st->chip_fill, &st->hbm_fill };
	const double fs = st->size_chart, gap = fs * 0.6;
	double lh;
	text_extent(c, "Ag", fs, 0, 0, NULL, &lh);
	const struct figitem *ratio = figdesc_part(&d, "ratio", 0);
	if (ratio) {
		struct rbox foot = rbox_cut_bottom(&box, lh * 1.8);
		text_at(c, foot.x + foot.w / 2, foot.y + foot.h, ratio->text, fs, TX_BOLD, 0.5, 1, NULL);
	}
	/* left: the pyramid, a band a level (wider is larger and slower); right: its facts */
	struct rbox pyr = rbox_make(box.x, box.y, box.w * 0.34, box.h);
	const double tx = pyr.x + pyr.w + fs * 1.5, tw = box.x + box.w - tx;
	const double bh = (pyr.h - 2 * gap) / 3;
	for (int i = 0; i < 3; i++) {
		const struct figitem *lv = figdesc_part(&d, "level", (size_t)i);
		const double w = pyr.w * (i + 1) / 3.0;
		struct rbox b = rbox_make(pyr.x + (pyr.w - w) / 2, pyr.y + i * (bh + gap), w, bh);
		fill_rect(c, b, fills[i]);
		set_rgb(c, &st->ink);
		draw_rect(c, b, st->line, 0);
		text_at(c, b.x + b.w / 2, b.y + b.h / 2, lv->state, fs * 1.1, TX_BOLD, 0.5, 0.5, NULL);
		/* name, size and bandwidth beside the band, centred on it */
		char txt[sizeof lv->label + sizeof lv->text + 2];
		snprintf(txt, sizeof(txt), "%s\n%s", lv->label, lv->text);
		double th;
		text_extent(c, txt, fs, 0, tw, NULL, &th);
		const double y0 = b.y + fmax(0, (b.h - th) / 2);
		double h1;
		text_extent(c, lv->label, fs, TX_BOLD, tw, NULL, &h1);
		text_block(c, tx, y0, tw, lv->label, fs, TX_BOLD, NULL);
		text_block(c, tx, y0 + h1, tw, lv->text, fs, 0, NULL);
	}
	figdesc_release(&d);
}
