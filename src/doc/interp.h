/* interp.h: measured values in template text.
 *
 * A template's text holds placeholders in braces (docs/templates.md):
 *
 *     {flash2.speedup_vs.standard@N=4096,d=128}     2.91×
 *     {flash2.tflops@N=max|%.0f}                      301
 *     {max(flash2.speedup_vs.standard)}               largest over every config
 *     {gpu.name}  {run.date}  {focus.N}  {$v.summary} descriptor text
 *
 * `{{` and `}}` are literal braces.  A series is a variant name, "sdpa"
 * (the reference series) or "$v" (the variant of an each_variant section).
 * Conditions not given take the template's focus (N, d, causal), except
 * inside max()/min(), which range over every record of the series.
 * A value the results lack is written "n/a" and counted; a placeholder
 * that cannot mean anything (syntax, unknown variant or quantity, bad
 * format) is an error at the template's file:line:col.
 */
#ifndef ATTNPROF_DOC_INTERP_H
#define ATTNPROF_DOC_INTERP_H

#include <stddef.h>

#include "doc/claim.h"
#include "doc/data.h"
#include "util/yamltree.h"

/* {ref:ID} expands to INTERP_REF_OPEN ID INTERP_REF_CLOSE: the document
 * model turns the mark into "Figure N" or "Table N" once it has numbered
 * every block (docmodel.c), so a text may cite what comes after it. */
#define INTERP_REF_OPEN '\x01'
#define INTERP_REF_CLOSE '\x02'

struct sbuf {
	char *buf;   /* NUL-terminated, never NULL after sbuf_init */
	size_t len, cap;
};
void sbuf_init(struct sbuf *s);
void sbuf_release(struct sbuf *s);
int sbuf_add(struct sbuf *s, const char *p, size_t n);
int sbuf_addf(struct sbuf *s, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;

struct interp {
	const struct rdata *rd;
	const char *var_v;     /* series key bound to $v, or NULL */
	const char *file;      /* template path, for messages */
	const char *src;       /* template text, to place errors inside scalars */
	size_t srclen;
	int missing;           /* values written as n/a */
	int quiet;             /* no warnings (the counting pass) */
	int styles;            /* **bold**, _italic_ and `code` as the model's inline marks (doc/inline.h); 0: as written */
	/* a figure's or table's own conditions (N, d, causal, B, H, pass) for its
	 * caption, before the focus: caption and figure from one selection; NULL none */
	const struct rsel *block_sel;
	/* the claims of the numbers printed (doc/claim.h), or NULL: not kept */
	struct claim_list *claims;
	size_t block;          /* the model's block being expanded, for each claim */
};

/* Expand the placeholders of text (the scalar `node`) into out.
 * 0, or -2 for a template error (message printed with file:line:col). */
int interp_expand(struct interp *ip, const struct ynode *node, const char *text, struct sbuf *out);
/*
 * Evaluate a `when:` condition: "has:decode", "has:ablation", "has:metrics",
 * "has:reference", "has:failures", "has:prefill", "not CONDITION", or
 * "EXPR OP NUMBER|EXPR" with OP one of > < >= <= == != (a missing value
 * makes it false), and "A and B and …" of those (true when each is).  0
 * with *truth set, -2 for a template error, -1 out of memory.
 */
int interp_when(struct interp *ip, const struct ynode *node, const char *cond, int *truth);
/* "file:line:col" of byte `off` inside the scalar node's text. */
const char *interp_where(const struct interp *ip, const struct ynode *node, const char *text,
			 size_t off, char *buf, size_t len);

#endif
