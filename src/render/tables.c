/* tables.c: a built table (tabledata.c) laid out by column widths and
 * drawn in a box; see figure.h. */
#include "render/figure.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"

double table_render(struct rctx *c, const struct rdata *rd, int kind, const struct figopts *o,
		    struct rbox box, int draw)
{
	struct dtable *t = table_build(rd, kind, o);
	if (!t)
		return 0;
	double h = table_draw(c, t, box, draw);
	table_free(t);
	return h;
}

double table_draw(struct rctx *c, const struct dtable *tp, struct rbox box, int draw)
{
	const struct rstyle *st = c->st;
	const struct dtable *T = tp;
	double fs = st->slides ? st->size_small : st->size_caption * 0.95;
	/* natural widths, then shrink the type (to 70 %) and wrap the rest */
	double nat[TCOLS] = { 0 }, total = 0;
	for (int j = 0; j < T->ncols; j++) {
		double w;
		/* a heading may wrap between words; a cell may not */
		char word[128];
		const char *h = T->head[j];
		nat[j] = 0;
		while (*h) {
			size_t n = strcspn(h, " ");
			snprintf(word, sizeof(word), "%.*s", (int)(n < sizeof(word) - 1 ? n : sizeof(word) - 1), h);
			text_extent(c, word, fs, TX_BOLD, 0, &w, NULL);
			if (w > nat[j])
				nat[j] = w;
			h += n;
			h += strspn(h, " ");
		}
		for (int i = 0; i < T->nrows; i++) {
			text_extent(c, T->cell[i][j], fs, 0, 0, &w, NULL);
			if (w > nat[j])
				nat[j] = w;
		}
	}
	double pad = sz(c, 4);
	for (int j = 0; j < T->ncols; j++)
		total += nat[j] + 2 * pad;
	double shrink = total > box.w ? box.w / total : 1;
	if (shrink < 0.7)
		shrink = 0.7;
	fs *= shrink;
	double colw[TCOLS], sum = 0;
	for (int j = 0; j < T->ncols; j++) {
		/* + a hair, so rounding in Pango's layout never wraps "128" into "12/8" */
		colw[j] = (nat[j] * shrink + 2 * pad) + sz(c, 1.5);
		sum += colw[j];
	}
	if (sum > box.w) {
		/* still too wide: take the surplus from the widest columns */
		double over = sum - box.w;
		for (int pass = 0; pass < 4 && over > 0.5; pass++) {
			int wi = 0;
			for (int j = 1; j < T->ncols; j++)
				if (colw[j] > colw[wi])
					wi = j;
			double take = fmin(over, colw[wi] * 0.5);
			colw[wi] -= take;
			over -= take;
		}
	}
	double y = box.y;
	double rowh_head;
	cairo_save(c->cr);
	/* header */
	{
		double h = 0, x = box.x;
		for (int j = 0; j < T->ncols; j++) {
			double th;
			text_extent(c, T->head[j], fs, TX_BOLD | TX_NOSCALE, colw[j] - 2 * pad, NULL, &th);
			h = fmax(h, th);
		}
		rowh_head = h + pad;
		if (draw) {
			for (int j = 0; j < T->ncols; j++) {
				text_block(c, x + pad, y + pad / 2, colw[j] - 2 * pad, T->head[j], fs,
					   TX_BOLD | TX_NOSCALE | (T->right[j] ? TX_RIGHT : 0), NULL);
				x += colw[j];
			}
			draw_line(c, box.x, y, box.x + fmin(sum, box.w), y, st->line, 0);
			draw_line(c, box.x, y + rowh_head, box.x + fmin(sum, box.w), y + rowh_head, st->thin, 0);
		}
		y += rowh_head;
	}
	double tw = fmin(sum, box.w);
	for (int i = 0; i < T->nrows; i++) {
		double h = 0, x = box.x;
		for (int j = 0; j < T->ncols; j++) {
			double th;
			text_extent(c, T->cell[i][j][0] ? T->cell[i][j] : " ", fs, TX_NOSCALE, colw[j] - 2 * pad, NULL, &th);
			h = fmax(h, th);
		}
		h += pad * 0.6;
		if (draw) {
			if (i % 2 == 1 && st->grey_fills)
				fill_rect(c, rbox_make(box.x, y, tw, h), &st->chip_fill);
			for (int j = 0; j < T->ncols; j++) {
				text_block(c, x + pad, y + pad * 0.3, colw[j] - 2 * pad, T->cell[i][j], fs,
					   TX_NOSCALE | (T->right[j] ? TX_RIGHT : 0) | (T->bad[i] ? TX_BOLD : 0),
					   T->bad[i] ? &st->warn : NULL);
				x += colw[j];
			}
		}
		y += h;
	}
	if (draw)
		draw_line(c, box.x, y, box.x + tw, y, st->line, 0);
	if (T->note[0]) {
		double nh;
		y += sz(c, 2);
		if (draw)
			nh = text_block(c, box.x, y, box.w, T->note, fs * 0.92, TX_ITALIC | TX_NOSCALE, &st->muted);
		else
			text_extent(c, T->note, fs * 0.92, TX_ITALIC | TX_NOSCALE, box.w, NULL, &nh);
		y += nh;
	}
	cairo_restore(c->cr);
	return y - box.y;
}
