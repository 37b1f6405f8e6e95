/* gpu.h: a GPU's hardware facts, defined once.  The kernels' probe reads
 * them (struct attn_device, attn.h), a results header keeps them (struct
 * gpu_info, results.h) and the model is built from them (struct gpu_model,
 * model.h); each embeds this struct, so a fact has one name and one type.
 * Where none was recorded, the H200's below stand in.
 *
 * Plain C, shared by the kernels and the host.
 */
#ifndef ATTNPROF_GPU_H
#define ATTNPROF_GPU_H

#include <stdint.h>

struct gpu_facts {
	int cc_major, cc_minor; /* compute capability: 9.0 */
	int sm_count;
	uint64_t l2_bytes;
	uint64_t hbm_bytes;     /* device memory */
	int sm_clock_mhz;       /* max SM clock */
	int mem_clock_mhz;      /* max memory clock */
	int mem_bus_bits;
	uint64_t smem_per_sm;   /* shared memory of one SM (0 = not recorded: files before 2026-12-02) */
};

/* The H200 SXM, where a results file names no GPU or a spec is checked
 * away from one: its SM count and L2, and its datasheet's dense fp16/bf16
 * tensor rate and HBM3e bandwidth. */
#define H200_SM_COUNT      132
#define H200_L2_BYTES      (50ull << 20)
#define H200_TENSOR_TFLOPS 989.4
#define H200_HBM_GBS       4800.0

/* sm_count, or H200_SM_COUNT where it is not positive. */
static inline int sm_count_or_default(int sm_count) { return sm_count > 0 ? sm_count : H200_SM_COUNT; }

#endif
