/* hopper_tiles.h: the Hopper forward's tiling, the one place it is held.
 *
 * Read by the kernel (hopper_fwd.cu) and by its descriptors (variants.c,
 * plain C), so the figures, the model and the launch agree.  A CTA owns
 * HOPPER_BLOCK_M query rows (two consumer warpgroups of 64 rows each) and
 * walks the keys in blocks of HOPPER_BLOCK_N(d) through a ring of
 * HOPPER_STAGES(d) K/V stages in shared memory; from the +tma+ws rung on, a
 * producer warpgroup feeds the ring (setmaxnreg down to
 * HOPPER_REGS_PRODUCER) and the consumers take HOPPER_REGS_CONSUMER.
 */
#ifndef ATTNPROF_HOPPER_TILES_H
#define ATTNPROF_HOPPER_TILES_H

/* The head dims the forward takes: hopper_fwd.cu's dispatch instantiates
 * these and its entry check takes these, the variant descriptors' head-dim
 * trait is this list, and spec validation reads the trait. */
#define HOPPER_HEAD_DIMS { 64, 128, 256 }
#define HOPPER_BLOCK_M 128 /* query rows per CTA */
/* keys per K/V block: 128, but 64 at d = 256, where a 128-key block would
 * need K + V 128 KiB a stage beside Q's 64 KiB, and S (m64n128, 64 fp32 a
 * thread) beside O's 128 fp32 accumulators would pass the 240 registers */
#define HOPPER_BLOCK_N(d) ((d) == 256 ? 64 : 128)
#ifndef HOPPER_STAGES_D128
#define HOPPER_STAGES_D128 2 /* the K/V ring at d = 128 (3 measured no faster: docs/benchmarks.md) */
/* The FP8 (e4m3) forward (hopper_fp8.cu): Q, K, P and V in e4m3 (one byte),
 * V pre-transposed to [B, Hkv, d, HOPPER_FP8_VT_LEN(Nkv)] (FP8 wgmma takes
 * K-major operands only).  Same CTA (HOPPER_BLOCK_M rows, the warp roles of
 * the +tma+ws rungs), 128-key blocks, wgmma k32; a Q or K row is d bytes
 * (d = 128: one 128-byte swizzle row; d = 64: 64-byte swizzle). */
#define HOPPER_FP8_HEAD_DIMS { 64, 128 }
#define HOPPER_FP8_BLOCK_N 128 /* keys per block: one 128-byte row of the transposed V */
#define HOPPER_FP8_STAGES 4    /* the K/V ring */
/* keys of a transposed-V row: Nkv rounded up to the 128-key block (the pad
 * is zero, so the TMA box of a block never leaves the tensor) */
#define HOPPER_FP8_VT_LEN(nkv) (((nkv) + HOPPER_FP8_BLOCK_N - 1) / HOPPER_FP8_BLOCK_N * HOPPER_FP8_BLOCK_N)
/* P's e4m3 A operand (hopper_fp8.cu).  wgmma's 8-bit A fragment (m64k32)
 * gives lane 4g + c rows g (registers 0, 2) and g + 8 (1, 3), k columns
 * 4c + j (registers 0, 1) and 16 + 4c + j (2, 3), byte j = column +j; the f32
 * accumulator of S gives accumulator 4i + 2h + e row g + 8h, key 8i + 2c + e.
 * Register r, byte j of a 32-key group packs accumulator
 * HOPPER_FP8_PACK_ACC(r, j); the transposed V stores, at column a of each
 * 32-key group, key HOPPER_FP8_VT_PERM(a): the key that accumulator is of.
 * tests/unit/test_hopper_fp8.c checks the two against the fragment layouts. */
#define HOPPER_FP8_PACK_ACC(r, j) (8 * ((r) >> 1) + 2 * ((r) & 1) + 4 * ((j) >> 1) + ((j) & 1))
#define HOPPER_FP8_VT_PERM(a) (((a) & 16) + 8 * (((a) & 3) >> 1) + 2 * (((a) >> 2) & 3) + ((a) & 1))
/* Incoherent processing (FlashAttention-3 §3.3; hopper_fp8_params.incoherent):
 * Q and K rows times diag(s)·H/sqrt(d) before the quantisation (H the
 * Sylvester Hadamard matrix, s a seeded ±1 vector; Q·Kᵀ is unchanged in
 * exact arithmetic).  Bit x of s is HOPPER_FP8_SIGN(seed, x) (1: -1); the
 * norm is 1/sqrt(d) rounded to float once, the same on host and device. */
#define HOPPER_FP8_SIGN(seed, x) (((((unsigned)(x) + 1u) * 2654435761u) ^ ((unsigned)(seed) * 2246822519u)) >> 31)
#define HOPPER_FP8_HADAMARD_NORM(d) ((d) == 64 ? 0.125f : 0.0883883476483184405f)
/* Q, the K and V rings (one byte an element), mbarriers, 1024-byte alignment */
#define HOPPER_FP8_SMEM(d) (HOPPER_BLOCK_M * (d) + 2 * HOPPER_FP8_STAGES * HOPPER_FP8_BLOCK_N * (d) + 256 + 1024)

#endif
#define HOPPER_STAGES(d) ((d) == 64 ? 4 : (d) == 256 ? 2 : HOPPER_STAGES_D128)
#define HOPPER_WARPGROUP 128 /* threads of a warpgroup: four warps */
#define HOPPER_CONSUMERS 2   /* consumer warpgroups, HOPPER_BLOCK_M / 64 rows each (wgmma's M) */
/* the producer warpgroup, from +tma+ws on (rung 0: consumer 0's thread 0 issues the loads) */
#define HOPPER_PRODUCERS(rung) ((rung) >= 1 ? 1 : 0)
/* threads per CTA: the consumer warpgroups, plus the producer's */
#define HOPPER_THREADS(rung) (HOPPER_WARPGROUP * (HOPPER_CONSUMERS + HOPPER_PRODUCERS(rung)))
/* arrivals an empty barrier of the K/V ring counts: one per consumer warp */
#define HOPPER_EMPTY_ARRIVALS (HOPPER_CONSUMERS * HOPPER_WARPGROUP / 32)
#define HOPPER_REGS_PRODUCER 24
#define HOPPER_REGS_CONSUMER 240
/* registers per thread as compiled (ptxas -v, nvcc 13.0, sm_90a; the
 * launch's figure, before setmaxnreg moves them between the roles) */
#define HOPPER_REGS(rung, d) ((rung) >= 1 ? 168 : (d) == 256 ? 224 : (d) == 128 ? 192 : 154)
/* dynamic shared memory: Q, the K and V rings (16-bit elements), the
 * mbarriers and the 1024-byte alignment the 128-byte swizzle needs */
#define HOPPER_SMEM(d) (HOPPER_BLOCK_M * (d) * 2 + 2 * HOPPER_STAGES(d) * HOPPER_BLOCK_N(d) * (d) * 2 + 256 + 1024)

/* The FP8 (e4m3) forward (hopper_fp8.cu): Q, K, P and V in e4m3 (one byte),
 * V pre-transposed to [B, Hkv, d, HOPPER_FP8_VT_LEN(Nkv)] (FP8 wgmma takes
 * K-major operands only).  Same CTA (HOPPER_BLOCK_M rows, the warp roles of
 * the +tma+ws rungs), 128-key blocks, wgmma k32; a Q or K row is d bytes
 * (d = 128: one 128-byte swizzle row; d = 64: 64-byte swizzle). */
#define HOPPER_FP8_HEAD_DIMS { 64, 128 }
#define HOPPER_FP8_BLOCK_N 128 /* keys per block: one 128-byte row of the transposed V */
#define HOPPER_FP8_STAGES 4    /* the K/V ring */
/* keys of a transposed-V row: Nkv rounded up to the 128-key block (the pad
 * is zero, so the TMA box of a block never leaves the tensor) */
#define HOPPER_FP8_VT_LEN(nkv) (((nkv) + HOPPER_FP8_BLOCK_N - 1) / HOPPER_FP8_BLOCK_N * HOPPER_FP8_BLOCK_N)
/* P's e4m3 A operand (hopper_fp8.cu).  wgmma's 8-bit A fragment (m64k32)
 * gives lane 4g + c rows g (registers 0, 2) and g + 8 (1, 3), k columns
 * 4c + j (registers 0, 1) and 16 + 4c + j (2, 3), byte j = column +j; the f32
 * accumulator of S gives accumulator 4i + 2h + e row g + 8h, key 8i + 2c + e.
 * Register r, byte j of a 32-key group packs accumulator
 * HOPPER_FP8_PACK_ACC(r, j); the transposed V stores, at column a of each
 * 32-key group, key HOPPER_FP8_VT_PERM(a): the key that accumulator is of.
 * tests/unit/test_hopper_fp8.c checks the two against the fragment layouts. */
#define HOPPER_FP8_PACK_ACC(r, j) (8 * ((r) >> 1) + 2 * ((r) & 1) + 4 * ((j) >> 1) + ((j) & 1))
#define HOPPER_FP8_VT_PERM(a) (((a) & 16) + 8 * (((a) & 3) >> 1) + 2 * (((a) >> 2) & 3) + ((a) & 1))
/* Incoherent processing (FlashAttention-3 §3.3; hopper_fp8_params.incoherent):
 * Q and K rows times diag(s)·H/sqrt(d) before the quantisation (H the
 * Sylvester Hadamard matrix, s a seeded ±1 vector; Q·Kᵀ is unchanged in
 * exact arithmetic).  Bit x of s is HOPPER_FP8_SIGN(seed, x) (1: -1); the
 * norm is 1/sqrt(d) rounded to float once, the same on host and device. */
#define HOPPER_FP8_SIGN(seed, x) (((((unsigned)(x) + 1u) * 2654435761u) ^ ((unsigned)(seed) * 2246822519u)) >> 31)
#define HOPPER_FP8_HADAMARD_NORM(d) ((d) == 64 ? 0.125f : 0.0883883476483184405f)
/* Q, the K and V rings (one byte an element), mbarriers, 1024-byte alignment */
#define HOPPER_FP8_SMEM(d) (HOPPER_BLOCK_M * (d) + 2 * HOPPER_FP8_STAGES * HOPPER_FP8_BLOCK_N * (d) + 256 + 1024)

#endif
