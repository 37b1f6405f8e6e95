/* metric_sets.c: the built-in metric sets; see metric_sets.h. */
#include "metric_sets.h"

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
	M_SMEM_LD_WF, M_SMEM_ST_WF, M_SMEM_LD_CONF, M_SMEM_ST_CONF,
	M_LDSM, M_LDGSTS, M_OCC_ACHIEVED, M_TENSOR_ACTIVE,
	M_FADD, M_FMUL, M_FFMA, M_MUFU, M_TENSOR_INST, M_BARRIERS,
	M_DURATION, M_SM_CLOCK,
};

#define SET(n, about, arr) { n, about, arr, sizeof(arr) / sizeof(arr[0]) }
const struct metric_set metric_sets_builtin[] = {
	{ "none", "no hardware counters: time and verify only", NULL, 0 },
	SET("memory", "HBM and L2 bytes, duration and clock", set_memory),
	SET("default", "HBM, L2, shared-memory wavefronts and conflicts, ldmatrix, occupancy, tensor pipe, duration, clock", set_default),
	SET("full", "default plus instruction mix (FP32, MUFU, tensor), barriers and L2 sectors", set_full),
};
const size_t metric_sets_builtin_count = sizeof(metric_sets_builtin) / sizeof(metric_sets_builtin[0]);

const struct metric_set *metric_set_find(const char *name)
{
	for (size_t i = 0; i < metric_sets_builtin_count; i++)
		if (!strcmp(metric_sets_builtin[i].name, name))
			return &metric_sets_builtin[i];
	return NULL;
}
