/* claim.h: a number in running text, as data.
 *
 * Every number a template's text prints (titles, captions, notes, slide
 * notes, bullets, the patent description) is a claim: the value, the rule
 * that made it and the records it used.  interp.c makes one where it
 * computes the number; the document model keeps them beside its blocks
 * (docmodel.h) and `report --trace-records` writes each as a "claim" line,
 * which tests/records-check.py recomputes from the results files.
 *
 * A claim whose records come from two runs (files) is refused at build
 * time, naming the template place and the two files, unless the template
 * names it a cross-run comparison ({across_runs(A.speedup_vs.B)}); the
 * sentence then says so ("across runs: X.yaml against Y.yaml").
 */
#ifndef ATTNPROF_DOC_CLAIM_H
#define ATTNPROF_DOC_CLAIM_H

#include <stddef.h>

#include "doc/data.h"

enum claim_rule {
	CLAIM_VALUE,     /* one record's quantity */
	CLAIM_RATIO,     /* a quantity of one record against another's (SERIES.X_vs.OTHER) */
	CLAIM_MAX,       /* the largest over the records the conditions match */
	CLAIM_MIN,       /* the smallest */
	CLAIM_CELL,      /* a cell of a table the document draws (its records: the table's) */
	CLAIM_CELL_MAX,  /* the largest such cell */
	CLAIM_CELL_MIN,
};
/* "value", "ratio", "max", "min", "cell", "cell-max", "cell-min" */
const char *claim_rule_name(enum claim_rule r);

#define CLAIM_RECORDS 2

struct claim {
	enum claim_rule rule;
	double value;                /* the number, unrounded */
	char printed[64];            /* as the text prints it */
	char place[200];             /* the template's file:line:col */
	char expr[200];              /* the placeholder as written, without braces */
	char quantity[64];           /* the quantity (tflops, speedup_vs) or the table's column */
	char arg[96];                /* its argument (the other series), "" none */
	const struct record *rec[CLAIM_RECORDS]; /* rec[0] the claim's, rec[1] the other of a ratio */
	int nrec;
	unsigned runs;               /* bit k: a record of run k (cells: every run the table drew) */
	int cross_run;               /* the template names it a cross-run comparison */
	size_t block;                /* the model's block whose text holds it (docmodel.h) */
};

struct claim_list {
	struct claim *c;
	size_t n, cap;
};
/* Append a copy of c.  0, or -1 out of memory. */
int claim_list_add(struct claim_list *l, const struct claim *c);
void claim_list_release(struct claim_list *l);

/* The runs of c's records (bits of rdata_origin). */
unsigned claim_runs(const struct rdata *rd, const struct claim *c);
/* Two of its runs, lowest first, when c's records come from more than one
 * run: 1 with *a and *b set; 0 when they are one run's. */
int claim_two_runs(unsigned runs, int *a, int *b);

/* Write c to rd's trace (when it has a file) as one line of seven
 * tab-separated fields, as tests/records-check.py reads them:
 *   claim  PLACE  EXPR  rule=R value=V quantity=Q arg=A cross_run=0|1 runs=N
 *   KEY[|KEY2]  FILE[|FILE2]  PRINTED */
void claim_trace(const struct rdata *rd, const struct claim *c);

#endif
