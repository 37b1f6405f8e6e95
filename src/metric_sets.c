/* metric_sets.c: the built-in metric sets and metric-name checks; see metric_sets.h.
 *
 * Pass costs on GH100 (cuptiProfilerHostGetNumOfPasses, CUPTI 13.0):
 * memory 1, default 2 (the bank-conflict counters need the second pass),
 * workload 2, stalls 7, full 4.  docs/metrics.md has the table.
 */
#include "metric_sets.h"

#include <ctype.h>
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
};

/* warp-state statistics as Nsight Compute's WarpStateStats section reads
 * them: every stall reason the range profiler counts on GH100, and the
 * active warp-cycles they divide (7 passes on GH100) */
#define STALL_REASONS(X) \
	X(long_scoreboard, "long scoreboard", "an L1TEX result: global or local memory") \
	X(short_scoreboard, "short scoreboard", "an MIO result: shared memory, MUFU (exp)") \
	X(mio_throttle, "MIO throttle", "room in the MIO queue: shared memory, ldmatrix, MUFU") \
	X(math_pipe_throttle, "math-pipe throttle", "a busy execution pipe: tensor, FMA") \
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
	SET("stalls", "warp-state statistics: warp-cycles stalled per reason (long/short scoreboard, MIO and math-pipe throttle, barrier, not selected, ...) over active warp-cycles (7 passes on GH100)", set_stalls),
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

/* unit "__" counter, then optional ".rollup" and ".submetric" parts:
 * lower-case letters, digits and '_' only (what Perfworks names use). */
int metric_name_wellformed(const char *name)
{
	const char *sep = strstr(name, "__");
	if (!sep || sep == name || !sep[2])
		return 0;
	int dots = 0;
	char prev = '.';
	for (const char *p = name; *p; p++) {
		char c = *p;
		if (c == '.') {
			if (prev == '.' || p < sep || ++dots > 3)
				return 0;
		} else if (!(islower((unsigned char)c) || isdigit((unsigned char)c) || c == '_')) {
			return 0;
		}
		prev = c;
	}
	return prev != '.';
}

int metric_needs_kernel_replay(const char *name)
{
	return name && !strncmp(name, "smsp__sass_", 11);
}
