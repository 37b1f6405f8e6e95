/* wsched.h: the loop of a warp-specialised kernel as a timeline, computed
 * from its descriptor's schedule table (variants.h: struct ws_desc, struct
 * sched_step), apart from drawing.
 *
 * Each role (the producer, each consumer warpgroup) takes its rows in
 * order; a wait holds its role until what it waits on has happened (a
 * tile's TMA landed, both consumers released a stage, the other
 * consumer's turn, the warpgroup's GEMMs done); the TMA unit and the
 * tensor cores serve what is issued to them in issue order.  The order
 * and the waits are the kernel's; the lengths of a load, a GEMM and a
 * softmax are schematic (struct ws_lengths): the timeline is the
 * implemented schedule, not a measured trace.  No Cairo: unit-tested in
 * tests/unit/test_wsched.c.
 */
#ifndef ATTNPROF_DOC_WSCHED_H
#define ATTNPROF_DOC_WSCHED_H

#include <stddef.h>

#include "variants.h"

/* The CTA of a warp-specialised variant at a shape: its roles, registers
 * and shared-memory ring, from the descriptor (tiling and ws trait). */
struct ws_partition {
	int threads;              /* per CTA (the tiling's warps × 32) */
	int producers, consumers; /* warpgroups */
	int warpgroup_threads, issuing_threads, rows_per_consumer;
	int regs_launch;          /* per thread as compiled (the tiling's) */
	int regs_producer, regs_consumer; /* after setmaxnreg (= regs_launch where not re-split) */
	int resplit;              /* 1: setmaxnreg moves registers between the roles */
	long long regs_total_launch, regs_total_split; /* per CTA, before and after */
	int stages, block_m, block_n, head_dim;
	long long q_bytes, tile_bytes; /* the Q tile; one K (or V) stage */
	long long ring_bytes;     /* K and V rings: 2 · stages · tile_bytes */
	long long smem_bytes;     /* the tiling's dynamic shared memory (tiles, barriers, alignment) */
	int empty_arrivals;
	int barriers;             /* mbarriers: Q full, and full/empty per stage of K and of V */
};
/* 0, or -1 when v has no ws trait. */
/* The warp-specialised variant a figure draws: the one called name (NULL
 * or "": none given) when it has a schedule, else the first that tops a
 * ladder; NULL when no variant has one. */
const struct variant_desc *ws_variant_or_default(const char *name);
/* The top of that variant's ladder (a rung names its ladder), or the variant itself. */
const struct variant_desc *ws_ladder_top(const char *name);

int ws_partition_of(const struct variant_desc *v, const struct attn_shape *s, int sm_count, struct ws_partition *p);

/* Schematic lengths, in units of one tile load. */
struct ws_lengths {
	double load;    /* one K or V tile by TMA */
	double gemm;    /* one warpgroup's Q·Kᵀ or P·V of a block */
	double softmax; /* one warpgroup's online softmax of a block */
};
void ws_lengths_default(struct ws_lengths *l);

#define WS_PRODUCER (-1) /* ws_event.who of the producer (and of inline loads: the TMA unit) */
#define WS_MAX_EVENTS 256
#define WS_MAX_LINKS 128

struct ws_event {
	enum sched_op op;  /* SO_LOAD_K/V (TMA), SO_GEMM_QK/PV (tensor cores), SO_SOFTMAX, or a wait (a stall) */
	int who;           /* consumer 0, 1, …; WS_PRODUCER for loads */
	int block;         /* key block (a wait: the block it waits on, -1 none) */
	int phase;         /* the consumer phase it belongs to (-1: producer) */
	double t0, t1;
};
/* What waits on what: role `who` went on at t once what it waited on
 * happened at t_from (event `from` ended; for a turn, the other consumer
 * handed it over after issuing event `from`). */
struct ws_link {
	enum sched_op wait; /* SO_WAIT_FULL_K, SO_WAIT_FULL_V, SO_WAIT_EMPTY_*, SO_TURN_WAIT, SO_WAIT_GEMM_* */
	int from;           /* index of the event waited on (-1: none recorded) */
	int from_who;       /* the role that signalled (WS_PRODUCER for the TMA unit) */
	int who;            /* the role that waited */
	int phase;
	double t_from, t;
};

struct ws_timeline {
	int rung, stages, nblocks, consumers, producer;
	struct ws_event ev[WS_MAX_EVENTS];
	size_t nev;
	struct ws_link link[WS_MAX_LINKS];
	size_t nlinks;
	double end;          /* the last consumer's last step */
	double tensor_busy;  /* GEMM time on the tensor cores */
};

/* The timeline of rung `rung` of ws at head dimension d over nblocks key
 * blocks (lengths NULL: the defaults).  0, or -1 when the schedule cannot
 * run (a wait nothing satisfies: the table is wrong) or overflows. */
int ws_timeline_build(struct ws_timeline *tl, const struct ws_desc *ws, int rung, int head_dim, int nblocks,
		      const struct ws_lengths *len);
/* The index of the event (op, who, block), or -1. */
int ws_find(const struct ws_timeline *tl, enum sched_op op, int who, int block);
/* 1 if op is a wait (drawn as a stall when it holds its role). */
int sched_op_is_wait(enum sched_op op);

#endif
