/* test_causal_tiles.c: the causal tile counts the teaching figure draws,
 * against the tile pairs flashsim (the kernel's algorithm on the CPU)
 * actually computes and masks, for square and rectangular shapes and
 * lengths that are not multiples of the tiles. */
#include "check.h"

#include "causal_tiles.h"
#include "flashsim.h"

static float *ramp(size_t n)
{
	float *x = malloc(n * sizeof(*x));
	for (size_t i = 0; i < n; i++)
		x[i] = (float)((i * 37 % 101) / 101.0 - 0.5);
	return x;
}

static void against_flashsim(int nq, int nkv, int br, int bc)
{
	struct attn_shape s = { .batch = 1, .heads = 1, .kv_heads = 1, .seqlen_q = nq, .seqlen_kv = nkv,
				.head_dim = 16, .causal = 1, .dtype = DTYPE_FP16, .phase = PHASE_PREFILL };
	struct flashsim_opts o = { .switches = FLASH_ALL, .block_m = br, .block_n = bc, .warps = 4 };
	float *q = ramp((size_t)nq * 16), *k = ramp((size_t)nkv * 16), *v = ramp((size_t)nkv * 16);
	double *out = malloc(sizeof(double) * (size_t)nq * 16), *lse = malloc(sizeof(double) * (size_t)nq);
	struct flashsim_counts fc;
	CHECK_INT(flashsim_run(&s, &o, q, k, v, out, NULL, NULL, lse, &fc), 0);
	struct causal_count cc;
	CHECK_INT(causal_tiles_count(nq, nkv, br, bc, &cc), 0);
	CHECK_INT(cc.full + cc.masked, (long long)fc.tile_pairs);
	CHECK_INT(cc.masked, (long long)fc.masked_pairs);
	CHECK_INT(cc.full + cc.masked + cc.skipped, cc.rows * cc.cols);
	free(q); free(k); free(v); free(out); free(lse);
}

static void test_counts_match_flashsim(void)
{
	against_flashsim(256, 256, 64, 32);
	against_flashsim(300, 300, 64, 64);
	against_flashsim(128, 512, 64, 64);   /* more keys than queries: bottom-right */
	against_flashsim(200, 333, 32, 48);
}

static void test_square_counts(void)
{
	/* N = 4096, Br = 128, Bc = 64: 32 × 64 pairs; Q block i meets the diagonal in
	 * K/V blocks 2i and 2i+1 (both masked) and has 2i full pairs before them */
	struct causal_count cc;
	CHECK_INT(causal_tiles_count(4096, 4096, 128, 64, &cc), 0);
	CHECK_INT(cc.rows, 32);
	CHECK_INT(cc.cols, 64);
	CHECK_INT(cc.masked, 64);
	CHECK_INT(cc.full, 32 * 31); /* Σ 2i */
	CHECK_INT(cc.skipped, 2048 - 64 - 992);
	CHECK_INT(causal_tile(4096, 4096, 128, 64, 0, 1), TILE_MASKED);
	CHECK_INT(causal_tile(4096, 4096, 128, 64, 0, 2), TILE_SKIPPED);
	CHECK_INT(causal_tile(4096, 4096, 128, 64, 1, 1), TILE_FULL);
	CHECK_INT(causal_tile(4096, 4096, 128, 64, 1, 2), TILE_MASKED);
	CHECK_INT(causal_tiles_count(0, 1, 1, 1, &cc), -1);
}

/* the counts (two binary searches a row) against a visit of every pair, and a
 * drawn cell's fate against the pairs it stands for */
static void brute(int nq, int nkv, int br, int bc)
{
	struct causal_count cc, want = { 0 };
	CHECK_INT(causal_tiles_count(nq, nkv, br, bc, &cc), 0);
	want.rows = (nq + br - 1) / br;
	want.cols = (nkv + bc - 1) / bc;
	for (long i = 0; i < want.rows; i++)
		for (long j = 0; j < want.cols; j++)
			switch (causal_tile(nq, nkv, br, bc, (int)i, (int)j)) {
			case TILE_FULL: want.full++; break;
			case TILE_MASKED: want.masked++; break;
			default: want.skipped++; break;
			}
	CHECK_INT(cc.full, want.full);
	CHECK_INT(cc.masked, want.masked);
	CHECK_INT(cc.skipped, want.skipped);
	const long step = causal_cell_step(&cc, 8);
	CHECK(want.rows <= 8 * step && want.cols <= 8 * step);
	for (long i = 0; i < cc.rows; i += step)
		for (long j = 0; j < cc.cols; j += step) {
			long i1 = i + step < cc.rows ? i + step : cc.rows, j1 = j + step < cc.cols ? j + step : cc.cols;
			int all_full = 1, all_skip = 1;
			for (long a = i; a < i1; a++)
				for (long b = j; b < j1; b++) {
					enum tile_fate f = causal_tile(nq, nkv, br, bc, (int)a, (int)b);
					all_full &= f == TILE_FULL;
					all_skip &= f == TILE_SKIPPED;
				}
			enum tile_fate g = causal_block(nq, nkv, br, bc, i, i1, j, j1);
			CHECK_INT(g, all_full ? TILE_FULL : all_skip ? TILE_SKIPPED : TILE_MASKED);
		}
}

static void test_counts_without_visiting(void)
{
	brute(4096, 4096, 128, 64);
	brute(1000, 3000, 64, 32);
	brute(3000, 1000, 64, 32); /* more queries than keys: the first rows see nothing */
	brute(777, 777, 128, 128);
	brute(1, 50000, 1, 64);
	/* 4M × 4M at 128 × 64: 2^31 pairs, counted row by row */
	struct causal_count cc;
	CHECK_INT(causal_tiles_count(1 << 22, 1 << 22, 128, 64, &cc), 0);
	CHECK_INT(cc.rows, 32768);
	CHECK_INT(cc.masked, 2L * 32768);
	CHECK_INT(cc.full, 32768L * 32767);
	CHECK_INT(cc.full + cc.masked + cc.skipped, 32768L * 65536);
	CHECK_INT(causal_cell_step(&cc, CAUSAL_DRAW_MAX), 512);
}

TESTS(test_counts_match_flashsim, test_square_counts, test_counts_without_visiting)
