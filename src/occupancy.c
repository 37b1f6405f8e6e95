/* occupancy.c: theoretical occupancy; see occupancy.h. */
#include "occupancy.h"

#include <limits.h>
#include <string.h>

#include "util/error.h"

const struct occupancy_limits occupancy_gh100 = {
	.warp_size = 32,
	.max_threads_per_sm = 2048,
	.max_blocks_per_sm = 32,
	.max_threads_per_block = 1024,
	.regs_per_sm = 65536,
	.max_regs_per_thread = 255,
	.reg_alloc_unit = 256,
	.sub_partitions = 4,
	.smem_per_sm = 233472,          /* 228 KiB */
	.smem_per_block_max = 232448,   /* 227 KiB */
	.smem_reserved_per_block = 1024,
	.smem_alloc_unit = 128,
};

static size_t round_up(size_t x, size_t unit)
{
	return unit ? (x + unit - 1) / unit * unit : x;
}

const char *occupancy_limiter_name(enum occupancy_limiter l)
{
	switch (l) {
	case OCC_LIMIT_REGISTERS: return "registers";
	case OCC_LIMIT_SHARED_MEMORY: return "shared memory";
	case OCC_LIMIT_WARPS: return "warps";
	case OCC_LIMIT_BLOCKS: return "blocks";
	default: return "none";
	}
}

int occupancy_compute(const struct occupancy_limits *lim, int threads,
		      int regs, size_t static_smem, size_t dynamic_smem,
		      struct occupancy *out)
{
	memset(out, 0, sizeof *out);
	if (threads < 1 || threads > lim->max_threads_per_block)
		return error("occupancy: block of %d threads is outside 1..%d",
			     threads, lim->max_threads_per_block);
	if (regs < 0 || regs > lim->max_regs_per_thread)
		return error("occupancy: %d registers per thread is over the limit of %d",
			     regs, lim->max_regs_per_thread);
	size_t smem = static_smem + dynamic_smem;
	if (smem > lim->smem_per_block_max)
		return error("occupancy: %zu bytes of shared memory per block is over the limit of %zu",
			     smem, lim->smem_per_block_max);

	int warps = (threads + lim->warp_size - 1) / lim->warp_size;

	/* Warps: resident threads per SM, counted in whole warps. */
	out->by_warps = lim->max_threads_per_sm / lim->warp_size / warps;
	out->by_blocks = lim->max_blocks_per_sm;

	/* Registers: each warp takes regs*32 rounded up to the allocation unit,
	 * and a warp's registers must come from one sub-partition's file. */
	if (regs == 0) {
		out->by_registers = INT_MAX;
	} else {
		int per_warp = (int)round_up((size_t)regs * (size_t)lim->warp_size,
					     (size_t)lim->reg_alloc_unit);
		int per_sub = lim->regs_per_sm / lim->sub_partitions;
		int warps_per_sm = per_sub / per_warp * lim->sub_partitions;
		out->by_registers = warps_per_sm / warps;
	}

	/* Shared memory: the block's bytes plus the system's reserve, rounded
	 * up; a block with no shared memory is not limited by it. */
	if (smem == 0) {
		out->by_shared_memory = INT_MAX;
	} else {
		size_t per_block = round_up(smem + lim->smem_reserved_per_block,
					    lim->smem_alloc_unit);
		size_t avail = lim->smem_per_sm;
		out->by_shared_memory = (int)(avail / per_block);
	}

	/* Ties go to the hardware maxima first: a kernel at full occupancy is
	 * limited by warps, not by registers that happen to fit exactly. */
	int best = out->by_warps;
	enum occupancy_limiter why = OCC_LIMIT_WARPS;
	if (out->by_blocks < best) { best = out->by_blocks; why = OCC_LIMIT_BLOCKS; }
	if (out->by_registers < best) { best = out->by_registers; why = OCC_LIMIT_REGISTERS; }
	if (out->by_shared_memory < best) { best = out->by_shared_memory; why = OCC_LIMIT_SHARED_MEMORY; }

	out->blocks_per_sm = best;
	out->warps_per_sm = best * warps;
	out->occupancy = (double)out->warps_per_sm /
			 (double)(lim->max_threads_per_sm / lim->warp_size);
	out->limiter = why;
	return 0;
}
