/* gridmap.h: where a captured kernel's work is partitioned, read from its grid.
 *
 * Without a descriptor (a foreign kernel) the only evidence of the
 * partition is the launch: its grid.  When every grid dimension larger
 * than 1 is one of the call's shape quantities — B, H, Hkv, B·H, B·Hkv,
 * a count of blocks of the sequence ⌈Nq/b⌉ or ⌈Nkv/b⌉ for b a power of two
 * in 16 … 256 (alone or flattened with H, B·H, B·Hkv), or (decode: Nq ≤ 16)
 * one leftover factor read as KV splits — and batch
 * and heads each appear once, the mapping is inferred and stated with its
 * rule:
 *
 *   grid 32 × 64 = ⌈N/128⌉ × B·H: sequence-parallel over query blocks
 *
 * Blocks of N (Nq = Nkv) read as query blocks in a forward pass (each
 * block writes its own rows of O) and are left open ("query or key/value
 * blocks") in a backward one.  A grid of one block per SM is read as a
 * persistent kernel (it schedules its tiles itself: not inferred).
 * Only when no such reading fits, and the grid is not one block per SM,
 * are the wider ones tried: b three times a power of two, 24 … 192 (tiles
 * of 96 or 192 rows), and block counts flattened with the batch alone;
 * the rule then says the reading was widened.  (Not every multiple of 16:
 * with that many heights some block count fits almost any N.)  Anything else is "not
 * inferred".  Pure logic: no Cairo, no GPU.
 */
#ifndef ATTNPROF_GRIDMAP_H
#define ATTNPROF_GRIDMAP_H

#include <stddef.h>

#include "variants.h"

enum gridmap_kind {
	GM_NOT_INFERRED,    /* the grid does not factor into the shape */
	GM_UNKNOWN_SHAPE,   /* the call's shape is unknown */
	GM_PERSISTENT,      /* one block per SM: the kernel schedules its work */
	GM_QBLOCKS,         /* query blocks × batch × heads */
	GM_KVBLOCKS,        /* key/value blocks × batch × heads */
	GM_NBLOCKS,         /* blocks of N (Nq = Nkv), backward: query or key/value */
	GM_HEADS,           /* one block per (batch, head) */
	GM_SPLITS,          /* KV splits × batch × heads (decode) */
};

struct gridmap {
	enum gridmap_kind kind;
	int inferred;          /* 1 for the factored kinds */
	int block_rows;        /* b of ⌈N/b⌉, 0 when none */
	int splits;            /* KV splits, 0 when none */
	int widened;           /* read with b = 3·2^k, or block counts times B alone */
	char formula[120];     /* "⌈N/128⌉ × B × H" (one factor per dimension > 1) */
	char what[120];        /* "sequence-parallel over query blocks" */
	char rule[400];        /* how it was read, one sentence */
};

/* Read grid against the call's shape s (B, H, Hkv, Nq, Nkv and the pass;
 * NULL or a dimension not positive: unknown) on a GPU of sm_count SMs (0:
 * unknown); always fills m (kind GM_NOT_INFERRED when nothing fits).
 * Returns m->inferred. */
int gridmap_infer(const int grid[3], const struct attn_shape *s, int sm_count, struct gridmap *m);

/* "grid 8 × 16 × 16 = ⌈N/128⌉ × B × H: sequence-parallel over query blocks"
 * or "grid 132: persistent …: not inferred" into buf. */
const char *gridmap_sentence(const int grid[3], const struct gridmap *m, char *buf, size_t len);
/* "8 × 16 × 16" (dimensions > 1; "1" for a single block). */
const char *gridmap_dims(const int grid[3], char *buf, size_t len);

#endif
