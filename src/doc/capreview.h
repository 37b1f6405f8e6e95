/* capreview.h: what the documents say of calls captured in another program.
 *
 * `attnprof record -- CMD` writes one record per attention call and pass
 * (source "capture", docs/capture.md).  Here those records are read as
 * implementations (one series "capture:IMPL" each), their calls grouped by
 * phase, pass and shape (a decode group spans its KV lengths), and put
 * beside attnprof's own reference variants measured at the same shape
 * (standard and flash2; decode-flash2 and decode-splitkv for decode).  The
 * answers the review gives per implementation — what is no longer stored,
 * where work is partitioned, how communication is reduced — are composed
 * here from the records alone (verdict.h, gridmap.h, family.h), for the
 * template's `{$v.capture.NAME}` values, the capture tables and figures.
 * No Cairo in this module.
 */
#ifndef ATTNPROF_DOC_CAPREVIEW_H
#define ATTNPROF_DOC_CAPREVIEW_H

#include <stddef.h>
#include <stdio.h>

#include "capture/gridmap.h"
#include "doc/data.h"
#include "doc/figkind.h"

/* The charts that draw captured implementations side by side draw at most
 * this many (fig_capture.c, fig_patent.c); a figure with more says so in its
 * title and on stderr (capture_chart_cut); the tables list every one.  The
 * compare chart draws at most FD_BAR_CATS shapes, and says so too. */
#define CAP_CHART_IMPLS 8
#define CAP_PATENT_IMPLS 6

/* Calls of one implementation with one phase, pass and shape. */
struct capgroup {
	const struct record *rep;     /* the last call: the program's steady state */
	int ncalls;
	int nkv_min, nkv_max;         /* KV lengths (decode groups span several) */
	double t_min, t_max;          /* the calls' times (ms) */
	int checked, incorrect;
	double err_min, err_max;      /* relative L2 errors of the checked calls */
};

struct capimpl {
	char key[SERIES_KEY];         /* "capture:sdpa-flash" */
	const char *variant;          /* "sdpa-flash" */
	const char *family;           /* of its first call */
	int ncalls;
	size_t ng, gcap;
	struct capgroup *g;           /* ng of them: every group, no cap */
};

/* Every captured implementation of rd (no cap), in the order their first
 * call appears: a new array of *n (capture_impls_free); NULL with *n 0 when
 * there is none or memory ran out (then said). */
struct capimpl *capture_impls(const struct rdata *rd, size_t *n);
void capture_impls_free(struct capimpl *all, size_t n);
/* The figure kinds' cut hooks (figkind.h) of capture-compare (at most
 * CAP_CHART_IMPLS implementations with prefill calls of the pass) and
 * patent-capture-throughput (CAP_PATENT_IMPLS, of known shape): nonzero
 * when the records hold more, why "the first 8 of 40 captured
 * implementations are drawn; the tables list all". */
int capture_compare_cut(const struct rdata *rd, const struct figopts *o, char *why, size_t len);
int capture_pthroughput_cut(const struct rdata *rd, const struct figopts *o, char *why, size_t len);
/* Its place among them as a word ("first", "second", … "11th"), for
 * texts that may not name software (a patent's description and drawings). */
const char *capture_ordinal(const struct rdata *rd, const char *key, char *buf, size_t len);
/* The implementation of series key (NULL when it has no captured calls);
 * static storage, valid until the next call. */
const struct capimpl *capture_impl(const struct rdata *rd, const char *key);

/* The group a figure is drawn at: of the pass (1 bwd) and phase (1 decode),
 * the one at N (prefill), else the largest N; NULL when there is none. */
const struct capgroup *capture_pick(const struct capimpl *im, int n, int pass, int dec);
/* The call a data-flow figure draws: forward prefill (capture_pick at n),
 * else forward decode, else backward prefill; NULL when none. */
const struct capgroup *capture_main_group(const struct capimpl *im, int n);

/* The implementation a figure draws: its option's (o->variant), else the
 * first captured; NULL when none.  Its name, "?" for none. */
const struct capimpl *capture_figure_impl(const struct rdata *rd, const struct figopts *o);
const char *capture_impl_name(const struct capimpl *im);
/* The call a figure of im draws: capture_main_group at the figure's N, else the focus's. */
const struct capgroup *capture_figure_group(const struct rdata *rd, const struct capimpl *im, const struct figopts *o);
/* "prefill forward", "decode backward", "forward (phase unknown)", … */
const char *capture_call_kind(const struct record *r);

/* attnprof's own record of variant at rec's shape and pass (NULL: none). */
const struct record *capture_reference(const struct rdata *rd, const struct record *rec, const char *variant);
/* The reference variants for a record's phase: standard, flash2 (prefill)
 * or decode-flash2, decode-splitkv (decode); *n set to 2. */
const char *const *capture_reference_variants(const struct record *rec, size_t *n);

/* The main kernel of a call (longest; the first fused one when no
 * durations); its grid read against the call's shape. */
const struct launch *capture_main_launch(const struct record *rec);
void capture_gridmap(const struct rdata *rd, const struct record *rec, const struct launch *l, struct gridmap *m);

/* "B=16 H=16 N=1024 d=128" / "B=2 H=16/4 q=1 kv=513–519 d=128 causal". */
const char *capture_shape_text(const struct capgroup *g, char *buf, size_t len);
/* "S, P not stored" / "S and P stored" / "unknown" for a record. */
const char *capture_verdict_text(const struct rdata *rd, const struct record *rec, char *buf, size_t len);
/* The rule's reading in words ("DRAM writes: N×N larger than twice the L2"). */
const char *capture_rule_text(const char *rule);

/* A capture value's row: its name, unit, what it is and the function that
 * finds it (capreview.c; docs/templates.md, "A captured program"). */
struct capcall;
struct capture_value_row {
	const char *name;             /* {$v.capture.stored_fwd}: "stored_fwd" */
	enum qunit unit;              /* the number's; U_NUM for a text */
	const char *about;            /* what it is, one line */
	int (*value)(struct capcall *c); /* 0 with the value in c, 1 when the implementation lacks it */
	size_t field;                 /* offsetof(struct capcall, …): the count a shared function reads */
};
extern const struct capture_value_row capture_value_rows[];
extern const size_t capture_value_count;
/* The row called name, or NULL. */
const struct capture_value_row *capture_value_find(const char *name);
/*
 * `{$v.capture.NAME}`: a number (*is_text 0, *num, *unit) or a text.
 * Returns 0, 1 when the implementation lacks it (text says why) or -1
 * when NAME is not a capture value (text lists them from the rows).
 */
int capture_value(const struct rdata *rd, const char *key, const char *name, int *is_text, double *num,
		  enum qunit *unit, char *text, size_t len);
/* Let text break after each "·" (a zero-width space there) without the
 * layout calling it a broken word: formulas such as ⌈N/128⌉·B·H. */
void capture_breakable(char *s, size_t len);
/* The captured implementation a template names by its role ($fastest,
 * $fastest_bwd, $stores), judged at the focus shape by the records its
 * values draw: "fastest" the shortest forward prefill call, "fastest_bwd"
 * the shortest backward, "stores" of the forward calls whose traffic shows
 * S and P stored the one with the most DRAM bytes.  Returns 0 with its
 * series key, 1 when no implementation plays it, -1 for an unknown role. */
int capture_role(const struct rdata *rd, const char *role, char *key, size_t len);
/* has:capture, has:capture-decode, has:capture-bwd, has:capture-window,
 * has:missing-references; has:capture-unchecked (a captured call not checked
 * against fp64), has:capture-kernel-timed (one timed by its kernels' sum
 * under profiling, time source "kernels"), has:capture-no-versions (a
 * capture header without the program's library versions). */
int capture_has(const struct rdata *rd, const char *what, int *truth);
/* The facts of the drawn records a document's layout record carries for the
 * linter's claim rules (layrec.h "fact"): the has: conditions above a
 * caveat or a time label depends on, and capture-event-timed (a captured
 * call timed by the helper's unprofiled re-runs, time source "events"):
 * names in *names (static), truths in values; returns the count (<= cap). */
size_t capture_facts(const struct rdata *rd, const char **names, int *values, size_t cap);
/* How the captured calls of a pass (bwd 0: forward, 1: backward) were
 * timed, from their time sources: "median of unprofiled re-runs between
 * CUDA events" (events), "the sum of the kernel durations under profiling"
 * (kernels), or both named; NULL when no call of that pass was captured.
 * {program.timing_fwd}, {program.timing_bwd} and the tables' notes. */
const char *capture_timing(const struct rdata *rd, int bwd);

/* Forward shapes of captured calls that no attnprof reference record
 * matches (every one, no cap); writes a spec that would record them to f
 * (NULL: only count).  Returns how many shapes are missing, -1 after
 * error() (out of memory). */
int capture_missing_spec(const struct rdata *rd, FILE *f);
/* The same spec into buf ("" when none are missing); -1 after error() when
 * it is longer than len (never a spec cut short). */
int capture_missing_spec_text(const struct rdata *rd, char *buf, size_t len);

/* Tables (builders of rows of tabledata.c's table_kinds). */
void capture_table_calls(struct dtable *T, const struct rdata *rd, const struct figopts *o);
/* capture-compare takes the option pass: bwd (else the forward calls). */
void capture_table_compare(struct dtable *T, const struct rdata *rd, const struct figopts *o);
/* PASS_BWD when o asks for the backward calls, else PASS_FWD. */
enum pass capture_compare_pass(const struct figopts *o);
void capture_table_missing(struct dtable *T, const struct rdata *rd, const struct figopts *o);

#endif
