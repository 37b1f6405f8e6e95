/* test_occupancy.c: the CPU occupancy calculator at hand-computed points (GH100). */
#include "check.h"

#include "occupancy.h"
#include "util/error.h"

static const struct occupancy_limits *G = &occupancy_gh100;

static void expect(int threads, int regs, size_t ssmem, size_t dsmem,
		   int blocks, double occ, const char *limiter, int line)
{
	struct occupancy o;
	int rc = occupancy_compute(G, threads, regs, ssmem, dsmem, &o);
	if (rc || o.blocks_per_sm != blocks || fabs(o.occupancy - occ) > 1e-12 ||
	    strcmp(occupancy_limiter_name(o.limiter), limiter)) {
		printf("    line %d: %d threads %d regs %zu+%zu smem: rc %d, %d blocks, %.4f, %s; expected %d, %.4f, %s\n",
		       line, threads, regs, ssmem, dsmem, rc, o.blocks_per_sm, o.occupancy,
		       occupancy_limiter_name(o.limiter), blocks, occ, limiter);
		check_failed_ = 1;
	}
}
#define EXPECT(t, r, s, d, b, o, l) expect(t, r, s, d, b, o, l, __LINE__)

/* 255 regs: 255*32 = 8160 -> 8192 per warp; 16384 per sub-partition holds
 * 2 warps, 8 per SM; blocks of 4 warps -> 2 blocks = 8/64 warps. */
static void test_fa2_like_registers(void)
{
	EXPECT(128, 255, 0, 0, 2, 0.125, "registers");
	/* with 96 KiB dynamic smem: (98304 + 1024) -> 2 blocks too; tie -> registers */
	EXPECT(128, 255, 0, 98304, 2, 0.125, "registers");
}

static void test_full_occupancy_is_warps(void)
{
	/* 32 regs: 1024/warp, 16 warps per sub-partition, 64 per SM = the warp limit */
	EXPECT(128, 32, 0, 0, 16, 1.0, "warps");
	EXPECT(1024, 32, 0, 0, 2, 1.0, "warps");
	EXPECT(256, 0, 0, 0, 8, 1.0, "warps");
}

static void test_registers_half(void)
{
	/* 64 regs: 2048/warp, 8 per sub-partition = 32 warps; blocks of 8 warps */
	EXPECT(256, 64, 0, 0, 4, 0.5, "registers");
	/* 168 regs: 5376/warp, 3 per sub-partition = 12 warps; blocks of 3 warps */
	EXPECT(96, 168, 0, 0, 4, 12.0 / 64, "registers");
	/* 100 threads round up to 4 warps */
	EXPECT(100, 128, 0, 0, 4, 0.25, "registers");
}

static void test_shared_memory(void)
{
	/* 48 KiB static: (49152 + 1024) = 50176 per block; 233472 / 50176 = 4 */
	EXPECT(128, 40, 49152, 0, 4, 0.25, "shared memory");
	/* static + dynamic add up; rounding to 128: 1+1024 -> 1152; 233472/1152 = 202 -> blocks cap 32 */
	EXPECT(32, 16, 1, 0, 32, 0.5, "blocks");
	/* 227 KiB (the per-block maximum): one block */
	EXPECT(128, 32, 0, 232448, 1, 4.0 / 64, "shared memory");
	/* 100 KiB + 12 KiB static = 115712 + 1024 -> 2 blocks */
	EXPECT(256, 32, 12288, 102400, 2, 16.0 / 64, "shared memory");
}

static void test_blocks_limit(void)
{
	/* 32 threads: 64 by warps, but at most 32 blocks */
	EXPECT(32, 16, 0, 0, 32, 0.5, "blocks");
}

static void test_impossible_launches(void)
{
	struct occupancy o;
	error_quiet(1);
	CHECK_INT(occupancy_compute(G, 2048, 32, 0, 0, &o), -1);
	CHECK_CONTAINS(error_last(), "2048 threads");
	CHECK_INT(occupancy_compute(G, 0, 32, 0, 0, &o), -1);
	CHECK_INT(occupancy_compute(G, 128, 256, 0, 0, &o), -1);
	CHECK_CONTAINS(error_last(), "256 registers");
	CHECK_INT(occupancy_compute(G, 128, 32, 200000, 40000, &o), -1);
	CHECK_CONTAINS(error_last(), "shared memory");
	error_quiet(0);
	/* legal per block but no block fits on an SM: 1024 threads x 255 regs */
	CHECK_INT(occupancy_compute(G, 1024, 255, 0, 0, &o), 0);
	CHECK_INT(o.blocks_per_sm, 0);
	CHECK_STR(occupancy_limiter_name(o.limiter), "registers");
	CHECK(o.occupancy == 0);
}

static void test_limits_per_resource(void)
{
	struct occupancy o;
	CHECK_INT(occupancy_compute(G, 128, 255, 0, 0, &o), 0);
	CHECK_INT(o.by_registers, 2);
	CHECK_INT(o.by_warps, 16);
	CHECK_INT(o.by_blocks, 32);
	CHECK(o.by_shared_memory > 1000); /* no shared memory: unlimited */
	CHECK_INT(o.warps_per_sm, 8);
}

TESTS(test_fa2_like_registers, test_full_occupancy_is_warps, test_registers_half,
      test_shared_memory, test_blocks_limit, test_impossible_launches, test_limits_per_resource)
