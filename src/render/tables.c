/* tables.c: a built table (tabledata.c) laid out by column widths and
 * drawn in a box; see figure_draw.h. */
#include "render/figure_draw.h"

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

/* A text cell that may break after '+' and '/', a heading after '_'
 * ("FLASH_ATTENTION"): a zero-width space there. */
static const char *breakable_after(const char *cell, const char *chars, char *buf, size_t len)
{
	size_t u = 0;
	for (const char *p = cell; *p && u + 4 < len; p++) {
		buf[u++] = *p;
		if (strchr(chars, *p) && p[1] && p[1] != ' ')
			u += (size_t)snprintf(buf + u, len - u, "\u200b");
	}
	buf[u] = '\0';
	return buf;
}

static const char *breakable(const char *cell, int right, char *buf, size_t len)
{
	return right ? cell : breakable_after(cell, "+/", buf, len);
}

/* The one-line width of s and the width of its widest piece between the
 * break characters in brk ("" : s cannot break). */
static void piece_widths(struct rctx *c, const char *s, double fs, int flags, const char *brk, double *whole, double *piece)
{
	flags |= TX_NOSCALE;
	text_extent(c, *s ? s : " ", fs, flags, 0, whole, NULL);
	if (!*brk) {
		*piece = *whole;
		return;
	}
	*piece = 0;
	char word[TCELL];
	while (*s) {
		size_t n = strcspn(s, brk);
		size_t k = n + (s[n] && s[n] != ' ' ? 1 : 0); /* '+' stays with its piece */
		if (k) {
			double w;
			snprintf(word, sizeof(word), "%.*s", (int)(k < sizeof(word) - 1 ? k : sizeof(word) - 1), s);
			text_extent(c, word, fs, flags, 0, &w, NULL);
			*piece = fmax(*piece, w);
		}
		s += k;
		s += strspn(s, " ");
	}
}

double table_draw(struct rctx *c, const struct dtable *tp, struct rbox box, int draw)
{
	const struct rstyle *st = c->st;
	const struct dtable *T = tp;
	double fs = st->slides ? st->size_small : st->size_caption * 0.95;
	/* natural (one-line) widths and the widest piece that cannot break:
	 * headings break between words, text cells also after '+' and '/',
	 * numbers never */
	double nat[TCOLS] = { 0 }, minw[TCOLS] = { 0 }, minw_us[TCOLS] = { 0 }, total = 0;
	char buf[TCELL * 2];
	double pad = sz(c, 4), shrink = 1;
	/* measured at the size they are drawn at (Pango rounds glyph positions,
	 * so widths do not scale exactly): once at the style's size and, when
	 * that is too wide, again at the smaller size */
	for (int pass = 0; pass < 2; pass++) {
		total = 0;
		for (int j = 0; j < T->ncols; j++) {
			piece_widths(c, T->head[j], fs, TX_BOLD, " ", &nat[j], &minw[j]);
			double whole;
			piece_widths(c, T->head[j], fs, TX_BOLD, " _", &whole, &minw_us[j]);
			for (int i = 0; i < T->nrows; i++) {
				double n, m;
				piece_widths(c, T->cell[i][j], fs, 0, T->right[j] ? "" : " +/", &n, &m);
				nat[j] = fmax(nat[j], n);
				minw[j] = fmax(minw[j], m);
				minw_us[j] = fmax(minw_us[j], m);
			}
			total += nat[j] + 2 * pad;
		}
		if (pass || total <= box.w)
			break;
		/* shrink the type to fit, never below the style's minimum for text */
		shrink = box.w / total;
		if (fs * shrink < st->min_text)
			shrink = st->min_text / fs;
		if (shrink >= 1)
			break;
		fs *= shrink;
	}
	double colw[TCOLS], sum = 0;
	for (int j = 0; j < T->ncols; j++) {
		/* + a hair, so rounding in Pango's layout never wraps "128" into "12/8" */
		colw[j] = nat[j] + 2 * pad + sz(c, 1.5);
		minw[j] = minw[j] + 2 * pad + sz(c, 1.5);
		minw_us[j] = minw_us[j] + 2 * pad + sz(c, 1.5);
		sum += colw[j];
	}
	/* still too wide: the widest text column gives way, down to its
	 * widest unbreakable piece; numeric columns keep their width.  Then,
	 * if that is not enough, headings break after '_' too */
	for (int round = 0; round < 2 && sum > box.w + 0.5; round++) {
		if (round)
			memcpy(minw, minw_us, sizeof(minw));
		for (int pass = 0; pass < 32 && sum > box.w + 0.5; pass++) {
			int wi = -1;
			for (int j = 0; j < T->ncols; j++)
				if (colw[j] - minw[j] > 0.5 && (wi < 0 || colw[j] > colw[wi]))
					wi = j;
			if (wi < 0)
				break;
			double take = fmin(sum - box.w, fmax((colw[wi] - minw[wi]) * 0.5, fmin(colw[wi] - minw[wi], 4)));
			colw[wi] -= take;
			sum -= take;
		}
	}
	double y = box.y;
	double rowh_head;
	cairo_save(c->cr);
	/* header: a heading whose words do not fit its column may break after '_' */
	{
		double h = 0, x = box.x;
		char heads[TCOLS][120];
		for (int j = 0; j < T->ncols; j++) {
			double th, hw;
			text_extent(c, T->head[j], fs, TX_BOLD | TX_NOSCALE, 0, &hw, NULL);
			if (hw > colw[j] - 2 * pad)
				breakable_after(T->head[j], "_", heads[j], sizeof(heads[j]));
			else
				snprintf(heads[j], sizeof(heads[j]), "%s", T->head[j]);
			text_extent(c, heads[j], fs, TX_BOLD | TX_NOSCALE, colw[j] - 2 * pad, NULL, &th);
			h = fmax(h, th);
		}
		rowh_head = h + pad;
		if (draw) {
			for (int j = 0; j < T->ncols; j++) {
				text_block(c, x + pad, y + pad / 2, colw[j] - 2 * pad, heads[j], fs,
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
			text_extent(c, T->cell[i][j][0] ? breakable(T->cell[i][j], T->right[j], buf, sizeof(buf)) : " ", fs,
				    TX_NOSCALE, colw[j] - 2 * pad, NULL, &th);
			h = fmax(h, th);
		}
		h += pad * 0.6;
		if (draw) {
			if (i % 2 == 1 && st->grey_fills)
				fill_rect(c, rbox_make(box.x, y, tw, h), &st->chip_fill);
			for (int j = 0; j < T->ncols; j++) {
				if (T->meas[i][j]) /* the cell's provenance, for the linter */
					rec_cell(c, x, y, x + colw[j], y + h, T->meas[i][j] > 0, T->qty[j], T->rowkey[i]);
				text_block(c, x + pad, y + pad * 0.3, colw[j] - 2 * pad, breakable(T->cell[i][j], T->right[j], buf, sizeof(buf)), fs,
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
