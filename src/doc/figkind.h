/* figkind.h: figure and table kinds as data, apart from drawing.
 *
 * What a document model needs to know of a figure or a table without
 * Cairo: its name, what it needs in the results, its preferred shape, and
 * (tables) its cells.  Drawing: doc/figure.h (each kind's entry points)
 * and render/figure_draw.h.
 */
#ifndef ATTNPROF_DOC_FIGKIND_H
#define ATTNPROF_DOC_FIGKIND_H

#include <stddef.h>

#include "doc/data.h"
#include "doc/geom.h"

struct rctx; /* draw.h */
struct figdesc; /* figdesc.h */
struct glossary; /* glossary.h */

enum fig_needs {
	NEEDS_NOTHING = 0,
	NEEDS_PREFILL = 1,
	NEEDS_DECODE = 2,
	NEEDS_LADDER = 4,   /* an intermediate rung of the flash ablation ladder */
	NEEDS_METRICS = 8,  /* hardware counters (drawn as a notice when missing) */
	NEEDS_CAPTURE = 16, /* calls captured in another program (attnprof record -- CMD) */
};

struct figopts {
	char variant[SERIES_KEY];  /* "" = the kind's default */
	char compare[SERIES_KEY];  /* "" = the kind's default */
	struct rsel sel;           /* conditions; unset fields take rd->focus */
	int standalone;            /* draw the title (figure command, --figures-dir) */
	int step;                  /* build step of a teaching figure (0: all of it) */
	struct numerals *numerals; /* patent: the document's numerals, so a figure file matches its sheet (NULL: its own) */
	const struct glossary *glossary; /* the document's abbreviations (NULL: the built-in) */
};
void figopts_init(struct figopts *o);

struct figkind {
	const char *name;
	const char *about;         /* for --help and the docs */
	double ratio;              /* preferred height / width */
	unsigned needs;
	/* Title of this figure, for captions and the brief description (doc/figtitle.c, every build). */
	void (*title)(const struct rdata *rd, const struct figopts *o, char *buf, size_t len);
	/* NULL in a build without the renderer */
	void (*draw)(struct rctx *c, const struct rdata *rd, const struct figopts *o, struct rbox box);
	/* Its description (doc/figdesc.h, every build): the records and values
	 * it draws; NULL where the kind draws without one yet.  0, or -1. */
	int (*build)(const struct rdata *rd, const struct figopts *o, struct figdesc *d);
	/* NULL, or: nonzero when the figure draws less than its records hold,
	 * with why in words (appended to the title, warned on stderr) */
	int (*cut)(const struct rdata *rd, const struct figopts *o, char *why, size_t len);
};

extern const struct figkind figure_kinds[];
extern const size_t figure_kind_count;
const struct figkind *figkind_find(const char *name);
/* The kind whose name is nearest to name (a did-you-mean), or NULL. */
const char *figkind_nearest(const char *name);
/* 1 if the results hold the records the kind needs (else why says what is missing). */
int figkind_available(const struct figkind *k, const struct rdata *rd, char *why, size_t len);
/* Which records exist: NEEDS_* bits. */
unsigned rdata_has(const struct rdata *rd);

/* The effective conditions: o->sel with unset fields from the focus. */
void fig_sel(const struct rdata *rd, const struct figopts *o, struct rsel *s);
/* The step-by-step figure's selection: fig_sel at a non-causal pass (the
 * loop of every step; a causal pass skips some). */
void fig_steps_sel(const struct rdata *rd, const struct figopts *o, struct rsel *s);
/* Its series (given, else def, into key) and that series' record at
 * fig_steps_sel, or NULL when it was not measured there. */
const struct record *fig_steps_record(const struct rdata *rd, const struct figopts *o, const char *given,
				      const char *def, char *key);
/* A figure's title: head, then the conditions of fig_sel in parentheses. */
void fig_sel_title(const struct rdata *rd, const struct figopts *o, const char *head, char *buf, size_t len);
/* The shape a figure draws a variant at where no record was measured: sel's
 * N, d and mask (else N = 4096, d = 128, non-causal), the batch given, 16 heads,
 * an fp16 forward prefill. */
struct attn_shape fig_typical_shape(const struct rsel *sel, int batch);
/* The rows of a counter figure (memory workload, warp states): the records
 * at the options' conditions that carry metric, per pass (the options' pass,
 * else every pass in order), at most max.  label[i] is the series label with
 * the pass after it unless it is the forward ("flash2 bwd"); pass[i] its pass.
 * label NULL: how many rows there are, at any count (a figure's cut). */
#define COUNTER_LABEL 80
#define COUNTER_ROWS_MAX 32 /* max is clamped to it */
size_t fig_counter_rows(const struct rdata *rd, const struct figopts *o, const char *metric, size_t max,
			char label[][COUNTER_LABEL], enum pass *pass, const struct record **recs);
/* Prefill records of the options' pass and shape family, any N, d or mask:
 * what a chart or table over N draws from (B, H, B·N, H·d as the options
 * give them, else the focus's family). */
void fig_prefill_sel(const struct rdata *rd, const struct figopts *o, struct rsel *s);
/* Decode records of one batch (the options' or the smallest measured) and
 * one KV-head count (the options' or the most measured: multi-head). */
void fig_decode_sel(const struct rdata *rd, const struct figopts *o, struct rsel *s);
/* The variant (or compare) of the options, or def; resolved to a key. */
const char *fig_series(const struct rdata *rd, const char *given, const char *def, char *key);
/* The two series a comparing figure draws: the options' variant, else the
 * role first's descriptor, into a; the options' compare, else the subject, into b. */
void fig_pair(const struct rdata *rd, const struct figopts *o, enum doc_role first, char *a, char *b);

/* The ablation ladder (ablation.c): the conditions it is drawn at (the
 * focus, else the first shape a rung was measured at), its rungs in ladder
 * order then the single changes, and the counters that evidence a step. */
struct rung {
	const struct variant_desc *v;
	const struct record *r;
	const struct record *prev;   /* the rung it is compared with (NULL: the base) */
	const char *change;          /* what it adds to prev (its descriptor's change), or NULL */
	int ladder;                  /* 1: on the ladder; 0: a single change on the base */
	int base, top;               /* the ladder's first and last rung */
};
/* The rungs of a ladder, and its single changes, that a figure or table
 * draws at most: every ladder of kernels/variants.c fits (test_figdesc's
 * test_ladders_fit), so none is cut. */
#define ABLATION_MAX_RUNGS 8
/* The ladder a figure or table draws: the options' variant when it tops one
 * (variant: hopper+overlap), else the first in the descriptor table (flash2's). */
const struct variant_desc *ablation_top(const struct figopts *o);
/* The name of that ladder's base rung ("flash1"). */
const char *ablation_base(const struct figopts *o);
void ablation_sel(const struct rdata *rd, const struct figopts *o, struct rsel *s);
/* Every rung comes from one run (file): the one that measured most rungs. */
size_t ablation_rungs(const struct rdata *rd, const struct figopts *o, const struct rsel *s, struct rung *out,
		      size_t max);
int ablation_run(const struct rdata *rd, const struct figopts *o, const struct rsel *s);
/* Two lines of "metric before → after" for the step into g (either may be
 * empty): the quantities g's descriptor names as its evidence.  0, or -1
 * (both lines empty) when one of them is not a quantity. */
int ablation_evidence(const struct rdata *rd, const struct rung *g, char *l1, size_t n1, char *l2, size_t n2);
/* 0 when every evidence quantity of v's descriptor is a quantity
 * (quantity_find); -1 with why naming the variant and the quantity.  A
 * document is not built while a descriptor fails it (docmodel_build). */
int ablation_evidence_check(const struct variant_desc *v, char *why, size_t len);

/* Tables: built into owned data here (tabledata.c), laid out and drawn by
 * tables.c.  A table is rows of text cells; numbers are right-aligned.
 * A kind is its index in table_kinds (table_find). */
struct dtable;
struct table_info {
	const char *name, *about;
	const char *title; /* the caption's first sentence, without its full stop */
	/* fills T (calloc'd, kind set) from the results under o's conditions */
	void (*build)(struct dtable *T, const struct rdata *rd, const struct figopts *o);
};
extern const struct table_info table_kinds[];
extern const size_t table_kind_count;
/* The kind called name, or -1. */
int table_find(const char *name);
/* The kind whose name is nearest to name (a did-you-mean), or NULL. */
const char *table_nearest(const char *name);
/* The caption's first sentence of a table of kind: the one its builder named for T (the
 * ablation: its ladder and shape) where T has one, else the kind's. */
void table_title(const struct rdata *rd, int kind, const struct dtable *T, char *buf, size_t len);

#define TCOLS 12
#define TROWS 200
#define TCELL 240
struct dtable {
	int kind;
	int ncols, nrows;
	char head[TCOLS][48];
	int right[TCOLS];               /* right-aligned (numbers): never wrapped */
	char cell[TROWS][TCOLS][TCELL];
	int bad[TROWS];                 /* row flagged (failure) */
	/* the records a row's numbers are of, where its builder names them
	 * (ablation: the rung, the rung its step compares with); NULL: not named.
	 * A sentence quoting a cell claims these records (doc/claim.h). */
	const struct record *rec[TROWS][2];
	/* provenance for the linter (layrec.h "cell"): the template quantity a column
	 * shows (qty, its argument qarg; NULL: none, table_quantity_col), and, filled by
	 * table_build for the rows whose rec[row][0] is named, whether that record has it
	 * (meas: 1 yes, -1 not measured, 0 not a quantity cell) and the record's key */
	const char *qty[TCOLS], *qarg[TCOLS];
	signed char meas[TROWS][TCOLS];
	char rowkey[TROWS][224];
	char title[160];                /* the caption's first sentence, where the builder names it */
	char note[1400];                /* under the table */
	int rows_cut;                   /* a builder had more than TROWS rows: table_build says so */
};
/* Column col of T shows the template quantity q (argument arg or NULL) of each row's record. */
void table_quantity_col(struct dtable *T, int col, const char *q, const char *arg);
/* The decode-paged table's builder (table_decode.c). */
void build_decode_paged(struct dtable *T, const struct rdata *rd, const struct figopts *o);
/* A timed record whose median is well above its fastest launch (the spread table's rows). */
int record_spread_flagged(const struct record *r);
/* The table of kind under o's conditions (NULL: out of memory, message printed). */
struct dtable *table_build(const struct rdata *rd, int kind, const struct figopts *o);
void table_free(struct dtable *t);

#endif
