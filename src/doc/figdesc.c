/* figdesc.c: the figure builders (see figdesc.h) — records selected and
 * every value computed here, once, for the renderer, the trace and the
 * other writers alike. */
#include "doc/figdesc.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture/family.h"
#include "doc/capreview.h"
#include "doc/datasheet.h"
#include "metric_sets.h"
#include "util/error.h"

int on_scale(double v)
{
	return isfinite(v) && fabs(v) <= PLOT_MAX;
}

int value_spread(const struct record *r, double v, int per_time, double *lo, double *hi)
{
	if (isnan(record_spread_ms(r)) || !(r->time_ms > 0) || !isfinite(v))
		return 1;
	if (per_time) {
		*lo = v * r->time_ms / r->time_ms_max;
		*hi = v * r->time_ms / r->time_ms_min;
	} else {
		*lo = v * r->time_ms_min / r->time_ms;
		*hi = v * r->time_ms_max / r->time_ms;
	}
	return 0;
}

void figdesc_init(struct figdesc *d, const char *kind)
{
	memset(d, 0, sizeof(*d));
	d->kind = kind;
}

void figdesc_release(struct figdesc *d)
{
	free(d->pt);
	free(d->used);
	free(d->mark);
	free(d->catx);
	free(d->item);
	free(d->cell);
	free(d->span);
	free(d->link);
	const char *k = d->kind;
	figdesc_init(d, k);
}

/* the points' array for np panels of ns series and nc categories */
static int figdesc_alloc(struct figdesc *d, size_t np, size_t ns, size_t nc)
{
	d->npanels = np;
	d->nseries = ns;
	free(d->pt);
	d->pt = calloc(np * ns * (nc ? nc : 1) + 1, sizeof(*d->pt));
	d->ncat_max = nc;
	return d->pt ? 0 : -1;
}

struct figpoint *figdesc_at(const struct figdesc *d, size_t p, size_t s, size_t i)
{
	if (!d->pt || p >= d->npanels || s >= d->nseries || i >= d->ncat_max)
		return NULL;
	return &d->pt[(p * d->nseries + s) * d->ncat_max + i];
}

static int use(struct figdesc *d, const struct record *r)
{
	if (!r)
		return 0;
	if (d->nused == d->capused) {
		size_t cap = d->capused ? d->capused * 2 : 64;
		const struct record **u = realloc(d->used, cap * sizeof(*u));
		if (!u)
			return -1;
		d->used = u;
		d->capused = cap;
	}
	d->used[d->nused++] = r;
	return 0;
}

struct figitem *figdesc_item(struct figdesc *d, const char *role, const char *name, const struct record *rec,
			     double v, const char *fmt, ...)
{
	if (d->nitems == d->capitems) {
		size_t cap = d->capitems ? d->capitems * 2 : 16;
		struct figitem *it = realloc(d->item, cap * sizeof(*it));
		if (!it)
			return NULL;
		d->item = it;
		d->capitems = cap;
	}
	struct figitem *it = &d->item[d->nitems++];
	memset(it, 0, sizeof(*it));
	snprintf(it->role, sizeof it->role, "%s", role);
	snprintf(it->name, sizeof it->name, "%s", name ? name : "");
	it->v = v;
	it->rec = rec;
	it->group = d->group;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(it->text, sizeof it->text, fmt, ap);
	va_end(ap);
	return it;
}

const struct figitem *figdesc_part(const struct figdesc *d, const char *role, size_t n)
{
	for (size_t i = 0; i < d->nitems; i++)
		if (!strcmp(d->item[i].role, role) && !n--)
			return &d->item[i];
	return NULL;
}

const struct figitem *figdesc_part_of(const struct figdesc *d, int g, const char *role, size_t n)
{
	for (size_t i = 0; i < d->nitems; i++)
		if (d->item[i].group == g && !strcmp(d->item[i].role, role) && !n--)
			return &d->item[i];
	return NULL;
}

double figdesc_size(const struct figdesc *d, int g, const char *name)
{
	const struct figitem *it;
	for (size_t i = 0; (it = figdesc_part_of(d, g, "size", i)); i++)
		if (!strcmp(it->name, name))
			return it->v;
	return 0;
}

const char *figdesc_text(const struct figdesc *d, const char *role, size_t n)
{
	const struct figitem *it = figdesc_part(d, role, n);
	return it ? it->text : "";
}

int series_look_index(const struct rdata *rd, const char *key)
{
	int idx = 3;
	if (strchr(key, ':')) {
		char seen[8][SERIES_KEY], k[SERIES_KEY];
		size_t ns = 0;
		for (size_t i = 0; rd && i < rd->res->nrecords && ns < 8; i++) {
			const struct record *r = &rd->res->records[i];
			if (!r->source || !strcmp(r->source, "attnprof") || record_captured(r))
				continue;
			record_series(r, k, sizeof(k));
			size_t j;
			for (j = 0; j < ns && strcmp(seen[j], k); j++)
				;
			if (j < ns)
				continue;
			if (!strcmp(k, key)) {
				idx = ns % 2 ? 8 : 3;
				break;
			}
			snprintf(seen[ns++], SERIES_KEY, "%s", k);
		}
	} else {
		/* the descriptor's slot, else one of the variants' four by table order */
		for (size_t i = 0; i < variant_count; i++)
			if (!strcmp(variant_table[i]->name, key))
				idx = variant_table[i]->color_slot ? variant_table[i]->color_slot - 1 : 4 + (int)(i % 4);
	}
	return idx;
}

/* Series i's key (what records-check reads) and its legend label. */
static void name_series(struct figdesc *d, size_t i, const char *key, const char *label)
{
	snprintf(d->series[i].key, SERIES_KEY, "%s", key);
	snprintf(d->series[i].label, sizeof d->series[i].label, "%s", label);
}

static void notice(struct figdesc *d, const char *what, const char *why)
{
	snprintf(d->notice, sizeof d->notice, "%s", what ? what : "");
	snprintf(d->notice_why, sizeof d->notice_why, "%s", why ? why : "");
}

/* ---- figure quantities ------------------------------------------------ */

static int q_hbm(const struct rdata *rd, const struct record *r, double *v)
{
	(void)rd;
	double b = r->error ? -1 : record_hbm_bytes(r);
	*v = b;
	return b > 0 ? 0 : 1;
}
static int q_hbm_model(const struct rdata *rd, const struct record *r, double *v)
{
	(void)rd;
	const double *m = kvlist_get(&r->model, "hbm_bytes_min");
	*v = m ? *m : NAN;
	return m && usable(*m) ? 0 : 1;
}
static int q_peak(const struct rdata *rd, const struct record *r, double *v)
{
	(void)rd;
	*v = (double)r->peak_bytes;
	return r->peak_bytes && !r->error ? 0 : 1;
}
static int q_time_us(const struct rdata *rd, const struct record *r, double *v)
{
	(void)rd;
	*v = r->time_ms * 1000;
	return usable(r->time_ms) && !r->error ? 0 : 1;
}
static int q_gbs(const struct rdata *rd, const struct record *r, double *v)
{
	double b = record_hbm_bytes(r);
	if (!(b > 0))
		q_hbm_model(rd, r, &b);
	if (!usable(b) || !usable(r->time_ms) || r->error)
		return 1;
	*v = b / (r->time_ms * 1e-3) / 1e9;
	return 0;
}

/* The figures' own readings of a record, beside rdata_quantity's:
 * run_hbm_bytes the measured HBM bytes of a run that did not fail,
 * model_hbm_bytes the no-cache model's bytes (hbm_bytes_min), run_peak_bytes the
 * peak memory of a run that did not fail, run_time_us its median time in
 * µs, run_gbs its bandwidth from the measured bytes, else the model's. */
static int q_tflops_per_ghz(const struct rdata *rd, const struct record *r, double *v)
{
	double tf;
	*v = NAN;
	if (!(r->sm_clock_mhz > 0) || figdesc_value(rd, r, "tflops", NULL, &tf))
		return 1; /* no clock probed before the timed launches: nothing to divide by */
	*v = tf / (r->sm_clock_mhz / 1000);
	return 0;
}

/* run_tflops_per_ghz: TFLOP/s over the SM clock probed before the
 * record's own timed launches (timing.sm_clock_mhz, the median), so a
 * power-capped clock does not read as a slower kernel. */
static const struct {
	const char *name;
	int (*get)(const struct rdata *, const struct record *, double *);
} figq[] = {
	{ "run_hbm_bytes", q_hbm }, { "model_hbm_bytes", q_hbm_model }, { "run_peak_bytes", q_peak },
	{ "run_time_us", q_time_us }, { "run_gbs", q_gbs }, { "run_tflops_per_ghz", q_tflops_per_ghz },
};

int figdesc_value(const struct rdata *rd, const struct record *r, const char *q, const char *arg, double *v)
{
	for (size_t i = 0; i < sizeof figq / sizeof figq[0]; i++)
		if (!strcmp(figq[i].name, q))
			return figq[i].get(rd, r, v) ? 1 : 0;
	enum qunit u;
	char why[200];
	return rdata_quantity(rd, r, q, arg && *arg ? arg : NULL, v, &u, why, sizeof why) ? 1 : 0;
}

/* ---- series over N ----------------------------------------------------- */

/* The (d, causal) pairs of variant top's records (NULL: any variant's) under
 * base, as the options fix them, at most max. */
static size_t dc_pairs(const struct rdata *rd, const struct figopts *o, const char *top, const struct rsel *base,
		       int dv[], int cv[], size_t max)
{
	int ds[FD_CATS], cs[2];
	struct rsel s = *base;
	size_t nd = rdata_values(rd, top, &s, RF_D, ds, FD_CATS), n = 0;
	for (size_t i = 0; i < nd; i++) {
		if (o->sel.d >= 0 && ds[i] != o->sel.d)
			continue;
		s.d = ds[i];
		size_t nc = rdata_values(rd, top, &s, RF_CAUSAL, cs, 2);
		for (size_t j = 0; j < nc && n < max; j++)
			if (o->sel.causal < 0 || cs[j] == o->sel.causal) {
				dv[n] = ds[i];
				cv[n++] = cs[j];
			}
	}
	return n;
}

/* Panels of (d, causal) among prefill records of the series, or the one the options fix. */
static size_t panel_combos(const struct rdata *rd, const struct figopts *o, enum series_filter f, int dv[], int cv[],
			   size_t max)
{
	struct rsel s;
	fig_prefill_sel(rd, o, &s);
	int ds[2 * FD_CATS], cs[2 * FD_CATS];
	size_t np = dc_pairs(rd, o, NULL, &s, ds, cs, 2 * FD_CATS), n = 0;
	for (size_t i = 0; i < np && n < max; i++) {
		struct rsel t = s;
		t.d = ds[i];
		t.causal = cs[i];
		char keys[16][SERIES_KEY];
		if (!rdata_series(rd, &t, f, keys, 16))
			continue;
		dv[n] = ds[i];
		cv[n] = cs[i];
		n++;
	}
	return n;
}

/* The points of panel p at its categories: a lookup per series and N. */
static void fill_panel(const struct rdata *rd, struct figdesc *d, size_t p)
{
	struct figpanel *pn = &d->panel[p];
	pn->lo = 1e300;
	pn->hi = 0;
	for (size_t k = 0; k < d->nseries; k++)
		for (size_t i = 0; i < pn->ncat; i++) {
			struct rsel s = pn->sel;
			s.n = pn->cat[i];
			struct figpoint *q = figdesc_at(d, p, k, i);
			const struct record *r = rdata_find(rd, d->series[k].key, &s);
			q->rec = r;
			q->v = q->model = q->lo = q->hi = NAN;
			if (!r)
				continue;
			q->wrong = r->checked && !r->correct;
			double v;
			if (!figdesc_value(rd, r, pn->quantity, NULL, &v)) {
				q->state = FP_VALUE;
				q->v = v;
				if (on_scale(v)) {
					pn->lo = fmin(pn->lo, v);
					pn->hi = fmax(pn->hi, v);
				}
				double lo, hi;
				if (pn->spread && !value_spread(r, v, pn->spread == 1, &lo, &hi)) {
					q->whisker = 1;
					q->lo = lo;
					q->hi = hi;
				}
			} else
				q->state = FP_MISSING;
			if (pn->model_quantity[0] && !figdesc_value(rd, r, pn->model_quantity, NULL, &v)) {
				q->has_model = 1;
				q->model = v;
				if (on_scale(v)) {
					pn->lo = fmin(pn->lo, v);
					pn->hi = fmax(pn->hi, v);
				}
			}
		}
	if (pn->ref > 0) {
		pn->lo = fmin(pn->lo, pn->ref);
		pn->hi = fmax(pn->hi, pn->ref);
	}
	if (pn->hi > 0)
		pn->notice[0] = pn->notice_why[0] = '\0';
}

static void panel_set(struct figpanel *pn, const struct figseries_spec *sp, const struct rsel *s)
{
	pn->sel = *s;
	snprintf(pn->quantity, sizeof pn->quantity, "%s", sp->quantity);
	snprintf(pn->model_quantity, sizeof pn->model_quantity, "%s", sp->model ? sp->model : "");
	snprintf(pn->xlabel, sizeof pn->xlabel, "%s", sp->xlabel ? sp->xlabel : "");
	snprintf(pn->ylabel, sizeof pn->ylabel, "%s", sp->ylabel ? sp->ylabel : "");
	pn->spread = sp->spread;
	snprintf(pn->notice, sizeof pn->notice, "%s", sp->panel_notice ? sp->panel_notice : "");
	snprintf(pn->notice_why, sizeof pn->notice_why, "%s", sp->panel_notice_why ? sp->panel_notice_why : "");
}

/* A panel's categories: every N of its records, at most max. */
static void panel_cats(const struct rdata *rd, struct figpanel *pn, size_t max)
{
	struct rsel s = pn->sel;
	s.n = -1;
	int nv[FD_CATS];
	size_t nn = rdata_values(rd, NULL, &s, RF_N, nv, FD_CATS);
	if (nn > max)
		nn = max;
	pn->ncat = nn;
	for (size_t i = 0; i < nn; i++)
		pn->cat[i] = nv[i];
}

static size_t max_cats(const struct figdesc *d, size_t np)
{
	size_t m = 0;
	for (size_t p = 0; p < np; p++)
		if (d->panel[p].ncat > m)
			m = d->panel[p].ncat;
	return m;
}

int figdesc_series_over_n(const struct rdata *rd, const struct figopts *o, const struct figseries_spec *sp,
			  struct figdesc *d)
{
	int dv[FD_PANELS], cv[FD_PANELS];
	struct rsel base;
	fig_prefill_sel(rd, o, &base);
	size_t np = panel_combos(rd, o, sp->filter, dv, cv, FD_PANELS);
	char keys[16][SERIES_KEY];
	size_t ns = rdata_series(rd, &base, sp->filter, keys, 16);
	/* the records drawn, in the results' order: every record of a series
	 * at these conditions, or those with a value to draw */
	for (size_t i = 0; i < rd->res->nrecords; i++) {
		const struct record *r = &rd->res->records[i];
		char k[SERIES_KEY];
		double v;
		if (!rsel_match(&base, r))
			continue;
		record_series(r, k, sizeof(k));
		for (size_t s = 0; s < ns; s++)
			if (!strcmp(keys[s], k) && (o->sel.d < 0 || r->shape.head_dim == o->sel.d) &&
			    (sp->all_used || !figdesc_value(rd, r, sp->quantity, NULL, &v)) && use(d, r))
				return -1;
	}
	/* the legend names only the series with a value to draw (SDPA has no
	 * HBM counters: no entry for it in the HBM chart), unless every series is kept */
	size_t kept = 0;
	for (size_t k = 0; k < ns; k++) {
		int drawn = sp->keep_all;
		char rk[SERIES_KEY];
		for (size_t i = 0; i < d->nused && !drawn; i++)
			drawn = !strcmp(record_series(d->used[i], rk, sizeof(rk)), keys[k]);
		if (drawn) {
			memcpy(d->series[kept].key, keys[k], SERIES_KEY);
			series_label(keys[k], d->series[kept].label, sizeof d->series[kept].label);
			d->series[kept].drawn = 1;
		}
		kept += drawn;
	}
	ns = kept;
	/* the model's legend entry only where a record has a model value to draw */
	for (size_t i = 0; sp->model && i < d->nused && !d->any_model; i++) {
		double mv;
		d->any_model = !figdesc_value(rd, d->used[i], sp->model, NULL, &mv);
	}
	snprintf(d->model_label, sizeof d->model_label, "%s", sp->model_label ? sp->model_label : "");
	if (!np || !ns) {
		notice(d, sp->notice, sp->notice_why);
		d->nseries = ns;
		return 0;
	}
	for (size_t p = 0; p < np; p++) {
		struct figpanel *pn = &d->panel[p];
		struct rsel s = base;
		s.d = dv[p];
		s.causal = cv[p];
		panel_set(pn, sp, &s);
		snprintf(pn->title, sizeof pn->title, "d = %d, %s", dv[p], cv[p] ? "causal" : "non-causal");
		panel_cats(rd, pn, sp->maxcat ? sp->maxcat : FD_CATS);
	}
	if (figdesc_alloc(d, np, ns, max_cats(d, np)))
		return -1;
	for (size_t p = 0; p < np; p++)
		fill_panel(rd, d, p);
	return 0;
}

int figdesc_tflops(const struct rdata *rd, const struct figopts *o, struct figdesc *d)
{
	const struct figseries_spec sp = {
		.filter = SERIES_MAIN, .quantity = "tflops", .spread = 1, .all_used = 1, .keep_all = 1,
		.maxcat = FD_BAR_CATS, .xlabel = "sequence length N", .ylabel = "TFLOP/s",
		.notice = "no prefill records", .notice_why = "the results hold no prefill timings to chart",
	};
	return figdesc_series_over_n(rd, o, &sp, d);
}

int figdesc_hbm(const struct rdata *rd, const struct figopts *o, struct figdesc *d)
{
	const struct figseries_spec sp = {
		.filter = SERIES_MAIN, .quantity = "run_hbm_bytes", .model = "model_hbm_bytes",
		.ylabel = "HBM bytes (log)", .xlabel = "sequence length N (log)", .model_label = "no-cache model (dotted)",
		.notice = "no records", .notice_why = "nothing in the results to chart here",
		.panel_notice = "no HBM byte counts",
		.panel_notice_why = "recorded without hardware counters: re-run 'attnprof record' with metrics: default",
	};
	return figdesc_series_over_n(rd, o, &sp, d);
}

int figdesc_memory(const struct rdata *rd, const struct figopts *o, struct figdesc *d)
{
	const struct figseries_spec sp = {
		.filter = SERIES_MAIN, .quantity = "run_peak_bytes", .model = "footprint",
		.ylabel = "peak memory (log)", .xlabel = "sequence length N (log)",
		.model_label = "descriptor buffers (dotted)",
		.notice = "no records", .notice_why = "nothing in the results to chart here",
		.panel_notice = "no peak memory", .panel_notice_why = "the records carry no memory.peak_bytes",
	};
	return figdesc_series_over_n(rd, o, &sp, d);
}

/* The copy rate measured in the run of the records sel draws (the first one's results file,
 * the probe its copy_pct divides by; not another run's), else 0. */
static double sel_run_copy(const struct rdata *rd, const struct rsel *sel)
{
	for (size_t i = 0; i < rd->res->nrecords; i++)
		if (rsel_match(sel, &rd->res->records[i]))
			return rdata_run_probe(rd, &rd->res->records[i], 0);
	return 0;
}

int figdesc_decode(const struct rdata *rd, const struct figopts *o, struct figdesc *d)
{
	struct rsel base;
	fig_decode_sel(rd, o, &base);
	char keys[16][SERIES_KEY];
	size_t ns = rdata_series(rd, &base, SERIES_DECODE, keys, 16);
	for (size_t i = 0; i < rd->res->nrecords; i++)
		if (rsel_match(&base, &rd->res->records[i]) && use(d, &rd->res->records[i]))
			return -1;
	for (size_t k = 0; k < ns; k++) {
		memcpy(d->series[k].key, keys[k], SERIES_KEY);
		series_label(keys[k], d->series[k].label, sizeof d->series[k].label);
		d->series[k].drawn = 1;
	}
	if (!ns) {
		notice(d, "no decode records", "record a spec with phase: decode (experiments/decode.yaml)");
		return 0;
	}
	const struct gpu_info *g = &rd->res->header.gpu;
	const struct figseries_spec t = {
		.filter = SERIES_DECODE, .quantity = "run_time_us", .spread = 2,
		.xlabel = "KV-cache length (log)", .ylabel = "time (µs, log)", .panel_notice = "no decode timings",
	};
	const struct figseries_spec b = {
		.filter = SERIES_DECODE, .quantity = "run_gbs", .spread = 1,
		.xlabel = "KV-cache length (log)", .ylabel = "HBM GB/s", .panel_notice = "no decode timings",
	};
	for (size_t p = 0; p < 2; p++) {
		struct figpanel *pn = &d->panel[p];
		panel_set(pn, p ? &b : &t, &base);
		snprintf(pn->title, sizeof pn->title, "%s", p ? "achieved bandwidth" : "time per decode step");
		panel_cats(rd, pn, FD_CATS);
	}
	/* the bandwidth's reference: the copy rate measured in the records' run, else the data sheet's */
	struct figpanel *bp = &d->panel[1];
	const double cp = sel_run_copy(rd, &base);
	bp->ref = cp > 0 ? cp : g->peak_hbm_gbs;
	snprintf(bp->ref_label, sizeof bp->ref_label, "%s %.0f GB/s", cp > 0 ? "measured copy" : "HBM peak",
		 bp->ref);
	if (figdesc_alloc(d, 2, ns, max_cats(d, 2)))
		return -1;
	for (size_t p = 0; p < 2; p++)
		fill_panel(rd, d, p);
	return 0;
}

int figdesc_decode_bandwidth(const struct rdata *rd, const struct figopts *o, struct figdesc *d)
{
	struct rsel sel;
	fig_decode_sel(rd, o, &sel);
	char keys[8][SERIES_KEY];
	size_t ns = rdata_series(rd, &sel, SERIES_DECODE, keys, 8);
	struct figpanel *pn = &d->panel[0];
	const struct figseries_spec sp = { .filter = SERIES_DECODE, .quantity = "bandwidth", .spread = 1, .ylabel = "GB/s" };
	panel_set(pn, &sp, &sel);
	int nv[16];
	size_t nn = rdata_values(rd, NULL, &sel, RF_N, nv, 16);
	if (!ns || !nn) {
		notice(d, "no decode records", "the results hold no decode records");
		return 0;
	}
	for (size_t k = 0; k < ns; k++) {
		memcpy(d->series[k].key, keys[k], SERIES_KEY);
		d->series[k].drawn = 1;
		series_label(keys[k], d->series[k].label, sizeof d->series[k].label);
		const struct variant_desc *v = variant_find(keys[k]);
		snprintf(d->series[k].generic, sizeof d->series[k].generic, "%s",
			 v && v->nkernels > 1 ? "cache split across thread blocks" : "one thread block per sequence and head");
	}
	pn->ncat = nn;
	for (size_t i = 0; i < nn; i++)
		pn->cat[i] = nv[i];
	/* the reference: the copy rate measured in the records' run (none without it) */
	const double cp = sel_run_copy(rd, &sel);
	if (cp > 0) {
		char v[32];
		pn->ref = cp;
		snprintf(pn->ref_label, sizeof pn->ref_label, "measured copy %s",
			 fmt_quantity(cp, U_GBS, NULL, v, sizeof(v)) ? "" : v);
	}
	if (figdesc_alloc(d, 1, ns, nn))
		return -1;
	fill_panel(rd, d, 0);
	for (size_t k = 0; k < ns; k++)
		for (size_t i = 0; i < nn; i++) {
			const struct figpoint *q = figdesc_at(d, 0, k, i);
			if (q->rec && use(d, q->rec))
				return -1;
		}
	return 0;
}

/* ---- category bars at the focus ---------------------------------------- */

int figdesc_category_bars(const struct rdata *rd, const struct figopts *o, enum series_filter filter,
			  const char *const *qs, const char *const *ql, size_t nq, struct figdesc *d)
{
	struct rsel s;
	fig_sel(rd, o, &s);
	char k[16][SERIES_KEY];
	size_t n = rdata_series(rd, &s, filter, k, 16), nr = 0;
	struct figpanel *pn = &d->panel[0];
	const struct record *recs[16];
	for (size_t i = 0; i < n; i++) {
		const struct record *r = rdata_find(rd, k[i], &s);
		if (!r)
			continue;
		if (use(d, r))
			return -1;
		recs[nr] = r;
		pn->cat[nr] = -1;
		series_label(k[i], pn->catlabel[nr], sizeof pn->catlabel[nr]);
		nr++;
	}
	pn->sel = s;
	pn->ncat = nr;
	if (nq > FD_SERIES)
		nq = FD_SERIES;
	for (size_t q = 0; q < nq; q++)
		name_series(d, q, qs[q], ql[q]);
	if (figdesc_alloc(d, 1, nq, nr))
		return -1;
	pn->lo = 1e300;
	pn->hi = 0;
	char why[200] = "";
	int any = 0;
	for (size_t i = 0; i < nr; i++)
		for (size_t q = 0; q < nq; q++) {
			struct figpoint *p = figdesc_at(d, 0, q, i);
			enum qunit u;
			double v = NAN;
			p->rec = recs[i];
			p->v = p->lo = p->hi = p->model = NAN;
			if (!rdata_quantity(rd, recs[i], qs[q], NULL, &v, &u, why, sizeof(why)) && on_scale(v)) {
				any = 1;
				d->series[q].drawn = 1;
				p->state = FP_VALUE;
				p->v = v;
				if (v > 0)
					pn->lo = fmin(pn->lo, v);
				pn->hi = fmax(pn->hi, v);
			} else
				p->state = FP_MISSING;
		}
	if (!nr || !any) {
		char w2[400];
		snprintf(w2, sizeof(w2), "%s%s%s", nr ? why : "no records at these conditions", nr ? ": " : "",
			 nr ? "re-run 'attnprof record' with metrics: default on a GPU whose counters are readable" : "");
		notice(d, "no hardware counters for this chart", w2);
	}
	return 0;
}

int figdesc_smem(const struct rdata *rd, const struct figopts *o, struct figdesc *d)
{
	static const char *const qs[] = { "smem_ld_wavefronts", "smem_st_wavefronts", "smem_ld_conflicts", "smem_st_conflicts",
					  "smem_gmma_wavefronts" };
	static const char *const ql[] = { "load wavefronts", "store wavefronts", "load bank conflicts", "store bank conflicts",
					  "wgmma operand wavefronts" };
	/* the wgmma operand reads where a record of the drawn series counted
	 * them (the workload set) */
	struct rsel s;
	fig_sel(rd, o, &s);
	char k[16][SERIES_KEY];
	size_t nk = rdata_series(rd, &s, SERIES_LADDER, k, 16), nq = 4;
	for (size_t i = 0; i < nk && nq == 4; i++) {
		const struct record *r = rdata_find(rd, k[i], &s);
		if (r && isfinite(record_metric_or_nan(r, M_SMEM_GMMA_WF)))
			nq = 5;
	}
	int rc = figdesc_category_bars(rd, o, SERIES_LADDER, qs, ql, nq, d);
	snprintf(d->panel[0].ylabel, sizeof d->panel[0].ylabel, "count (log)");
	/* a wgmma/TMA kernel's shared memory is read by the tensor cores and
	 * written by TMA, which the LSU counters do not count: where its
	 * wgmma operand reads were not counted either, its 0 is not drawn
	 * as a measurement */
	struct figpanel *pn = &d->panel[0];
	for (size_t i = 0; !rc && !d->notice[0] && i < pn->ncat; i++) {
		const struct record *r = d->nseries ? figdesc_at(d, 0, 0, i)->rec : NULL;
		if (!r || !record_smem_beyond_lsu(r) || isfinite(record_metric_or_nan(r, M_SMEM_GMMA_WF)))
			continue;
		int hidden = 0;
		for (size_t q = 0; q < d->nseries; q++) {
			struct figpoint *p = figdesc_at(d, 0, q, i);
			if (p->state == FP_VALUE && !(p->v > 0)) {
				p->state = FP_MISSING;
				p->v = NAN;
				hidden++;
			}
		}
		if (hidden)
			snprintf(pn->catnote[i], sizeof pn->catnote[i], "not visible to these counters");
	}
	return rc;
}

int figdesc_occupancy(const struct rdata *rd, const struct figopts *o, struct figdesc *d)
{
	static const char *const qs[] = { "occupancy_theoretical", "occupancy" };
	static const char *const ql[] = { "theoretical (occupancy API)", "achieved (sm__warps_active)" };
	int rc = figdesc_category_bars(rd, o, SERIES_LADDER, qs, ql, 2, d);
	snprintf(d->panel[0].ylabel, sizeof d->panel[0].ylabel, "warps active / maximum");
	return rc;
}

/* ---- counter rows ------------------------------------------------------- */

int figdesc_counter_rows(const struct rdata *rd, const struct figopts *o, const char *metric, size_t maxrows,
			 const char *const *qs, const char *const *args, size_t nq, struct figdesc *d)
{
	char label[COUNTER_ROWS_MAX][COUNTER_LABEL];
	enum pass pass[COUNTER_ROWS_MAX];
	const struct record *recs[COUNTER_ROWS_MAX];
	if (maxrows > FD_CATS)
		maxrows = FD_CATS;
	size_t n = fig_counter_rows(rd, o, metric, maxrows, label, pass, recs);
	struct figpanel *pn = &d->panel[0];
	fig_sel(rd, o, &pn->sel);
	pn->ncat = n;
	if (nq > FD_SERIES)
		nq = FD_SERIES;
	for (size_t q = 0; q < nq; q++) {
		snprintf(d->series[q].key, SERIES_KEY, "%s", qs[q]);
		snprintf(d->series[q].arg, sizeof d->series[q].arg, "%s", args && args[q] ? args[q] : "");
		snprintf(d->series[q].label, sizeof d->series[q].label, "%s%s%s", qs[q], d->series[q].arg[0] ? "." : "",
			 d->series[q].arg);
	}
	if (figdesc_alloc(d, 1, nq, n))
		return -1;
	pn->lo = 1e300;
	pn->hi = 0;
	for (size_t i = 0; i < n; i++) {
		if (use(d, recs[i]))
			return -1;
		pn->cat[i] = (int)pass[i];
		snprintf(pn->catlabel[i], sizeof pn->catlabel[i], "%s", label[i]);
		for (size_t q = 0; q < nq; q++) {
			struct figpoint *p = figdesc_at(d, 0, q, i);
			double v;
			p->rec = recs[i];
			p->lo = p->hi = p->model = NAN;
			if (!figdesc_value(rd, recs[i], qs[q], d->series[q].arg, &v)) {
				p->state = FP_VALUE;
				p->v = v;
				d->series[q].drawn = 1;
			} else {
				p->state = FP_MISSING;
				p->v = NAN;
			}
		}
	}
	return 0;
}

static int counter_cut(const struct rdata *rd, const struct figopts *o, const char *metric, char *why, size_t len)
{
	const size_t m = fig_counter_rows(rd, o, metric, 0, NULL, NULL, NULL);
	if (m <= FD_COUNTER_ROWS)
		return 0;
	snprintf(why, len, "the first %d of %zu kernels with counters are drawn", FD_COUNTER_ROWS, m);
	return 1;
}

int figdesc_workload_cut(const struct rdata *rd, const struct figopts *o, char *why, size_t len)
{
	return counter_cut(rd, o, M_L1_BYTES, why, len);
}

int figdesc_stalls_cut(const struct rdata *rd, const struct figopts *o, char *why, size_t len)
{
	return counter_cut(rd, o, M_WARPS_ACTIVE, why, len);
}

/* memory-workload: per level the bytes and the hit rate, then what the cells read */
const char *const figdesc_workload_q[FD_WORKLOAD_Q] = {
	"l1_bytes", "l1_hit", "l2_bytes", "l2_hit", "hbm_bytes", "smem_wavefronts",
	"dq_red_bytes", "hbm_read", "hbm_write", "hbm_model",
};

int figdesc_workload(const struct rdata *rd, const struct figopts *o, struct figdesc *d)
{
	int rc = figdesc_counter_rows(rd, o, M_L1_BYTES, FD_COUNTER_ROWS, figdesc_workload_q, NULL, FD_WORKLOAD_Q, d);
	if (!rc && !d->panel[0].ncat)
		notice(d, "no memory-workload counters at these conditions",
		       "record with the workload set (experiments/workload.yaml, tools/gpu-run.sh workload) on a GPU whose counters are readable");
	return rc;
}

int figdesc_stalls(const struct rdata *rd, const struct figopts *o, struct figdesc *d)
{
	const char *qs[FD_SERIES], *args[FD_SERIES];
	size_t n = 0;
	for (size_t k = 0; k < metric_stall_reason_count && n < FD_SERIES; k++, n++) {
		qs[n] = "stall_pct";
		args[n] = metric_stall_reasons[k].name;
	}
	int rc = figdesc_counter_rows(rd, o, M_WARPS_ACTIVE, FD_COUNTER_ROWS, qs, args, n, d);
	for (size_t k = 0; !rc && k < d->nseries; k++) /* the legend names a reason as the set does */
		snprintf(d->series[k].label, sizeof d->series[k].label, "%s", metric_stall_reasons[k].label);
	if (!rc && !d->panel[0].ncat)
		notice(d, "no warp-state counters at these conditions",
		       "record with the stalls set (experiments/stalls.yaml, tools/gpu-run.sh workload) on a GPU whose counters are readable");
	return rc;
}

/* ---- ladder rungs -------------------------------------------------------- */

int figdesc_ladder(const struct rdata *rd, const struct figopts *o, struct figdesc *d)
{
	struct rsel s;
	struct rung g[8];
	ablation_sel(rd, o, &s);
	size_t n = ablation_rungs(rd, o, &s, g, 8), nl = 0;
	struct figpanel *pn = &d->panel[0];
	pn->sel = s;
	d->one_run = d->whisker_runs = 1; /* every rung from one run (ablation_run) */
	const struct rung *lad[8];
	for (size_t i = 0; i < n; i++)
		if (g[i].ladder) {
			lad[nl++] = &g[i];
			if (use(d, g[i].r))
				return -1;
		}
	if (nl < 2) {
		notice(d, "no ladder to draw", "the results hold no rungs of the ablation ladder at these conditions");
		return 0;
	}
	name_series(d, 0, "tflops", "TFLOP/s");
	name_series(d, 1, "step", "step (time of the rung before ÷ this one's)");
	if (figdesc_alloc(d, 1, 2, nl))
		return -1;
	pn->ncat = nl;
	pn->lo = 1e300;
	pn->hi = 0;
	for (size_t i = 0; i < nl; i++) {
		const struct rung *r = lad[i];
		/* the base by name, each step by the change its descriptor adds, the top "= name" */
		pn->cat[i] = (int)i;
		if (i == 0 || !r->change)
			snprintf(pn->catlabel[i], sizeof pn->catlabel[i], "%s", r->v->name);
		else
			snprintf(pn->catlabel[i], sizeof pn->catlabel[i], "+ %s%s%s", r->change, r->top ? " = " : "",
				 r->top ? r->v->name : "");
		struct figpoint *t = figdesc_at(d, 0, 0, i), *st = figdesc_at(d, 0, 1, i);
		t->rec = st->rec = r->r;
		t->v = t->lo = t->hi = t->model = st->v = st->lo = st->hi = st->model = NAN;
		t->state = st->state = FP_MISSING;
		double tf, tmin, tmax;
		if (!figdesc_value(rd, r->r, "tflops", NULL, &tf)) {
			t->state = FP_VALUE;
			t->v = tf;
			/* run-to-run spread: the slowest and fastest run's TFLOP/s */
			if (rdata_runs(rd, r->r, &tmin, &tmax) > 1 && usable(tmin) && usable(tmax)) {
				t->whisker = 1;
				t->lo = tf * r->r->time_ms / tmax;
				t->hi = tf * r->r->time_ms / tmin;
			}
			if (on_scale(tf)) {
				pn->hi = fmax(pn->hi, tf);
				/* the fastest run's whisker is on the scale too */
				if (rdata_runs(rd, r->r, &tmin, &tmax) > 1 && usable(tmin))
					pn->hi = fmax(pn->hi, tf * r->r->time_ms / tmin);
			}
		}
		if (r->prev && usable(r->r->time_ms) && usable(r->prev->time_ms)) {
			st->state = FP_VALUE;
			st->v = r->prev->time_ms / r->r->time_ms;
			st->within_spread = rdata_step_within_spread(rd, r->r, r->prev, NULL);
		}
	}
	if (!(pn->hi > 0))
		notice(d, "no throughput to draw", "the rungs have no usable times");
	return 0;
}

/* ---- ladder over N -------------------------------------------------------- */

int figdesc_ladder_n_cut(const struct rdata *rd, const struct figopts *o, char *why, size_t len)
{
	struct figdesc d;
	figdesc_init(&d, "ladder-n");
	if (figdesc_ladder_n(rd, o, &d)) {
		figdesc_release(&d);
		return 0;
	}
	size_t unclocked = 0;
	for (size_t p = 1; p < d.npanels; p += 2)
		for (size_t k = 0; k < d.nseries; k++)
			for (size_t i = 0; i < d.panel[p].ncat; i++) {
				const struct figpoint *q = figdesc_at(&d, p, k, i);
				unclocked += q && q->rec && q->state == FP_MISSING;
			}
	figdesc_release(&d);
	if (!unclocked)
		return 0;
	snprintf(why, len, "%zu record%s without a probed SM clock left out of the per-GHz panels", unclocked,
		 unclocked == 1 ? "" : "s");
	return 1;
}

int figdesc_ladder_n(const struct rdata *rd, const struct figopts *o, struct figdesc *d)
{
	const struct variant_desc *top = ablation_top(o);
	const struct variant_desc *chain[ABLATION_MAX_RUNGS];
	size_t nchain = variant_ladder(top, chain, ABLATION_MAX_RUNGS, NULL, 0, NULL);
	struct rsel base;
	fig_prefill_sel(rd, o, &base);
	int dv[FD_PANELS / 2], cv[FD_PANELS / 2];
	size_t nm = nchain ? dc_pairs(rd, o, top->name, &base, dv, cv, FD_PANELS / 2) : 0;
	/* the rungs measured under base: a series each, in ladder order */
	size_t ns = 0;
	for (size_t k = 0; k < nchain; k++)
		if (rdata_find_any(rd, chain[k]->name, &base)) {
			snprintf(d->series[ns].key, sizeof d->series[ns].key, "%s", chain[k]->name);
			series_label(chain[k]->name, d->series[ns].label, sizeof d->series[ns].label);
			ns++;
		}
	d->nseries = ns;
	if (!nm || ns < 2) {
		notice(d, "no ladder to draw", "the results hold no two rungs of the ladder over N at these conditions");
		return 0;
	}
	d->one_run = 1; /* at each N every rung from one run (ablation_run) */
	for (size_t m = 0; m < nm; m++)
		for (int q = 0; q < 2; q++) {
			struct figpanel *pn = &d->panel[2 * m + q];
			pn->sel = base;
			pn->sel.d = dv[m];
			pn->sel.causal = cv[m];
			snprintf(pn->quantity, sizeof pn->quantity, "%s", q ? "run_tflops_per_ghz" : "tflops");
			snprintf(pn->xlabel, sizeof pn->xlabel, "sequence length N (log)");
			snprintf(pn->ylabel, sizeof pn->ylabel, "%s", q ? "TFLOP/s per GHz of SM clock" : "TFLOP/s");
			snprintf(pn->title, sizeof pn->title, "d = %d, %s%s", dv[m], cv[m] ? "causal" : "non-causal",
				 q ? ", per GHz" : "");
			pn->spread = q ? 0 : 1;
			snprintf(pn->notice, sizeof pn->notice, "%s", q ? "no probed SM clock" : "no timings");
			pn->ncat = 0;
			struct rsel t = pn->sel;
			int tn[FD_CATS];
			size_t tnn = rdata_values(rd, top->name, &t, RF_N, tn, FD_CATS);
			for (size_t i = 0; i < tnn; i++)
				pn->cat[pn->ncat++] = tn[i];
		}
	d->npanels = 2 * nm;
	size_t nc = 0;
	for (size_t p = 0; p < d->npanels; p++)
		nc = d->panel[p].ncat > nc ? d->panel[p].ncat : nc;
	if (figdesc_alloc(d, d->npanels, ns, nc))
		return -1;
	for (size_t p = 0; p < d->npanels; p++) {
		struct figpanel *pn = &d->panel[p];
		pn->lo = 1e300;
		pn->hi = 0;
		for (size_t i = 0; i < pn->ncat; i++) {
			struct rsel s = pn->sel;
			s.n = pn->cat[i];
			struct rung g[ABLATION_MAX_RUNGS];
			size_t ng = ablation_rungs(rd, o, &s, g, ABLATION_MAX_RUNGS);
			for (size_t k = 0; k < ns; k++) {
				struct figpoint *q = figdesc_at(d, p, k, i);
				q->v = q->model = q->lo = q->hi = NAN;
				for (size_t j = 0; j < ng && !q->rec; j++)
					if (g[j].ladder && !strcmp(g[j].v->name, d->series[k].key))
						q->rec = g[j].r;
				if (!q->rec)
					continue;
				if (use(d, q->rec))
					return -1;
				q->wrong = q->rec->checked && !q->rec->correct;
				double v, lo, hi;
				if (figdesc_value(rd, q->rec, pn->quantity, NULL, &v)) {
					q->state = FP_MISSING; /* per GHz: no clock probed (the cut says so) */
					continue;
				}
				q->state = FP_VALUE;
				q->v = v;
				d->series[k].drawn = 1;
				if (pn->spread && !value_spread(q->rec, v, 1, &lo, &hi)) {
					q->whisker = 1;
					q->lo = lo;
					q->hi = hi;
				}
				if (on_scale(v)) {
					pn->lo = fmin(pn->lo, v);
					pn->hi = fmax(pn->hi, q->whisker && on_scale(q->hi) ? fmax(v, q->hi) : v);
				}
			}
		}
		if (pn->hi > 0)
			pn->notice[0] = '\0';
	}
	return 0;
}

/* ---- roofline ------------------------------------------------------------ */


static double launch_metric(const struct launch *l, const char *name)
{
	const double *v = kvlist_get(&l->metrics, name);
	return v && isfinite(*v) ? *v : NAN;
}

/* Shared-memory bytes of a launch: wavefronts (loads, stores and wgmma's
 * operand reads) × 128 bytes, the most a wavefront moves; NAN without them. */
static double launch_smem_bytes(const struct launch *l)
{
	double wf = launch_metric(l, M_SMEM_WF);
	if (!isfinite(wf)) {
		double ld = launch_metric(l, M_SMEM_LD_WF), st = launch_metric(l, M_SMEM_ST_WF),
		       gm = launch_metric(l, M_SMEM_GMMA_WF);
		wf = isfinite(ld) && isfinite(st) ? ld + st + (isfinite(gm) ? gm : 0) : NAN;
	}
	return wf > 0 ? wf * 128 : NAN;
}

/* The points of record r (series j): its tensor-core kernels, else the call. */
static int roof_add(const struct rdata *rd, struct figdesc *d, const struct record *r, size_t j)
{
	double flops = NAN, y;
	enum qunit u;
	char why[160];
	const double *fm = kvlist_get(&r->model, "flops_matmul");
	if (fm && *fm > 0)
		flops = *fm;
	else if (rdata_quantity(rd, r, "flops", NULL, &flops, &u, why, sizeof(why)))
		return 0;
	size_t nt = 0, longest = SIZE_MAX;
	double tmax = 0;
	for (size_t i = 0; i < r->nlaunches; i++) {
		enum tensor_path p;
		double t = launch_metric(&r->launches[i], M_DURATION);
		if (!launch_tensor_path(r, &r->launches[i], &p) || !(t > 0))
			continue;
		nt++;
		if (t > tmax)
			tmax = t, longest = i;
	}
	for (size_t i = 0; nt && i < r->nlaunches && d->nmarks < FD_MARKS; i++) {
		const struct launch *l = &r->launches[i];
		enum tensor_path p;
		double t = launch_metric(l, M_DURATION);
		double dram = launch_metric(l, M_DRAM_READ) + launch_metric(l, M_DRAM_WRITE);
		if (!launch_tensor_path(r, l, &p) || !(t > 0) || !(dram > 0))
			continue;
		struct figmark *q = &d->mark[d->nmarks++];
		const double f = flops / (double)nt, l2 = launch_metric(l, M_L2_BYTES), sm = launch_smem_bytes(l);
		*q = (struct figmark){ .y = f / (t * 1e-9) / 1e12, .series = j, .longest = i == longest, .path = p, .rec = r };
		if (record_captured(r)) {
			const struct family_rule *fr = l->name ? family_of_kernel(l->name) : NULL;
			q->fp32 = fr && !strcmp(fr->role, "gemm") && fr->score_bytes == 4;
		}
		q->x[FD_DRAM] = f / dram;
		q->x[FD_L2] = l2 > 0 ? f / l2 : NAN;
		q->x[FD_SMEM] = sm > 0 ? f / sm : NAN;
	}
	if (nt || d->nmarks >= FD_MARKS)
		return 0;
	/* no per-kernel counters (a reference series timed alone): the call */
	double x, m;
	int model_x = 0;
	if (rdata_quantity(rd, r, "tflops", NULL, &y, &u, why, sizeof(why)))
		return 0;
	if (rdata_quantity(rd, r, "intensity", NULL, &x, &u, why, sizeof(why))) {
		if (figdesc_value(rd, r, "model_hbm_bytes", NULL, &m) || rdata_quantity(rd, r, "flops", NULL, &flops, &u, why, sizeof(why)))
			return 0;
		x = flops / m;
		model_x = 1;
	}
	struct figmark *q = &d->mark[d->nmarks++];
	*q = (struct figmark){ .y = y, .series = j, .longest = 1, .model_x = model_x, .path = PATH_NONE, .rec = r };
	q->x[FD_DRAM] = x;
	q->x[FD_L2] = q->x[FD_SMEM] = NAN;
	return 0;
}

/* The points of the records at these conditions whose series is drawn
 * (d->mark), and the records they came from (used: the footer's conditions). */
static int roof_gather(const struct rdata *rd, const struct rsel *s, struct figdesc *d)
{
	const size_t ns = d->nseries;
	for (size_t i = 0; i < rd->res->nrecords; i++) {
		const struct record *r = &rd->res->records[i];
		char k[SERIES_KEY];
		if (!rsel_match(s, r))
			continue;
		record_series(r, k, sizeof(k));
		size_t j;
		for (j = 0; j < ns && strcmp(d->series[j].key, k); j++)
			;
		size_t before = d->nmarks;
		if (j < ns)
			roof_add(rd, d, r, j);
		if (d->nmarks > before && use(d, r))
			return -1;
	}
	return 0;
}

/* The roofline's series: the document's main series at these conditions,
 * then a series for each captured implementation (SDPA's FLASH, cuDNN …)
 * with a record here, cap_slot[j] = 1 + its look in the capture figures
 * (0 for the main series).  Returns how many. */
static size_t roof_series(const struct rdata *rd, const struct rsel *s, char keys[][SERIES_KEY], int *cap_slot)
{
	size_t ns = rdata_series(rd, s, SERIES_MAIN, keys, FD_ROOF_SERIES);
	memset(cap_slot, 0, sizeof(int) * FD_ROOF_SERIES);
	size_t ni;
	struct capimpl *im = capture_impls(rd, &ni);
	for (size_t i = 0; i < ni && ns < FD_ROOF_SERIES; i++) {
		int any = 0;
		for (size_t k = 0; k < rd->res->nrecords && !any; k++) {
			const struct record *r = &rd->res->records[k];
			char key[SERIES_KEY];
			if (!record_captured(r) || !rsel_match(s, r))
				continue;
			record_series(r, key, sizeof(key));
			any = !strcmp(key, im[i].key);
		}
		if (!any)
			continue;
		cap_slot[ns] = 1 + 4 + (int)(i % 4); /* their look in the capture figures (fig_capture.c) */
		memcpy(keys[ns++], im[i].key, SERIES_KEY);
	}
	capture_impls_free(im, ni);
	return ns;
}

int figdesc_roofline_cut(const struct rdata *rd, const struct figopts *o, char *why, size_t len)
{
	struct rsel s;
	fig_sel(rd, o, &s);
	s.n = o->sel.n;
	/* roof_series without its cap: the main series, then captured implementations with calls here */
	const size_t nr = rd->res->nrecords;
	char (*k)[SERIES_KEY] = malloc((nr + 1) * sizeof(*k));
	size_t m = k ? rdata_series(rd, &s, SERIES_MAIN, k, nr + 1) : 0, ni;
	free(k);
	struct capimpl *im = capture_impls(rd, &ni);
	for (size_t i = 0; i < ni; i++) {
		int any = 0;
		for (size_t j = 0; j < nr && !any; j++) {
			const struct record *r = &rd->res->records[j];
			char key[SERIES_KEY];
			if (!record_captured(r) || !rsel_match(&s, r))
				continue;
			record_series(r, key, sizeof(key));
			any = !strcmp(key, im[i].key);
		}
		m += any;
	}
	capture_impls_free(im, ni);
	if (m <= FD_ROOF_SERIES)
		return 0;
	snprintf(why, len, "the first %d of %zu implementations are drawn", FD_ROOF_SERIES, m);
	return 1;
}

/* A ceiling of the roofline (figdesc.h): kind its state, v its rate,
 * its labels longest first (NULL none). */
static int roof_ceiling(struct figdesc *d, const char *name, const char *kind, double v, const char *l0, const char *l1,
			const char *l2)
{
	struct figitem *it = figdesc_item(d, "ceiling", name, NULL, v, "%s", l0);
	if (!it)
		return -1;
	snprintf(it->state, sizeof it->state, "%s", kind);
	snprintf(it->alt[0], sizeof it->alt[0], "%s", l1 ? l1 : "");
	snprintf(it->alt[1], sizeof it->alt[1], "%s", l2 ? l2 : "");
	return 0;
}

/* The roofline's ceilings from the results header: roofs of the
 * instruction paths its marks use (the top one always), slopes of the
 * levels measured where a mark holds their bytes, the data sheet's HBM;
 * the ones not measured in "missing" (figdesc.h). */
static int roof_ceilings(const struct rdata *rd, struct figdesc *d)
{
	const struct gpu_info *g = &rd->res->header.gpu;
	const double bw = g->copy_gbs > 0 ? g->copy_gbs : g->peak_hbm_gbs; /* GB/s */
	const double lvbw[FD_LEVELS] = { bw, g->ceil.l2_gbs, g->ceil.smem_gbs };
	int mma_used = 0, wgmma_used = 0, fp32_used = 0, have[FD_LEVELS] = { 1, 0, 0 };
	for (size_t i = 0; i < d->nmarks; i++) {
		const struct figmark *q = &d->mark[i];
		mma_used |= q->path == PATH_MMA_SYNC;
		fp32_used |= q->fp32;
		wgmma_used |= q->path == PATH_WGMMA || q->path == PATH_LIBRARY;
		have[FD_L2] |= isfinite(q->x[FD_L2]);
		have[FD_SMEM] |= isfinite(q->x[FD_SMEM]);
	}
	static const char *const lvkey[FD_LEVELS] = { "dram", "l2", "smem" };
	for (int lv = 0; lv < FD_LEVELS; lv++)
		if (!figdesc_item(d, "level", lvkey[lv], NULL, lvbw[lv], "%s", ""))
			return -1;
	if (!figdesc_item(d, "top", "top_tflops", NULL, g->tensor_tflops > 0 ? g->tensor_tflops : g->ceil.mma_sync_tflops,
			  "%s", ""))
		return -1;
	char missing[200] = "", l0[72], l1[72], l2[72];
	const char *wg = g->hw.cc_major == 9 ? "wgmma (cuBLAS GEMM)" : "cuBLAS GEMM";
	if (g->tensor_tflops > 0) {
		snprintf(l0, sizeof l0, "%s %.0f TFLOP/s", wg, g->tensor_tflops);
		snprintf(l1, sizeof l1, "%s %.0f", g->hw.cc_major == 9 ? "wgmma" : "GEMM", g->tensor_tflops);
		if (roof_ceiling(d, "tensor_tflops", "gemm", g->tensor_tflops, l0, l1, NULL))
			return -1;
	} else
		strncat(missing, "GEMM (wgmma) rate", sizeof missing - strlen(missing) - 1);
	if (mma_used || !wgmma_used) {
		if (g->ceil.mma_sync_tflops > 0) {
			snprintf(l0, sizeof l0, "mma.sync %.0f TFLOP/s", g->ceil.mma_sync_tflops);
			snprintf(l1, sizeof l1, "mma.sync %.0f", g->ceil.mma_sync_tflops);
			if (roof_ceiling(d, "mma_sync_tflops", "mma-sync", g->ceil.mma_sync_tflops, l0, l1, NULL))
				return -1;
		} else
			snprintf(missing + strlen(missing), sizeof missing - strlen(missing), "%smma.sync rate",
				 *missing ? ", " : "");
	}
	if (fp32_used) { /* an FP32 GEMM's roof: no tensor-core rate bounds it; none is measured */
		const double fp32 = datasheet_fp32_tflops(g->name, NULL);
		if (fp32 > 0) {
			snprintf(l0, sizeof l0, "FP32 (FFMA, data sheet) %.0f TFLOP/s", fp32);
			snprintf(l1, sizeof l1, "FP32 %.0f", fp32);
			if (roof_ceiling(d, "fp32_tflops", "fp32", fp32, l0, l1, NULL))
				return -1;
		} else
			snprintf(missing + strlen(missing), sizeof missing - strlen(missing), "%sFP32 rate",
				 *missing ? ", " : "");
	}
	const char *lvname[FD_LEVELS] = { g->copy_gbs > 0 ? "measured copy" : "HBM peak", "L2", "shared-memory" };
	size_t nc = 0;
	for (size_t i = 0; i < d->nitems; i++)
		nc += !strcmp(d->item[i].role, "ceiling");
	for (int lv = 0; lv < FD_LEVELS; lv++) {
		if (!(lvbw[lv] > 0)) {
			if (lv) /* the levels' roofs: named when missing */
				snprintf(missing + strlen(missing), sizeof missing - strlen(missing), "%s%s roof",
					 *missing ? ", " : "", lvname[lv]);
			continue;
		}
		if (!have[lv] && lv)
			continue; /* measured, but no record holds the level's bytes */
		snprintf(l0, sizeof l0, "%s %.0f GB/s", lvname[lv], lvbw[lv]);
		snprintf(l1, sizeof l1, "%s %.0f", lv ? lvname[lv] : "copy", lvbw[lv]);
		snprintf(l2, sizeof l2, "%.0f GB/s", lvbw[lv]);
		if (roof_ceiling(d, lvkey[lv], lvkey[lv], lvbw[lv], l0, l1, l2))
			return -1;
		nc++;
		if (lv != FD_DRAM)
			continue;
		/* the read-only stream (a buffer of 32 L2s read once): the ceiling of a kernel that
		 * only reads, which the copy (read + write) is not; drawn where the run measured it */
		const double rdbw = g->ceil.hbm_read_gbs;
		if (rdbw > 0) {
			snprintf(l0, sizeof l0, "read-only stream %.0f GB/s", rdbw);
			snprintf(l1, sizeof l1, "read-only %.0f", rdbw);
			snprintf(l2, sizeof l2, "%.0f GB/s", rdbw);
			if (roof_ceiling(d, "hbm_read_gbs", "read", rdbw, l0, l1, l2))
				return -1;
			nc++;
		} else
			snprintf(missing + strlen(missing), sizeof missing - strlen(missing), "%sread-only stream",
				 *missing ? ", " : "");
	}
	const int sheet = g->peak_hbm_gbs > 0 && g->copy_gbs > 0 && g->peak_hbm_gbs > g->copy_gbs;
	if (sheet && nc < FD_ROOF_CEILINGS) {
		snprintf(l0, sizeof l0, "data-sheet HBM %.0f GB/s (dashed)", g->peak_hbm_gbs);
		snprintf(l1, sizeof l1, "data sheet %.0f GB/s", g->peak_hbm_gbs);
		if (roof_ceiling(d, "peak_hbm_gbs", "sheet", g->peak_hbm_gbs, l0, l1, NULL))
			return -1;
	}
	return figdesc_item(d, "missing", "missing", NULL, NAN, "%s", missing) ? 0 : -1;
}

int figdesc_roofline(const struct rdata *rd, const struct figopts *o, struct figdesc *d)
{
	struct rsel s;
	fig_sel(rd, o, &s);
	s.n = o->sel.n; /* every N unless the options fix one */
	char keys[FD_ROOF_SERIES][SERIES_KEY];
	int cap_slot[FD_ROOF_SERIES];
	size_t ns = roof_series(rd, &s, keys, cap_slot);
	for (size_t j = 0; j < ns; j++) {
		memcpy(d->series[j].key, keys[j], SERIES_KEY);
		series_label(keys[j], d->series[j].label, sizeof d->series[j].label);
		d->series[j].capture_look = cap_slot[j];
	}
	d->nseries = ns;
	d->npanels = 1;
	d->panel[0].sel = s;
	snprintf(d->panel[0].quantity, sizeof d->panel[0].quantity, "tflops");
	d->mark = malloc(FD_MARKS * sizeof(*d->mark));
	if (!d->mark)
		return -1;
	if (roof_gather(rd, &s, d))
		return -1;
	for (size_t i = 0; i < d->nmarks; i++)
		d->series[d->mark[i].series].drawn = 1;
	return roof_ceilings(rd, d);
}

/* ---- the ablation waterfall ------------------------------------------------ */

int figdesc_ablation(const struct rdata *rd, const struct figopts *o, struct figdesc *d)
{
	struct rsel s;
	ablation_sel(rd, o, &s);
	struct rung g[8];
	size_t n = ablation_rungs(rd, o, &s, g, 8);
	struct figpanel *pn = &d->panel[0];
	pn->sel = s;
	d->one_run = d->whisker_runs = 1; /* every rung from one run (ablation_run) */
	for (size_t i = 0; i < n; i++)
		if (use(d, g[i].r))
			return -1;
	name_series(d, 0, "tflops", "TFLOP/s");
	name_series(d, 1, "prev_tflops", "TFLOP/s of the rung before");
	if (figdesc_alloc(d, 1, 2, n))
		return -1;
	d->catx = calloc(n ? n : 1, sizeof(*d->catx));
	if (!d->catx)
		return -1;
	pn->ncat = n;
	pn->lo = 1e300;
	pn->hi = 0;
	rdata_conditions(rd, d->used, d->nused, d->cond, sizeof(d->cond));
	int spread_any = 0, nl = 0;
	for (size_t i = 0; i < n; i++) {
		struct figpoint *t = figdesc_at(d, 0, 0, i), *pv = figdesc_at(d, 0, 1, i);
		t->rec = g[i].r;
		t->v = t->lo = t->hi = t->model = pv->v = pv->lo = pv->hi = pv->model = NAN;
		t->state = FP_MISSING;
		pn->cat[i] = g[i].ladder;
		nl += g[i].ladder;
		if (g[i].prev && g[i].change)
			snprintf(pn->catlabel[i], sizeof pn->catlabel[i], "+ %s", g[i].change);
		else
			snprintf(pn->catlabel[i], sizeof pn->catlabel[i], "%s", g[i].v->name);
		snprintf(d->catx[i].key, SERIES_KEY, "%s", g[i].v->name);
		if (ablation_evidence(rd, &g[i], d->catx[i].note[0], sizeof d->catx[i].note[0], d->catx[i].note[1],
				      sizeof d->catx[i].note[1]))
			return error("%s: its evidence names no quantity", g[i].v->name);
		double v, tmin, tmax;
		if (!figdesc_value(rd, g[i].r, "tflops", NULL, &v) && on_scale(v)) {
			t->state = FP_VALUE;
			t->v = v;
			pn->hi = fmax(pn->hi, v);
			if (rdata_runs(rd, g[i].r, &tmin, &tmax) > 1) {
				/* TFLOP/s of the slowest and fastest run */
				t->whisker = 1;
				t->lo = v * g[i].r->time_ms / tmax;
				t->hi = v * g[i].r->time_ms / tmin;
				spread_any = 1;
			}
			if (v > 0)
				pn->lo = fmin(pn->lo, t->whisker ? fmin(t->lo, v) : v);
		}
		/* the step: from the rung before's TFLOP/s */
		pv->state = FP_NONE;
		if (g[i].prev) {
			pv->rec = g[i].prev;
			pv->state = FP_MISSING;
			if (!figdesc_value(rd, g[i].prev, "tflops", NULL, &v) && v > 0) {
				pv->state = FP_VALUE;
				pv->v = v;
			}
		}
	}
	if (spread_any)
		strncat(d->cond, " · whiskers: run-to-run spread over the repeat runs", sizeof(d->cond) - strlen(d->cond) - 1);
	if (n < 2) {
		char how[160];
		snprintf(how, sizeof how, "record experiments/ablation.yaml: it runs %s, %s and the rungs between",
			 variant_role(DOC_BASELINE), variant_role(DOC_SUBJECT));
		notice(d, "no ablation ladder at these conditions", how);
		return 0;
	}
	if (nl >= 2 && g[nl - 1].top && g[0].base && figdesc_at(d, 0, 0, 0)->state == FP_VALUE &&
	    figdesc_at(d, 0, 0, (size_t)nl - 1)->state == FP_VALUE)
		snprintf(pn->total_label, sizeof pn->total_label, "= %s (total)", g[nl - 1].v->name);
	snprintf(pn->group_label, sizeof pn->group_label, "single changes applied to %s", ablation_base(o));
	if (!(pn->lo < 1e300) || !(pn->hi > 0))
		notice(d, "no ablation ladder at these conditions", "the rungs have no time");
	return 0;
}

/* ---- diff ----------------------------------------------------------------- */


struct diff_row {
	const struct record *base, *new_;
	double ratio, lo, hi;
};

/* a record's launch spread, or its median when it has none */
static void spread_of(const struct record *r, double *lo, double *hi)
{
	*lo = usable(r->time_ms_min) ? r->time_ms_min : r->time_ms;
	*hi = usable(r->time_ms_max) ? r->time_ms_max : r->time_ms;
}

static int by_change(const void *a, const void *b)
{
	const struct diff_row *p = a, *q = b;
	double x = fabs(log(p->ratio)), y = fabs(log(q->ratio));
	return x < y ? 1 : x > y ? -1 : 0;
}

static int by_ratio(const void *a, const void *b)
{
	const struct diff_row *p = a, *q = b;
	return p->ratio < q->ratio ? -1 : p->ratio > q->ratio ? 1 : 0;
}

/* Pairs of (older file's record, newer file's drawn record) of one identity;
 * returns how many, the largest changes first when there are more than max. */
static size_t diff_rows(const struct rdata *rd, struct diff_row *out, size_t max, size_t *total)
{
	size_t n = 0, cap = 0;
	struct diff_row *all = NULL;
	char k1[256], k2[256];
	*total = 0;
	for (size_t i = 0; rd->others && i < rd->res->nrecords; i++) {
		const struct record *r = &rd->res->records[i];
		if (r->error || !usable(r->time_ms) || record_captured(r))
			continue;
		record_key(r, k1, sizeof(k1));
		for (size_t j = 0; j < rd->others->nrecords; j++) {
			const struct record *o = &rd->others->records[j];
			if (o->error || !usable(o->time_ms) || rdata_origin(rd, o) == rdata_origin(rd, r))
				continue;
			record_key(o, k2, sizeof(k2));
			if (strcmp(k1, k2))
				continue;
			if (n == cap) {
				cap = cap ? 2 * cap : 64;
				struct diff_row *p = realloc(all, cap * sizeof(*p));
				if (!p)
					break;
				all = p;
			}
			double bl, bh, nl, nh;
			spread_of(o, &bl, &bh);
			spread_of(r, &nl, &nh);
			all[n++] = (struct diff_row){ o, r, r->time_ms / o->time_ms, nl / bh, nh / bl };
			break;
		}
	}
	*total = n;
	if (n > max)
		qsort(all, n, sizeof(*all), by_change);
	size_t m = n < max ? n : max;
	if (m)
		memcpy(out, all, m * sizeof(*out));
	free(all);
	qsort(out, m, sizeof(*out), by_ratio);
	return m;
}

int figdesc_diff(const struct rdata *rd, const struct figopts *o, struct figdesc *d)
{
	(void)o;
	struct diff_row row[FD_DIFF_ROWS];
	size_t total, n = diff_rows(rd, row, FD_DIFF_ROWS, &total);
	struct figpanel *pn = &d->panel[0];
	name_series(d, 0, "time_ratio", "new time ÷ base time");
	if (figdesc_alloc(d, 1, 1, n))
		return -1;
	pn->ncat = n;
	snprintf(pn->quantity, sizeof pn->quantity, "time_ratio");
	int reg = 0, imp = 0;
	for (size_t i = 0; i < n; i++) {
		struct figpoint *q = figdesc_at(d, 0, 0, i);
		*q = (struct figpoint){ .state = FP_VALUE, .v = row[i].ratio, .whisker = 1, .lo = row[i].lo, .hi = row[i].hi,
					.model = NAN, .rec = row[i].new_, .base = row[i].base };
		pn->cat[i] = (int)i;
		record_describe(row[i].new_, pn->catlabel[i], sizeof pn->catlabel[i]);
		reg += row[i].lo > 1;
		imp += row[i].hi < 1;
		if (use(d, row[i].new_) || use(d, row[i].base))
			return -1;
	}
	snprintf(d->cond, sizeof d->cond, "%zu configurations in two files%s: %d slower and %d faster beyond the spread, "
		 "the rest equal within it", total, total > n ? " (the largest changes drawn)" : "", reg, imp);
	if (!n)
		notice(d, "no configuration recorded twice",
		       "give report two results files of the same sweep (a base run and a new one)");
	return 0;
}

/* ---- for the builders of other files (figpatent.c) ---------------------- */

int figdesc_points(struct figdesc *d, size_t np, size_t ns, size_t nc) { return figdesc_alloc(d, np, ns, nc); }
void figdesc_fill_panel(const struct rdata *rd, struct figdesc *d, size_t p) { fill_panel(rd, d, p); }
int figdesc_use(struct figdesc *d, const struct record *r) { return use(d, r); }

/* ---- every kind ---------------------------------------------------------- */

/* ---- capture-compare --------------------------------------------------------- */

#define CMP_SERIES (CAP_CHART_IMPLS + 2) /* the implementations, then the two references */

/* Same shape for the comparison: N, B, H, d and the mask. */
static int cmp_same(const struct record *a, const struct record *b)
{
	return a->shape.seqlen_kv == b->shape.seqlen_kv && a->shape.batch == b->shape.batch &&
	       a->shape.heads == b->shape.heads && a->shape.head_dim == b->shape.head_dim &&
	       !!a->shape.causal == !!b->shape.causal;
}

/* The comparison's categories: the prefill shapes of the pass with a known
 * shape (B, H, N, d, causal once each), sorted by N; used gets every call
 * drawn from (at most 256).  Returns how many shapes. */
static int cmp_shapes(const struct capimpl *all, size_t ni, enum pass pass, const struct record *shape[FD_BAR_CATS],
		      const struct record *used[256], size_t *nused)
{
	int ns = 0;
	for (size_t i = 0; i < ni; i++)
		for (size_t k = 0; k < all[i].ng; k++) {
			const struct record *r = all[i].g[k].rep;
			if (r->shape.pass != pass || r->shape.phase != PHASE_PREFILL ||
			    (r->capture && !r->capture->shape_known))
				continue;
			if (*nused < 256)
				used[(*nused)++] = r;
			int dup = 0;
			for (int j = 0; j < ns; j++)
				dup |= cmp_same(shape[j], r);
			if (!dup && ns < FD_BAR_CATS)
				shape[ns++] = r;
		}
	records_by_kv_len(shape, ns);
	return ns;
}

static int capture_compare_of(const struct rdata *rd, const struct figopts *o, const struct capimpl *all, size_t ni,
			      struct figdesc *d)
{
	const enum pass pass = capture_compare_pass(o);
	const struct record *shape[FD_BAR_CATS], *used[256];
	size_t nused = 0;
	const int ns = cmp_shapes(all, ni, pass, shape, used, &nused);
	if (nused)
		rdata_conditions(rd, used, nused, d->cond, sizeof d->cond);
	for (size_t i = 0; i < nused; i++)
		if (use(d, used[i]))
			return -1;
	if (!ns) {
		snprintf(d->notice, sizeof d->notice, "%s", pass != PASS_BWD ? "no captured forward prefill call"
									 : "no captured backward prefill call");
		snprintf(d->notice_why, sizeof d->notice_why, "the capture holds no %s prefill calls with a known shape",
			 pass != PASS_BWD ? "forward" : "backward");
		return 0;
	}
	/* series: the captured implementations, then the references */
	const char *names[CMP_SERIES];
	int look[CMP_SERIES], nser = 0;
	for (size_t i = 0; i < ni && nser < CMP_SERIES - 2; i++) {
		int has = 0;
		for (size_t k = 0; k < all[i].ng; k++)
			has |= all[i].g[k].rep->shape.pass == pass && all[i].g[k].rep->shape.phase == PHASE_PREFILL;
		if (has) {
			/* captured implementations take the slots no prefill chart's variant
			 * of attnprof does; standard and flash2 keep their own everywhere */
			look[nser] = 4 + (int)(i % 4);
			names[nser++] = all[i].variant;
		}
	}
	const int first_ref = nser;
	look[nser] = -1;
	names[nser++] = variant_role(DOC_CONVENTIONAL);
	look[nser] = -1;
	names[nser++] = variant_role(DOC_SUBJECT);
	if (figdesc_alloc(d, 1, (size_t)nser, (size_t)ns))
		return -1;
	struct figpanel *pn = &d->panel[0];
	pn->ncat = (size_t)ns;
	pn->lo = 1e300;
	snprintf(pn->quantity, sizeof pn->quantity, "tflops");
	snprintf(pn->xlabel, sizeof pn->xlabel, "sequence length N (B·N, H as captured)");
	snprintf(pn->ylabel, sizeof pn->ylabel, "TFLOP/s");
	pn->spread = 1;
	int missing = 0;
	for (int k = 0; k < ns; k++) {
		const int n = shape[k]->shape.seqlen_kv;
		pn->cat[k] = n;
		if (n >= 1024 && n % 1024 == 0)
			snprintf(pn->catlabel[k], sizeof pn->catlabel[k], "%dk", n / 1024);
		else
			snprintf(pn->catlabel[k], sizeof pn->catlabel[k], "%d", n);
	}
	for (int s = 0; s < nser; s++) {
		struct figseries *se = &d->series[s];
		snprintf(se->key, sizeof se->key, "%s", names[s]);
		snprintf(se->label, sizeof se->label, "%s%s", s >= first_ref ? "attnprof " : "", names[s]);
		se->capture_look = look[s] >= 0 ? 1 + look[s] : 0;
		for (int k = 0; k < ns; k++) {
			const struct record *r = NULL;
			if (s < first_ref) {
				for (size_t i = 0; i < ni && !r; i++)
					if (!strcmp(all[i].variant, names[s]))
						for (size_t g = 0; g < all[i].ng; g++) {
							const struct record *x = all[i].g[g].rep;
							if (x->shape.pass == pass && x->shape.phase == PHASE_PREFILL && cmp_same(x, shape[k]))
								r = x;
						}
			} else
				r = capture_reference(rd, shape[k], names[s]);
			struct figpoint *q = figdesc_at(d, 0, (size_t)s, (size_t)k);
			q->v = q->lo = q->hi = q->model = NAN;
			if (!r || !usable(r->tflops) || !on_scale(r->tflops)) {
				missing += s >= first_ref;
				continue;
			}
			q->state = FP_VALUE;
			q->v = r->tflops;
			q->rec = r;
			/* the spread of the timed launches (captured calls time theirs too) */
			q->whisker = !value_spread(r, q->v, 1, &q->lo, &q->hi);
			se->drawn = 1;
			if (q->v > pn->hi)
				pn->hi = q->v;
			if (q->v < pn->lo)
				pn->lo = q->v;
		}
	}
	if (missing && !figdesc_item(d, "missing", "missing", NULL, missing,
				     "× at the foot of a slot: no reference record at that shape (%d)", missing))
		return -1;
	return 0;
}

int figdesc_capture_compare(const struct rdata *rd, const struct figopts *o, struct figdesc *d)
{
	size_t ni;
	struct capimpl *all = capture_impls(rd, &ni);
	int rc = capture_compare_of(rd, o, all, ni, d);
	capture_impls_free(all, ni);
	return rc;
}

int figdesc_build(const struct figkind *k, const struct rdata *rd, const struct figopts *o, struct figdesc *d)
{
	figdesc_init(d, k->name);
	if (!k->build)
		return 0;
	if (k->build(rd, o, d)) {
		figdesc_release(d);
		return -1;
	}
	return 1;
}

/* a field without the trace's separators */
static void put_field(FILE *f, const char *s)
{
	for (; *s; s++)
		fputc(*s == '\t' || *s == '\n' ? ' ' : *s, f);
}

static const char *const state_name[] = { "none", "value", "missing" };

static void trace_key_file(FILE *f, const struct rdata *rd, const struct record *rec)
{
	char k[256] = "-";
	if (rec)
		record_key(rec, k, sizeof k);
	fprintf(f, "%s\t%s\t-\n", k, rec ? rdata_record_file(rd, rec) : "-");
}

void figdesc_trace(const struct rdata *rd, const struct figdesc *d, int number)
{
	if (!rd->trace || !rd->trace->f)
		return;
	FILE *f = rd->trace->f;
	for (size_t p = 0; p < d->npanels; p++) {
		const struct figpanel *pn = &d->panel[p];
		for (size_t s = 0; s < d->nseries; s++)
			for (size_t i = 0; i < pn->ncat; i++) {
				const struct figpoint *q = figdesc_at(d, p, s, i);
				if (!q || q->state == FP_NONE)
					continue;
				const struct figseries *se = &d->series[s];
				const char *qn = pn->quantity[0] ? pn->quantity : se->key;
				fprintf(f, "figure\t%s#%d\t%zu/", d->kind, number, p);
				put_field(f, pn->quantity[0] ? se->key : se->label);
				fputc('/', f);
				if (pn->catlabel[i][0])
					put_field(f, pn->catlabel[i]);
				else
					fprintf(f, "%d", pn->cat[i]);
				fprintf(f, "\tquantity=%s arg=%s value=%.17g lo=%.17g hi=%.17g model=%.17g state=%s whisker=%s "
					"from=%s\t", qn, se->arg[0] ? se->arg : "-", q->v, q->lo, q->hi,
					q->has_model ? q->model : NAN, state_name[q->state],
					!q->whisker ? "-" : d->whisker_runs ? "runs" : "launches", d->one_run ? "one-run" : "newest");
				if (q->base) { /* a ratio of two records: both, as a claim names them */
					char k1[256], k2[256];
					record_key(q->rec, k1, sizeof k1);
					record_key(q->base, k2, sizeof k2);
					fprintf(f, "%s|%s\t%s|%s\t-\n", k1, k2, rdata_record_file(rd, q->rec),
						rdata_record_file(rd, q->base));
				} else
					trace_key_file(f, rd, q->rec);
			}
	}
	for (size_t i = 0; i < d->nmarks; i++) {
		const struct figmark *m = &d->mark[i];
		fprintf(f, "figure\t%s#%d\tmark/", d->kind, number);
		put_field(f, m->series < d->nseries ? d->series[m->series].key : "-");
		fprintf(f, "/%zu\tquantity=mark_tflops arg=- value=%.17g x_dram=%.17g x_l2=%.17g x_smem=%.17g longest=%d "
			"model_x=%d state=value\t", i, m->y, m->x[FD_DRAM], m->x[FD_L2], m->x[FD_SMEM], m->longest, m->model_x);
		trace_key_file(f, rd, m->rec);
	}
	for (size_t i = 0; i < d->nitems; i++) {
		const struct figitem *it = &d->item[i];
		char st[sizeof it->state + 1], k[256] = "-";
		snprintf(st, sizeof st, "%s", it->state[0] ? it->state : "-");
		for (char *s = st; *s; s++)
			*s = *s == ' ' ? '-' : *s;
		fprintf(f, "figure\t%s#%d\titem/", d->kind, number);
		put_field(f, it->role);
		fprintf(f, "/%zu\tquantity=%s arg=%s value=%.17g state=%s%s\t", i, it->name[0] ? it->name : "-", st, it->v,
			isnan(it->v) ? "text" : "value", d->one_run && it->rec ? " from=one-run" : "");
		if (it->rec)
			record_key(it->rec, k, sizeof k);
		fprintf(f, "%s\t%s\t", k, it->rec ? rdata_record_file(rd, it->rec) : "-");
		put_field(f, it->text[0] ? it->text : "-");
		fputc('\n', f);
	}
	for (size_t i = 0; i < d->nspans; i++) {
		const struct figspan *sp = &d->span[i];
		fprintf(f, "figure\t%s#%d\tspan/%d/%zu\tquantity=schedule_span arg=lane%d value=%.17g t0=%.17g t1=%.17g op=%d "
			"who=%d block=%d phase=%d wait=%d state=text\t-\t-\t", d->kind, number, sp->group, i, sp->lane,
			sp->t1 - sp->t0, sp->t0, sp->t1, sp->op, sp->who, sp->block, sp->phase, sp->wait);
		put_field(f, sp->label[0] ? sp->label : "-");
		fputc('\n', f);
	}
	for (size_t i = 0; i < d->nlinks; i++) {
		const struct figlink *lk = &d->link[i];
		fprintf(f, "figure\t%s#%d\tlink/%d/%zu\tquantity=schedule_link arg=%s value=%.17g from_lane=%d to_lane=%d "
			"state=text\t-\t-\t-\n", d->kind, number, lk->group, i, lk->turn ? "turn" : "wait-qk", lk->t,
			lk->from_lane, lk->to_lane);
	}
}
