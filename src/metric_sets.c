/* metric_sets.c: the built-in metric sets and metric-name checks; see metric_sets.h.
 *
 * Pass costs on GH100 (cuptiProfilerHostGetNumOfPasses, CUPTI 13.0):
 * memory 1, default 2 (the bank-conflict counters need the second pass),
 * full 4.  docs/metrics.md has the table.
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
