/* template.c: load and check document templates; see template.h. */
#include "doc/template.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/file.h"

static int bad(const struct template *t, const struct ynode *n, const char *fmt, ...) ATTNPROF_PRINTF(3, 4);
static int bad(const struct template *t, const struct ynode *n, const char *fmt, ...)
{
	char where[300], msg[700];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	ynode_where(&t->tree, n, where, sizeof(where));
	return error("%s: %s", where, msg);
}

static int check_keys(const struct template *t, const struct ynode *map, const char *const *valid, size_t n,
		      const char *what)
{
	for (size_t i = 0; i < map->n; i++) {
		const char *k = map->keys[i]->scalar;
		size_t j;
		for (j = 0; j < n && strcmp(valid[j], k); j++)
			;
		if (j < n)
			continue;
		const char *near = nearest_word(k, valid, n);
		if (near)
			return bad(t, map->keys[i], "unknown key '%s' in %s: did you mean '%s'?", k, what, near);
		return bad(t, map->keys[i], "unknown key '%s' in %s", k, what);
	}
	return 0;
}

static int scalar(const struct template *t, const struct ynode *n, const char *what, const char **out)
{
	if (!n)
		return 0;
	if (n->kind != Y_SCALAR)
		return bad(t, n, "%s must be text", what);
	*out = n->scalar;
	return 0;
}

/* A figure's size option, from 1 to the limit the command line has too
 * (results.h; step: the tiling figure's 5 steps), so no figure is sized
 * past what it draws in bounded memory. */
static int int_opt(const struct template *t, const struct ynode *n, const char *what, int *out)
{
	long long v;
	if (!n)
		return 0;
	if (ynode_int(&t->tree, n, what, &v))
		return -1;
	const long long max = !strcmp(what, "N") ? MAX_SEQLEN : !strcmp(what, "d") ? MAX_HEAD_DIM
			    : !strcmp(what, "B") ? MAX_BATCH : !strcmp(what, "H") ? MAX_HEADS : 5;
	if (v < 1 || v > max)
		return bad(t, n, "%s must be a whole number from 1 to %lld", what, max);
	*out = (int)v;
	return 0;
}

static int sel_opts(const struct template *t, const struct ynode *m, struct rsel *s)
{
	int b;
	const struct ynode *c = ynode_get(m, "causal");
	if (int_opt(t, ynode_get(m, "N"), "N", &s->n) || int_opt(t, ynode_get(m, "d"), "d", &s->d) ||
	    int_opt(t, ynode_get(m, "B"), "B", &s->batch) || int_opt(t, ynode_get(m, "H"), "H", &s->heads) ||
	    int_opt(t, ynode_get(m, "hidden"), "hidden", &s->hidden))
		return -1;
	int tok = -1;
	if (int_opt(t, ynode_get(m, "batch_tokens"), "batch_tokens", &tok))
		return -1;
	if (tok > 0)
		s->tokens = tok;
	if (c) {
		if (ynode_bool(&t->tree, c, "causal", &b))
			return -1;
		s->causal = b;
	}
	const struct ynode *pn = ynode_get(m, "pass");
	if (pn) {
		enum pass p;
		if (pn->kind != Y_SCALAR || pass_parse(pn->scalar, &p))
			return bad(t, pn, "pass must be fwd, bwd or fwd+bwd");
		s->pass = p;
	}
	return 0;
}

static int load_block(struct template *t, const struct ynode *n, struct tblock *b)
{
	static const char *const kinds[] = { "text", "bullets", "figure", "table", "note", "brief_description",
					     "page_break", "subheading", "contents" };
	static const char *const valid[] = { "text", "bullets", "figure", "table", "note", "brief_description",
					     "page_break", "subheading", "contents", "caption", "when", "variant", "compare",
					     "N", "d", "causal", "B", "H", "batch_tokens", "hidden", "pass", "height", "width", "step",
					     "legend", "id" };
	memset(b, 0, sizeof(*b));
	rsel_any(&b->sel);
	b->node = n;
	/* '- ~', '- null' or '- ' is YAML's null, not the text "~": a block left
	 * empty by mistake is refused rather than drawn as "~" */
	if (n->kind == Y_SCALAR && !n->quoted &&
	    (!n->scalar[0] || !strcmp(n->scalar, "~") || !strcmp(n->scalar, "null")))
		return bad(t, n, "an empty block (YAML null '%s'): give it text, such as - \"...\", or leave the line out",
			   n->scalar[0] ? n->scalar : "");
	if (n->kind == Y_SCALAR) { /* a bare string is a paragraph */
		b->kind = B_TEXT;
		b->text = n;
		return 0;
	}
	if (n->kind != Y_MAP)
		return bad(t, n, "a block must be a mapping such as {text: ...} or {figure: tflops}");
	if (check_keys(t, n, valid, sizeof(valid) / sizeof(*valid), "a block"))
		return -1;
	int found = -1;
	for (size_t k = 0; k < sizeof(kinds) / sizeof(*kinds); k++)
		if (ynode_get(n, kinds[k])) {
			if (found >= 0)
				return bad(t, n, "a block has one kind, not both '%s' and '%s'", kinds[found], kinds[k]);
			found = (int)k;
		}
	if (found < 0)
		return bad(t, n, "a block needs one of text, bullets, figure, table, note, subheading, "
			   "contents, brief_description or page_break");
	const struct ynode *v = ynode_get(n, kinds[found]);
	b->kind = (enum block_kind)found;
	b->caption = ynode_get(n, "caption");
	b->when = ynode_get(n, "when");
	b->legend = ynode_get(n, "legend");
	if (b->caption && b->caption->kind != Y_SCALAR)
		return bad(t, b->caption, "caption must be text");
	if (b->legend && (b->legend->kind != Y_SCALAR || found != B_FIGURE))
		return bad(t, b->legend, "legend is a figure's text under its label, such as 'Prior Art'");
	if (b->when && b->when->kind != Y_SCALAR)
		return bad(t, b->when, "when must be a condition such as has:decode");
	switch (b->kind) {
	case B_TEXT: case B_NOTE: case B_SUBHEADING: case B_CONTENTS:
		if (v->kind != Y_SCALAR)
			return bad(t, v, "%s must be text", kinds[found]);
		b->text = v;
		break;
	case B_BULLETS:
		if (v->kind != Y_SEQ)
			return bad(t, v, "bullets must be a list of text");
		for (size_t i = 0; i < v->n; i++)
			if (v->items[i]->kind != Y_SCALAR)
				return bad(t, v->items[i], "a bullet must be text");
		b->items = v;
		break;
	case B_FIGURE: {
		const char *name = NULL;
		if (scalar(t, v, "figure", &name))
			return -1;
		b->fig = figkind_find(name);
		if (!b->fig) {
			const char *near = figkind_nearest(name);
			return bad(t, v, "unknown figure '%s'%s%s%s (attnprof figure --help lists them)", name,
				   near ? ": did you mean '" : "", near ? near : "", near ? "'?" : "");
		}
		break;
	}
	case B_TABLE: {
		const char *name = NULL;
		if (scalar(t, v, "table", &name))
			return -1;
		b->table = table_find(name);
		if (b->table < 0) {
			const char *near = table_nearest(name);
			return bad(t, v, "unknown table '%s'%s%s%s", name, near ? ": did you mean '" : "",
				   near ? near : "", near ? "'?" : "");
		}
		break;
	}
	default:
		break;
	}
	if (scalar(t, ynode_get(n, "id"), "id", &b->id))
		return -1;
	if (b->id && (found != B_FIGURE && found != B_TABLE))
		return bad(t, ynode_get(n, "id"), "id names a figure or a table for {ref:ID}");
	if (b->id && (!*b->id || strspn(b->id, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_") != strlen(b->id) ||
		      strlen(b->id) >= DOC_ID_MAX))
		return bad(t, ynode_get(n, "id"), "an id is letters, digits, '-' and '_', at most %d characters", DOC_ID_MAX - 1);
	if (scalar(t, ynode_get(n, "variant"), "variant", &b->variant) ||
	    scalar(t, ynode_get(n, "compare"), "compare", &b->compare) || sel_opts(t, n, &b->sel))
		return -1;
	if (b->variant && strcmp(b->variant, "$v") && !variant_find(b->variant) && !strchr(b->variant, ':') &&
	    strcmp(b->variant, "sdpa"))
		return bad(t, ynode_get(n, "variant"), "unknown variant '%s' (kernels/variants.c names them)", b->variant);
	if (b->compare && strcmp(b->compare, "$v") && !variant_find(b->compare) && !strchr(b->compare, ':'))
		return bad(t, ynode_get(n, "compare"), "unknown variant '%s'", b->compare);
	if (int_opt(t, ynode_get(n, "step"), "step", &b->step))
		return -1;
	const struct ynode *h = ynode_get(n, "height"), *w = ynode_get(n, "width");
	if (h && ynode_double(&t->tree, h, "height", &b->height))
		return -1;
	if (h && !(b->height > 0 && b->height <= 3))
		return bad(t, h, "height is the figure's height / width: more than 0, at most 3");
	if (w && ynode_double(&t->tree, w, "width", &b->width))
		return -1;
	if (w && !(b->width > 0 && b->width <= 1))
		return bad(t, w, "width is a fraction of the text width: more than 0, at most 1");
	return 0;
}

static int load_section(struct template *t, const struct ynode *n, struct tsection *s)
{
	static const char *const valid[] = { "title", "when", "each_variant", "blocks", "notes" };
	memset(s, 0, sizeof(*s));
	s->node = n;
	if (n->kind != Y_MAP)
		return bad(t, n, "a section must be a mapping with title and blocks");
	if (check_keys(t, n, valid, 5, "a section"))
		return -1;
	s->title = ynode_get(n, "title");
	s->notes = ynode_get(n, "notes");
	if (s->notes && s->notes->kind != Y_SCALAR)
		return bad(t, s->notes, "notes must be text (the speaker notes of the slide)");
	s->when = ynode_get(n, "when");
	if (s->title && s->title->kind == Y_SEQ) {
		/* alternatives: the first whose when: holds, as a block's alternative wording */
		const struct ynode *alts = s->title;
		if (!alts->n || alts->n > SECTION_TITLES)
			return bad(t, alts, "title alternatives are a list of 1 to %d mappings {text, when}", SECTION_TITLES);
		for (size_t i = 0; i < alts->n; i++) {
			static const char *const akeys[] = { "text", "when" };
			const struct ynode *a = alts->items[i], *tx = a->kind == Y_MAP ? ynode_get(a, "text") : NULL;
			if (!tx || tx->kind != Y_SCALAR)
				return bad(t, a, "a title alternative is a mapping with text (and when: its condition)");
			if (check_keys(t, a, akeys, 2, "a title alternative"))
				return -1;
			const struct ynode *wh = ynode_get(a, "when");
			if (wh && wh->kind != Y_SCALAR)
				return bad(t, wh, "when must be a condition such as has:decode");
			s->titles[i] = tx;
			s->title_when[i] = wh;
		}
		s->ntitles = alts->n;
		s->title = s->titles[0];
	} else if (s->title && s->title->kind != Y_SCALAR) {
		return bad(t, s->title, "title must be text, or a list of alternatives {text, when}");
	}
	if (s->when && s->when->kind != Y_SCALAR)
		return bad(t, s->when, "when must be a condition such as has:decode");
	const struct ynode *ev = ynode_get(n, "each_variant");
	if (ev) {
		s->each_variant = 1;
		if (ev->kind == Y_SCALAR) {
			if (!strcmp(ev->scalar, "captured"))
				s->each_variant = 2; /* every implementation captured in a program */
			else if (strcmp(ev->scalar, "all"))
				return bad(t, ev, "each_variant is 'all', 'captured' or a list of variant names");
		} else if (ev->kind == Y_SEQ) {
			const size_t most = sizeof(s->variants) / sizeof(*s->variants);
			for (size_t i = 0; i < ev->n; i++) {
				const struct ynode *it = ev->items[i];
				if (i >= most) /* no silent cap */
					return bad(t, it, "each_variant lists at most %zu variants", most);
				if (it->kind != Y_SCALAR || !variant_find(it->scalar))
					return bad(t, it, "'%s' is not a variant of kernels/variants.c",
						   it->kind == Y_SCALAR ? it->scalar : "?");
				s->variants[s->nvariants++] = it->scalar;
			}
		} else
			return bad(t, ev, "each_variant is 'all' or a list of variant names");
	}
	const struct ynode *bl = ynode_get(n, "blocks");
	if (!bl)
		return bad(t, n, "a section needs blocks: a list of text, figures and tables");
	if (bl->kind != Y_SEQ)
		return bad(t, bl, "blocks must be a list");
	s->blocks = calloc(bl->n ? bl->n : 1, sizeof(*s->blocks));
	if (!s->blocks)
		return error("out of memory");
	for (size_t i = 0; i < bl->n; i++) {
		if (load_block(t, bl->items[i], &s->blocks[i]))
			return -1;
		s->nblocks = i + 1;
		/* $v is the variant of an each_variant section: elsewhere it named
		 * nothing, drew the default variant and wrote fig01-dataflow-$v.svg */
		const struct tblock *b = &s->blocks[i];
		if (!s->each_variant && ((b->variant && !strcmp(b->variant, "$v")) || (b->compare && !strcmp(b->compare, "$v"))))
			return bad(t, ynode_get(bl->items[i], b->variant && !strcmp(b->variant, "$v") ? "variant" : "compare"),
				   "'$v' is only defined inside a section with each_variant");
	}
	return 0;
}

/* glossary: {word: abbreviation, ...}; each abbreviation shorter than its
 * word and standing for one word only, so a chart's key reads back. */
static int load_glossary(struct template *t, const struct ynode *g)
{
	if (g->kind != Y_MAP)
		return bad(t, g, "glossary is a mapping of word: abbreviation, such as {seqpar: sp, splitq: sq}");
	t->gloss_own = calloc(g->n ? g->n : 1, sizeof(*t->gloss_own));
	if (!t->gloss_own)
		return error("out of memory");
	for (size_t i = 0; i < g->n; i++) {
		const char *w = g->keys[i]->scalar;
		const struct ynode *a = g->items[i];
		if (a->kind != Y_SCALAR)
			return bad(t, a, "the abbreviation of '%s' in the glossary must be text", w);
		if (!*w || !*a->scalar)
			return bad(t, *w ? a : g->keys[i], "a glossary entry needs a word and its abbreviation, both non-empty");
		if (strlen(a->scalar) >= strlen(w))
			return bad(t, a, "the abbreviation '%s' is not shorter than '%s': give a shorter one", a->scalar, w);
		for (size_t k = 0; k < i; k++)
			if (!strcmp(t->gloss_own[k].abbr, a->scalar))
				return bad(t, a, "the abbreviation '%s' stands for both '%s' and '%s': give each word its own",
					   a->scalar, t->gloss_own[k].word, w);
		t->gloss_own[i] = (struct gloss_entry){ w, a->scalar };
	}
	t->glossary = (struct glossary){ t->gloss_own, g->n };
	return 0;
}

int template_load(struct template *t, const char *path)
{
	memset(t, 0, sizeof(*t));
	rsel_any(&t->focus);
	t->glossary = glossary_builtin;
	char *buf;
	size_t len;
	if (read_whole_file(path, ytree_spec_limits.max_bytes, "template", &buf, &len))
		return -1;
	t->src = buf;
	t->srclen = len;
	t->path = strdup(path);
	if (!t->path)
		return error("out of memory");
	if (ytree_parse(&t->tree, buf, len, t->path, &ytree_spec_limits, 0)) {
		error("%s", t->tree.problem);
		template_release(t);
		return -1;
	}
	const struct ynode *root = t->tree.root;
	static const char *const valid[] = { "template", "name", "title", "subtitle", "style", "layout", "paper",
					     "focus", "sections", "notes", "glossary" };
	int rc = -1;
	if (!root || root->kind != Y_MAP) {
		error("%s: a template is a mapping with template, title, layout and sections", path);
		goto out;
	}
	if (check_keys(t, root, valid, sizeof(valid) / sizeof(*valid), "the template"))
		goto out;
	const struct ynode *fmt = ynode_get(root, "template");
	if (!fmt || fmt->kind != Y_SCALAR) {
		error("%s: no 'template: %s' line: not an attnprof template", path, TEMPLATE_FORMAT);
		goto out;
	}
	if (strcmp(fmt->scalar, TEMPLATE_FORMAT)) {
		bad(t, fmt, "template format '%s' is not supported (this attnprof reads %s)", fmt->scalar, TEMPLATE_FORMAT);
		goto out;
	}
	t->name = "template";
	if (scalar(t, ynode_get(root, "name"), "name", &t->name))
		goto out;
	t->title = ynode_get(root, "title");
	t->subtitle = ynode_get(root, "subtitle");
	t->notes = ynode_get(root, "notes");
	if (t->notes && t->notes->kind != Y_SCALAR) {
		bad(t, t->notes, "notes must be text (the speaker notes of the title slide)");
		goto out;
	}
	if ((t->title && t->title->kind != Y_SCALAR) || (t->subtitle && t->subtitle->kind != Y_SCALAR)) {
		bad(t, t->title && t->title->kind != Y_SCALAR ? t->title : t->subtitle, "title and subtitle must be text");
		goto out;
	}
	const struct ynode *st = ynode_get(root, "style");
	t->style = "color";
	if (st) {
		if (scalar(t, st, "style", &t->style))
			goto out;
		if (!style_find(t->style)) {
			bad(t, st, "unknown style '%s' (color, print, patent, slides)", t->style);
			goto out;
		}
	}
	const struct ynode *lay = ynode_get(root, "layout");
	if (lay) {
		const char *l = "";
		if (scalar(t, lay, "layout", &l))
			goto out;
		if (!strcmp(l, "article")) t->layout = LAYOUT_ARTICLE;
		else if (!strcmp(l, "sheets")) t->layout = LAYOUT_SHEETS;
		else if (!strcmp(l, "slides")) t->layout = LAYOUT_SLIDES;
		else {
			bad(t, lay, "unknown layout '%s' (article, sheets, slides)", l);
			goto out;
		}
	}
	const struct ynode *pp = ynode_get(root, "paper");
	if (pp) {
		const char *p = "";
		if (scalar(t, pp, "paper", &p))
			goto out;
		if (page_parse(p, &t->paper) || t->paper == PAGE_WIDE) {
			bad(t, pp, "paper is a4 or letter, not '%s'", p);
			goto out;
		}
		t->paper_set = 1;
	}
	const struct ynode *fo = ynode_get(root, "focus");
	if (fo) {
		static const char *const fv[] = { "N", "d", "causal", "B", "batch_tokens", "hidden" };
		if (fo->kind != Y_MAP) {
			bad(t, fo, "focus is a mapping such as {N: 4096, d: 128, causal: false}");
			goto out;
		}
		if (check_keys(t, fo, fv, 6, "focus") || sel_opts(t, fo, &t->focus))
			goto out;
	}
	const struct ynode *gl = ynode_get(root, "glossary");
	if (gl && load_glossary(t, gl))
		goto out;
	const struct ynode *secs = ynode_get(root, "sections");
	if (!secs || secs->kind != Y_SEQ) {
		bad(t, secs ? secs : root, "a template needs sections: a list");
		goto out;
	}
	t->sections = calloc(secs->n ? secs->n : 1, sizeof(*t->sections));
	if (!t->sections) {
		error("out of memory");
		goto out;
	}
	for (size_t i = 0; i < secs->n; i++) {
		t->nsections = i + 1;
		if (load_section(t, secs->items[i], &t->sections[i]))
			goto out;
	}
	rc = 0;
out:
	if (rc)
		template_release(t);
	return rc;
}

void template_release(struct template *t)
{
	for (size_t i = 0; i < t->nsections; i++)
		free(t->sections[i].blocks);
	free(t->sections);
	free(t->gloss_own);
	ytree_release(&t->tree);
	free(t->src);
	free(t->path);
	memset(t, 0, sizeof(*t));
}
