/* flashsim.h: the flash kernel template's algorithm, run on the CPU.
 *
 * One function plays every combination of the template's three switches
 * (variants.h, enum flash_switch) with the same block sizes, loop order,
 * warp split and rescale policy as the CUDA kernel, in fp64 (optionally
 * rounding S, P, O and ℓ to fp32 where the kernel keeps fp32), so that CI
 * can check the algorithm against reference.c without a GPU.
 *
 *   loop order   K/V-outer (!FLASH_SEQPAR): one "thread block" per (b, h);
 *                for each K/V block j, for each Q block i: load Q_i and the
 *                running O_acc_i, m_i, ℓ_i from "HBM", update, store back.
 *                Q-outer (FLASH_SEQPAR): one block per (q-block i, b, h);
 *                O_i, m_i, ℓ_i stay in "registers"; K_j, V_j are streamed.
 *   warp split   split-K (!FLASH_SPLITQ): each of the W warps takes Bc/W
 *                keys of the tile; row maxima are shared, then the per-warp
 *                partial ℓ and P·V are summed (the shared-memory reduction).
 *                split-Q: each warp owns Br/W rows and sees all keys.
 *   rescale      every step (!FLASH_LAZY): O kept normalised by ℓ after each
 *                step (FA1 Algorithm 1); m and ℓ are the stored statistics.
 *                once (FLASH_LAZY): O kept unnormalised, scaled by
 *                e^{m_old - m_new} per step and divided by ℓ at the end;
 *                only L = m + log ℓ is stored.
 *
 * Causal masks are bottom-right aligned (reference.h).  Tile pairs wholly
 * above the diagonal are skipped (unless opts.visit_masked); the element
 * mask is applied in tiles that straddle it.  N need not be a multiple of
 * Br or Bc: edge tiles are short.
 *
 * Every tile moved between "HBM" and the block is counted in bytes, with
 * the kernel's element sizes (Q, K, V, O in the input dtype; O_acc, m, ℓ,
 * L in fp32), so model.c's traffic formulas can be checked against it.
 */
#ifndef ATTNPROF_FLASHSIM_H
#define ATTNPROF_FLASHSIM_H

#include <stdint.h>

#include "../kernels/variants.h"

/* Buffers whose traffic is counted; names as in the descriptors. */
enum fs_buf { FS_Q, FS_K, FS_V, FS_O, FS_OACC, FS_M, FS_L, FS_LSE, FS_NBUF };

struct flashsim_counts {
	uint64_t read_bytes[FS_NBUF];   /* HBM → block */
	uint64_t write_bytes[FS_NBUF];  /* block → HBM */
	uint64_t blocks;        /* thread blocks of the grid */
	uint64_t tile_pairs;    /* (i, j) tile pairs computed */
	uint64_t masked_pairs;  /* of those, pairs that needed the element mask */
	uint64_t score_elems;   /* S entries computed: Σ rows×cols of visited pairs */
	uint64_t exps;          /* exp/log evaluations (MUFU work) */
	uint64_t rescale_flops; /* O-row rescaling: multiplies and the adds they need */
	uint64_t reduce_flops;  /* split-K: adds combining the warps' partial ℓ and P·V */
	uint64_t row_steps;     /* Σ over visited pairs of the rows in the pair */
};

struct flashsim_opts {
	unsigned switches;      /* enum flash_switch bits */
	int block_m, block_n;   /* Br, Bc (0: take them from the variant's tiling) */
	int warps;              /* W (0: from the tiling) */
	int fp32;               /* round S, P, ℓ and O to fp32 like the kernel */
	int visit_masked;       /* compute tile pairs wholly above the diagonal too */
};

/*
 * Run the forward pass.  q, k, v as in reference.h.  o ([B,H,Nq,d]) gets
 * the output.  Statistics, each [B,H,Nq], NULL to skip: m and l (the
 * stored row max and row sum, written when the rescale policy is every
 * step) and lse (the logsumexp, written when FLASH_LAZY).  The other
 * policy's arrays are left untouched.  counts may be NULL.
 * 0, or -1 after error() (bad shape or options, no memory).
 */
int flashsim_run(const struct attn_shape *s, const struct flashsim_opts *opts,
		 const float *q, const float *k, const float *v,
		 double *o, double *m, double *l, double *lse,
		 struct flashsim_counts *counts);

/* Sums of the read or write counters over all buffers. */
uint64_t flashsim_read_total(const struct flashsim_counts *c);
uint64_t flashsim_write_total(const struct flashsim_counts *c);

#endif
