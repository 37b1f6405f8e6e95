/* variants.c: the descriptor table (see variants.h) and shape arithmetic.
 *
 * Block sizes, shared memory and register counts come from kernels/tiles.h
 * and kernels/hopper/hopper_tiles.h, which the kernels instantiate and
 * static_assert against: the descriptors hold no copy of them.
 */
#include "variants.h"
#include "paged.h"

#include <stdio.h>
#include <string.h>

#include "tiles.h"

const char *const dtype_names[DTYPE_COUNT] = { "fp16", "bf16", "fp32", "unknown" };
const char *const phase_names[PHASE_COUNT] = { "prefill", "decode", "unknown" };
const char *const pass_names[PASS_COUNT] = { "fwd", "bwd", "fwd+bwd" };

const char *dtype_name(enum dtype t) { return t < DTYPE_COUNT ? dtype_names[t] : "?"; }
int dtype_runs_here(enum dtype t) { return t == DTYPE_FP16 || t == DTYPE_BF16; }
size_t dtype_size(enum dtype t) { return t == DTYPE_FP32 ? 4 : 2; }
const char *phase_name(enum phase p) { return p < PHASE_COUNT ? phase_names[p] : "?"; }

int dtype_parse(const char *s, enum dtype *out)
{
	for (int i = 0; i < DTYPE_COUNT; i++)
		if (!strcmp(s, dtype_names[i])) {
			*out = (enum dtype)i;
			return 0;
		}
	if (!strcmp(s, "float16") || !strcmp(s, "half")) { *out = DTYPE_FP16; return 0; }
	if (!strcmp(s, "bfloat16")) { *out = DTYPE_BF16; return 0; }
	return -1;
}

int phase_parse(const char *s, enum phase *out)
{
	for (int i = 0; i < PHASE_COUNT; i++)
		if (!strcmp(s, phase_names[i])) {
			*out = (enum phase)i;
			return 0;
		}
	return -1;
}

const char *pass_name(enum pass p) { return p < PASS_COUNT ? pass_names[p] : "?"; }

int pass_parse(const char *s, enum pass *out)
{
	for (int i = 0; i < PASS_COUNT; i++)
		if (!strcmp(s, pass_names[i])) {
			*out = (enum pass)i;
			return 0;
		}
	return -1;
}

const char *dim_symbol(enum dim_sym s)
{
	static const char *const sym[DIM_COUNT] = {
		"1", "B", "H", "Hkv", "N", "Nkv", "d", "splits", "pages", "page", "maxpages"
	};
	return s < DIM_COUNT ? sym[s] : "?";
}

#define SHAPE_BHND  { DIM_B, DIM_H, DIM_NQ, DIM_D, DIM_END }
#define SHAPE_KV    { DIM_B, DIM_HKV, DIM_NKV, DIM_D, DIM_END }
#define SHAPE_BHNN  { DIM_B, DIM_H, DIM_NQ, DIM_NKV, DIM_END }
#define SHAPE_BHN   { DIM_B, DIM_H, DIM_NQ, DIM_END }

const struct matrix_desc attn_matrices[] = {
	{ "Q", "Q", "queries", ROLE_INPUT, ELEM_INPUT, SHAPE_BHND },
	{ "K", "K", "keys", ROLE_INPUT, ELEM_INPUT, SHAPE_KV },
	{ "V", "V", "values", ROLE_INPUT, ELEM_INPUT, SHAPE_KV },
	{ "S", "S", "scores S = Q·Kᵀ·scale", ROLE_MATRIX, ELEM_INPUT, SHAPE_BHNN },
	{ "P", "P", "probabilities P = softmax(S)", ROLE_MATRIX, ELEM_INPUT, SHAPE_BHNN },
	{ "O", "O", "output O = P·V", ROLE_OUTPUT, ELEM_INPUT, SHAPE_BHND },
	{ "m", "m", "running row maximum", ROLE_STATS, ELEM_F32, SHAPE_BHN },
	{ "l", "ℓ", "running row sum of exp", ROLE_STATS, ELEM_F32, SHAPE_BHN },
	{ "L", "L", "logsumexp L = m + log ℓ", ROLE_STATS, ELEM_F32, SHAPE_BHN },
};
const size_t attn_matrix_count = sizeof(attn_matrices) / sizeof(attn_matrices[0]);

/* ---- tiling ---------------------------------------------------------- */

static int cdiv(int a, int b) { return (a + b - 1) / b; }

int kv_heads_or_heads(int kv_heads, int heads) { return kv_heads > 0 ? kv_heads : heads; }

static void standard_tiling(const struct attn_shape *s, int sm_count, struct tiling *t)
{
	(void)s; (void)sm_count;
	memset(t, 0, sizeof(*t));
	t->block_m = 1;   /* softmax: one row per warp */
	t->block_n = 0;
	t->warps = 4;
	t->splits = 1;
}

/* The flash template's block sizes (kernels/tiles.h, which flash.cuh instantiates). */
static void flash_tiling_for(unsigned sw, const struct attn_shape *s, struct tiling *t)
{
	static const int regs[8][2] = FLASH_FWD_REGS_TABLE;
	const int seqpar = !!(sw & FLASH_SEQPAR), splitq = !!(sw & FLASH_SPLITQ), d = s->head_dim;
	memset(t, 0, sizeof(*t));
	t->block_m = FLASH_FWD_BR(splitq, d);
	t->block_n = FLASH_FWD_BC;
	t->warps = FLASH_FWD_WARPS;
	t->splits = 1;
	t->smem_bytes = (size_t)FLASH_FWD_SMEM(seqpar, splitq, d);
	t->regs_per_thread = regs[sw & FLASH_ALL][d == 128];
}

#define FLASH_TILING(sw) \
	static void flash_tiling_##sw(const struct attn_shape *s, int sm, struct tiling *t) \
	{ (void)sm; flash_tiling_for(sw, s, t); }
FLASH_TILING(0) FLASH_TILING(1) FLASH_TILING(2) FLASH_TILING(3)
FLASH_TILING(4) FLASH_TILING(5) FLASH_TILING(6) FLASH_TILING(7)

/* kernels/decode.cu's tiles (kernels/tiles.h); the split count is the
 * descriptor's choice, passed to the kernel. */
static void decode_splitkv_tiling(const struct attn_shape *s, int sm_count, struct tiling *t)
{
	memset(t, 0, sizeof(*t));
	t->block_m = SPLITKV_ROWS;
	t->block_n = SPLITKV_KT;
	t->warps = SPLITKV_WARPS;
	/* At most one wave of blocks: a second, partial wave would leave most
	 * SMs idle (measured: 9 splits × 32 heads = 288 blocks read at 80 % of
	 * copy bandwidth, see docs/kernels.md).  Each split at least
	 * SPLITKV_MIN_TILES tiles long, the split length a multiple of the
	 * tile, and no empty split. */
	long long g = s->kv_heads > 0 ? s->heads / s->kv_heads : 1;
	/* in 64 bits: a results file's shape may be as large as MAX_BATCH × MAX_HEADS × MAX_SEQLEN */
	long long groups = (long long)s->batch * s->kv_heads * ((g * s->seqlen_q + t->block_m - 1) / t->block_m);
	int want = (int)(SPLITKV_BLOCKS_PER_SM * sm_count_or_default(sm_count) / (groups > 0 ? groups : 1));
	/* a ragged batch: the splits cover its longest request (a shorter one's
	 * last splits are empty: -inf logsumexp, weight 0 in the combine) */
	const int nkv = paged_max_len(s);
	int max_splits = cdiv(nkv, SPLITKV_MIN_TILES * t->block_n);
	int splits = want < max_splits ? want : max_splits;
	if (splits < 1)
		splits = 1;
	if (splits > SPLITKV_MAX_SPLITS)
		splits = SPLITKV_MAX_SPLITS;
	int chunk = cdiv(cdiv(nkv, splits), t->block_n) * t->block_n;
	t->splits = cdiv(nkv, chunk);
	t->smem_bytes = (size_t)SPLITKV_SMEM(s->head_dim);
	t->regs_per_thread = SPLITKV_REGS(s->head_dim);
}

int splitkv_chunk(const struct attn_shape *s, const struct tiling *t)
{
	const int splits = t->splits > 0 ? t->splits : 1, bn = t->block_n > 0 ? t->block_n : 1;
	return cdiv(cdiv(paged_max_len(s), splits), bn) * bn;
}

/* ---- grids ----------------------------------------------------------- */

static void standard_grid(const struct attn_shape *s, const struct tiling *t, int k, int g[3])
{
	(void)t;
	/* GEMM grids are cuBLAS's choice: report the batch count only. */
	g[0] = k == 1 ? cdiv(s->seqlen_q, 4) : 1;
	g[1] = k == 1 ? s->batch * s->heads : 1;
	g[2] = k == 1 ? 1 : s->batch * s->heads;
}

static void flash_grid(const struct attn_shape *s, const struct tiling *t, int k, int g[3], unsigned sw)
{
	(void)k;
	const int seqpar = (sw & FLASH_SEQPAR) != 0, bh = s->batch * s->heads;
	g[0] = FLASH_FWD_GRID_X(seqpar, s->seqlen_q, t->block_m, bh);
	g[1] = FLASH_FWD_GRID_Y(seqpar, bh);
	g[2] = 1;
}

#define FLASH_GRID(sw) \
	static void flash_grid_##sw(const struct attn_shape *s, const struct tiling *t, int k, int g[3]) \
	{ flash_grid(s, t, k, g, sw); }
FLASH_GRID(0) FLASH_GRID(1) FLASH_GRID(2) FLASH_GRID(3)
FLASH_GRID(4) FLASH_GRID(5) FLASH_GRID(6) FLASH_GRID(7)

static void decode_splitkv_grid(const struct attn_shape *s, const struct tiling *t, int k, int g[3])
{
	if (k == 0) {
		int grp = s->kv_heads > 0 ? s->heads / s->kv_heads : 1;
		g[0] = t->splits;
		g[1] = s->batch * s->kv_heads * cdiv(grp * s->seqlen_q, t->block_m);
		g[2] = 1;
	} else {
		g[0] = cdiv(s->seqlen_q * s->head_dim, SPLITKV_COMBINE_COLS);
		g[1] = s->batch * s->heads;
		g[2] = 1;
	}
}


/* ---- the table ------------------------------------------------------- */

#define BUF_Q { "Q", "Q", "queries", ROLE_INPUT, ELEM_INPUT, SHAPE_BHND }
#define BUF_K { "K", "K", "keys", ROLE_INPUT, ELEM_INPUT, SHAPE_KV }
#define BUF_V { "V", "V", "values", ROLE_INPUT, ELEM_INPUT, SHAPE_KV }
#define BUF_O { "O", "O", "output", ROLE_OUTPUT, ELEM_INPUT, SHAPE_BHND }

/* ---- backward descriptors (reached through variant_desc.bwd) ---------- */

#define BUF_DO { "dO", "dO", "incoming gradient dO = ∂loss/∂O", ROLE_GRAD_INPUT, ELEM_INPUT, SHAPE_BHND }
#define BUF_DQ { "dQ", "dQ", "gradient of Q", ROLE_GRADIENT, ELEM_INPUT, SHAPE_BHND }
#define BUF_DK { "dK", "dK", "gradient of K", ROLE_GRADIENT, ELEM_INPUT, SHAPE_KV }
#define BUF_DV { "dV", "dV", "gradient of V", ROLE_GRADIENT, ELEM_INPUT, SHAPE_KV }

static void standard_bwd_tiling(const struct attn_shape *s, int sm_count, struct tiling *t)
{
	(void)s; (void)sm_count;
	memset(t, 0, sizeof(*t));
	t->block_m = 1;   /* softmax_bwd: one row per warp */
	t->warps = BWD_ROW_WARPS;
	t->splits = 1;
	t->regs_per_thread = 0; /* two instantiations; small (ptxas -v) */
}

static void standard_bwd_grid(const struct attn_shape *s, const struct tiling *t, int k, int g[3])
{
	(void)t;
	/* kernels: dP GEMM, softmax_bwd, dV, dK, dQ GEMMs; GEMM grids are cuBLAS's */
	g[0] = k == 1 ? cdiv(s->seqlen_q, BWD_ROW_WARPS) : 1;
	g[1] = k == 1 ? s->batch * s->heads : 1;
	g[2] = k == 1 ? 1 : s->batch * s->kv_heads;
}

static const struct variant_desc standard_bwd = {
	.name = "standard",
	.summary = "standard backward: dP = dO·Vᵀ, dV = Pᵀ·dO, dQ = dS·K·scale, dK = dSᵀ·Q·scale as cuBLAS GEMMs and a softmax-backward kernel dS = P ∘ (dP − rowsum(dO ∘ O)); dP and dS stored in HBM beside S and P",
	.family = FAMILY_STANDARD_BWD, .main_kernel = 1, .bwd = &standard_bwd, /* itself: its own pass */
	.phases = 1u << PHASE_PREFILL, .head_dims = ATTN_HEAD_DIMS,
	.loop = LOOP_NONE, .warps = WARPS_LIBRARY, .rescale = RESCALE_NONE,
	.grid_text = "five launches: batched GEMM over B·Hkv (dP), softmax backward with one warp per row, three batched GEMMs (dV, dK, dQ)",
	.warp_text = "cuBLAS chooses the GEMM warp layout; softmax backward: one warp per row of P",
	.buffers = {
		BUF_Q, BUF_K, BUF_V,
		{ "S", "S", "scores S = Q·Kᵀ·scale (forward)", ROLE_MATRIX, ELEM_INPUT, SHAPE_BHNN },
		{ "P", "P", "probabilities P = softmax(S) (forward, read by the backward)", ROLE_MATRIX, ELEM_INPUT, SHAPE_BHNN },
		BUF_O, BUF_DO,
		{ "dP", "dP", "dP = dO·Vᵀ", ROLE_MATRIX, ELEM_INPUT, SHAPE_BHNN },
		{ "dS", "dS", "dS = P ∘ (dP − rowsum(dO ∘ O))", ROLE_MATRIX, ELEM_INPUT, SHAPE_BHNN },
		BUF_DQ, BUF_DK, BUF_DV,
	},
	.nbuffers = 12,
	.kernels = {
		{ "dp_gemm", NULL, "dP = dO·Vᵀ (cuBLAS strided-batched GEMM)", "GEMM tile", "GEMM tile", "batch·KV head", PATH_LIBRARY },
		{ "softmax_bwd", "softmax_bwd", "dS = P ∘ (dP − rowsum(dO ∘ O)) row by row", "row block", "batch·head", NULL },
		{ "dv_gemm", NULL, "dV = Pᵀ·dO (cuBLAS strided-batched GEMM)", "GEMM tile", "GEMM tile", "batch·KV head", PATH_LIBRARY },
		{ "dk_gemm", NULL, "dK = dSᵀ·Q·scale (cuBLAS strided-batched GEMM)", "GEMM tile", "GEMM tile", "batch·KV head", PATH_LIBRARY },
		{ "dq_gemm", NULL, "dQ = dS·K·scale (cuBLAS strided-batched GEMM)", "GEMM tile", "GEMM tile", "batch·KV head", PATH_LIBRARY },
	},
	.nkernels = 5,
	.tiling = standard_bwd_tiling,
	.grid = standard_bwd_grid,
};

/* kernels/flash_bwd.cu instantiates exactly these (kernels/tiles.h). */
static void flash2_bwd_tiling(const struct attn_shape *s, int sm_count, struct tiling *t)
{
	(void)sm_count;
	memset(t, 0, sizeof(*t));
	t->block_m = FLASH_BWD_BR(s->head_dim);
	t->block_n = FLASH_BWD_BC;
	t->warps = FLASH_BWD_WARPS;
	t->splits = 1;
	t->smem_bytes = FLASH_BWD_SMEM(s->head_dim);
	/* ptxas -v, nvcc 13.0, sm_90, at tiles.h's knobs (docs/kernels.md); fp16
	 * and bf16 alike.  Other knobs compile to other counts, which
	 * test_bwd_gpu reports as a mismatch (an A/B build's only failure). */
	t->regs_per_thread = s->head_dim == 128 ? 253 : 224;
}

static void flash2_bwd_grid(const struct attn_shape *s, const struct tiling *t, int k, int g[3])
{
	g[1] = g[2] = 1;
	if (k == 0) {        /* bwd_dot_do_o: one warp per row */
		g[0] = (int)(((long long)s->batch * s->heads * s->seqlen_q + BWD_ROW_WARPS - 1) / BWD_ROW_WARPS);
	} else if (k == 1) { /* flash_bwd: (K/V blocks, B·Hkv) */
		g[0] = cdiv(s->seqlen_kv, t->block_n);
		g[1] = s->batch * s->kv_heads;
	} else {             /* bwd_convert_dq: 4 elements per thread, 256 threads, at most 2^20 blocks */
		long long n4 = (long long)s->batch * s->heads * s->seqlen_q * s->head_dim / 4;
		long long b = (n4 + 255) / 256;
		g[0] = (int)(b > (1 << 20) ? (1 << 20) : b);
	}
}

static const struct variant_desc flash2_bwd = {
	.name = "flash2",
	.summary = "FlashAttention-2 backward: D = rowsum(dO ∘ O); a K/V-parallel kernel recomputes S, P from Q, K and L, keeps dK, dV on chip and adds dQ into an fp32 accumulator; dQ converted last",
	.family = FAMILY_FLASH2_BWD, .main_kernel = 1, .bwd = &flash2_bwd, /* itself: its own pass */
	.phases = 1u << PHASE_PREFILL, .head_dims = ATTN_HEAD_DIMS,
	.loop = LOOP_KV_OUTER, .warps = WARPS_SPLIT_K, .rescale = RESCALE_NONE,
	.grid_text = "grid = (⌈Nkv/Bc⌉, B·Hkv): one thread block per K/V block of one KV head; inner loop over the Q blocks of its query heads (causal: those on or below the diagonal)",
	.warp_text = "8 warps: S, dP as 2 × 4 warp tiles of 32 queries × 32 keys; P, dS through shared memory; dK, dV as 4 × 2 tiles of 32 keys × d/2 in registers; dQ = dS·K as 2 × 4 tiles",
	.buffers = {
		BUF_Q, BUF_K, BUF_V, BUF_O,
		{ "L", "L", "logsumexp L of the forward, read to recompute P", ROLE_STATS, ELEM_F32, SHAPE_BHN },
		BUF_DO,
		{ "D", "D", "D = rowsum(dO ∘ O)", ROLE_STATS, ELEM_F32, SHAPE_BHN },
		{ "dQ_acc", "dQ_acc", "fp32 dQ accumulator (added to in the L2 by each K/V block: a bulk reduction per row)", ROLE_WORKSPACE, ELEM_F32, SHAPE_BHND },
		BUF_DQ, BUF_DK, BUF_DV,
	},
	.nbuffers = 11,
	.tiles = {
		{ "K_j", "a block of Bc key rows", TD_BC, TD_D, IN_SHARED, NULL },
		{ "V_j", "a block of Bc value rows", TD_BC, TD_D, IN_SHARED, NULL },
		{ "Q_i", "a block of Br query rows (double-buffered)", TD_BR, TD_D, IN_SHARED, NULL },
		{ "dO_i", "the same rows of dO (double-buffered)", TD_BR, TD_D, IN_SHARED, NULL },
		{ "P_ij", "probabilities recomputed from S and L (through shared memory for dV)", TD_BR, TD_BC, IN_SHARED, "P" },
		{ "dS_ij", "dS of the tile pair (through shared memory for dK and dQ)", TD_BR, TD_BC, IN_SHARED, "dS" },
		{ "dQ_i", "dQ of the tile pair (fp32), reduced into dQ_acc from shared memory row by row", TD_BR, TD_D, IN_SHARED, NULL, ELEM_F32 },
		{ "dK_j", "dK accumulator (fp32)", TD_BC, TD_D, IN_REGISTERS, NULL, ELEM_F32 },
		{ "dV_j", "dV accumulator (fp32)", TD_BC, TD_D, IN_REGISTERS, NULL, ELEM_F32 },
	},
	.ntiles = 9,
	.kernels = {
		{ "bwd_dot_do_o", "bwd_dot_do_o", "D = rowsum(dO ∘ O); dQ_acc zeroed", "row block", NULL, NULL },
		{ "flash_bwd", "flash_bwd", "fused attention backward over K/V blocks", "K/V block j", "batch·KV head", NULL, PATH_MMA_SYNC },
		{ "bwd_convert_dq", "bwd_convert_dq", "dQ = dQ_acc · scale in the input type", "element block", NULL, NULL },
	},
	.nkernels = 3,
	.tiling = flash2_bwd_tiling,
	.grid = flash2_bwd_grid,
};

static const struct variant_desc standard = {
	.name = "standard",
	.doc_role = DOC_CONVENTIONAL, .color_slot = 1,
	.summary = "S = Q·Kᵀ·scale and O = P·V as cuBLAS tensor-core GEMMs, softmax kernel S → P; S and P stored in HBM",
	.family = FAMILY_STANDARD, .main_kernel = 1, .bwd = &standard_bwd,
	.phases = 1u << PHASE_PREFILL, .head_dims = ATTN_HEAD_DIMS,
	.loop = LOOP_NONE, .warps = WARPS_LIBRARY, .rescale = RESCALE_NONE,
	.grid_text = "three launches: batched GEMM over B·H, softmax with one warp per row, batched GEMM",
	.warp_text = "cuBLAS chooses the GEMM warp layout; softmax: one warp per row of S",
	.buffers = {
		BUF_Q, BUF_K, BUF_V,
		{ "S", "S", "scores S = Q·Kᵀ·scale", ROLE_MATRIX, ELEM_INPUT, SHAPE_BHNN },
		{ "P", "P", "probabilities P = softmax(S)", ROLE_MATRIX, ELEM_INPUT, SHAPE_BHNN },
		BUF_O,
	},
	.nbuffers = 6,
	.ntiles = 0,
	.kernels = {
		{ "qk_gemm", NULL, "S = Q·Kᵀ·scale (cuBLAS strided-batched GEMM)", "GEMM tile", "GEMM tile", "batch·head", PATH_LIBRARY },
		{ "softmax", "softmax_rows", "P = softmax(S) row by row", "row block", "batch·head", NULL },
		{ "pv_gemm", NULL, "O = P·V (cuBLAS strided-batched GEMM)", "GEMM tile", "GEMM tile", "batch·head", PATH_LIBRARY },
	},
	.nkernels = 3,
	.tiling = standard_tiling,
	.grid = standard_grid,
};

#define FLASH_TILES(sw) { \
	{ "Q_i", "a block of Br query rows", TD_BR, TD_D, IN_SHARED, NULL }, \
	{ "K_j", "a block of Bc key rows", TD_BC, TD_D, IN_SHARED, NULL }, \
	{ "V_j", "a block of Bc value rows", TD_BC, TD_D, IN_SHARED, NULL }, \
	{ "S_ij", "scores of the tile pair", TD_BR, TD_BC, IN_REGISTERS, "S" }, \
	{ "P_ij", "probabilities of the tile pair", TD_BR, TD_BC, IN_REGISTERS, "P" }, \
	{ "O_i", "output accumulator (fp32)", TD_BR, TD_D, IN_REGISTERS, NULL, ELEM_F32 }, \
	}

#define FLASH_BUFFERS_KVOUTER_EVERY \
	{ BUF_Q, BUF_K, BUF_V, BUF_O, \
	  { "O_acc", "O_acc", "fp32 output accumulator, read and written every outer step", ROLE_WORKSPACE, ELEM_F32, SHAPE_BHND }, \
	  { "m", "m", "running row maximum", ROLE_STATS, ELEM_F32, SHAPE_BHN }, \
	  { "l", "ℓ", "running row sum of exp", ROLE_STATS, ELEM_F32, SHAPE_BHN } }
#define FLASH_BUFFERS_KVOUTER_LAZY \
	{ BUF_Q, BUF_K, BUF_V, BUF_O, \
	  { "O_acc", "O_acc", "fp32 unnormalised output accumulator, read and written every outer step", ROLE_WORKSPACE, ELEM_F32, SHAPE_BHND }, \
	  { "m", "m", "running row maximum", ROLE_STATS, ELEM_F32, SHAPE_BHN }, \
	  { "l", "ℓ", "running row sum of exp", ROLE_STATS, ELEM_F32, SHAPE_BHN }, \
	  { "L", "L", "logsumexp L = m + log ℓ", ROLE_STATS, ELEM_F32, SHAPE_BHN } }
#define FLASH_BUFFERS_QOUTER_EVERY \
	{ BUF_Q, BUF_K, BUF_V, BUF_O, \
	  { "m", "m", "row maximum", ROLE_STATS, ELEM_F32, SHAPE_BHN }, \
	  { "l", "ℓ", "row sum of exp", ROLE_STATS, ELEM_F32, SHAPE_BHN } }
#define FLASH_BUFFERS_QOUTER_LAZY \
	{ BUF_Q, BUF_K, BUF_V, BUF_O, \
	  { "L", "L", "logsumexp L = m + log ℓ", ROLE_STATS, ELEM_F32, SHAPE_BHN } }

/* What evidences each of the FA2 changes (ablation figures and table) */
#define EVIDENCE_SEQPAR { { "blocks", "blocks", 1 }, { "sms_busy", "SMs busy", 1 }, \
	{ "occupancy", "achieved occupancy", 1 }, { "hbm_bytes", "HBM", 2 }, { "l2_bytes", "L2", 2 } }
#define EVIDENCE_SPLITQ { { "smem_st_wavefronts", "smem store wavefronts", 1 }, { "barrier_stalls", "barrier stalls", 2 } }
#define EVIDENCE_LAZY { { "xu_inst", "MUFU inst.", 1 }, { "fp32_inst", "FP32 thread inst.", 2 } }
#define EVIDENCE_NONE { { NULL, NULL, 0 } }

#define FLASH_VARIANT(sw, nm, summ, nb, bufs, back, par, chg, only, ev) { \
	.name = nm, .summary = summ, .family = FAMILY_FLASH, .main_kernel = 0, .bwd = back, \
	.parent = par, .change = chg, .ladder_only = only, .evidence = ev, \
	.patent_term = (sw) == 0 ? "first tiled computation" : (sw) == FLASH_ALL ? "second tiled computation" : NULL, \
	.doc_role = (sw) == 0 ? DOC_BASELINE : (sw) == FLASH_ALL ? DOC_SUBJECT : DOC_NONE, \
	.color_slot = (sw) == 0 ? 2 : (sw) == FLASH_ALL ? 3 : 0, \
	.phases = 1u << PHASE_PREFILL, .head_dims = ATTN_HEAD_DIMS, .is_flash = 1, .switches = sw, \
	.loop = (sw) & FLASH_SEQPAR ? LOOP_Q_OUTER : LOOP_KV_OUTER, \
	.warps = (sw) & FLASH_SPLITQ ? WARPS_SPLIT_Q : WARPS_SPLIT_K, \
	.rescale = (sw) & FLASH_LAZY ? RESCALE_ONCE : RESCALE_EVERY_STEP, \
	.grid_text = (sw) & FLASH_SEQPAR \
		? "grid = (⌈N/Br⌉, B·H): one thread block per q-block of one head; outer loop over Q, inner over K/V" \
		: "grid = B·H: one thread block per head; outer loop over K/V blocks, inner over Q blocks", \
	.warp_text = (sw) & FLASH_SPLITQ \
		? "split-Q: each warp owns Br/warps query rows and reads all of K_j, V_j; no inter-warp reduction" \
		: "split-K: each warp owns Bc/warps keys of K_j, V_j; partial O combined through shared memory", \
	.buffers = bufs, .nbuffers = nb, \
	.tiles = FLASH_TILES(sw), .ntiles = 6, \
	.kernels = { { "flash_fwd", "flash_fwd", "fused attention forward", \
		(sw) & FLASH_SEQPAR ? "q-block i" : "batch·head", \
		(sw) & FLASH_SEQPAR ? "batch·head" : NULL, NULL, PATH_MMA_SYNC } }, \
	.nkernels = 1, \
	.tiling = flash_tiling_##sw, .grid = flash_grid_##sw, \
}

static const struct variant_desc flash_variants[8] = {
	FLASH_VARIANT(0, "flash1", "FlashAttention-1 (Algorithm 1): K/V-outer over B·H blocks, split-K warps, rescale every step; O, m, ℓ round-trip HBM",
		      7, FLASH_BUFFERS_KVOUTER_EVERY, NULL, NULL, NULL, 0, EVIDENCE_NONE),
	FLASH_VARIANT(1, "flash1+seqpar", "flash1 with sequence parallelism: Q-outer loop, grid of q-blocks × B·H, O in registers",
		      6, FLASH_BUFFERS_QOUTER_EVERY, NULL, "flash1", "sequence parallelism", 1, EVIDENCE_SEQPAR),
	FLASH_VARIANT(2, "flash1+splitq", "flash1 with split-Q warps (no shared-memory reduction of partial O)",
		      7, FLASH_BUFFERS_KVOUTER_EVERY, NULL, "flash1", "split-Q warps", 1, EVIDENCE_SPLITQ),
	FLASH_VARIANT(3, "flash1+seqpar+splitq", "flash1 with sequence parallelism and split-Q warps; rescale every step",
		      6, FLASH_BUFFERS_QOUTER_EVERY, NULL, "flash1+seqpar", "split-Q warps", 1, EVIDENCE_SPLITQ),
	FLASH_VARIANT(4, "flash1+lazyrescale", "flash1 rescaling O once at the end and storing logsumexp",
		      8, FLASH_BUFFERS_KVOUTER_LAZY, NULL, "flash1", "single rescale", 1, EVIDENCE_LAZY),
	FLASH_VARIANT(5, "flash1+seqpar+lazyrescale", "flash1 with sequence parallelism and a single rescale",
		      5, FLASH_BUFFERS_QOUTER_LAZY, NULL, NULL, NULL, 1, EVIDENCE_NONE),
	FLASH_VARIANT(6, "flash1+splitq+lazyrescale", "flash1 with split-Q warps and a single rescale",
		      8, FLASH_BUFFERS_KVOUTER_LAZY, NULL, NULL, NULL, 1, EVIDENCE_NONE),
	FLASH_VARIANT(7, "flash2", "FlashAttention-2: Q-outer over q-blocks × B·H, split-Q warps, one rescale at the end; stores only logsumexp L",
		      5, FLASH_BUFFERS_QOUTER_LAZY, &flash2_bwd, "flash1+seqpar+splitq", "single rescale", 0, EVIDENCE_LAZY),
};

static void decode_flash2_tiling(const struct attn_shape *s, int sm, struct tiling *t)
{
	(void)sm;
	flash_tiling_for(FLASH_ALL, s, t);
}

static const struct variant_desc decode_flash2 = {
	.name = "decode-flash2",
	.family = FAMILY_FLASH, .main_kernel = 0,
	.doc_role = DOC_DECODE_BASELINE,
	.patent_term = "second tiled computation",
	.summary = "flash2 at decode shapes (query length 1-8): grid of q-blocks × B·H, so one block per (batch, head)",
	.phases = 1u << PHASE_DECODE, .head_dims = ATTN_HEAD_DIMS, .is_flash = 1, .switches = FLASH_ALL,
	.loop = LOOP_Q_OUTER, .warps = WARPS_SPLIT_Q, .rescale = RESCALE_ONCE,
	.grid_text = "grid = (⌈Nq/Br⌉ = 1, B·H): one thread block per (batch, head) walks the whole KV cache",
	.warp_text = "split-Q: the warps own query rows, most of them empty at query length 1",
	.buffers = FLASH_BUFFERS_QOUTER_LAZY, .nbuffers = 5,
	.tiles = FLASH_TILES(FLASH_ALL), .ntiles = 6,
	.kernels = { { "flash_fwd", "flash_fwd", "fused attention forward", "q-block i", "batch·head", NULL, PATH_MMA_SYNC } },
	.nkernels = 1,
	.tiling = decode_flash2_tiling, .grid = flash_grid_7,
};

static const struct variant_desc decode_splitkv = {
	.name = "decode-splitkv",
	.doc_role = DOC_DECODE_SUBJECT,
	.family = FAMILY_SPLITKV, .main_kernel = 0,
	.summary = "split-KV decoding (Flash-Decoding style): KV cache split across blocks, partial O and logsumexp per split, then a reduction kernel",
	.phases = 1u << PHASE_DECODE, .head_dims = ATTN_HEAD_DIMS,
	.loop = LOOP_Q_OUTER, .warps = WARPS_SPLIT_K, .rescale = RESCALE_ONCE,
	.grid_text = "grid = (splits, B·Hkv): each block serves the query heads of one KV head over one slice of the KV cache; a second kernel combines the splits",
	.warp_text = "4 warps split each 64-key tile (16 keys each), keep their own m, ℓ, O; combined once in shared memory",
	.buffers = {
		BUF_Q, BUF_K, BUF_V, BUF_O,
		{ "O_part", "O_part", "partial output per split (fp32)", ROLE_WORKSPACE, ELEM_F32,
		  { DIM_SPLITS, DIM_B, DIM_H, DIM_NQ, DIM_D, DIM_END } },
		{ "L_part", "L_part", "logsumexp per split", ROLE_STATS, ELEM_F32,
		  { DIM_SPLITS, DIM_B, DIM_H, DIM_NQ, DIM_END } },
		{ "L", "L", "logsumexp L = m + log ℓ", ROLE_STATS, ELEM_F32, SHAPE_BHN },
	},
	.nbuffers = 7,
	.tiles = {
		{ "q", "the query rows of one head", TD_BR, TD_D, IN_SHARED, NULL },
		{ "K_j", "a block of Bc cached keys", TD_BC, TD_D, IN_SHARED, NULL },
		{ "V_j", "a block of Bc cached values", TD_BC, TD_D, IN_SHARED, NULL },
		{ "s_j", "scores of the query rows against K_j", TD_BR, TD_BC, IN_REGISTERS, "S" },
		{ "o", "partial output accumulator (fp32)", TD_BR, TD_D, IN_REGISTERS, NULL, ELEM_F32 },
	},
	.ntiles = 5,
	.kernels = {
		{ "splitkv_fwd", "splitkv_fwd", "partial attention over one KV slice", "split", "batch·KV head", NULL, PATH_MMA_SYNC },
		{ "splitkv_combine", "splitkv_combine", "combine the splits by their logsumexp", "row block", "batch·head", NULL },
	},
	.nkernels = 2,
	.tiling = decode_splitkv_tiling, .grid = decode_splitkv_grid,
};

/* The same kernels over a paged cache (kernels/paged.h): one launch for a
 * ragged batch, each block's keys through its request's block-table row. */
static const struct variant_desc decode_paged = {
	.name = "decode-paged",
	.family = FAMILY_SPLITKV, .main_kernel = 0,
	.summary = "split-KV decoding over a paged KV cache (vLLM/FlashInfer layout [pages, page, Hkv, d] through a block table): ragged batches in one launch, GQA packed, query lengths 1-8",
	.phases = 1u << PHASE_DECODE, .head_dims = ATTN_HEAD_DIMS,
	.loop = LOOP_Q_OUTER, .warps = WARPS_SPLIT_K, .rescale = RESCALE_ONCE,
	.grid_text = "grid = (splits, B·Hkv): each block serves the query heads of one KV head over one slice of its request's pages; a second kernel combines the splits",
	.warp_text = "4 warps split each 64-key tile (16 keys each, rows gathered through the block table), keep their own m, ℓ, O; combined once in shared memory",
	.buffers = {
		BUF_Q,
		{ "K", "K", "keys, in pages", ROLE_INPUT, ELEM_INPUT, { DIM_PAGES, DIM_PAGE, DIM_HKV, DIM_D, DIM_END } },
		{ "V", "V", "values, in pages", ROLE_INPUT, ELEM_INPUT, { DIM_PAGES, DIM_PAGE, DIM_HKV, DIM_D, DIM_END } },
		{ "block_table", "table", "each request's pages, in key order (int32)", ROLE_INPUT, ELEM_I32,
		  { DIM_B, DIM_MAXPAGES, DIM_END } },
		{ "kv_lens", "lens", "each request's KV length (int32)", ROLE_INPUT, ELEM_I32, { DIM_B, DIM_END } },
		BUF_O,
		{ "O_part", "O_part", "partial output per split (fp32)", ROLE_WORKSPACE, ELEM_F32,
		  { DIM_SPLITS, DIM_B, DIM_H, DIM_NQ, DIM_D, DIM_END } },
		{ "L_part", "L_part", "logsumexp per split", ROLE_STATS, ELEM_F32,
		  { DIM_SPLITS, DIM_B, DIM_H, DIM_NQ, DIM_END } },
		{ "L", "L", "logsumexp L = m + log ℓ", ROLE_STATS, ELEM_F32, SHAPE_BHN },
	},
	.nbuffers = 9,
	.tiles = {
		{ "q", "the query rows of one head", TD_BR, TD_D, IN_SHARED, NULL },
		{ "K_j", "a block of Bc cached keys, gathered from their pages", TD_BC, TD_D, IN_SHARED, NULL },
		{ "V_j", "a block of Bc cached values, gathered from their pages", TD_BC, TD_D, IN_SHARED, NULL },
		{ "s_j", "scores of the query rows against K_j", TD_BR, TD_BC, IN_REGISTERS, "S" },
		{ "o", "partial output accumulator (fp32)", TD_BR, TD_D, IN_REGISTERS, NULL, ELEM_F32 },
	},
	.ntiles = 5,
	.kernels = {
		{ "splitkv_fwd", "splitkv_fwd", "partial attention over one slice of a request's pages", "split", "batch·KV head", NULL, PATH_MMA_SYNC },
		{ "splitkv_combine", "splitkv_combine", "combine the splits by their logsumexp", "row block", "batch·head", NULL },
	},
	.nkernels = 2,
	.tiling = decode_splitkv_tiling, .grid = decode_splitkv_grid,
};

/* ---- the Hopper forward (kernels/hopper) --------------------------------- */

#include "hopper/hopper_tiles.h"

#define HOPPER_TILING(rung) \
	static void hopper_tiling_##rung(const struct attn_shape *s, int sm, struct tiling *t) \
	{ \
		(void)sm; \
		memset(t, 0, sizeof(*t)); \
		t->block_m = HOPPER_BLOCK_M; \
		t->block_n = HOPPER_BLOCK_N(s->head_dim); \
		t->warps = HOPPER_THREADS(rung) / 32; \
		t->splits = 1; \
		t->smem_bytes = (size_t)HOPPER_SMEM(s->head_dim); \
		t->regs_per_thread = HOPPER_REGS(rung, s->head_dim); \
	}
HOPPER_TILING(0) HOPPER_TILING(1) HOPPER_TILING(2) HOPPER_TILING(3)

/* (⌈Nq/Br⌉, B·H), as flash2's */
static void hopper_grid(const struct attn_shape *s, const struct tiling *t, int k, int g[3])
{
	flash_grid(s, t, k, g, FLASH_SEQPAR);
}

/* The loop of hopper_fwd_kernel, row by row in its code's order (rung bits:
 * R0 +wgmma, R1 +tma+ws, R2 +pingpong, R3 +overlap; the template's WS is
 * rungs 1-3, PP 2-3, OV 3).  The timeline figure is computed from this
 * table: a change to the kernel's loop is a change here. */
#define R_ALL 0xFu
#define R_WS 0xEu   /* WS: a producer warpgroup */
#define R_INL 0x1u  /* !WS: consumer 0's thread 0 loads inline */
#define R_PP 0xCu   /* PP: the consumers take turns */
#define R_OV 0x8u   /* OV: softmax under the P·V in flight */
#define R_NOV 0x7u
static const struct sched_step hopper_steps[] = {
	/* producer warpgroup, j = 0 .. nkb-1: refill a stage once both consumers released it */
	{ SR_PRODUCER, SO_WAIT_EMPTY_K, 0, -1, 0, 0, 0, R_WS, "mbar_wait(emptyK(st)" },
	{ SR_PRODUCER, SO_LOAD_K, 0, 0, 0, 0, 0, R_WS, "load_k(j)" },
	{ SR_PRODUCER, SO_WAIT_EMPTY_V, 0, -1, 0, 0, 0, R_WS, "mbar_wait(emptyV(st)" },
	{ SR_PRODUCER, SO_LOAD_V, 0, 0, 0, 0, 0, R_WS, "load_v(j)" },
	/* no producer: thread 0 fills the ring before the loop, j = 0 .. S-1 */
	{ SR_PROLOGUE, SO_LOAD_K, 0, 0, 0, 0, 0, R_INL, "load_k(j)" },
	{ SR_PROLOGUE, SO_LOAD_V, 0, 0, 0, 0, 0, R_INL, "load_v(j)" },
	/* each consumer, phase j: S_j = Q·K_jᵀ and O += P_{j-1}·V_{j-1} (phase 0 and nkb peeled) */
	{ SR_CONSUMER, SO_WAIT_FULL_K, 0, 0, 0, 0, 0, R_ALL, "mbar_wait(fullK(st)" },
	{ SR_CONSUMER, SO_WAIT_FULL_V, -1, 0, 0, 0, 0, R_ALL, "mbar_wait(fullV(sp)" },
	{ SR_CONSUMER, SO_TURN_WAIT, 0, 0, 0, 0, 0, R_PP, "sched_begin()" },
	{ SR_CONSUMER, SO_GEMM_QK, 0, 0, 0, 0, 0, R_ALL, "issue_qk<D, BF>(s, sQw, sK0 + st * TL::KBYTES)" },
	{ SR_CONSUMER, SO_GEMM_PV, -1, 0, 0, 0, 0, R_ALL, "issue_pv<D, BF>(o, pk, sV0 + sp * TL::KBYTES)" },
	{ SR_CONSUMER, SO_TURN_PASS, 0, 0, 0, 0, 0, R_PP, "sched_end(false)" },
	{ SR_CONSUMER, SO_WAIT_GEMM_ALL, 0, 0, 0, 0, 0, R_NOV, "wg_wait<0>()" },
	{ SR_CONSUMER, SO_WAIT_GEMM_QK, 0, 0, 0, 0, 0, R_OV, "wg_wait<1>()" },
	{ SR_CONSUMER, SO_FREE_K, 0, 0, 0, 0, 0, R_ALL, "mbar_arrive(emptyK(st))" },
	{ SR_CONSUMER, SO_SOFTMAX, 0, 0, 0, 0, 0, R_ALL, "softmax_block<CAUSAL>(s, m, l, corr, needs_mask(j)" },
	{ SR_CONSUMER, SO_WAIT_GEMM_ALL, 0, 0, 0, 0, 0, R_OV, "wg_wait<0>()" },
	{ SR_CONSUMER, SO_FREE_V, -1, 0, 0, 0, 0, R_ALL, "mbar_arrive(emptyV(sp))" },
	/* no producer: thread 0 refills block j-1's stage with block j-1+S once both consumers released it */
	{ SR_INLINE, SO_WAIT_EMPTY_K, -1, 0, 1, -1, 1, R_INL, "mbar_wait(emptyK(sp)" },
	{ SR_INLINE, SO_WAIT_EMPTY_V, -1, 0, 1, -1, 1, R_INL, "mbar_wait(emptyV(sp)" },
	{ SR_INLINE, SO_LOAD_K, -1, 1, 1, -1, 0, R_INL, "load_k(j - 1 + S)" },
	{ SR_INLINE, SO_LOAD_V, -1, 1, 1, -1, 0, R_INL, "load_v(j - 1 + S)" },
};

static int hopper_stages(int d) { return HOPPER_STAGES(d); }

#define HOPPER_WS(r) { \
	.producer_warpgroups = HOPPER_PRODUCERS(r), .consumer_warpgroups = HOPPER_CONSUMERS, \
	.warpgroup_threads = HOPPER_WARPGROUP, .issuing_threads = 1, \
	.regs_producer = HOPPER_PRODUCERS(r) ? HOPPER_REGS_PRODUCER : 0, \
	.regs_consumer = HOPPER_PRODUCERS(r) ? HOPPER_REGS_CONSUMER : 0, \
	.rows_per_consumer = HOPPER_BLOCK_M / HOPPER_CONSUMERS, .empty_arrivals = HOPPER_EMPTY_ARRIVALS, \
	.elem_bytes = 2, .stages = hopper_stages, \
	.steps = hopper_steps, .nsteps = sizeof(hopper_steps) / sizeof(hopper_steps[0]), \
}
static const struct ws_desc hopper_ws[4] = { HOPPER_WS(0), HOPPER_WS(1), HOPPER_WS(2), HOPPER_WS(3) };

/* The Hopper backward (kernels/hopper/hopper_bwd.cu), rung 1 "+tma+ws": the
 * backward pass of every Hopper forward rung (the forward rung prepares O
 * and L).  Tiles as hopper_bwd.h holds them: Br = HOPPER_BWD_BLOCK_M query
 * rows a step, Bc = HOPPER_BWD_BLOCK_N keys a CTA. */
#include "hopper/hopper_bwd.h"

static void hopper_bwd_tiling(const struct attn_shape *s, int sm_count, struct tiling *t)
{
	(void)sm_count;
	memset(t, 0, sizeof(*t));
	t->block_m = HOPPER_BWD_BLOCK_M;
	t->block_n = HOPPER_BWD_BLOCK_N;
	t->warps = HOPPER_BWD_WS_THREADS / 32;
	t->splits = 1;
	t->smem_bytes = (size_t)HOPPER_BWD_WS_SMEM(s->head_dim);
	/* ptxas -v, nvcc 13.0, sm_90a, every instantiation (the launch's figure,
	 * before setmaxnreg moves them: producer 24, consumers 240) */
	t->regs_per_thread = 168;
}

/* hopper_bwd_prep: 8 rows per 256-thread block; the main kernel (⌈Nkv/Bc⌉,
 * B·Hkv); hopper_bwd_dq: 4 elements per thread, at most 2^20 blocks */
static void hopper_bwd_grid(const struct attn_shape *s, const struct tiling *t, int k, int g[3])
{
	flash2_bwd_grid(s, t, k, g);
}

static const struct variant_desc hopper_bwd_desc = {
	.name = "hopper-bwd+tma+ws",
	.summary = "Hopper backward: D = rowsum(dO ∘ O); a K/V-parallel kernel on wgmma with a TMA producer warpgroup recomputes S, P from Q, K and L, keeps dK, dV in registers and adds dQ into an fp32 accumulator by TMA reductions; dQ converted last",
	.family = FAMILY_HOPPER_BWD, .main_kernel = 1, .bwd = &hopper_bwd_desc, /* itself: its own pass */
	.phases = 1u << PHASE_PREFILL, .head_dims = HOPPER_BWD_HEAD_DIMS,
	.loop = LOOP_KV_OUTER, .warps = WARPS_SPLIT_K, .rescale = RESCALE_NONE,
	.grid_text = "grid = (⌈Nkv/Bc⌉, B·Hkv): one thread block per 128-key block of one KV head; inner loop over the 64-row Q blocks of its query heads (causal: those on or below the diagonal)",
	.warp_text = "producer warpgroup: TMA of K, V once and of Q, dO into a 2-stage ring (setmaxnreg 24); two consumer warpgroups of 64 keys each (setmaxnreg 240): Sᵀ, dPᵀ, dV, dK on wgmma, dS through shared memory for dQ",
	.buffers = {
		BUF_Q, BUF_K, BUF_V, BUF_O,
		{ "L", "L", "logsumexp L of the forward, read to recompute P", ROLE_STATS, ELEM_F32, SHAPE_BHN },
		BUF_DO,
		{ "D", "D", "D = rowsum(dO ∘ O)", ROLE_STATS, ELEM_F32, SHAPE_BHN },
		{ "dQ_acc", "dQ_acc", "fp32 dQ accumulator (added to in the L2 by each K/V block: a TMA reduction per warpgroup tile)", ROLE_WORKSPACE, ELEM_F32, SHAPE_BHND },
		BUF_DQ, BUF_DK, BUF_DV,
	},
	.nbuffers = 11,
	.tiles = {
		{ "K_j", "a block of Bc key rows (TMA)", TD_BC, TD_D, IN_SHARED, NULL },
		{ "V_j", "a block of Bc value rows (TMA)", TD_BC, TD_D, IN_SHARED, NULL },
		{ "Q_i", "a block of Br query rows (TMA, 2-stage ring)", TD_BR, TD_D, IN_SHARED, NULL },
		{ "dO_i", "the same rows of dO (TMA, 2-stage ring)", TD_BR, TD_D, IN_SHARED, NULL },
		{ "P_ij", "probabilities recomputed from S and L, the A operand of dV from registers", TD_BR, TD_BC, IN_REGISTERS, "P" },
		{ "dS_ij", "dS of the tile pair (registers for dK; shared memory, two buffers, for dQ)", TD_BR, TD_BC, IN_SHARED, "dS" },
		{ "dQ_i", "dQ of the tile pair (fp32), reduced into dQ_acc from shared memory by TMA", TD_BR, TD_D, IN_SHARED, NULL, ELEM_F32 },
		{ "dK_j", "dK accumulator (fp32)", TD_BC, TD_D, IN_REGISTERS, NULL, ELEM_F32 },
		{ "dV_j", "dV accumulator (fp32)", TD_BC, TD_D, IN_REGISTERS, NULL, ELEM_F32 },
	},
	.ntiles = 9,
	.kernels = {
		{ "hopper_bwd_prep", "hopper_bwd_prep", "D = rowsum(dO ∘ O) (dQ_acc zeroed before it)", "row block", NULL, NULL },
		{ "hopper_bwd_ws", "hopper_bwd_ws_kernel", "fused attention backward over K/V blocks on wgmma", "K/V block j", "batch·KV head", NULL, PATH_WGMMA },
		{ "hopper_bwd_dq", "hopper_bwd_dq", "dQ = dQ_acc · scale in the input type", "element block", NULL, NULL },
	},
	.nkernels = 3,
	.tiling = hopper_bwd_tiling,
	.grid = hopper_bwd_grid,
};

/* What evidences the FA3 steps: the tensor pipe kept busy, the stalls it removes */
#define EVIDENCE_HOPPER { { "tensor_active", "tensor pipe active", 1 }, { "registers", "registers", 1 }, \
	{ "barrier_stalls", "barrier stalls", 2 }, { "occupancy", "achieved occupancy", 2 } }

#define HOPPER_VARIANT(r, nm, par, chg, only, summ, wtext) { \
	.name = nm, .summary = summ, .family = FAMILY_HOPPER, .main_kernel = 0, .rung = r, .bwd = &hopper_bwd_desc, \
	.parent = par, .change = chg, .ladder_only = only, .evidence = EVIDENCE_HOPPER, \
	.patent_term = "asynchronous tiled computation", \
	.phases = 1u << PHASE_PREFILL, .head_dims = HOPPER_HEAD_DIMS, \
	.loop = LOOP_Q_OUTER, .warps = WARPS_SPLIT_Q, .rescale = RESCALE_ONCE, \
	.grid_text = "grid = (⌈N/Br⌉, B·H): one thread block per q-block of one head; Br = 128 rows, two consumer warpgroups of 64", \
	.warp_text = wtext, \
	.buffers = FLASH_BUFFERS_QOUTER_LAZY, .nbuffers = 5, \
	.tiles = { \
		{ "Q_i", "a block of Br query rows (TMA, 128-byte swizzle)", TD_BR, TD_D, IN_SHARED, NULL }, \
		{ "K_j", "a ring of Bc-key blocks (TMA, mbarriers)", TD_BC, TD_D, IN_SHARED, NULL }, \
		{ "V_j", "a ring of Bc-value blocks (TMA, mbarriers)", TD_BC, TD_D, IN_SHARED, NULL }, \
		{ "S_ij", "scores of the tile pair (wgmma accumulators)", TD_BR, TD_BC, IN_REGISTERS, "S" }, \
		{ "P_ij", "probabilities, the A operand of P·V from registers", TD_BR, TD_BC, IN_REGISTERS, "P" }, \
		{ "O_i", "output accumulator (fp32)", TD_BR, TD_D, IN_REGISTERS, NULL, ELEM_F32 } }, \
	.ntiles = 6, \
	.kernels = { { "hopper_fwd", "hopper_fwd_kernel", "fused attention forward on wgmma", "q-block i", "batch·head", NULL, PATH_WGMMA } }, \
	.nkernels = 1, \
	.tiling = hopper_tiling_##r, .grid = hopper_grid, .ws = &hopper_ws[r], \
}

static const struct variant_desc hopper_variants[4] = {
	HOPPER_VARIANT(0, "hopper+wgmma", "flash2", "wgmma and TMA", 1,
		       "flash2's loop on Hopper's warpgroup MMA: Q·Kᵀ and P·V by wgmma, waited at once; tiles by TMA",
		       "two consumer warpgroups of 64 rows each issue wgmma; one of their threads issues the TMA loads"),
	HOPPER_VARIANT(1, "hopper+tma+ws", "hopper+wgmma", "warp specialisation", 1,
		       "+ warp specialisation: a TMA producer warpgroup (24 registers) fills a ring of K/V stages on mbarriers; the consumers (240) compute",
		       "producer warpgroup: TMA into the K/V ring (setmaxnreg 24); two consumer warpgroups (setmaxnreg 240) split the Br rows"),
	HOPPER_VARIANT(2, "hopper+pingpong", "hopper+tma+ws", "pingpong warpgroups", 1,
		       "+ pingpong: the consumer warpgroups take turns issuing their GEMMs (named barriers), so one's softmax runs under the other's",
		       "producer warpgroup as +tma+ws; the consumers alternate: one issues Q·Kᵀ and P·V while the other does its softmax"),
	HOPPER_VARIANT(3, "hopper+overlap", "hopper+pingpong", "softmax under the GEMM", 0,
		       "+ overlap inside a warpgroup: the softmax of block j runs while the P·V GEMM of block j−1 is in flight",
		       "as +pingpong, and each consumer issues block j+1's Q·Kᵀ before its softmax of block j"),
};

const struct variant_desc *const variant_table[] = {
	&standard,
	&flash_variants[0], &flash_variants[7],
	&flash_variants[1], &flash_variants[2], &flash_variants[4],
	&flash_variants[3], &flash_variants[5], &flash_variants[6],
	&decode_flash2, &decode_splitkv,
	&hopper_variants[0], &hopper_variants[1], &hopper_variants[2], &hopper_variants[3],
	/* last: a variant's place here is its chart look (color_slot 0), so a
	 * new one goes after every drawn one */
	&decode_paged,
};
const size_t variant_count = sizeof(variant_table) / sizeof(variant_table[0]);

const struct variant_desc *variant_find(const char *name)
{
	for (size_t i = 0; i < variant_count; i++)
		if (!strcmp(variant_table[i]->name, name))
			return variant_table[i];
	return NULL;
}

size_t variant_ladder(const struct variant_desc *top, const struct variant_desc **out, size_t max,
		      const struct variant_desc **singles, size_t max_singles, size_t *nsingles)
{
	const struct variant_desc *chain[16];
	size_t n = 0;
	if (nsingles)
		*nsingles = 0;
	if (!top || !top->parent)
		return 0;
	/* down the parents to the first rung that is a variant in its own right */
	for (const struct variant_desc *v = top; v && n < 16; v = v->parent ? variant_find(v->parent) : NULL) {
		chain[n++] = v;
		if (v != top && !v->ladder_only)
			break;
	}
	if (!out)
		return n;
	size_t k = 0;
	for (size_t i = n; i-- > 0 && k < max;)
		out[k++] = chain[i];
	const struct variant_desc *base = chain[n - 1];
	for (size_t i = 0; singles && i < variant_count && *nsingles < max_singles; i++) {
		const struct variant_desc *v = variant_table[i];
		int on = 0;
		for (size_t j = 0; j < n; j++)
			on |= chain[j] == v;
		if (!on && v->ladder_only && v->parent && !strcmp(v->parent, base->name))
			singles[(*nsingles)++] = v;
	}
	return k;
}

int variant_on_ladder(const struct variant_desc *v)
{
	if (v->parent || v->ladder_only)
		return 1;
	for (size_t i = 0; i < variant_count; i++)
		if (variant_table[i]->parent && !strcmp(variant_table[i]->parent, v->name))
			return 1;
	return 0;
}

const char *variant_role(enum doc_role r)
{
	for (size_t i = 0; i < variant_count; i++)
		if (variant_table[i]->doc_role == r)
			return variant_table[i]->name;
	return "";
}

const char *variant_role_text(const char *s, char *buf, size_t len)
{
	static const struct { const char *word; enum doc_role role; } words[] = {
		{ "{conventional}", DOC_CONVENTIONAL }, { "{baseline}", DOC_BASELINE },
		{ "{subject}", DOC_SUBJECT }, { "{decode-baseline}", DOC_DECODE_BASELINE },
		{ "{decode-subject}", DOC_DECODE_SUBJECT },
	};
	size_t at = 0;
	if (!len)
		return buf;
	while (*s && at + 1 < len) {
		size_t k = 0, n = 0;
		for (; k < sizeof(words) / sizeof(words[0]); k++)
			if (!strncmp(s, words[k].word, n = strlen(words[k].word)))
				break;
		if (k < sizeof(words) / sizeof(words[0])) {
			at += (size_t)snprintf(buf + at, len - at, "%s", variant_role(words[k].role));
			if (at >= len)
				at = len - 1;
			s += n;
		} else {
			buf[at++] = *s++;
		}
	}
	buf[at] = '\0';
	return buf;
}

const struct variant_desc *variant_default_ladder(void)
{
	for (size_t i = 0; i < variant_count; i++)
		if (variant_table[i]->parent && !variant_table[i]->ladder_only)
			return variant_table[i];
	return NULL;
}

const struct variant_desc *variant_flash(unsigned sw)
{
	return sw <= FLASH_ALL ? &flash_variants[sw] : NULL;
}

int variant_supports_head_dim(const struct variant_desc *v, int d)
{
	for (int i = 0; i < MAX_HEAD_DIMS && v->head_dims[i]; i++)
		if (v->head_dims[i] == d)
			return 1;
	return 0;
}

const char *variant_head_dims_text(const struct variant_desc *v, char *buf, size_t len)
{
	size_t at = 0, n = 0;
	while (n < MAX_HEAD_DIMS && v->head_dims[n])
		n++;
	if (len)
		buf[0] = '\0';
	for (size_t i = 0; i < n && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%d", !i ? "" : i + 1 == n ? " and " : ", ", v->head_dims[i]);
	return buf;
}

int variant_supports_pass(const struct variant_desc *v, enum pass p)
{
	return variant_pass_desc(v, p) != NULL;
}

const struct variant_desc *variant_pass_desc(const struct variant_desc *v, enum pass p)
{
	if (!v || p >= PASS_COUNT)
		return NULL;
	return p == PASS_FWD ? v : v->bwd;
}

size_t variant_pass_kernels(const struct variant_desc *v, enum pass p)
{
	const struct variant_desc *pd = variant_pass_desc(v, p);
	if (!pd)
		return 0;
	return pd->nkernels + (p == PASS_FWDBWD ? v->nkernels : 0);
}

const char *tensor_path_name(enum tensor_path p)
{
	static const char *const n[PATH_COUNT] = { "", "mma.sync", "wgmma", "cuBLAS" };
	return p < PATH_COUNT ? n[p] : "";
}

const struct kernel_desc *variant_launch_kernel(const struct variant_desc *v, enum pass p, const char *launch_name)
{
	const struct variant_desc *pd = variant_pass_desc(v, p);
	const struct variant_desc *ds[2] = { pd, p == PASS_FWDBWD ? v : NULL };
	const struct kernel_desc *lib = NULL;
	for (int k = 0; k < 2 && ds[k]; k++)
		for (size_t i = 0; i < ds[k]->nkernels; i++) {
			const struct kernel_desc *kd = &ds[k]->kernels[i];
			if (!kd->match)
				lib = lib ? lib : kd;
			else if (launch_name && strstr(launch_name, kd->match))
				return kd;
		}
	return lib;
}

int variant_stores(const struct variant_desc *v, const char *name)
{
	for (size_t i = 0; i < v->nbuffers; i++)
		if (!strcmp(v->buffers[i].name, name))
			return 1;
	return 0;
}

uint64_t dims_elements(const enum dim_sym *dims, const struct attn_shape *s,
		       const struct tiling *t)
{
	uint64_t n = 1;
	for (int i = 0; i < MAX_DIMS && dims[i] != DIM_END; i++) {
		uint64_t f = 1;
		switch (dims[i]) {
		case DIM_B: f = (uint64_t)s->batch; break;
		case DIM_H: f = (uint64_t)s->heads; break;
		case DIM_HKV: f = (uint64_t)s->kv_heads; break;
		case DIM_NQ: f = (uint64_t)s->seqlen_q; break;
		case DIM_NKV: f = (uint64_t)s->seqlen_kv; break;
		case DIM_D: f = (uint64_t)s->head_dim; break;
		case DIM_SPLITS: f = t ? (uint64_t)t->splits : 1; break;
		case DIM_PAGES: f = paged_pages(s); break;
		case DIM_PAGE: f = (uint64_t)s->page_size; break;
		case DIM_MAXPAGES: f = (uint64_t)paged_max_pages(s); break;
		default: break;
		}
		n *= f;
	}
	return n;
}

uint64_t buffer_bytes(const struct buffer_desc *b, const struct attn_shape *s,
		      const struct tiling *t)
{
	uint64_t e = b->elem == ELEM_F32 || b->elem == ELEM_I32 ? 4 : dtype_size(s->dtype);
	return dims_elements(b->dims, s, t) * e;
}

uint64_t variant_footprint(const struct variant_desc *v, const struct attn_shape *s,
			   int sm_count)
{
	const struct variant_desc *pd = variant_pass_desc(v, s->pass);
	if (!pd)
		return 0;
	struct tiling t;
	pd->tiling(s, sm_count, &t);
	uint64_t sum = 0;
	for (size_t i = 0; i < pd->nbuffers; i++)
		sum += buffer_bytes(&pd->buffers[i], s, &t);
	return sum;
}

const char *dims_formula(const enum dim_sym *dims, char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (int i = 0; i < MAX_DIMS && dims[i] != DIM_END; i++) {
		int w = snprintf(buf + used, len - used, "%s%s", i ? "·" : "", dim_symbol(dims[i]));
		if (w < 0 || (size_t)w >= len - used)
			break;
		used += (size_t)w;
	}
	return buf;
}

double pass_flops_factor(enum pass p)
{
	return p == PASS_BWD ? 2.5 : p == PASS_FWDBWD ? 3.5 : 1.0;
}

double attn_flops(const struct attn_shape *s)
{
	return pass_flops_factor(s->pass) * attn_flops_fwd(s);
}

double attn_flops_fwd(const struct attn_shape *s)
{
	double pairs = (double)s->seqlen_q * s->seqlen_kv;
	if (s->causal) {
		if (s->seqlen_q == s->seqlen_kv)
			pairs /= 2; /* the FlashAttention benchmark convention */
		else if (s->seqlen_q < s->seqlen_kv) /* bottom-right aligned mask */
			pairs -= (double)s->seqlen_q * (s->seqlen_q - 1) / 2;
		else /* more queries than keys: the first Nq - Nkv rows see no key */
			pairs = (double)s->seqlen_kv * (s->seqlen_kv + 1) / 2;
	}
	return 4.0 * s->batch * s->heads * pairs * s->head_dim;
}
