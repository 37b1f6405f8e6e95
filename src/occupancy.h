/* occupancy.h: theoretical occupancy on the CPU.
 *
 * Given a launch's block size, registers per thread and shared memory, and
 * the GPU's per-SM limits, compute how many blocks fit on one SM, the
 * theoretical occupancy (resident warps / maximum warps) and which resource
 * limits it.  It follows the rules of NVIDIA's occupancy calculator
 * (cuda_occupancy.h) for compute capability 7.0 and later: registers are
 * allocated per warp in units of 256 and split over the SM's 4 sub-partitions;
 * shared memory per block includes the 1 KiB the system reserves and is
 * rounded up to 128 bytes; the shared-memory carveout is the largest one.
 *
 * Plain C so CI tests it (tests/unit/test_occupancy.c, at hand-computed
 * GH100 points); nothing compares it on the GPU with
 * cudaOccupancyMaxActiveBlocksPerMultiprocessor yet.  It works for every launch
 * record, library kernels (cuBLAS) included, since it needs only what the
 * Activity API reports.
 */
#ifndef ATTNPROF_OCCUPANCY_H
#define ATTNPROF_OCCUPANCY_H

#include <stddef.h>

struct occupancy_limits {
	int warp_size;              /* 32 */
	int max_threads_per_sm;     /* 2048 */
	int max_blocks_per_sm;      /* 32 */
	int max_threads_per_block;  /* 1024 */
	int regs_per_sm;            /* 65536 */
	int max_regs_per_thread;    /* 255 */
	int reg_alloc_unit;         /* registers, per warp: 256 */
	int sub_partitions;         /* 4 */
	size_t smem_per_sm;         /* usable shared memory per SM (largest carveout): 233472 */
	size_t smem_per_block_max;  /* opt-in maximum per block: 232448 */
	size_t smem_reserved_per_block; /* system use per block: 1024 */
	size_t smem_alloc_unit;     /* 128 */
};

/* The H100/H200 (GH100, compute capability 9.0) limits. */
extern const struct occupancy_limits occupancy_gh100;

enum occupancy_limiter {
	OCC_LIMIT_NONE = 0,         /* not computed */
	OCC_LIMIT_REGISTERS,
	OCC_LIMIT_SHARED_MEMORY,
	OCC_LIMIT_WARPS,
	OCC_LIMIT_BLOCKS,
};

struct occupancy {
	int blocks_per_sm;          /* resident blocks on one SM (0: cannot launch) */
	int warps_per_sm;           /* resident warps */
	double occupancy;           /* warps_per_sm / max warps, 0..1 */
	enum occupancy_limiter limiter;
	/* each resource's own block limit (INT_MAX where it does not limit) */
	int by_registers, by_shared_memory, by_warps, by_blocks;
};

/*
 * Compute the occupancy of a block of `threads` threads using `regs`
 * registers per thread and static + dynamic bytes of shared memory.
 * Returns 0, or -1 via error() when the launch cannot run on this GPU
 * (too many threads, registers or shared memory: the message says which).
 * Ties between limiters go to the first of warps, blocks, registers,
 * shared memory (so 100 % occupancy reads "warps").
 */
int occupancy_compute(const struct occupancy_limits *lim, int threads,
		      int regs, size_t static_smem, size_t dynamic_smem,
		      struct occupancy *out);

/* "registers", "shared memory", "warps", "blocks" (results.h wording), or "none". */
const char *occupancy_limiter_name(enum occupancy_limiter l);

#endif
