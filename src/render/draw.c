/* draw.c: drawing primitives over Cairo and Pango; see draw.h. */
#include "render/draw.h"
#include "util/ustr.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doc/inline.h"
#include "doc/interp.h"
#include "util/error.h"
#include "util/file.h"

/* ---- reference numerals ------------------------------------------------ */

void numerals_init(struct numerals *n) { memset(n, 0, sizeof(*n)); }

void numerals_release(struct numerals *n)
{
	free(n->parts);
	numerals_init(n);
}

int numerals_get(struct numerals *n, const char *key, const char *what)
{
	size_t i;
	for (i = 0; i < n->n; i++)
		if (!strcmp(n->parts[i].key, key))
			break;
	if (i == n->n) {
		if (n->n == n->alloc) {
			size_t cap = n->alloc ? 2 * n->alloc : 32;
			struct part *p = realloc(n->parts, cap * sizeof(*p));
			if (!p)
				return -1;
			n->parts = p;
			n->alloc = cap;
		}
		struct part *p = &n->parts[n->n++];
		memset(p, 0, sizeof(*p));
		snprintf(p->key, sizeof(p->key), "%s", key);
		snprintf(p->what, sizeof(p->what), "%s", what ? what : key);
		/* Even numbers from 10, as drafters do, leaving room between. */
		p->numeral = 10 + 2 * (int)i;
	} else if (what && strcmp(n->parts[i].what, what) && !n->parts[i].also[0]) {
		snprintf(n->parts[i].also, sizeof(n->parts[i].also), "%s", what);
	}
	int k;
	for (k = 0; k < n->nused; k++)
		if (n->used[k] == (int)i)
			break;
	if (k == n->nused && n->nused < FIG_MAX_PARTS)
		n->used[n->nused++] = (int)i;
	return n->parts[i].numeral;
}

/* ---- context ------------------------------------------------------------ */

int rctx_init(struct rctx *c, cairo_t *cr, const struct rstyle *st)
{
	memset(c, 0, sizeof(*c));
	c->cr = cr;
	c->st = st;
	c->scale = 1;
	c->pango = pango_cairo_create_context(cr);
	if (!c->pango)
		return error("cannot create a Pango context");
	cairo_font_options_t *fo = cairo_font_options_create();
	cairo_font_options_set_hint_metrics(fo, CAIRO_HINT_METRICS_OFF);
	cairo_font_options_set_hint_style(fo, CAIRO_HINT_STYLE_NONE);
	cairo_font_options_set_antialias(fo, CAIRO_ANTIALIAS_GRAY);
	pango_cairo_context_set_font_options(c->pango, fo);
	cairo_font_options_destroy(fo);
	/* Lay out in points whatever the surface's resolution. */
	pango_cairo_context_set_resolution(c->pango, 72);
	return 0;
}

void rctx_release(struct rctx *c)
{
	if (c->pango)
		g_object_unref(c->pango);
	c->pango = NULL;
}

double sz(const struct rctx *c, double size) { return size * c->scale; }

/* ---- text ---------------------------------------------------------------- */

/* Pango's line breaking is quadratic in the length of a word it must break
 * inside (32 000 characters took 2 s, 900 KB minutes): a zero-width space
 * every WORD_MAX characters of a longer word gives it places to break.
 * NULL when no word is that long (the usual case). */
enum { WORD_MAX = 64 };
static char *break_long_words(const char *s, int markup)
{
	size_t run = 0, extra = 0;
	int tag = 0;
	for (const char *p = s; *p; p++) {
		if (markup && (*p == '<' || *p == '&')) tag = 1;
		if (tag || *p == ' ' || *p == '\n' || *p == '\t' || *p == '-' || *p == '/')
			run = 0;
		else if (((unsigned char)*p & 0xC0) != 0x80 && ++run > WORD_MAX) {
			extra++;
			run = 1;
		}
		if (markup && (*p == '>' || *p == ';')) tag = 0;
	}
	if (!extra)
		return NULL;
	char *out = malloc(strlen(s) + 3 * extra + 1), *o = out;
	if (!out)
		return NULL; /* laid out as it is: slow, not wrong */
	run = 0;
	tag = 0;
	for (const char *p = s; *p; p++) {
		if (markup && (*p == '<' || *p == '&')) tag = 1;
		if (tag || *p == ' ' || *p == '\n' || *p == '\t' || *p == '-' || *p == '/')
			run = 0;
		else if (((unsigned char)*p & 0xC0) != 0x80 && ++run > WORD_MAX) {
			memcpy(o, "\xe2\x80\x8b", 3); /* U+200B ZERO WIDTH SPACE */
			o += 3;
			run = 1;
		}
		if (markup && (*p == '>' || *p == ';')) tag = 0;
		*o++ = *p;
	}
	*o = '\0';
	return out;
}

static void pango_text(void *ctx, const char *s, size_t n)
{
	char *e = g_markup_escape_text(s, (gssize)n);
	g_string_append((GString *)ctx, e);
	g_free(e);
}

static void pango_style(void *ctx, enum inline_style s, int open)
{
	static const char *const tag[INLINE_STYLES] = { "b", "i", "tt" };
	g_string_append_printf((GString *)ctx, open ? "<%s>" : "</%s>", tag[s]);
}

char *inline_pango(const char *s)
{
	static const struct inline_out out = { pango_text, pango_style };
	GString *g = g_string_new(NULL);
	inline_walk(s, &out, g);
	return g_string_free(g, FALSE);
}

PangoLayout *text_layout(struct rctx *c, const char *utf8, double size, int flags, double width)
{
	pango_cairo_update_context(c->cr, c->pango);
	PangoLayout *l = pango_layout_new(c->pango);
	PangoFontDescription *fd = pango_font_description_new();
	pango_font_description_set_family(fd, flags & TX_MONO ? c->st->mono : c->st->family);
	double s = flags & TX_NOSCALE ? size : sz(c, size);
	/* never below the style's minimum: document text (unscaled) or figure text */
	double min = flags & TX_NOSCALE ? c->st->min_text : c->st->min_figure;
	if (s < min)
		s = min;
	pango_font_description_set_absolute_size(fd, s * PANGO_SCALE);
	if (flags & TX_BOLD)
		pango_font_description_set_weight(fd, PANGO_WEIGHT_BOLD);
	if (flags & TX_ITALIC)
		pango_font_description_set_style(fd, PANGO_STYLE_ITALIC);
	pango_layout_set_font_description(l, fd);
	pango_font_description_free(fd);
	if (width > 0) {
		pango_layout_set_width(l, (int)(width * PANGO_SCALE));
		pango_layout_set_wrap(l, PANGO_WRAP_WORD_CHAR);
	}
	if (c->leading > 0)
		pango_layout_set_line_spacing(l, (float)c->leading);
	if (flags & TX_CENTER)
		pango_layout_set_alignment(l, PANGO_ALIGN_CENTER);
	else if (flags & TX_RIGHT)
		pango_layout_set_alignment(l, PANGO_ALIGN_RIGHT);
	/* the last line of defence: text cut by bytes somewhere before it got here
	 * (a fixed cell of a table) is cut again at its last whole character and
	 * marked "…" instead of reaching Pango as invalid UTF-8 (a vanished run) */
	const char *bad;
	char *mended = NULL, *pango = NULL;
	if (!g_utf8_validate(utf8, -1, &bad)) {
		size_t k = (size_t)(bad - utf8), cap = k + sizeof(USTR_ELLIPSIS);
		if ((mended = malloc(cap))) {
			memcpy(mended, utf8, k);
			memcpy(mended + k, USTR_ELLIPSIS, sizeof(USTR_ELLIPSIS));
			utf8 = mended;
		} else {
			utf8 = "";
		}
	}
	if (flags & TX_INLINE) {
		utf8 = pango = inline_pango(utf8);
		flags |= TX_MARKUP;
	}
	char *broken = width > 0 ? break_long_words(utf8, flags & TX_MARKUP) : NULL;
	if (broken)
		utf8 = broken;
	if (flags & TX_MARKUP)
		pango_layout_set_markup(l, utf8, -1);
	else
		pango_layout_set_text(l, utf8, -1);
	free(broken);
	free(mended);
	g_free(pango);
	return l;
}

void text_extent(struct rctx *c, const char *utf8, double size, int flags, double width,
		 double *w, double *h)
{
	PangoLayout *l = text_layout(c, utf8, size, flags, width);
	int pw, ph;
	pango_layout_get_size(l, &pw, &ph);
	if (w) *w = (double)pw / PANGO_SCALE;
	if (h) *h = (double)ph / PANGO_SCALE;
	g_object_unref(l);
}

/* ---- the layout record ------------------------------------------------------ */

static void to_dev(struct rctx *c, double x, double y, double *q)
{
	cairo_user_to_device(c->cr, &x, &y);
	q[0] = x;
	q[1] = y;
}

/* The type size on the page: size under the current transformation. */
static double dev_size(struct rctx *c, double size)
{
	cairo_matrix_t m;
	cairo_get_matrix(c->cr, &m);
	return size * sqrt(fabs(m.xx * m.yy - m.xy * m.yx));
}

/* Record each line of a layout drawn with its top-left at (x, y). */
static void rec_layout(struct rctx *c, PangoLayout *l, double x, double y)
{
	if (!c->rec)
		return;
	const PangoFontDescription *fd = pango_layout_get_font_description(l);
	double size = dev_size(c, fd ? (double)pango_font_description_get_size(fd) / PANGO_SCALE : 0);
	const char *txt = pango_layout_get_text(l);
	int group = layrec_group(c->rec);
	PangoLayoutIter *it = pango_layout_get_iter(l);
	do {
		PangoRectangle ink;
		pango_layout_iter_get_line_extents(it, &ink, NULL);
		if (ink.width <= 0 || ink.height <= 0)
			continue;
		PangoLayoutLine *line = pango_layout_iter_get_line_readonly(it);
		double x0 = x + (double)ink.x / PANGO_SCALE, y0 = y + (double)ink.y / PANGO_SCALE;
		double x1 = x0 + (double)ink.width / PANGO_SCALE, y1 = y0 + (double)ink.height / PANGO_SCALE;
		double q[8];
		to_dev(c, x0, y0, q);
		to_dev(c, x1, y0, q + 2);
		to_dev(c, x1, y1, q + 4);
		to_dev(c, x0, y1, q + 6);
		layrec_text(c->rec, group, size, q, txt + line->start_index, (size_t)line->length);
		/* a line that starts right after a letter or digit broke a word */
		if (line->start_index > 0) {
			unsigned char prev = (unsigned char)txt[line->start_index - 1], next = (unsigned char)txt[line->start_index];
			int word = (prev >= '0' && prev <= '9') || (prev >= 'A' && prev <= 'Z') || (prev >= 'a' && prev <= 'z') || prev >= 0x80;
			int wnext = (next >= '0' && next <= '9') || (next >= 'A' && next <= 'Z') || (next >= 'a' && next <= 'z') || next >= 0x80;
			/* ... unless it broke after a zero-width space (U+200B, E2 80 8B) put there to allow it */
			int zwsp = line->start_index >= 3 && !memcmp(txt + line->start_index - 3, "\xe2\x80\x8b", 3);
			if (word && wnext && !zwsp)
				layrec_text_split(c->rec);
		}
	} while (pango_layout_iter_next_line(it));
	pango_layout_iter_free(it);
}

/* ---- text as SVG text elements ------------------------------------------------ */

static void svg_escaped(struct sbuf *s, const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const char *r = p[i] == '&' ? "&amp;" : p[i] == '<' ? "&lt;" : p[i] == '>' ? "&gt;" : NULL;
		if (r)
			sbuf_add(s, r, strlen(r));
		else if ((unsigned char)p[i] >= 0x20 || p[i] == '\t')
			sbuf_add(s, p + i, 1);
	}
}

/* The layout drawn with its top-left at (x, y), as one <text> a run: the
 * run's face, size, weight, style and rise from Pango, its start on the
 * baseline, and its width as textLength so that a reader's substitute face
 * keeps the layout the PDF has.  The transformation (rotated axis titles)
 * is the current one. */
static void svg_layout(struct rctx *c, PangoLayout *l, double x, double y)
{
	struct sbuf *s = c->svg_text;
	cairo_matrix_t m;
	cairo_get_matrix(c->cr, &m);
	double r = 0, g = 0, b = 0, a = 1;
	cairo_pattern_get_rgba(cairo_get_source(c->cr), &r, &g, &b, &a);
	const char *txt = pango_layout_get_text(l);
	PangoLayoutIter *it = pango_layout_get_iter(l);
	do {
		PangoLayoutRun *run = pango_layout_iter_get_run_readonly(it);
		if (!run || !run->item->length)
			continue;
		PangoRectangle logical;
		pango_layout_iter_get_run_extents(it, NULL, &logical);
		double base = y + (double)pango_layout_iter_get_baseline(it) / PANGO_SCALE;
		double rx = x + (double)logical.x / PANGO_SCALE, rw = (double)logical.width / PANGO_SCALE;
		PangoFontDescription *fd = pango_font_describe(run->item->analysis.font);
		int rise = 0;
		for (GSList *e = run->item->analysis.extra_attrs; e; e = e->next) {
			const PangoAttribute *at = e->data;
			if (at->klass->type == PANGO_ATTR_RISE)
				rise = ((const PangoAttrInt *)at)->value;
		}
		base -= (double)rise / PANGO_SCALE;
		double size = (double)pango_font_description_get_size(fd) / PANGO_SCALE;
		sbuf_addf(s, "<text transform=\"matrix(%g %g %g %g %g %g)\" x=\"%.2f\" y=\"%.2f\" "
			  "font-family=\"%s\" font-size=\"%.2f\"%s%s fill=\"#%02x%02x%02x\" textLength=\"%.2f\" "
			  "lengthAdjust=\"spacingAndGlyphs\" xml:space=\"preserve\">",
			  m.xx, m.yx, m.xy, m.yy, m.x0, m.y0, rx, base, pango_font_description_get_family(fd), size,
			  pango_font_description_get_weight(fd) >= PANGO_WEIGHT_BOLD ? " font-weight=\"bold\"" : "",
			  pango_font_description_get_style(fd) != PANGO_STYLE_NORMAL ? " font-style=\"italic\"" : "",
			  (int)lround(r * 255), (int)lround(g * 255), (int)lround(b * 255), rw);
		svg_escaped(s, txt + run->item->offset, (size_t)run->item->length);
		sbuf_addf(s, "</text>\n");
		pango_font_description_free(fd);
	} while (pango_layout_iter_next_run(it));
	pango_layout_iter_free(it);
}

/* The layout at (x, y): glyph outlines, or text elements for an SVG file. */
static void show_layout(struct rctx *c, PangoLayout *l, double x, double y)
{
	if (c->svg_text) {
		svg_layout(c, l, x, y);
		return;
	}
	cairo_move_to(c->cr, x, y);
	pango_cairo_show_layout(c->cr, l);
}

/* Paper-coloured strokes and fills erase rather than draw: not recorded. */
static int source_is_paper(struct rctx *c)
{
	double r, g, b, a;
	if (cairo_pattern_get_rgba(cairo_get_source(c->cr), &r, &g, &b, &a) != CAIRO_STATUS_SUCCESS)
		return 0;
	return a < 0.05 || (fabs(r - c->st->paper.r) < 0.02 && fabs(g - c->st->paper.g) < 0.02 &&
			    fabs(b - c->st->paper.b) < 0.02);
}

static void rec_path_lines(struct rctx *c)
{
	if (!c->rec || source_is_paper(c))
		return;
	cairo_path_t *p = cairo_copy_path_flat(c->cr);
	if (!p)
		return;
	double w = dev_size(c, cairo_get_line_width(c->cr));
	double cx = 0, cy = 0, sx = 0, sy = 0;
	for (int i = 0; i < p->num_data; i += p->data[i].header.length) {
		cairo_path_data_t *d = &p->data[i];
		double q[2];
		switch (d->header.type) {
		case CAIRO_PATH_MOVE_TO:
			to_dev(c, d[1].point.x, d[1].point.y, q);
			cx = sx = q[0]; cy = sy = q[1];
			break;
		case CAIRO_PATH_LINE_TO:
			to_dev(c, d[1].point.x, d[1].point.y, q);
			layrec_line(c->rec, w, cx, cy, q[0], q[1]);
			cx = q[0]; cy = q[1];
			break;
		case CAIRO_PATH_CLOSE_PATH:
			if (cx != sx || cy != sy)
				layrec_line(c->rec, w, cx, cy, sx, sy);
			cx = sx; cy = sy;
			break;
		default:
			break;
		}
	}
	cairo_path_destroy(p);
}

static void rec_path_fill(struct rctx *c, int hatch)
{
	if (!c->rec || source_is_paper(c))
		return;
	double x0, y0, x1, y1;
	cairo_fill_extents(c->cr, &x0, &y0, &x1, &y1);
	if (x1 <= x0 || y1 <= y0)
		return;
	double a[2], b[2];
	to_dev(c, x0, y0, a);
	to_dev(c, x1, y1, b);
	layrec_fill(c->rec, hatch, fmin(a[0], b[0]), fmin(a[1], b[1]), fmax(a[0], b[0]), fmax(a[1], b[1]));
}

void knockout(struct rctx *c, struct rbox b)
{
	cairo_save(c->cr);
	set_rgb(c, &c->st->paper);
	cairo_rectangle(c->cr, b.x, b.y, b.w, b.h);
	cairo_fill(c->cr);
	cairo_restore(c->cr);
	if (c->rec) {
		/* the box round all four corners: under a rotation it still holds the label */
		double q[8];
		to_dev(c, b.x, b.y, q);
		to_dev(c, b.x + b.w, b.y, q + 2);
		to_dev(c, b.x + b.w, b.y + b.h, q + 4);
		to_dev(c, b.x, b.y + b.h, q + 6);
		layrec_fill(c->rec, -1, fmin(fmin(q[0], q[2]), fmin(q[4], q[6])), fmin(fmin(q[1], q[3]), fmin(q[5], q[7])),
			    fmax(fmax(q[0], q[2]), fmax(q[4], q[6])), fmax(fmax(q[1], q[3]), fmax(q[5], q[7])));
	}
}

void rec_mark(struct rctx *c, double x0, double y0, double x1, double y1)
{
	if (!c->rec)
		return;
	double a[2], b[2];
	to_dev(c, x0, y0, a);
	to_dev(c, x1, y1, b);
	layrec_mark(c->rec, a[0], a[1], b[0], b[1]);
}

void rec_cell(struct rctx *c, double x0, double y0, double x1, double y1, int measured, const char *qty,
	      const char *rec)
{
	if (!c->rec)
		return;
	double a[2], b[2];
	to_dev(c, x0, y0, a);
	to_dev(c, x1, y1, b);
	layrec_cell(c->rec, fmin(a[0], b[0]), fmin(a[1], b[1]), fmax(a[0], b[0]), fmax(a[1], b[1]), measured, qty, rec);
}

void rec_series(struct rctx *c, const char *key)
{
	if (c->rec)
		layrec_key(c->rec, LR_SERIES, key);
}

void rec_legend(struct rctx *c, const char *key)
{
	if (c->rec)
		layrec_key(c->rec, LR_LEGEND, key);
}

int rec_axis(struct rctx *c) { return c->rec ? layrec_axis(c->rec) : 0; }

void rec_tick(struct rctx *c, int axis, char dir, enum lr_scale scale, double x, double y, double value)
{
	if (!c->rec)
		return;
	double q[2];
	to_dev(c, x, y, q);
	layrec_tick(c->rec, axis, dir, scale, dir == 'x' ? q[0] : q[1], value);
}

void stroke(struct rctx *c)
{
	rec_path_lines(c);
	cairo_stroke(c->cr);
}

static void fill(struct rctx *c)
{
	rec_path_fill(c, 0);
	cairo_fill(c->cr);
}

/* Paper under a layout placed at (x, y): lines drawn before it stop at its edge. */
static void knock_layout(struct rctx *c, PangoLayout *l, double x, double y)
{
	PangoRectangle ink;
	pango_layout_get_extents(l, &ink, NULL);
	double pad = sz(c, 1.2);
	knockout(c, rbox_make(x + (double)ink.x / PANGO_SCALE - pad, y + (double)ink.y / PANGO_SCALE - pad,
			      (double)ink.width / PANGO_SCALE + 2 * pad, (double)ink.height / PANGO_SCALE + 2 * pad));
}

double text_at(struct rctx *c, double x, double y, const char *utf8, double size, int flags,
	       double ax, double ay, const struct rgb *col)
{
	PangoLayout *l = text_layout(c, utf8, size, flags, 0);
	int pw, ph;
	pango_layout_get_size(l, &pw, &ph);
	double w = (double)pw / PANGO_SCALE, h = (double)ph / PANGO_SCALE;
	if (flags & TX_KNOCKOUT)
		knock_layout(c, l, x - ax * w, y - ay * h);
	cairo_save(c->cr);
	set_rgb(c, col ? col : &c->st->ink);
	show_layout(c, l, x - ax * w, y - ay * h);
	rec_layout(c, l, x - ax * w, y - ay * h);
	cairo_restore(c->cr);
	g_object_unref(l);
	return h;
}

double text_block(struct rctx *c, double x, double y, double w, const char *utf8, double size,
		  int flags, const struct rgb *col)
{
	PangoLayout *l = text_layout(c, utf8, size, flags, w);
	int pw, ph;
	pango_layout_get_size(l, &pw, &ph);
	if (flags & TX_KNOCKOUT)
		knock_layout(c, l, x, y);
	cairo_save(c->cr);
	set_rgb(c, col ? col : &c->st->ink);
	show_layout(c, l, x, y);
	rec_layout(c, l, x, y);
	cairo_restore(c->cr);
	g_object_unref(l);
	return (double)ph / PANGO_SCALE;
}

void text_vertical(struct rctx *c, double x, double y, const char *utf8, double size, int flags)
{
	cairo_save(c->cr);
	cairo_translate(c->cr, x, y);
	cairo_rotate(c->cr, -M_PI / 2);
	text_at(c, 0, 0, utf8, size, flags, 0.5, 0.5, NULL);
	cairo_restore(c->cr);
}

double text_fit(struct rctx *c, const char *utf8, double size, double min, int flags, double w)
{
	double tw;
	text_extent(c, utf8, size, flags, 0, &tw, NULL);
	if (tw <= w || tw <= 0)
		return size;
	double s = size * w / tw;
	return s < min ? min : s;
}

int text_choose(struct rctx *c, const char *const *texts, int n, double size, int flags, double w, double *fsz)
{
	double min = flags & TX_NOSCALE ? c->st->min_text : c->st->min_figure / (c->scale > 0 ? c->scale : 1);
	for (int i = 0; i < n; i++) {
		double s = text_fit(c, texts[i], size, fmin(min, size), flags, w), tw;
		text_extent(c, texts[i], s, flags, 0, &tw, NULL);
		if (tw <= w || i == n - 1) {
			*fsz = s;
			return i;
		}
	}
	*fsz = size;
	return n - 1;
}

/* ---- shapes ------------------------------------------------------------ */

/* Styles without colour see their grey; patent sees only black or white. */
void set_rgb(struct rctx *c, const struct rgb *col)
{
	double r = col->r, g = col->g, b = col->b;
	if (!c->st->colour) {
		double y = 0.299 * r + 0.587 * g + 0.114 * b;
		if (!c->st->grey_fills)
			y = y > 0.98 ? 1 : 0;
		r = g = b = y;
	}
	cairo_set_source_rgb(c->cr, r, g, b);
}

static void set_dash(struct rctx *c, double dash, double width)
{
	if (dash > 0) {
		double d[2] = { dash, dash * 0.6 + width };
		cairo_set_dash(c->cr, d, 2, 0);
	} else {
		cairo_set_dash(c->cr, NULL, 0, 0);
	}
}

void draw_line(struct rctx *c, double x0, double y0, double x1, double y1, double width, double dash)
{
	cairo_save(c->cr);
	cairo_set_line_width(c->cr, width);
	set_dash(c, dash, width);
	cairo_move_to(c->cr, x0, y0);
	cairo_line_to(c->cr, x1, y1);
	stroke(c);
	cairo_restore(c->cr);
}

void draw_rect(struct rctx *c, struct rbox b, double width, double dash)
{
	cairo_save(c->cr);
	cairo_set_line_width(c->cr, width);
	set_dash(c, dash, width);
	cairo_rectangle(c->cr, b.x, b.y, b.w, b.h);
	stroke(c);
	cairo_restore(c->cr);
}

void fill_rect(struct rctx *c, struct rbox b, const struct rgb *col)
{
	cairo_save(c->cr);
	set_rgb(c, col);
	cairo_rectangle(c->cr, b.x, b.y, b.w, b.h);
	fill(c);
	cairo_restore(c->cr);
}


void hatch_rect(struct rctx *c, struct rbox b, enum hatch h, double spacing, const struct rgb *col)
{
	/* geometry from measured values may be inf or NaN (a bar of 1e308):
	 * nothing to hatch then, and never more strokes than the visible part
	 * holds (each loop below is bounded by the clip, at least 0.25 apart) */
	if (h == HATCH_NONE || !(b.w > 0) || !(b.h > 0) || !isfinite(b.x) || !isfinite(b.y) || !isfinite(b.w) ||
	    !isfinite(b.h) || !(spacing >= 0.25) || !isfinite(spacing))
		return;
	cairo_t *cr = c->cr;
	double cx0, cy0, cx1, cy1;
	cairo_clip_extents(cr, &cx0, &cy0, &cx1, &cy1);
	if (isfinite(cx0) && isfinite(cy0) && isfinite(cx1) && isfinite(cy1) && cx1 > cx0 && cy1 > cy0 &&
	    (b.x < cx0 || b.y < cy0 || b.x + b.w > cx1 || b.y + b.h > cy1)) {
		/* the box passes the visible area: hatch only what shows */
		/* keep the hatch's phase: cut whole spacings off the start */
		double x0 = fmax(b.x, cx0 - spacing), y0 = fmax(b.y, cy0 - spacing);
		double x1 = fmin(b.x + b.w, cx1 + spacing), y1 = fmin(b.y + b.h, cy1 + spacing);
		if (!(x1 > x0) || !(y1 > y0))
			return;
		if (x0 > b.x) x0 = b.x + floor((x0 - b.x) / spacing) * spacing;
		if (y0 > b.y) y0 = b.y + floor((y0 - b.y) / spacing) * spacing;
		b = rbox_make(x0, y0, x1 - x0, y1 - y0);
	}
	cairo_save(cr);
	set_rgb(c, col);
	if (c->rec && !source_is_paper(c)) { /* one hatched area, not its many strokes */
		double p0[2], p1[2];
		to_dev(c, b.x, b.y, p0);
		to_dev(c, b.x + b.w, b.y + b.h, p1);
		layrec_fill(c->rec, 1, fmin(p0[0], p1[0]), fmin(p0[1], p1[1]), fmax(p0[0], p1[0]), fmax(p0[1], p1[1]));
	}
	cairo_rectangle(cr, b.x, b.y, b.w, b.h);
	cairo_clip(cr);
	set_rgb(c, col);
	cairo_set_line_width(cr, c->st->thin * 0.8);
	double span = b.w + b.h;
	if (h == HATCH_DIAG || h == HATCH_CROSS)
		for (double t = -b.h; t < b.w + b.h; t += spacing) {
			cairo_move_to(cr, b.x + t, b.y + b.h);
			cairo_line_to(cr, b.x + t + b.h, b.y);
		}
	if (h == HATCH_BACK || h == HATCH_CROSS)
		for (double t = -b.h; t < span; t += spacing) {
			cairo_move_to(cr, b.x + t, b.y);
			cairo_line_to(cr, b.x + t + b.h, b.y + b.h);
		}
	if (h == HATCH_HORIZ)
		for (double t = spacing / 2; t < b.h; t += spacing) {
			cairo_move_to(cr, b.x, b.y + t);
			cairo_line_to(cr, b.x + b.w, b.y + t);
		}
	if (h == HATCH_VERT)
		for (double t = spacing / 2; t < b.w; t += spacing) {
			cairo_move_to(cr, b.x + t, b.y);
			cairo_line_to(cr, b.x + t, b.y + b.h);
		}
	cairo_stroke(cr);
	if (h == HATCH_DOTS)
		for (double yy = b.y + spacing / 2; yy < b.y + b.h; yy += spacing)
			for (double xx = b.x + spacing / 2; xx < b.x + b.w; xx += spacing) {
				cairo_new_sub_path(cr);
				cairo_arc(cr, xx, yy, spacing * 0.14 + 0.3, 0, 2 * M_PI);
			}
	cairo_fill(cr);
	cairo_restore(cr);
}

void fill_look(struct rctx *c, struct rbox b, const struct series_look *look, double width)
{
	fill_rect(c, b, &look->fill);
	hatch_rect(c, b, look->hatch, c->st->slides ? 5 : 3.5, &look->line);
	if (width > 0) {
		cairo_save(c->cr);
		set_rgb(c, &look->line);
		draw_rect(c, b, width, 0);
		cairo_restore(c->cr);
	}
}

void draw_arrow(struct rctx *c, double x0, double y0, double x1, double y1, double width,
		double head, const struct rgb *col)
{
	double dx = x1 - x0, dy = y1 - y0, len = hypot(dx, dy);
	if (len <= 0)
		return;
	double ux = dx / len, uy = dy / len;
	cairo_t *cr = c->cr;
	cairo_save(cr);
	set_rgb(c, col ? col : &c->st->ink);
	cairo_set_line_width(cr, width);
	cairo_move_to(cr, x0, y0);
	cairo_line_to(cr, x1 - ux * head * 0.8, y1 - uy * head * 0.8);
	stroke(c);
	cairo_move_to(cr, x1, y1);
	cairo_line_to(cr, x1 - ux * head - uy * head * 0.45, y1 - uy * head + ux * head * 0.45);
	cairo_line_to(cr, x1 - ux * head + uy * head * 0.45, y1 - uy * head - ux * head * 0.45);
	cairo_close_path(cr);
	fill(c);
	cairo_restore(cr);
}

void draw_marker(struct rctx *c, double x, double y, int kind, double size,
		 const struct series_look *look)
{
	cairo_t *cr = c->cr;
	double r = size / 2;
	cairo_save(cr);
	cairo_new_path(cr);
	switch (kind % 5) {
	case 0: cairo_arc(cr, x, y, r, 0, 2 * M_PI); break;
	case 1: cairo_rectangle(cr, x - r, y - r, 2 * r, 2 * r); break;
	case 2:
		cairo_move_to(cr, x, y - r * 1.15);
		cairo_line_to(cr, x + r * 1.1, y + r * 0.8);
		cairo_line_to(cr, x - r * 1.1, y + r * 0.8);
		cairo_close_path(cr);
		break;
	case 3:
		cairo_move_to(cr, x, y - r * 1.2);
		cairo_line_to(cr, x + r * 1.2, y);
		cairo_line_to(cr, x, y + r * 1.2);
		cairo_line_to(cr, x - r * 1.2, y);
		cairo_close_path(cr);
		break;
	default:
		cairo_move_to(cr, x - r, y - r); cairo_line_to(cr, x + r, y + r);
		cairo_move_to(cr, x - r, y + r); cairo_line_to(cr, x + r, y - r);
		break;
	}
	cairo_set_line_width(cr, c->st->line);
	if (kind % 5 != 4) {
		/* patent: markers are open (white inside); others filled */
		set_rgb(c, c->st->grey_fills ? &look->fill : &c->st->paper);
		rec_path_fill(c, 0);
		cairo_fill_preserve(cr);
	}
	set_rgb(c, &look->line);
	rec_path_fill(c, 0); /* a marker is a mark, not a line text must avoid */
	cairo_stroke(cr);
	cairo_restore(cr);
}

void draw_numeral(struct rctx *c, const char *key, const char *what, double px, double py,
		  double tx, double ty)
{
	if (!c->num)
		return;
	int n = numerals_get(c->num, key, what);
	if (n < 0)
		return;
	char buf[16];
	snprintf(buf, sizeof(buf), "%d", n);
	double w, h;
	text_extent(c, buf, c->st->size_numeral, TX_NOSCALE, 0, &w, &h);
	/* Leader from the part to the numeral's nearest edge. */
	double ex = tx, ey = ty;
	if (px < tx - w / 2) ex = tx - w / 2 - 1.5;
	else if (px > tx + w / 2) ex = tx + w / 2 + 1.5;
	if (py < ty - h / 2) ey = ty - h / 2;
	else if (py > ty + h / 2) ey = ty + h / 2;
	cairo_save(c->cr);
	set_rgb(c, &c->st->ink);
	/* a gentle curve, as numeral leaders are drawn */
	cairo_set_line_width(c->cr, c->st->thin);
	cairo_move_to(c->cr, px, py);
	cairo_curve_to(c->cr, (px + ex) / 2, py, (px + ex) / 2, ey, ex, ey);
	stroke(c);
	cairo_restore(c->cr);
	if (c->rec)
		c->rec->numeral = 1;
	text_at(c, tx, ty, buf, c->st->size_numeral, TX_NOSCALE, 0.5, 0.5, NULL);
	if (c->rec)
		c->rec->numeral = 0;
}

const char *cairo_why(cairo_status_t s)
{
	if (s == CAIRO_STATUS_WRITE_ERROR && outfile_errno)
		return strerror(outfile_errno);
	return cairo_status_to_string(s);
}

int render_check(cairo_t *cr, const char *what)
{
	cairo_status_t s = cairo_status(cr);
	if (s == CAIRO_STATUS_SUCCESS)
		s = cairo_surface_status(cairo_get_target(cr));
	if (s != CAIRO_STATUS_SUCCESS)
		return error("cannot %s '%s': %s", s == CAIRO_STATUS_WRITE_ERROR ? "write" : "render", what, cairo_why(s));
	return 0;
}

void plot_point(struct rctx *c, double x, double y, int kind, double size, const struct series_look *look,
		const char *key)
{
	draw_marker(c, x, y, kind, size, look);
	double r = size / 2;
	rec_mark(c, x - r, y - r, x + r, y + r);
	if (key)
		rec_series(c, key);
}
