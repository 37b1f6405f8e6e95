/* export.c: flat rows as CSV or JSON; see export.h. */
#include "export.h"
#include "util/error.h"
#include "util/yamlout.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum col_kind { COL_FIXED, COL_METRIC, COL_ALLOC, COL_MODEL };

struct column {
	char *name;           /* the key as printed */
	enum col_kind kind;
	const char *sub;      /* metric/alloc/model name (points into name) */
};

struct columns {
	size_t n, alloc;
	struct column *c;
	struct kvlist seen[4]; /* per kind, the names added (hashed: linear in the names) */
};

/* The fixed columns, each a scalar of the results schema (results.h
 * record_scalar), named by its key; the order is the export's own: columns
 * added later go after pass, so that older readers' column numbers hold. */
static const struct {
	const char *section, *key;
} fixed_cols[] = {
	{ "", "source" }, { "", "variant" }, { "", "phase" }, { "", "dtype" },
	{ "", "batch" }, { "", "heads" }, { "", "kv_heads" }, { "", "seqlen_q" },
	{ "", "seqlen_kv" }, { "", "head_dim" }, { "", "causal" },
	{ "timing", "time_ms" }, { "timing", "time_ms_min" }, { "timing", "time_ms_max" }, { "timing", "tflops" },
	{ "memory", "peak_bytes" },
	{ "correctness", "correct" }, { "correctness", "rel_l2_err" }, { "correctness", "max_abs_err" },
	{ "", "pass" },
	{ "timing", "sm_clock_mhz" }, { "timing", "sm_clock_mhz_min" }, { "timing", "settle_ms" },
	/* how the counters were taken, and a captured call's identity and verdict
	 * (empty for records that are not captured calls) */
	{ "metrics", "l2_flushed" }, { "metrics", "kernels" },
	{ "capture", "origin" }, { "capture", "family" }, { "capture", "call" }, { "capture", "shape_known" },
	{ "capture", "nn_matrices" }, { "capture", "verdict_rule" }, { "capture", "l2_write_bytes" },
	{ "capture", "dram_write_bytes" }, { "capture", "nn_bytes" }, { "capture", "time_source" },
	/* a decode record's paged or ragged KV cache (empty for a contiguous, equal one): part of its identity */
	{ "", "kv_layout" }, { "", "page_size" }, { "", "kv_dist" }, { "", "kv_seed" },
};
#define NFIXED (sizeof(fixed_cols) / sizeof(fixed_cols[0]))

static int add_column(struct columns *cs, enum col_kind kind, const char *prefix, const char *sub)
{
	size_t plen = strlen(prefix);
	if (kvlist_get(&cs->seen[kind], sub))
		return 0;
	if (kvlist_set(&cs->seen[kind], sub, (double)cs->n))
		return -1;
	if (cs->n == cs->alloc) {
		size_t cap = cs->alloc ? 2 * cs->alloc : 64;
		struct column *p = realloc(cs->c, cap * sizeof(*p));
		if (!p)
			return error("out of memory");
		cs->c = p;
		cs->alloc = cap;
	}
	char *name = malloc(plen + strlen(sub) + 1);
	if (!name)
		return error("out of memory");
	memcpy(name, prefix, plen);
	strcpy(name + plen, sub);
	cs->c[cs->n++] = (struct column){ name, kind, name + plen };
	return 0;
}

static void free_columns(struct columns *cs)
{
	for (size_t i = 0; i < cs->n; i++)
		free(cs->c[i].name);
	free(cs->c);
	for (int k = 0; k < 4; k++)
		kvlist_release(&cs->seen[k]);
}

/* A cell: a string (s) or a number (v, NaN = missing). */
struct cell {
	const char *s;
	double v;
	int is_bool;
};

static struct cell fixed_cell(const struct record *r, size_t i)
{
	struct cell c = { NULL, NAN, 0 };
	const char *sec = fixed_cols[i].section, *key = fixed_cols[i].key;
	/* Timing and correctness are missing, not zero, when they were not measured
	 * (a captured call timed by its kernels' durations has a time and no
	 * repetitions: capture.time_source says which); so is a peak of 0 bytes. */
	if ((!strcmp(sec, "timing") && !(r->time_ms > 0)) || (!strcmp(sec, "correctness") && !r->checked))
		return c;
	if (!strcmp(sec, "metrics")) { /* not schema scalars: the flush policy (-1: not said) and the launches */
		if (!strcmp(key, "l2_flushed")) {
			c.is_bool = 1;
			c.v = r->l2_flushed < 0 ? NAN : r->l2_flushed;
		} else if (r->nlaunches)
			c.v = (double)r->nlaunches;
		return c;
	}
	switch (record_scalar(r, sec, key, &c.s, &c.v)) {
	case SCALAR_NONE: break; /* not in the schema: test_results fails on it */
	case SCALAR_STR: break;
	case SCALAR_NUM: if (!strcmp(sec, "memory") && c.v == 0) c.v = NAN; break;
	case SCALAR_BOOL: c.is_bool = 1; break;
	}
	return c;
}

static struct cell get_cell(const struct record *r, const struct column *col, size_t index)
{
	struct cell c = { NULL, NAN, 0 };
	const double *v = NULL;
	switch (col->kind) {
	case COL_FIXED: return fixed_cell(r, index);
	case COL_METRIC: v = kvlist_get(&r->totals, col->sub); break;
	case COL_ALLOC: v = kvlist_get(&r->allocs, col->sub); break;
	case COL_MODEL: v = kvlist_get(&r->model, col->sub); break;
	}
	if (v)
		c.v = *v;
	return c;
}

void json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p == '\n')
			fputs("\\n", f);
		else if (*p < 0x20)
			fprintf(f, "\\u%04x", *p);
		else
			fputc(*p, f);
	}
	fputc('"', f);
}

/* A text cell a spreadsheet would run as a formula: it starts with = + - @,
 * a tab or a carriage return (OWASP's CSV injection list) and is not a plain
 * number (-1.5, +3e4: a spreadsheet reads those as numbers, which run
 * nothing).  Kernel names and notes come from other programs. */
static int csv_formula(const char *s)
{
	while (*s == ' ' || *s == '\n')
		s++; /* a spreadsheet trims leading blanks: " =1+1" runs as =1+1 */
	if (!strchr("=+-@\t\r", s[0]) || !s[0])
		return 0;
	char *e;
	double v = strtod(s, &e);
	return e == s || *e || !isfinite(v);
}

/* RFC 4180 quoting; a formula-like cell is quoted with a leading ' so it
 * stays text (docs/results-format.md, "Export") */
void csv_string(FILE *f, const char *s)
{
	int formula = csv_formula(s);
	if (!formula && !strpbrk(s, ",\"\n\r")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	if (formula)
		fputc('\'', f);
	for (const char *p = s; *p; p++) {
		if (*p == '"')
			fputc('"', f);
		fputc(*p, f);
	}
	fputc('"', f);
}

static void write_cell(FILE *f, struct cell c, enum export_format fmt)
{
	char buf[40];
	if (c.s) {
		(fmt == EXPORT_JSON ? json_string : csv_string)(f, c.s);
	} else if (isnan(c.v) || isinf(c.v)) {
		if (fmt == EXPORT_JSON)
			fputs("null", f);
	} else if (c.is_bool) {
		fputs(c.v != 0 ? "true" : "false", f);
	} else {
		fputs(format_double(c.v, buf, sizeof(buf)), f);
	}
}

int export_records(FILE *f, const struct record *recs, size_t n, enum export_format fmt)
{
	struct columns cs = { 0 };
	int rc = -1;
	for (size_t i = 0; i < NFIXED; i++)
		if (add_column(&cs, COL_FIXED, !strcmp(fixed_cols[i].section, "capture") ? "capture." : "",
			       fixed_cols[i].key))
			goto out;
	for (size_t r = 0; r < n; r++)
		for (size_t i = 0; i < recs[r].totals.n; i++)
			if (add_column(&cs, COL_METRIC, "", recs[r].totals.items[i].name))
				goto out;
	for (size_t r = 0; r < n; r++)
		for (size_t i = 0; i < recs[r].allocs.n; i++)
			if (add_column(&cs, COL_ALLOC, "alloc.", recs[r].allocs.items[i].name))
				goto out;
	for (size_t r = 0; r < n; r++)
		for (size_t i = 0; i < recs[r].model.n; i++)
			if (add_column(&cs, COL_MODEL, "model.", recs[r].model.items[i].name))
				goto out;

	if (fmt == EXPORT_CSV) {
		for (size_t i = 0; i < cs.n; i++) {
			if (i)
				fputc(',', f);
			csv_string(f, cs.c[i].name);
		}
		fputc('\n', f);
		for (size_t r = 0; r < n; r++) {
			for (size_t i = 0; i < cs.n; i++) {
				if (i)
					fputc(',', f);
				write_cell(f, get_cell(&recs[r], &cs.c[i], i), fmt);
			}
			fputc('\n', f);
		}
	} else {
		fputs("[", f);
		for (size_t r = 0; r < n; r++) {
			fputs(r ? ",\n  {" : "\n  {", f);
			for (size_t i = 0; i < cs.n; i++) {
				if (i)
					fputs(", ", f);
				json_string(f, cs.c[i].name);
				fputs(": ", f);
				write_cell(f, get_cell(&recs[r], &cs.c[i], i), fmt);
			}
			fputc('}', f);
		}
		fputs(n ? "\n]\n" : "]\n", f);
	}
	/* a write error (a full disk) is the caller's to name, with its file: errno is kept */
	rc = fflush(f) || ferror(f) ? -1 : 0;
out:
	free_columns(&cs);
	return rc;
}
