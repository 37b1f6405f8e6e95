/* fig_hierarchy.c: the memory hierarchy, the motivation for tiling.
 *
 * Shared memory (the SRAM on each SM), the L2 and HBM as a stepped pyramid,
 * small and fast on top, each level with its size from the device
 * properties in the results header (smem_per_sm × sm_count, l2_bytes,
 * hbm_bytes) and its bandwidth from the ceilings measured in the run
 * (ceilings.smem_gbs, ceilings.l2_gbs, copy_gbs); a value the header lacks
 * reads "not measured".  Drawn from the header alone, no record needed.
 */
#include "render/figure_draw.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

struct level {
	const char *name, *tag;
	char size[160], bw[160];
	const struct rgb *fill;
};

void fig_hierarchy(struct rctx *c, const struct rdata *rd, const struct figopts *o, struct rbox box)
{
	const struct rstyle *st = c->st;
	const struct gpu_info *g = &rd->res->header.gpu;
	char title[200], cond[400], b1[48], b2[48];
	fig_hierarchy_title(rd, o, title, sizeof(title));
	snprintf(cond, sizeof(cond), "%s%s%d SMs · sizes: the device's properties; bandwidths measured in the run "
		 "(HBM: a device-to-device copy, read + write; L2 and shared memory: loads, kernels/ceilings.cu)",
		 g->name ? g->name : "", g->name ? " · " : "", g->hw.sm_count);
	box = figure_frame(c, box, title, cond, o->standalone);
	if (!g->hw.hbm_bytes && !g->hw.l2_bytes) {
		draw_notice(c, box, "no memory hierarchy", "the results header names no GPU sizes (header.gpu)");
		return;
	}
	/* a bandwidth is "not measured" unless the run measured it */
	struct level lv[3] = {
		{ .name = "Shared memory (SRAM)", .tag = "SRAM", .fill = &st->shared_fill, .bw = "bandwidth not measured" },
		{ .name = "L2 cache", .tag = "L2", .fill = &st->chip_fill, .bw = "bandwidth not measured" },
		{ .name = "HBM (device memory)", .tag = "HBM", .fill = &st->hbm_fill, .bw = "bandwidth not measured" },
	};
	if (g->hw.smem_per_sm && g->hw.sm_count > 0) {
		fmt_quantity((double)g->hw.smem_per_sm, U_BYTES, NULL, b1, sizeof(b1));
		fmt_quantity((double)g->hw.smem_per_sm * g->hw.sm_count, U_BYTES, NULL, b2, sizeof(b2));
		snprintf(lv[0].size, sizeof(lv[0].size), "%s on each SM, %s on %d SMs", b1, b2, g->hw.sm_count);
	} else
		snprintf(lv[0].size, sizeof(lv[0].size), "size not measured (not in this file's header)");
	if (g->ceil.smem_gbs > 0)
		snprintf(lv[0].bw, sizeof(lv[0].bw), "%.0f GB/s, all SMs' loads", g->ceil.smem_gbs);
	fmt_quantity((double)g->hw.l2_bytes, U_BYTES, NULL, b1, sizeof(b1));
	snprintf(lv[1].size, sizeof(lv[1].size), "%s, shared by all SMs", g->hw.l2_bytes ? b1 : "size not measured");
	if (g->ceil.l2_gbs > 0)
		snprintf(lv[1].bw, sizeof(lv[1].bw), "%.0f GB/s, reads of a resident buffer", g->ceil.l2_gbs);
	fmt_quantity((double)g->hw.hbm_bytes, U_BYTES, NULL, b1, sizeof(b1));
	snprintf(lv[2].size, sizeof(lv[2].size), "%s", g->hw.hbm_bytes ? b1 : "size not measured");
	if (g->copy_gbs > 0 && g->peak_hbm_gbs > 0)
		snprintf(lv[2].bw, sizeof(lv[2].bw), "%.0f GB/s copy (data sheet %.0f GB/s)", g->copy_gbs, g->peak_hbm_gbs);
	else if (g->copy_gbs > 0)
		snprintf(lv[2].bw, sizeof(lv[2].bw), "%.0f GB/s copy", g->copy_gbs);

	/* the ratio that motivates tiling, when both ends were measured */
	char ratio[200] = "";
	if (g->ceil.smem_gbs > 0 && g->copy_gbs > 0 && g->hw.smem_per_sm && g->hw.hbm_bytes)
		snprintf(ratio, sizeof(ratio), "shared memory: %.1f× the bandwidth of HBM, 1/%.0f of its size",
			 g->ceil.smem_gbs / g->copy_gbs, (double)g->hw.hbm_bytes / ((double)g->hw.smem_per_sm * g->hw.sm_count));
	const double fs = st->size_chart, gap = fs * 0.6;
	double lh;
	text_extent(c, "Ag", fs, 0, 0, NULL, &lh);
	if (*ratio) {
		struct rbox foot = rbox_cut_bottom(&box, lh * 1.8);
		text_at(c, foot.x + foot.w / 2, foot.y + foot.h, ratio, fs, TX_BOLD, 0.5, 1, NULL);
	}
	/* left: the pyramid, a band a level (wider is larger and slower); right: its facts */
	struct rbox pyr = rbox_make(box.x, box.y, box.w * 0.34, box.h);
	const double tx = pyr.x + pyr.w + fs * 1.5, tw = box.x + box.w - tx;
	const double bh = (pyr.h - 2 * gap) / 3;
	for (int i = 0; i < 3; i++) {
		const double w = pyr.w * (i + 1) / 3.0;
		struct rbox b = rbox_make(pyr.x + (pyr.w - w) / 2, pyr.y + i * (bh + gap), w, bh);
		fill_rect(c, b, lv[i].fill);
		set_rgb(c, &st->ink);
		draw_rect(c, b, st->line, 0);
		text_at(c, b.x + b.w / 2, b.y + b.h / 2, lv[i].tag, fs * 1.1, TX_BOLD, 0.5, 0.5, NULL);
		/* name, size and bandwidth beside the band, centred on it */
		char txt[400];
		snprintf(txt, sizeof(txt), "%s\n%s\n%s", lv[i].name, lv[i].size, lv[i].bw);
		double th;
		text_extent(c, txt, fs, 0, tw, NULL, &th);
		const double y0 = b.y + fmax(0, (b.h - th) / 2);
		double h1;
		text_extent(c, lv[i].name, fs, TX_BOLD, tw, NULL, &h1);
		text_block(c, tx, y0, tw, lv[i].name, fs, TX_BOLD, NULL);
		snprintf(txt, sizeof(txt), "%s\n%s", lv[i].size, lv[i].bw);
		text_block(c, tx, y0 + h1, tw, txt, fs, 0, NULL);
	}
}
