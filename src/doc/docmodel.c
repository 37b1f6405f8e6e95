/* docmodel.c: the walk over a template into blocks; see docmodel.h. */
#include "doc/docmodel.h"
#include "doc/capreview.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doc/interp.h"
#include "util/error.h"
#include "util/ustr.h"

struct walk {
	struct docmodel *m;
	const struct template *t;
	struct rdata *rd;
	struct interp ip;
	const char *var;             /* $v of the section being walked */
	int err;                     /* sticky: -2 template error, -1 out of memory */
};

/* Interpolate a scalar into inline text (styles: its **bold**, _italic_ and
 * `code` as marks, doc/inline.h) or plain text (NULL after an error; "" for no node). */
static char *expand_as(struct walk *w, const struct ynode *n, int styles)
{
	if (w->err)
		return NULL;
	if (!n)
		return strdup("");
	struct sbuf sb;
	sbuf_init(&sb);
	w->ip.var_v = w->var;
	w->ip.styles = styles;
	w->ip.block = w->m->n ? w->m->n - 1 : (size_t)-1; /* the title block: none */
	int rc = interp_expand(&w->ip, n, n->scalar, &sb);
	if (!rc && !sb.cap && sbuf_add(&sb, "", 0))
		rc = -1;
	if (rc) {
		w->err = rc;
		sbuf_release(&sb);
		return NULL;
	}
	return sb.buf;
}

static char *expand(struct walk *w, const struct ynode *n) { return expand_as(w, n, 1); }

static int when_true(struct walk *w, const struct ynode *c)
{
	if (!c || w->err)
		return !w->err;
	int truth = 0;
	w->ip.var_v = w->var;
	int rc = interp_when(&w->ip, c, c->scalar, &truth);
	if (rc)
		w->err = rc;
	return !rc && truth;
}

static struct dblock *push(struct walk *w, enum dkind kind)
{
	struct docmodel *m = w->m;
	if (w->err)
		return NULL;
	if (m->n == m->cap) {
		size_t cap = m->cap ? 2 * m->cap : 64;
		struct dblock *b = realloc(m->b, cap * sizeof(*b));
		if (!b) {
			w->err = error("out of memory building the document");
			return NULL;
		}
		m->b = b;
		m->cap = cap;
	}
	struct dblock *b = &m->b[m->n++];
	memset(b, 0, sizeof(*b));
	b->kind = kind;
	figopts_init(&b->fo);
	snprintf(b->var, sizeof(b->var), "%s", w->var ? w->var : "");
	return b;
}

/* The variants a section walks: one pass (NULL) unless each_variant; every
 * captured implementation (no cap).  *out and *keys are new arrays (free
 * both); 0 and w->err set when memory runs out. */
static size_t section_variants(struct walk *w, const struct tsection *s, const char ***outp, char (**keysp)[SERIES_KEY])
{
	size_t n = 0, cap = 16;
	struct capimpl *impls = s->each_variant == 2 ? capture_impls(w->rd, &n) : NULL;
	if (n > cap)
		cap = n;
	const char **out = *outp = calloc(cap, sizeof(*out));
	char (*keys)[SERIES_KEY] = *keysp = calloc(cap, sizeof(*keys));
	if (!out || !keys) {
		capture_impls_free(impls, n);
		w->err = error("out of memory building the document");
		return 0;
	}
	if (!s->each_variant) {
		out[0] = NULL;
		return 1;
	}
	if (s->each_variant == 2) { /* the implementations captured in a program (capreview.h) */
		for (size_t i = 0; i < n; i++) {
			snprintf(keys[i], SERIES_KEY, "%.95s", impls[i].key);
			out[i] = keys[i];
		}
		capture_impls_free(impls, n);
		return n;
	}
	if (s->nvariants) {
		for (size_t i = 0; i < s->nvariants; i++)
			out[i] = s->variants[i];
		return s->nvariants;
	}
	struct rsel any;
	rsel_any(&any);
	any.phase = PHASE_PREFILL;
	size_t m = 0;
	n = rdata_series(w->rd, &any, SERIES_MAIN, keys, 16);
	for (size_t i = 0; i < n; i++)
		if (variant_find(keys[i]))
			out[m++] = keys[i];
	return m;
}

static void figopts_of(struct walk *w, const struct tblock *b, struct figopts *o)
{
	figopts_init(o);
	o->sel = b->sel;
	o->step = b->step;
	if (b->variant)
		snprintf(o->variant, sizeof(o->variant), "%s", !strcmp(b->variant, "$v") && w->var ? w->var : b->variant);
	if (b->compare)
		snprintf(o->compare, sizeof(o->compare), "%s", !strcmp(b->compare, "$v") && w->var ? w->var : b->compare);
}

static void block(struct walk *w, const struct tblock *b)
{
	struct dblock *d;
	char why[200];
	switch (b->kind) {
	case B_TEXT:
	case B_NOTE:
	case B_SUBHEADING:
	case B_CONTENTS:
		if ((d = push(w, b->kind == B_TEXT ? D_PARA : b->kind == B_NOTE ? D_NOTE
				 : b->kind == B_SUBHEADING ? D_SUBHEADING : D_CONTENTS)))
			d->text = expand(w, b->text);
		break;
	case B_BULLETS:
		if (!(d = push(w, D_BULLETS)))
			break;
		d->items = calloc(b->items->n ? b->items->n : 1, sizeof(char *));
		if (!d->items) {
			w->err = error("out of memory building the document");
			break;
		}
		for (size_t i = 0; i < b->items->n && !w->err; i++)
			if ((d->items[i] = expand(w, b->items->items[i])))
				d->nitems++;
		break;
	case B_FIGURE:
		if (!figkind_available(b->fig, w->rd, why, sizeof(why)) || !(d = push(w, D_FIGURE)))
			break;
		d->fig = b->fig;
		figopts_of(w, b, &d->fo);
		if (d->fig->title) {
			char title[600];
			d->fig->title(w->rd, &d->fo, title, sizeof title);
			char cut[200];
			if (d->fig->cut && d->fig->cut(w->rd, &d->fo, cut, sizeof cut)) { /* no silent cap */
				size_t l = strlen(title);
				snprintf(title + l, sizeof(title) - l, " (%s)", cut);
				if (!w->ip.quiet)
					warning("figure %d (%s): %s", w->m->nfigures + 1, d->fig->name, cut);
			}
			if (!(d->title = strdup(title)))
				w->err = error("out of memory building the document");
		}
		w->ip.block_sel = &b->sel; /* the caption at the figure's conditions */
		d->caption = b->caption ? expand(w, b->caption) : NULL;
		w->ip.block_sel = NULL;
		d->legend = b->legend ? expand(w, b->legend) : NULL;
		snprintf(d->id, sizeof(d->id), "%s", b->id ? b->id : "");
		d->height = b->height;
		d->width = b->width;
		d->number = ++w->m->nfigures;
		break;
	case B_TABLE:
		if (!(d = push(w, D_TABLE)))
			break;
		figopts_of(w, b, &d->fo);
		d->table = table_build(w->rd, b->table, &d->fo);
		if (!d->table)
			w->err = -1;
		table_title(w->rd, b->table, d->table, d->table_title, sizeof(d->table_title));
		if (d->table && d->table->rows_cut && !w->ip.quiet)
			warning("table %d (%s): only the first %d rows are shown (the table says so)", w->m->ntables + 1,
				d->table_title, TROWS);
		snprintf(d->id, sizeof(d->id), "%s", b->id ? b->id : "");
		w->ip.block_sel = &b->sel;
		d->caption = b->caption ? expand(w, b->caption) : NULL;
		w->ip.block_sel = NULL;
		d->number = ++w->m->ntables;
		break;
	case B_BRIEF:
		push(w, D_BRIEF);
		break;
	case B_PAGE_BREAK:
		push(w, D_PAGE_BREAK);
		break;
	}
}

static void title_block(struct walk *w)
{
	struct docmodel *m = w->m;
	const struct template *t = w->t;
	m->title = t->title ? expand(w, t->title) : strdup(t->name);
	m->title_plain = t->title ? expand_as(w, t->title, 0) : strdup(t->name);
	m->notes = t->notes ? expand_as(w, t->notes, 0) : NULL;
	m->subtitle = t->subtitle ? expand(w, t->subtitle) : NULL;
	const struct results_header *hd = &w->rd->res->header;
	char meta[1400];
	struct ustr u; /* names from the file: a cut at a character, marked */
	ustr_init(&u, meta, sizeof(meta));
	ustr_addf(&u, "Results %s · %s · recorded %s on %s · %zu records · rendered by attnprof %s",
		  w->rd->path, hd->gpu.name ? hd->gpu.name : "unknown GPU",
		  w->rd->dates ? w->rd->dates : hd->date ? hd->date : "?",
		  hd->host ? hd->host : "?", w->rd->res->nrecords, ATTNPROF_VERSION);
	m->meta = strdup(meta);
	if (!w->err && (!m->title || !m->title_plain || !m->meta))
		w->err = error("out of memory building the document");
}

/* Sheets: the figures of one section are the views of one figure, FIG. 3A,
 * 3B, …; a section with one figure gives it a plain number.  report.c draws
 * these labels, and {ref:ID} cites them. */
static void sheet_labels(struct docmodel *m)
{
	int no = 0, group = 0, last_group = -1, view = 0, views = 0;
	for (size_t i = 0; i < m->n; i++) {
		group += m->b[i].kind == D_SECTION;
		if (m->b[i].kind != D_FIGURE)
			continue;
		if (group != last_group) {
			no++;
			last_group = group;
			view = 0;
			views = 0;
			for (size_t k = i; k < m->n && m->b[k].kind != D_SECTION; k++)
				views += m->b[k].kind == D_FIGURE;
		}
		if (views == 1)
			snprintf(m->b[i].label, sizeof(m->b[i].label), "FIG. %d", no);
		else
			snprintf(m->b[i].label, sizeof(m->b[i].label), "FIG. %d%c", no, (char)('A' + view % 26));
		view++;
	}
}

/* The block {ref:ID} cites: of the citing text's $v where a section repeats per variant. */
static const struct dblock *ref_block(const struct walk *w, const char *id, const char *var)
{
	const struct dblock *hit = NULL;
	for (size_t i = 0; i < w->m->n; i++) {
		const struct dblock *b = &w->m->b[i];
		if ((b->kind == D_FIGURE || b->kind == D_TABLE) && !strcmp(b->id, id) &&
		    (!hit || (!strcmp(b->var, var) && strcmp(hit->var, var))))
			hit = b;
	}
	return hit;
}

/* "Figure 3", "Table 2"; on drawing sheets the view's label "FIG. 3A" (the
 * number alone, "3A", for the second of a pair). */
static void ref_name(const struct walk *w, const struct dblock *b, int bare, char *buf, size_t len)
{
	if (b->kind == D_FIGURE && w->m->layout == LAYOUT_SHEETS && b->label[0])
		snprintf(buf, len, "%s", bare ? b->label + strlen("FIG. ") : b->label);
	else if (bare)
		snprintf(buf, len, "%d", b->number);
	else
		snprintf(buf, len, "%s %d", b->kind == D_FIGURE ? "Figure" : "Table", b->number);
}

/* {ref:ID} expanded to a mark (interp.h: INTERP_REF_OPEN ID INTERP_REF_CLOSE)
 * becomes "Figure N" or "Table N" (sheets: "FIG. 3A") once every block is
 * numbered, so a text may cite a figure that comes after it; {ref:A,B} cites
 * two ("Figures 3 and 4", "FIGS. 8A and 8B"), {ref:A..B} a run of them
 * ("FIGS. 11A to 11D").  The block of the citing text's $v is preferred
 * where a section repeats per variant. */
static char *resolve_one(struct walk *w, char *s, const char *var)
{
	if (!s || !strchr(s, INTERP_REF_OPEN))
		return s;
	struct sbuf sb;
	sbuf_init(&sb);
	for (const char *p = s; *p;) {
		const char *o = strchr(p, INTERP_REF_OPEN), *c = o ? strchr(o, INTERP_REF_CLOSE) : NULL;
		if (!o || !c) {
			sbuf_add(&sb, p, strlen(p));
			break;
		}
		sbuf_add(&sb, p, (size_t)(o - p));
		char id[DOC_ID_MAX * 2 + 4], *id2 = NULL;
		snprintf(id, sizeof(id), "%.*s", (int)(c - o - 1), o + 1);
		const char *join = NULL;
		char *sep = strstr(id, "..");
		if (sep) {
			*sep = '\0';
			id2 = sep + 2;
			join = "to";
		} else if ((sep = strchr(id, ','))) {
			*sep = '\0';
			id2 = sep + 1;
			join = "and";
		}
		const struct dblock *hit = ref_block(w, id, var), *hit2 = id2 ? ref_block(w, id2, var) : NULL;
		if (hit && id2 && hit2) {
			char a[32], b[32];
			ref_name(w, hit, 1, a, sizeof(a));
			ref_name(w, hit2, 1, b, sizeof(b));
			const char *many = hit->kind == D_TABLE ? "Tables"
					 : w->m->layout == LAYOUT_SHEETS ? "FIGS." : "Figures";
			sbuf_addf(&sb, "%s %s %s %s", many, a, join, b);
		} else if (hit && !id2) {
			char a[32];
			ref_name(w, hit, 0, a, sizeof(a));
			sbuf_add(&sb, a, strlen(a));
		} else {
			const char *lost = hit ? id2 : id; /* the one not found */
			sbuf_add(&sb, "n/a", 3);
			w->ip.missing++;
			if (!w->ip.quiet)
				warning("%s: {ref:%s}: no figure or table with id '%s' in this document (its block's "
					"when: is false, or no block has that id): wrote 'n/a'", w->t->path, lost, lost);
		}
		p = c + 1;
	}
	free(s);
	return sb.buf;
}

static void resolve_refs(struct walk *w)
{
	for (size_t i = 0; i < w->m->n; i++) {
		struct dblock *b = &w->m->b[i];
		b->text = resolve_one(w, b->text, b->var);
		b->caption = resolve_one(w, b->caption, b->var);
		b->notes = resolve_one(w, b->notes, b->var);
		for (size_t k = 0; k < b->nitems; k++)
			b->items[k] = resolve_one(w, b->items[k], b->var);
	}
}

/* Each figure's description, traced ("figure" lines) under its number.
 * Its lookups are those the drawing makes again: the counts the report's
 * notes give (ambiguous lookups, the runs of a page) stay the drawing's. */
static int describe_figures(struct docmodel *m, struct rdata *rd)
{
	struct rtrace saved = { 0 };
	if (rd->trace)
		saved = *rd->trace;
	int rc = 0;
	for (size_t i = 0; i < m->n && !rc; i++) {
		struct dblock *b = &m->b[i];
		if (b->kind != D_FIGURE || !b->fig || !b->fig->build)
			continue;
		char ctx[64];
		if (rd->trace) {
			snprintf(ctx, sizeof ctx, "figure %s", b->fig->name);
			rd->trace->context = ctx;
		}
		b->desc = malloc(sizeof(*b->desc));
		if (!b->desc || figdesc_build(b->fig, rd, &b->fo, b->desc) < 0) {
			free(b->desc);
			b->desc = NULL;
			rc = -1;
		} else
			figdesc_trace(rd, b->desc, b->number);
		if (rd->trace)
			rd->trace->context = saved.context;
	}
	if (rd->trace) {
		rd->trace->found = saved.found;
		rd->trace->missing = saved.missing;
		rd->trace->ambiguous = saved.ambiguous;
		memcpy(rd->trace->first_ambiguous, saved.first_ambiguous, sizeof saved.first_ambiguous);
		rd->trace->runs = saved.runs;
	}
	return rc;
}

int docmodel_build(struct docmodel *m, const struct template *t, struct rdata *rd, int quiet)
{
	memset(m, 0, sizeof(*m));
	m->layout = t->layout;
	/* a descriptor's evidence names quantities: one that is none is refused, not dropped */
	for (size_t i = 0; i < variant_count; i++) {
		char why[200];
		if (ablation_evidence_check(variant_table[i], why, sizeof why))
			return error("%s", why);
	}
	/* the template's focus overrides the default conditions */
	if (t->focus.n > 0) rd->focus.n = t->focus.n;
	if (t->focus.d > 0) rd->focus.d = t->focus.d;
	if (t->focus.causal >= 0) rd->focus.causal = t->focus.causal;
	if (t->focus.tokens > 0) rd->focus.tokens = t->focus.tokens;
	if (t->focus.hidden > 0) rd->focus.hidden = t->focus.hidden;
	struct walk w = { .m = m, .t = t, .rd = rd };
	w.ip.rd = rd;
	w.ip.file = t->path;
	w.ip.src = t->src;
	w.ip.srclen = t->srclen;
	w.ip.quiet = quiet;
	w.ip.claims = &m->claims;
	title_block(&w);
	for (size_t si = 0; si < t->nsections && !w.err; si++) {
		const struct tsection *s = &t->sections[si];
		w.var = NULL;
		/* a repeated section's when: is asked of each variant ($v in it) */
		if (!s->each_variant && !when_true(&w, s->when))
			continue;
		const char **vars;
		char (*keys)[SERIES_KEY];
		size_t nv = section_variants(&w, s, &vars, &keys);
		for (size_t vi = 0; vi < nv && !w.err; vi++) {
			w.var = vars[vi];
			if (s->each_variant && !when_true(&w, s->when))
				continue;
			const struct ynode *title = s->title;
			if (s->ntitles) { /* the first alternative that holds; none: the section is left out */
				title = NULL;
				for (size_t k = 0; k < s->ntitles && !title && !w.err; k++)
					if (when_true(&w, s->title_when[k]))
						title = s->titles[k];
				if (!title)
					continue;
			}
			struct dblock *d = push(&w, D_SECTION);
			if (!d)
				break;
			d->text = expand(&w, title);
			d->notes = s->notes ? expand_as(&w, s->notes, 0) : NULL;
			d->number = s->title ? ++m->nsections : 0; /* untitled sections are not numbered */
			for (size_t bi = 0; bi < s->nblocks && !w.err; bi++) {
				if (!when_true(&w, s->blocks[bi].when))
					continue;
				size_t first = m->n;
				if (rd->trace)
					rd->trace->runs = 0;
				block(&w, &s->blocks[bi]);
				for (size_t k = first; k < m->n; k++) /* the runs a page's dates come from */
					m->b[k].runs = rd->trace ? rd->trace->runs : 0;
			}
		}
		free(vars);
		free(keys);
	}
	if (!w.err) {
		sheet_labels(m);
		resolve_refs(&w);
	}
	m->missing = w.ip.missing;
	if (!w.err && describe_figures(m, rd))
		w.err = error("out of memory describing the figures");
	for (size_t i = 0; !w.err && i < m->claims.n; i++)
		claim_trace(rd, &m->claims.c[i]);
	if (w.err)
		docmodel_release(m);
	return w.err;
}

void docmodel_release(struct docmodel *m)
{
	for (size_t i = 0; i < m->n; i++) {
		struct dblock *b = &m->b[i];
		if (b->desc)
			figdesc_release(b->desc);
		free(b->desc);
		free(b->text);
		free(b->notes);
		for (size_t k = 0; k < b->nitems; k++)
			free(b->items[k]);
		free(b->items);
		free(b->title);
		free(b->caption);
		free(b->legend);
		table_free(b->table);
	}
	free(m->b);
	claim_list_release(&m->claims);
	free(m->title);
	free(m->subtitle);
	free(m->meta);
	free(m->title_plain);
	free(m->notes);
	memset(m, 0, sizeof(*m));
}
