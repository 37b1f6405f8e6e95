/* globals.h: the template's global values — {gpu.name}, {run.date},
 * {focus.N}, {program.command} … — one row each: its namespace and name,
 * its unit, what it is and the function that finds it.  docs/templates.md
 * ("Globals") describes them; errors list the names from here.
 * No Cairo in this module.
 */
#ifndef ATTNPROF_DOC_GLOBALS_H
#define ATTNPROF_DOC_GLOBALS_H

#include <stddef.h>

#include "doc/data.h"

/* The longest text a row composes ({program.ran}: a sentence per program). */
#define GLOBAL_TEXT_MAX 2400

/* One evaluation of a global: what its row's function reads and writes. */
struct global_row;
struct gcall {
	const struct rdata *rd;
	const struct global_row *row;
	int is_text;
	double num;                 /* a number, in the row's unit */
	const char *text;           /* a text, in the results or in buf */
	char buf[GLOBAL_TEXT_MAX];  /* a text the function composes */
};

struct global_row {
	const char *ns, *name;      /* {gpu.sm_count}: "gpu", "sm_count" */
	enum qunit unit;            /* the number's; U_NUM for a text */
	const char *about;          /* what it is, one line */
	int (*value)(struct gcall *c); /* 0 with the value in c, 1 when the results lack it */
	size_t field;               /* offsetof(struct results_header, …): what a shared function reads */
};
extern const struct global_row global_rows[];
extern const size_t global_count;

/* The row of {ns.name}, or NULL. */
const struct global_row *global_find(const char *ns, const char *name);
/* 1 when ns is a namespace of globals ("gpu", "run", "focus", "program"). */
int global_namespace(const char *ns);
/* The name in ns nearest to name (a did-you-mean), or NULL. */
const char *global_nearest(const char *ns, const char *name);
/* Every row's name grouped by namespace in the table's order, for an
 * error: "gpu.name chip …; run.date …; focus.N d causal; program.…". */
const char *global_names(char *buf, size_t len);
/* The value of row g: 0 with c->is_text and c->num or c->text set, 1 when
 * the results lack it. */
int global_eval(const struct rdata *rd, const struct global_row *g, struct gcall *c);
/* cmd with every absolute path written as its file name ("-o
 * /root/out/x.yaml" -> "-o x.yaml"): what identifies the file, not the
 * recording host's folders.  out, or cmd when NULL. */
const char *command_text(const char *cmd, char *out, size_t len);

/* What rd's records do not cover yet ({run.not_covered}, has:not-covered):
 * a Hopper rung's backward, fp8, a prefill at d = 256, listed in buf with
 * the rule each failed ("" when all are covered).  The count missing. */
int rdata_not_covered(const struct rdata *rd, char *buf, size_t len);

#endif
