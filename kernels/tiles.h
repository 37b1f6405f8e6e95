/* tiles.h: block sizes of the backward kernels, held once.
 *
 * Plain C constants: kernels/flash_bwd.cu instantiates its tiles and its
 * shared-memory layout from them (and static_asserts the layout's size
 * against FLASH_BWD_SMEM), kernels/variants.c fills the descriptor's
 * tiling from the same macros, so the two cannot drift apart.
 *
 * flash2 backward (FA2 Algorithm 2): a thread block owns Bc keys of one KV
 * head and walks the Q blocks of its query heads.  8 warps; S, dP of the
 * Br × Bc tile pair in registers (32 × 32 per warp), P and dS through
 * shared memory, dK and dV (32 keys × d/2 per warp) in registers all along.
 */
#ifndef ATTNPROF_TILES_H
#define ATTNPROF_TILES_H

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

/* Threads per block of the small backward kernels (dot_do_o, convert) and
 * of standard's softmax_bwd: one warp per row, 8 rows per block. */
#define BWD_ROW_WARPS 8

#endif
