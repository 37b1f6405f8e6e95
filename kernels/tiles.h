/* tiles.h: block sizes of the flash kernels, held once.
 *
 * Plain C constants: each kernel instantiates its tiles and its
 * shared-memory layout from them and static_asserts the layout's size
 * against the *_SMEM macro here (kernels/flash.cuh, decode.cu,
 * flash_bwd.cu); kernels/variants.c fills the descriptors' tilings from the
 * same macros, so the kernels, the figures and the model cannot drift
 * apart.  The Hopper forward's are in kernels/hopper/hopper_tiles.h.
 */
#ifndef ATTNPROF_TILES_H
#define ATTNPROF_TILES_H

/* The head dims the kernels of this folder are instantiated for (each
 * launch dispatches d to one of these templates); the descriptors carry the
 * list (variants.c), and a spec is checked against it, variant by variant. */
#define ATTN_HEAD_DIMS { 64, 128 }

/* ---- the forward template (kernels/flash.cuh), flash1 ... flash2 -------
 *
 * 4 warps.  split-Q (the SPLITQ switch): 32 rows per warp (2 m16 tiles),
 * 128 × 64, FA2's d = 128 tile (at d = 64 its 128 × 128 spilled at the
 * 255-register limit, 128 × 64 does not).  split-K: every warp holds Br × d
 * of partial O in registers, so Br is small.
 */
#define FLASH_FWD_WARPS 4
#define FLASH_FWD_BR(splitq, d) ((splitq) ? 128 : (d) == 64 ? 64 : 32)
#define FLASH_FWD_BC 64
#define FLASH_FWD_PART_LD(d) ((d) + 8) /* fp32 row pitch of split-K's partial O (bank spread) */

/* The forward's grid, held once (the launches in flash.cuh and
 * hopper/hopper_fwd.cu, the descriptors' grids in variants.c): with
 * sequence parallelism (⌈Nq/Br⌉, B·H), one block per q-block of a head;
 * without, (B·H, 1), one block per head. */
#define FLASH_FWD_GRID_X(seqpar, nq, br, bh) ((seqpar) ? ((nq) + (br) - 1) / (br) : (bh))
#define FLASH_FWD_GRID_Y(seqpar, bh) ((seqpar) ? (bh) : 1)

/* Dynamic shared memory (bytes), in the kernel's layout order: Q_i (two
 * when K/V-outer prefetches the next Q block), K_j and V_j double-buffered
 * (16-bit elements); split-K adds every warp's partial O (fp32, pitch
 * FLASH_FWD_PART_LD), the running O when Q-outer (fp32), and per row m, ℓ
 * and the 4 warps' maxima and sums (10 fp32). */
#define FLASH_FWD_SMEM(seqpar, splitq, d) \
	(((seqpar) ? 1 : 2) * FLASH_FWD_BR(splitq, d) * (d) * 2 + 2 * 2 * FLASH_FWD_BC * (d) * 2 \
	 + ((splitq) ? 0 \
		     : FLASH_FWD_WARPS * FLASH_FWD_BR(splitq, d) * FLASH_FWD_PART_LD(d) * 4 \
		       + ((seqpar) ? FLASH_FWD_BR(splitq, d) * (d) * 4 : 0) + 10 * FLASH_FWD_BR(splitq, d) * 4))

/* Registers per thread of flash_fwd as compiled (ptxas -v, nvcc 13.0,
 * sm_90; docs/kernels.md), indexed [switch bits][d == 128] (the bits of
 * enum flash_switch: seqpar 1, splitq 2, lazy 4); fp16 and bf16 alike.
 * Read again after the spill work (2026-12-02): the d = 64 split-Q rungs
 * had kept their counts from before it; and after the K/V-outer split-K
 * rungs' loads became load_kv (2026-12-03: ±1–2 registers, ptxas's
 * allocation; no change in time). */
#define FLASH_FWD_REGS_TABLE { \
	{ 163, 161 }, { 154, 153 }, { 222, 255 }, { 216, 255 }, \
	{ 163, 161 }, { 154, 153 }, { 243, 255 }, { 214, 255 }, \
}

/* ---- split-KV decoding (kernels/decode.cu) ------------------------------
 *
 * splitkv_fwd: 16 query rows per block (the G·Nq rows of a KV head group,
 * in groups of one m16 tile) × 64-key tiles, 4 warps of 16 keys each, a
 * 3-stage cp.async pipeline of K and V tiles.  splitkv_combine: 128
 * threads, 128 output elements per block (32 lanes × 4 columns).
 */
#define SPLITKV_WARPS 4
#define SPLITKV_ROWS 16
#define SPLITKV_KT 64
#define SPLITKV_STAGES 3
#define SPLITKV_MAX_SPLITS 256  /* the combine's per-row weight table */
#define SPLITKV_MIN_TILES 4     /* each split at least this many K/V tiles long */
#define SPLITKV_BLOCKS_PER_SM 2 /* resident by shared memory: one wave is 2 × SMs blocks */
#define SPLITKV_COMBINE_COLS 128
/* Dynamic shared memory of splitkv_fwd: the Q tile rounded up to 1024 bytes
 * (the stages' swizzle XORs need 1024-aligned tile bases), then STAGES
 * pairs of K and V tiles; 16-bit elements. */
#define SPLITKV_SMEM(d) \
	((SPLITKV_ROWS * (d) * 2 + 1023) / 1024 * 1024 + SPLITKV_STAGES * 2 * SPLITKV_KT * (d) * 2)
/* The page sizes decode-paged is built for (tokens per page, powers of
 * two: a 64-key tile spans 64 / page_size whole pages, or lies inside one
 * page; the kernel takes the page as a shift and a mask). */
#define PAGED_PAGE_SIZES { 16, 32, 64, 128 }
#define PAGED_N_PAGE_SIZES 4
/* registers per thread of splitkv_fwd (ptxas -v, nvcc 13.0, sm_90; docs/kernels.md) */
#define SPLITKV_REGS(d) ((d) == 128 ? 128 : 72)

/* ---- the flash2 backward (kernels/flash_bwd.cu) --------------------------
 *
 * FA2 Algorithm 2: a thread block owns Bc keys of one KV head and walks the
 * Q blocks of its query heads.  8 warps; S, dP of the Br × Bc tile pair in
 * registers (32 × 32 per warp), P and dS through shared memory, dK and dV
 * (32 keys × d/2 per warp) in registers all along.
 */
#define FLASH_BWD_WARPS 8
#define FLASH_BWD_BC 128          /* keys per thread block: 16 per warp */
#define FLASH_BWD_BR(d) 64        /* query rows per step, d = 64 and 128 */

/* How dQ_i += dS·K_j reaches the fp32 accumulator in HBM.  1 (the
 * default): the warps' fragments go to a shared-memory tile, and after the
 * next barrier one bulk reduction per row (cp.reduce.async.bulk ...
 * .add.f32, sm_90) adds the row to the accumulator in the L2, so no
 * thread's registers wait for an atomic to read them.  0: every thread
 * adds its fragment by red.global.add (16 float2 per thread and tile
 * pair).  On the H200 (2026-12-01 17:13, docs/benchmarks.md) 1 is 2-3 %
 * faster at N >= 2k, with QK unrolled 4 3-4 %. */
#ifndef FLASH_BWD_DQ_BULK
#define FLASH_BWD_DQ_BULK 1
#endif
/* Row pitch of that tile (bytes): d fp32 plus 32, so the 4 rows of a
 * half-warp's 8-byte fragment stores (32 bytes each) fall in different
 * banks (plus 16 was 2-way: 33.6 M conflicts against 2.8 M, H200
 * 2026-12-01 17:03). */
#define FLASH_BWD_DQ_PITCH(d) ((d) * 4 + 32)

/* Dynamic shared memory (bytes), in the kernel's layout order: K_j, V_j
 * (Bc × d each), Q_i and dO_i double-buffered (Br × d each), P and dS
 * (Br × Bc each), then L_i and D_i double-buffered (Br fp32 each), then
 * with FLASH_BWD_DQ_BULK the dQ tile (Br rows of FLASH_BWD_DQ_PITCH).
 * 16-bit elements. */
#define FLASH_BWD_SMEM(d) \
	(2 * FLASH_BWD_BC * (d) * 2 + 4 * FLASH_BWD_BR(d) * (d) * 2 \
	 + 2 * FLASH_BWD_BC * FLASH_BWD_BR(d) * 2 + 4 * FLASH_BWD_BR(d) * 4 \
	 + FLASH_BWD_DQ_BULK * FLASH_BWD_BR(d) * FLASH_BWD_DQ_PITCH(d))

/* How far the main backward kernel's k loops are unrolled: S and dP
 * (d/16 steps; flash::qk's KU), dV and dK (Br/16 steps), dQ (Bc/16 steps).
 * More unrolling lets ptxas hoist more ldmatrix ahead of the MMAs, at 255
 * registers.  These are the measured build (2026-12-01); KNOBS="-D..."
 * builds the others for an A/B (tools/bwd-variants.sh).  On the H200: with
 * the atomic dQ path none of QK 1, DQ 2, DQ 4, TN 2 was faster (15:42);
 * with the bulk dQ path QK 4 is 1 % faster than QK 2, and QK 4 with DQ 4
 * 1.5 % slower than QK 4 (17:13; docs/benchmarks.md).  ptxas, nvcc 13.0:
 * no spills (253 registers at d = 128, 224 at d = 64). */
#ifndef FLASH_BWD_QK_UNROLL
#define FLASH_BWD_QK_UNROLL 4
#endif
#ifndef FLASH_BWD_TN_UNROLL
#define FLASH_BWD_TN_UNROLL 4     /* Br/16 at Br = 64: all of it */
#endif
#ifndef FLASH_BWD_DQ_UNROLL
#define FLASH_BWD_DQ_UNROLL 8     /* Bc/16 at Bc = 128: all of it */
#endif

/* Threads per block of flash_bwd's bwd_dot_do_o and of standard's
 * softmax_bwd: one warp per row, 8 rows per block. */
#define BWD_ROW_WARPS 8

#endif
