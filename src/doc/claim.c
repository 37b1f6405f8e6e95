/* claim.c: numbers in running text as data; see claim.h. */
#include "doc/claim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"

const char *claim_rule_name(enum claim_rule r)
{
	static const char *const names[] = { "value", "ratio", "max", "min", "cell", "cell-max", "cell-min" };
	return (size_t)r < sizeof(names) / sizeof(*names) ? names[r] : "?";
}

int claim_list_add(struct claim_list *l, const struct claim *c)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 64;
		struct claim *p = realloc(l->c, cap * sizeof(*p));
		if (!p)
			return error("out of memory keeping a claim");
		l->c = p;
		l->cap = cap;
	}
	l->c[l->n++] = *c;
	return 0;
}

void claim_list_release(struct claim_list *l)
{
	free(l->c);
	memset(l, 0, sizeof(*l));
}

unsigned claim_runs(const struct rdata *rd, const struct claim *c)
{
	unsigned runs = c->runs;
	for (int i = 0; i < c->nrec; i++) {
		int run = c->rec[i] ? rdata_origin(rd, c->rec[i]) : -1;
		if (run >= 0 && run < 32)
			runs |= 1u << run;
	}
	return runs;
}

int claim_two_runs(unsigned runs, int *a, int *b)
{
	int n = 0;
	for (int k = 0; k < 32; k++)
		if (runs & (1u << k)) {
			if (n == 0)
				*a = k;
			else if (n == 1)
				*b = k;
			n++;
		}
	return n > 1;
}

/* a field without the trace's separators */
static void put_field(FILE *f, const char *s)
{
	for (; *s; s++)
		fputc(*s == '\t' || *s == '\n' ? ' ' : *s, f);
}

void claim_trace(const struct rdata *rd, const struct claim *c)
{
	if (!rd->trace || !rd->trace->f)
		return;
	FILE *f = rd->trace->f;
	int nruns = 0;
	for (unsigned r = claim_runs(rd, c); r; r &= r - 1)
		nruns++;
	fputs("claim\t", f);
	put_field(f, c->place);
	fputc('\t', f);
	put_field(f, c->expr);
	fprintf(f, "\trule=%s value=%.17g quantity=%s arg=%s cross_run=%d runs=%d\t", claim_rule_name(c->rule), c->value,
		c->quantity[0] ? c->quantity : "-", c->arg[0] ? c->arg : "-", c->cross_run, nruns);
	for (int i = 0; i < c->nrec; i++) {
		char k[256] = "-";
		if (c->rec[i])
			record_key(c->rec[i], k, sizeof(k));
		fprintf(f, "%s%s", i ? "|" : "", k);
	}
	fputs(c->nrec ? "\t" : "-\t", f);
	for (int i = 0; i < c->nrec; i++)
		fprintf(f, "%s%s", i ? "|" : "", c->rec[i] ? rdata_record_file(rd, c->rec[i]) : "-");
	fputs(c->nrec ? "\t" : "-\t", f);
	put_field(f, c->printed[0] ? c->printed : "-");
	fputc('\n', f);
}
