/* interp.c: placeholders and conditions in template text; see interp.h. */
#include "doc/interp.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doc/figkind.h"
#include "doc/globals.h"
#include "doc/inline.h"
#include "doc/template.h"
#include "doc/capreview.h"
#include "doc/claim.h"
#include "metric_sets.h"
#include "util/error.h"
#include "util/ustr.h"

void sbuf_init(struct sbuf *s)
{
	static char empty[1];
	s->buf = empty;
	s->len = s->cap = 0;
}

void sbuf_release(struct sbuf *s)
{
	if (s->cap)
		free(s->buf);
	sbuf_init(s);
}

int sbuf_add(struct sbuf *s, const char *p, size_t n)
{
	if (s->len + n + 1 > s->cap) {
		size_t cap = s->cap ? s->cap : 64;
		while (cap < s->len + n + 1)
			cap *= 2;
		char *b = s->cap ? realloc(s->buf, cap) : malloc(cap);
		if (!b)
			return error("out of memory");
		s->buf = b;
		s->cap = cap;
	}
	memcpy(s->buf + s->len, p, n);
	s->len += n;
	s->buf[s->len] = '\0';
	return 0;
}

int sbuf_addf(struct sbuf *s, const char *fmt, ...)
{
	char tmp[1024];
	va_list ap, again;
	va_start(ap, fmt);
	va_copy(again, ap);
	int n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n < sizeof(tmp)) {
		va_end(again);
		return n < 0 ? -1 : sbuf_add(s, tmp, (size_t)n);
	}
	/* longer than the stack buffer (a slide's speaker notes): format it again, whole */
	char *big = malloc((size_t)n + 1);
	if (!big) {
		va_end(again);
		return error("out of memory");
	}
	vsnprintf(big, (size_t)n + 1, fmt, again);
	va_end(again);
	int rc = sbuf_add(s, big, (size_t)n);
	free(big);
	return rc;
}

/* ---- positions ------------------------------------------------------------ */

static size_t offset_of(const char *src, size_t len, int line, int col)
{
	size_t off = 0;
	for (int l = 1; l < line && off < len; off++)
		if (src[off] == '\n')
			l++;
	off += (size_t)(col > 0 ? col - 1 : 0);
	return off < len ? off : len;
}

const char *interp_where(const struct interp *ip, const struct ynode *node, const char *text,
			 size_t off, char *buf, size_t len)
{
	int line = node ? node->line : 0, col = node ? node->col : 0;
	if (ip->src && node && text) {
		/* the token from off to its closing brace, found again in the source */
		size_t end = off;
		while (text[end] && text[end] != '}' && text[end] != '\n')
			end++;
		size_t tlen = end - off;
		int nth = 0;
		for (size_t i = 0; i + tlen <= off; i++)
			if (!strncmp(text + i, text + off, tlen))
				nth++;
		size_t from = offset_of(ip->src, ip->srclen, node->line, node->col);
		const char *p = ip->src + from, *hit = NULL;
		for (int k = 0; k <= nth && tlen; k++) {
			hit = memmem(p, ip->srclen - (size_t)(p - ip->src), text + off, tlen);
			if (!hit)
				break;
			p = hit + 1;
		}
		if (hit) {
			line = 1;
			const char *ls = ip->src;
			for (const char *q = ip->src; q < hit; q++)
				if (*q == '\n') {
					line++;
					ls = q + 1;
				}
			col = (int)(hit - ls) + 1;
		}
	}
	snprintf(buf, len, "%s:%d:%d", ip->file ? ip->file : "template", line, col);
	return buf;
}

/* ---- expressions ------------------------------------------------------------ */

struct value {
	int is_text;
	char text[4096];    /* capture answers run to a paragraph */
	double num;
	enum qunit unit;
	int missing;         /* the results lack it: why says so */
	char why[256];
	/* what made a number (doc/claim.h): its rule, quantity and records */
	int claimed;         /* 1: a measured number, a claim */
	enum claim_rule rule;
	char quantity[64], arg[96];
	const struct record *rec[CLAIM_RECORDS];
	int nrec;
	unsigned runs;       /* a cell's: the runs its table drew */
	int cross_run;       /* across_runs(...) */
};

struct parser {
	struct interp *ip;
	const struct ynode *node;
	const char *text;    /* the whole scalar */
	const char *p;       /* cursor */
	const char *end;
};

static int perr(struct parser *ps, const char *at, const char *fmt, ...) ATTNPROF_PRINTF(3, 4);
static int perr(struct parser *ps, const char *at, const char *fmt, ...)
{
	char where[300], msg[1200]; /* an unknown global's error lists every name */
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	interp_where(ps->ip, ps->node, ps->text, (size_t)(at - ps->text), where, sizeof(where));
	error("%s: %s", where, msg);
	return -2;
}

static void skip_ws(struct parser *ps)
{
	while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t'))
		ps->p++;
}

static size_t token(struct parser *ps, const char *extra, char *out, size_t len)
{
	size_t n = 0;
	while (ps->p < ps->end && (isalnum((unsigned char)*ps->p) || strchr(extra, *ps->p))) {
		if (n + 1 < len)
			out[n++] = *ps->p;
		ps->p++;
	}
	out[n] = '\0';
	return n;
}

static int parse_int_val(const char *s, int *out)
{
	char *e;
	double v = strtod(s, &e);
	if (e == s)
		return -1;
	if (*e == 'k' || *e == 'K') { v *= 1024; e++; }
	else if (*e == 'M') { v *= 1048576; e++; }
	if (*e || !(v >= 1 && v <= 1e9)) /* NaN fails too: (int)NaN is undefined */
		return -1;
	*out = (int)v;
	return 0;
}

static int parse_bool_val(const char *s, int *out)
{
	if (!strcmp(s, "true") || !strcmp(s, "yes") || !strcmp(s, "1") || !strcmp(s, "causal")) { *out = 1; return 0; }
	if (!strcmp(s, "false") || !strcmp(s, "no") || !strcmp(s, "0")) { *out = 0; return 0; }
	return -1;
}

static int set_text(struct value *v, const char *s, const char *ns, const char *name)
{
	if (s) {
		ustr_copy(v->text, sizeof(v->text), s); /* a cut at a character, marked "…" */
		return 0;
	}
	snprintf(v->text, sizeof(v->text), "n/a");
	v->missing = 1;
	snprintf(v->why, sizeof(v->why), "%s.%s is not in the results header", ns, name);
	return 0;
}

/* {gpu.name}, {run.date}, {focus.N}, {program.command}: a row of globals.c */
static int global_value(struct parser *ps, const char *ns, const char *name, const char *at, struct value *v)
{
	const struct global_row *g = global_find(ns, name);
	if (!g) {
		char names[1024], hint[160] = "";
		const char *near = global_nearest(ns, name);
		if (near)
			snprintf(hint, sizeof hint, ": did you mean '%s.%s'?", ns, near);
		return perr(ps, at, "unknown value '%s.%s'%s (docs/templates.md, \"Globals\": %s)", ns, name, hint,
			    global_names(names, sizeof names));
	}
	struct gcall c;
	int missing = global_eval(ps->ip->rd, g, &c);
	if (!missing && !c.is_text) {
		v->is_text = 0;
		v->num = c.num;
		v->unit = g->unit;
		return 0;
	}
	v->is_text = 1;
	return set_text(v, missing ? NULL : c.text, ns, name);
}

static const char *const text_quantities[] = { "name", "label", "summary", "grid_text", "warp_text", "stores", "absent" };

static int text_quantity(struct parser *ps, const char *key, const char *q, const char *at, struct value *v)
{
	const struct variant_desc *d = strchr(key, ':') ? NULL : variant_find(key);
	v->is_text = 1;
	if (!strcmp(q, "name")) { ustr_copy(v->text, sizeof(v->text), key); return 0; }
	if (!strcmp(q, "label")) { series_label(key, v->text, sizeof(v->text)); return 0; }
	if (!d)
		return perr(ps, at, "'%s' has no descriptor, so it has no %s", key, q);
	if (!strcmp(q, "summary")) ustr_copy(v->text, sizeof(v->text), d->summary);
	else if (!strcmp(q, "grid_text")) ustr_copy(v->text, sizeof(v->text), d->grid_text);
	else if (!strcmp(q, "warp_text")) ustr_copy(v->text, sizeof(v->text), d->warp_text);
	else {
		size_t u = 0;
		v->text[0] = '\0';
		int stores = !strcmp(q, "stores");
		if (stores) {
			for (size_t i = 0; i < d->nbuffers; i++) {
				int w = snprintf(v->text + u, sizeof(v->text) - u, "%s%s", u ? ", " : "", d->buffers[i].label);
				if (w > 0 && (size_t)w < sizeof(v->text) - u) u += (size_t)w;
			}
		} else {
			for (size_t i = 0; i < attn_matrix_count; i++)
				if (!variant_stores(d, attn_matrices[i].name)) {
					int w = snprintf(v->text + u, sizeof(v->text) - u, "%s%s", u ? ", " : "", attn_matrices[i].label);
					if (w > 0 && (size_t)w < sizeof(v->text) - u) u += (size_t)w;
				}
			if (!u)
				snprintf(v->text, sizeof(v->text), "nothing");
		}
	}
	return 0;
}

/* The number a table cell starts with ("×2.29", "127×", "0.6 % (3 runs)", "≈ 1.01×"); 0 when none. */
static int cell_number(const char *cell, double *x)
{
	const char *p = cell;
	if (!strncmp(p, "≈ ", strlen("≈ ")))
		p += strlen("≈ ");
	if (!strncmp(p, "×", strlen("×")))
		p += strlen("×");
	char *e;
	*x = strtod(p, &e);
	return e != p && isfinite(*x);
}

/* What a condition takes, for a bad value's message. */
static const char *cond_expects(const char *k)
{
	if (!strcmp(k, "causal")) return "true or false";
	if (!strcmp(k, "dtype")) return "fp16 or bf16";
	if (!strcmp(k, "phase")) return "prefill or decode";
	if (!strcmp(k, "pass")) return "fwd, bwd or fwd+bwd";
	if (!strcmp(k, "N") || !strcmp(k, "Nkv")) return "a whole number from 1 (k and M allowed: 4k), max or min";
	return "a whole number from 1 (k and M allowed: 4k)";
}

/* The names a condition can have; a grammar takes some of them. */
enum cond_name { C_N, C_NKV, C_NQ, C_D, C_B, C_H, C_HKV, C_CAUSAL, C_DTYPE, C_PHASE, C_PASS, C_LADDER, C_NAMES };
static const char *const cond_names[C_NAMES] = { "N", "Nkv", "Nq", "d", "B", "H", "Hkv", "causal", "dtype", "phase", "pass",
						 "ladder" };

/* A condition's bit, for "given twice" (N and Nkv are one condition; ladder
 * and the unknown names share one bit). */
static unsigned cond_bit(const char *k)
{
	for (unsigned c = 0; c < C_LADDER; c++)
		if (!strcmp(k, cond_names[c]))
			return 1u << (c == C_NKV ? C_N : c);
	return 1u << 31;
}

/* The conditions after '@' of a value ("flash2.tflops@N=4096, d=128") or
 * of a table ("table:speedup@N=2048,pass=bwd[...]"): which names each
 * takes, and how its errors read. */
struct cond_grammar {
	unsigned takes;       /* 1u << enum cond_name */
	const char *what;     /* "unknown WHAT 'x' (NAMES)" */
	const char *names;
	const char *example;  /* "expected a condition such as EXAMPLE after '@'" */
	int spaced;           /* blanks around names, '=' and values; a missing '=' said as such */
};

/* a value's: N=max and N=min where parse_conditions is given n_ext */
static const struct cond_grammar value_conds = {
	(1u << C_N) | (1u << C_NKV) | (1u << C_NQ) | (1u << C_D) | (1u << C_B) | (1u << C_H) | (1u << C_HKV) |
		(1u << C_CAUSAL) | (1u << C_DTYPE) | (1u << C_PHASE) | (1u << C_PASS),
	"condition", "N, Nq, d, B, H, Hkv, causal, dtype, phase, pass", "N=4096", 1
};
/* a table's, as its table: block gives them; ladder: the ablation ladder with that top rung */
static const struct cond_grammar table_conds = {
	(1u << C_N) | (1u << C_D) | (1u << C_B) | (1u << C_H) | (1u << C_CAUSAL) | (1u << C_PASS) | (1u << C_LADDER),
	"table condition", "N, d, B, H, causal, pass, ladder", "N=2048", 0
};

/* Condition k=val into sel (N=max/min into *n_ext where n_ext is given, a
 * ladder's top rung into ladder): 0, 1 a value it does not take, -1 a name
 * g does not take. */
static int set_condition(const struct cond_grammar *g, const char *k, const char *val, struct rsel *sel, int *n_ext,
			 char *ladder, size_t ladder_len)
{
	int c = 0;
	while (c < C_NAMES && strcmp(k, cond_names[c]))
		c++;
	if (c == C_NAMES || !(g->takes & (1u << c)))
		return -1;
	int iv = 0, bad = 0;
	enum dtype dv;
	enum phase hv;
	enum pass pv;
	switch (c) {
	case C_N:
	case C_NKV:
		if (n_ext && !strcmp(val, "max")) *n_ext = 1;
		else if (n_ext && !strcmp(val, "min")) *n_ext = -1;
		else bad = parse_int_val(val, &sel->n) != 0;
		break;
	case C_NQ: bad = parse_int_val(val, &sel->nq) != 0; break;
	case C_D: bad = parse_int_val(val, &sel->d) != 0; break;
	case C_B: bad = parse_int_val(val, &sel->batch) != 0; break;
	case C_H: bad = parse_int_val(val, &sel->heads) != 0; break;
	case C_HKV: bad = parse_int_val(val, &sel->kv_heads) != 0; break;
	case C_CAUSAL: bad = parse_bool_val(val, &iv) != 0; sel->causal = iv; break;
	/* the dtypes attnprof's kernels run, and a phase that is known */
	case C_DTYPE:
		if (dtype_parse(val, &dv) || !dtype_runs_here(dv)) bad = 1;
		else sel->dtype = dv;
		break;
	case C_PHASE:
		if (phase_parse(val, &hv) || hv == PHASE_UNKNOWN) bad = 1;
		else sel->phase = hv;
		break;
	case C_PASS:
		if (pass_parse(val, &pv)) bad = 1;
		else sel->pass = pv;
		break;
	case C_LADDER: { /* the ladder an ablation table draws: its top rung */
		const struct variant_desc *lv = variant_find(val);
		bad = !lv || !variant_ladder(lv, NULL, 0, NULL, 0, NULL);
		if (!bad) snprintf(ladder, ladder_len, "%s", val);
		break;
	}
	}
	return bad;
}

/* Conditions after '@' by grammar g ("@N=4096, d=128, causal=1"), each
 * once, into sel (see set_condition).  0, or the parse error. */
static int parse_conditions(struct parser *ps, const struct cond_grammar *g, struct rsel *sel, int *n_ext, char *ladder,
			    size_t ladder_len)
{
	unsigned seen = 0; /* conditions given: each once */
	if (g->spaced)
		skip_ws(ps);
	if (ps->p >= ps->end || *ps->p != '@')
		return 0;
	do {
		ps->p++;
		if (g->spaced)
			skip_ws(ps);
		const char *at_k = ps->p;
		char k[16], val[32];
		size_t nk = token(ps, "_", k, sizeof(k));
		if (g->spaced)
			skip_ws(ps);
		int eq = ps->p < ps->end && *ps->p == '=';
		if (!nk || (!eq && !g->spaced))
			return perr(ps, at_k, "expected a condition such as %s after '@'", g->example);
		if (!eq)
			return perr(ps, ps->p, "expected '=' after '%s'", k);
		ps->p++;
		if (g->spaced)
			skip_ws(ps);
		const char *at_v = ps->p;
		token(ps, "._+-", val, sizeof(val)); /* pass=fwd+bwd, -1 (to name it) */
		if (!val[0])
			return perr(ps, at_v, "expected a value after '%s='", k);
		unsigned bit = cond_bit(k);
		if (seen & bit)
			return perr(ps, at_k, "condition '%s' is given twice", k);
		seen |= bit;
		int bad = set_condition(g, k, val, sel, n_ext, ladder, ladder_len);
		if (bad < 0)
			return perr(ps, at_k, "unknown %s '%s' (%s)", g->what, k, g->names);
		if (bad)
			return perr(ps, at_v, "bad value '%s' for %s: %s", val, k, cond_expects(k));
		if (g->spaced)
			skip_ws(ps);
	} while (ps->p < ps->end && *ps->p == ',');
	return 0;
}

/*
 * A value read from a table the document draws, so that text quotes
 * exactly what the table shows: "table:KIND[COLUMN; HEAD=VALUE ...]" is
 * the cell under COLUMN in the first row whose HEAD cells hold those
 * values (table:KIND@N=2048,pass=bwd[...]: the table a block with those
 * keys draws); "max(table:KIND[COLUMN; ...])" and "min(...)" the largest and
 * smallest such cell.  The value is the cell's text (its number for `when:`).
 */
#define TABLE_FILTERS 4
static int table_value(struct parser *ps, struct value *v, int agg, const char *start)
{
	ps->p += 6; /* "table:" */
	char kind[32];
	const char *at_k = ps->p;
	if (!token(ps, "_-", kind, sizeof(kind)))
		return perr(ps, at_k, "expected a table kind after 'table:' (e.g. table:speedup[flash2 vs flash1])");
	int tk = table_find(kind);
	if (tk < 0)
		return perr(ps, at_k, "unknown table '%s' (docs/templates.md lists the table kinds)", kind);
	struct figopts o;
	figopts_init(&o);
	/* the table's conditions, as the template's table block gives them: @N=2048,B=8 */
	int crc = parse_conditions(ps, &table_conds, &o.sel, NULL, o.variant, sizeof(o.variant));
	if (crc)
		return crc;
	if (ps->p >= ps->end || *ps->p != '[')
		return perr(ps, ps->p, "expected '[' after 'table:%s': [COLUMN] or [COLUMN; HEAD=VALUE]", kind);
	const char *open = ++ps->p, *close = memchr(open, ']', (size_t)(ps->end - open));
	if (!close)
		return perr(ps, open, "expected ']' to close 'table:%s['", kind);
	/* COLUMN; HEAD=VALUE; ... */
	char part[TABLE_FILTERS + 1][96];
	const char *at[TABLE_FILTERS + 1];
	int np = 0;
	for (const char *q = open; q <= close && np <= TABLE_FILTERS;) {
		const char *e = memchr(q, ';', (size_t)(close - q));
		if (!e)
			e = close;
		while (q < e && *q == ' ') q++;
		const char *t = e;
		while (t > q && t[-1] == ' ') t--;
		at[np] = q;
		snprintf(part[np++], sizeof(part[0]), "%.*s", (int)(t - q), q);
		q = e + 1;
	}
	ps->p = close + 1;
	if (agg) {
		skip_ws(ps);
		if (ps->p >= ps->end || *ps->p != ')')
			return perr(ps, ps->p, "expected ')' to close %s(", agg > 0 ? "max" : "min");
		ps->p++;
	}
	struct rtrace *tr = ps->ip->rd->trace;
	unsigned was = tr ? tr->runs : 0;
	if (tr)
		tr->runs = 0;
	struct dtable *t = table_build(ps->ip->rd, tk, &o);
	if (tr) { /* the runs the table drew: the cell's claim's */
		v->runs = tr->runs;
		tr->runs |= was;
	}
	if (!t)
		return -1;
	int col[TABLE_FILTERS + 1];
	const char *want[TABLE_FILTERS + 1] = { NULL };
	for (int k = 0; k < np; k++) {
		char head[96];
		memcpy(head, part[k], sizeof(head));
		char *eq = k ? strchr(head, '=') : NULL;
		if (k && !eq) {
			table_free(t);
			return perr(ps, at[k], "expected HEAD=VALUE after ';' (e.g. variant=flash2), found '%s'", part[k]);
		}
		if (eq) {
			*eq = '\0';
			want[k] = part[k] + (eq - head) + 1;
			for (char *z = eq; z > head && z[-1] == ' '; z--)
				z[-1] = '\0';
			while (*want[k] == ' ')
				want[k]++;
		}
		col[k] = -1;
		for (int j = 0; j < t->ncols; j++)
			if (!strcmp(t->head[j], head))
				col[k] = j;
		if (col[k] < 0) {
			/* a table's columns follow the data (speedup has 'flash2 vs standard'
			 * only where standard was measured): a value these results lack,
			 * warned about with its place like any other */
			char heads[400] = "";
			for (int j = 0; j < t->ncols; j++)
				snprintf(heads + strlen(heads), sizeof(heads) - strlen(heads), "%s'%s'", j ? ", " : "", t->head[j]);
			table_free(t);
			(void)start;
			v->is_text = 2;
			v->unit = U_NUM;
			v->missing = 1;
			snprintf(v->text, sizeof(v->text), "n/a");
			snprintf(v->why, sizeof(v->why), "table %.40s has no column '%.60s' in these results (it has %.100s)", kind,
				 head, heads);
			return 0;
		}
	}
	(void)start;
	v->is_text = 2; /* a cell: printed as it stands, compared by its number */
	v->unit = U_NUM;
	int found = 0;
	for (int i = 0; i < t->nrows; i++) {
		int match = 1;
		for (int k = 1; k < np && match; k++)
			match = !strcmp(t->cell[i][col[k]], want[k]);
		double x;
		if (!match || !cell_number(t->cell[i][col[0]], &x))
			continue;
		if (!found || (agg > 0 && x > v->num) || (agg < 0 && x < v->num)) {
			v->num = x;
			ustr_copy(v->text, sizeof(v->text), t->cell[i][col[0]]);
			/* the row's records, where the table names them: the claim's, held to one run */
			v->nrec = 0;
			for (int k = 0; k < 2; k++)
				if (t->rec[i][k])
					v->rec[v->nrec++] = t->rec[i][k];
		}
		found = 1;
		if (!agg)
			break;
	}
	table_free(t);
	v->claimed = 1;
	if (v->nrec)
		v->runs = 0; /* its own records' runs, not the whole table's */
	v->rule = agg > 0 ? CLAIM_CELL_MAX : agg < 0 ? CLAIM_CELL_MIN : CLAIM_CELL;
	snprintf(v->quantity, sizeof(v->quantity), "table:%.20s[%.34s]", kind, part[0]);
	if (!found) {
		v->missing = 1;
		snprintf(v->why, sizeof(v->why), "table %s has no number in column '%s'%s", kind, part[0],
			 np > 1 ? " in the rows asked for" : "");
	}
	return 0;
}

/* Parse and evaluate one placeholder between p and end. */
/*
 * "{a.speedup_vs.b|faster}": the comparison in words, called faster or
 * slower only when the medians differ by more than both records' spread
 * (record_times_differ, the rule of 'attnprof diff'): "2.91× faster than",
 * "1.18× slower than", "equal within the launches' spread (×1.01) to", and
 * without a recorded spread "at ×1.01 the speed of".
 */
static int faster_text(struct parser *ps, const char *at_f, struct value *v, const struct record *drawn, const char *q,
		       const char *arg, char *fmtspec)
{
	if (strcmp(q, "speedup_vs"))
		return perr(ps, at_f, "'|faster' words a speed-up: it formats SERIES.speedup_vs.OTHER only");
	fmtspec[0] = '\0';
	if (v->missing)
		return 0;
	if (!drawn)
		return perr(ps, at_f, "'|faster' compares two records, not an extreme over many: leave out max()/min()");
	char why[200], r[48];
	const struct record *o = rdata_other(ps->ip->rd, drawn, arg, why, sizeof(why));
	int d = o ? record_times_differ(o, drawn) : 2;
	v->is_text = 1;
	if (d < 0)
		snprintf(v->text, sizeof(v->text), "%s faster than", (fmt_quantity(v->num, U_RATIO, NULL, r, sizeof(r)), r));
	else if (d == 1) /* 2: a record without a spread */
		snprintf(v->text, sizeof(v->text), "%s slower than", (fmt_quantity(1 / v->num, U_RATIO, NULL, r, sizeof(r)), r));
	else if (d == 0)
		snprintf(v->text, sizeof(v->text), "equal within the launches' spread (%s) to",
			 (fmt_quantity(v->num, U_RATIO, NULL, r, sizeof(r)), r));
	else
		snprintf(v->text, sizeof(v->text), "at %s the speed of", (fmt_quantity(v->num, U_RATIO, NULL, r, sizeof(r)), r));
	return 0;
}

/*
 * "$fastest", "$fastest_bwd", "$stores": the captured implementation that
 * plays the role (capture_role), so a title can name the one the data
 * pick.  Where none does, a series without records: its values read n/a
 * and comparisons of them are false, as for anything not measured.
 */
static int role_key(struct parser *ps, const char *name, const char *at, char *key, size_t len)
{
	int rc = capture_role(ps->ip->rd, name + 1, key, len);
	if (rc < 0)
		return perr(ps, at, "unknown name '%s' ($v inside each_variant; the captured implementations' roles "
			    "$fastest, $fastest_bwd, $stores)", name);
	if (rc > 0)
		snprintf(key, len, "capture:none");
	return 0;
}

/* What a value's conditions leave open: a caption's figure's conditions
 * first, then the document's focus (not inside max/min); prefill values
 * are of the document's sweep unless B or H says otherwise; N=max/min
 * becomes the N it names. */
static void fill_conditions(struct parser *ps, const char *key, int agg, int n_ext, struct rsel *sel)
{
	const struct rdata *rd = ps->ip->rd;
	const struct variant_desc *vd = strchr(key, ':') ? NULL : variant_find(key);
	int decode_only = vd && !(vd->phases & (1u << PHASE_PREFILL));
	const struct rsel *bs = ps->ip->block_sel;
	if (!agg && bs) { /* a caption: its figure's conditions first */
		if (sel->n < 0 && !n_ext) sel->n = bs->n;
		if (sel->d < 0) sel->d = bs->d;
		if (sel->causal < 0) sel->causal = bs->causal;
		if (sel->batch < 0) sel->batch = bs->batch;
		if (sel->heads < 0) sel->heads = bs->heads;
		if (sel->pass == RSEL_PASS_UNSET) sel->pass = bs->pass;
	}
	if (!agg) {
		if (sel->phase == RSEL_PHASE_ANY) sel->phase = decode_only ? PHASE_DECODE : PHASE_PREFILL;
		if (sel->d < 0) sel->d = decode_only ? -1 : rd->focus.d;
		if (sel->causal < 0) sel->causal = decode_only ? -1 : rd->focus.causal;
		if (sel->n < 0 && !n_ext) sel->n = decode_only ? -1 : rd->focus.n;
	}
	/* prefill values are of the document's sweep unless B or H says otherwise */
	if (!decode_only && (sel->phase == RSEL_PHASE_ANY || sel->phase == PHASE_PREFILL))
		rsel_family(sel, rd);
	if (n_ext) {
		int vals[64];
		size_t nv = rdata_values(rd, key, sel, RF_N, vals, 64);
		if (nv)
			sel->n = n_ext > 0 ? vals[nv - 1] : vals[0];
	}
}

/* The value of quantity q (its row qi, its argument arg) for series key
 * at the conditions sel: the record of the one identity they name, or the
 * largest (agg 1) or smallest (-1) over the records that match; missing,
 * with why, where none has it.  0, or the error. */
static int lookup_value(struct parser *ps, const char *key, const char *q, const struct qinfo *qi, const char *arg,
			int agg, const struct rsel *sel, const char *at_q, struct value *v, const struct record **drawn)
{
	const struct rdata *rd = ps->ip->rd;
	v->unit = qi->unit;
	int found = 0;
	char why[256] = "no record";
	if (!agg) {
		/* one value: the record of the one identity the conditions name */
		const struct record *r = rdata_find(rd, key, sel);
		double x;
		enum qunit u;
		int rc = r ? rdata_quantity(rd, r, q, qi->arg ? arg : NULL, &x, &u, why, sizeof(why)) : 1;
		if (rc < 0)
			return perr(ps, at_q, "%s", why);
		if (!r && rdata_find_any(rd, key, sel))
			snprintf(why, sizeof(why), "several records match: state B and H (or B·N and H·d)");
		if (!rc) {
			v->unit = u;
			v->num = x;
			found = 1;
			*drawn = r;
			v->rule = CLAIM_VALUE;
			v->rec[v->nrec++] = r;
			if (qi->arg == 1) { /* a _vs quantity: the other record is the claim's too */
				char w2[200];
				const struct record *o = rdata_other(rd, r, arg, w2, sizeof(w2));
				v->rule = CLAIM_RATIO;
				if (o)
					v->rec[v->nrec++] = o;
			}
		}
	}
	const struct record *best = NULL;
	for (size_t i = 0; agg && i < rd->res->nrecords; i++) {
		const struct record *r = &rd->res->records[i];
		char k[SERIES_KEY];
		if (!rsel_match(sel, r) || strcmp(record_series(r, k, sizeof(k)), key))
			continue;
		double x;
		enum qunit u;
		int rc = rdata_quantity(rd, r, q, qi->arg ? arg : NULL, &x, &u, why, sizeof(why));
		if (rc < 0)
			return perr(ps, at_q, "%s", why);
		if (rc)
			continue;
		v->unit = u;
		if (!found || (agg > 0 && x > v->num) || (agg < 0 && x < v->num)) {
			v->num = x;
			best = r;
		}
		found = 1;
	}
	if (best) {
		rdata_trace_record(rd, agg > 0 ? "max" : "min", key, sel, best);
		v->rule = agg > 0 ? CLAIM_MAX : CLAIM_MIN;
		v->rec[v->nrec++] = best;
		if (qi->arg == 1) { /* the largest ratio: its other record is the claim's too (its run) */
			char w2[200];
			const struct record *o = rdata_other(rd, best, arg, w2, sizeof(w2));
			if (o)
				v->rec[v->nrec++] = o;
		}
	}
	v->claimed = found;
	snprintf(v->quantity, sizeof(v->quantity), "%s", q);
	snprintf(v->arg, sizeof(v->arg), "%s", qi->arg == 1 ? arg : "");
	if (!found) {
		char d[128];
		v->missing = 1;
		snprintf(v->why, sizeof(v->why), "%s at %s: %s", key, rsel_describe(sel, d, sizeof(d)), why);
	}
	return 0;
}

/* A quantity's argument after its name ("hbm.flash2", "metric.NAME"): a
 * variant (resolved, $v and roles too) or a name, into arg.  0, or the
 * parse error. */
static int quantity_arg(struct parser *ps, const struct qinfo *qi, const char *series, const char *q, char *arg,
			size_t arglen)
{
	if (qi->arg) {
		if (ps->p >= ps->end || *ps->p != '.')
			return perr(ps, ps->p, "'%s' needs an argument: %s.%s.<%s>", q, series, q,
				    qi->arg == 1 ? "variant" : "name");
		ps->p++;
		const char *at_arg = ps->p;
		if (!token(ps, qi->arg == 1 ? "_+-:$" : "_.", arg, arglen))
			return perr(ps, at_arg, "expected a %s after '%s.'", qi->arg == 1 ? "variant" : "name", q);
		if ((size_t)(ps->p - at_arg) >= arglen)
			return perr(ps, at_arg, "'%s.' takes a %s of at most %zu characters", q,
				    qi->arg == 1 ? "variant" : "name", arglen - 1);
		if (qi->arg == 1) {
			char k2[SERIES_KEY];
			if (!strcmp(arg, "$v")) {
				if (!ps->ip->var_v)
					return perr(ps, at_arg, "'$v' is only defined inside a section with each_variant");
				snprintf(arg, arglen, "%s", ps->ip->var_v);
			} else if (arg[0] == '$') {
				int rc = role_key(ps, arg, at_arg, k2, sizeof(k2));
				if (rc)
					return rc;
				snprintf(arg, arglen, "%s", k2);
			} else if (rdata_resolve(ps->ip->rd, arg, k2, sizeof(k2))) {
				return perr(ps, at_arg, "unknown variant '%s'", arg);
			}
		}
	}
	return 0;
}

/* {IMPL.capture.NAME}: a captured implementation's value (capreview.h),
 * "n/a" with why where its records lack it.  0, or the parse error. */
static int capture_q(struct parser *ps, const char *key, const char *series, struct value *v)
{
	char arg[160];
	if (ps->p >= ps->end || *ps->p != '.')
		return perr(ps, ps->p, "'capture' needs a name: %s.capture.<name>", series);
	ps->p++;
	const char *at_arg = ps->p;
	if (!token(ps, "_", arg, sizeof(arg)))
		return perr(ps, at_arg, "expected a name after 'capture.'");
	int is_text = 1;
	int rc = capture_value(ps->ip->rd, key, arg, &is_text, &v->num, &v->unit, v->text, sizeof(v->text));
	if (rc < 0)
		return perr(ps, at_arg, "%s", v->text);
	v->is_text = is_text;
	if (rc > 0) {
		v->missing = 1;
		v->is_text = 1;
		snprintf(v->why, sizeof(v->why), "%.200s", v->text);
		snprintf(v->text, sizeof(v->text), "n/a");
	}
	return 0;
}

static int eval(struct parser *ps, struct value *v, char *fmtspec, size_t fmtlen)
{
	memset(v, 0, sizeof(*v));
	fmtspec[0] = '\0';
	skip_ws(ps);
	const char *start = ps->p;
	int agg = 0; /* 1 max, -1 min */
	const struct record *drawn = NULL; /* the one record a value is of (for |faster) */
	int cross = 0; /* across_runs(...): the template names a cross-run comparison */
	if (ps->end - ps->p > 12 && !strncmp(ps->p, "across_runs(", 12)) {
		cross = 1;
		ps->p += 12;
		skip_ws(ps);
		start = ps->p;
	}
	if (ps->end - ps->p > 4 && (!strncmp(ps->p, "max(", 4) || !strncmp(ps->p, "min(", 4))) {
		agg = ps->p[1] == 'a' ? 1 : -1;
		ps->p += 4;
		skip_ws(ps);
		if (ps->end - ps->p >= 4 && (!strncmp(ps->p, "max(", 4) || !strncmp(ps->p, "min(", 4)))
			return perr(ps, ps->p, "max() and min() do not nest: write %s(flash2.tflops)", agg > 0 ? "max" : "min");
	}
	if (ps->end - ps->p >= 6 && !strncmp(ps->p, "table:", 6)) {
		int rc = table_value(ps, v, agg, start);
		if (rc)
			return rc;
		goto format;
	}
	char series[SERIES_KEY], q[64], arg[160] = "";
	const char *at_series = ps->p;
	if (!token(ps, "_+-:$", series, sizeof(series)))
		return perr(ps, start, "expected a value such as flash2.tflops or gpu.name, found '%.*s'",
			    (int)(ps->end - start), start);
	if ((size_t)(ps->p - at_series) >= sizeof(series)) /* cut, it could name another series */
		return perr(ps, at_series, "a series name is at most %zu characters", sizeof(series) - 1);
	if (ps->p < ps->end && *ps->p == '(')
		return perr(ps, at_series, "unknown function '%s(': only max() and min() take a value", series);
	const char *at_q = ps->p;
	if (ps->p < ps->end && *ps->p == '.') {
		ps->p++;
		at_q = ps->p;
		if (!token(ps, "_", q, sizeof(q)))
			return perr(ps, at_q, "expected a quantity after '%s.'", series);
	} else if (global_namespace(series)) {
		return perr(ps, ps->p, "expected '.' and a name after '%s' (e.g. gpu.name)", series);
	} else {
		snprintf(q, sizeof(q), "name"); /* {$v} alone: the variant's name */
	}
	if (global_namespace(series)) {
		if (agg)
			return perr(ps, start, "max()/min() apply to measured quantities, not %s.%s", series, q);
		int rc = global_value(ps, series, q, at_q, v);
		if (rc)
			return rc;
		goto format;
	}
	char key[SERIES_KEY];
	if (!strcmp(series, "$v")) {
		if (!ps->ip->var_v)
			return perr(ps, at_series, "'$v' is only defined inside a section with each_variant");
		snprintf(key, sizeof(key), "%s", ps->ip->var_v);
	} else if (series[0] == '$') {
		int rc = role_key(ps, series, at_series, key, sizeof(key));
		if (rc)
			return rc;
	} else if (rdata_resolve(ps->ip->rd, series, key, sizeof(key))) {
		const char *names[64];
		size_t n = 0;
		for (size_t i = 0; i < variant_count && n < 60; i++)
			names[n++] = variant_table[i]->name;
		names[n++] = "sdpa";
		const char *near = nearest_word(series, names, n);
		return perr(ps, at_series, "unknown variant '%s'%s%s%s", series, near ? ": did you mean '" : "",
			    near ? near : " (not in kernels/variants.c, not in the results)", near ? "'?" : "");
	}
	if (!strcmp(q, "capture")) { /* {IMPL.capture.NAME}: capreview.h */
		if (agg)
			return perr(ps, start, "max()/min() do not apply to capture values");
		int rc = capture_q(ps, key, series, v);
		if (rc)
			return rc;
		goto format;
	}
	const struct qinfo *qi = quantity_find(q);
	for (size_t i = 0; !qi && i < sizeof(text_quantities) / sizeof(*text_quantities); i++)
		if (!strcmp(q, text_quantities[i])) {
			if (agg)
				return perr(ps, start, "max()/min() need a number, and %s is text", q);
			int rc = text_quantity(ps, key, q, at_q, v);
			if (rc)
				return rc;
			goto format;
		}
	if (!qi) {
		const size_t ntext = sizeof(text_quantities) / sizeof(*text_quantities);
		const char **names = calloc(quantity_count + ntext, sizeof *names);
		size_t n = 0;
		for (size_t i = 0; names && i < quantity_count; i++)
			names[n++] = quantity_table[i].name;
		for (size_t i = 0; names && i < ntext; i++)
			names[n++] = text_quantities[i];
		const char *near = names ? nearest_word(q, names, n) : NULL;
		free(names);
		return perr(ps, at_q, "unknown quantity '%s'%s%s%s", q, near ? ": did you mean '" : "",
			    near ? near : " (docs/templates.md lists them)", near ? "'?" : "");
	}
	int arc = quantity_arg(ps, qi, series, q, arg, sizeof arg);
	if (arc)
		return arc;
	/* conditions */
	struct rsel sel;
	rsel_any(&sel);
	int n_ext = 0; /* N=max (1) / N=min (-1) */
	int crc = parse_conditions(ps, &value_conds, &sel, &n_ext, NULL, 0);
	if (crc)
		return crc;
	if (agg) {
		skip_ws(ps);
		if (ps->p >= ps->end || *ps->p != ')')
			return perr(ps, ps->p, "expected ')' to close %s(", agg > 0 ? "max" : "min");
		ps->p++;
	}
	fill_conditions(ps, key, agg, n_ext, &sel);
	int lrc = lookup_value(ps, key, q, qi, arg, agg, &sel, at_q, v, &drawn);
	if (lrc)
		return lrc;
format:
	skip_ws(ps);
	if (cross) {
		if (ps->p >= ps->end || *ps->p != ')')
			return perr(ps, ps->p, "expected ')' to close across_runs(");
		ps->p++;
		skip_ws(ps);
		v->cross_run = 1;
	}
	if (ps->p < ps->end && *ps->p == '|') {
		ps->p++;
		const char *at_f = ps->p;
		size_t n = (size_t)(ps->end - ps->p);
		while (n && (ps->p[n - 1] == ' '))
			n--;
		if (n >= fmtlen)
			return perr(ps, at_f, "format too long");
		memcpy(fmtspec, ps->p, n);
		fmtspec[n] = '\0';
		ps->p = ps->end;
		char tmp[64];
		if (!strcmp(fmtspec, "faster"))
			return faster_text(ps, at_f, v, drawn, q, arg, fmtspec);
		if (v->is_text == 1 && !v->missing)
			return perr(ps, at_f - 1, "'|%s' formats a number, and this value is text: leave the format out", fmtspec);
		if (v->is_text != 1 && fmt_quantity(1.0, v->unit, fmtspec, tmp, sizeof(tmp)))
			return perr(ps, at_f, "unknown format '%s' (bytes, count, x, pct, num, int, seqlen or one printf "
				    "conversion such as %%.2f: width up to 40, precision up to 12)", fmtspec);
	}
	skip_ws(ps);
	if (ps->p < ps->end)
		return perr(ps, ps->p, "unexpected '%.*s' in the placeholder", (int)(ps->end - ps->p), ps->p);
	return 0;
}

/* Text as it is, less the bytes the model gives a meaning (the inline
 * marks, inline.h, and the {ref:} marks): a value from a results file
 * cannot open a style or cite a figure. */
static int add_text(struct sbuf *out, const char *s, size_t n)
{
	size_t from = 0;
	for (size_t i = 0; i <= n; i++)
		if (i == n || inline_is_mark(s[i]) || s[i] == INTERP_REF_OPEN || s[i] == INTERP_REF_CLOSE) {
			if (i > from && sbuf_add(out, s + from, i - from))
				return -1;
			from = i + 1;
		}
	return 0;
}

/* Style s opened or closed (*on flips) in the model's inline marks. */
static void add_mark(struct sbuf *out, enum inline_style s, int *on)
{
	char m = inline_mark(s, !*on);
	sbuf_add(out, &m, 1);
	*on = !*on;
}

/* ID, ID,ID or ID..ID, each ID of letters, digits, '-' and '_' (docmodel.c resolves them). */
static int ref_spec_ok(const char *id, size_t n)
{
	static const char idch[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_";
	size_t a = strspn(id, idch);
	if (!a || a > (DOC_ID_MAX - 1))
		return 0;
	if (a == n)
		return 1;
	size_t sep = id[a] == ',' ? 1 : (n - a > 2 && id[a] == '.' && id[a + 1] == '.') ? 2 : 0;
	if (!sep)
		return 0;
	size_t b = strspn(id + a + sep, idch);
	return b && b <= (DOC_ID_MAX - 1) && a + sep + b == n;
}

/*
 * The claim of a number printed (doc/claim.h) at byte off of text (the
 * placeholder's n bytes): refused, a template error naming the place and
 * the two files, when its records come from two runs and the template does
 * not name it across_runs(…); then the printed text (buf) says so.  Kept
 * in ip->claims where the model asks for them.  0, -2 refused, -1 memory.
 */
/* a file name's length without ".yaml" */
static int base_len(const char *f)
{
	size_t n = strlen(f);
	return (int)(n > 5 && !strcmp(f + n - 5, ".yaml") ? n - 5 : n);
}

static int keep_claim(struct interp *ip, const struct ynode *node, const char *text, size_t off, size_t n,
		      const struct value *v, char *buf, size_t len)
{
	struct claim c;
	memset(&c, 0, sizeof(c));
	c.rule = v->rule;
	c.value = v->num;
	c.nrec = v->nrec;
	for (int i = 0; i < v->nrec; i++)
		c.rec[i] = v->rec[i];
	c.runs = v->runs;
	c.cross_run = v->cross_run;
	c.block = ip->block;
	snprintf(c.quantity, sizeof(c.quantity), "%s", v->quantity);
	snprintf(c.arg, sizeof(c.arg), "%s", v->arg);
	snprintf(c.expr, sizeof(c.expr), "%.*s", (int)(n < 190 ? n : 190), text + off);
	interp_where(ip, node, text, off, c.place, sizeof(c.place));
	int a, b;
	/* a cell's runs are its whole table's: only the records a value names are held to one run */
	if (c.nrec && claim_two_runs(claim_runs(ip->rd, &c) & ~c.runs, &a, &b)) {
		const char *fa = ip->rd->run_names ? ip->rd->run_names[a] : "?";
		const char *fb = ip->rd->run_names ? ip->rd->run_names[b] : "?";
		if (!c.cross_run) {
			error("%s: {%s} compares records of two runs, %s and %s: quote one run's (a table:ablation cell) "
			      "or name it a cross-run comparison with across_runs(…)", c.place, c.expr, fa, fb);
			return -2;
		}
		/* the sentence says so: after the number, or inside the words of
		 * |faster before their last one ("1.2× faster (across runs: …) than") */
		char note[200], tail[64] = "";
		snprintf(note, sizeof(note), " (across runs: %.*s, %.*s)", base_len(fa), fa, base_len(fb), fb);
		char *sp = v->is_text == 1 ? strrchr(buf, ' ') : NULL;
		if (sp) {
			snprintf(tail, sizeof(tail), "%s", sp);
			*sp = '\0';
		}
		size_t l = strlen(buf);
		snprintf(buf + l, len - l, "%s%s", note, tail);
	}
	snprintf(c.printed, sizeof(c.printed), "%s", buf);
	return ip->claims ? claim_list_add(ip->claims, &c) : 0;
}

int interp_expand(struct interp *ip, const struct ynode *node, const char *text, struct sbuf *out)
{
	struct parser ps = { ip, node, text, text, text };
	int bold = 0, ital = 0, code = 0;
	for (const char *p = text; *p;) {
		if (p[0] == '{' && p[1] == '{') { sbuf_add(out, "{", 1); p += 2; continue; }
		if (p[0] == '}' && p[1] == '}') { sbuf_add(out, "}", 1); p += 2; continue; }
		if (*p == '}')
			return perr(&ps, p, "'}' without '{' (write '}}' for a brace)");
		if (ip->styles && p[0] == '*' && p[1] == '*') {
			add_mark(out, INLINE_BOLD, &bold);
			p += 2;
			continue;
		}
		if (ip->styles && *p == '`') {
			add_mark(out, INLINE_CODE, &code);
			p++;
			continue;
		}
		/* _italic_ only at word edges, so snake_case names stay as they are */
		if (ip->styles && *p == '_' && !code &&
		    ((!ital && (p == text || !isalnum((unsigned char)p[-1])) && isalnum((unsigned char)p[1])) ||
		     (ital && p > text && isalnum((unsigned char)p[-1]) && !isalnum((unsigned char)p[1])))) {
			add_mark(out, INLINE_ITALIC, &ital);
			p++;
			continue;
		}
		if (*p != '{') {
			const char *q = p + 1;
			while (*q && *q != '{' && *q != '}' && *q != '*' && *q != '`' && *q != '_')
				q++;
			add_text(out, p, (size_t)(q - p));
			p = q;
			continue;
		}
		const char *close = strchr(p + 1, '}');
		const char *nl = strchr(p + 1, '\n');
		if (!close || (nl && nl < close))
			return perr(&ps, p, "'{' is not closed by '}' on the same line (write '{{' for a brace)");
		ps.p = p + 1;
		ps.end = close;
		if (close - p > 5 && !strncmp(p + 1, "ref:", 4)) {
			const char *id = p + 5;
			size_t n = (size_t)(close - id);
			if (!n || !ref_spec_ok(id, n))
				return perr(&ps, id, "{ref:ID} names a figure or table by its id: letters, digits, '-' and '_' "
					    "({ref:A,B} two of them, {ref:A..B} a run)");
			char mark[2] = { INTERP_REF_OPEN, INTERP_REF_CLOSE };
			sbuf_add(out, mark, 1);
			sbuf_add(out, id, n);
			sbuf_add(out, mark + 1, 1);
			p = close + 1;
			continue;
		}
		struct value v;
		char spec[32];
		int rc = eval(&ps, &v, spec, sizeof(spec));
		if (rc)
			return rc;
		char buf[4096];
		if (v.missing) {
			snprintf(buf, sizeof(buf), "n/a");
			ip->missing++;
			if (!ip->quiet) {
				char where[300];
				warning("%s: {%.*s}: %s: wrote 'n/a'", interp_where(ip, node, text, (size_t)(p + 1 - text), where,
										   sizeof(where)), (int)(close - p - 1), p + 1, v.why);
			}
		} else if (v.is_text == 1 || (v.is_text && !spec[0])) {
			ustr_copy(buf, sizeof(buf), v.text);
		} else {
			fmt_quantity(v.num, v.unit, spec[0] ? spec : NULL, buf, sizeof(buf));
		}
		if (v.claimed && !v.missing) {
			int crc = keep_claim(ip, node, text, (size_t)(p + 1 - text), (size_t)(close - p - 1), &v, buf,
					     sizeof(buf));
			if (crc)
				return crc;
		}
		add_text(out, buf, strlen(buf));
		p = close + 1;
	}
	/* a style left open ends with the text */
	if (code) add_mark(out, INLINE_CODE, &code);
	if (ital) add_mark(out, INLINE_ITALIC, &ital);
	if (bold) add_mark(out, INLINE_BOLD, &bold);
	return 0;
}

static int when_atom(struct parser *pp, int *truth);

static int when_one(struct interp *ip, const struct ynode *node, const char *cond, int *truth);

/* 'A and B and …': each a condition of its own (no 'or', no brackets: the
 * alternative wording sits beside it with its own condition) */
int interp_when(struct interp *ip, const struct ynode *node, const char *cond, int *truth)
{
	if (!strstr(cond, " and "))
		return when_one(ip, node, cond, truth);
	char *copy = strdup(cond);
	if (!copy)
		return error("out of memory");
	int rc = 0;
	*truth = 1;
	for (char *p = copy; p && !rc;) {
		char *and = strstr(p, " and ");
		if (and)
			*and = '\0';
		int t = 0;
		rc = when_one(ip, node, p, &t);
		*truth = *truth && t;
		p = and ? and + 5 : NULL;
	}
	free(copy);
	return rc;
}

static int when_one(struct interp *ip, const struct ynode *node, const char *cond, int *truth)
{
	struct parser ps = { ip, node, cond, cond, cond + strlen(cond) };
	/* 'not not … X': a loop, not a recursion, so no depth of 'not' can
	 * overflow the stack */
	int negate = 0;
	for (skip_ws(&ps); !strncmp(ps.p, "not ", 4); skip_ws(&ps)) {
		negate = !negate;
		ps.p += 4;
	}
	int rc = when_atom(&ps, truth);
	if (!rc && negate)
		*truth = !*truth;
	return rc;
}

/* ---- has:WHAT conditions -------------------------------------------------- */

static int has_bits(const struct rdata *rd, unsigned bit) { return !!(rdata_has(rd) & bit); }
static int has_decode(const struct rdata *rd, const char *w) { (void)w; return has_bits(rd, NEEDS_DECODE); }
static int has_prefill(const struct rdata *rd, const char *w) { (void)w; return has_bits(rd, NEEDS_PREFILL); }
static int has_ablation(const struct rdata *rd, const char *w) { (void)w; return has_bits(rd, NEEDS_LADDER); }
static int has_metrics(const struct rdata *rd, const char *w) { (void)w; return has_bits(rd, NEEDS_METRICS); }
static int has_gap(const struct rdata *rd, const char *w) { (void)w; return rd->without_metrics > 0; }
static int has_synthetic(const struct rdata *rd, const char *w) { (void)w; return rd->synthetic; }
static int has_not_covered(const struct rdata *rd, const char *w)
{
	(void)w;
	char buf[GLOBAL_TEXT_MAX];
	return rdata_not_covered(rd, buf, sizeof buf) > 0;
}

/* backward records of our kernels (pass bwd or fwd+bwd) */
static int has_bwd(const struct rdata *rd, const char *w)
{
	(void)w;
	for (size_t i = 0; i < rd->res->nrecords; i++) {
		const struct record *r = &rd->res->records[i];
		if ((!r->source || !strcmp(r->source, "attnprof")) && r->shape.pass != PASS_FWD)
			return 1;
	}
	return 0;
}

/* clock, clock-bwd: records (backward ones) timed with the SM clock probed */
static int has_clock(const struct rdata *rd, const char *w)
{
	const int bwd_only = !strcmp(w, "clock-bwd");
	for (size_t i = 0; i < rd->res->nrecords; i++) {
		const struct record *r = &rd->res->records[i];
		if (r->sm_clock_mhz > 0 && (!bwd_only || r->shape.pass != PASS_FWD))
			return 1;
	}
	return 0;
}

/* rows for the spread table */
static int has_spread(const struct rdata *rd, const char *w)
{
	(void)w;
	for (size_t i = 0; i < rd->res->nrecords; i++)
		if (record_spread_flagged(&rd->res->records[i]))
			return 1;
	return 0;
}

/* reference, failures, incorrect: among the records that are not captured
 * calls (has:capture and the capture values speak of those) */
static int has_record(const struct rdata *rd, const char *w)
{
	for (size_t i = 0; i < rd->res->nrecords; i++) {
		const struct record *r = &rd->res->records[i];
		if (record_captured(r))
			continue;
		if (!strcmp(w, "reference") ? r->source && strcmp(r->source, "attnprof")
		    : !strcmp(w, "failures") ? r->error != NULL : (r->checked && !r->correct))
			return 1;
	}
	return 0;
}

/* capture, capture-decode, capture-bwd, capture-window, missing-references,
 * capture-unchecked, capture-kernel-timed, capture-no-versions (capreview.c) */
static int has_capture(const struct rdata *rd, const char *w)
{
	int truth = 0;
	capture_has(rd, w, &truth);
	return truth;
}

/* workload, stalls, dq-traffic: records (not captured calls, except for
 * the first two) that carry the counters a figure or row of them draws */
static int has_counter(const struct rdata *rd, const char *w)
{
	const char *m = !strcmp(w, "workload") ? M_L1_BYTES : !strcmp(w, "stalls") ? M_WARPS_ACTIVE : M_L2_RED_SECT;
	const int bwd_only = !strcmp(w, "dq-traffic");
	for (size_t i = 0; i < rd->res->nrecords; i++) {
		const struct record *r = &rd->res->records[i];
		if (r->error || !record_metric(r, m) || (bwd_only && (record_captured(r) || r->shape.pass == PASS_FWD)))
			continue;
		return 1;
	}
	return 0;
}

/* paged: a decode record of a paged KV cache (the decode-paged table's subject) */
static int has_paged(const struct rdata *rd, const char *w)
{
	(void)w;
	for (size_t i = 0; i < rd->res->nrecords; i++) {
		const struct record *r = &rd->res->records[i];
		if (!r->error && r->shape.phase == PHASE_DECODE && r->shape.kv_layout == KV_PAGED && !record_captured(r))
			return 1;
	}
	return 0;
}

/* program-workload: a captured program's header holds its kernels (record --workload on) */
static int has_program_workload(const struct rdata *rd, const char *w)
{
	(void)w;
	for (int i = 0; i < rd->nprograms; i++)
		if (rd->programs[i].workload.n)
			return 1;
	return 0;
}

struct has_cond {
	const char *name;
	int (*test)(const struct rdata *rd, const char *name);
};

/* In the order the error lists them (docs/templates.md describes each). */
static const struct has_cond has_conds[] = {
	{ "decode", has_decode }, { "prefill", has_prefill }, { "bwd", has_bwd },
	{ "ablation", has_ablation }, { "metrics", has_metrics }, { "gap", has_gap },
	{ "reference", has_record }, { "failures", has_record }, { "spread", has_spread },
	{ "clock", has_clock }, { "clock-bwd", has_clock }, { "incorrect", has_record },
	{ "paged", has_paged },
	{ "synthetic", has_synthetic }, { "capture", has_capture }, { "capture-decode", has_capture },
	{ "capture-bwd", has_capture }, { "capture-window", has_capture },
	{ "missing-references", has_capture }, { "capture-unchecked", has_capture },
	{ "capture-kernel-timed", has_capture }, { "capture-no-versions", has_capture }, { "workload", has_counter }, { "stalls", has_counter },
	{ "dq-traffic", has_counter }, { "not-covered", has_not_covered }, { "program-workload", has_program_workload },
};

static const struct has_cond *has_find(const char *name)
{
	for (size_t i = 0; i < sizeof(has_conds) / sizeof(has_conds[0]); i++)
		if (!strcmp(has_conds[i].name, name))
			return &has_conds[i];
	return NULL;
}

/* "decode, prefill, …": the names, for an error */
static const char *has_names(char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(has_conds) / sizeof(has_conds[0]) && used < len; i++) {
		int n = snprintf(buf + used, len - used, "%s%s", i ? ", " : "", has_conds[i].name);
		if (n < 0)
			break;
		used += (size_t)n;
	}
	return buf;
}

static int when_atom(struct parser *pp, int *truth)
{
	struct parser ps = *pp;
	struct interp *ip = ps.ip;
	if (!strncmp(ps.p, "has:", 4)) {
		const char *w = ps.p + 4;
		const struct has_cond *hc = has_find(w);
		if (!hc) {
			char names[512];
			return perr(&ps, w, "unknown 'has:%s' (%s)", w, has_names(names, sizeof(names)));
		}
		*truth = hc->test(ip->rd, w);
		return 0;
	}
	/* EXPR OP (NUMBER | EXPR) */
	static const char *const ops[] = { ">=", "<=", "==", "!=", ">", "<" };
	const char *op = NULL, *opat = NULL;
	for (const char *p = ps.p; *p && !op; p++)
		for (size_t i = 0; i < 6; i++)
			if (!strncmp(p, ops[i], strlen(ops[i]))) {
				op = ops[i];
				opat = p;
				break;
			}
	if (!op)
		return perr(&ps, ps.p, "a condition is 'has:WHAT', 'not CONDITION' or 'VALUE OP NUMBER' "
			    "(e.g. flash2.speedup_vs.standard@N=max > 1)");
	struct value a, b;
	char spec[32];
	const char *at_a = ps.p;
	ps.end = opat;
	int rc = eval(&ps, &a, spec, sizeof(spec));
	if (rc)
		return rc;
	/* a text value (gpu.name) against a number was always false: say so */
	if (!a.missing && a.is_text == 1) {
		int n = (int)(opat - at_a);
		while (n > 0 && at_a[n - 1] == ' ')
			n--;
		return perr(&ps, at_a, "'%.*s' is text ('%.60s'), not a number: a condition compares numbers",
			    n, at_a, a.text);
	}
	const char *rhs = opat + strlen(op);
	while (*rhs == ' ')
		rhs++;
	char *e;
	double bv = strtod(rhs, &e);
	const char *num_end = e;
	while (*e == ' ')
		e++;
	if (e != rhs && !*e && !isfinite(bv)) /* nan, inf, 1e999: every comparison false (or true) */
		return perr(&ps, rhs, "'%.*s' is not a finite number: a condition compares with one such as 1 or 0.5",
			    (int)(num_end - rhs), rhs);
	if (e == rhs || *e) {
		const char *at_b = rhs;
		ps.p = rhs;
		ps.end = rhs + strlen(rhs);
		rc = eval(&ps, &b, spec, sizeof(spec));
		if (rc)
			return rc;
		if (!b.missing && b.is_text == 1)
			return perr(&ps, at_b, "'%s' is text ('%.60s'), not a number: a condition compares numbers",
				    at_b, b.text);
		if (b.missing) {
			*truth = 0;
			return 0;
		}
		bv = b.num;
	}
	if (a.missing) {
		*truth = 0;
		return 0;
	}
	double av = a.num;
	*truth = !strcmp(op, ">") ? av > bv : !strcmp(op, "<") ? av < bv : !strcmp(op, ">=") ? av >= bv
	       : !strcmp(op, "<=") ? av <= bv : !strcmp(op, "==") ? av == bv : av != bv;
	return 0;
}
