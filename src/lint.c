/* lint.c: the document linter; see lint.h. */
#include "lint.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "util/error.h"
#include "util/file.h"

/* ---- findings ---------------------------------------------------------------- */

void lint_add(struct lint *L, int page, double x, double y, const char *fmt, ...)
{
	char what[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	for (size_t i = 0; i < L->nf; i++)
		if (L->f[i].page == page && fabs(L->f[i].x - x) < 0.05 && fabs(L->f[i].y - y) < 0.05 &&
		    !strcmp(L->f[i].what, what))
			return;
	if (L->nf == L->af) {
		size_t c = L->af ? 2 * L->af : 64;
		struct lint_finding *p = realloc(L->f, c * sizeof(*p));
		if (!p)
			return;
		L->f = p;
		L->af = c;
	}
	struct lint_finding *f = &L->f[L->nf++];
	f->page = page;
	f->x = x;
	f->y = y;
	snprintf(f->what, sizeof(f->what), "%s", what);
}

static int by_place(const void *a, const void *b)
{
	const struct lint_finding *p = a, *q = b;
	if (p->page != q->page)
		return p->page < q->page ? -1 : 1;
	if (fabs(p->y - q->y) > 0.05)
		return p->y < q->y ? -1 : 1;
	if (fabs(p->x - q->x) > 0.05)
		return p->x < q->x ? -1 : 1;
	return strcmp(p->what, q->what);
}

void lint_print(struct lint *L)
{
	if (L->nf) /* qsort(NULL, 0, ...) is undefined (UBSan says so) */
		qsort(L->f, L->nf, sizeof(*L->f), by_place);
	for (size_t i = 0; i < L->nf; i++)
		printf("%s:%d:%.1f,%.1f: %s\n", L->file, L->f[i].page, L->f[i].x, L->f[i].y, L->f[i].what);
}

/* ---- geometry ------------------------------------------------------------------ */

/* The quadrilateral moved in by tol from each edge (never past its centre). */
static void inset_quad(const double *q, double tol, double *o)
{
	double ux = q[2] - q[0], uy = q[3] - q[1], vx = q[6] - q[0], vy = q[7] - q[1];
	double lu = hypot(ux, uy), lv = hypot(vx, vy);
	double tu = fmin(tol, lu * 0.49), tv = fmin(tol, lv * 0.49);
	if (lu > 0) { ux /= lu; uy /= lu; }
	if (lv > 0) { vx /= lv; vy /= lv; }
	const double su[4] = { 1, -1, -1, 1 }, sv[4] = { 1, 1, -1, -1 };
	for (int k = 0; k < 4; k++) {
		o[2 * k] = q[2 * k] + su[k] * tu * ux + sv[k] * tv * vx;
		o[2 * k + 1] = q[2 * k + 1] + su[k] * tu * uy + sv[k] * tv * vy;
	}
}

/* Separating-axis test of two convex polygons (points x,y pairs). */
static int separated_on(const double *a, int na, const double *b, int nb, const double *axes, int naxes)
{
	for (int i = 0; i < naxes; i++) {
		double ax = axes[2 * i], ay = axes[2 * i + 1];
		if (ax == 0 && ay == 0)
			continue;
		double amin = INFINITY, amax = -INFINITY, bmin = INFINITY, bmax = -INFINITY;
		for (int k = 0; k < na; k++) {
			double p = a[2 * k] * ax + a[2 * k + 1] * ay;
			amin = fmin(amin, p); amax = fmax(amax, p);
		}
		for (int k = 0; k < nb; k++) {
			double p = b[2 * k] * ax + b[2 * k + 1] * ay;
			bmin = fmin(bmin, p); bmax = fmax(bmax, p);
		}
		if (amax <= bmin || bmax <= amin)
			return 1;
	}
	return 0;
}

static void edge_normals(const double *p, int n, double *axes)
{
	for (int k = 0; k < n; k++) {
		int j = (k + 1) % n;
		axes[2 * k] = -(p[2 * j + 1] - p[2 * k + 1]);
		axes[2 * k + 1] = p[2 * j] - p[2 * k];
	}
}

int lint_quads_overlap(const double *a, const double *b, double tol)
{
	double ia[8], ib[8], axes[16];
	inset_quad(a, tol, ia);
	inset_quad(b, tol, ib);
	edge_normals(ia, 4, axes);
	edge_normals(ib, 4, axes + 8);
	return !separated_on(ia, 4, ib, 4, axes, 8);
}

int lint_segment_hits_quad(const double *q, double x0, double y0, double x1, double y1, double inset)
{
	double iq[8], axes[10], seg[4] = { x0, y0, x1, y1 };
	inset_quad(q, inset, iq);
	edge_normals(iq, 4, axes);
	axes[8] = -(y1 - y0);
	axes[9] = x1 - x0;
	return !separated_on(iq, 4, seg, 2, axes, 5);
}

static void quad_box(const double *q, double *b)
{
	b[0] = fmin(fmin(q[0], q[2]), fmin(q[4], q[6]));
	b[1] = fmin(fmin(q[1], q[3]), fmin(q[5], q[7]));
	b[2] = fmax(fmax(q[0], q[2]), fmax(q[4], q[6]));
	b[3] = fmax(fmax(q[1], q[3]), fmax(q[5], q[7]));
}

static int boxes_apart(const double *a, const double *b, double tol)
{
	return a[2] <= b[0] + tol || b[2] <= a[0] + tol || a[3] <= b[1] + tol || b[3] <= a[1] + tol;
}

/* A short quotation of a text for messages. */
static const char *quote(const char *s, char *buf, size_t len)
{
	size_t n = strlen(s);
	if (n + 1 <= len) {
		memcpy(buf, s, n + 1);
		return buf;
	}
	size_t k = len > 4 ? len - 4 : 0;
	while (k && ((unsigned char)s[k] & 0xC0) == 0x80)
		k--;
	snprintf(buf, len, "%.*s…", (int)k, s);
	return buf;
}
#define Q(s, b) quote((s), (b), 40)

/* ---- core rules -------------------------------------------------------------------- */

#define OVERLAP_TOL 0.4   /* pt: ink that merely touches is not a collision */
#define CROSS_INSET 0.6   /* pt: a line grazing a glyph's ink box is not a crossing */
#define MARGIN_TOL 0.5

static void rule_overlap(struct lint *L)
{
	const struct layrec *r = &L->rec;
	for (size_t i = 0; i < r->ntexts; i++) {
		const struct lr_text *a = &r->texts[i];
		double ba[4];
		quad_box(a->q, ba);
		for (size_t j = i + 1; j < r->ntexts && r->texts[j].page == a->page; j++) {
			const struct lr_text *b = &r->texts[j];
			if (b->group == a->group)
				continue;
			double bb[4];
			quad_box(b->q, bb);
			if (boxes_apart(ba, bb, OVERLAP_TOL) || !lint_quads_overlap(a->q, b->q, OVERLAP_TOL))
				continue;
			char qa[40], qb[40];
			lint_add(L, a->page, fmax(ba[0], bb[0]), fmax(ba[1], bb[1]), "text '%s' overlaps text '%s'",
				 Q(a->text, qa), Q(b->text, qb));
		}
	}
}

/* The part of line l near text box bt lies under a knockout painted after it. */
static int knocked_out(const struct layrec *r, const struct lr_line *l, const double *bt)
{
	for (size_t k = 0; k < r->nfills; k++) {
		const struct lr_fill *f = &r->fills[k];
		if (f->hatch != -1 || f->page != l->page || f->seq < l->seq)
			continue;
		if (f->x0 <= bt[0] + 0.01 && f->y0 <= bt[1] + 0.01 && f->x1 >= bt[2] - 0.01 && f->y1 >= bt[3] - 0.01)
			return 1;
	}
	return 0;
}

static void rule_cross(struct lint *L)
{
	const struct layrec *r = &L->rec;
	size_t l0 = 0;
	for (size_t i = 0; i < r->ntexts; i++) {
		const struct lr_text *t = &r->texts[i];
		double bt[4];
		quad_box(t->q, bt);
		while (l0 < r->nlines && r->lines[l0].page < t->page)
			l0++;
		for (size_t k = l0; k < r->nlines && r->lines[k].page == t->page; k++) {
			const struct lr_line *l = &r->lines[k];
			double bl[4] = { fmin(l->x0, l->x1), fmin(l->y0, l->y1), fmax(l->x0, l->x1), fmax(l->y0, l->y1) };
			double hw = l->w / 2;
			bl[0] -= hw; bl[1] -= hw; bl[2] += hw; bl[3] += hw;
			if (boxes_apart(bt, bl, CROSS_INSET))
				continue;
			/* the stroke's own width counts: test its two edges and its middle */
			double dx = l->x1 - l->x0, dy = l->y1 - l->y0, len = hypot(dx, dy);
			double nx = len > 0 ? -dy / len * hw : 0, ny = len > 0 ? dx / len * hw : 0;
			int hit = 0;
			for (int s = -1; s <= 1 && !hit; s++)
				hit = lint_segment_hits_quad(t->q, l->x0 + s * nx, l->y0 + s * ny, l->x1 + s * nx, l->y1 + s * ny,
							     CROSS_INSET);
			if (!hit || knocked_out(r, l, bt))
				continue;
			char qt[40];
			lint_add(L, t->page, bt[0], bt[1], "text '%s' crosses a line from %.1f,%.1f to %.1f,%.1f", Q(t->text, qt),
				 l->x0, l->y0, l->x1, l->y1);
		}
	}
}

static void rule_hatch(struct lint *L)
{
	const struct layrec *r = &L->rec;
	for (size_t i = 0; i < r->ntexts; i++) {
		const struct lr_text *t = &r->texts[i];
		for (size_t k = 0; k < r->nfills; k++) {
			const struct lr_fill *f = &r->fills[k];
			if (f->hatch != 1 || f->page != t->page)
				continue;
			double q[8] = { f->x0, f->y0, f->x1, f->y0, f->x1, f->y1, f->x0, f->y1 };
			if (!lint_quads_overlap(t->q, q, OVERLAP_TOL))
				continue;
			double bt[4];
			quad_box(t->q, bt);
			char qt[40];
			lint_add(L, t->page, bt[0], bt[1], "text '%s' on a hatched area", Q(t->text, qt));
		}
	}
}

static void rule_split_words(struct lint *L)
{
	const struct layrec *r = &L->rec;
	char qt[40];
	for (size_t i = 1; i < r->ntexts; i++) {
		const struct lr_text *t = &r->texts[i];
		if (!t->split)
			continue;
		double b[4];
		quad_box(t->q, b);
		lint_add(L, t->page, b[0], b[1], "a word broken across lines: '%s' / '%s'", Q(r->texts[i - 1].text, qt), t->text);
	}
}

static void rule_size(struct lint *L)
{
	const struct layrec *r = &L->rec;
	for (size_t i = 0; i < r->ntexts; i++) {
		const struct lr_text *t = &r->texts[i];
		double min = r->min[t->role];
		if (t->size >= min - 0.005)
			continue;
		double bt[4];
		quad_box(t->q, bt);
		char qt[40];
		lint_add(L, t->page, bt[0], bt[1], "%s text '%s' is %.1f pt, below the %s style's %.1f pt minimum",
			 lr_role_names[t->role], Q(t->text, qt), t->size, r->style, min);
	}
}

static int outside(const struct lr_page *p, const double *b)
{
	return b[0] < p->ml - MARGIN_TOL || b[1] < p->mt - MARGIN_TOL || b[2] > p->w - p->mr + MARGIN_TOL ||
	       b[3] > p->h - p->mb + MARGIN_TOL;
}

static void rule_margins(struct lint *L)
{
	const struct layrec *r = &L->rec;
	char qt[40];
	for (size_t i = 0; i < r->ntexts; i++) {
		const struct lr_text *t = &r->texts[i];
		double b[4];
		quad_box(t->q, b);
		if (outside(&r->pages[t->page - 1], b))
			lint_add(L, t->page, b[0], b[1], "text '%s' outside the margins", Q(t->text, qt));
	}
	for (size_t i = 0; i < r->nlines; i++) {
		const struct lr_line *l = &r->lines[i];
		/* butt ends: the stroke's ink is the segment widened across it */
		double dx = l->x1 - l->x0, dy = l->y1 - l->y0, len = hypot(dx, dy);
		double nx = len > 0 ? fabs(dy / len) * l->w / 2 : l->w / 2, ny = len > 0 ? fabs(dx / len) * l->w / 2 : l->w / 2;
		double b[4] = { fmin(l->x0, l->x1) - nx, fmin(l->y0, l->y1) - ny, fmax(l->x0, l->x1) + nx,
				fmax(l->y0, l->y1) + ny };
		if (outside(&r->pages[l->page - 1], b))
			lint_add(L, l->page, b[0], b[1], "a line outside the margins (%.1f,%.1f to %.1f,%.1f)", l->x0, l->y0,
				 l->x1, l->y1);
	}
	for (size_t i = 0; i < r->nfills; i++) {
		const struct lr_fill *f = &r->fills[i];
		if (f->hatch == -1)
			continue; /* paper on paper */
		double b[4] = { f->x0, f->y0, f->x1, f->y1 };
		if (outside(&r->pages[f->page - 1], b))
			lint_add(L, f->page, b[0], b[1], "a filled area outside the margins (%.1f,%.1f to %.1f,%.1f)", f->x0,
				 f->y0, f->x1, f->y1);
	}
}

static void rule_empty_figures(struct lint *L)
{
	const struct layrec *r = &L->rec;
	for (size_t g = 0; g < r->nfigs; g++) {
		const struct lr_fig *f = &r->figs[g];
		size_t marks = 0;
		for (size_t i = 0; i < r->nlines && !marks; i++)
			marks += r->lines[i].fig == f->id;
		for (size_t i = 0; i < r->nfills && !marks; i++)
			marks += r->fills[i].fig == f->id && r->fills[i].hatch != -1;
		if (!marks)
			lint_add(L, f->page, f->x0, f->y0, "figure '%s' draws nothing (no line, no filled area)", f->kind);
	}
}

/* A label over a plotted mark (a point, a bar's top, a whisker) hides the datum. */
static void rule_label_on_mark(struct lint *L)
{
	const struct layrec *r = &L->rec;
	for (size_t i = 0; i < r->ntexts; i++) {
		const struct lr_text *t = &r->texts[i];
		double bt[4];
		quad_box(t->q, bt);
		for (size_t k = 0; k < r->nmarks; k++) {
			const struct lr_mark *m = &r->marks[k];
			double bm[4] = { m->x0, m->y0, m->x1, m->y1 };
			double q[8] = { m->x0, m->y0, m->x1, m->y0, m->x1, m->y1, m->x0, m->y1 };
			if (m->page != t->page || boxes_apart(bt, bm, OVERLAP_TOL) || !lint_quads_overlap(t->q, q, OVERLAP_TOL))
				continue;
			char qt[40];
			lint_add(L, t->page, bt[0], bt[1], "text '%s' over a plotted mark at %.1f,%.1f", Q(t->text, qt),
				 (m->x0 + m->x1) / 2, (m->y0 + m->y1) / 2);
		}
	}
}

/* A legend entry names a series the figure drew. */
static void rule_legend_series(struct lint *L)
{
	const struct layrec *r = &L->rec;
	for (size_t i = 0; i < r->nkeys; i++) {
		const struct lr_key *e = &r->keys[i];
		if (e->kind != LR_LEGEND)
			continue;
		int drawn = 0;
		for (size_t k = 0; k < r->nkeys && !drawn; k++)
			drawn = r->keys[k].kind == LR_SERIES && r->keys[k].page == e->page && r->keys[k].fig == e->fig &&
				!strcmp(r->keys[k].key, e->key);
		if (drawn)
			continue;
		const struct lr_fig *f = NULL;
		for (size_t g = 0; g < r->nfigs; g++)
			if (r->figs[g].id == e->fig)
				f = &r->figs[g];
		char qk[40];
		lint_add(L, e->page, f ? f->x0 : 0, f ? f->y0 : 0, "legend entry '%s' of figure '%s' has no drawn series",
			 Q(e->key, qk), f ? f->kind : "-");
	}
}

/* Positions of an axis's ticks against their values: affine in v (linear),
 * in log v (log); categories at equal steps must read as one or the other,
 * or the reader sees a scale that is not there. */
static int ticks_affine(const struct lr_tick *const *t, size_t n, int logv)
{
	double f0 = logv ? log(t[0]->value) : t[0]->value, f1 = logv ? log(t[n - 1]->value) : t[n - 1]->value;
	if (!isfinite(f0) || !isfinite(f1) || f1 == f0)
		return 0;
	double b = (t[n - 1]->pos - t[0]->pos) / (f1 - f0);
	double tol = fmax(0.75, 0.01 * fabs(t[n - 1]->pos - t[0]->pos));
	for (size_t i = 1; i + 1 < n; i++) {
		double f = logv ? log(t[i]->value) : t[i]->value;
		if (!isfinite(f) || fabs(t[i]->pos - (t[0]->pos + b * (f - f0))) > tol)
			return 0;
	}
	return 1;
}

static void rule_tick_spacing(struct lint *L)
{
	const struct layrec *r = &L->rec;
	const struct lr_tick *axis[64];
	for (size_t i = 0; i < r->nticks; i++) {
		const struct lr_tick *t0 = &r->ticks[i];
		int first = 1;
		for (size_t k = 0; k < i && first; k++)
			first = !(r->ticks[k].page == t0->page && r->ticks[k].axis == t0->axis);
		if (!first)
			continue;
		size_t n = 0;
		for (size_t k = i; k < r->nticks && n < 64; k++)
			if (r->ticks[k].page == t0->page && r->ticks[k].axis == t0->axis)
				axis[n++] = &r->ticks[k];
		if (n < 3)
			continue; /* two ticks fit any scale */
		int ok = t0->scale == LR_LIN ? ticks_affine(axis, n, 0)
		       : t0->scale == LR_LOG ? ticks_affine(axis, n, 1)
		       : ticks_affine(axis, n, 0) || ticks_affine(axis, n, 1);
		if (ok)
			continue;
		char vals[120] = "";
		for (size_t k = 0; k < n && strlen(vals) < sizeof(vals) - 16; k++)
			snprintf(vals + strlen(vals), sizeof(vals) - strlen(vals), "%s%g", k ? ", " : "", axis[k]->value);
		if (t0->scale == LR_CAT)
			lint_add(L, t0->page, t0->dir == 'x' ? t0->pos : 0, t0->dir == 'y' ? t0->pos : 0,
				 "%c axis: categories %s at equal steps are neither evenly spaced nor in one ratio: draw a log axis "
				 "or say the axis is not to scale", t0->dir, vals);
		else
			lint_add(L, t0->page, t0->dir == 'x' ? t0->pos : 0, t0->dir == 'y' ? t0->pos : 0,
				 "%c axis: ticks %s are not placed by the axis's %s scale", t0->dir, vals,
				 t0->scale == LR_LOG ? "log" : "linear");
	}
}

/* The PDF as poppler reads it against the record. */
/* ---- claims against the records' facts ----------------------------------------------
 *
 * A caveat or a time label states something of the drawn records; the
 * layout record carries what they say ("fact" lines, capture_facts).  A
 * phrase printed while its fact is false is a finding: a caveat whose
 * condition does not hold, a time label the records' time sources
 * contradict.  A record without fact lines (written before they existed)
 * is not checked. */
static const struct claim_phrase {
	const char *phrase, *fact, *kind, *why;
} claim_phrases[] = {
	{ "Not every call was checked against fp64", "capture-unchecked", "caveat", "every drawn captured call was checked" },
	{ "Not every captured call was checked against fp64", "capture-unchecked", "caveat",
	  "every drawn captured call was checked" },
	{ "Not every capture header names the program's library versions", "capture-no-versions", "caveat",
	  "every capture header names its library versions" },
	{ "time source kernels", "capture-kernel-timed", "time label", "no drawn captured call is timed by its kernels" },
	{ "kernel durations under profiling", "capture-kernel-timed", "time label",
	  "no drawn captured call is timed by its kernels" },
	{ "median of unprofiled re-runs", "capture-event-timed", "time label",
	  "no drawn captured call is timed by unprofiled re-runs (time source events)" },
};

/* The text of a paragraph (lines of one group from text i on), without zero-width spaces;
 * *next: the first line after it. */
static void group_text(const struct layrec *r, size_t i, char *buf, size_t len, size_t *next)
{
	size_t u = 0, j = i;
	buf[0] = '\0';
	for (; j < r->ntexts && r->texts[j].group == r->texts[i].group; j++) {
		const char *t = r->texts[j].text;
		if (j > i && !r->texts[j].split && u + 1 < len)
			buf[u++] = ' ';
		for (; *t && u + 1 < len; t++) {
			if (!strncmp(t, "\xe2\x80\x8b", 3)) { /* U+200B, a break opportunity */
				t += 2;
				continue;
			}
			buf[u++] = *t;
		}
		buf[u] = '\0';
	}
	*next = j;
}

static void rule_claim_facts(struct lint *L)
{
	const struct layrec *r = &L->rec;
	if (!r->nfacts)
		return;
	static char text[16384];
	for (size_t i = 0, next; i < r->ntexts; i = next) {
		group_text(r, i, text, sizeof text, &next);
		for (size_t k = 0; k < sizeof claim_phrases / sizeof claim_phrases[0]; k++) {
			const struct claim_phrase *c = &claim_phrases[k];
			if (layrec_fact_value(r, c->fact) != 0)
				continue;
			for (const char *p = strstr(text, c->phrase); p; p = strstr(p + 1, c->phrase)) {
				/* "not a median of …" denies the label rather than states it */
				if (p - text >= 6 && !strncmp(p - 6, "not a ", 6))
					continue;
				double b[4];
				quad_box(r->texts[i].q, b);
				lint_add(L, r->texts[i].page, b[0], b[1], "%s '%s' printed, but %s (fact %s is 0)", c->kind,
					 c->phrase, c->why, c->fact);
				break;
			}
		}
	}
}

/* ---- a zero where nothing was measured ---------------------------------------------
 *
 * A table cell whose row's record lacks the column's quantity ("cell" lines
 * with M 0) must say so ("–"), never print a number: "0 B" there reads as a
 * measured zero.  A text line whose centre lies in such a cell and reads as
 * zero (0, 0.0, 0 B, 0.00 GiB, 0.0 %, with or without "≈ ") is a finding. */
static int reads_zero(const char *t)
{
	t += strspn(t, " ");
	if (!strncmp(t, "\xe2\x89\x88 ", 4)) /* "≈ " */
		t += 4;
	if (*t != '0')
		return 0;
	t++;
	if (*t == '.') {
		if (t[1] != '0')
			return 0;
		t += 1 + strspn(t + 1, "0");
	}
	if (*t == ' ')
		t++;
	/* a unit (B, KiB, GiB, %, ms, TFLOP/s, ×): letters and symbols, no digit */
	for (; *t; t++)
		if ((*t >= '0' && *t <= '9') || *t == ' ' || *t == ',')
			return 0;
	return 1;
}

static void rule_unmeasured_zero(struct lint *L)
{
	const struct layrec *r = &L->rec;
	char qa[40];
	for (size_t k = 0; k < r->ncells; k++) {
		const struct lr_cell *c = &r->cells[k];
		if (c->measured)
			continue;
		for (size_t i = 0; i < r->ntexts; i++) {
			const struct lr_text *t = &r->texts[i];
			if (t->page != c->page || !reads_zero(t->text))
				continue;
			double b[4];
			quad_box(t->q, b);
			double cx = (b[0] + b[2]) / 2, cy = (b[1] + b[3]) / 2;
			if (cx < c->x0 || cx > c->x1 || cy < c->y0 || cy > c->y1)
				continue;
			lint_add(L, t->page, b[0], b[1], "'%s' printed in a table cell, but record %s has no %s (not measured: "
				 "print '–')", Q(t->text, qa), c->rec, c->qty);
		}
	}
}

static void rule_pdf(struct lint *L)
{
	const struct layrec *r = &L->rec;
	if (!L->words)
		return;
	if (L->pdf_pages != (int)r->npages)
		lint_add(L, 0, 0, 0, "the PDF has %d pages, its layout record %zu: render the document again", L->pdf_pages,
			 r->npages);
	char qa[40], qb[40];
	for (size_t i = 0; i < L->nwords; i++) {
		const struct lint_word *w = &L->words[i];
		double cx = (w->x0 + w->x1) / 2;
		int found = 0;
		for (size_t k = 0; k < r->ntexts && !found; k++) {
			const struct lr_text *t = &r->texts[k];
			if (t->page != w->page)
				continue;
			double b[4];
			quad_box(t->q, b);
			/* the word's box (poppler's: ascent to descent) meets the recorded ink */
			found = cx >= b[0] - 1.5 && cx <= b[2] + 1.5 && w->y0 <= b[3] + 1.5 && w->y1 >= b[1] - 1.5;
		}
		if (!found)
			lint_add(L, w->page, w->x0, w->y0, "word '%s' of the PDF is not in the layout record", Q(w->text, qa));
		for (size_t j = i + 1; j < L->nwords && L->words[j].page == w->page; j++) {
			const struct lint_word *v = &L->words[j];
			if (v->line == w->line)
				continue;
			double ix = fmin(w->x1, v->x1) - fmax(w->x0, v->x0), iy = fmin(w->y1, v->y1) - fmax(w->y0, v->y0);
			if (ix <= 0.5 || iy <= 0.5)
				continue;
			double aw = (w->x1 - w->x0) * (w->y1 - w->y0), av = (v->x1 - v->x0) * (v->y1 - v->y0);
			if (ix * iy < 0.3 * fmin(aw, av))
				continue;
			lint_add(L, w->page, fmax(w->x0, v->x0), fmax(w->y0, v->y0), "words '%s' and '%s' overlap in the PDF",
				 Q(w->text, qa), Q(v->text, qb));
		}
	}
}

static void (*const core_rules[])(struct lint *L) = {
	rule_overlap, rule_cross, rule_hatch, rule_split_words, rule_size, rule_margins, rule_empty_figures,
	rule_label_on_mark, rule_legend_series, rule_tick_spacing, rule_claim_facts, rule_unmeasured_zero, rule_pdf,
};

/* Profiles: a style's own rules after the core ones.  The patent and
 * slides rules of 37 CFR 1.84 / the slides issue go here. */
const struct lint_profile lint_profiles[] = {
	{ "color", "review on screen: the core rules", { NULL } },
	{ "print", "review in grey: the core rules", { NULL } },
	{ "patent", "patent sheets (37 CFR 1.84) and description (1.52): numeral list against the drawings, sheet labels "
	  "and numbers, sight, 1.5 spacing, legends only, one meaning a numeral, centred page numbers, description type "
	  "size, no software in the description", { lint_patent_numerals, lint_patent_sheets, lint_patent_sight, lint_patent_spacing, lint_patent_legends,
	  lint_patent_meanings, lint_patent_page_numbers, lint_patent_type_size, lint_patent_software } },
	{ "slides", "slides: one chart a slide, sources on the last slide, speaker notes for every slide",
	  { lint_slides_one_chart, lint_slides_sources, lint_slides_notes } },
};
const size_t lint_profile_count = sizeof(lint_profiles) / sizeof(lint_profiles[0]);

size_t lint_run(struct lint *L)
{
	const struct layrec *r = &L->rec;
	/* every item on a page the record has (a damaged record says so once) */
	int bad = 0;
	for (size_t i = 0; i < r->ntexts; i++) bad |= r->texts[i].page < 1 || r->texts[i].page > (int)r->npages;
	for (size_t i = 0; i < r->nlines; i++) bad |= r->lines[i].page < 1 || r->lines[i].page > (int)r->npages;
	for (size_t i = 0; i < r->nfills; i++) bad |= r->fills[i].page < 1 || r->fills[i].page > (int)r->npages;
	for (size_t i = 0; i < r->nmarks; i++) bad |= r->marks[i].page < 1 || r->marks[i].page > (int)r->npages;
	for (size_t i = 0; i < r->nkeys; i++) bad |= r->keys[i].page < 1 || r->keys[i].page > (int)r->npages;
	for (size_t i = 0; i < r->nticks; i++) bad |= r->ticks[i].page < 1 || r->ticks[i].page > (int)r->npages;
	for (size_t i = 0; i < r->ncells; i++) bad |= r->cells[i].page < 1 || r->cells[i].page > (int)r->npages;
	if (bad) {
		lint_add(L, 0, 0, 0, "the layout record names a page it does not have: render the document again");
		return L->nf;
	}
	for (size_t i = 0; i < sizeof(core_rules) / sizeof(*core_rules); i++)
		core_rules[i](L);
	for (size_t p = 0; p < lint_profile_count; p++)
		if (!strcmp(lint_profiles[p].style, r->style))
			for (int k = 0; k < LINT_MAX_RULES && lint_profiles[p].rules[k]; k++)
				lint_profiles[p].rules[k](L);
	return L->nf;
}

/* ---- reading ----------------------------------------------------------------------- */

static double attr(const char *s, const char *name)
{
	const char *p = strstr(s, name);
	return p ? strtod(p + strlen(name), NULL) : 0;
}

static void unescape(char *s)
{
	static const struct { const char *e; char c; } ents[] = {
		{ "&amp;", '&' }, { "&lt;", '<' }, { "&gt;", '>' }, { "&quot;", '"' }, { "&apos;", '\'' },
	};
	char *o = s;
	for (char *p = s; *p;) {
		size_t k;
		for (k = 0; k < sizeof(ents) / sizeof(*ents); k++)
			if (!strncmp(p, ents[k].e, strlen(ents[k].e)))
				break;
		if (k < sizeof(ents) / sizeof(*ents)) {
			*o++ = ents[k].c;
			p += strlen(ents[k].e);
		} else {
			*o++ = *p++;
		}
	}
	*o = '\0';
}

static int read_words(struct lint *L, const char *pdf)
{
	/* single-quote the path for the shell */
	char cmd[4400] = "pdftotext -bbox-layout '";
	size_t n = strlen(cmd);
	for (const char *p = pdf; *p && n + 8 < sizeof(cmd); p++) {
		if (*p == '\'') { memcpy(cmd + n, "'\\''", 4); n += 4; }
		else cmd[n++] = *p;
	}
	snprintf(cmd + n, sizeof(cmd) - n, "' - 2>/dev/null");
	FILE *f = popen(cmd, "r");
	if (!f)
		return error("cannot run pdftotext: %s (apt-get install poppler-utils)", strerror(errno));
	char line[4096];
	int page = 0, lno = 0;
	while (fgets(line, sizeof(line), f)) {
		const char *s = line;
		while (*s == ' ')
			s++;
		if (!strncmp(s, "<page ", 6)) {
			page++;
		} else if (!strncmp(s, "<line ", 6)) {
			lno++;
		} else if (!strncmp(s, "<word ", 6) && page > 0) {
			const char *gt = strchr(s, '>'), *end = gt ? strstr(gt, "</word>") : NULL;
			if (!end)
				continue;
			if (L->nwords == L->awords) {
				size_t c = L->awords ? 2 * L->awords : 1024;
				struct lint_word *p = realloc(L->words, c * sizeof(*p));
				if (!p) {
					pclose(f);
					return error("out of memory reading the words of '%s'", pdf);
				}
				L->words = p;
				L->awords = c;
			}
			struct lint_word *w = &L->words[L->nwords++];
			w->page = page;
			w->line = lno;
			w->x0 = attr(s, "xMin=\"");
			w->y0 = attr(s, "yMin=\"");
			w->x1 = attr(s, "xMax=\"");
			w->y1 = attr(s, "yMax=\"");
			snprintf(w->text, sizeof(w->text), "%.*s", (int)(end - gt - 1), gt + 1);
			unescape(w->text);
		}
	}
	int st = pclose(f);
	if (st == -1 || (WIFEXITED(st) && WEXITSTATUS(st) == 127))
		return error("cannot run pdftotext to read '%s': install poppler-utils (apt-get install poppler-utils)", pdf);
	if (st != 0 || page == 0)
		return error("pdftotext could not read '%s': the PDF is damaged or cut short (render it again)", pdf);
	L->pdf_pages = page;
	return 0;
}

int lint_load(struct lint *L, const char *pdf)
{
	memset(L, 0, sizeof(*L));
	L->file = pdf;
	char path[4200];
	layrec_path(pdf, path, sizeof(path));
	/* a FIFO or a device named .pdf or .layout would be read without end */
	struct stat lst;
	if (!stat(path, &lst) && file_check_regular(path, "the layout record"))
		return -1;
	if (!stat(pdf, &lst)) {
		if (file_check_regular(pdf, "the PDF"))
			return -1;
		char magic[5] = "";
		FILE *pf = fopen(pdf, "rb");
		size_t got = pf ? fread(magic, 1, sizeof(magic), pf) : 0;
		if (pf)
			fclose(pf);
		if (got < 5 || memcmp(magic, "%PDF-", 5))
			return error("'%s' is not a PDF (it does not start with %%PDF-): lint checks a PDF 'attnprof report' wrote",
				     pdf);
	}
	if (layrec_load(&L->rec, path)) {
		note("the linter reads the layout record that 'attnprof report' writes beside the PDF: render '%s' again", pdf);
		return -1;
	}
	long bytes;
	unsigned long long hash;
	if (layrec_hash_file(pdf, &bytes, &hash))
		return -1;
	if (bytes != L->rec.pdf_bytes || hash != L->rec.pdf_hash)
		lint_add(L, 0, 0, 0, "the layout record '%s' was written for another version of this PDF: render it again", path);
	return read_words(L, pdf);
}

void lint_release(struct lint *L)
{
	layrec_release(&L->rec);
	free(L->words);
	free(L->f);
	memset(L, 0, sizeof(*L));
}
