/* test_gridmap.c: reading a captured kernel's grid against the call's shape
 * (src/capture/gridmap.h), on grids CUPTI reported on the H200 for PyTorch's
 * attention kernels (experiments/results/capture/) and on grids that do not
 * factor. */
#include "capture/gridmap.h"
#include "check.h"

/* on an H200: 132 SMs */
#define SMS 132

static struct attn_shape shape(int B, int H, int Hkv, int Nq, int Nkv, int bwd)
{
	struct attn_shape s = { .batch = B, .heads = H, .kv_heads = Hkv, .seqlen_q = Nq, .seqlen_kv = Nkv,
				.head_dim = 128, .pass = bwd ? PASS_BWD : PASS_FWD };
	return s;
}

static void test_flash_forward_query_blocks(void)
{
	/* pytorch_flash::flash_fwd_kernel, B = 8, H = 16, N = 2048: grid (⌈N/128⌉, B, H) */
	int g[3] = { 16, 8, 16 };
	struct attn_shape s = shape(8, 16, 16, 2048, 2048, 0);
	struct gridmap m;
	char buf[300];
	CHECK_INT(gridmap_infer(g, &s, SMS, &m), 1);
	CHECK_INT(m.kind, GM_QBLOCKS);
	CHECK_INT(m.block_rows, 128);
	CHECK_STR(gridmap_sentence(g, &m, buf, sizeof(buf)),
		  "grid 16 × 8 × 16 = ⌈N/128⌉ × B × H: sequence-parallel over query blocks");
	CHECK_CONTAINS(m.rule, "each block owns 128 query rows of one (batch, head)");
}

static void test_equal_batch_and_heads(void)
{
	/* B = H = 16: B and H cannot be told apart; the rule says so */
	int g[3] = { 8, 16, 16 };
	struct attn_shape s = shape(16, 16, 16, 1024, 1024, 0);
	struct gridmap m;
	CHECK_INT(gridmap_infer(g, &s, SMS, &m), 1);
	CHECK_INT(m.kind, GM_QBLOCKS);
	CHECK_CONTAINS(m.rule, "which dimension is which is not inferred");
}

static void test_flattened_and_kv_blocks(void)
{
	/* one dimension of ⌈N/128⌉·B·H (cuDNN prefill, B = 2, H = 16, N = 512) */
	int g[3] = { 128, 1, 1 };
	struct attn_shape s = shape(2, 16, 4, 512, 512, 0);
	struct gridmap m;
	CHECK_INT(gridmap_infer(g, &s, SMS, &m), 1);
	CHECK_STR(m.formula, "⌈N/128⌉·B·H");
	/* 128 is also ⌈512/32⌉·B·Hkv: the rule says the other reading */
	CHECK_CONTAINS(m.rule, "also reads as ⌈N/32⌉·B·Hkv");
	/* backward over blocks of N: query or key/value is left open */
	int b[3] = { 8, 16, 16 };
	struct attn_shape sb = shape(16, 16, 16, 1024, 1024, 1);
	CHECK_INT(gridmap_infer(b, &sb, SMS, &m), 1);
	CHECK_INT(m.kind, GM_NBLOCKS);
	/* Nq != Nkv: the block count tells which */
	int k[3] = { 4, 32, 1 };
	struct attn_shape sk = shape(2, 16, 16, 100, 512, 1);
	CHECK_INT(gridmap_infer(k, &sk, SMS, &m), 1);
	CHECK_INT(m.kind, GM_KVBLOCKS);
	CHECK_STR(m.formula, "⌈Nkv/128⌉ × B·H");
}

static void test_gemm_tiles_and_heads_alone(void)
{
	/* the math backend's QKᵀ GEMM: (⌈N/128⌉, ⌈N/128⌉, B·H) */
	int g[3] = { 8, 8, 256 };
	struct attn_shape s = shape(16, 16, 16, 1024, 1024, 0);
	struct gridmap m;
	CHECK_INT(gridmap_infer(g, &s, SMS, &m), 1);
	CHECK_CONTAINS(m.what, "tiles of the Nq × Nkv matrix");
	/* FlashAttention-1's grid: B·H alone */
	int h[3] = { 64, 1, 1 };
	struct attn_shape s1 = shape(4, 16, 16, 4096, 4096, 0);
	CHECK_INT(gridmap_infer(h, &s1, SMS, &m), 1);
	CHECK_INT(m.kind, GM_HEADS);
	CHECK_STR(m.formula, "B·H");
}

static void test_decode_splits(void)
{
	/* cuDNN's sm80 decode kernel, B = 2, H = 16, Hkv = 4, one query, 513 keys */
	int g[3] = { 4, 4, 2 };
	struct attn_shape s = shape(2, 16, 4, 1, 513, 0);
	struct gridmap m;
	CHECK_INT(gridmap_infer(g, &s, SMS, &m), 1);
	CHECK_INT(m.kind, GM_SPLITS);
	CHECK_INT(m.splits, 4);
	CHECK_CONTAINS(m.what, "split-KV");
	/* splits are read only in decode */
	struct attn_shape p = shape(2, 16, 4, 512, 512, 0);
	int g2[3] = { 7, 4, 2 };
	CHECK_INT(gridmap_infer(g2, &p, SMS, &m), 0);
}

static void test_not_inferred(void)
{
	struct gridmap m;
	char buf[300];
	/* a grid that does not factor */
	int g[3] = { 7, 3, 1 };
	struct attn_shape s = shape(4, 16, 16, 4096, 4096, 0);
	CHECK_INT(gridmap_infer(g, &s, SMS, &m), 0);
	CHECK_INT(m.kind, GM_NOT_INFERRED);
	CHECK_STR(gridmap_sentence(g, &m, buf, sizeof(buf)), "grid 7 × 3: mapping not inferred");
	CHECK_CONTAINS(m.rule, "is not a product of B = 4, H = 16");
	/* one block per SM: persistent */
	int p[3] = { 132, 1, 1 };
	struct attn_shape s2 = shape(16, 16, 16, 1024, 1024, 0);
	CHECK_INT(gridmap_infer(p, &s2, SMS, &m), 0);
	CHECK_INT(m.kind, GM_PERSISTENT);
	CHECK_CONTAINS(gridmap_sentence(p, &m, buf, sizeof(buf)), "mapping not inferred");
	/* unknown shape */
	struct attn_shape u = { 0 };
	CHECK_INT(gridmap_infer(g, &u, SMS, &m), 0);
	CHECK_INT(m.kind, GM_UNKNOWN_SHAPE);
	CHECK_INT(gridmap_infer(g, NULL, SMS, &m), 0);
}

static void test_widened_readings(void)
{
	struct gridmap m;
	/* a 192-row tile (not a power of two), B = 4, H = 16, N = 4096: (⌈N/192⌉, H, B) */
	int g[3] = { 22, 16, 4 };
	struct attn_shape s = shape(4, 16, 16, 4096, 4096, 0);
	CHECK_INT(gridmap_infer(g, &s, SMS, &m), 1);
	CHECK_INT(m.kind, GM_QBLOCKS);
	CHECK_INT(m.block_rows, 192);
	CHECK_INT(m.widened, 1);
	CHECK_STR(m.formula, "⌈N/192⌉ × H × B");
	CHECK_CONTAINS(m.rule, "read only because no block count of a power-of-two height fits");
	/* query blocks flattened with the batch alone: (⌈N/128⌉·B, H) */
	int f[3] = { 128, 16, 1 };
	CHECK_INT(gridmap_infer(f, &s, SMS, &m), 1);
	CHECK_STR(m.formula, "⌈N/128⌉·B × H");
	CHECK_CONTAINS(m.rule, "without the batch folded in");
	/* a grid the wider heights do not read either: 7 = ⌈4096/b⌉ for no such b */
	int no[3] = { 7, 16, 4 };
	CHECK_INT(gridmap_infer(no, &s, SMS, &m), 0);
	CHECK_CONTAINS(m.rule, "24 … 192");
	/* a power-of-two reading is kept where it fits: no widening */
	int p2[3] = { 32, 4, 16 };
	CHECK_INT(gridmap_infer(p2, &s, SMS, &m), 1);
	CHECK_INT(m.widened, 0);
	/* one block per SM stays persistent although 132 = ⌈2048/192⌉·H would read it */
	int pe[3] = { 132, 1, 1 };
	struct attn_shape sp = shape(1, 12, 12, 2048, 2048, 0);
	CHECK_INT(gridmap_infer(pe, &sp, SMS, &m), 0);
	CHECK_INT(m.kind, GM_PERSISTENT);
	/* and on a GPU of another SM count the same grid reads so, widened */
	CHECK_INT(gridmap_infer(pe, &sp, 114, &m), 1);
	CHECK_STR(m.formula, "⌈N/192⌉·H");
	CHECK_INT(m.widened, 1);
}

TESTS(test_flash_forward_query_blocks, test_equal_batch_and_heads, test_flattened_and_kv_blocks,
      test_gemm_tiles_and_heads_alone, test_decode_splits, test_not_inferred, test_widened_readings)
