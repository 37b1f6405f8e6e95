/* report.c: the PDF back end of the document model (docmodel.h).
 *
 * The model is built once from the template and the results; this file
 * lays its blocks out.  Three passes.  The plan lists the figures; in
 * patent style it draws each on a scratch surface to learn its reference
 * numerals, so the brief description can name them before the sheets that
 * carry them.  A counting pass lays the pages out on a discarding PDF
 * surface (page count for "n/m"); the drawing pass lays them out again,
 * identically, onto the real file, recording what it placed for the
 * linter (layrec.h).  Layouts: article (review), sheets (patent: text
 * pages, then one drawing sheet per figure), slides (one section, one
 * 16:9 slide).
 */
#include "render/render.h"

#include <cairo-pdf.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "doc/capreview.h"
#include "doc/docmodel.h"
#include "doc/inline.h"
#include "doc/interp.h"
#include "render/patent_desc.h"
#include "util/error.h"
#include "util/file.h"
#include "util/ustr.h"

struct figrec {
	const struct dblock *b;      /* the figure block of the model */
	int parts[FIG_MAX_PARTS];    /* numeral indices (patent) */
	int nparts;
	char label[24];              /* sheets: "FIG. 3A" (views of one section share a number) */
};

struct doc {
	const struct template *t;
	struct rdata *rd;
	const struct rstyle *st;
	const struct report_opts *o;
	double pw, ph;
	cairo_surface_t *surf;
	cairo_t *cr;
	struct rctx c;
	int pass;                    /* 0 plan, 1 count, 2 draw */
	int page, total_pages;
	int sheet, total_sheets;
	struct rbox area;            /* the current page's text area */
	double y;                    /* cursor in it */
	int fig_no, table_no;
	struct numerals num;
	struct figrec *figs;         /* every figure of the document (grown as planned) */
	size_t nfigs, afigs;
	const struct docmodel *m;
	int err;
	int page_open;
	const char *slide_title;     /* the heading of the slide being filled */
	struct layrec rec;           /* what the drawing pass placed */
	struct sbuf notes;           /* speaker notes, slide by slide (slides, drawing pass) */
	int *sec_page;               /* the page each section's heading lands on (counting pass), by number */
	size_t nsec_page;
	int outline_id;              /* the PDF outline entry of the current section */
	unsigned *page_runs;         /* per page: the runs its records came from (counting pass) */
	size_t npage_runs;
};

/* (*a)[i] made to exist, zeroed as it grows (elem bytes each): 0, or -1 said */
static int grow_to(void **a, size_t *n, size_t i, size_t elem)
{
	if (i < *n)
		return 0;
	size_t m = *n ? *n : 64;
	while (m <= i)
		m *= 2;
	char *p = realloc(*a, m * elem);
	if (!p)
		return error("out of memory laying out the document");
	memset(p + *n * elem, 0, (m - *n) * elem);
	*a = p, *n = m;
	return 0;
}

/* A PDF bookmark at the current position: level 1 (a section) or 2 (its subheading). */
static void outline(struct doc *d, const char *inline_text, int level)
{
	if (d->pass != 2 || d->st->patent || d->t->layout == LAYOUT_SLIDES)
		return;
	char *text = inline_plain(inline_text);
	if (!text)
		return;
	char attr[96];
	snprintf(attr, sizeof(attr), "page=%d pos=[%.1f %.1f]", d->page, d->area.x, d->y);
	int id = cairo_pdf_surface_add_outline(d->surf, level == 1 ? CAIRO_PDF_OUTLINE_ROOT : d->outline_id, text, attr,
					       level == 1 ? CAIRO_PDF_OUTLINE_FLAG_OPEN : 0);
	if (level == 1)
		d->outline_id = id;
	free(text);
}

/* ---- pages ------------------------------------------------------------- */

static void banner(struct doc *d, struct rbox *area)
{
	if (!d->rd->synthetic)
		return;
	const struct rstyle *st = d->st;
	char txt[400];
	/* slides name files on their last slide only */
	if (d->t->layout == LAYOUT_SLIDES)
		snprintf(txt, sizeof(txt), "SYNTHETIC TEST FIXTURE — NOT MEASURED DATA");
	else
		snprintf(txt, sizeof(txt), "SYNTHETIC TEST FIXTURE — NOT MEASURED DATA (%s)", d->rd->path);
	double fs = st->slides ? st->size_small : st->size_small;
	double h;
	text_extent(&d->c, txt, fs, TX_BOLD | TX_NOSCALE, area->w - 8, NULL, &h);
	struct rbox b = rbox_cut_top(area, h + 6);
	if (st->grey_fills) {
		fill_rect(&d->c, b, &st->warn);
		struct rgb white = { 1, 1, 1 };
		text_block(&d->c, b.x + 4, b.y + 3, b.w - 8, txt, fs, TX_BOLD | TX_NOSCALE | TX_CENTER, &white);
	} else {
		set_rgb(&d->c, &st->ink);
		draw_rect(&d->c, rbox_inset(b, st->line / 2, st->line / 2, st->line / 2, st->line / 2), st->line, 0);
		text_block(&d->c, b.x + 4, b.y + 3, b.w - 8, txt, fs, TX_BOLD | TX_NOSCALE | TX_CENTER, NULL);
	}
	rbox_cut_top(area, 6);
}

static void end_page(struct doc *d)
{
	if (!d->page_open)
		return;
	cairo_show_page(d->cr);
	d->page_open = 0;
}

/* "this page: records of 2026-11-29 and 2026-12-01" when the page being
 * begun drew records of runs recorded on more than one day (the counting
 * pass found which), else "" (a page of one day's records says nothing:
 * the title block gives the dates). */
static void page_days(const struct doc *d, char *buf, size_t len)
{
	buf[0] = '\0';
	if (d->pass != 2 || !d->rd->run_days || d->page <= 0 || (size_t)d->page >= d->npage_runs)
		return;
	const unsigned runs = d->page_runs[d->page];
	const char *seen[32];
	int n = 0;
	for (int k = 0; k < d->rd->nruns && k < 32; k++) {
		if (!(runs & (1u << k)))
			continue;
		int j;
		for (j = 0; j < n && strcmp(seen[j], d->rd->run_days[k]); j++)
			;
		if (j == n)
			seen[n++] = d->rd->run_days[k];
	}
	if (n < 2)
		return;
	struct ustr u;
	ustr_init(&u, buf, len);
	ustr_addf(&u, "this page: records of ");
	for (int j = 0; j < n; j++)
		ustr_addf(&u, "%s%s", j == 0 ? "" : j + 1 == n ? " and " : ", ", seen[j]);
}

/* The counting pass: block b was laid out from page p0 to the current
 * page; its records' runs (what it drew while laid out, and what its text
 * and table drew when the model was built) go to those pages (a figure
 * only to its own: it is never split, so a page turned before it has none
 * of it). */
static void mark_runs(struct doc *d, int p0, unsigned runs, int split)
{
	if (d->pass != 1)
		return;
	if (d->rd->trace)
		runs |= d->rd->trace->runs;
	for (int p = split ? (p0 > 0 ? p0 : 1) : d->page; p <= d->page; p++)
		if (p > 0) {
			if (grow_to((void **)&d->page_runs, &d->npage_runs, (size_t)p, sizeof(*d->page_runs))) {
				d->err = RENDER_FAIL;
				return;
			}
			d->page_runs[p] |= runs;
		}
}

/* A new page: sheet = 1 for a patent drawing sheet (sheet number on top). */
static void new_page(struct doc *d, int sheet)
{
	/* the page's furniture (footer, banner) is not body text, whoever turned the page */
	int role = d->c.rec ? d->c.rec->role : LR_TEXT;
	if (d->c.rec)
		d->c.rec->role = LR_TEXT;
	end_page(d);
	d->page++;
	d->page_open = 1;
	if (d->pass == 2)
		progress_step(d->o->progress, "page %d of %d", d->page, d->total_pages);
	const struct rstyle *st = d->st;
	cairo_t *cr = d->cr;
	cairo_save(cr);
	set_rgb(&d->c, &st->paper);
	cairo_paint(cr);
	cairo_restore(cr);
	set_rgb(&d->c, &st->ink);
	/* the text pages of a sheets layout may have margins and spacing of their own */
	double mt = st->margin_t, mr = st->margin_r, mb = st->margin_b, ml = st->margin_l;
	int text_page = !sheet && d->t->layout == LAYOUT_SHEETS && st->text_margin_t > 0;
	if (text_page)
		mt = st->text_margin_t, mr = st->text_margin_r, mb = st->text_margin_b, ml = st->text_margin_l;
	d->c.leading = text_page ? st->text_leading : 0;
	d->area = rbox_make(ml, mt, d->pw - ml - mr, d->ph - mt - mb);
	if (d->c.rec)
		layrec_page(d->c.rec, d->pw, d->ph, mt, mr, mb, ml);
	char buf[256];
	if (sheet) {
		/* 37 CFR 1.84(t): sheet numbers in the middle of the top, inside the sight */
		d->sheet++;
		snprintf(buf, sizeof(buf), "%d/%d", d->sheet, d->total_sheets);
		double h = text_at(&d->c, d->area.x + d->area.w / 2, d->area.y, buf, st->size_fig_label * 0.8,
				   TX_NOSCALE, 0.5, 0, NULL);
		rbox_cut_top(&d->area, h + 6);
	} else {
		/* footer: what this is, and the page */
		double fs = st->size_small;
		double h;
		text_extent(&d->c, "Ag", fs, TX_NOSCALE, 0, NULL, &h);
		struct rbox foot = rbox_cut_bottom(&d->area, h + 8);
		/* slides name their sources once, on a slide of their own; patent
		 * pages carry none (the description states the measurements) */
		/* a page drawing records of runs recorded on more than one day says so (issue 27) */
		char days[160] = "";
		page_days(d, days, sizeof(days));
		if (d->t->layout == LAYOUT_SLIDES && days[0])
			text_at(&d->c, foot.x, foot.y + foot.h, days, fs, TX_NOSCALE, 0, 1, &st->muted);
		if (d->t->layout == LAYOUT_ARTICLE) {
			snprintf(buf, sizeof(buf), "attnprof %s · %s%s%s", ATTNPROF_VERSION, d->rd->path, days[0] ? " · " : "", days);
			/* a list of files too long for the line beside the page number: count them
			 * (the first page's header and the conditions name every one) */
			double w, pw;
			text_extent(&d->c, buf, fs, TX_NOSCALE, 0, &w, NULL);
			text_extent(&d->c, "888 / 888", fs, TX_NOSCALE, 0, &pw, NULL);
			if (w > foot.w - pw - fs * 2)
				snprintf(buf, sizeof(buf), "attnprof %s · %d results files%s%s%s", ATTNPROF_VERSION,
					 d->rd->nruns > 0 ? d->rd->nruns : 1, d->rd->repeats ? " and repeat runs" : "",
					 days[0] ? " · " : "", days);
			text_at(&d->c, foot.x, foot.y + foot.h, buf, fs, TX_NOSCALE, 0, 1, &st->muted);
		}
		/* a patent's description pages: the number alone, centred under the text (1.52(b)(5)) */
		int centred = d->t->layout == LAYOUT_SHEETS || st->patent;
		if (centred)
			snprintf(buf, sizeof(buf), "%d", d->page);
		else
			snprintf(buf, sizeof(buf), "%d / %d", d->page, d->total_pages > 0 ? d->total_pages : d->page);
		text_at(&d->c, centred ? foot.x + foot.w / 2 : foot.x + foot.w, foot.y + foot.h, buf, fs, TX_NOSCALE,
			centred ? 0.5 : 1, 1, &st->muted);
	}
	banner(d, &d->area);
	d->y = d->area.y;
	if (d->c.rec)
		d->c.rec->role = role;
}

#define FIG_MIN_SCALE 0.85

static double room(const struct doc *d) { return d->area.y + d->area.h - d->y; }

static void need(struct doc *d, double h)
{
	if (!d->page_open || (h > room(d) && d->y > d->area.y + 1))
		new_page(d, 0);
}

/* ---- blocks -------------------------------------------------------------- */

/* Text placed by fn is body text for the linter's minimums. */
static void body_role(struct doc *d, int on)
{
	if (d->c.rec)
		d->c.rec->role = on ? LR_BODY : LR_TEXT;
}

static void paragraph(struct doc *d, const char *text, double size, int flags, double indent)
{
	body_role(d, 1);
	/* blank lines separate paragraphs; each moves to the next page whole */
	const char *p = text;
	while (p && *p) {
		const char *e = strstr(p, "\n\n");
		size_t n = e ? (size_t)(e - p) : strlen(p);
		char *para = strndup(p, n);
		if (!para) {
			d->err = RENDER_FAIL;
			return;
		}
		while (n && (para[n - 1] == '\n' || para[n - 1] == ' '))
			para[--n] = '\0';
		if (n) {
			double h;
			text_extent(&d->c, para, size, flags | TX_INLINE | TX_NOSCALE, d->area.w - indent, NULL, &h);
			need(d, h);
			text_block(&d->c, d->area.x + indent, d->y, d->area.w - indent, para, size, flags | TX_INLINE | TX_NOSCALE, NULL);
			d->y += h + size * 0.55;
		}
		free(para);
		p = e ? e + 2 : NULL;
	}
	body_role(d, 0);
}

/* The smallest height the figure of a block takes (it may be scaled down to
 * FIG_MIN_SCALE to fit a page's room), for keeping a heading with it. */
static double figure_min_height(const struct doc *d, const struct dblock *b)
{
	double w = d->area.w * (b->width > 0 ? b->width : 1);
	double h = fmin(w * (b->height > 0 ? b->height : b->fig->ratio), d->area.h * 0.9);
	return h * FIG_MIN_SCALE + d->st->size_caption * 3;
}

/* The height of what a heading must keep with it: the first piece of the next
 * block that moves to a new page whole — a paragraph (up to its first blank
 * line), a table with its caption, a figure at its smallest — so that a heading
 * never stands alone at a page's foot while that piece begins the next page. */
static double first_piece_height(struct doc *d, size_t i)
{
	const struct rstyle *st = d->st;
	if (i >= d->m->n)
		return 0;
	const struct dblock *b = &d->m->b[i];
	switch (b->kind) {
	case D_SUBHEADING: { /* a section's heading stays with its first subheading and what that keeps */
		double h = 0;
		if (b->text)
			text_extent(&d->c, b->text, st->size_h2, TX_BOLD | TX_INLINE | TX_NOSCALE, d->area.w, NULL, &h);
		return h + st->size_h2 * 0.95 + first_piece_height(d, i + 1);
	}
	case D_PARA: {
		if (!b->text)
			return 0;
		const char *e = strstr(b->text, "\n\n");
		char *para = strndup(b->text, e ? (size_t)(e - b->text) : strlen(b->text));
		if (!para)
			return 0;
		double h = 0;
		if (*para)
			text_extent(&d->c, para, st->size_body, TX_INLINE | TX_NOSCALE, d->area.w, NULL, &h);
		free(para);
		return h;
	}
	case D_TABLE: {
		if (!b->table)
			return 0;
		char full[1400];
		snprintf(full, sizeof(full), "%cTable 0.%c %s.%s%s", inline_mark(INLINE_BOLD, 1), inline_mark(INLINE_BOLD, 0),
			 b->table_title, b->caption ? " " : "", b->caption ? b->caption : "");
		double ch;
		text_extent(&d->c, full, st->size_caption, TX_INLINE | TX_NOSCALE, d->area.w, NULL, &ch);
		return ch + table_draw(&d->c, b->table, rbox_make(d->area.x, 0, d->area.w, 1e6), 0) + 8;
	}
	case D_FIGURE:
		return d->t->layout == LAYOUT_SHEETS ? 0 : figure_min_height(d, b);
	default:
		return 0;
	}
}

static void heading_keep(struct doc *d, const char *text, int number, int level, double keep)
{
	const struct rstyle *st = d->st;
	double size = level == 1 ? st->size_h1 : st->size_h2;
	char buf[600];
	if (level == 1 && d->t->layout == LAYOUT_ARTICLE && !st->patent)
		snprintf(buf, sizeof(buf), "%d  %s", number, text);
	else
		snprintf(buf, sizeof(buf), "%s", text);
	double h;
	text_extent(&d->c, buf, size, TX_BOLD | TX_INLINE | TX_NOSCALE, d->area.w, NULL, &h);
	/* keep a heading with some of what follows */
	need(d, h + size * 0.8 + fmax(st->size_body * 6, keep));
	if (d->y > d->area.y + 1)
		d->y += size * 0.6;
	if (level == 1 && number > 0 && d->pass == 1) {
		if (grow_to((void **)&d->sec_page, &d->nsec_page, (size_t)number, sizeof(*d->sec_page)))
			d->err = RENDER_FAIL;
		else
			d->sec_page[number] = d->page;
	}
	if (level == 1 && d->pass == 2)
		d->outline_id = 0;
	outline(d, buf, level == 1 ? 1 : d->outline_id ? 2 : 1);
	body_role(d, 1);
	text_block(&d->c, d->area.x, d->y, d->area.w, buf, size, TX_BOLD | TX_INLINE | TX_NOSCALE,
		   level == 1 && st->grey_fills ? &st->accent : NULL);
	body_role(d, 0);
	d->y += h + size * 0.35;
}

static void heading(struct doc *d, const char *text, int level) { heading_keep(d, text, 0, level, 0); }

/* Sheets: the figures of one section are the views of one figure, FIG. 3A,
 * 3B, …, as the document model labelled them (the labels {ref:ID} cites). */
static void label_figures(struct doc *d)
{
	if (d->t->layout != LAYOUT_SHEETS && !d->st->patent)
		return;
	for (size_t i = 0; i < d->nfigs; i++)
		snprintf(d->figs[i].label, sizeof(d->figs[i].label), "%s", d->figs[i].b->label);
}

static void fig_label(struct doc *d, int n, char *buf, size_t len)
{
	if ((d->st->patent || d->t->layout == LAYOUT_SHEETS) && n >= 1 && n <= (int)d->nfigs && d->figs[n - 1].label[0])
		snprintf(buf, len, "%s", d->figs[n - 1].label);
	else if (d->st->patent || d->t->layout == LAYOUT_SHEETS)
		snprintf(buf, len, "FIG. %d", n);
	else
		snprintf(buf, len, "Figure %d", n);
}

/* Draw figure n (1-based index into the plan) in box. */
static void draw_figure(struct doc *d, int n, struct rbox box)
{
	struct figrec *f = &d->figs[n - 1];
	cairo_save(d->cr);
	cairo_rectangle(d->cr, box.x - 20, box.y - 20, box.w + 40, box.h + 40);
	cairo_clip(d->cr);
	if (d->st->patent)
		d->num.nused = 0;
	/* a frame stroked on the box's edge keeps its ink inside the text area */
	box = rbox_inset(box, d->st->line, d->st->line, d->st->line, d->st->line);
	if (d->c.rec)
		layrec_fig_begin(d->c.rec, box.x, box.y, box.x + box.w, box.y + box.h, f->b->fig->name);
	char ctx[64];
	const char *was = d->rd->trace ? d->rd->trace->context : NULL;
	if (d->rd->trace) {
		snprintf(ctx, sizeof(ctx), "figure %s", f->b->fig->name);
		d->rd->trace->context = ctx;
	}
	f->b->fig->draw(&d->c, d->rd, &f->b->fo, box);
	if (d->rd->trace)
		d->rd->trace->context = was;
	if (d->c.rec)
		layrec_fig_end(d->c.rec);
	cairo_restore(d->cr);
	set_rgb(&d->c, &d->st->ink);
	if (d->st->patent && d->pass == 0) {
		f->nparts = d->num.nused;
		memcpy(f->parts, d->num.used, sizeof(int) * (size_t)d->num.nused);
	}
}

/* A figure's caption: the template's, else its kind's title (plain text, which is inline text too). */
static const char *caption_of(const struct figrec *f)
{
	return f->b->caption ? f->b->caption : f->b->title ? f->b->title : "";
}

static void article_figure(struct doc *d, const struct dblock *b)
{
	const struct rstyle *st = d->st;
	int n = ++d->fig_no;
	if (n > (int)d->nfigs)
		return;
	struct figrec *f = &d->figs[n - 1];
	double w = d->area.w * (b->width > 0 ? b->width : 1);
	double ratio = b->height > 0 ? b->height : f->b->fig->ratio;
	char lab[32], full[1000];
	fig_label(d, n, lab, sizeof(lab));
	snprintf(full, sizeof(full), "%c%s.%c %s", inline_mark(INLINE_BOLD, 1), lab, inline_mark(INLINE_BOLD, 0),
		 caption_of(f));
	double ch;
	text_extent(&d->c, full, st->size_caption, TX_INLINE | TX_NOSCALE, d->area.w, NULL, &ch);
	double h = w * ratio;
	double avail_page = d->area.h - ch - 10;
	if (h > avail_page) {
		h = avail_page;
		w = fmin(w, d->area.w);
	}
	/* a figure that would leave a page half empty is scaled down (to no
	 * less than FIG_MIN_SCALE of its size) to fill the room that is left */
	double left = room(d) - ch - 10;
	if (d->page_open && h > left && left >= h * FIG_MIN_SCALE) {
		w *= left / h;
		h = left;
	}
	need(d, h + ch + 10);
	struct rbox box = rbox_make(d->area.x + (d->area.w - w) / 2, d->y + 4, w, h);
	if (d->pass == 2 || (d->pass == 0 && st->patent))
		draw_figure(d, n, box);
	d->y += h + 8;
	text_block(&d->c, d->area.x, d->y, d->area.w, full, st->size_caption, TX_INLINE | TX_NOSCALE, NULL);
	d->y += ch + st->size_body;
}

static void article_table(struct doc *d, const struct dblock *b)
{
	const struct rstyle *st = d->st;
	int n = ++d->table_no;
	char full[1400];
	snprintf(full, sizeof(full), "%cTable %d.%c %s.%s%s", inline_mark(INLINE_BOLD, 1), n, inline_mark(INLINE_BOLD, 0),
		 b->table_title, b->caption ? " " : "", b->caption ? b->caption : "");
	double ch, th;
	text_extent(&d->c, full, st->size_caption, TX_INLINE | TX_NOSCALE, d->area.w, NULL, &ch);
	th = table_draw(&d->c, b->table, rbox_make(d->area.x, 0, d->area.w, 1e6), 0);
	need(d, ch + th + 8);
	text_block(&d->c, d->area.x, d->y, d->area.w, full, st->size_caption, TX_INLINE | TX_NOSCALE, NULL);
	d->y += ch + 3;
	table_draw(&d->c, b->table, rbox_make(d->area.x, d->y, d->area.w, th), 1);
	d->y += th + st->size_body;
}

/* A note's type: a little smaller than the body, except where the body is the minimum (slides). */
static double note_size(const struct rstyle *st) { return st->slides ? st->size_body : st->size_body * 0.95; }

static void note_block(struct doc *d, const char *text)
{
	const struct rstyle *st = d->st;
	double pad = 6, h;
	text_extent(&d->c, text, note_size(st), TX_INLINE | TX_NOSCALE, d->area.w - 2 * pad - 4, NULL, &h);
	need(d, h + 2 * pad);
	struct rbox b = rbox_make(d->area.x, d->y, d->area.w, h + 2 * pad);
	if (st->grey_fills)
		fill_rect(&d->c, b, &st->chip_fill);
	set_rgb(&d->c, &st->ink);
	draw_rect(&d->c, b, st->thin, 0);
	draw_line(&d->c, b.x + 1.5, b.y, b.x + 1.5, b.y + b.h, 3, 0);
	body_role(d, 1);
	text_block(&d->c, b.x + pad + 4, b.y + pad, b.w - 2 * pad - 4, text, note_size(st), TX_INLINE | TX_NOSCALE, NULL);
	body_role(d, 0);
	d->y += b.h + st->size_body * 0.8;
}

static void bullets(struct doc *d, const struct dblock *b)
{
	const struct rstyle *st = d->st;
	double size = st->size_body, ind = size * 1.4;
	for (size_t i = 0; i < b->nitems; i++) {
		const char *m = b->items[i];
		double h;
		text_extent(&d->c, m, size, TX_INLINE | TX_NOSCALE, d->area.w - ind, NULL, &h);
		need(d, h);
		body_role(d, 1);
		text_at(&d->c, d->area.x + size * 0.3, d->y, "•", size, TX_NOSCALE, 0, 0, st->grey_fills ? &st->accent : NULL);
		text_block(&d->c, d->area.x + ind, d->y, d->area.w - ind, m, size, TX_INLINE | TX_NOSCALE, NULL);
		body_role(d, 0);
		d->y += h + size * 0.3;
	}
	d->y += size * 0.4;
}

/* The brief description of the drawings (patent_desc.c): a sentence a view,
 * then the reference numerals with the element each names. */
static void brief(struct doc *d)
{
	const struct rstyle *st = d->st;
	struct sbuf sb;
	sbuf_init(&sb);
	for (size_t i = 0; i < d->nfigs && !d->err; i++) {
		char lab[32];
		fig_label(d, (int)i + 1, lab, sizeof(lab));
		sb.len = 0;
		sb.buf[0] = '\0';
		if (pdesc_sentence(&sb, lab, caption_of(&d->figs[i])))
			d->err = RENDER_FAIL;
		else
			paragraph(d, sb.buf, st->size_body, 0, 0);
	}
	if (!d->nfigs)
		paragraph(d, "(this document has no drawings)", st->size_body, TX_ITALIC, 0);
	const int **parts = malloc((d->nfigs + 1) * sizeof(*parts));
	int *nparts = malloc((d->nfigs + 1) * sizeof(*nparts));
	for (size_t i = 0; parts && nparts && i < d->nfigs; i++) {
		parts[i] = d->figs[i].parts;
		nparts[i] = d->figs[i].nparts;
	}
	sb.len = 0;
	sb.buf[0] = '\0';
	int n = parts && nparts ? pdesc_list(&sb, &d->num, parts, nparts, d->nfigs) : -1;
	free(parts);
	free(nparts);
	if (n < 0) {
		d->err = RENDER_FAIL;
	} else if (n > 0) {
		heading(d, "REFERENCE NUMERALS", 2);
		paragraph(d, sb.buf, st->size_body, 0, 0);
	}
	sbuf_release(&sb);
}

/* ---- the blocks --------------------------------------------------------------- */

/* Plan: the figures in order, and (patent) their numerals. */
static void plan_figure(struct doc *d, const struct dblock *b)
{
	if (d->nfigs == d->afigs) {
		size_t cap = d->afigs ? 2 * d->afigs : 64;
		struct figrec *p = realloc(d->figs, cap * sizeof(*p));
		if (!p) {
			error("out of memory planning figure %zu", d->nfigs + 1);
			d->err = RENDER_FAIL;
			return;
		}
		d->figs = p, d->afigs = cap;
	}
	struct figrec *f = &d->figs[d->nfigs++];
	memset(f, 0, sizeof(*f));
	f->b = b;
	if (d->st->patent) {
		/* a sheet-sized box, as the figure will be drawn */
		struct rbox box = rbox_make(0, 0, d->pw - d->st->margin_l - d->st->margin_r,
					    d->ph - d->st->margin_t - d->st->margin_b - 80);
		draw_figure(d, (int)d->nfigs, box);
	}
}

static void slide_section(struct doc *d, size_t from, size_t to);

/* Blocks that read the same in articles, sheets and slides; 1 when b was one. */
static int shared_block(struct doc *d, const struct dblock *b)
{
	switch (b->kind) {
	case D_NOTE:
		note_block(d, b->text);
		return 1;
	case D_BULLETS:
		bullets(d, b);
		return 1;
	case D_BRIEF:
		brief(d);
		return 1;
	default:
		return 0;
	}
}

/* A table of contents: each titled section, its number and page (from the
 * counting pass; one line each, so both passes lay it out alike), each line
 * a link to its heading. */
static void contents(struct doc *d, const struct dblock *b)
{
	const struct rstyle *st = d->st;
	const struct docmodel *m = d->m;
	heading(d, b->text && *b->text ? b->text : "Contents", 2);
	double size = st->size_body, numw, h;
	text_extent(&d->c, "000", size, TX_NOSCALE, 0, &numw, NULL);
	for (size_t i = 0; i < m->n; i++) {
		const struct dblock *s = &m->b[i];
		if (s->kind != D_SECTION || !s->text || !*s->text)
			continue;
		char line[700], page[16];
		snprintf(line, sizeof(line), "%d  %s", s->number, s->text);
		int pg = d->pass == 2 && s->number > 0 && (size_t)s->number < d->nsec_page ? d->sec_page[s->number] : 0;
		snprintf(page, sizeof(page), "%d", pg);
		text_extent(&d->c, line, size, TX_INLINE | TX_NOSCALE, d->area.w - numw - size, NULL, &h);
		need(d, h);
		if (d->pass == 2 && pg > 0) {
			char link[64];
			snprintf(link, sizeof(link), "page=%d", pg);
			cairo_tag_begin(d->cr, CAIRO_TAG_LINK, link);
		}
		body_role(d, 1);
		text_block(&d->c, d->area.x, d->y, d->area.w - numw - size, line, size, TX_INLINE | TX_NOSCALE, NULL);
		text_at(&d->c, d->area.x + d->area.w, d->y, page, size, TX_NOSCALE, 1, 0, NULL);
		body_role(d, 0);
		if (d->pass == 2 && pg > 0)
			cairo_tag_end(d->cr, CAIRO_TAG_LINK);
		d->y += h + size * 0.25;
	}
	d->y += size * 0.6;
}

/* The end of the section that starts at block i (the next D_SECTION). */
static size_t section_end(const struct docmodel *m, size_t i)
{
	size_t e = i + 1;
	while (e < m->n && m->b[e].kind != D_SECTION)
		e++;
	return e;
}

static void layout_blocks(struct doc *d)
{
	const struct docmodel *m = d->m;
	if (d->pass == 0) {
		for (size_t i = 0; i < m->n; i++)
			if (m->b[i].kind == D_FIGURE)
				plan_figure(d, &m->b[i]);
		return;
	}
	if (d->pass == 1 && d->page_runs)
		memset(d->page_runs, 0, d->npage_runs * sizeof(*d->page_runs));
	for (size_t i = 0; i < m->n && !d->err; i++) {
		const struct dblock *b = &m->b[i];
		const int p0 = d->page;
		if (d->rd->trace)
			d->rd->trace->runs = 0;
		if (b->kind == D_SECTION && d->t->layout == LAYOUT_SLIDES) {
			size_t e = section_end(m, i);
			slide_section(d, i, e);
			unsigned runs = 0;
			for (size_t k = i; k < e; k++)
				runs |= m->b[k].runs;
			mark_runs(d, p0 + 1 <= d->page ? p0 + 1 : p0, runs, 1); /* its slides, not the one before */
			i = e - 1;
			continue;
		}
		if (shared_block(d, b))
			continue;
		switch (b->kind) {
		case D_SECTION:
			if (b->text && *b->text) /* the heading with the first piece of its first block */
				heading_keep(d, b->text, b->number, 1, first_piece_height(d, i + 1));
			break;
		case D_PARA:
			paragraph(d, b->text, d->st->size_body, 0, 0);
			break;
		case D_SUBHEADING:
			heading_keep(d, b->text, 0, 2, first_piece_height(d, i + 1));
			break;
		case D_CONTENTS:
			contents(d, b);
			break;
		case D_FIGURE:
			if (d->t->layout == LAYOUT_SHEETS)
				d->fig_no++; /* drawn on its sheet after the text */
			else
				article_figure(d, b);
			break;
		case D_TABLE:
			article_table(d, b);
			break;
		case D_PAGE_BREAK:
			if (d->y > d->area.y + 1)
				new_page(d, 0);
			break;
		default:
			break;
		}
		mark_runs(d, p0, b->runs, b->kind != D_FIGURE);
	}
}

/* ---- slides ---------------------------------------------------------------- */

/* The speaker notes of the slide just begun (plain text, drawing pass
 * only): its title (inline text) without its styles, then the notes. */
static void slide_notes(struct doc *d, const char *title, const char *n)
{
	if (d->pass != 2)
		return;
	size_t len = n ? strlen(n) : 0;
	while (len && (n[len - 1] == '\n' || n[len - 1] == ' '))
		len--;
	char *plain = inline_plain(title);
	if (!plain) {
		d->err = RENDER_FAIL;
		return;
	}
	sbuf_addf(&d->notes, "Slide %d — %s\n%.*s\n\n", d->page, plain, (int)(len ? len : 10), len ? n : "(no notes)");
	free(plain);
}

static void slide_header(struct doc *d, const char *title)
{
	const struct rstyle *st = d->st;
	new_page(d, 0);
	double h = text_block(&d->c, d->area.x, d->y, d->area.w, title, st->size_h1, TX_BOLD | TX_INLINE | TX_NOSCALE,
			      st->grey_fills ? &st->accent : NULL);
	/* the rule: a thin line across the whole slide, clear of the title's
	 * descenders; a short heavy one under the first words read as underlining them */
	d->y += h + st->size_body * 0.45;
	set_rgb(&d->c, &st->muted);
	draw_line(&d->c, d->area.x, d->y, d->area.x + d->area.w, d->y, st->thin, 0);
	set_rgb(&d->c, &st->ink);
	d->y += st->size_body * 0.6;
}

static void slide_section(struct doc *d, size_t from, size_t to)
{
	const struct rstyle *st = d->st;
	const struct docmodel *m = d->m;
	const char *title = m->b[from].text ? m->b[from].text : "";
	slide_header(d, title);
	slide_notes(d, title, m->b[from].notes);
	/* text first, at its height; figures and tables share the rest */
	int nfig = 0;
	for (size_t i = from + 1; i < to; i++)
		nfig += m->b[i].kind == D_FIGURE || m->b[i].kind == D_TABLE;
	int done = 0;
	for (size_t i = from + 1; i < to && !d->err; i++) {
		const struct dblock *b = &m->b[i];
		if (shared_block(d, b))
			continue;
		switch (b->kind) {
		case D_PARA: case D_SUBHEADING:
			paragraph(d, b->text, b->kind == D_SUBHEADING ? st->size_h2 : st->size_body,
				  b->kind == D_SUBHEADING ? TX_BOLD : 0, 0);
			break;
		case D_PAGE_BREAK:
			slide_header(d, title);
			break;
		case D_FIGURE: case D_TABLE: {
			int left = nfig - done;
			double h = room(d) / (left > 0 ? left : 1) - 4;
			struct rbox box = rbox_make(d->area.x, d->y, d->area.w, h);
			if (b->kind == D_FIGURE) {
				int n = ++d->fig_no;
				if (n <= (int)d->nfigs && d->pass == 2)
					draw_figure(d, n, rbox_fit(box, fmin(b->height > 0 ? b->height : b->fig->ratio,
									 box.h / box.w)));
			} else {
				d->table_no++;
				if (d->pass == 2)
					table_draw(&d->c, b->table, box, 1);
			}
			d->y += h + 4;
			done++;
			break;
		}
		default:
			break;
		}
	}
}

static void title_block(struct doc *d)
{
	const struct rstyle *st = d->st;
	const struct docmodel *m = d->m;
	new_page(d, 0);
	if (d->t->layout == LAYOUT_SLIDES)
		d->y = d->area.y + d->area.h * 0.28;
	double h = text_block(&d->c, d->area.x, d->y, d->area.w, m->title, st->size_title,
			      TX_BOLD | TX_INLINE | TX_NOSCALE, NULL);
	d->y += h + st->size_body * 0.5;
	if (m->subtitle) {
		h = text_block(&d->c, d->area.x, d->y, d->area.w, m->subtitle, st->size_h2, TX_INLINE | TX_NOSCALE, &st->muted);
		d->y += h + st->size_body * 0.6;
	}
	const char *meta = m->meta;
	char slide_meta[400];
	if (d->t->layout == LAYOUT_SLIDES) {
		/* sources go on the deck's data slide; the title slide says what was measured */
		const struct results_header *hd = &d->rd->res->header;
		const char *when = d->rd->days && d->rd->days[0] ? d->rd->days : hd->date ? hd->date : "?";
		struct ustr u; /* the GPU's name from the file: a cut at a character */
		ustr_init(&u, slide_meta, sizeof(slide_meta));
		ustr_addf(&u, "measured on the %s · %.*s", hd->gpu.name ? hd->gpu.name : "unknown GPU",
			  d->rd->ndates > 1 ? 150 : 10, when);
		meta = slide_meta;
		slide_notes(d, m->title_plain, m->notes);
	}
	if (d->t->layout == LAYOUT_SHEETS)
		meta = ""; /* the description states the measurements; no file names on patent pages */
	h = !*meta ? 0 : text_block(&d->c, d->area.x, d->y, d->area.w, meta,
				    d->t->layout == LAYOUT_SLIDES ? st->size_h2 : st->size_small, TX_NOSCALE, &st->muted);
	d->y += h + st->size_body * 1.2;
	if (st->grey_fills && d->t->layout != LAYOUT_SLIDES) {
		set_rgb(&d->c, &st->accent);
		draw_line(&d->c, d->area.x, d->y - st->size_body * 0.6, d->area.x + d->area.w, d->y - st->size_body * 0.6, st->thin, 0);
		set_rgb(&d->c, &st->ink);
	}
}

/* Patent drawing sheets: one figure per sheet, "FIG. n" under it. */
static void sheets(struct doc *d)
{
	const struct rstyle *st = d->st;
	for (size_t i = 0; i < d->nfigs && !d->err; i++) {
		new_page(d, 1);
		char lab[32];
		fig_label(d, (int)i + 1, lab, sizeof(lab));
		double lh, gh = 0;
		text_extent(&d->c, lab, st->size_fig_label, TX_BOLD | TX_NOSCALE, 0, NULL, &lh);
		/* a legend such as "Prior Art" under the label (MPEP 608.02(g)) */
		const char *legend = d->figs[i].b->legend;
		if (legend)
			text_extent(&d->c, legend, st->size_fig_label * 0.8, TX_INLINE | TX_NOSCALE, 0, NULL, &gh);
		struct rbox box = d->area;
		struct rbox lb = rbox_cut_bottom(&box, lh + 10 + (legend ? gh + 4 : 0));
		rbox_cut_top(&box, st->size_numeral * 1.5); /* numerals above the topmost parts */
		/* drawings may use the whole sight: tall for diagrams, less for charts */
		double r = d->figs[i].b->fig->ratio;
		const char *k = d->figs[i].b->fig->name;
		if (!strncmp(k, "dataflow", 8) || !strncmp(k, "partition", 9) || !strcmp(k, "ablation"))
			r = box.h / box.w; /* ablation: tall rows keep its evidence legible */
		else
			r = fmin(box.h / box.w, fmax(r, 0.5) * 1.5);
		struct rbox fb = rbox_fit(box, r);
		fb.y = box.y;
		if (d->pass == 2)
			draw_figure(d, (int)i + 1, fb);
		text_at(&d->c, lb.x + lb.w / 2, fb.y + fb.h + 8, lab, st->size_fig_label, TX_BOLD | TX_NOSCALE, 0.5, 0, NULL);
		if (legend)
			text_at(&d->c, lb.x + lb.w / 2, fb.y + fb.h + 8 + lh + 4, legend, st->size_fig_label * 0.8, TX_INLINE | TX_NOSCALE,
				0.5, 0, NULL);
	}
}

/* ---- passes --------------------------------------------------------------- */

static cairo_status_t discard(void *closure, const unsigned char *data, unsigned int len)
{
	(void)closure; (void)data; (void)len;
	return CAIRO_STATUS_SUCCESS;
}

static int run_pass(struct doc *d, int pass, const char *path)
{
	d->pass = pass;
	d->page = d->sheet = d->fig_no = d->table_no = 0;
	if (pass < 2) /* the scratch passes: what goes where, then the page count */
		progress_step(d->o->progress, "laying out the pages (pass %d of 3)", pass + 1);
	d->page_open = 0;
	d->notes.len = 0;
	if (d->notes.cap)
		d->notes.buf[0] = '\0';
	/* the document goes to a temporary file renamed over path when complete */
	struct outfile of = { NULL, NULL, "" };
	if (path) {
		int orc = outfile_open(&of, path, NULL);
		if (orc)
			return orc == -2 ? RENDER_BAD_INPUT : RENDER_FAIL;
	}
	d->surf = path ? cairo_pdf_surface_create_for_stream(out_write, of.f, d->pw, d->ph)
		       : cairo_pdf_surface_create_for_stream(discard, NULL, d->pw, d->ph);
	if (cairo_surface_status(d->surf)) {
		error("cannot create '%s': %s", path ? path : "(scratch)", cairo_why(cairo_surface_status(d->surf)));
		cairo_surface_destroy(d->surf);
		if (path)
			outfile_abort(&of);
		return RENDER_FAIL;
	}
	if (path) {
		char title[400];
		snprintf(title, sizeof(title), "%s — %s", d->t->name, d->rd->path);
		cairo_pdf_surface_set_metadata(d->surf, CAIRO_PDF_METADATA_TITLE, title);
		cairo_pdf_surface_set_metadata(d->surf, CAIRO_PDF_METADATA_CREATOR, "attnprof " ATTNPROF_VERSION);
		/* The measurements' date, not the render's: the same results render
		 * to the same bytes, so `make report` leaves committed PDFs alone. */
		const char *date = d->rd->res->header.date;
		if (date && strlen(date) >= 19)
			cairo_pdf_surface_set_metadata(d->surf, CAIRO_PDF_METADATA_CREATE_DATE, date);
	}
	d->cr = cairo_create(d->surf);
	int rc = rctx_init(&d->c, d->cr, d->st);
	if (!rc && pass == 2 && d->o->layout)
		d->c.rec = &d->rec;
	if (!rc) {
		d->c.gloss = &d->t->glossary;
		if (d->st->patent)
			d->c.num = &d->num;
		if (pass == 0) {
			layout_blocks(d);
		} else {
			title_block(d);
			layout_blocks(d);
			if (d->t->layout == LAYOUT_SHEETS)
				sheets(d);
			end_page(d);
		}
		rc = d->err ? d->err : render_check(d->cr, path ? path : "the document") ? RENDER_FAIL : RENDER_OK;
		rctx_release(&d->c);
	}
	cairo_destroy(d->cr);
	cairo_surface_finish(d->surf);
	if (!rc && cairo_surface_status(d->surf)) {
		error("cannot write '%s': %s", path ? path : "(scratch)", cairo_why(cairo_surface_status(d->surf)));
		rc = RENDER_FAIL;
	}
	cairo_surface_destroy(d->surf);
	d->surf = NULL;
	d->cr = NULL;
	if (path && !rc)
		rc = outfile_commit(&of) ? RENDER_FAIL : RENDER_OK;
	else if (path)
		outfile_abort(&of);
	return rc;
}

/* The layout record beside the PDF, with the style's limits and the PDF's hash. */
static int save_layout(struct doc *d, const char *pdf, const char *path)
{
	struct layrec *r = &d->rec;
	snprintf(r->style, sizeof(r->style), "%s", d->st->name);
	r->min[LR_BODY] = d->st->min_body;
	r->min[LR_TEXT] = d->st->min_text;
	r->min[LR_FIGURE] = d->st->min_figure;
	r->min[LR_NUMERAL] = d->st->min_figure;
	/* what the drawn records say, for the linter's claim rules (caveats, time labels) */
	const char *fn[16];
	int fv[16];
	size_t nf = capture_facts(d->rd, fn, fv, 16);
	for (size_t i = 0; i < nf; i++)
		layrec_fact(r, fn[i], fv[i]);
	/* the PDF as written: under its temporary name until the command's outputs are renamed together */
	if (layrec_hash_file(outfile_pending(pdf), &r->pdf_bytes, &r->pdf_hash))
		return RENDER_FAIL;
	int lrc = layrec_save(r, path);
	return lrc == -2 ? RENDER_BAD_INPUT : lrc ? RENDER_FAIL : 0;
}

static int figures_dir(struct doc *d, const char *dir, double dpi)
{
	if (mkdir(dir, 0777) && errno != EEXIST)
		return error("cannot create folder '%s': %s", dir, strerror(errno)), RENDER_FAIL;
	for (size_t i = 0; i < d->nfigs; i++) {
		const struct figrec *f = &d->figs[i];
		char base[700], path[800], no[24];
		/* sheets: named by the view's label (FIG. 3A -> fig03a), numerals as on its sheet */
		int fn = 0;
		char letter = 0;
		if (f->label[0] && sscanf(f->label, "FIG. %d%c", &fn, &letter) >= 1)
			snprintf(no, sizeof(no), "%02d%c", fn, letter >= 'A' && letter <= 'Z' ? letter - 'A' + 'a' : '\0');
		else
			snprintf(no, sizeof(no), "%02zu", i + 1);
		char name[600];
		figure_file_base(no, f->b->fig->name, f->b->fo.variant, name, sizeof(name));
		snprintf(base, sizeof(base), "%s/%s", dir, name);
		struct figopts fo = f->b->fo;
		fo.glossary = &d->t->glossary;
		if (d->st->patent)
			fo.numerals = &d->num;
		snprintf(path, sizeof(path), "%s.svg", base);
		progress_step(d->o->progress, "figure %zu of %zu (%s)", i + 1, d->nfigs, dir);
		int rc = render_figure_file(d->rd, f->b->fig->name, &fo, d->st, path, dpi);
		if (!rc) {
			snprintf(path, sizeof(path), "%s.png", base);
			rc = render_figure_file(d->rd, f->b->fig->name, &fo, d->st, path, dpi);
		}
		if (rc)
			return rc;
	}
	return 0;
}

/* The speaker notes beside the deck: slides.pdf -> slides.notes.txt. */
static int write_notes(struct doc *d, const char *pdf)
{
	char path[4200];
	path_sibling(pdf, ".pdf", ".notes.txt", path, sizeof(path));
	struct outfile of;
	int orc = outfile_open(&of, path, NULL);
	if (orc)
		return orc == -2 ? RENDER_BAD_INPUT : RENDER_FAIL;
	if (fputs(d->notes.buf, of.f) < 0) {
		outfile_abort(&of);
		return error("cannot write the speaker notes '%s': %s", path, strerror(errno ? errno : EIO)), RENDER_FAIL;
	}
	return outfile_commit(&of) ? RENDER_FAIL : 0;
}

int report_render(const struct template *t, struct rdata *rd, const struct report_opts *o,
		  struct report_stats *stats)
{
	static struct doc doc; /* large (figure list); one report at a time */
	struct doc *d = &doc;
	memset(d, 0, sizeof(*d));
	struct docmodel m;
	int rc = docmodel_build(&m, t, rd, o->quiet);
	if (rc)
		return rc == -2 ? RENDER_BAD_INPUT : RENDER_FAIL;
	d->m = &m;
	d->t = t;
	d->rd = rd;
	d->o = o;
	d->st = o->style ? o->style : style_find(t->style);
	if (!d->st)
		d->st = &style_color;
	/* slides are 16:9 whatever the style; the slides style is 16:9 whatever
	 * the template; otherwise the template's paper, else the style's */
	enum page_kind pk = d->st->page;
	if (t->layout == LAYOUT_SLIDES)
		pk = PAGE_WIDE;
	else if (t->paper_set && pk != PAGE_WIDE)
		pk = t->paper;
	page_size(pk, &d->pw, &d->ph);
	numerals_init(&d->num);
	sbuf_init(&d->notes);
	rc = run_pass(d, 0, NULL);
	label_figures(d);
	d->total_sheets = t->layout == LAYOUT_SHEETS ? (int)d->nfigs : 0;
	if (!rc)
		rc = run_pass(d, 1, NULL);
	d->total_pages = d->page;
	layrec_init(&d->rec);
	if (!rc)
		rc = run_pass(d, 2, o->out);
	if (!rc && t->layout == LAYOUT_SLIDES && o->out)
		rc = write_notes(d, o->out);
	if (!rc && o->layout)
		rc = save_layout(d, o->out, o->layout);
	layrec_release(&d->rec);
	if (!rc && o->figures_dir)
		rc = figures_dir(d, o->figures_dir, o->dpi);
	if (stats) {
		stats->pages = d->page;
		stats->figures = (int)d->nfigs;
		stats->tables = d->table_no;
		stats->missing = m.missing;
	}
	numerals_release(&d->num);
	sbuf_release(&d->notes);
	free(d->figs);
	d->figs = NULL;
	free(d->page_runs);
	free(d->sec_page);
	d->page_runs = NULL, d->sec_page = NULL;
	docmodel_release(&m);
	return rc;
}
