/* metric_sets.h: named sets of CUPTI metrics, and the metrics as rows
 * (unit, how a call's launches combine).
 *
 * Sets are data: the built-in ones below, plus sets a spec defines under
 * `metric_sets:`.  Names are CUPTI (Perfworks) metric names, valid on GH100
 * (see ../shared/GPU-NOTES.md).  Whether the chip supports each name, and
 * how many passes a set costs, is checked by the CUPTI module before a sweep.
 */
#ifndef ATTNPROF_METRIC_SETS_H
#define ATTNPROF_METRIC_SETS_H

#include <stddef.h>

struct metric_set {
	const char *name;
	const char *about;
	const char *const *metrics;
	size_t nmetrics;
};

extern const struct metric_set metric_sets_builtin[];
extern const size_t metric_sets_builtin_count;

/* The built-in set called name, or NULL ("none" is a set with no metrics). */
const struct metric_set *metric_set_find(const char *name);

/* The built-in sets' names, comma-separated, from the table (for help and errors). */
const char *metric_set_names(void);

/* Well-known metric names, used by report, export and the model. */
#define M_DRAM_READ      "dram__bytes_read.sum"
#define M_DRAM_WRITE     "dram__bytes_write.sum"
#define M_L2_BYTES       "lts__t_bytes.sum"
#define M_L2_READ_SECT   "lts__t_sectors_op_read.sum"
#define M_L2_WRITE_SECT  "lts__t_sectors_op_write.sum"
#define M_SMEM_LD_WF     "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"
#define M_SMEM_ST_WF     "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"
#define M_SMEM_LD_CONF   "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"
#define M_SMEM_ST_CONF   "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"
#define M_LDSM           "smsp__inst_executed_op_ldsm.sum"
#define M_LDGSTS         "smsp__inst_executed_op_ldgsts.sum"
#define M_OCC_ACHIEVED   "sm__warps_active.avg.pct_of_peak_sustained_active"
#define M_TENSOR_ACTIVE  "sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active"
#define M_DURATION       "gpu__time_duration.sum"
#define M_SM_CLOCK       "sm__cycles_elapsed.avg.per_second"
/* 1 for a SASS-instrumented metric (smsp__sass_*): CUPTI 13.0 on the H200
 * read every one of them as 0 under user replay (the ablation sweep,
 * 2026-11-29) while kernel replay counts them, so they need kernel replay. */
int metric_needs_kernel_replay(const char *name);

#define M_FADD           "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum"
#define M_FMUL           "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum"
#define M_FFMA           "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum"
/* MUFU (ex2, rcp, rsqrt, …) executes on the XU pipe; GH100 counts XU warp
 * instructions, not ex2 alone. */
#define M_MUFU           "smsp__inst_executed_pipe_xu.sum"
#define M_TENSOR_INST    "smsp__inst_executed_pipe_tensor.sum"
/* GH100's range profiler has no barrier-instruction counter (the host API
 * rejects smsp__inst_executed_op_barrier*): warp-cycles stalled at a barrier
 * (BAR.SYNC) is the evidence of barriers it offers. */
#define M_BARRIERS       "smsp__warps_issue_stalled_barrier.sum"
/* warp-level instruction counts per tensor op kind: mma.sync (HMMA) vs wgmma (HGMMA) */
#define M_TENSOR_HMMA    "smsp__inst_executed_pipe_tensor_op_hmma.sum"
#define M_TENSOR_GMMA    "smsp__inst_executed_pipe_tensor_op_gmma.sum"
#define M_SMEM_GMMA_WF   "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_gmma.sum"
/* bytes the tensor memory accelerator (TMA) loads from global memory over the
 * crossbar into L1/shared: the tile loads no LSU counter sees */
#define M_SMEM_TMA_BYTES "l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld.sum"
#define M_INST_EXECUTED  "smsp__inst_executed.sum"
#define M_SMS_ACTIVE     "sm__cycles_active.avg"
/* the memory workload (issue 31): bytes and sector hit rates at L1 and L2 */
#define M_L1_BYTES       "l1tex__t_bytes.sum"
#define M_L1_HIT         "l1tex__t_sector_hit_rate.pct"
#define M_L2_HIT         "lts__t_sector_hit_rate.pct"
#define M_SMEM_WF        "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum"
/* reductions and atomics resolved in the L2 (flash2's backward adds dQ
 * there: kernels/flash_bwd.cu), counted in sectors of M_L2_SECTOR_BYTES */
#define M_L2_RED_SECT    "lts__t_sectors_op_red.sum"
#define M_L2_ATOM_SECT   "lts__t_sectors_op_atom.sum"
#define M_L2_SECTOR_BYTES 32
/* warp states: warp-cycles stalled for each reason, over warp-cycles active */
#define M_WARPS_ACTIVE   "smsp__warps_active.sum"
#define M_STALL(reason)  "smsp__warps_issue_stalled_" reason ".sum"

/* ---- metrics as rows: unit and how a call's launches combine ----------
 *
 * A record's totals (results_sum_launches) hold one value per metric for
 * all of a call's kernel launches.  How the launches' values combine is the
 * metric's aggregation: counts and bytes add up, a peak is the largest of
 * the launches', a floor the smallest, a share or a rate is the mean over
 * the launches weighted by their duration (M_DURATION).  The known metrics
 * are rows of metric_table (metric_sets.c); any other name is read by the
 * Perfworks naming convention (metric_derive). */
enum metric_agg { METRIC_SUM, METRIC_WEIGHTED_AVG, METRIC_MAX, METRIC_MIN };
enum metric_unit {
	MU_COUNT,            /* events, instructions, wavefronts */
	MU_BYTES,
	MU_SECTORS,          /* 32-byte L2 sectors (M_L2_SECTOR_BYTES) */
	MU_NS,
	MU_CYCLES,           /* cycles, or warp-cycles (smsp__warps_*) */
	MU_PCT,
	MU_RATIO,
	MU_HZ,               /* cycles per second: a clock */
	MU_BYTES_PER_SECOND,
	MU_PER_SECOND,       /* events per second */
	MU_PER_CYCLE,
};
struct metric_info {
	const char *name;     /* a CUPTI name, or a pattern with one '*' (any run of characters) */
	enum metric_unit unit;
	enum metric_agg agg;
	const char *about;    /* NULL for a row derived from the name */
};
extern const struct metric_info metric_table[];
extern const size_t metric_table_count;
/* The row of name: metric_table's, else metric_derive's. */
struct metric_info metric_info(const char *name);
/* The row the naming convention gives name (about NULL); see metric_sets.c. */
struct metric_info metric_derive(const char *name);

/* The stall reasons of the stalls set, in its order: the reason as the
 * metric names it, a label, and what the warp waits on (Nsight Compute's
 * WarpStateStats wording, shortened). */
struct stall_reason {
	const char *name;   /* "long_scoreboard" */
	const char *label;  /* "long scoreboard" */
	const char *about;  /* "an L1TEX result: global or local memory" */
};
extern const struct stall_reason metric_stall_reasons[];
extern const size_t metric_stall_reason_count;

#endif
