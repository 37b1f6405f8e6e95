/* lint_profiles.c: the linter's slides and patent profiles (lint.h).
 *
 * Slides (issue 16: a deck a room can read):
 *   one chart      at most one figure on a slide
 *   sources        file names (.yaml, .pdf, .csv, .txt) only on the last slide
 *   notes          speaker notes beside the deck (x.pdf -> x.notes.txt), one
 *                  non-empty entry "Slide N — title" for every slide
 * Sizes (body 24 pt, other text and figure text 16 pt) are the core rules'
 * minimums, carried by the record.
 *
 * Patent (37 CFR 1.84 drawing sheets, 1.52 description pages):
 *   numeral list   every reference numeral drawn is in the description's
 *                  list ("12 — element"), every listed numeral is drawn
 *   sheets         each drawing sheet carries one "FIG. …" label, found on
 *                  no other sheet, and the sheet number "n/m" with the right n, m
 *   sight          margins as recorded: sheets at least 2.5 cm top and left,
 *                  1.5 cm right, 1.0 cm bottom; description pages at least
 *                  2 cm top, right and bottom and 2.5 cm left (the core rule
 *                  checks the ink against them)
 *   spacing        description paragraphs set at 1.5 line spacing or more
 *   legends        words in a drawing kept to legends (1.84(o)): no text of
 *                  more than three words, no code identifiers
 *   meanings       one meaning per numeral in the whole document: no numeral
 *                  listed with two descriptions, no description listed under
 *                  two numerals
 *   page numbers   each description page numbered, the number centred under
 *                  (or over) the text (1.52(b)(5))
 *   type size      description capitals at least 0.3175 cm (1.52(b)(2)(ii)),
 *                  whatever minimum the style itself recorded
 *   software       no command line, file name or code identifier in the
 *                  description (backquotes, "--" options, '_', "::", a file
 *                  extension, a lowercase name with digits such as "flash2")
 * Numerals and lettering sizes in drawings (0.32 cm), hatching and crossing
 * lines are core rules.
 */
#include "lint.h"
#include "util/file.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CM(x) ((x) * 72.0 / 2.54)

static void qbox(const double *q, double *b)
{
	b[0] = fmin(fmin(q[0], q[2]), fmin(q[4], q[6]));
	b[1] = fmin(fmin(q[1], q[3]), fmin(q[5], q[7]));
	b[2] = fmax(fmax(q[0], q[2]), fmax(q[4], q[6]));
	b[3] = fmax(fmax(q[1], q[3]), fmax(q[5], q[7]));
}

static int page_has_figure(const struct layrec *r, int page)
{
	for (size_t i = 0; i < r->nfigs; i++)
		if (r->figs[i].page == page)
			return 1;
	return 0;
}

/* ---- slides ------------------------------------------------------------------- */

void lint_slides_one_chart(struct lint *L)
{
	const struct layrec *r = &L->rec;
	for (size_t p = 1; p <= r->npages; p++) {
		int n = 0;
		const struct lr_fig *second = NULL;
		for (size_t i = 0; i < r->nfigs; i++)
			if (r->figs[i].page == (int)p && ++n == 2)
				second = &r->figs[i];
		if (second)
			lint_add(L, (int)p, second->x0, second->y0, "slide %zu holds %d figures: a slide shows at most one chart",
				 p, n);
	}
}

static int names_a_file(const char *s)
{
	static const char *const ext[] = { ".yaml", ".yml", ".pdf", ".csv", ".txt", ".layout" };
	for (size_t i = 0; i < sizeof(ext) / sizeof(*ext); i++) {
		const char *p = s;
		while ((p = strstr(p, ext[i]))) {
			char next = p[strlen(ext[i])];
			if (p > s && !isalnum((unsigned char)next))
				return 1;
			p++;
		}
	}
	return 0;
}

void lint_slides_sources(struct lint *L)
{
	const struct layrec *r = &L->rec;
	for (size_t i = 0; i < r->ntexts; i++) {
		const struct lr_text *t = &r->texts[i];
		if (t->page >= (int)r->npages || !names_a_file(t->text))
			continue;
		double b[4];
		qbox(t->q, b);
		lint_add(L, t->page, b[0], b[1], "file name in '%.60s' on slide %d: sources go on the last slide only",
			 t->text, t->page);
	}
}

/* The notes beside a deck: x.pdf -> x.notes.txt. */
static void notes_path(const char *pdf, char *buf, size_t len)
{
	path_sibling(pdf, ".pdf", ".notes.txt", buf, len);
}

void lint_slides_notes(struct lint *L)
{
	const struct layrec *r = &L->rec;
	char path[4200];
	notes_path(L->file, path, sizeof(path));
	FILE *f = fopen(path, "r");
	if (!f) {
		lint_add(L, 0, 0, 0, "no speaker notes '%s' beside the deck: render it again with 'attnprof report'", path);
		return;
	}
	char *has = calloc(r->npages + 2, 1);
	char line[8192];
	int cur = 0;
	while (has && fgets(line, sizeof(line), f)) {
		int k;
		if (sscanf(line, "Slide %d —", &k) == 1 && !strncmp(line, "Slide ", 6)) {
			cur = k >= 1 && k <= (int)r->npages ? k : 0;
			continue;
		}
		size_t n = strlen(line);
		while (n && isspace((unsigned char)line[n - 1]))
			line[--n] = '\0';
		if (cur && n && strcmp(line, "(no notes)"))
			has[cur] = 1;
	}
	fclose(f);
	for (size_t p = 1; has && p <= r->npages; p++)
		if (!has[p])
			lint_add(L, (int)p, 0, 0, "slide %zu has no speaker notes in '%s' (give its section notes:)", p, path);
	free(has);
}

/* ---- patent --------------------------------------------------------------------- */

/* A whole number, as a numeral is drawn ("12"). */
static int whole(const char *s, int *v)
{
	if (!isdigit((unsigned char)*s))
		return 0;
	char *e;
	long x = strtol(s, &e, 10);
	if (*e || x < 0 || x > 100000)
		return 0;
	*v = (int)x;
	return 1;
}

/* A line of the numeral list: "12 — element". */
static int listed(const char *s, int *v)
{
	char *e;
	if (!isdigit((unsigned char)*s))
		return 0;
	long x = strtol(s, &e, 10);
	while (*e == ' ')
		e++;
	if (strncmp(e, "—", strlen("—")))
		return 0;
	*v = (int)x;
	return 1;
}

void lint_patent_numerals(struct lint *L)
{
	const struct layrec *r = &L->rec;
	enum { MAXN = 4096 };
	static int drawn_at[MAXN], list_at[MAXN];
	memset(drawn_at, 0, sizeof(drawn_at));
	memset(list_at, 0, sizeof(list_at));
	int ndrawn = 0, nlisted = 0;
	for (size_t i = 0; i < r->ntexts; i++) {
		const struct lr_text *t = &r->texts[i];
		int v;
		if (t->role == LR_NUMERAL && whole(t->text, &v) && v < MAXN) {
			if (!drawn_at[v])
				drawn_at[v] = (int)i + 1;
			ndrawn++;
		} else if (t->fig < 0 && !page_has_figure(r, t->page) && listed(t->text, &v) && v < MAXN) {
			if (!list_at[v])
				list_at[v] = (int)i + 1;
			nlisted++;
		}
	}
	if (ndrawn && !nlisted) {
		lint_add(L, 0, 0, 0, "the drawings carry reference numerals but the description has no list of them "
			 "(lines '12 — element')");
		return;
	}
	double b[4];
	for (int v = 0; v < MAXN; v++) {
		if (drawn_at[v] && !list_at[v]) {
			const struct lr_text *t = &r->texts[drawn_at[v] - 1];
			qbox(t->q, b);
			lint_add(L, t->page, b[0], b[1], "reference numeral %d is drawn but not in the description's list", v);
		}
		if (list_at[v] && !drawn_at[v]) {
			const struct lr_text *t = &r->texts[list_at[v] - 1];
			qbox(t->q, b);
			lint_add(L, t->page, b[0], b[1], "reference numeral %d is listed but drawn on no sheet", v);
		}
	}
}

void lint_patent_sheets(struct lint *L)
{
	const struct layrec *r = &L->rec;
	int nsheets = 0;
	for (size_t p = 1; p <= r->npages; p++)
		nsheets += page_has_figure(r, (int)p);
	int sheet = 0;
	for (size_t p = 1; p <= r->npages; p++) {
		if (!page_has_figure(r, (int)p))
			continue;
		sheet++;
		int labels = 0, numbered = 0;
		char want[32];
		snprintf(want, sizeof(want), "%d/%d", sheet, nsheets);
		for (size_t i = 0; i < r->ntexts; i++) {
			const struct lr_text *t = &r->texts[i];
			if (t->page != (int)p)
				continue;
			numbered |= !strcmp(t->text, want);
			if (strncmp(t->text, "FIG. ", 5))
				continue;
			labels++;
			/* the same label on another sheet */
			for (size_t k = 0; k < r->ntexts; k++)
				if (r->texts[k].page != (int)p && page_has_figure(r, r->texts[k].page) &&
				    !strcmp(r->texts[k].text, t->text) && r->texts[k].page < (int)p) {
					double b[4];
					qbox(t->q, b);
					lint_add(L, (int)p, b[0], b[1], "'%s' also labels sheet %d: each view has its own figure number",
						 t->text, r->texts[k].page);
					break;
				}
		}
		if (!labels)
			lint_add(L, (int)p, 0, 0, "drawing sheet %d has no 'FIG.' label", sheet);
		if (!numbered)
			lint_add(L, (int)p, 0, 0, "drawing sheet %d lacks its sheet number '%s'", sheet, want);
	}
}

void lint_patent_sight(struct lint *L)
{
	const struct layrec *r = &L->rec;
	for (size_t p = 1; p <= r->npages; p++) {
		const struct lr_page *g = &r->pages[p - 1];
		int sheet = page_has_figure(r, (int)p);
		/* 1.84(g) for sheets; 1.52(a) for the description */
		double t = CM(sheet ? 2.5 : 2.0), rt = CM(sheet ? 1.5 : 2.0), bt = CM(sheet ? 1.0 : 2.0), lf = CM(2.5);
		if (g->mt < t - 0.05 || g->mr < rt - 0.05 || g->mb < bt - 0.05 || g->ml < lf - 0.05)
			lint_add(L, (int)p, 0, 0, "%s margins %.2f/%.2f/%.2f/%.2f cm (top/right/bottom/left) are below %.1f/%.1f/%.1f/%.1f cm",
				 sheet ? "drawing sheet" : "description page", g->mt * 2.54 / 72, g->mr * 2.54 / 72,
				 g->mb * 2.54 / 72, g->ml * 2.54 / 72, t * 2.54 / 72, rt * 2.54 / 72, bt * 2.54 / 72, lf * 2.54 / 72);
	}
}

/* 1.5 line spacing: the lines of a paragraph at least 1.6 × the type size
 * apart (single spacing sets DejaVu at about 1.16 ×, 1.5 spacing at 1.75 ×). */
void lint_patent_spacing(struct lint *L)
{
	const struct layrec *r = &L->rec;
	for (size_t i = 0; i < r->ntexts; i++) {
		const struct lr_text *a = &r->texts[i];
		if (a->fig >= 0 || page_has_figure(r, a->page))
			continue;
		/* the first line of a paragraph of three or more lines */
		if (i > 0 && r->texts[i - 1].group == a->group)
			continue;
		size_t n = 1;
		while (i + n < r->ntexts && r->texts[i + n].group == a->group && r->texts[i + n].page == a->page)
			n++;
		if (n < 3)
			continue;
		double ba[4], bz[4];
		qbox(a->q, ba);
		qbox(r->texts[i + n - 1].q, bz);
		double pitch = (bz[1] - ba[1]) / (double)(n - 1);
		if (pitch < 1.6 * a->size)
			lint_add(L, a->page, ba[0], ba[1], "description lines %.1f pt apart at %.1f pt type: "
				 "1.52 asks 1.5 line spacing (at least %.1f pt)", pitch, a->size, 1.6 * a->size);
	}
}

/* A code identifier or a sentence in a drawing. */
static int wordy(const char *s, const char **why)
{
	int words = 0, in = 0;
	for (const char *p = s; *p; p++) {
		if (isspace((unsigned char)*p))
			in = 0;
		else if (!in)
			in = 1, words++;
	}
	if (words > 3) {
		*why = "more than three words";
		return 1;
	}
	if (strchr(s, '_') || strstr(s, "::") || strstr(s, "Idx") || strstr(s, "flash") || strchr(s, '+')) {
		*why = "a code identifier";
		return 1;
	}
	return 0;
}

void lint_patent_legends(struct lint *L)
{
	const struct layrec *r = &L->rec;
	for (size_t i = 0; i < r->ntexts; i++) {
		const struct lr_text *t = &r->texts[i];
		const char *why;
		if (t->fig < 0 || t->role == LR_NUMERAL || !wordy(t->text, &why))
			continue;
		double b[4];
		qbox(t->q, b);
		lint_add(L, t->page, b[0], b[1], "'%.60s' in a drawing is %s: 1.84(o) keeps legends to the indispensable, "
			 "the rest goes in the description", t->text, why);
	}
}

/* ---- one meaning per numeral ----------------------------------------------------- */

/* The list's entries: "12 — element", continued on the lines of its paragraph. */
struct entry { int numeral, at; char what[256]; };

static size_t list_entries(const struct layrec *r, struct entry *e, size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < r->ntexts; i++) {
		const struct lr_text *t = &r->texts[i];
		int v;
		if (t->fig >= 0 || page_has_figure(r, t->page) || !listed(t->text, &v) || n == max)
			continue;
		const char *w = strstr(t->text, "—") + strlen("—");
		while (*w == ' ')
			w++;
		struct entry *x = &e[n++];
		x->numeral = v;
		x->at = (int)i;
		snprintf(x->what, sizeof(x->what), "%s", w);
		for (size_t k = i + 1; k < r->ntexts && r->texts[k].group == t->group; k++) {
			size_t len = strlen(x->what);
			snprintf(x->what + len, sizeof(x->what) - len, " %s", r->texts[k].text);
		}
	}
	return n;
}

void lint_patent_meanings(struct lint *L)
{
	const struct layrec *r = &L->rec;
	enum { MAXE = 512 };
	static struct entry e[MAXE];
	size_t n = list_entries(r, e, MAXE);
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < i; k++) {
			int same_numeral = e[i].numeral == e[k].numeral, same_what = !strcmp(e[i].what, e[k].what);
			if (same_numeral == same_what)
				continue; /* two elements, or the same entry twice */
			double b[4];
			qbox(r->texts[e[i].at].q, b);
			if (same_numeral)
				lint_add(L, r->texts[e[i].at].page, b[0], b[1], "reference numeral %d has two meanings, "
					 "'%.60s' and '%.60s': a numeral names one element on every sheet", e[i].numeral, e[k].what,
					 e[i].what);
			else
				lint_add(L, r->texts[e[i].at].page, b[0], b[1], "reference numerals %d and %d both name '%.60s': "
					 "tell the elements apart or give them one numeral", e[k].numeral, e[i].numeral, e[i].what);
			break;
		}
}

/* ---- description pages: numbers and type ----------------------------------------- */

/* A page number: digits alone ("3"; "3/9" is a sheet number). */
static int page_number_text(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return 0;
	return 1;
}

void lint_patent_page_numbers(struct lint *L)
{
	const struct layrec *r = &L->rec;
	for (size_t p = 1; p <= r->npages; p++) {
		if (page_has_figure(r, (int)p))
			continue;
		const struct lr_page *g = &r->pages[p - 1];
		/* the number: the lowest (else the highest) line of digits alone on the page */
		const struct lr_text *num = NULL;
		double nb[4] = { 0 };
		for (size_t i = 0; i < r->ntexts; i++) {
			const struct lr_text *t = &r->texts[i];
			double b[4];
			if (t->page != (int)p || t->fig >= 0 || !page_number_text(t->text))
				continue;
			qbox(t->q, b);
			/* only in the bands above and below the text: a list's "12" is not a page number */
			int edge = b[3] > g->h - g->mb - CM(2.0) || b[1] < g->mt + CM(1.0);
			if (edge && (!num || b[1] > nb[1]))
				num = t, memcpy(nb, b, sizeof(nb));
		}
		if (!num) {
			lint_add(L, (int)p, 0, 0, "description page %zu carries no page number: 1.52(b)(5) numbers every page, "
				 "centred above or below the text", p);
			continue;
		}
		double mid = g->ml + (g->w - g->ml - g->mr) / 2, at = (nb[0] + nb[2]) / 2;
		if (fabs(at - mid) > CM(0.5))
			lint_add(L, (int)p, nb[0], nb[1], "page number '%s' of description page %zu stands %.1f cm %s of the "
				 "text's centre: 1.52(b)(5) centres it", num->text, p, fabs(at - mid) * 2.54 / 72,
				 at > mid ? "right" : "left");
	}
}

/* The patent style's face (DejaVu Sans) has capitals 0.73 em tall: the
 * record carries type sizes, the face's proportion turns them into the cap
 * height 1.52(b)(2)(ii) measures. */
#define DESC_CAP_EM 0.73
#define DESC_CAP_MIN_CM 0.3175

void lint_patent_type_size(struct lint *L)
{
	const struct layrec *r = &L->rec;
	int last_page = 0;
	for (size_t i = 0; i < r->ntexts; i++) {
		const struct lr_text *t = &r->texts[i];
		if (t->fig >= 0 || page_has_figure(r, t->page) || t->page == last_page)
			continue;
		double cap_cm = t->size * DESC_CAP_EM * 2.54 / 72;
		if (cap_cm >= DESC_CAP_MIN_CM - 0.0005)
			continue;
		double b[4];
		qbox(t->q, b);
		lint_add(L, t->page, b[0], b[1], "description type '%.40s' is %.1f pt, capitals %.3f cm: 1.52(b)(2)(ii) asks "
			 "capitals of at least %.4f cm (%.1f pt in this face)", t->text, t->size, cap_cm, DESC_CAP_MIN_CM,
			 CM(DESC_CAP_MIN_CM) / DESC_CAP_EM);
		last_page = t->page; /* once a page */
	}
}

/* ---- no software in the description --------------------------------------------- */

/* What in s reads as software, or NULL. */
static const char *software_in(const char *s)
{
	if (strchr(s, '`'))
		return "a quoted command";
	if (strstr(s, " --") || !strncmp(s, "--", 2))
		return "a command-line option";
	if (strchr(s, '_') || strstr(s, "::"))
		return "a code identifier";
	if (names_a_file(s) || strstr(s, ".py"))
		return "a file name";
	/* a lowercase word with a digit in it: flash2, sm90a (not 16-bit, not H200) */
	for (const char *p = s; *p;) {
		while (*p && !isalnum((unsigned char)*p))
			p++;
		const char *w = p;
		int lower = 0, digit = 0, upper = 0;
		while (*p && (isalnum((unsigned char)*p) || *p == '+' || *p == '-')) {
			lower |= islower((unsigned char)*p);
			upper |= isupper((unsigned char)*p);
			digit |= isdigit((unsigned char)*p);
			p++;
		}
		if (p > w && lower && digit && !upper && isalpha((unsigned char)*w))
			return "a software name";
	}
	return NULL;
}

void lint_patent_software(struct lint *L)
{
	const struct layrec *r = &L->rec;
	int banner = -1; /* the synthetic fixture's banner names its input file: not description */
	for (size_t i = 0; i < r->ntexts; i++) {
		const struct lr_text *t = &r->texts[i];
		const char *why;
		if (!strncmp(t->text, "SYNTHETIC TEST FIXTURE", 22))
			banner = t->group;
		if (t->group == banner || t->fig >= 0 || page_has_figure(r, t->page) || !(why = software_in(t->text)))
			continue;
		double b[4];
		qbox(t->q, b);
		lint_add(L, t->page, b[0], b[1], "'%.60s' in the description holds %s: a patent describes what the "
			 "computation does, in words", t->text, why);
	}
}
