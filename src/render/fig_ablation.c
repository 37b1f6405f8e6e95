/* fig_ablation.c: the ablation ladder flash1 -> +seqpar -> +splitq ->
 * +lazy rescale (= flash2), each step with the counter that evidences its
 * mechanism, and the run-to-run spread from repeat runs; also used by the
 * `ablation` table (tables.c) so figure, table and text agree. */
#include "render/figure.h"

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

size_t ablation_rungs(const struct rdata *rd, const struct rsel *s, struct rung *out, size_t max)
{
	static const unsigned ladder[] = { 0, FLASH_SEQPAR, FLASH_SEQPAR | FLASH_SPLITQ, FLASH_ALL };
	static const unsigned single[] = { FLASH_SPLITQ, FLASH_LAZY };
	size_t n = 0;
	const struct record *prev = NULL, *base = NULL;
	unsigned prev_sw = 0;
	for (size_t i = 0; i < 4 && n < max; i++) {
		const struct variant_desc *v = variant_flash(ladder[i]);
		const struct record *r = v ? rdata_find(rd, v->name, s) : NULL;
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
		const struct record *r = v ? rdata_find(rd, v->name, s) : NULL;
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

void fig_ablation_title(const struct rdata *rd, const struct figopts *o, char *buf, size_t len)
{
	struct rsel s;
	char d[120];
	ablation_sel(rd, o, &s);
	snprintf(buf, len, "Ablation ladder: flash1 to flash2 one switch at a time (%s)", rsel_describe(&s, d, sizeof(d)));
}

void fig_ablation(struct rctx *c, const struct rdata *rd, const struct figopts *o, struct rbox box)
{
	struct rsel s;
	ablation_sel(rd, o, &s);
	struct rung g[8];
	size_t n = ablation_rungs(rd, &s, g, 8);
	const struct record *recs[8];
	for (size_t i = 0; i < n; i++)
		recs[i] = g[i].r;
	char title[200], cond[512];
	fig_ablation_title(rd, o, title, sizeof(title));
	rdata_conditions(rd, recs, n, cond, sizeof(cond));
	int spread_any = 0;
	double vals[8], lo[8], hi[8], vmax = 0, base = NAN;
	for (size_t i = 0; i < n; i++) {
		enum qunit u;
		char why[160];
		double tmin, tmax;
		vals[i] = lo[i] = hi[i] = NAN;
		if (!rdata_quantity(rd, g[i].r, "tflops", NULL, &vals[i], &u, why, sizeof(why))) {
			vmax = fmax(vmax, vals[i]);
			if (rdata_runs(rd, g[i].r, &tmin, &tmax) > 1) {
				/* TFLOP/s of the slowest and fastest run */
				lo[i] = vals[i] * g[i].r->time_ms / tmax;
				hi[i] = vals[i] * g[i].r->time_ms / tmin;
				spread_any = 1;
			}
		} else {
			vals[i] = NAN;
		}
		if (g[i].v->switches == 0)
			base = vals[i];
	}
	if (spread_any)
		strncat(cond, " · whiskers: run-to-run spread over the repeat runs", sizeof(cond) - strlen(cond) - 1);
	box = figure_frame(c, box, title, cond, o->standalone);
	if (n < 2) {
		draw_notice(c, box, "no ablation ladder at these conditions",
			    "record experiments/ablation.yaml: it runs flash1, flash2 and the rungs between");
		return;
	}
	double fs = c->st->size_chart, small = fs * 0.85;
	/* columns: rung names | bars | evidence */
	double lw = 0;
	for (size_t i = 0; i < n; i++) {
		double w;
		text_extent(c, g[i].v->name, fs, TX_MONO, 0, &w, NULL);
		lw = fmax(lw, w);
	}
	struct rbox inner = box;
	rbox_cut_left(&inner, lw + sz(c, 8));
	struct rbox ev = inner;
	double evw = inner.w * 0.46;
	ev.x = inner.x + inner.w - evw;
	ev.w = evw;
	inner.w -= evw + sz(c, 6);
	struct panel pn;
	memset(&pn, 0, sizeof(pn));
	axis_linear(&pn.x, 0, vmax * 1.3, 4, 1);
	axis_linear(&pn.y, 0, 1, 1, 1);
	pn.y.nticks = 0;
	snprintf(pn.xlabel, sizeof(pn.xlabel), "TFLOP/s");
	panel_layout(c, &pn, inner);
	panel_draw(c, &pn);
	int nl = 0;
	for (size_t i = 0; i < n; i++)
		nl += g[i].ladder;
	/* a gap between the ladder and the single changes */
	double slots = (double)n + (nl < (int)n ? 0.5 : 0);
	double rh = pn.plot.h / slots;
	text_at(c, ev.x, pn.plot.y - sz(c, 2), "evidence for the step (before → after)", small, TX_BOLD, 0, 1, NULL);
	for (size_t i = 0; i < n; i++) {
		double y0 = pn.plot.y + ((double)i + (g[i].ladder ? 0 : 0.5)) * rh;
		double y = y0 + rh * 0.2, h = rh * 0.6;
		text_at(c, pn.plot.x - sz(c, 6), y + h / 2, g[i].v->name, fs, TX_MONO, 1, 0.5, NULL);
		if (i == (size_t)nl && nl < (int)n) {
			set_rgb(c, &c->st->muted);
			draw_line(c, pn.plot.x - lw - sz(c, 6), y0 - rh * 0.25, ev.x + ev.w, y0 - rh * 0.25, c->st->thin, 2);
			text_at(c, ev.x + ev.w, y0 - rh * 0.25 + sz(c, 1), "single changes applied to flash1", small,
				TX_ITALIC, 1, 0, &c->st->muted);
		}
		if (!isfinite(vals[i]))
			continue;
		const struct series_look *lk = style_series(c->st, g[i].v->switches == FLASH_ALL ? 2 : g[i].v->switches == 0 ? 1 : 4);
		double x1 = panel_x(&pn, vals[i]);
		fill_look(c, rbox_make(pn.plot.x, y, x1 - pn.plot.x, h), lk, c->st->thin);
		double xr = x1;
		if (isfinite(lo[i])) {
			double a = panel_x(&pn, lo[i]), b = panel_x(&pn, hi[i]);
			set_rgb(c, &c->st->ink);
			draw_line(c, a, y + h / 2, b, y + h / 2, c->st->thin, 0);
			draw_line(c, a, y + h * 0.25, a, y + h * 0.75, c->st->thin, 0);
			draw_line(c, b, y + h * 0.25, b, y + h * 0.75, c->st->thin, 0);
			xr = fmax(xr, b);
		}
		char lab[96];
		double prev_v = NAN;
		if (g[i].prev) {
			enum qunit u;
			char why[120];
			if (rdata_quantity(rd, g[i].prev, "tflops", NULL, &prev_v, &u, why, sizeof(why)))
				prev_v = NAN;
		}
		if (g[i].prev && isfinite(prev_v) && prev_v > 0)
			snprintf(lab, sizeof(lab), "%.0f (×%.2f)", vals[i], vals[i] / prev_v);
		else
			snprintf(lab, sizeof(lab), "%.0f", vals[i]);
		(void)base;
		text_at(c, xr + sz(c, 3), y + h / 2, lab, fs, 0, 0, 0.5, NULL);
		char part[64];
		snprintf(part, sizeof(part), "series:%s", g[i].v->name);
		draw_numeral(c, part, g[i].v->name, pn.plot.x + (x1 - pn.plot.x) * 0.5, y + h / 2,
			     pn.plot.x + (x1 - pn.plot.x) * 0.5, y - c->st->size_numeral * 0.2);
		char e1[300], e2[300];
		ablation_evidence(rd, &g[i], e1, sizeof(e1), e2, sizeof(e2));
		if (e1[0] || e2[0]) {
			char both[640];
			snprintf(both, sizeof(both), "%s%s%s", e1, e1[0] && e2[0] ? "\n" : "", e2);
			double th;
			text_extent(c, both, small, 0, ev.w, NULL, &th);
			double tsz = small;
			if (th > rh * 0.95) { /* shrink rather than overlap the next row */
				tsz = small * rh * 0.95 / th;
				text_extent(c, both, tsz, 0, ev.w, NULL, &th);
			}
			text_block(c, ev.x, y + h / 2 - th / 2, ev.w, both, tsz, 0, NULL);
		}
	}
}
