/* wsched.c: a warp-specialised loop as a timeline; see wsched.h. */
#include "doc/wsched.h"

#include <string.h>

/* The proportions FlashAttention-3's paper gives for d = 128 (its exp rate is
 * 1/512 of the matmul rate, so a softmax takes about half the cycles of the
 * block's two GEMMs); a tile load shorter than a GEMM.  Schematic. */
void ws_lengths_default(struct ws_lengths *l)
{
	l->load = 1.0;
	l->gemm = 2.0;
	l->softmax = 2.0;
}

int sched_op_is_wait(enum sched_op op)
{
	return op == SO_WAIT_FULL_K || op == SO_WAIT_FULL_V || op == SO_WAIT_EMPTY_K || op == SO_WAIT_EMPTY_V ||
	       op == SO_TURN_WAIT || op == SO_WAIT_GEMM_ALL || op == SO_WAIT_GEMM_QK;
}

/* ops that act on a key block: skipped where the block does not exist */
static int has_block(enum sched_op op)
{
	return !(op == SO_TURN_WAIT || op == SO_TURN_PASS || op == SO_WAIT_GEMM_ALL || op == SO_WAIT_GEMM_QK);
}

#define MAX_STEPS 1024
#define MAX_BLOCKS 32
#define MAX_CONSUMERS 4

struct instr { enum sched_op op; int block, phase; };
struct prog { struct instr in[MAX_STEPS]; int n, pc; double t; };

static int in_range(int b, int nkb) { return b >= 0 && b < nkb; }

/* rows of `role` for loop index j into p */
static int take_rows(struct prog *p, const struct ws_desc *ws, unsigned bit, enum sched_role role, int j, int S,
		     int nkb, int phase)
{
	for (size_t i = 0; i < ws->nsteps; i++) {
		const struct sched_step *r = &ws->steps[i];
		if (r->role != role || !(r->rungs & bit))
			continue;
		int b = j + r->block + r->ahead * S;
		if (has_block(r->op) && !in_range(b, nkb))
			continue;
		if (r->guard && !in_range(j + r->guard_block + r->guard_ahead * S, nkb))
			continue;
		if (p->n >= MAX_STEPS)
			return -1;
		p->in[p->n++] = (struct instr){ r->op, has_block(r->op) ? b : -1, phase };
	}
	return 0;
}

struct sim {
	struct ws_timeline *tl;
	const struct ws_lengths *len;
	double tma_free, tensor_free;
	int full_ev[2][MAX_BLOCKS];            /* the load event of K (0) and V (1) of a block, -1 not issued */
	double freed[2][MAX_BLOCKS][MAX_CONSUMERS]; /* when a consumer released a stage (< 0: not yet) */
	double turn[MAX_BLOCKS * MAX_CONSUMERS + MAX_CONSUMERS]; /* when turn k was passed (< 0: not yet) */
	int turn_who[MAX_BLOCKS * MAX_CONSUMERS + MAX_CONSUMERS];
	int turn_ev[MAX_BLOCKS * MAX_CONSUMERS + MAX_CONSUMERS];
	int last_gemm[MAX_CONSUMERS], phase_qk[MAX_CONSUMERS]; /* events; -1 none */
	int qk_phase[MAX_CONSUMERS];
};

static int add_event(struct ws_timeline *tl, enum sched_op op, int who, int block, int phase, double t0, double t1)
{
	if (tl->nev >= WS_MAX_EVENTS)
		return -1;
	tl->ev[tl->nev] = (struct ws_event){ op, who, block, phase, t0, t1 };
	return (int)tl->nev++;
}

/* -1 when the timeline has no room: an overflow, never a link silently left out */
static int add_link(struct ws_timeline *tl, enum sched_op wait, int from, int from_who, int who, int phase,
		    double t_from, double t)
{
	if (tl->nlinks >= WS_MAX_LINKS)
		return -1;
	tl->link[tl->nlinks++] = (struct ws_link){ wait, from, from_who, who, phase, t_from, t };
	return 0;
}

/* When the step `in` of role who may run (≥ t), with the event it waits on
 * in *from; -1 when what it waits on has not been issued yet. */
static int ready(const struct sim *s, int who, const struct instr *in, double t, double *at, int *from,
		 double *t_from, int *from_who)
{
	const struct ws_timeline *tl = s->tl;
	*at = t;
	*from = -1;
	*t_from = t;
	*from_who = WS_PRODUCER;
	switch (in->op) {
	case SO_WAIT_FULL_K:
	case SO_WAIT_FULL_V: {
		int e = s->full_ev[in->op == SO_WAIT_FULL_V][in->block];
		if (e < 0)
			return -1;
		*from = e;
		*t_from = tl->ev[e].t1;
		if (tl->ev[e].t1 > *at)
			*at = tl->ev[e].t1;
		return 0;
	}
	case SO_WAIT_EMPTY_K:
	case SO_WAIT_EMPTY_V:
		for (int c = 0; c < tl->consumers; c++) {
			double f = s->freed[in->op == SO_WAIT_EMPTY_V][in->block][c];
			if (f < 0)
				return -1;
			if (f > *at)
				*at = f;
			if (f >= *t_from || c == 0)
				*t_from = f, *from_who = c;
		}
		return 0;
	case SO_TURN_WAIT: {
		int k = in->phase * tl->consumers + who;
		if (k == 0)
			return 0;
		if (s->turn[k - 1] < 0)
			return -1;
		*from = s->turn_ev[k - 1];
		*t_from = s->turn[k - 1];
		*from_who = s->turn_who[k - 1];
		if (s->turn[k - 1] > *at)
			*at = s->turn[k - 1];
		return 0;
	}
	case SO_WAIT_GEMM_ALL:
	case SO_WAIT_GEMM_QK: {
		int e = in->op == SO_WAIT_GEMM_QK ? (s->qk_phase[who] == in->phase ? s->phase_qk[who] : -1)
						  : s->last_gemm[who];
		if (e >= 0) {
			*from = e;
			*t_from = tl->ev[e].t1;
			*from_who = who;
			if (tl->ev[e].t1 > *at)
				*at = tl->ev[e].t1;
		}
		return 0;
	}
	default:
		return 0;
	}
}

/* Run step `in` of role who at t; returns the role's time after it, or -1 on overflow. */
static double run(struct sim *s, int who, const struct instr *in, double t)
{
	struct ws_timeline *tl = s->tl;
	switch (in->op) {
	case SO_LOAD_K:
	case SO_LOAD_V: {
		double t0 = t > s->tma_free ? t : s->tma_free;
		int e = add_event(tl, in->op, WS_PRODUCER, in->block, in->phase, t0, t0 + s->len->load);
		if (e < 0)
			return -1;
		s->tma_free = t0 + s->len->load;
		s->full_ev[in->op == SO_LOAD_V][in->block] = e;
		return t;
	}
	case SO_GEMM_QK:
	case SO_GEMM_PV: {
		double t0 = t > s->tensor_free ? t : s->tensor_free;
		int e = add_event(tl, in->op, who, in->block, in->phase, t0, t0 + s->len->gemm);
		if (e < 0)
			return -1;
		s->tensor_free = t0 + s->len->gemm;
		tl->tensor_busy += s->len->gemm;
		s->last_gemm[who] = e;
		if (in->op == SO_GEMM_QK) {
			s->phase_qk[who] = e;
			s->qk_phase[who] = in->phase;
		}
		return t;
	}
	case SO_SOFTMAX:
		if (add_event(tl, SO_SOFTMAX, who, in->block, in->phase, t, t + s->len->softmax) < 0)
			return -1;
		return t + s->len->softmax;
	case SO_FREE_K:
	case SO_FREE_V:
		s->freed[in->op == SO_FREE_V][in->block][who] = t;
		return t;
	case SO_TURN_PASS: {
		int k = in->phase * tl->consumers + who;
		s->turn[k] = t;
		s->turn_ev[k] = s->last_gemm[who];
		s->turn_who[k] = who;
		return t;
	}
	default:
		return t;
	}
}

int ws_timeline_build(struct ws_timeline *tl, const struct ws_desc *ws, int rung, int head_dim, int nblocks,
		      const struct ws_lengths *len)
{
	static struct prog progs[1 + MAX_CONSUMERS]; /* large: not on the stack */
	static struct sim s;
	struct ws_lengths dl;
	memset(tl, 0, sizeof(*tl));
	if (!ws || rung < 0 || rung > 31 || nblocks < 1 || nblocks > MAX_BLOCKS || ws->consumer_warpgroups < 1 ||
	    ws->consumer_warpgroups > MAX_CONSUMERS)
		return -1;
	if (!len) {
		ws_lengths_default(&dl);
		len = &dl;
	}
	unsigned bit = 1u << rung;
	int S = ws->stages ? ws->stages(head_dim) : 1, C = ws->consumer_warpgroups;
	tl->rung = rung;
	tl->stages = S;
	tl->nblocks = nblocks;
	tl->consumers = C;
	tl->producer = ws->producer_warpgroups > 0;

	/* the programs: progs[0] the producer, progs[1 + c] consumer c */
	memset(progs, 0, sizeof(progs));
	if (tl->producer)
		for (int j = 0; j < nblocks; j++)
			if (take_rows(&progs[0], ws, bit, SR_PRODUCER, j, S, nblocks, -1))
				return -1;
	for (int c = 0; c < C; c++) {
		struct prog *p = &progs[1 + c];
		if (c == 0 && !tl->producer)
			for (int j = 0; j < S && j < nblocks; j++)
				if (take_rows(p, ws, bit, SR_PROLOGUE, j, S, nblocks, -1))
					return -1;
		for (int j = 0; j <= nblocks; j++) {
			/* rows in table order: consumer 0 also takes the inline ones where they stand */
			for (size_t i = 0; i < ws->nsteps; i++) {
				const struct sched_step *r = &ws->steps[i];
				if (!(r->role == SR_CONSUMER || (r->role == SR_INLINE && c == 0 && !tl->producer)))
					continue;
				struct ws_desc one = *ws;
				one.steps = r;
				one.nsteps = 1;
				if (take_rows(p, &one, bit, r->role, j, S, nblocks, j))
					return -1;
			}
		}
	}

	memset(&s, 0, sizeof(s));
	s.tl = tl;
	s.len = len;
	for (int k = 0; k < 2; k++)
		for (int b = 0; b < MAX_BLOCKS; b++) {
			s.full_ev[k][b] = -1;
			for (int c = 0; c < MAX_CONSUMERS; c++)
				s.freed[k][b][c] = -1;
		}
	for (size_t k = 0; k < sizeof(s.turn) / sizeof(s.turn[0]); k++)
		s.turn[k] = -1, s.turn_ev[k] = -1, s.turn_who[k] = -1;
	for (int c = 0; c < MAX_CONSUMERS; c++)
		s.last_gemm[c] = s.phase_qk[c] = s.qk_phase[c] = -1;

	/* discrete events: always run the step that can run earliest (roles in
	 * order on a tie), so the TMA unit and the tensor cores are claimed in
	 * time order */
	for (;;) {
		int best = -1, bfrom = -1, bwho = WS_PRODUCER;
		double bat = 0, btf = 0;
		for (int a = tl->producer ? 0 : 1; a <= C; a++) {
			struct prog *p = &progs[a];
			if (p->pc >= p->n)
				continue;
			double at, tf;
			int from, fw;
			if (ready(&s, a - 1, &p->in[p->pc], p->t, &at, &from, &tf, &fw))
				continue;
			if (best < 0 || at < bat - 1e-9) {
				best = a;
				bat = at;
				bfrom = from;
				btf = tf;
				bwho = fw;
			}
		}
		if (best < 0)
			break;
		struct prog *p = &progs[best];
		const struct instr *in = &p->in[p->pc];
		int who = best == 0 ? WS_PRODUCER : best - 1;
		if (sched_op_is_wait(in->op)) {
			if (bat > p->t + 1e-9 &&
			    add_event(tl, in->op, who, has_block(in->op) ? in->block : -1, in->phase, p->t, bat) < 0)
				return -1;
			if (add_link(tl, in->op, bfrom, bwho, who, in->phase, btf, bat))
				return -1;
		}
		double t = run(&s, best == 0 ? 0 : best - 1, in, bat);
		if (t < 0)
			return -1;
		p->t = t;
		p->pc++;
		if (best > 0 && t > tl->end)
			tl->end = t;
	}
	for (int a = 0; a <= C; a++)
		if (progs[a].pc < progs[a].n)
			return -1; /* a wait nothing satisfies */
	/* the consumers end when their last GEMM does */
	for (size_t i = 0; i < tl->nev; i++)
		if (tl->ev[i].who >= 0 && tl->ev[i].t1 > tl->end)
			tl->end = tl->ev[i].t1;
	return 0;
}

int ws_find(const struct ws_timeline *tl, enum sched_op op, int who, int block)
{
	for (size_t i = 0; i < tl->nev; i++)
		if (tl->ev[i].op == op && tl->ev[i].who == who && tl->ev[i].block == block)
			return (int)i;
	return -1;
}

int ws_partition_of(const struct variant_desc *v, const struct attn_shape *s, int sm_count, struct ws_partition *p)
{
	memset(p, 0, sizeof(*p));
	if (!v || !v->ws || !v->tiling)
		return -1;
	const struct ws_desc *ws = v->ws;
	struct tiling t;
	v->tiling(s, sm_count, &t);
	p->threads = t.warps * 32;
	p->producers = ws->producer_warpgroups;
	p->consumers = ws->consumer_warpgroups;
	p->warpgroup_threads = ws->warpgroup_threads;
	p->issuing_threads = ws->issuing_threads;
	p->rows_per_consumer = ws->rows_per_consumer;
	p->regs_launch = t.regs_per_thread;
	p->resplit = ws->regs_producer > 0 && ws->regs_consumer > 0;
	p->regs_producer = p->resplit ? ws->regs_producer : t.regs_per_thread;
	p->regs_consumer = p->resplit ? ws->regs_consumer : t.regs_per_thread;
	p->regs_total_launch = (long long)p->threads * p->regs_launch;
	p->regs_total_split = (long long)p->producers * p->warpgroup_threads * p->regs_producer +
			      (long long)p->consumers * p->warpgroup_threads * p->regs_consumer;
	p->stages = ws->stages ? ws->stages(s->head_dim) : 1;
	p->block_m = t.block_m;
	p->block_n = t.block_n;
	p->head_dim = s->head_dim;
	p->q_bytes = (long long)t.block_m * s->head_dim * ws->elem_bytes;
	p->tile_bytes = (long long)t.block_n * s->head_dim * ws->elem_bytes;
	p->ring_bytes = 2LL * p->stages * p->tile_bytes;
	p->smem_bytes = (long long)t.smem_bytes;
	p->empty_arrivals = ws->empty_arrivals;
	p->barriers = 1 + 4 * p->stages;
	return 0;
}

const struct variant_desc *ws_variant_or_default(const char *name)
{
	const struct variant_desc *v = name && name[0] ? variant_find(name) : NULL;
	if (v && v->ws)
		return v;
	for (size_t i = 0; i < variant_count; i++)
		if (variant_table[i]->ws && !variant_table[i]->ladder_only)
			return variant_table[i];
	return NULL;
}

const struct variant_desc *ws_ladder_top(const char *name)
{
	const struct variant_desc *v = ws_variant_or_default(name);
	if (!v)
		return NULL;
	/* a rung names its ladder's top: the first variant whose ladder holds it */
	for (size_t i = 0; i < variant_count; i++) {
		const struct variant_desc *chain[8];
		size_t n = variant_ladder(variant_table[i], chain, 8, NULL, 0, NULL);
		for (size_t k = 0; k < n && !variant_table[i]->ladder_only; k++)
			if (chain[k] == v)
				return variant_table[i];
	}
	return v;
}
