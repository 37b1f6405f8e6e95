/* figpatent.c: the builders of the patent views (figpatent.h) — the
 * records a patent sheet's graph draws and their values, and the parts a
 * view names, as descriptions (doc/figdesc.h) src/render/fig_patent.c
 * only places. */
#include "doc/figpatent.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doc/capreview.h"

/* ---- names of parts ----------------------------------------------------------------- */

struct pname { const char *key, *chr, *what; };
static const struct pname buffer_names[] = {
	{ "Q", "Q", "query matrix" }, { "K", "K", "key matrix" }, { "V", "V", "value matrix" },
	{ "S", "S", "score matrix" }, { "P", "P", "probability matrix" }, { "O", "O", "output matrix" },
	{ "O_acc", "O′", "output accumulator matrix" }, { "m", "m", "row maximum vector" },
	{ "l", "ℓ", "row sum vector" }, { "L", "L", "log-sum-exp vector" },
	{ "O_part", "O′", "partial output matrix" }, { "L_part", "L′", "partial log-sum-exp vector" },
};
static const struct pname tile_names[] = {
	{ "Q_i", "Qᵢ", "query block" }, { "K_j", "Kⱼ", "key block" }, { "V_j", "Vⱼ", "value block" },
	{ "S_ij", "Sᵢⱼ", "score tile" }, { "P_ij", "Pᵢⱼ", "probability tile" }, { "O_i", "Oᵢ", "output accumulator tile" },
	{ "q", "q", "query row" }, { "s_j", "sⱼ", "score row" }, { "o", "o", "partial output accumulator" },
};

int patent_part_name(int kind, const char *key, const char **chr, const char **what)
{
	const struct pname *t = kind ? tile_names : buffer_names;
	size_t n = kind ? sizeof tile_names / sizeof *tile_names : sizeof buffer_names / sizeof *buffer_names;
	for (size_t i = 0; i < n; i++)
		if (!strcmp(t[i].key, key)) {
			*chr = t[i].chr;
			*what = t[i].what;
			return 0;
		}
	return 1;
}

const char *patent_series_generic(const char *key, int nth_ref, char *buf, size_t len)
{
	static const char *const nth[] = { "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth" };
	const struct variant_desc *v = variant_find(key);
	if (!v) {
		snprintf(buf, len, "%s reference implementation", nth[nth_ref >= 0 && nth_ref < 8 ? nth_ref : 7]);
		return buf;
	}
	if (v->patent_term)
		return v->patent_term;
	if (v->phases & (1u << PHASE_DECODE) && !(v->phases & (1u << PHASE_PREFILL)))
		return "single-pass decoding";
	return v->ntiles ? "tiled computation with some of the changes" : "conventional computation";
}

static void set_notice(struct figdesc *d, const char *what, const char *why)
{
	snprintf(d->notice, sizeof d->notice, "%s", what);
	snprintf(d->notice_why, sizeof d->notice_why, "%s", why);
}

/* The records of panel 0's points, in the order drawn, as the records drawn. */
static int use_points(struct figdesc *d)
{
	for (size_t k = 0; k < d->nseries; k++)
		for (size_t i = 0; i < d->panel[0].ncat; i++) {
			const struct figpoint *q = figdesc_at(d, 0, k, i);
			if (q && q->rec && figdesc_use(d, q->rec))
				return -1;
		}
	return 0;
}

/* ---- patent-throughput ---------------------------------------------------------------- */

int figdesc_patent_throughput(const struct rdata *rd, const struct figopts *o, struct figdesc *d)
{
	struct rsel sel;
	fig_sel(rd, o, &sel);
	sel.n = -1;
	char keys[8][SERIES_KEY];
	size_t ns = rdata_series(rd, &sel, SERIES_MAIN, keys, 8);
	int nv[16];
	size_t nn = rdata_values(rd, NULL, &sel, RF_N, nv, 16);
	struct figpanel *pn = &d->panel[0];
	pn->sel = sel;
	snprintf(pn->quantity, sizeof pn->quantity, "tflops");
	snprintf(pn->xlabel, sizeof pn->xlabel, "N");
	snprintf(pn->ylabel, sizeof pn->ylabel, "TFLOP/s");
	if (!ns || !nn) {
		set_notice(d, "no throughput", "no prefill records at these conditions");
		return 0;
	}
	for (size_t k = 0, refs = 0; k < ns; k++) {
		struct figseries *se = &d->series[k];
		memcpy(se->key, keys[k], SERIES_KEY);
		series_label(keys[k], se->label, sizeof se->label);
		se->drawn = 1;
		char gen[FD_LABEL];
		snprintf(se->generic, sizeof se->generic, "%s", patent_series_generic(keys[k], (int)refs, gen, sizeof gen));
		refs += !variant_find(keys[k]);
	}
	pn->ncat = nn;
	for (size_t i = 0; i < nn; i++)
		pn->cat[i] = nv[i];
	if (figdesc_points(d, 1, ns, nn))
		return -1;
	figdesc_fill_panel(rd, d, 0);
	return use_points(d);
}

/* ---- patent-ladder ---------------------------------------------------------------------- */

int figdesc_patent_ladder(const struct rdata *rd, const struct figopts *o, struct figdesc *d)
{
	static const char *const what[] = { "bar of the first tiled computation", "bar after the change of loop order",
					    "bar after the change of warp division", "bar of the second tiled computation" };
	if (figdesc_ladder(rd, o, d))
		return -1;
	/* a patent's bars are the TFLOP/s only, not the step (series 1): with
	 * one panel the points of series 0 stay where figdesc_at finds them */
	if (d->nseries > 1)
		d->nseries = 1;
	size_t nl = 0;
	double top = 0;
	for (size_t i = 0; d->nseries && i < d->panel[0].ncat; i++) {
		const struct figpoint *t = figdesc_at(d, 0, 0, i);
		if (t->state != FP_VALUE)
			continue;
		struct figitem *it = figdesc_item(d, "rung", "category", NULL, (double)i, "%s", "");
		if (!it)
			return -1;
		snprintf(it->what, sizeof it->what, "%s", what[nl < 4 ? nl : 3]);
		if (on_scale(t->v))
			top = fmax(top, t->v);
		nl++;
	}
	if (nl < 2 || !(top > 0))
		set_notice(d, "no ladder", "no rungs of the ablation ladder here");
	return 0;
}

/* ---- patent-capture-throughput ----------------------------------------------------------- */

/* A captured forward (backward) prefill call of known shape. */
static int pcap_counted(const struct record *r, enum pass pass)
{
	return r->shape.pass == pass && r->shape.phase == PHASE_PREFILL && (!r->capture || r->capture->shape_known);
}

static int pcap_of(const struct rdata *rd, const struct figopts *o, const struct capimpl *all, size_t ni,
		   struct figdesc *d)
{
	const enum pass pass = capture_compare_pass(o);
	struct figpanel *pn = &d->panel[0];
	snprintf(pn->quantity, sizeof pn->quantity, "tflops");
	snprintf(pn->xlabel, sizeof pn->xlabel, "N");
	snprintf(pn->ylabel, sizeof pn->ylabel, "TFLOP/s");
	/* categories: the KV lengths of the captured prefill calls of this pass of known shape */
	const struct record *shape[16];
	int nn = 0;
	for (size_t i = 0; i < ni; i++)
		for (size_t k = 0; k < all[i].ng; k++) {
			const struct record *r = all[i].g[k].rep;
			if (!pcap_counted(r, pass))
				continue;
			int dup = 0;
			for (int j = 0; j < nn; j++)
				dup |= shape[j]->shape.seqlen_kv == r->shape.seqlen_kv;
			if (!dup && nn < 16)
				shape[nn++] = r;
		}
	records_by_kv_len(shape, nn);
	/* series: the captured computations with such calls, then the conventional and the subject */
	const struct capimpl *ims[8];
	size_t ns = 0;
	for (size_t i = 0; i < ni && ns < CAP_PATENT_IMPLS; i++) {
		int has = 0;
		for (size_t k = 0; k < all[i].ng; k++)
			has |= pcap_counted(all[i].g[k].rep, pass);
		if (!has)
			continue;
		ims[ns] = &all[i];
		struct figseries *se = &d->series[ns++];
		snprintf(se->key, sizeof se->key, "%s", all[i].key);
		series_label(all[i].key, se->label, sizeof se->label);
		char ord[16];
		snprintf(se->generic, sizeof se->generic, "bars of the %s captured computation",
			 capture_ordinal(rd, all[i].key, ord, sizeof(ord)));
	}
	const size_t nimpl = ns;
	const char *const refs[] = { variant_role(DOC_CONVENTIONAL), variant_role(DOC_SUBJECT) };
	for (int j = 0; j < 2; j++) {
		ims[ns] = NULL;
		struct figseries *se = &d->series[ns++];
		snprintf(se->key, sizeof se->key, "%s", refs[j]);
		series_label(refs[j], se->label, sizeof se->label);
		char gen[FD_LABEL];
		snprintf(se->generic, sizeof se->generic, "%s", patent_series_generic(refs[j], 0, gen, sizeof gen));
	}
	if (!nn || !nimpl) {
		d->nseries = 0;
		set_notice(d, "no throughput", "no captured prefill calls of this pass with a known shape");
		return 0;
	}
	pn->ncat = (size_t)nn;
	for (int k = 0; k < nn; k++)
		pn->cat[k] = shape[k]->shape.seqlen_kv;
	if (figdesc_points(d, 1, ns, (size_t)nn))
		return -1;
	pn->lo = 1e300;
	pn->hi = 0;
	for (size_t s = 0; s < ns; s++)
		for (int k = 0; k < nn; k++) {
			const struct record *r = NULL, *sh = shape[k];
			if (s < nimpl) {
				for (size_t g = 0; g < ims[s]->ng; g++) {
					const struct record *x = ims[s]->g[g].rep;
					if (pcap_counted(x, pass) && x->shape.seqlen_kv == sh->shape.seqlen_kv &&
					    x->shape.batch == sh->shape.batch && x->shape.heads == sh->shape.heads &&
					    x->shape.head_dim == sh->shape.head_dim && !!x->shape.causal == !!sh->shape.causal)
						r = x;
				}
			} else
				r = capture_reference(rd, sh, refs[s - nimpl]);
			struct figpoint *q = figdesc_at(d, 0, s, (size_t)k);
			q->rec = r;
			q->v = q->lo = q->hi = q->model = NAN;
			q->state = !r ? FP_NONE : usable(r->tflops) ? FP_VALUE : FP_MISSING;
			if (q->state != FP_VALUE)
				continue;
			q->v = r->tflops;
			if (on_scale(q->v)) {
				pn->lo = fmin(pn->lo, q->v);
				pn->hi = fmax(pn->hi, q->v);
			}
		}
	return use_points(d);
}

int figdesc_patent_capture_throughput(const struct rdata *rd, const struct figopts *o, struct figdesc *d)
{
	size_t ni;
	struct capimpl *all = capture_impls(rd, &ni);
	int rc = pcap_of(rd, o, all, ni, d);
	capture_impls_free(all, ni);
	return rc;
}

/* ---- patent-dataflow ------------------------------------------------------------------------ */

int figdesc_patent_dataflow(const struct rdata *rd, const struct figopts *o, struct figdesc *d)
{
	struct pview pv;
	const struct variant_desc *v = patent_view(rd, o, &pv);
	if (!v) {
		set_notice(d, "no descriptor", "the variant has no descriptor in kernels/variants.c");
		return 0;
	}
	struct figitem *it;
	/* the matrices the variant stores, in its order; S and P are N×N */
	for (size_t i = 0; i < v->nbuffers && i < MAX_BUFFERS; i++) {
		const struct buffer_desc *b = &v->buffers[i];
		const char *chr = b->label, *what = b->meaning;
		patent_part_name(0, b->name, &chr, &what);
		if (!(it = figdesc_item(d, "matrix", b->name, NULL, NAN, "%s", "")))
			return -1;
		snprintf(it->label, sizeof it->label, "%s", chr);
		snprintf(it->what, sizeof it->what, "%s", what);
		snprintf(it->state, sizeof it->state, "%s", b->name[0] == 'S' || b->name[0] == 'P' ? "nxn" : "");
	}
	/* the processor: the on-chip tiles by where they live, or the variant's kernels */
	for (size_t i = 0; i < v->ntiles; i++) {
		const struct tile_desc *td = &v->tiles[i];
		const char *chr = td->name, *what = td->holds;
		patent_part_name(1, td->name, &chr, &what);
		if (!(it = figdesc_item(d, "tile", td->name, NULL, NAN, "%s", "")))
			return -1;
		snprintf(it->state, sizeof it->state, "%s", td->where == IN_SHARED ? "shared" : "registers");
		snprintf(it->label, sizeof it->label, "%s", chr);
		snprintf(it->what, sizeof it->what, "%s", what);
	}
	if (v->ntiles)
		return 0;
	static const char *const what[] = { "first matrix-multiplication kernel", "normalisation kernel",
					     "second matrix-multiplication kernel", "fourth kernel" };
	for (size_t k = 0; k < v->nkernels && k < 4; k++) {
		if (!(it = figdesc_item(d, "kernel", "place", NULL, (double)k, "%s", "")))
			return -1;
		snprintf(it->what, sizeof it->what, "%s", what[k]);
	}
	return figdesc_item(d, "size", "kernels", NULL, (double)v->nkernels, "%s", "") ? 0 : -1;
}
