/* metric_sets.c: the built-in metric sets, the metric rows and metric-name checks; see metric_sets.h.
 *
 * Pass costs on GH100 (cuptiProfilerHostGetNumOfPasses, CUPTI 13.0):
 * memory 1, default 2 (the bank-conflict counters need the second pass),
 * workload 3, stalls 6, full 4.  docs/metrics.md has the table.
 */
#include "metric_sets.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


static const char *const set_memory[] = {
	M_DRAM_READ, M_DRAM_WRITE, M_L2_BYTES, M_DURATION, M_SM_CLOCK,
};

static const char *const set_default[] = {
	M_DRAM_READ, M_DRAM_WRITE, M_L2_BYTES,
	M_SMEM_LD_WF, M_SMEM_ST_WF, M_SMEM_LD_CONF, M_SMEM_ST_CONF,
	M_LDSM, M_OCC_ACHIEVED, M_TENSOR_ACTIVE,
	M_DURATION, M_SM_CLOCK,
};

static const char *const set_full[] = {
	M_DRAM_READ, M_DRAM_WRITE, M_L2_BYTES, M_L2_READ_SECT, M_L2_WRITE_SECT,
	M_SMEM_LD_WF, M_SMEM_ST_WF, M_SMEM_LD_CONF, M_SMEM_ST_CONF, M_SMEM_GMMA_WF,
	M_LDSM, M_LDGSTS, M_OCC_ACHIEVED, M_TENSOR_ACTIVE,
	M_FADD, M_FMUL, M_FFMA, M_MUFU, M_TENSOR_INST, M_TENSOR_HMMA, M_TENSOR_GMMA,
	M_INST_EXECUTED, M_BARRIERS,
	M_DURATION, M_SM_CLOCK,
};

/* where the bytes go at every level, so "S and P never reach HBM" shows at
 * L1 and L2 too (2 passes on GH100) */
static const char *const set_workload[] = {
	M_DRAM_READ, M_DRAM_WRITE, M_L2_BYTES, M_L2_HIT, M_L1_BYTES, M_L1_HIT, M_SMEM_WF, M_DURATION,
	M_L2_RED_SECT, M_L2_ATOM_SECT, /* the backward's dQ reductions in the L2 */
	/* what the LSU wavefronts do not see on Hopper: wgmma's operand reads
	 * from shared memory and TMA's bytes into it */
	M_SMEM_GMMA_WF, M_SMEM_TMA_BYTES,
	/* and whether a kernel issues wgmma at all, so that a 0 of the LSU
	 * counters is told from shared traffic they cannot see */
	M_TENSOR_GMMA,
};

/* warp-state statistics as Nsight Compute's WarpStateStats section reads
 * them: every stall reason the range profiler counts on GH100, and the
 * active warp-cycles they divide (6 passes on GH100) */
#define STALL_REASONS(X) \
	X(long_scoreboard, "long scoreboard", "an L1TEX result: global or local memory") \
	X(short_scoreboard, "short scoreboard", "an MIO result: shared memory, MUFU (exp)") \
	X(mio_throttle, "MIO throttle", "room in the MIO queue: shared memory, ldmatrix, MUFU") \
	X(math_pipe_throttle, "math-pipe throttle", "a busy execution pipe: tensor, FMA") \
	X(gmma, "GMMA", "a warpgroup MMA (wgmma) in flight: its operands or its result") \
	X(not_selected, "not selected", "nothing: eligible, another warp issued") \
	X(selected, "selected", "nothing: issuing") \
	X(wait, "wait", "a fixed-latency dependency") \
	X(barrier, "barrier", "the other warps of the block at a barrier") \
	X(lg_throttle, "LG throttle", "room in the local/global memory queue") \
	X(dispatch_stall, "dispatch", "the dispatcher") \
	X(no_instruction, "no instruction", "an instruction fetch") \
	X(membar, "memory barrier", "a memory barrier") \
	X(branch_resolving, "branch resolving", "a branch target") \
	X(drain, "drain", "stores draining at exit") \
	X(sleeping, "sleeping", "a sleep or an mbarrier wait") \
	X(tex_throttle, "TEX throttle", "room in the texture queue") \
	X(imc_miss, "IMC miss", "the immediate constant cache") \
	X(misc, "misc", "other reasons")
#define STALL_METRIC(n, l, a) M_STALL(#n),
#define STALL_ROW(n, l, a) { #n, l, a },
static const char *const set_stalls[] = { M_WARPS_ACTIVE, STALL_REASONS(STALL_METRIC) M_DURATION };
const struct stall_reason metric_stall_reasons[] = { STALL_REASONS(STALL_ROW) };
const size_t metric_stall_reason_count = sizeof metric_stall_reasons / sizeof metric_stall_reasons[0];

/* record -- CMD: the store-or-not verdict (L2 writes from the SMs), DRAM,
 * shared memory, occupancy, tensor pipe and time: the seven metrics the
 * ncu comparison of docs/capture.md profiles */
static const char *const set_capture[] = {
	M_DRAM_READ, M_DRAM_WRITE, M_L2_WRITE_SECT, M_SMEM_LD_WF, M_OCC_ACHIEVED, M_TENSOR_ACTIVE, M_DURATION,
};

#define SET(n, about, arr) { n, about, arr, sizeof(arr) / sizeof(arr[0]) }
const struct metric_set metric_sets_builtin[] = {
	{ "none", "no hardware counters: time and verify only", NULL, 0 },
	SET("memory", "HBM and L2 bytes, duration and clock (1 pass on GH100)", set_memory),
	SET("default", "HBM, L2, shared-memory wavefronts and conflicts, ldmatrix, occupancy, tensor pipe, duration, clock (2 passes on GH100)", set_default),
	SET("capture", "record -- CMD's default: HBM read/write, L2 write sectors (the stored-or-not verdict), shared-memory load wavefronts, occupancy, tensor pipe, duration", set_capture),
	SET("workload", "bytes and sector hit rates at L1 and L2, shared-memory wavefronts, DRAM, duration (2 passes on GH100)", set_workload),
	SET("stalls", "warp-state statistics: warp-cycles stalled per reason (long/short scoreboard, MIO and math-pipe throttle, GMMA, barrier, not selected, ...) over active warp-cycles (6 passes on GH100)", set_stalls),
	SET("full", "default plus instruction mix (FP32 add/mul/fma, MUFU, tensor HMMA/HGMMA), barrier stalls, L2 sectors, ldgsts (4 passes on GH100)", set_full),
};
const size_t metric_sets_builtin_count = sizeof(metric_sets_builtin) / sizeof(metric_sets_builtin[0]);

const struct metric_set *metric_set_find(const char *name)
{
	for (size_t i = 0; i < metric_sets_builtin_count; i++)
		if (!strcmp(metric_sets_builtin[i].name, name))
			return &metric_sets_builtin[i];
	return NULL;
}

const char *metric_set_names(void)
{
	static char buf[256];
	if (!buf[0])
		for (size_t i = 0, n = 0; i < metric_sets_builtin_count && n < sizeof buf; i++)
			n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s", i ? ", " : "", metric_sets_builtin[i].name);
	return buf;
}

/* ---- metric rows ------------------------------------------------------ */

/* Every metric of the built-in sets (test_cupti_sum checks), with what it
 * counts.  A row is needed where the naming rule below would combine
 * launches wrongly, and says what a counter is where its name does not. */
const struct metric_info metric_table[] = {
	{ M_DURATION, MU_NS, METRIC_SUM, "time the kernel ran on the GPU" },
	{ M_SM_CLOCK, MU_HZ, METRIC_WEIGHTED_AVG, "SM clock: elapsed cycles per second, mean over the SMs" },
	{ M_DRAM_READ, MU_BYTES, METRIC_SUM, "DRAM (HBM) bytes read" },
	{ M_DRAM_WRITE, MU_BYTES, METRIC_SUM, "DRAM (HBM) bytes written" },
	{ M_L2_BYTES, MU_BYTES, METRIC_SUM, "L2 traffic: bytes of every request the L2 served" },
	{ M_L2_READ_SECT, MU_SECTORS, METRIC_SUM, "L2 sectors read" },
	{ M_L2_WRITE_SECT, MU_SECTORS, METRIC_SUM, "L2 sectors written (the stored-or-not verdict of a captured call)" },
	{ M_L2_RED_SECT, MU_SECTORS, METRIC_SUM, "L2 sectors of reductions resolved in the L2 (flash2 backward's dQ)" },
	{ M_L2_ATOM_SECT, MU_SECTORS, METRIC_SUM, "L2 sectors of atomics resolved in the L2" },
	{ M_L2_HIT, MU_PCT, METRIC_WEIGHTED_AVG, "L2 sector hit rate" },
	{ M_L1_BYTES, MU_BYTES, METRIC_SUM, "L1/TEX traffic, shared memory included" },
	{ M_L1_HIT, MU_PCT, METRIC_WEIGHTED_AVG, "L1/TEX sector hit rate" },
	{ M_SMEM_WF, MU_COUNT, METRIC_SUM, "shared-memory wavefronts of the LSU pipe, loads and stores" },
	{ M_SMEM_LD_WF, MU_COUNT, METRIC_SUM, "shared-memory load wavefronts" },
	{ M_SMEM_ST_WF, MU_COUNT, METRIC_SUM, "shared-memory store wavefronts" },
	{ M_SMEM_GMMA_WF, MU_COUNT, METRIC_SUM, "shared-memory wavefronts of wgmma operand reads" },
	{ M_SMEM_TMA_BYTES, MU_BYTES, METRIC_SUM, "bytes TMA loads from global memory into shared memory" },
	{ M_SMEM_LD_CONF, MU_COUNT, METRIC_SUM, "shared-memory load bank conflicts" },
	{ M_SMEM_ST_CONF, MU_COUNT, METRIC_SUM, "shared-memory store bank conflicts" },
	{ M_LDSM, MU_COUNT, METRIC_SUM, "ldmatrix warp instructions" },
	{ M_LDGSTS, MU_COUNT, METRIC_SUM, "cp.async (LDGSTS) warp instructions" },
	{ M_OCC_ACHIEVED, MU_PCT, METRIC_WEIGHTED_AVG, "achieved occupancy: active warps over the SM's maximum" },
	{ M_TENSOR_ACTIVE, MU_PCT, METRIC_WEIGHTED_AVG, "cycles the tensor pipe was active, of the peak" },
	{ M_FADD, MU_COUNT, METRIC_SUM, "FP32 add thread instructions (SASS-instrumented: kernel replay)" },
	{ M_FMUL, MU_COUNT, METRIC_SUM, "FP32 multiply thread instructions (SASS-instrumented: kernel replay)" },
	{ M_FFMA, MU_COUNT, METRIC_SUM, "FP32 fused multiply-add thread instructions (SASS-instrumented: kernel replay)" },
	{ M_MUFU, MU_COUNT, METRIC_SUM, "XU-pipe warp instructions: MUFU (ex2, rcp, ...)" },
	{ M_TENSOR_INST, MU_COUNT, METRIC_SUM, "tensor-pipe warp instructions" },
	{ M_TENSOR_HMMA, MU_COUNT, METRIC_SUM, "mma.sync (HMMA) warp instructions" },
	{ M_TENSOR_GMMA, MU_COUNT, METRIC_SUM, "wgmma (HGMMA) warp instructions" },
	{ M_INST_EXECUTED, MU_COUNT, METRIC_SUM, "warp instructions executed" },
	{ M_WARPS_ACTIVE, MU_CYCLES, METRIC_SUM, "warp-cycles active: the warps resident on a scheduler, summed over cycles" },
	{ M_STALL("*"), MU_CYCLES, METRIC_SUM, "warp-cycles stalled for one reason (metric_stall_reasons)" },
	/* a count averaged over the SMs: it adds up over launches, though the
	 * naming rule would average an .avg */
	{ M_SMS_ACTIVE, MU_CYCLES, METRIC_SUM, "cycles an SM was active, mean over the SMs" },
};
const size_t metric_table_count = sizeof metric_table / sizeof metric_table[0];

/* name matches pattern: equal, or around the pattern's one '*' */
static int metric_matches(const char *pattern, const char *name)
{
	const char *star = strchr(pattern, '*');
	if (!star)
		return !strcmp(pattern, name);
	size_t pre = (size_t)(star - pattern), post = strlen(star + 1), n = strlen(name);
	return n >= pre + post && !strncmp(name, pattern, pre) && !strcmp(name + n - post, star + 1);
}

static int part_is(const char *p, size_t len, const char *word)
{
	return strlen(word) == len && !strncmp(p, word, len);
}

static int part_starts(const char *p, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);
	return len >= n && !strncmp(p, prefix, n);
}

/* The naming convention of CUPTI's Perfworks metrics (as Nsight Compute
 * documents them): unit__counter, then a rollup over the unit's instances
 * (.sum, .avg, .max, .min), then perhaps a submetric (.per_second,
 * .per_cycle_active, .pct_of_peak_sustained_active, .peak_sustained, ...);
 * a ratio metric has .pct or .ratio in the rollup's place.  Over a call's
 * launches:
 *   .max and .min stay a peak and a floor (MAX, MIN): the largest of the
 *     launches' maxima is the maximum over every instance of every launch;
 *   a share or a rate (.pct…, .ratio, .per_second, .per_cycle…,
 *     .peak_sustained…) is a mean weighted by the launches' durations;
 *   so is an .avg (a mean over the instances of a count would add up:
 *     metric_table says so where it matters, as for sm__cycles_active.avg);
 *   .sum, or no rollup at all, adds up.
 * The unit: the submetric's (% for .pct…, Hz for cycles per second, ...),
 * else the counter's: bytes, sectors, cycles (warps_… counters count
 * warp-cycles), ns (time_duration), else a count. */
struct metric_info metric_derive(const char *name)
{
	struct metric_info m = { name, MU_COUNT, METRIC_SUM, NULL };
	const char *sep = strstr(name, "__");
	if (!sep)
		return m;
	const char *counter = sep + 2, *dot = strchr(counter, '.');
	size_t clen = dot ? (size_t)(dot - counter) : strlen(counter);
	char c[128];
	snprintf(c, sizeof c, "%.*s", (int)(clen < sizeof c ? clen : sizeof c - 1), counter);
	if (strstr(c, "bytes"))
		m.unit = MU_BYTES;
	else if (strstr(c, "sectors"))
		m.unit = MU_SECTORS;
	else if (strstr(c, "cycles") || !strncmp(c, "warps_", 6))
		m.unit = MU_CYCLES;
	else if (strstr(c, "time_duration"))
		m.unit = MU_NS;
	int rate = 0, first = 1;
	for (const char *p = dot; p; first = 0) {
		p++;
		const char *end = strchr(p, '.');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		if (first && part_is(p, len, "avg"))
			m.agg = METRIC_WEIGHTED_AVG;
		else if (first && part_is(p, len, "max"))
			m.agg = METRIC_MAX;
		else if (first && part_is(p, len, "min"))
			m.agg = METRIC_MIN;
		if (part_starts(p, len, "pct")) {
			rate = 1;
			m.unit = MU_PCT;
		} else if (part_is(p, len, "ratio")) {
			rate = 1;
			m.unit = MU_RATIO;
		} else if (part_is(p, len, "per_second")) {
			rate = 1;
			m.unit = m.unit == MU_BYTES ? MU_BYTES_PER_SECOND : m.unit == MU_CYCLES ? MU_HZ : MU_PER_SECOND;
		} else if (part_starts(p, len, "per_cycle") || part_starts(p, len, "peak_sustained")) {
			rate = 1;
			m.unit = MU_PER_CYCLE;
		}
		p = end;
	}
	if (rate && m.agg == METRIC_SUM)
		m.agg = METRIC_WEIGHTED_AVG;
	return m;
}

struct metric_info metric_info(const char *name)
{
	for (size_t i = 0; i < metric_table_count; i++)
		if (metric_matches(metric_table[i].name, name))
			return metric_table[i];
	return metric_derive(name);
}

int metric_needs_kernel_replay(const char *name)
{
	return name && !strncmp(name, "smsp__sass_", 11);
}
