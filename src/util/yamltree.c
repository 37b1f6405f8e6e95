/* yamltree.c: libyaml events -> struct ynode tree; see yamltree.h. */
#include "yamltree.h"
#include "error.h"

#include <errno.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <yaml.h>

const struct ytree_limits ytree_spec_limits = { 1u << 20, 32, 100000 };
const struct ytree_limits ytree_results_limits = { 512u << 20, 32, 50000000 };

/* "binary" of "tag:yaml.org,2002:binary" (written !!binary), else NULL */
static const char *short_tag(const unsigned char *tag)
{
	const char *pre = "tag:yaml.org,2002:";
	return tag && !strncmp((const char *)tag, pre, strlen(pre)) ? (const char *)tag + strlen(pre) : NULL;
}

/* YAML's core schema tags (!!str, !!int, …), the only ones a value may carry */
static int core_tag(const char *tag)
{
	static const char *const core[] = { "str", "int", "float", "bool", "null" };
	const char *pre = "tag:yaml.org,2002:";
	if (strncmp(tag, pre, strlen(pre)))
		return 0;
	for (size_t i = 0; i < sizeof(core) / sizeof(*core); i++)
		if (!strcmp(tag + strlen(pre), core[i]))
			return 1;
	return 0;
}

static void node_free(struct ynode *n)
{
	if (!n)
		return;
	for (size_t i = 0; i < n->n; i++) {
		node_free(n->items[i]);
		if (n->keys)
			node_free(n->keys[i]);
	}
	free(n->items);
	free(n->keys);
	free(n->scalar);
	free(n);
}

void ytree_release(struct ytree *t)
{
	node_free(t->root);
	t->root = NULL;
	t->nnodes = 0;
}

static struct ynode *node_new(enum ynode_kind kind, const yaml_mark_t *m)
{
	struct ynode *n = calloc(1, sizeof(*n));
	if (!n)
		return NULL;
	n->kind = kind;
	n->line = (int)m->line + 1;
	n->col = (int)m->column + 1;
	return n;
}

/* Append child to a sequence, or as key/value to a map. */
static int node_add(struct ynode *parent, struct ynode *child, int *want_key)
{
	if (parent->kind == Y_MAP && *want_key) {
		size_t cap = parent->n + 1;
		struct ynode **k = realloc(parent->keys, cap * sizeof(*k));
		struct ynode **v = k ? realloc(parent->items, cap * sizeof(*v)) : NULL;
		if (k)
			parent->keys = k;
		if (!v)
			return -1;
		parent->items = v;
		parent->keys[parent->n] = child;
		parent->items[parent->n] = NULL;
		parent->n++;
		*want_key = 0;
		return 0;
	}
	if (parent->kind == Y_MAP) {
		parent->items[parent->n - 1] = child;
		*want_key = 1;
		return 0;
	}
	struct ynode **v = realloc(parent->items, (parent->n + 1) * sizeof(*v));
	if (!v)
		return -1;
	parent->items = v;
	parent->items[parent->n++] = child;
	return 0;
}

#define STACK_MAX 256

static int key_cmp(const void *a, const void *b)
{
	const struct ynode *const *x = a, *const *y = b;
	int c = strcmp((*x)->scalar, (*y)->scalar);
	return c ? c : (*x)->line != (*y)->line ? (*x)->line - (*y)->line : (*x)->col - (*y)->col;
}

/* Duplicate keys: YAML leaves them undefined; we refuse them, in every
 * file.  Sorted, so a mapping of a million keys costs n log n, not n².
 * Recursion is bounded by the depth limit. */
static void check_duplicates(struct ytree *t, const struct ynode *n)
{
	if (t->refused)
		return;
	/* (a mapping cut short may end in a key cut short: 'time_ms' of 'time_ms_max') */
	if (n->kind == Y_MAP && n->n > 1 && n->complete) {
		const struct ynode *first = NULL, *dup = NULL;
		if (n->n <= 16) {
			for (size_t i = 1; i < n->n && !dup; i++)
				for (size_t j = 0; j < i; j++)
					if (!strcmp(n->keys[i]->scalar, n->keys[j]->scalar)) {
						first = n->keys[j];
						dup = n->keys[i];
						break;
					}
		} else {
			struct ynode **k = malloc(n->n * sizeof(*k));
			if (!k) {
				t->refused = 1;
				snprintf(t->problem, sizeof(t->problem), "%s: out of memory", t->filename);
				return;
			}
			memcpy(k, n->keys, n->n * sizeof(*k));
			qsort(k, n->n, sizeof(*k), key_cmp);
			/* k[i - 1] starts a run of one key: k[i] is its first repeat */
			for (size_t i = 1; i < n->n; i++)
				if (!strcmp(k[i]->scalar, k[i - 1]->scalar) && (i == 1 || strcmp(k[i - 1]->scalar, k[i - 2]->scalar)) &&
				    (!dup || k[i]->line < dup->line || (k[i]->line == dup->line && k[i]->col < dup->col))) {
					dup = k[i];
					first = k[i - 1];
				}
			free(k);
		}
		if (dup) {
			t->refused = 1;
			snprintf(t->problem, sizeof(t->problem),
				 "%s:%d:%d: key '%s' appears twice in the same mapping (first at line %d): keep one",
				 t->filename, dup->line, dup->col, dup->scalar, first->line);
			t->problem_offset = 0;
			return;
		}
	}
	if (n->kind != Y_SCALAR)
		for (size_t i = 0; i < n->n; i++)
			if (n->items[i])
				check_duplicates(t, n->items[i]);
}

/* A file refused before it is parsed: too large, or binary (a NUL byte,
 * its line said).  1 with t->problem set, or 0. */
static int refuse_text(struct ytree *t, const char *text, size_t len, const char *filename,
		       const struct ytree_limits *lim)
{
	if (len > lim->max_bytes) {
		t->refused = 1;
		snprintf(t->problem, sizeof(t->problem),
			 "%s: file is %zu bytes, more than the %zu allowed",
			 filename, len, lim->max_bytes);
		return 1;
	}
	const char *nul = memchr(text, '\0', len);
	if (nul) {
		int line = 1;
		for (const char *p = text; p < nul; p++)
			line += *p == '\n';
		t->refused = 1;
		snprintf(t->problem, sizeof(t->problem),
			 "%s:%d: binary data (a NUL byte at offset %zu): not a YAML text file",
			 filename, line, (size_t)(nul - text));
		return 1;
	}
	return 0;
}

/* libyaml's error, at its line and column, into t->problem. */
static void parse_problem(struct ytree *t, const yaml_parser_t *parser, const char *text, size_t len,
			  const char *filename)
{
	const yaml_mark_t *m = parser->problem_mark.line || parser->problem_mark.column
		? &parser->problem_mark : &parser->context_mark;
	yaml_mark_t at;
	if (parser->error == YAML_READER_ERROR) {
		/* (invalid UTF-8: libyaml gives a byte offset, not a mark) */
		memset(&at, 0, sizeof(at));
		at.index = parser->problem_offset < len ? parser->problem_offset : len;
		for (size_t i = 0; i < at.index; i++, at.column++)
			if (text[i] == '\n') {
				at.line++;
				at.column = (size_t)-1;
			}
		m = &at;
	}
	t->problem_offset = m->index;
	if (parser->error == YAML_MEMORY_ERROR) {
		t->refused = 1; /* not a cut: nothing may be read as if it were */
		snprintf(t->problem, sizeof(t->problem), "%s: out of memory reading it", filename);
		return;
	}
	snprintf(t->problem, sizeof(t->problem), "%s:%zu:%zu: %s%s%s",
		 filename, m->line + 1, m->column + 1,
		 parser->problem ? parser->problem : "syntax error",
		 parser->context ? " " : "",
		 parser->context ? parser->context : "");
}

int ytree_parse(struct ytree *t, const char *text, size_t len,
		const char *filename, const struct ytree_limits *lim,
		int allow_partial)
{
	yaml_parser_t parser;
	struct ynode *stack[STACK_MAX];
	int want_key[STACK_MAX];
	int depth = 0, done = 0, rc = -1, docs = 0;
	int max_depth = lim->max_depth < STACK_MAX ? lim->max_depth : STACK_MAX;

	memset(t, 0, sizeof(*t));
	t->filename = filename;

	if (refuse_text(t, text, len, filename, lim))
		return -1;
	if (!yaml_parser_initialize(&parser)) {
		snprintf(t->problem, sizeof(t->problem), "%s: out of memory", filename);
		return -1;
	}
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);

	while (!done) {
		yaml_event_t ev;
		if (!yaml_parser_parse(&parser, &ev)) {
			parse_problem(t, &parser, text, len, filename);
			break;
		}
		struct ynode *n = NULL;
		const yaml_mark_t *m = &ev.start_mark;
		int stop = 0;
		switch (ev.type) {
		case YAML_STREAM_END_EVENT:
			done = 1;
			break;
		case YAML_DOCUMENT_START_EVENT:
			if (++docs > 1) {
				t->refused = 1;
				snprintf(t->problem, sizeof(t->problem),
					 "%s:%zu:%zu: more than one YAML document ('---'): put everything in one",
					 filename, m->line + 1, m->column + 1);
				stop = 1;
			}
			break;
		case YAML_ALIAS_EVENT:
			t->refused = 1;
				snprintf(t->problem, sizeof(t->problem),
				 "%s:%zu:%zu: YAML aliases ('*%s') are not accepted: write the value out",
				 filename, m->line + 1, m->column + 1,
				 (const char *)ev.data.alias.anchor);
			stop = 1;
			break;
		case YAML_SCALAR_EVENT:
			/* a value is text: a NUL inside would cut it unseen, a tag such as
			 * !!binary would make it something else read as text */
			if (memchr(ev.data.scalar.value, '\0', ev.data.scalar.length) ||
			    (ev.data.scalar.tag && !core_tag((const char *)ev.data.scalar.tag))) {
				t->refused = 1;
				snprintf(t->problem, sizeof(t->problem), ev.data.scalar.tag && !core_tag((const char *)ev.data.scalar.tag)
					 ? "%s:%zu:%zu: the tag '%s%.60s' is not accepted: a value is a plain string, number, "
					   "boolean or null"
					 : "%s:%zu:%zu: a NUL character inside a string is not accepted%s%.0s",
					 filename, m->line + 1, m->column + 1, short_tag(ev.data.scalar.tag) ? "!!" : "",
					 ev.data.scalar.tag ? short_tag(ev.data.scalar.tag) ? short_tag(ev.data.scalar.tag)
					 : (const char *)ev.data.scalar.tag : "");
				stop = 1;
				break;
			}
			n = node_new(Y_SCALAR, m);
			if (n) {
				n->scalar = strndup((const char *)ev.data.scalar.value,
						    ev.data.scalar.length);
				n->quoted = ev.data.scalar.style != YAML_PLAIN_SCALAR_STYLE;
				n->complete = 1;
			}
			break;
		case YAML_SEQUENCE_START_EVENT:
			n = node_new(Y_SEQ, m);
			break;
		case YAML_MAPPING_START_EVENT:
			n = node_new(Y_MAP, m);
			break;
		case YAML_SEQUENCE_END_EVENT:
		case YAML_MAPPING_END_EVENT:
			if (depth > 0)
				stack[--depth]->complete = 1;
			break;
		default:
			break;
		}
		yaml_event_type_t type = ev.type;
		yaml_event_delete(&ev);
		if (stop)
			break;
		if (type == YAML_SCALAR_EVENT || type == YAML_SEQUENCE_START_EVENT ||
		    type == YAML_MAPPING_START_EVENT) {
			if (!n || (n->kind == Y_SCALAR && !n->scalar)) {
				node_free(n);
				snprintf(t->problem, sizeof(t->problem), "%s: out of memory", filename);
				break;
			}
			if (++t->nnodes > lim->max_nodes) {
				t->refused = 1;
				snprintf(t->problem, sizeof(t->problem),
					 "%s:%d:%d: more than %zu YAML nodes: file too large",
					 filename, n->line, n->col, lim->max_nodes);
				node_free(n); /* after its place is printed */
				break;
			}
			if (depth > 0) {
				struct ynode *p = stack[depth - 1];
				if (p->kind == Y_MAP && want_key[depth - 1] && n->kind != Y_SCALAR) {
					t->refused = 1;
				snprintf(t->problem, sizeof(t->problem),
						 "%s:%d:%d: a mapping key must be a plain word",
						 filename, n->line, n->col);
					node_free(n);
					break;
				}
				if (node_add(p, n, &want_key[depth - 1])) {
					node_free(n);
					snprintf(t->problem, sizeof(t->problem), "%s: out of memory", filename);
					break;
				}
			} else if (!t->root) {
				t->root = n;
			} else {
				node_free(n); /* unreachable: a second document stops above */
				continue;
			}
			if (n->kind != Y_SCALAR) {
				if (depth >= max_depth) {
					t->refused = 1;
				snprintf(t->problem, sizeof(t->problem),
						 "%s:%d:%d: nesting deeper than %d levels",
						 filename, n->line, n->col, max_depth);
					break;
				}
				want_key[depth] = 1;
				stack[depth++] = n;
			}
		}
	}
	if (t->root && !t->refused)
		check_duplicates(t, t->root);
	if (done && !t->problem[0])
		rc = 0;
	yaml_parser_delete(&parser);
	if (rc) {
		t->truncated = 1;
		if (!allow_partial)
			ytree_release(t);
	}
	return rc;
}

struct ynode *ynode_get(const struct ynode *map, const char *key)
{
	if (!map || map->kind != Y_MAP)
		return NULL;
	for (size_t i = 0; i < map->n; i++)
		if (map->keys[i] && !strcmp(map->keys[i]->scalar, key))
			return map->items[i];
	return NULL;
}

const char *ynode_where(const struct ytree *t, const struct ynode *n,
			char *buf, size_t len)
{
	snprintf(buf, len, "%s:%d:%d", t->filename ? t->filename : "<input>",
		 n ? n->line : 0, n ? n->col : 0);
	return buf;
}

static int want_scalar(const struct ytree *t, const struct ynode *n,
		       const char *what, const char *kind)
{
	char where[256];
	if (!n)
		return error("%s: %s is missing", t->filename, what);
	if (n->kind != Y_SCALAR)
		return error("%s: %s must be %s, not a %s", ynode_where(t, n, where, sizeof(where)),
			     what, kind, n->kind == Y_MAP ? "mapping" : "list");
	return 0;
}

/* "010", "-07": a YAML 1.1 octal, which nobody means in a spec */
static int leading_zero(const char *s)
{
	if (*s == '-' || *s == '+')
		s++;
	return s[0] == '0' && s[1] >= '0' && s[1] <= '9';
}

/* n a scalar written as a whole number YAML reads as decimal. */
static int want_whole(const struct ytree *t, const struct ynode *n, const char *what)
{
	char where[256];
	if (want_scalar(t, n, what, "a whole number"))
		return -1;
	if (leading_zero(n->scalar))
		return error("%s: %s must be a whole number written without leading zeros, not '%s' (YAML would "
			     "read it as octal)", ynode_where(t, n, where, sizeof(where)), what, n->scalar);
	return 0;
}

int ynode_int(const struct ytree *t, const struct ynode *n, const char *what,
	      long long *out)
{
	char where[256], *end;
	if (want_whole(t, n, what))
		return -1;
	errno = 0;
	long long v = strtoll(n->scalar, &end, 10);
	/* Accept "16k"/"4K" style multipliers: sequence lengths are written so.
	 * The range is checked before the multiplication. */
	if (end != n->scalar && (*end == 'k' || *end == 'K') && end[1] == '\0') {
		if (v > LLONG_MAX / 1024 || v < LLONG_MIN / 1024)
			errno = ERANGE;
		else
			v *= 1024;
		end++;
	}
	if (end == n->scalar || *end || errno == ERANGE)
		return error("%s: %s must be a whole number%s, not '%s'",
			     ynode_where(t, n, where, sizeof(where)), what,
			     errno == ERANGE ? " of at most 19 digits" : "", n->scalar);
	*out = v;
	return 0;
}

int ynode_u64(const struct ytree *t, const struct ynode *n, const char *what,
	      unsigned long long *out)
{
	char where[256], *end;
	if (want_whole(t, n, what))
		return -1;
	errno = 0;
	unsigned long long v = strtoull(n->scalar, &end, 10);
	if (end == n->scalar || *end || errno == ERANGE || n->scalar[0] == '-')
		return error("%s: %s must be a whole number from 0 to 2^64-1, not '%s'",
			     ynode_where(t, n, where, sizeof(where)), what, n->scalar);
	*out = v;
	return 0;
}

int ynode_double(const struct ytree *t, const struct ynode *n,
		 const char *what, double *out)
{
	char where[256], *end;
	if (want_scalar(t, n, what, "a number"))
		return -1;
	errno = 0;
	double v = strtod(n->scalar, &end);
	/* an underflow (5e-324, a subnormal we may have written) reads as what it is */
	if (errno == ERANGE && fabs(v) <= DBL_MIN)
		errno = 0;
	if (end == n->scalar || *end || errno == ERANGE) {
		/* YAML spellings of special values. */
		if (!strcasecmp(n->scalar, ".nan")) v = NAN;
		else if (!strcasecmp(n->scalar, ".inf")) v = INFINITY;
		else if (!strcasecmp(n->scalar, "-.inf")) v = -INFINITY;
		else
			return error("%s: %s must be a number, not '%s'",
				     ynode_where(t, n, where, sizeof(where)), what, n->scalar);
	}
	*out = v;
	return 0;
}

int ynode_bool(const struct ytree *t, const struct ynode *n, const char *what,
	       int *out)
{
	static const char *const yes[] = { "true", "yes", "on", "1" };
	static const char *const no[] = { "false", "no", "off", "0" };
	char where[256];
	if (want_scalar(t, n, what, "true or false"))
		return -1;
	for (size_t i = 0; i < 4; i++) {
		if (!strcasecmp(n->scalar, yes[i])) { *out = 1; return 0; }
		if (!strcasecmp(n->scalar, no[i])) { *out = 0; return 0; }
	}
	return error("%s: %s must be true or false, not '%s'",
		     ynode_where(t, n, where, sizeof(where)), what, n->scalar);
}

int ynode_string(const struct ytree *t, const struct ynode *n,
		 const char *what, const char **out)
{
	if (want_scalar(t, n, what, "a string"))
		return -1;
	*out = n->scalar;
	return 0;
}

int edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la > 64 || lb > 64)
		return 1000;
	int d[65][65];
	for (size_t i = 0; i <= la; i++) d[i][0] = (int)i;
	for (size_t j = 0; j <= lb; j++) d[0][j] = (int)j;
	for (size_t i = 1; i <= la; i++)
		for (size_t j = 1; j <= lb; j++) {
			int c = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
			if (d[i - 1][j] + 1 < c) c = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < c) c = d[i][j - 1] + 1;
			d[i][j] = c;
		}
	return d[la][lb];
}

const char *nearest_word(const char *word, const char *const *cands, size_t n)
{
	const char *best = NULL;
	int best_d = 1000;
	for (size_t i = 0; i < n; i++) {
		int d = edit_distance(word, cands[i]);
		if (d < best_d) {
			best_d = d;
			best = cands[i];
		}
	}
	/* Close enough: at most a third of the word wrong (and at least 1), or a prefix. */
	int allowed = (int)strlen(word) / 3;
	if (allowed < 2)
		allowed = 2;
	if (best && best_d <= allowed)
		return best;
	for (size_t i = 0; i < n; i++)
		if (strlen(word) >= 3 && !strncmp(cands[i], word, strlen(word)))
			return cands[i];
	return NULL;
}
