/* figdesc.h: a figure as data (issue 46 item 1).
 *
 * A builder (figdesc.c, one per family of figure kinds) selects a
 * figure's records and computes every value, label and notice it draws
 * into a description; src/render draws descriptions and never selects a
 * record itself.  Every value carries the record it came from (its
 * problem identity record_key(rec), its results file rdata_record_file),
 * so the trace (report --trace-records: "figure" lines, figdesc_trace),
 * the determinism test and the HTML and Markdown writers read a figure's
 * numbers without Cairo.  No Cairo here; every build has it.
 *
 * A description is panels of categories (the x values: N, KV lengths, or
 * one row per record), series (a variant, a reference, or a quantity of a
 * category's record) and a point per (panel, series, category).  The
 * families so far:
 *
 *   series over N  (tflops, hbm, memory, decode)  panels per (d, causal),
 *                  categories N, series the variants, points the
 *                  quantity with whiskers and the model's value
 *   category bars  (smem, occupancy)              one panel, a category per
 *                  variant at the focus, a series per counter
 *   counter rows   (memory-workload, warp-states) one panel, a row per
 *                  record carrying the counter set, a series per quantity
 *   marks          (roofline)                     free points: a kernel's
 *                  TFLOP/s against its intensity at DRAM, L2, shared memory
 *   ladder rungs   (ladder)                       one panel, a category per
 *                  rung of one run, series TFLOP/s and the step
 */
#ifndef ATTNPROF_DOC_FIGDESC_H
#define ATTNPROF_DOC_FIGDESC_H

#include <stddef.h>

#include "doc/data.h"
#include "doc/figkind.h"
#include "util/error.h"

#define FD_PANELS 16
#define FD_SERIES 48
#define FD_CATS 32
#define FD_LABEL 80
#define FD_BAR_CATS 24 /* a bar chart's categories at most (render/chart.h PANEL_MAX_CATS) */
/* The largest value a chart scales to.  A quantity past it (a results
 * file's 1e308 TFLOP/s, an inf) makes no geometry: it is left out of the
 * axis and drawn as "off scale" (chart loops are sized by the axis). */
#define PLOT_MAX 1e12
/* 1 for a value a chart can place: finite, within PLOT_MAX. */
int on_scale(double v);

enum figpt_state {
	FP_NONE = 0,   /* no record at this category (nothing drawn) */
	FP_VALUE,      /* a value, v */
	FP_MISSING,    /* a record without the value (a failed run, no counter): marked, no value */
};

struct figpoint {
	enum figpt_state state;
	double v;               /* the value (NAN unless FP_VALUE) */
	int whisker;            /* 1: lo, hi are the value at the slowest and the fastest launch */
	double lo, hi;
	int has_model;          /* 1: model is the model's value for the same record */
	double model;
	int wrong;              /* the record was checked against fp64 and failed */
	int within_spread;      /* a step: within the run-to-run spread of its two records */
	const struct record *rec; /* the record it came from (NULL: FP_NONE) */
	const struct record *base; /* a ratio's other record (diff: the base run's), NULL none */
};

/* A free point (a roofline's): a kernel's or a call's FLOP rate against
 * its arithmetic intensity at each memory level. */
enum { FD_DRAM, FD_L2, FD_SMEM, FD_LEVELS };
#define FD_MARKS 2048
struct figmark {
	double x[FD_LEVELS];    /* FLOP per byte of DRAM, L2, shared memory (NAN: not measured) */
	double y;               /* TFLOP/s */
	size_t series;          /* its series (index into series) */
	int longest;            /* the call's longest tensor-core kernel (or the call itself) */
	int model_x;            /* intensity from the no-cache model's bytes bytes (no counters) */
	enum tensor_path path;  /* the kernel's tensor-core path (PATH_NONE: the call) */
	int fp32;               /* an FP32 (FFMA) GEMM of a captured call (its family rule: a
				 * GEMM of 4-byte scores): the FP32 roof is its ceiling */
	const struct record *rec;
};
/* The ceilings a roofline draws at most: the GEMM, mma.sync and FP32
 * roofs, the copy, read-only stream, L2 and shared-memory slopes, the
 * data sheet's HBM. */
#define FD_ROOF_CEILINGS 8

struct figseries {
	char key[SERIES_KEY];   /* series key ("flash2", "pytorch-sdpa:FLASH_ATTENTION") or quantity */
	char label[FD_LABEL];   /* as the legend names it */
	char arg[64];           /* the quantity's argument (a stall reason), "" none */
	int drawn;              /* 1: a point of it has a value (the legend lists it) */
	int capture_look;       /* a captured implementation: 1 + its look in the capture figures; 0 none */
	char generic[FD_LABEL]; /* what a patent sheet's numeral names it ("" none) */
};

/* What a category carries beyond its number and label (ablation's rungs):
 * its series key and the lines of text beside it. */
struct figcatx {
	char key[SERIES_KEY];
	char note[2][300];
};

struct figpanel {
	char title[96], xlabel[64], ylabel[64];
	char quantity[32];      /* what a point's v is ("tflops", "hbm_bytes", "time_us"); "": the series' key */
	char model_quantity[32];/* what its model is, "" none */
	int spread;             /* whiskers: 1 for a value per time, 2 for a time, 0 none */
	char notice[64], notice_why[200]; /* what it shows when it has no value ("" none) */
	char total_label[FD_LABEL]; /* a total row's name ("= flash2 (total)"), "" none */
	char group_label[FD_LABEL]; /* the heading of a second group of categories, "" none */
	double ref;             /* > 0: a reference line at this value (a bandwidth), labelled ref_label */
	char ref_label[64];
	struct rsel sel;        /* the conditions of its points (n: any) */
	size_t ncat;
	int cat[FD_CATS];       /* a category's number (N, KV length; a row's pass), -1 none */
	char catlabel[FD_CATS][FD_LABEL]; /* a row's or a bar group's label ("" for numbers) */
	char catnote[FD_CATS][40]; /* drawn in a bar group's place where its counters cannot
				    * measure it ("not visible to these counters"), "" none */
	double lo, hi;          /* the smallest and largest value, model value and ref on scale
				 * (the smallest above 0 for category bars); lo 1e300, hi 0: none */
};

/* A diagram's part (boxes, arrows, labels): a text it draws and, where
 * the text states a number, that number and the record it came from.
 * The renderer finds a part by its role and draws its text (fitting it
 * to its box, never changing a number). */
struct figitem {
	char role[24];          /* where it is drawn ("hbm", "chip", "read", "rule", ...) */
	char name[32];          /* what it is: a buffer ("S") or the quantity of v ("dram_read_bytes") */
	char state[16];         /* a buffer's verdict ("stored", "not stored", "input", "output",
				 * "small", "unknown"), "" none */
	char text[640];         /* the text as drawn ("" none: a number the trace carries, drawn in
				 * another part's text) */
	char label[64];         /* its name as drawn beside the text ("" none) */
	char alt[2][160];       /* shorter texts where the full one does not fit ("" none) */
	char what[128];         /* what a numeral's lead line names it ("" none) */
	int group;              /* which drawing of the figure (dataflow-compare: 0, 1) */
	double v;               /* its number (NAN: none) */
	const struct record *rec; /* the record of v (NULL: no record) */
};

/* A drawn cell of a grid of tile pairs (a causal pass's): the pairs of
 * Q blocks i0..i1-1 and K/V blocks j0..j1-1 (past CAUSAL_DRAW_MAX a side
 * a cell stands for several), computed in full or on the diagonal
 * (masked); skipped pairs have no cell. */
enum { FD_CELL_FULL, FD_CELL_MASKED };
struct figcell {
	long i0, i1, j0, j1;
	int fate;
};

/* A timeline's bar (ws-timeline, patent-timeline: a warp-specialised
 * loop, doc/wsched.h): what one unit or role does from t0 to t1, in the
 * schedule's schematic lengths (no record: the implemented schedule, not a
 * measured trace).  lane FD_LANE_TMA the TMA unit (loads), FD_LANE_TENSOR
 * the tensor cores (GEMMs), FD_LANE_CONSUMER + i consumer warpgroup i (its
 * softmax, and its waits: wait 1); a wait of the producer is not kept. */
enum { FD_LANE_TMA, FD_LANE_TENSOR, FD_LANE_CONSUMER };
struct figspan {
	int group;              /* which timeline (a rung's: the figure's group) */
	int lane;
	int op;                 /* enum sched_op (variants.h) */
	int who;                /* WS_PRODUCER (-1), consumer 0, 1 … */
	int block, phase;       /* the key block, the consumer phase (-1 the producer's) */
	int wait;               /* 1: a stall of its role (drawn hatched or dashed), 0 work */
	double t0, t1;
	char label[16];         /* "K₀", "QK₁", "PV₂", "P₃" ("" none: a wait) */
};
/* What waits on what, in the middle phase a timeline draws: at t the role
 * of lane to_lane went on once lane from_lane signalled (turn 1: the other
 * consumer handed the turn over through a named barrier; 0: the Q·Kᵀ a
 * softmax waited for, wait_group 1). */
struct figlink {
	int group;
	int from_lane, to_lane;
	int turn;
	double t;
};

struct figdesc {
	const char *kind;       /* the figure kind's name */
	char model_label[FD_LABEL]; /* what the model's line is, "" none */
	int any_model;          /* a drawn record has a model value (the legend lists model_label) */
	size_t nseries, npanels;
	struct figseries series[FD_SERIES];
	struct figpanel panel[FD_PANELS];
	struct figpoint *pt;    /* [panel][series][category]: figdesc_at */
	size_t ncat_max;        /* categories per panel in pt */
	struct figcatx *catx;   /* per category of panel 0, or NULL */
	struct figmark *mark;   /* free points (roofline), nmarks of them */
	size_t nmarks;
	const struct record **used; /* the records drawn: the caption's conditions */
	size_t nused, capused;
	char notice[96], notice_why[400]; /* "": none; else what the figure shows instead */
	char cond[300];         /* its conditions line, where the figure writes its own ("" none) */
	int one_run;            /* every point from one run (file), as the ablation ladder draws
				 * it, not each identity's newest record */
	int whisker_runs;       /* whiskers are the run-to-run spread (rdata_runs), not the launches' */
	struct figitem *item;   /* a diagram's parts (figdesc_item), nitems of them */
	size_t nitems, capitems;
	int group;              /* the group figdesc_item gives a new part */
	struct figcell *cell;   /* a grid of tile pairs' drawn cells, ncells of them */
	size_t ncells;
	struct figspan *span;   /* a timeline's bars (figdesc_ws_spans), nspans of them */
	size_t nspans, capspans;
	struct figlink *link;   /* its arrows, nlinks of them */
	size_t nlinks, caplinks;
};

void figdesc_init(struct figdesc *d, const char *kind);
void figdesc_release(struct figdesc *d);
/* The point of series s at category i of panel p (NULL: out of range). */
struct figpoint *figdesc_at(const struct figdesc *d, size_t p, size_t s, size_t i);

/* The look (style_series index) of series key in every figure of every
 * document: attnprof's variants by their descriptor's colour slot or
 * table place, references (grey, dashed; the second dark grey, hatched)
 * by the order their records first appear in rd (NULL: the first's),
 * never by what else a figure shows. */
int series_look_index(const struct rdata *rd, const char *key);

/* Add a diagram part: role, name, its number v (NAN none) with the record
 * it came from, its text from fmt.  NULL out of memory. */
struct figitem *figdesc_item(struct figdesc *d, const char *role, const char *name, const struct record *rec,
			     double v, const char *fmt, ...) ATTNPROF_PRINTF(6, 7);
/* The n-th part of d in role (0 first), or NULL. */
const struct figitem *figdesc_part(const struct figdesc *d, const char *role, size_t n);
/* Its text, "" when d has no such part. */
const char *figdesc_text(const struct figdesc *d, const char *role, size_t n);
/* The n-th part in role of group g, or NULL. */
const struct figitem *figdesc_part_of(const struct figdesc *d, int g, const char *role, size_t n);

/* The v of the "size" part called name in group g, 0 where there is none. */
double figdesc_size(const struct figdesc *d, int g, const char *name);

/* The builders: 0, or -1 out of memory.  Figure kinds name theirs in
 * figure_kinds[] (figkind.build). */
int figdesc_tflops(const struct rdata *rd, const struct figopts *o, struct figdesc *d);
int figdesc_hbm(const struct rdata *rd, const struct figopts *o, struct figdesc *d);
int figdesc_memory(const struct rdata *rd, const struct figopts *o, struct figdesc *d);
/* decode: panel 0 the time per step (µs), panel 1 the bandwidth (GB/s) */
int figdesc_decode(const struct rdata *rd, const struct figopts *o, struct figdesc *d);
/* decode-bandwidth, patent-decode: one panel at fig_decode_sel, a
 * category per KV length, a series per decode series (generic: its part
 * on a patent sheet), points the bandwidth with the launches' spread, ref
 * the measured copy bandwidth (ref_label its text; 0 when not measured) */
int figdesc_decode_bandwidth(const struct rdata *rd, const struct figopts *o, struct figdesc *d);
int figdesc_smem(const struct rdata *rd, const struct figopts *o, struct figdesc *d);
int figdesc_occupancy(const struct rdata *rd, const struct figopts *o, struct figdesc *d);
/* memory-workload: a series per figdesc_workload_q (bytes and hit rate of
 * L1/TEX, of L2, DRAM bytes, then shared wavefronts, dQ's L2 reduction,
 * DRAM read, DRAM write, the no-cache model's bytes) */
#define FD_WORKLOAD_Q 10
extern const char *const figdesc_workload_q[FD_WORKLOAD_Q];
int figdesc_workload(const struct rdata *rd, const struct figopts *o, struct figdesc *d);
/* warp-states: a series per metric_stall_reasons entry (stall_pct.<reason>) */
int figdesc_stalls(const struct rdata *rd, const struct figopts *o, struct figdesc *d);
/* Their cuts (figkind.cut): more than FD_COUNTER_ROWS kernels with the counters. */
int figdesc_workload_cut(const struct rdata *rd, const struct figopts *o, char *why, size_t len);
int figdesc_stalls_cut(const struct rdata *rd, const struct figopts *o, char *why, size_t len);

/* ladder: the rungs of the ablation ladder at ablation_sel (a category
 * each, cat = its place, catlabel "flash1", "+ change", "+ change = top"),
 * series 0 their TFLOP/s (whiskers: the slowest and fastest run's),
 * series 1 the step (the time of the rung before ÷ this one's, with
 * within_spread); panel hi the largest TFLOP/s with its whisker. */
int figdesc_ladder(const struct rdata *rd, const struct figopts *o, struct figdesc *d);

/* ladder-n: the ladder of the options' variant (ablation_top) over N as
 * the FA3 paper draws it: per (d, causal) at which its top rung was
 * measured two panels, 2m TFLOP/s (whiskers: the launches') and 2m + 1
 * TFLOP/s per GHz of each record's probed SM clock (run_tflops_per_ghz;
 * FP_MISSING where none was probed), a category per N, a series per rung
 * in ladder order; at each N every rung from one run (ablation_rungs). */
int figdesc_ladder_n(const struct rdata *rd, const struct figopts *o, struct figdesc *d);
/* Its cut (figkind.cut): records without a probed clock, left out of the per-GHz panels. */
int figdesc_ladder_n_cut(const struct rdata *rd, const struct figopts *o, char *why, size_t len);

/* roofline: a mark per tensor-core kernel of each call at fig_sel (any N
 * unless the options fix one), the call itself where it has no kernel
 * counters; series the main series, then captured implementations. */
int figdesc_roofline(const struct rdata *rd, const struct figopts *o, struct figdesc *d);
/* Its cut (figkind.cut): more series than it draws (FD_ROOF_SERIES). */
#define FD_ROOF_SERIES 16
int figdesc_roofline_cut(const struct rdata *rd, const struct figopts *o, char *why, size_t len);

/* ablation: a category per rung (ablation_rungs: the ladder, cat 1, then
 * the single changes, cat 0), catlabel its row's name, catx its variant
 * and its evidence lines; series 0 its TFLOP/s (whiskers: the runs'
 * spread), series 1 the TFLOP/s of the rung it steps from (base: that
 * record); panel lo, hi the smallest (with whiskers) and largest TFLOP/s,
 * total_label the total row's name where the ladder's ends are measured,
 * group_label the single changes' heading; cond the conditions line. */
int figdesc_ablation(const struct rdata *rd, const struct figopts *o, struct figdesc *d);

/* diff: a category per identity two files both recorded (the largest
 * changes first when more than FD_DIFF_ROWS, drawn by ratio), series 0 the
 * newer file's median time over the older's (rec the newer record, base
 * the older) with the whisker of both records' launch spread. */
#define FD_DIFF_ROWS 24
int figdesc_diff(const struct rdata *rd, const struct figopts *o, struct figdesc *d);

/* The diagram kinds (figdiagram.c): parts (figdesc_item), no points.
 *
 * capture-dataflow: of the group capture_figure_group picks, its last
 * call: "header" (impl, call kind, calls, kernels; v the calls), seven
 * "hbm" rows (Q, K, V, S or dS, P or dP, O or dQ, L: v the bytes, state
 * the verdict, record_verdict_of), "chip-kernel" (the longest kernel's
 * short name), "chip" lines (what happened to S and P; verdict_matrices,
 * the count those states come from; the family), "read", "write" (DRAM
 * bytes), "l2" (L2 write bytes) and "rule" (v the bytes a stored matrix
 * must reach); cond its conditions. */
int figdesc_capdataflow(const struct rdata *rd, const struct figopts *o, struct figdesc *d);
/* dataflow (one group), dataflow-compare (groups 0 and 1: the
 * conventional and the subject): per group "name", "summary" (the
 * descriptor's), an "hbm" row per matrix of the story then per extra
 * buffer (label, state "stored" or "not stored", v its bytes at the
 * record's shape; text and alt the full and shorter descriptions; what
 * its numeral's), "alloc" (v the bytes the record allocated for it, no
 * text), "kernel" lines (a library variant: alt[0] the name only) or
 * "tile" parts (state "shared" or "registers", alt the shorter texts,
 * what its numeral's), "read", "write" (the record's DRAM bytes), "model"
 * (its no-cache model's bytes), "launch" lines per kernel (v the DRAM read,
 * "launch-write" the written, no text), "norecord" where no record is at
 * these conditions; group 0 "footer" (its text; "saved", "footprint" and
 * "run_peak_bytes" parts carry its numbers); used the records drawn. */
int figdesc_dataflow(const struct rdata *rd, const struct figopts *o, struct figdesc *d);
int figdesc_dataflow_compare(const struct rdata *rd, const struct figopts *o, struct figdesc *d);

/* partition-bwd: the K/V-parallel backward of the subject at pass bwd:
 * "grid" (its text; v the thread blocks, the record's where launched),
 * "size" parts (grid_x, Br, Bc, d; the warp tiles sr × sc of Br, kr × kc
 * of Bc), "sub" the three products' captions, "acc" dQ's accumulator,
 * "kernel" the pass's kernels (state "main" the main one); "nolayout"
 * where the tiles do not split into warp slices. */
int figdesc_partition_bwd(const struct rdata *rd, const struct figopts *o, struct figdesc *d);

/* partition-grid: a group per series drawn (the baseline, then the
 * subject where it differs; a series without a descriptor or a wave plan
 * is left out): "title" (the name and the descriptor's grid text), two
 * "axis" parts (grid_x, grid_y: what blockIdx.x, .y index and v their
 * blocks), "blocks" (v the thread blocks), "waves" (the waves over the
 * GPU's SMs, v the exact count), "size" parts sm, per_sm (with blocks the
 * wave plan's inputs), a "wave" part per row drawn (v the wave, 1 first; NAN
 * the elided full waves) and "idle" (v the SMs idle in the last wave,
 * none when all are busy).  Numbers of a launch carry its record.
 * partition-warps: a group per series (the subject's where it differs):
 * "nodesc" (label its notice) where it has no descriptor, else "title"
 * (state the split: split-K, split-Q, rows, library), "foot" (the
 * measured shared-memory traffic, "smem" parts its numbers, or why not),
 * "library" where the kernels choose their own layout, else four "tile"
 * parts (Q_i, K_j, S_ij, O_i: v the warp slices, what its numeral's),
 * "size" warps, Br, Bc, d, "q-note", "kv-note", then split-K's
 * "reduction" (v its shared-memory bytes, alt the shorter texts) or
 * split-Q's "note". */
int figdesc_partition_grid(const struct rdata *rd, const struct figopts *o, struct figdesc *d);
int figdesc_partition_warps(const struct rdata *rd, const struct figopts *o, struct figdesc *d);

/* What a patent view of one variant draws: the document's subject, or
 * the block's variant:, with its record at the view's conditions (NULL:
 * none, and then a typical shape at those conditions) and its tiling
 * there.  patent_view: the variant (NULL: it has no descriptor), *pv filled. */
struct pview {
	const struct record *r;
	struct attn_shape s;
	struct tiling t;
};
const struct variant_desc *patent_view(const struct rdata *rd, const struct figopts *o, struct pview *pv);

/* patent-grid: the view's grid (the conventional variant's second
 * kernel's, the record's launch where it has one): "axis" grid_x, grid_y,
 * "blocks", "waves" (the exact count) as partition-grid's, no text; "size"
 * sm, per_sm; a "wave" part per row drawn (v the wave, 1 first; NAN the
 * elided ones: all of up to four, else the first and the last).
 * patent-capture-grid: the same of the captured call capture-dataflow
 * draws (capture_main_launch of its call, that call its record).
 * patent-warps: "split" (state split-K or split-Q, v the warps); the
 * notice where the warps split neither. */
int figdesc_patent_grid(const struct rdata *rd, const struct figopts *o, struct figdesc *d);
int figdesc_patent_capture_grid(const struct rdata *rd, const struct figopts *o, struct figdesc *d);
int figdesc_patent_warps(const struct rdata *rd, const struct figopts *o, struct figdesc *d);

/* patent-causal: the subject's tile pairs at a causal mask: "size" rows,
 * cols (its Q and K/V blocks), full, masked, skipped (the pairs of each
 * fate), step (a drawn cell's pairs a side), the cells drawn (cell); the
 * notice where the variant has no tiling.
 * causal-blocks: the same (the view of the teaching figures) with "size"
 * Nq, Nkv, Br, Bc, "head" (the pairs), "cellnote" where a cell stands for
 * several pairs, three "fate" rows (state full, masked, skipped; v the
 * pairs), two "measured" lines (v the causal and the unmasked record's
 * time in µs) or "unmeasured"; used the causal record, then the other. */
int figdesc_patent_causal(const struct rdata *rd, const struct figopts *o, struct figdesc *d);
int figdesc_causal_blocks(const struct rdata *rd, const struct figopts *o, struct figdesc *d);
/* warp-split: groups 0 and 1 the pair's variants (fig_pair): "title"
 * (state split-K or split-Q), "size" warps, "foot" (the measured
 * shared-memory store wavefronts, v with the record, or "not measured"),
 * "holds" (what a warp holds); the notice where either splits neither. */
int figdesc_warp_split(const struct rdata *rd, const struct figopts *o, struct figdesc *d);
/* capture-kernels: a group per kind of call drawn (capture_kinds, used
 * their records, cond their conditions): "head" (v the kernel time, ns),
 * "nodur" where no durations were recorded, else a "kernel" part per
 * launch in launch order (text its short name, label its number, alt[0]
 * the line's tail; v its time), "longest" parts (v a launch's index, the
 * longest first, FD_KERNEL_LINES at most) and FD_KERNEL_LINES + 1 "rest"
 * parts: "rest" k sums the kernels not among the first k longest. */
#define FD_KERNEL_LINES 9
int figdesc_capture_kernels(const struct rdata *rd, const struct figopts *o, struct figdesc *d);
/* capture-grid: a group per kind of call as capture-kernels': "head" (kind,
 * shape and main kernel), "sent" (how its grid maps onto the shape, state
 * "inferred" where it does), "rule", "more" (what the figure says when no
 * room is left for this kind and those after), and where a kernel was
 * recorded "waves" (its blocks and resident blocks per SM; v the waves,
 * its record), "size" bars (drawn, at most 12) and last (the last wave's
 * busy share, 0 full), "tail" (the text after the bars). */
int figdesc_capture_grid(const struct rdata *rd, const struct figopts *o, struct figdesc *d);
struct capimpl;
struct capgroup;
/* The kinds of call a capture figure draws: one group per (phase, pass)
 * of im at the options' N (else the focus'), decode last; how many (≤ 4). */
int capture_kinds(const struct rdata *rd, const struct capimpl *im, const struct figopts *o, const struct capgroup **out);

/* loop-steps: groups 0 and 1 the variants (fig_steps_record; used their
 * records): "key" (the series key), "head" and "brief" (the row's line,
 * long and short; v the thread blocks), a "buffer" part per descriptor
 * buffer (text its HBM label, label its tile's on chip, state input,
 * output — the output and its accumulator share a cell — or other), the
 * steps drawn at three panels ("step3") and at four ("step4": v the
 * 0-based step, text its title, alt[0] its tiles' bytes, label a digit
 * per buffer, its FD_STEP_READ | FD_STEP_WRITE bits), three "bytes" parts
 * (tiles_per_step, hbm_per_step, l2_per_step: text the bar's label,
 * alt[0] its value, v the bytes or -1 not measured) and "line" (the
 * short form); the notice where either has no loop to draw. */
enum { FD_STEP_READ = 1, FD_STEP_WRITE = 2 };
int figdesc_loop_steps(const struct rdata *rd, const struct figopts *o, struct figdesc *d);

/* online-softmax: the worked example (osm_teaching_example, no record):
 * seven "head" parts, a row of seven "cell" parts per block (group 1…:
 * block, scores, m, alpha, l, acc, o; v the number, state "moved" where
 * the max moved), "result" (v the online result) and "check" (v the
 * difference from the direct softmax). */
int figdesc_online_softmax(const struct rdata *rd, const struct figopts *o, struct figdesc *d);

/* hierarchy: from the results header alone (no record): three "level"
 * parts (label its name, state its tag, text its size and bandwidth
 * lines), "level-size" and "level-bandwidth" the numbers the header has,
 * "ratio" shared memory's bandwidth over HBM's where both were measured. */
int figdesc_hierarchy(const struct rdata *rd, const struct figopts *o, struct figdesc *d);

/* patent-capture-dataflow: of the call capture-dataflow draws, the
 * "matrix" parts down the memory (Q, K, V, then S and P or dS and dP
 * where rec->verdict_matrices stores them, "S?"/"P?" where it does not
 * decide, then O; label and what a matrix's character and part), "size"
 * kernels (its launches) and the "kernel" parts drawn (v the launch's
 * index, state "main" the longest attention kernel). */
int figdesc_pcapdataflow(const struct rdata *rd, const struct figopts *o, struct figdesc *d);

/* warpspec: the thread block of the warp-specialised variant drawn
 * (ws_variant_or_default; used its record at fig_sel, the measured launch):
 * "head" (v its threads), a "role" part per warpgroup (state producer or
 * consumer; text its first line, alt[0] its second; v its registers a
 * thread), "smem" (v the block's shared-memory bytes), "qtile" (text, alt[0];
 * v its bytes), a "stage" part per K then V stage (name K or V, v its
 * bytes), four "arrow" parts (name load, empty-wait, full-wait,
 * empty-arrive: the labels between the columns), "regs" (the register
 * file's line; v the block's registers after the split), a "regbar" part
 * per warpgroup (state producer or consumer, text its label, v its
 * registers a thread), "launch" (the measured launch's line, v its
 * registers, its record) where recorded, and "size" producers, consumers,
 * stages, warpgroup_threads, regs_producer, regs_consumer, regs_total (the
 * larger of the block's registers before and after the split): the numbers
 * a drawing of the block (patent-warpspec too) is laid out by.  The notice
 * where no variant has a ws trait.
 * ws-timeline: a group per rung drawn (the rungs of ws_ladder_top's ladder
 * with a schedule; a build step: rung step beside the one before): "head"
 * (text the rung, its change and its measurement; alt[0] without the change),
 * "measured" (v the rung's median time in µs, its record: the ablation
 * table's, one run) and "step" (v the speed-up over the rung before) where
 * measured, the spans, links, lanes and sizes of figdesc_ws_spans; group 0 "key" (name
 * document or slides: the text under the panels); used the rungs' records. */
int figdesc_warpspec(const struct rdata *rd, const struct figopts *o, struct figdesc *d);
int figdesc_ws_timeline(const struct rdata *rd, const struct figopts *o, struct figdesc *d);
/* patent-timeline: the loop of the variant warpspec draws (its own rung, at
 * its shape's head dimension): figdesc_ws_spans' parts, group 0; the
 * notice where no variant has a schedule table. */
int figdesc_ws_loop(const struct rdata *rd, const struct figopts *o, struct figdesc *d);
struct ws_timeline;
/* Add tl's bars (spans, group d->group) and the links of its middle phase
 * (tl->nblocks / 2) a timeline draws, a "lane" part per lane (its name) and
 * "size" end (the timeline's length), nblocks, lanes.  0, or -1 out of memory. */
int figdesc_ws_spans(struct figdesc *d, const struct ws_timeline *tl);
/* The span of group g doing (op, who, block), or NULL (ws_find's). */
const struct figspan *figdesc_span_find(const struct figdesc *d, int g, int op, int who, int block);

/* capture-compare: one panel, a category per prefill shape of the pass
 * (capture_compare_pass) the captured calls ran with a known shape, by N
 * (catlabel "4k"); a series per captured implementation with such calls
 * (capture_look 1 + its style slot), then attnprof's conventional and
 * subject variants (capture_look 0, label "attnprof NAME"; capture_reference
 * at each shape); points their TFLOP/s with the launches' spread; a
 * "missing" part (v the references' empty slots) where a reference has no
 * record; used the captured calls, cond their conditions; the notice where
 * no call of the pass has a known shape. */
int figdesc_capture_compare(const struct rdata *rd, const struct figopts *o, struct figdesc *d);

/* tiling: the subject's (or variant:'s) build at fig_sel (used its
 * record): "heading" hbm (and chip), "mode" (state standard: a variant
 * that stores S, or tiled); standard: six "hbm" parts Q K S P V O (text
 * the name, alt[0] its size; S and P v their bytes, the record's
 * allocation where it has one, else the descriptor's), three "kernel"
 * parts (text, alt[0]), "foot"; tiled: four "hbm" parts Q K V O, six
 * "tile" parts (Q_i, K_j, V_j, S_ij, m_l, O_i: text, alt[0] its size;
 * Q_i's alt[1] its load), "loop" (v the K/V blocks), "note" (what step v
 * adds) and "size" step, Br, Bc, d, Tc; the notice where the variant has
 * no descriptor.
 * loop-order: groups 0 and 1 the pair's variants (fig_pair; used their
 * records): "name", "size" Tr, Tc, "outer" and "inner" (the loops' lines, v
 * their blocks), "pre", "body" lines (state hbm: a round trip through HBM)
 * and "post" as the variant's loop order has them, "traffic" (v the
 * record's DRAM bytes) where measured; the notice where either has no loop. */
int figdesc_tiling(const struct rdata *rd, const struct figopts *o, struct figdesc *d);
int figdesc_loop_order(const struct rdata *rd, const struct figopts *o, struct figdesc *d);

/* The conditions line of captured records: those of known shape
 * (rdata_conditions), else the GPU and "shape unknown". */
void capture_conditions(const struct rdata *rd, const struct record *const *recs, size_t n, char *buf, size_t len);

/* The shared builders the kinds above are made of. */
struct figseries_spec {
	enum series_filter filter; /* SERIES_DECODE: one panel of fig_decode_sel's records */
	const char *quantity;      /* a point's value (figdesc.c's figure quantities) */
	const char *model;         /* its model's, or NULL */
	int spread;                /* whiskers: 1 for a value per time, 2 for a time, 0 none */
	int all_used;              /* 1: every record of the series is "used" (not only those with a value) */
	int keep_all;              /* 1: keep a series without a value in the legend */
	size_t maxcat;             /* categories per panel at most (0: FD_CATS) */
	const char *xlabel, *ylabel, *model_label;
	const char *notice, *notice_why; /* no panel or no series */
	const char *panel_notice, *panel_notice_why; /* a panel without a value */
};
/* Series over N: a panel per (d, causal) of the options' prefill records
 * (decode: the panel of fig_decode_sel), a category per N. */
int figdesc_series_over_n(const struct rdata *rd, const struct figopts *o, const struct figseries_spec *sp,
			  struct figdesc *d);
/* Category bars: the records of filter's series at fig_sel, one category
 * each, a series per quantity qs[i] (labels ql[i]). */
int figdesc_category_bars(const struct rdata *rd, const struct figopts *o, enum series_filter filter,
			  const char *const *qs, const char *const *ql, size_t nq, struct figdesc *d);
/* Counter rows: fig_counter_rows' records carrying metric (a row each,
 * cat = its pass), a series per quantity qs[i] with argument args[i]
 * (NULL or "" none). */
#define FD_COUNTER_ROWS 16
int figdesc_counter_rows(const struct rdata *rd, const struct figopts *o, const char *metric, size_t maxrows,
			 const char *const *qs, const char *const *args, size_t nq, struct figdesc *d);

/* A figure quantity of a record: run_hbm_bytes, model_hbm_bytes,
 * run_peak_bytes, run_time_us, run_gbs (figdesc.c says what each reads),
 * else rdata_quantity's (tflops, footprint, l2_bytes, stall_pct …).  0 with *v set, 1 when the record lacks it. */
int figdesc_value(const struct rdata *rd, const struct record *r, const char *q, const char *arg, double *v);
/* The spread of a value v measured as the median of r's timed launches:
 * *lo, *hi the value at the slowest and the fastest launch when v varies
 * as 1 / time (TFLOP/s, GB/s; per_time 1) or as the time (per_time 0).
 * 0, or 1 when the record has no spread (nothing to draw). */
int value_spread(const struct record *r, double v, int per_time, double *lo, double *hi);

/* For builders in other files (figpatent.c): the points' array of np
 * panels, ns series and nc categories (0, or -1 out of memory); panel p's
 * points looked up per series key and category N at its sel (its
 * quantity, spread and model, lo and hi); r added to the records drawn
 * (0, or -1). */
int figdesc_points(struct figdesc *d, size_t np, size_t ns, size_t nc);
void figdesc_fill_panel(const struct rdata *rd, struct figdesc *d, size_t p);
int figdesc_use(struct figdesc *d, const struct record *r);

/* workload-share (figworkload.c): per captured program whose header holds
 * its kernels (header.workload), a group: "head" (its command, v the GPU
 * time of the kernels kept, ms), a "phase" part per phase with kernels
 * (text its label: prefill, decode, "phase unknown", "training step" for
 * either of the two with backward kernels; state its key; v its ms; rec its first call's
 * record; label "N steps, X ms each" where it holds several training steps), FD_WS_CATS "part" parts after it (name figdesc_ws_key, state the
 * phase's key, v the category's ms; the attention ones carry the record),
 * "share" (v attention's share, 0..1), "bound" (v Amdahl's bound with
 * attention 2x faster) and "dropped" where kernels were past the list's
 * bounds; the notice where no program has the list. */
enum { WS_ATTN_FWD, WS_ATTN_BWD, WS_GEMM, WS_COMM, WS_REST, FD_WS_CATS };
#define FD_WS_PHASES 3 /* prefill (or a training step), decode, unknown */
extern const char *const figdesc_ws_key[FD_WS_CATS];
extern const char *const figdesc_ws_label[FD_WS_CATS];
struct ws_phases {
	double ms[FD_WS_PHASES][FD_WS_CATS];
	size_t kernels[FD_WS_PHASES];
	size_t steps[FD_WS_PHASES];   /* training steps: 1 + the forward attention kernels after a backward one; 0 none */
	char label[FD_WS_PHASES][24];
	const struct record *rec[FD_WS_PHASES]; /* the phase's first attention call matched, or NULL */
	double total_ms, attention_ms;
};
/* A kernel's category by its name (an attention call's: by bwd). */
int workload_category(const char *name, int attention, int bwd);
/* The phases of h's kept kernels (h one of rd->programs, its calls rd's
 * records).  0, or -1 out of memory. */
int workload_phases(const struct rdata *rd, const struct results_header *h, struct ws_phases *out);
int figdesc_workload_share(const struct rdata *rd, const struct figopts *o, struct figdesc *d);

/* Build the description of a figure of kind k at o: 1 with *d filled when
 * the kind has a builder, 0 when it has none (*d empty), -1 out of memory. */
int figdesc_build(const struct figkind *k, const struct rdata *rd, const struct figopts *o, struct figdesc *d);

/* Write every value of d to rd's trace (when it has a file), a line each
 * of seven tab-separated fields in the style of the claim lines:
 *   figure  FIG  PANEL/SERIES/CATEGORY  quantity=Q arg=A value=V lo=L hi=H model=M state=S
 *           whisker=launches|runs|- from=newest|one-run  KEY  FILE  -
 * (a ratio's KEY and FILE are "NEW|BASE"); a roofline mark's line is
 *   figure  FIG  mark/SERIES/i  quantity=mark_tflops arg=- value=V x_dram= x_l2= x_smem=
 *           longest= model_x= state=value  KEY  FILE  -
 * a diagram part's line is
 *   figure  FIG  item/ROLE/i  quantity=NAME arg=STATE value=V state=value|text  KEY  FILE  TEXT
 * (STATE with '-' for a space, "-" none; KEY and FILE "-" for a text of no record).
 * FIG is "NAME#n" (n: the figure's number in its document, 0 alone). */
void figdesc_trace(const struct rdata *rd, const struct figdesc *d, int number);

#endif
