/* layrec.c: the layout record; see layrec.h. */
#include "layrec.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "doc/style.h"
#include "util/error.h"
#include "util/file.h"

const char *const lr_role_names[LR_NROLES] = { "body", "text", "figure", "numeral" };
const char *const lr_scale_names[LR_NSCALES] = { "lin", "log", "cat" };
static const char *const key_kind_names[] = { "series", "legend" };

void layrec_init(struct layrec *r)
{
	memset(r, 0, sizeof(*r));
	r->cur_fig = -1;
	r->role = LR_TEXT;
}

void layrec_release(struct layrec *r)
{
	for (size_t i = 0; i < r->ntexts; i++)
		free(r->texts[i].text);
	free(r->pages);
	free(r->figs);
	free(r->texts);
	free(r->lines);
	free(r->fills);
	free(r->marks);
	free(r->keys);
	free(r->ticks);
	free(r->facts);
	free(r->cells);
	layrec_init(r);
}

/* Room for one more item in an array (0 or -1). */
static int grow(void **a, size_t *n, size_t *cap, size_t size)
{
	if (*n < *cap)
		return 0;
	size_t c = *cap ? *cap * 2 : 256;
	void *p = realloc(*a, c * size);
	if (!p)
		return -1;
	*a = p;
	*cap = c;
	return 0;
}
#define PUSH(r, arr) (grow((void **)&(r)->arr, &(r)->n##arr, &(r)->a##arr, sizeof(*(r)->arr)) \
	? ((r)->oom = 1, NULL) : &(r)->arr[(r)->n##arr++])

void layrec_page(struct layrec *r, double w, double h, double mt, double mr, double mb, double ml)
{
	struct lr_page *p = PUSH(r, pages);
	if (p)
		*p = (struct lr_page){ w, h, mt, mr, mb, ml };
}

void layrec_fig_begin(struct layrec *r, double x0, double y0, double x1, double y1, const char *kind)
{
	struct lr_fig *f = PUSH(r, figs);
	if (!f)
		return;
	f->page = (int)r->npages;
	f->id = (int)r->nfigs - 1;
	f->x0 = x0; f->y0 = y0; f->x1 = x1; f->y1 = y1;
	snprintf(f->kind, sizeof(f->kind), "%s", kind);
	r->cur_fig = f->id;
}

void layrec_fig_end(struct layrec *r) { r->cur_fig = -1; }

int layrec_group(struct layrec *r) { return ++r->next_group; }

void layrec_text(struct layrec *r, int group, double size, const double q[8], const char *text, size_t len)
{
	/* whitespace alone places no ink */
	size_t a = 0;
	while (a < len && (text[a] == ' ' || text[a] == '\n' || text[a] == '\t'))
		a++;
	if (a == len)
		return;
	struct lr_text *t = PUSH(r, texts);
	if (!t)
		return;
	memset(t, 0, sizeof(*t));
	t->page = (int)r->npages;
	t->fig = r->cur_fig;
	t->role = r->numeral ? LR_NUMERAL : r->cur_fig >= 0 ? LR_FIGURE : r->role;
	t->group = group;
	t->size = size;
	memcpy(t->q, q, sizeof(t->q));
	t->text = strndup(text, len);
	if (!t->text) {
		r->oom = 1;
		r->ntexts--;
		return;
	}
	for (char *p = t->text; *p; p++)
		if (*p == '\n' || *p == '\t' || *p == '\r')
			*p = ' ';
}

void layrec_text_split(struct layrec *r)
{
	if (r->ntexts)
		r->texts[r->ntexts - 1].split = 1;
}

void layrec_line(struct layrec *r, double w, double x0, double y0, double x1, double y1)
{
	struct lr_line *l = PUSH(r, lines);
	if (l)
		*l = (struct lr_line){ (int)r->npages, r->cur_fig, w, x0, y0, x1, y1, ++r->seq };
}

void layrec_fill(struct layrec *r, int hatch, double x0, double y0, double x1, double y1)
{
	struct lr_fill *f = PUSH(r, fills);
	if (f)
		*f = (struct lr_fill){ (int)r->npages, r->cur_fig, hatch, x0, y0, x1, y1, ++r->seq };
}

void layrec_mark(struct layrec *r, double x0, double y0, double x1, double y1)
{
	struct lr_mark *m = PUSH(r, marks);
	if (m)
		*m = (struct lr_mark){ (int)r->npages, r->cur_fig, x0 < x1 ? x0 : x1, y0 < y1 ? y0 : y1,
				       x0 < x1 ? x1 : x0, y0 < y1 ? y1 : y0 };
}

void layrec_key(struct layrec *r, enum lr_key_kind kind, const char *key)
{
	/* the key is one word in the file */
	char word[sizeof(r->keys->key)];
	size_t n = 0;
	for (const char *p = key; *p && n + 1 < sizeof(word); p++)
		word[n++] = *p == ' ' || *p == '\t' || *p == '\n' ? '_' : *p;
	word[n] = '\0';
	if (!n)
		snprintf(word, sizeof(word), "-");
	/* one line per (figure, kind, key): a series drawn in four panels is one series */
	for (size_t i = r->nkeys; i-- > 0 && r->keys[i].page == (int)r->npages && r->keys[i].fig == r->cur_fig;)
		if (r->keys[i].kind == (int)kind && !strcmp(r->keys[i].key, word))
			return;
	struct lr_key *k = PUSH(r, keys);
	if (!k)
		return;
	k->page = (int)r->npages;
	k->fig = r->cur_fig;
	k->kind = (int)kind;
	memcpy(k->key, word, sizeof(word));
}

int layrec_axis(struct layrec *r) { return ++r->next_axis; }

void layrec_tick(struct layrec *r, int axis, char dir, enum lr_scale scale, double pos, double value)
{
	struct lr_tick *t = PUSH(r, ticks);
	if (t)
		*t = (struct lr_tick){ (int)r->npages, r->cur_fig, axis, (int)scale, dir, pos, value };
}

int layrec_hash_file(const char *path, long *bytes, unsigned long long *hash)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return error("cannot read '%s': %s", path, strerror(errno));
	unsigned long long h = 1469598103934665603ULL;
	long n = 0;
	unsigned char buf[65536];
	size_t k;
	while ((k = fread(buf, 1, sizeof(buf), f)) > 0) {
		for (size_t i = 0; i < k; i++)
			h = (h ^ buf[i]) * 1099511628211ULL;
		n += (long)k;
	}
	int bad = ferror(f) ? (errno ? errno : EIO) : 0;
	fclose(f);
	if (bad)
		return error("cannot read '%s': %s", path, strerror(bad));
	*bytes = n;
	*hash = h;
	return 0;
}

void layrec_fact(struct layrec *r, const char *name, int value)
{
	struct lr_fact *f = PUSH(r, facts);
	if (!f)
		return;
	snprintf(f->name, sizeof(f->name), "%s", name);
	f->value = value;
}

/* a word of a layout line: no space, never empty */
static void word_copy(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src && *src ? src : "-");
	for (char *p = dst; *p; p++)
		if (*p == ' ' || *p == '\t' || *p == '\n')
			*p = '_';
}

void layrec_cell(struct layrec *r, double x0, double y0, double x1, double y1, int measured, const char *qty,
		 const char *rec)
{
	struct lr_cell *c = PUSH(r, cells);
	if (!c)
		return;
	*c = (struct lr_cell){ .page = (int)r->npages, .measured = !!measured, .x0 = x0, .y0 = y0, .x1 = x1, .y1 = y1 };
	word_copy(c->qty, sizeof(c->qty), qty);
	word_copy(c->rec, sizeof(c->rec), rec);
}

int layrec_fact_value(const struct layrec *r, const char *name)
{
	for (size_t i = 0; i < r->nfacts; i++)
		if (!strcmp(r->facts[i].name, name))
			return r->facts[i].value;
	return -1;
}

void layrec_path(const char *pdf, char *buf, size_t len)
{
	path_sibling(pdf, ".pdf", ".layout", buf, len);
}

int layrec_save(const struct layrec *r, const char *path)
{
	if (r->oom)
		return error("cannot record the layout for '%s': out of memory", path);
	/* through outfile: a temporary name that fits, and never over an input */
	struct outfile of;
	int orc = outfile_open(&of, path, NULL);
	if (orc)
		return orc; /* -2: an input of the command, a usage error */
	FILE *f = of.f;
	fprintf(f, "%s\npdf %ld %016llx\nstyle %s\n", LAYREC_FORMAT, r->pdf_bytes, r->pdf_hash, r->style);
	for (int i = 0; i < LR_NROLES; i++)
		fprintf(f, "min %s %.2f\n", lr_role_names[i], r->min[i]);
	for (size_t i = 0; i < r->nfacts; i++)
		fprintf(f, "fact %s %d\n", r->facts[i].name, r->facts[i].value);
	size_t ti = 0, li = 0, fi = 0, gi = 0, mi = 0, ki = 0, ki2 = 0, ci = 0;
	for (size_t p = 0; p < r->npages; p++) {
		const struct lr_page *pg = &r->pages[p];
		int n = (int)p + 1;
		fprintf(f, "page %d %.1f %.1f %.1f %.1f %.1f %.1f\n", n, pg->w, pg->h, pg->mt, pg->mr, pg->mb, pg->ml);
		for (; gi < r->nfigs && r->figs[gi].page == n; gi++) {
			const struct lr_fig *g = &r->figs[gi];
			fprintf(f, "fig %d %d %.1f %.1f %.1f %.1f %s\n", n, g->id, g->x0, g->y0, g->x1, g->y1, g->kind);
		}
		for (; ti < r->ntexts && r->texts[ti].page == n; ti++) {
			const struct lr_text *t = &r->texts[ti];
			fprintf(f, "text %d %d %s%s %d %.2f", n, t->fig, lr_role_names[t->role], t->split ? "/" : "", t->group, t->size);
			for (int k = 0; k < 8; k++)
				fprintf(f, " %.1f", t->q[k]);
			fprintf(f, " %s\n", t->text);
		}
		for (; li < r->nlines && r->lines[li].page == n; li++) {
			const struct lr_line *l = &r->lines[li];
			fprintf(f, "line %d %d %.2f %.1f %.1f %.1f %.1f %ld\n", n, l->fig, l->w, l->x0, l->y0, l->x1, l->y1, l->seq);
		}
		for (; fi < r->nfills && r->fills[fi].page == n; fi++) {
			const struct lr_fill *h = &r->fills[fi];
			fprintf(f, "fill %d %d %d %.1f %.1f %.1f %.1f %ld\n", n, h->fig, h->hatch, h->x0, h->y0, h->x1, h->y1, h->seq);
		}
		for (; mi < r->nmarks && r->marks[mi].page == n; mi++) {
			const struct lr_mark *m = &r->marks[mi];
			fprintf(f, "mark %d %d %.1f %.1f %.1f %.1f\n", n, m->fig, m->x0, m->y0, m->x1, m->y1);
		}
		for (; ki < r->nkeys && r->keys[ki].page == n; ki++) {
			const struct lr_key *k = &r->keys[ki];
			fprintf(f, "%s %d %d %s\n", key_kind_names[k->kind], n, k->fig, k->key);
		}
		for (; ki2 < r->nticks && r->ticks[ki2].page == n; ki2++) {
			const struct lr_tick *t = &r->ticks[ki2];
			fprintf(f, "tick %d %d %d %c %s %.2f %.9g\n", n, t->fig, t->axis, t->dir, lr_scale_names[t->scale], t->pos,
				t->value);
		}
		for (; ci < r->ncells && r->cells[ci].page == n; ci++) {
			const struct lr_cell *c = &r->cells[ci];
			fprintf(f, "cell %d %.1f %.1f %.1f %.1f %d %s %s\n", n, c->x0, c->y0, c->x1, c->y1, c->measured, c->qty,
				c->rec);
		}
	}
	if (ferror(f)) {
		outfile_abort(&of);
		return error("cannot write '%s': %s", path, strerror(errno ? errno : EIO));
	}
	return outfile_commit(&of);
}

static int role_of(const char *s)
{
	for (int i = 0; i < LR_NROLES; i++)
		if (!strcmp(s, lr_role_names[i]))
			return i;
	return -1;
}

int layrec_load(struct layrec *r, const char *path)
{
	layrec_init(r);
	FILE *f = fopen(path, "r");
	if (!f)
		return error("cannot read the layout record '%s': %s", path, strerror(errno));
	char line[8192];
	int ln = 0, rc = 0;
	while (fgets(line, sizeof(line), f)) {
		ln++;
		size_t n = strlen(line);
		if (n && line[n - 1] == '\n')
			line[--n] = '\0';
		if (ln == 1) {
			if (strcmp(line, LAYREC_FORMAT)) {
				rc = error("%s:1: not a layout record (expected '%s')", path, LAYREC_FORMAT);
				break;
			}
			continue;
		}
		char kw[16], role[16];
		int pg, a, b, off = 0;
		if (sscanf(line, "%15s%n", kw, &off) != 1)
			continue;
		const char *s = line + off;
		int ok = 1;
		if (!strcmp(kw, "pdf")) {
			ok = sscanf(s, "%ld %llx", &r->pdf_bytes, &r->pdf_hash) == 2;
		} else if (!strcmp(kw, "style")) {
			ok = sscanf(s, "%31s", r->style) == 1;
			if (ok && !style_find(r->style)) { /* its rules would silently not run */
				char names[128] = "";
				for (size_t i = 0; i < style_count; i++)
					snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
						 i ? ", " : "", style_table[i]->name);
				rc = error("%s:%d: unknown style '%s' (one of %s): render the document again",
					   path, ln, r->style, names);
				break;
			}
		} else if (!strcmp(kw, "min")) {
			double v;
			ok = sscanf(s, "%15s %lf", role, &v) == 2 && role_of(role) >= 0;
			if (ok)
				r->min[role_of(role)] = v;
		} else if (!strcmp(kw, "page")) {
			struct lr_page p;
			ok = sscanf(s, "%d %lf %lf %lf %lf %lf %lf", &pg, &p.w, &p.h, &p.mt, &p.mr, &p.mb, &p.ml) == 7 &&
			     pg == (int)r->npages + 1;
			if (ok)
				layrec_page(r, p.w, p.h, p.mt, p.mr, p.mb, p.ml);
		} else if (!strcmp(kw, "fig")) {
			struct lr_fig g = { 0 };
			ok = sscanf(s, "%d %d %lf %lf %lf %lf %47s", &g.page, &g.id, &g.x0, &g.y0, &g.x1, &g.y1, g.kind) == 7;
			struct lr_fig *p = ok ? PUSH(r, figs) : NULL;
			if (p)
				*p = g;
		} else if (!strcmp(kw, "text")) {
			struct lr_text t = { 0 };
			int used = 0;
			double *q = t.q;
			ok = sscanf(s, "%d %d %15s %d %lf %lf %lf %lf %lf %lf %lf %lf %lf %n", &t.page, &t.fig, role, &t.group,
				    &t.size, &q[0], &q[1], &q[2], &q[3], &q[4], &q[5], &q[6], &q[7], &used) == 13 &&
			     1;
			size_t rl = ok ? strlen(role) : 0;
			if (rl && role[rl - 1] == '/') {
				t.split = 1;
				role[rl - 1] = '\0';
			}
			ok = ok && role_of(role) >= 0;
			if (ok) {
				t.role = role_of(role);
				t.text = strdup(s + used);
				struct lr_text *p = t.text ? PUSH(r, texts) : NULL;
				if (p)
					*p = t;
				else
					free(t.text);
			}
		} else if (!strcmp(kw, "line")) {
			struct lr_line l;
			l.seq = 0; /* records written before the paint order was kept have none */
			ok = sscanf(s, "%d %d %lf %lf %lf %lf %lf %ld", &l.page, &l.fig, &l.w, &l.x0, &l.y0, &l.x1, &l.y1, &l.seq) >= 7;
			struct lr_line *p = ok ? PUSH(r, lines) : NULL;
			if (p)
				*p = l;
		} else if (!strcmp(kw, "fill")) {
			struct lr_fill h;
			h.seq = 0;
			ok = sscanf(s, "%d %d %d %lf %lf %lf %lf %ld", &h.page, &h.fig, &h.hatch, &h.x0, &h.y0, &h.x1, &h.y1, &h.seq) >= 7;
			struct lr_fill *p = ok ? PUSH(r, fills) : NULL;
			if (p)
				*p = h;
		} else if (!strcmp(kw, "mark")) {
			struct lr_mark m;
			ok = sscanf(s, "%d %d %lf %lf %lf %lf", &m.page, &m.fig, &m.x0, &m.y0, &m.x1, &m.y1) == 6;
			struct lr_mark *p = ok ? PUSH(r, marks) : NULL;
			if (p)
				*p = m;
		} else if (!strcmp(kw, "series") || !strcmp(kw, "legend")) {
			struct lr_key k = { .kind = !strcmp(kw, "legend") ? LR_LEGEND : LR_SERIES };
			ok = sscanf(s, "%d %d %111s", &k.page, &k.fig, k.key) == 3;
			struct lr_key *p = ok ? PUSH(r, keys) : NULL;
			if (p)
				*p = k;
		} else if (!strcmp(kw, "fact")) {
			char name[48];
			int v;
			ok = sscanf(s, "%47s %d", name, &v) == 2 && (v == 0 || v == 1);
			if (ok)
				layrec_fact(r, name, v);
		} else if (!strcmp(kw, "cell")) {
			struct lr_cell c = { 0 };
			ok = sscanf(s, "%d %lf %lf %lf %lf %d %31s %223s", &c.page, &c.x0, &c.y0, &c.x1, &c.y1, &c.measured,
				    c.qty, c.rec) == 8 && (c.measured == 0 || c.measured == 1);
			struct lr_cell *p = ok ? PUSH(r, cells) : NULL;
			if (p)
				*p = c;
		} else if (!strcmp(kw, "tick")) {
			struct lr_tick t;
			char sc[8];
			ok = sscanf(s, "%d %d %d %c %7s %lf %lf", &t.page, &t.fig, &t.axis, &t.dir, sc, &t.pos, &t.value) == 7;
			t.scale = -1;
			for (int i = 0; ok && i < LR_NSCALES; i++)
				if (!strcmp(sc, lr_scale_names[i]))
					t.scale = i;
			ok = ok && t.scale >= 0 && (t.dir == 'x' || t.dir == 'y');
			struct lr_tick *p = ok ? PUSH(r, ticks) : NULL;
			if (p)
				*p = t;
		} else {
			ok = 0;
		}
		(void)a; (void)b;
		if (!ok) {
			rc = error("%s:%d: cannot read '%s' (the record is damaged: render the document again)", path, ln, kw);
			break;
		}
	}
	if (!rc && ln == 0)
		rc = error("%s: empty layout record: render the document again", path);
	if (!rc && r->oom)
		rc = error("%s: out of memory", path);
	fclose(f);
	if (rc)
		layrec_release(r);
	return rc;
}
