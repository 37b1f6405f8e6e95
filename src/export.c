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
};

static const char *const fixed_keys[] = {
	"source", "variant", "phase", "dtype", "batch", "heads", "kv_heads", "seqlen_q",
	"seqlen_kv", "head_dim", "causal", "time_ms", "time_ms_min", "time_ms_max", "tflops",
	"peak_bytes", "correct", "rel_l2_err", "max_abs_err", "pass",
};
#define NFIXED (sizeof(fixed_keys) / sizeof(fixed_keys[0]))

static int add_column(struct columns *cs, enum col_kind kind, const char *prefix, const char *sub)
{
	size_t plen = strlen(prefix);
	for (size_t i = 0; i < cs->n; i++)
		if (cs->c[i].kind == kind && !strcmp(cs->c[i].sub, sub))
			return 0;
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
	switch (i) {
	case 0: c.s = r->source; break;
	case 1: c.s = r->variant; break;
	case 2: c.s = r->phase; break;
	case 3: c.s = r->dtype; break;
	case 4: c.v = r->batch; break;
	case 5: c.v = r->heads; break;
	case 6: c.v = r->kv_heads; break;
	case 7: c.v = r->seqlen_q; break;
	case 8: c.v = r->seqlen_kv; break;
	case 9: c.v = r->head_dim; break;
	case 10: c.v = r->causal; c.is_bool = 1; break;
	/* Timing and correctness are missing, not zero, when they were not measured. */
	case 11: c.v = r->repetitions ? r->time_ms : NAN; break;
	case 12: c.v = r->repetitions ? r->time_ms_min : NAN; break;
	case 13: c.v = r->repetitions ? r->time_ms_max : NAN; break;
	case 14: c.v = r->repetitions ? r->tflops : NAN; break;
	case 15: c.v = r->peak_bytes ? (double)r->peak_bytes : NAN; break;
	case 16: c.v = r->checked ? r->correct : NAN; c.is_bool = 1; break;
	case 17: c.v = r->checked ? r->rel_l2_err : NAN; break;
	case 18: c.v = r->checked ? r->max_abs_err : NAN; break;
	case 19: c.s = record_pass(r); break; /* last: older readers' column numbers hold */
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

static void json_string(FILE *f, const char *s)
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

static void csv_string(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\n\r")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
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
		if (add_column(&cs, COL_FIXED, "", fixed_keys[i]))
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
	rc = ferror(f) ? error("cannot write the export: %s", "output error") : 0;
out:
	free_columns(&cs);
	return rc;
}
