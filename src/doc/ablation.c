/* ablation.c: the ablation ladder as data — which rungs were measured, at
 * which shape, and the counters that evidence each step.  The figure
 * (fig_ablation.c), the table (tabledata.c) and the text all read it, so
 * they agree. */
#include "doc/figkind.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The ladder the options name (variant: its top rung), else the first one. */
const struct variant_desc *ablation_top(const struct figopts *o)
{
	const struct variant_desc *v = o && o->variant[0] ? variant_find(o->variant) : NULL;
	if (v && variant_ladder(v, NULL, 0, NULL, 0, NULL))
		return v;
	return variant_default_ladder();
}

const char *ablation_base(const struct figopts *o)
{
	const struct variant_desc *chain[ABLATION_MAX_RUNGS];
	size_t n = variant_ladder(ablation_top(o), chain, ABLATION_MAX_RUNGS, NULL, 0, NULL);
	return n ? chain[0]->name : "the base";
}

struct ladder { const struct variant_desc *chain[ABLATION_MAX_RUNGS], *single[ABLATION_MAX_RUNGS]; size_t n, ns; };

static void ladder_of(const struct figopts *o, struct ladder *L)
{
	L->n = variant_ladder(ablation_top(o), L->chain, ABLATION_MAX_RUNGS, L->single, ABLATION_MAX_RUNGS, &L->ns);
}

/* a rung between the base and the top, or a single change, measured under s */
static int has_rung(const struct rdata *rd, const struct ladder *L, const struct rsel *s)
{
	for (size_t i = 1; i + 1 < L->n; i++)
		if (rdata_find_any(rd, L->chain[i]->name, s))
			return 1;
	for (size_t i = 0; i < L->ns; i++)
		if (rdata_find_any(rd, L->single[i]->name, s))
			return 1;
	return 0;
}

static int on_ladder(const struct ladder *L, const struct variant_desc *v)
{
	for (size_t i = 1; i + 1 < L->n; i++)
		if (L->chain[i] == v)
			return 1;
	for (size_t i = 0; i < L->ns; i++)
		if (L->single[i] == v)
			return 1;
	return 0;
}

void ablation_sel(const struct rdata *rd, const struct figopts *o, struct rsel *s)
{
	struct ladder L;
	ladder_of(o, &L);
	fig_sel(rd, o, s);
	if (has_rung(rd, &L, s))
		return;
	/* no rung at the focus: the first shape the ladder was measured at
	 * that agrees with what the options fix */
	for (size_t i = 0; i < rd->res->nrecords; i++) {
		const struct record *r = &rd->res->records[i];
		const struct variant_desc *v = r->desc;
		if (!v || !on_ladder(&L, v) || r->error || r->shape.phase != PHASE_PREFILL)
			continue;
		if ((o->sel.n >= 0 && r->shape.seqlen_kv != o->sel.n) || (o->sel.d >= 0 && r->shape.head_dim != o->sel.d) ||
		    (o->sel.causal >= 0 && !!r->shape.causal != !!o->sel.causal) ||
		    (o->sel.batch >= 0 && r->shape.batch != o->sel.batch) || (o->sel.heads >= 0 && r->shape.heads != o->sel.heads) ||
		    (o->sel.dtype != RSEL_DTYPE_ANY && r->shape.dtype != o->sel.dtype))
			continue;
		rsel_any(s);
		s->phase = PHASE_PREFILL;
		s->n = r->shape.seqlen_kv; s->d = r->shape.head_dim; s->causal = !!r->shape.causal;
		s->batch = r->shape.batch; s->heads = r->shape.heads; s->dtype = r->shape.dtype;
		return;
	}
}

/* The rung's record from run `run` (any run when there is one file). */
static const struct record *rung_record(const struct rdata *rd, const struct variant_desc *v, const struct rsel *s, int run)
{
	if (!v)
		return NULL;
	return rd->nruns > 1 ? rdata_find_run(rd, v->name, s, run) : rdata_find(rd, v->name, s);
}

int ablation_run(const struct rdata *rd, const struct figopts *o, const struct rsel *s)
{
	struct ladder L;
	ladder_of(o, &L);
	/* every rung from one run: the file that measured most of them (the earliest on a tie) */
	int best = 0, most = -1;
	for (int run = 0; run < (rd->nruns > 1 ? rd->nruns : 1); run++) {
		int n = 0;
		for (size_t i = 0; i < L.n; i++)
			n += rung_record(rd, L.chain[i], s, run) != NULL;
		for (size_t i = 0; i < L.ns; i++)
			n += rung_record(rd, L.single[i], s, run) != NULL;
		if (n > most) {
			most = n;
			best = run;
		}
	}
	return best;
}

size_t ablation_rungs(const struct rdata *rd, const struct figopts *o, const struct rsel *s, struct rung *out, size_t max)
{
	struct ladder L;
	ladder_of(o, &L);
	int run = ablation_run(rd, o, s);
	size_t n = 0;
	const struct record *prev = NULL, *base = NULL;
	for (size_t i = 0; i < L.n && n < max; i++) {
		const struct record *r = rung_record(rd, L.chain[i], s, run);
		if (!r)
			continue;
		/* a missing rung between: the step is the changes since the last measured one */
		out[n] = (struct rung){ L.chain[i], r, prev, prev ? L.chain[i]->change : NULL, 1, i == 0, i + 1 == L.n };
		if (i == 0)
			base = r;
		prev = r;
		n++;
	}
	for (size_t i = 0; i < L.ns && n < max; i++) {
		const struct record *r = rung_record(rd, L.single[i], s, run);
		if (r)
			out[n++] = (struct rung){ L.single[i], r, base, base ? L.single[i]->change : NULL, 0, 0, 0 };
	}
	return n;
}

/* "name a → b" for quantity q when both records have it; appends to buf. */
static void delta(const struct rdata *rd, const struct record *a, const struct record *b, const char *q,
		  const char *name, char *buf, size_t len)
{
	double va, vb;
	enum qunit u;
	char why[160], ta[48], tb[48];
	if (rdata_quantity(rd, a, q, NULL, &va, &u, why, sizeof(why)) ||
	    rdata_quantity(rd, b, q, NULL, &vb, &u, why, sizeof(why)))
		return;
	fmt_quantity(va, u, NULL, ta, sizeof(ta));
	fmt_quantity(vb, u, NULL, tb, sizeof(tb));
	size_t l = strlen(buf);
	snprintf(buf + l, len - l, "%s%s %s → %s", l ? " · " : "", name, ta, tb);
}

int ablation_evidence_check(const struct variant_desc *v, char *why, size_t len)
{
	for (size_t i = 0; v && i < sizeof(v->evidence) / sizeof(v->evidence[0]) && v->evidence[i].quantity; i++)
		if (!quantity_find(v->evidence[i].quantity)) {
			snprintf(why, len, "variant '%s': evidence quantity '%s' is not a quantity (docs/templates.md lists them)",
				 v->name, v->evidence[i].quantity);
			return -1;
		}
	return 0;
}

int ablation_evidence(const struct rdata *rd, const struct rung *g, char *l1, size_t n1, char *l2, size_t n2)
{
	char why[200];
	l1[0] = l2[0] = '\0';
	if (ablation_evidence_check(g->v, why, sizeof why))
		return -1;
	if (!g->prev || !g->change)
		return 0;
	/* the counters the rung's descriptor names for its change */
	for (size_t i = 0; i < sizeof(g->v->evidence) / sizeof(g->v->evidence[0]) && g->v->evidence[i].quantity; i++) {
		const struct evidence *e = &g->v->evidence[i];
		if (e->line == 2)
			delta(rd, g->prev, g->r, e->quantity, e->label, l2, n2);
		else
			delta(rd, g->prev, g->r, e->quantity, e->label, l1, n1);
	}
	return 0;
}
