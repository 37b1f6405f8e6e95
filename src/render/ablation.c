/* ablation.c: the ablation ladder as data — which rungs were measured, at
 * which shape, and the counters that evidence each step.  The figure
 * (fig_ablation.c), the table (tabledata.c) and the text all read it, so
 * they agree. */
#include "render/figkind.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

const char *ablation_change_name(unsigned bit)
{
	switch (bit) {
	case FLASH_SEQPAR: return "sequence parallelism";
	case FLASH_SPLITQ: return "split-Q warps";
	case FLASH_LAZY: return "single rescale";
	default: return "";
	}
}

static int has_rung(const struct rdata *rd, const struct rsel *s)
{
	static const unsigned mid[] = { FLASH_SEQPAR, FLASH_SEQPAR | FLASH_SPLITQ, FLASH_SPLITQ, FLASH_LAZY };
	for (size_t i = 0; i < sizeof(mid) / sizeof(*mid); i++) {
		const struct variant_desc *v = variant_flash(mid[i]);
		if (v && rdata_find(rd, v->name, s))
			return 1;
	}
	return 0;
}

void ablation_sel(const struct rdata *rd, const struct figopts *o, struct rsel *s)
{
	fig_sel(rd, o, s);
	if (has_rung(rd, s))
		return;
	/* no rung at the focus: the first shape the ladder was measured at
	 * that agrees with what the options fix */
	for (size_t i = 0; i < rd->res->nrecords; i++) {
		const struct record *r = &rd->res->records[i];
		const struct variant_desc *v = r->source && strcmp(r->source, "attnprof") ? NULL : variant_find(r->variant);
		if (!v || !v->is_flash || v->switches == 0 || v->switches == FLASH_ALL || r->error ||
		    (r->phase && strcmp(r->phase, "prefill")))
			continue;
		if ((o->sel.n >= 0 && r->seqlen_kv != o->sel.n) || (o->sel.d >= 0 && r->head_dim != o->sel.d) ||
		    (o->sel.causal >= 0 && !!r->causal != !!o->sel.causal) ||
		    (o->sel.batch >= 0 && r->batch != o->sel.batch) || (o->sel.heads >= 0 && r->heads != o->sel.heads))
			continue;
		rsel_any(s);
		s->phase = "prefill";
		s->n = r->seqlen_kv; s->d = r->head_dim; s->causal = !!r->causal;
		s->batch = r->batch; s->heads = r->heads; s->dtype = r->dtype;
		return;
	}
}

static const unsigned ladder[] = { 0, FLASH_SEQPAR, FLASH_SEQPAR | FLASH_SPLITQ, FLASH_ALL };
static const unsigned single[] = { FLASH_SPLITQ, FLASH_LAZY };

/* The rung's record from run `run` (any run when there is one file). */
static const struct record *rung_record(const struct rdata *rd, const struct variant_desc *v, const struct rsel *s, int run)
{
	if (!v)
		return NULL;
	return rd->nruns > 1 ? rdata_find_run(rd, v->name, s, run) : rdata_find(rd, v->name, s);
}

int ablation_run(const struct rdata *rd, const struct rsel *s)
{
	/* every rung from one run: the file that measured most of them (the earliest on a tie) */
	int best = 0, most = -1;
	for (int run = 0; run < (rd->nruns > 1 ? rd->nruns : 1); run++) {
		int n = 0;
		for (size_t i = 0; i < 4; i++)
			n += rung_record(rd, variant_flash(ladder[i]), s, run) != NULL;
		for (size_t i = 0; i < 2; i++)
			n += rung_record(rd, variant_flash(single[i]), s, run) != NULL;
		if (n > most) {
			most = n;
			best = run;
		}
	}
	return best;
}

size_t ablation_rungs(const struct rdata *rd, const struct rsel *s, struct rung *out, size_t max)
{
	int run = ablation_run(rd, s);
	size_t n = 0;
	const struct record *prev = NULL, *base = NULL;
	unsigned prev_sw = 0;
	for (size_t i = 0; i < 4 && n < max; i++) {
		const struct variant_desc *v = variant_flash(ladder[i]);
		const struct record *r = rung_record(rd, v, s, run);
		if (!r)
			continue;
		out[n] = (struct rung){ v, r, prev, prev ? ladder[i] & ~prev_sw : 0, 1 };
		if (!ladder[i])
			base = r;
		prev = r;
		prev_sw = ladder[i];
		n++;
	}
	for (size_t i = 0; i < 2 && n < max; i++) {
		const struct variant_desc *v = variant_flash(single[i]);
		const struct record *r = rung_record(rd, v, s, run);
		if (r)
			out[n++] = (struct rung){ v, r, base, base ? single[i] : 0, 0 };
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

void ablation_evidence(const struct rdata *rd, const struct rung *g, char *l1, size_t n1, char *l2, size_t n2)
{
	l1[0] = l2[0] = '\0';
	if (!g->prev || !g->change)
		return;
	const struct record *a = g->prev, *b = g->r;
	for (unsigned bit = 1; bit <= FLASH_LAZY; bit <<= 1) {
		if (!(g->change & bit))
			continue;
		if (bit == FLASH_SEQPAR) {
			delta(rd, a, b, "blocks", "blocks", l1, n1);
			delta(rd, a, b, "sms_busy", "SMs busy", l1, n1);
			delta(rd, a, b, "occupancy", "achieved occupancy", l1, n1);
			delta(rd, a, b, "hbm_bytes", "HBM", l2, n2);
			delta(rd, a, b, "l2_bytes", "L2", l2, n2);
		} else if (bit == FLASH_SPLITQ) {
			delta(rd, a, b, "smem_st_wavefronts", "smem store wavefronts", l1, n1);
			delta(rd, a, b, "barrier_stalls", "barrier stalls", l2, n2);
		} else {
			delta(rd, a, b, "xu_inst", "MUFU inst.", l1, n1);
			delta(rd, a, b, "fp32_inst", "FP32 thread inst.", l2, n2);
		}
	}
}
