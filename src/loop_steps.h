/* loop_steps.h: what each step of a flash-template loop moves, from the descriptor.
 *
 * A step is one (Q block i, K/V block j) pair of one thread block's loop,
 * in the order the variant's loop visits them: K/V-outer (flash1: one
 * thread block per head, j outer, i inner) or Q-outer (flash2: one thread
 * block per Q block of a head, j inner).  For every HBM buffer of the
 * descriptor a step reads its tile, writes it, both, or neither (the tile
 * stays on chip, or is not touched), by the buffer's role:
 *
 *   Q (query rows)      K/V-outer: read every step; Q-outer: read at j = 0
 *   K, V (key rows)     K/V-outer: read at i = 0, kept for the inner loop;
 *                       Q-outer: read every step
 *   O                   written at the last K/V block
 *   O_acc (workspace)   K/V-outer: read back when j > 0, written when j is
 *                       not the last (the last writes O instead)
 *   m, ℓ (running)      K/V-outer: read back when j > 0, written every step;
 *                       Q-outer: written at the last K/V block
 *   other statistics    (L) written at the last K/V block
 *
 * Non-causal loops only.  Summed over every step of every thread block it
 * is the model's SM ↔ L2 traffic (model.c, l2_read_bytes + l2_write_bytes);
 * tests/unit/test_loop_steps.c holds the two together.  No Cairo here.
 */
#ifndef ATTNPROF_LOOP_STEPS_H
#define ATTNPROF_LOOP_STEPS_H

#include "variants.h"

enum step_io { STEP_NONE = 0, STEP_READ = 1, STEP_WRITE = 2 };

struct loop_plan {
	const struct variant_desc *v;
	struct attn_shape s;
	struct tiling t;
	int kv_outer;                    /* 1: K/V-outer (j outer); 0: Q-outer */
	long tr, tc;                     /* Q blocks and K/V blocks per head */
	double blocks;                   /* thread blocks of the grid: B·H, or Tr·B·H */
	long steps;                      /* steps of one thread block: Tr·Tc, or Tc */
	int per_query[MAX_BUFFERS];      /* 1: tiles of Br query rows (block i); 0: Bc key rows (j) */
	double row_bytes[MAX_BUFFERS];   /* bytes of one row of each buffer (all its columns) */
	double total_bytes;              /* read + written, every step of every block */
};

struct loop_step {
	long n;                          /* 0-based position in the block's loop */
	long i, j;                       /* 0-based Q block and K/V block (Q-outer: i = 0) */
	unsigned io[MAX_BUFFERS];        /* STEP_* bits per descriptor buffer */
	double read_bytes, write_bytes;  /* the tiles it reads and writes */
};

/* The plan of v's loop at shape s with tiling t: 0, or -1 when v has no
 * flash loop (loop order LOOP_NONE), the shape is causal or a size is not
 * positive. */
int loop_plan_init(struct loop_plan *p, const struct variant_desc *v, const struct attn_shape *s,
		   const struct tiling *t);
/* Step n (0 ≤ n < p->steps) of one thread block's loop. */
void loop_plan_step(const struct loop_plan *p, long n, struct loop_step *out);
/* Bytes of the tile of buffer b that step (i, j) touches (ragged last blocks count their rows). */
double loop_tile_bytes(const struct loop_plan *p, size_t b, long i, long j);

#endif
