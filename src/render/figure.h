/* figure.h: the figure kinds, as a table.
 *
 * One kind per figure a document or `attnprof figure` can draw.  A kind
 * draws into any box, in any style, from the results and the variants'
 * descriptors; it never knows which document holds it.  Kinds that need
 * records of one sort (decode, the ablation ladder) say so in `needs`, and
 * templates skip them when the results have none.
 */
#ifndef ATTNPROF_RENDER_FIGURE_H
#define ATTNPROF_RENDER_FIGURE_H

#include "render/chart.h"
#include "render/data.h"
#include "render/draw.h"

enum fig_needs {
	NEEDS_NOTHING = 0,
	NEEDS_PREFILL = 1,
	NEEDS_DECODE = 2,
	NEEDS_LADDER = 4,   /* an intermediate rung of the flash ablation ladder */
	NEEDS_METRICS = 8,  /* hardware counters (drawn as a notice when missing) */
};

struct figopts {
	char variant[SERIES_KEY];  /* "" = the kind's default */
	char compare[SERIES_KEY];  /* "" = the kind's default */
	struct rsel sel;           /* conditions; unset fields take rd->focus */
	int standalone;            /* draw the title (figure command, --figures-dir) */
	int step;                  /* build step of a teaching figure (0: all of it) */
};
void figopts_init(struct figopts *o);

struct figkind {
	const char *name;
	const char *about;         /* for --help and the docs */
	double ratio;              /* preferred height / width */
	unsigned needs;
	/* Title of this figure, for captions and the brief description. */
	void (*title)(const struct rdata *rd, const struct figopts *o, char *buf, size_t len);
	void (*draw)(struct rctx *c, const struct rdata *rd, const struct figopts *o, struct rbox box);
};

extern const struct figkind figure_kinds[];
extern const size_t figure_kind_count;
const struct figkind *figkind_find(const char *name);
/* 1 if the results hold the records the kind needs (else why says what is missing). */
int figkind_available(const struct figkind *k, const struct rdata *rd, char *why, size_t len);
/* Which records exist: NEEDS_* bits. */
unsigned rdata_has(const struct rdata *rd);

/* The effective conditions: o->sel with unset fields from the focus. */
void fig_sel(const struct rdata *rd, const struct figopts *o, struct rsel *s);
/* The variant (or compare) of the options, or def; resolved to a key. */
const char *fig_series(const struct rdata *rd, const char *given, const char *def, char *key);

/* Kinds, one file per concern. */
void fig_dataflow_title(const struct rdata *, const struct figopts *, char *, size_t);
void fig_dataflow(struct rctx *, const struct rdata *, const struct figopts *, struct rbox);
void fig_dataflow_compare_title(const struct rdata *, const struct figopts *, char *, size_t);
void fig_dataflow_compare(struct rctx *, const struct rdata *, const struct figopts *, struct rbox);
void fig_grid_title(const struct rdata *, const struct figopts *, char *, size_t);
void fig_grid(struct rctx *, const struct rdata *, const struct figopts *, struct rbox);
void fig_warps_title(const struct rdata *, const struct figopts *, char *, size_t);
void fig_warps(struct rctx *, const struct rdata *, const struct figopts *, struct rbox);
void fig_tflops_title(const struct rdata *, const struct figopts *, char *, size_t);
void fig_tflops(struct rctx *, const struct rdata *, const struct figopts *, struct rbox);
void fig_hbm_title(const struct rdata *, const struct figopts *, char *, size_t);
void fig_hbm(struct rctx *, const struct rdata *, const struct figopts *, struct rbox);
void fig_memory_title(const struct rdata *, const struct figopts *, char *, size_t);
void fig_memory(struct rctx *, const struct rdata *, const struct figopts *, struct rbox);
void fig_smem_title(const struct rdata *, const struct figopts *, char *, size_t);
void fig_smem(struct rctx *, const struct rdata *, const struct figopts *, struct rbox);
void fig_occupancy_title(const struct rdata *, const struct figopts *, char *, size_t);
void fig_occupancy(struct rctx *, const struct rdata *, const struct figopts *, struct rbox);
void fig_roofline_title(const struct rdata *, const struct figopts *, char *, size_t);
void fig_roofline(struct rctx *, const struct rdata *, const struct figopts *, struct rbox);
void fig_ablation_title(const struct rdata *, const struct figopts *, char *, size_t);
void fig_ablation(struct rctx *, const struct rdata *, const struct figopts *, struct rbox);
void fig_decode_title(const struct rdata *, const struct figopts *, char *, size_t);
void fig_decode(struct rctx *, const struct rdata *, const struct figopts *, struct rbox);
/* Teaching figures (fig_teach.c). */
void fig_tiling_title(const struct rdata *, const struct figopts *, char *, size_t);
void fig_tiling(struct rctx *, const struct rdata *, const struct figopts *, struct rbox);
void fig_softmax_title(const struct rdata *, const struct figopts *, char *, size_t);
void fig_softmax(struct rctx *, const struct rdata *, const struct figopts *, struct rbox);
void fig_looporder_title(const struct rdata *, const struct figopts *, char *, size_t);
void fig_looporder(struct rctx *, const struct rdata *, const struct figopts *, struct rbox);
void fig_warpsplit_title(const struct rdata *, const struct figopts *, char *, size_t);
void fig_warpsplit(struct rctx *, const struct rdata *, const struct figopts *, struct rbox);
void fig_causal_title(const struct rdata *, const struct figopts *, char *, size_t);
void fig_causal(struct rctx *, const struct rdata *, const struct figopts *, struct rbox);
void fig_ladder_title(const struct rdata *, const struct figopts *, char *, size_t);
void fig_ladder(struct rctx *, const struct rdata *, const struct figopts *, struct rbox);

/* The ablation ladder (fig_ablation.c): the conditions it is drawn at (the
 * focus, else the first shape a rung was measured at), its rungs in ladder
 * order then the single changes, and the counters that evidence a step. */
struct rung {
	const struct variant_desc *v;
	const struct record *r;
	const struct record *prev;   /* the rung it is compared with (NULL: the base) */
	unsigned change;             /* switch bits turned on from prev */
	int ladder;                  /* 1: on the ladder; 0: a single change on flash1 */
};
void ablation_sel(const struct rdata *rd, const struct figopts *o, struct rsel *s);
size_t ablation_rungs(const struct rdata *rd, const struct rsel *s, struct rung *out, size_t max);
const char *ablation_change_name(unsigned bit);
/* Two lines of "metric before → after" for the step into g (either may be empty). */
void ablation_evidence(const struct rdata *rd, const struct rung *g, char *l1, size_t n1, char *l2, size_t n2);

/* Tables are figure kinds too (tables.c): drawn in a box, sized by rows. */
enum table_kind { TABLE_SPEEDUP, TABLE_CONDITIONS, TABLE_CORRECTNESS, TABLE_MODEL, TABLE_MEMORY,
		  TABLE_VARIANTS, TABLE_LAUNCHES, TABLE_ABLATION, TABLE_DECODE, TABLE_COUNT };
struct table_info {
	const char *name, *about;
};
extern const struct table_info table_kinds[TABLE_COUNT];
int table_find(const char *name);
/* Height of the table at width w; draw it (when draw is set) from the box's top. */
double table_render(struct rctx *c, const struct rdata *rd, int kind, const struct figopts *o,
		    struct rbox box, int draw);
void table_title(const struct rdata *rd, int kind, char *buf, size_t len);

#endif
