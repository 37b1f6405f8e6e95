/* loop_steps.c: the steps of a flash-template loop; see loop_steps.h. */
#include "loop_steps.h"

#include <string.h>

static int has_dim(const struct buffer_desc *b, enum dim_sym d)
{
	for (int k = 0; k < MAX_DIMS && b->dims[k] != DIM_END; k++)
		if (b->dims[k] == d)
			return 1;
	return 0;
}

/* The running statistics a K/V-outer loop carries from step to step. */
static int running_stat(const struct buffer_desc *b)
{
	return b->role == ROLE_STATS && (!strcmp(b->name, "m") || !strcmp(b->name, "l"));
}

static unsigned buffer_io(const struct loop_plan *p, const struct buffer_desc *b, int per_query, long i, long j)
{
	int last = j == p->tc - 1;
	switch (b->role) {
	case ROLE_INPUT:
		if (per_query)
			return !p->kv_outer && j > 0 ? STEP_NONE : STEP_READ;
		return p->kv_outer && i > 0 ? STEP_NONE : STEP_READ;
	case ROLE_OUTPUT:
		return last ? STEP_WRITE : STEP_NONE;
	case ROLE_WORKSPACE:
		if (!p->kv_outer)
			return STEP_NONE;
		return (j > 0 ? STEP_READ : 0) | (!last ? STEP_WRITE : 0);
	case ROLE_STATS:
		if (p->kv_outer && running_stat(b))
			return (j > 0 ? STEP_READ : 0) | STEP_WRITE;
		return last ? STEP_WRITE : STEP_NONE;
	default:
		return STEP_NONE;
	}
}

double loop_tile_bytes(const struct loop_plan *p, size_t b, long i, long j)
{
	long rows;
	if (p->per_query[b]) {
		long r0 = i * p->t.block_m;
		rows = p->s.seqlen_q - r0 < p->t.block_m ? p->s.seqlen_q - r0 : p->t.block_m;
	} else {
		long c0 = j * p->t.block_n;
		rows = p->s.seqlen_kv - c0 < p->t.block_n ? p->s.seqlen_kv - c0 : p->t.block_n;
	}
	return rows > 0 ? rows * p->row_bytes[b] : 0;
}

static void step_at(const struct loop_plan *p, long i, long j, struct loop_step *out)
{
	out->i = i;
	out->j = j;
	out->read_bytes = out->write_bytes = 0;
	for (size_t b = 0; b < p->v->nbuffers; b++) {
		unsigned io = buffer_io(p, &p->v->buffers[b], p->per_query[b], i, j);
		double tile = io ? loop_tile_bytes(p, b, i, j) : 0;
		out->io[b] = io;
		if (io & STEP_READ)
			out->read_bytes += tile;
		if (io & STEP_WRITE)
			out->write_bytes += tile;
	}
}

void loop_plan_step(const struct loop_plan *p, long n, struct loop_step *out)
{
	memset(out, 0, sizeof(*out));
	if (p->kv_outer)
		step_at(p, n % p->tr, n / p->tr, out);
	else
		step_at(p, 0, n, out);
	out->n = n;
}

int loop_plan_init(struct loop_plan *p, const struct variant_desc *v, const struct attn_shape *s,
		   const struct tiling *t)
{
	memset(p, 0, sizeof(*p));
	if (!v || v->loop == LOOP_NONE || s->causal || t->block_m <= 0 || t->block_n <= 0 || s->seqlen_q <= 0 ||
	    s->seqlen_kv <= 0 || s->batch <= 0 || s->heads <= 0)
		return -1;
	p->v = v;
	p->s = *s;
	p->t = *t;
	p->kv_outer = v->loop == LOOP_KV_OUTER;
	p->tr = (s->seqlen_q + t->block_m - 1) / t->block_m;
	p->tc = (s->seqlen_kv + t->block_n - 1) / t->block_n;
	double heads = (double)s->batch * s->heads;
	p->blocks = p->kv_outer ? heads : heads * (double)p->tr;
	p->steps = p->kv_outer ? p->tr * p->tc : p->tc;
	for (size_t b = 0; b < v->nbuffers && b < MAX_BUFFERS; b++) {
		const struct buffer_desc *bd = &v->buffers[b];
		/* a row is the formula without d: bytes / rows */
		enum dim_sym rows_dims[MAX_DIMS] = { DIM_END };
		int n = 0;
		for (int k = 0; k < MAX_DIMS && bd->dims[k] != DIM_END; k++)
			if (bd->dims[k] != DIM_D)
				rows_dims[n++] = bd->dims[k];
		if (n < MAX_DIMS)
			rows_dims[n] = DIM_END;
		uint64_t rows = dims_elements(rows_dims, s, t);
		p->per_query[b] = has_dim(bd, DIM_NQ);
		p->row_bytes[b] = rows ? (double)buffer_bytes(bd, s, t) / (double)rows : 0;
	}
	/* every step of one head's blocks (every head is the same) */
	double head_bytes = 0;
	struct loop_step st;
	for (long i = 0; i < p->tr; i++)
		for (long j = 0; j < p->tc; j++) {
			step_at(p, i, j, &st);
			head_bytes += st.read_bytes + st.write_bytes;
		}
	p->total_bytes = head_bytes * heads;
	return 0;
}
