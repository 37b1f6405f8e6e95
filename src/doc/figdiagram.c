/* figdiagram.c: the builders of the diagram kinds (figdesc.h) — the
 * records a diagram draws and every number, label and notice it prints,
 * as parts (figdesc_item) the renderer only places. */
#include "doc/figdesc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture/verdict.h"
#include "doc/capreview.h"
#include "doc/kernel_name.h"
#include "doc/wsched.h"
#include "causal_tiles.h"
#include "loop_steps.h"
#include "online_softmax.h"
#include "metric_sets.h"

void capture_conditions(const struct rdata *rd, const struct record *const *recs, size_t n, char *buf, size_t len)
{
	const struct record *known[16];
	size_t k = 0;
	for (size_t i = 0; i < n && k < 16; i++)
		if (!recs[i]->capture || recs[i]->capture->shape_known)
			known[k++] = recs[i];
	if (k)
		rdata_conditions(rd, known, k, buf, len);
	else
		snprintf(buf, len, "%s · shape unknown (no shape came with the calls)",
			 rd->res->header.gpu.name ? rd->res->header.gpu.name : "GPU");
}

/* ---- capture-dataflow ------------------------------------------------------ */

/* A row of the HBM column: the buffer, its size formula and bytes, and
 * its state (a verdict of rec->verdict_matrices for the N×N matrices). */
static int cap_hbm_row(struct figdesc *d, const struct record *r, int shape, const char *name, const char *formula,
		       double bytes, const char *state)
{
	char b1[32];
	const int absent = !strcmp(state, "not stored");
	const char *what = !shape ? "size unknown"
			 : !strcmp(state, "input") ? "input"
			 : !strcmp(state, "output") ? "output, written once"
			 : !strcmp(state, "small") ? "not told apart by traffic"
			 : !strcmp(state, "stored") ? "STORED"
			 : absent ? "not stored" : "verdict unknown";
	struct figitem *it = shape ? figdesc_item(d, "hbm", name, r, bytes, "%s  %s · %s · %s", name, formula,
						  fmt_bytes(bytes, b1, sizeof(b1)), what)
				   : figdesc_item(d, "hbm", name, r, NAN, "%s  %s · %s", name, formula, what);
	if (!it)
		return -1;
	snprintf(it->state, sizeof it->state, "%s", state);
	return 0;
}

/* The records a description draws (d->used), copied: -1 when out of memory. */
static int use_recs(struct figdesc *d, const struct record *const *recs, size_t n)
{
	d->used = n ? malloc(n * sizeof(*d->used)) : NULL;
	if (n && !d->used)
		return -1;
	for (size_t i = 0; i < n; i++)
		d->used[i] = recs[i];
	d->nused = d->capused = n;
	return 0;
}

/* The captured call group a capture figure draws (capture_figure_group), or
 * NULL with the figure's notice set: there is none. */
static const struct capgroup *captured_group(const struct rdata *rd, const struct figopts *o, struct figdesc *d,
					     const struct capimpl **im_out)
{
	const struct capimpl *im = *im_out = capture_figure_impl(rd, o);
	const struct capgroup *g = im ? capture_figure_group(rd, im, o) : NULL;
	if (!g) {
		snprintf(d->notice, sizeof d->notice, "no captured call");
		snprintf(d->notice_why, sizeof d->notice_why, "record one with 'attnprof record -o FILE -- CMD'");
	}
	return g;
}

/* The captured call's HBM column (Q, K, V, S/P or dS/dP, O or dQ, L), its
 * on-chip column (longest kernel, what happened to S and P, the matrices
 * the verdict counted, the family), the DRAM and L2 traffic between them
 * and the rule that decided, all of one record: the last call of the
 * group capture_figure_group picks. */
int figdesc_capdataflow(const struct rdata *rd, const struct figopts *o, struct figdesc *d)
{
	const struct capimpl *im;
	const struct capgroup *g = captured_group(rd, o, d, &im);
	if (!g)
		return 0;
	const struct record *r = g->rep;
	capture_conditions(rd, &r, 1, d->cond, sizeof d->cond);
	if (use_recs(d, &r, 1))
		return -1;
	const int bwd = r->shape.pass == PASS_BWD;
	const int shape = !r->capture || r->capture->shape_known;
	const double e = (double)dtype_size(r->shape.dtype);
	const double bh = (double)r->shape.batch * r->shape.heads, bhkv = (double)r->shape.batch * r->shape.kv_heads;
	/* one Nq × Nkv matrix at the element size the verdict counts (fp32
	 * where the family's GEMMs write fp32: verdict_matrix_elem_bytes) */
	const int ne = verdict_matrix_elem_bytes(r);
	const double nn = verdict_nn_bytes(r);
	const double qo = bh * r->shape.seqlen_q * r->shape.head_dim * e, kv = bhkv * r->shape.seqlen_kv * r->shape.head_dim * e;
	const char *s = bwd ? "dS" : "S", *p = bwd ? "dP" : "P";
	const char *vs = record_verdict_of(r, s), *vp = record_verdict_of(r, p);
	if (!figdesc_item(d, "header", "calls", r, g->ncalls, "%s · %s · the last of %d call%s of this shape · %zu kernel%s",
			  capture_impl_name(im), capture_call_kind(r), g->ncalls, g->ncalls == 1 ? "" : "s", r->nlaunches,
			  r->nlaunches == 1 ? "" : "s") ||
	    cap_hbm_row(d, r, shape, "Q", "B·H·Nq·d", qo, "input") ||
	    cap_hbm_row(d, r, shape, "K", "B·Hkv·Nkv·d", kv, "input") ||
	    cap_hbm_row(d, r, shape, "V", "B·Hkv·Nkv·d", kv, "input") ||
	    cap_hbm_row(d, r, shape, s, "B·H·Nq·Nkv", nn, vs) || cap_hbm_row(d, r, shape, p, "B·H·Nq·Nkv", nn, vp) ||
	    cap_hbm_row(d, r, shape, bwd ? "dQ" : "O", "B·H·Nq·d", qo, "output") ||
	    cap_hbm_row(d, r, shape, "L", "B·H·Nq", bh * r->shape.seqlen_q * 4, "small"))
		return -1;
	/* the on-chip column */
	const struct launch *ml = capture_main_launch(r);
	char ks[160];
	kernel_short_name(ml && ml->name ? ml->name : "?", ks, sizeof(ks));
	if (!figdesc_item(d, "chip-kernel", "kernel", r, NAN, "%s", ks))
		return -1;
	if (shape && strcmp(vs, "stored") && strcmp(vs, "unknown")) {
		if (!figdesc_item(d, "chip", "verdict", r, NAN, "%s and %s: computed and used on chip, never written whole", s, p))
			return -1;
	} else if (shape && !strcmp(vs, "stored")) {
		if (!figdesc_item(d, "chip", "verdict", r, NAN, "%s written to memory and read back between kernels",
				  vp[0] == 's' ? "S and P" : s))
			return -1;
	}
	/* the count the stored/not-stored rows above come from (the record's resolved verdict) */
	if (r->verdict_matrices >= 0 &&
	    !figdesc_item(d, "chip", "verdict_matrices", r, r->verdict_matrices,
			  "kernels writing ≥ 0.9 × one Nq × Nkv matrix: %d", r->verdict_matrices))
		return -1;
	if (r->capture && r->capture->family &&
	    !figdesc_item(d, "chip", "family", r, NAN, "family (from kernel names): %s", r->capture->family))
		return -1;
	/* the traffic between the columns */
	char b1[32];
	const double dram_w = record_metric_or_nan(r, "dram__bytes_write.sum"), dram_r = record_metric_or_nan(r, "dram__bytes_read.sum");
	const double l2w = r->capture ? r->capture->l2_write_bytes : -1;
	if (!figdesc_item(d, "read", "dram_read_bytes", r, usable(dram_r + 1) ? dram_r : NAN, "read %s",
			  usable(dram_r + 1) ? fmt_bytes(dram_r, b1, sizeof(b1)) : "n/a") ||
	    !figdesc_item(d, "write", "dram_write_bytes", r, usable(dram_w + 1) ? dram_w : NAN, "write %s",
			  usable(dram_w + 1) ? fmt_bytes(dram_w, b1, sizeof(b1)) : "n/a"))
		return -1;
	if (l2w >= 0 && !figdesc_item(d, "l2", "l2_write_bytes", r, l2w, "%s via L2", fmt_bytes(l2w, b1, sizeof(b1))))
		return -1;
	/* the rule, at the bottom */
	struct figitem *it;
	if (shape)
		it = figdesc_item(d, "rule", "stored_bytes", r, 0.9 * nn,
				  "Rule: a matrix is stored when one kernel wrote at least 0.9 × B·H·Nq·Nkv·%d = %s "
				  "(one Nq × Nkv matrix at %d bytes an element); decided by %s.", ne, fmt_bytes(0.9 * nn, b1, sizeof(b1)),
				  ne, capture_rule_text(r->verdict_rule));
	else
		it = figdesc_item(d, "rule", "rule", r, NAN, "Rule: not applied — the call's shape is unknown (%s).",
				  r->capture && r->capture->problem ? r->capture->problem
				  : r->capture && r->capture->origin && !strcmp(r->capture->origin, "family-scan")
					  ? "found by kernel family, no shape given" : "no shape given");
	if (!it)
		return -1;
	capture_breakable(it->text, sizeof it->text);
	return 0;
}

/* ---- dataflow, dataflow-compare -------------------------------------------- */

static const char *tile_dim(enum tile_dim t)
{
	switch (t) {
	case TD_BR: return "Br";
	case TD_BC: return "Bc";
	case TD_D: return "d";
	default: return "1";
	}
}
static int tile_val(enum tile_dim t, const struct tiling *tl, int hd)
{
	switch (t) {
	case TD_BR: return tl->block_m;
	case TD_BC: return tl->block_n;
	case TD_D: return hd;
	default: return 1;
	}
}

/* The shape and record a data-flow figure shows for series key: its
 * record at the figure's conditions, else any of the variant's, else the
 * typical shape (NULL record). */
static const struct record *shape_for(const struct rdata *rd, const struct figopts *o, const char *key,
				      struct attn_shape *s)
{
	struct rsel sel;
	fig_sel(rd, o, &sel);
	const struct record *r = rdata_find(rd, key, &sel);
	if (!r) {
		struct rsel any;
		rsel_any(&any);
		any.phase = sel.phase;
		r = rdata_find(rd, key, &any);
	}
	if (r) {
		*s = r->shape;
		return r;
	}
	*s = fig_typical_shape(&sel, 4);
	return NULL;
}

/* The descriptor drawn for series key: the variant's, or its backward's
 * when the figure asks for pass bwd or fwd+bwd (NULL when it has none). */
static const struct variant_desc *pass_desc(const char *key, const struct figopts *o)
{
	return variant_pass_desc(variant_find(key), rsel_pass(&o->sel));
}

/* Bytes of the matrices v does not store, at shape s. */
static double absent_bytes(const struct variant_desc *v, const struct attn_shape *s)
{
	double sum = 0;
	for (size_t i = 0; i < attn_matrix_count; i++) {
		const struct matrix_desc *m = &attn_matrices[i];
		if (m->role == ROLE_MATRIX && !variant_stores(v, m->name))
			sum += (double)(dims_elements(m->dims, s, NULL) * (m->elem == ELEM_F32 ? 4 : dtype_size(s->dtype)));
	}
	return sum;
}

/* The HBM column: the story's matrices, then the variant's other buffers. */
static int flow_hbm(struct figdesc *d, const struct variant_desc *v, const struct record *r, const struct attn_shape *s,
		    const struct tiling *t)
{
	const char *names[MAX_BUFFERS + 12];
	int present[MAX_BUFFERS + 12];
	size_t nrows = 0;
	for (size_t i = 0; i < attn_matrix_count; i++) {
		names[nrows] = attn_matrices[i].name;
		present[nrows++] = variant_stores(v, attn_matrices[i].name);
	}
	for (size_t i = 0; i < v->nbuffers; i++) {
		size_t j;
		for (j = 0; j < attn_matrix_count && strcmp(attn_matrices[j].name, v->buffers[i].name); j++)
			;
		if (j == attn_matrix_count) {
			names[nrows] = v->buffers[i].name;
			present[nrows++] = 1;
		}
	}
	for (size_t i = 0; i < nrows; i++) {
		const struct buffer_desc *bd = NULL;
		const struct matrix_desc *md = NULL;
		for (size_t k = 0; k < v->nbuffers; k++)
			if (!strcmp(v->buffers[k].name, names[i]))
				bd = &v->buffers[k];
		for (size_t k = 0; k < attn_matrix_count; k++)
			if (!strcmp(attn_matrices[k].name, names[i]))
				md = &attn_matrices[k];
		const char *label = bd ? bd->label : md->label;
		const enum dim_sym *dims = bd ? bd->dims : md->dims;
		int f32 = bd ? bd->elem == ELEM_F32 : md->elem == ELEM_F32;
		double bytes = (double)dims_elements(dims, s, t) * (f32 ? 4 : dtype_size(s->dtype));
		char f[64], b1[32], b2[32];
		dims_formula(dims, f, sizeof(f));
		fmt_bytes(bytes, b1, sizeof(b1));
		const double *alloc = r && present[i] ? kvlist_get(&r->allocs, names[i]) : NULL;
		struct figitem *it;
		if (present[i] && alloc && usable(*alloc))
			it = figdesc_item(d, "hbm", names[i], NULL, bytes, "%s · %s%s · allocated %s", f, b1, f32 ? " fp32" : "",
					  fmt_bytes(*alloc, b2, sizeof(b2)));
		else if (present[i])
			it = figdesc_item(d, "hbm", names[i], NULL, bytes, "%s · %s%s", f, b1, f32 ? " fp32" : "");
		else {
			const struct tile_desc *td = NULL;
			for (size_t k = 0; k < v->ntiles; k++)
				if (v->tiles[k].stands_for && !strcmp(v->tiles[k].stands_for, names[i]))
					td = &v->tiles[k];
			if (td)
				it = figdesc_item(d, "hbm", names[i], NULL, bytes,
						  "not stored in HBM: lives in on-chip tiles %s of %s×%s = %d×%d (would be %s)",
						  td->name, tile_dim(td->rows), tile_dim(td->cols), tile_val(td->rows, t, s->head_dim),
						  tile_val(td->cols, t, s->head_dim), b1);
			else
				it = figdesc_item(d, "hbm", names[i], NULL, bytes, "not stored in HBM (%s would be %s)", f, b1);
		}
		if (!it)
			return -1;
		snprintf(it->state, sizeof it->state, "%s", present[i] ? "stored" : "not stored");
		snprintf(it->label, sizeof it->label, "%s", label);
		if (present[i]) {
			snprintf(it->alt[0], sizeof it->alt[0], "%s · %s%s", f, b1, f32 ? " fp32" : "");
			snprintf(it->alt[1], sizeof it->alt[1], "%s%s", b1, f32 ? " fp32" : "");
		} else {
			snprintf(it->alt[0], sizeof it->alt[0], "not stored (would be %s)", b1);
			snprintf(it->alt[1], sizeof it->alt[1], "not stored");
		}
		snprintf(it->what, sizeof it->what, present[i] ? "%s buffer in HBM" : "%s, not stored in HBM", label);
		if (alloc && usable(*alloc) && !figdesc_item(d, "alloc", names[i], r, *alloc, "%s", ""))
			return -1;
	}
	return 0;
}

/* The on-chip column: the library kernels' steps, or the variant's tiles. */
static int flow_chip(struct figdesc *d, const struct variant_desc *v, const struct attn_shape *s, const struct tiling *t)
{
	if (!v->ntiles) {
		for (size_t k = 0; k < v->nkernels; k++) {
			struct figitem *it = figdesc_item(d, "kernel", v->kernels[k].name, NULL, NAN, "%zu. %s: %s", k + 1,
							  v->kernels[k].name, v->kernels[k].does);
			if (!it)
				return -1;
			snprintf(it->alt[0], sizeof it->alt[0], "%zu. %s", k + 1, v->kernels[k].name);
		}
		return 0;
	}
	for (int place = 0; place < 2; place++)
		for (size_t k = 0; k < v->ntiles; k++) {
			const struct tile_desc *td = &v->tiles[k];
			if ((td->where == IN_REGISTERS) != place)
				continue;
			int rws = tile_val(td->rows, t, s->head_dim), cls = tile_val(td->cols, t, s->head_dim);
			double tbytes = (double)rws * cls * (td->elem == ELEM_F32 ? 4 : dtype_size(s->dtype));
			char b1[32];
			struct figitem *it = td->stands_for
				? figdesc_item(d, "tile", td->name, NULL, tbytes, "%s  %s×%s = %d×%d · stands for %s", td->name,
					       tile_dim(td->rows), tile_dim(td->cols), rws, cls, td->stands_for)
				: figdesc_item(d, "tile", td->name, NULL, tbytes, "%s  %s×%s = %d×%d · %s", td->name,
					       tile_dim(td->rows), tile_dim(td->cols), rws, cls, fmt_bytes(tbytes, b1, sizeof(b1)));
			if (!it)
				return -1;
			snprintf(it->state, sizeof it->state, "%s", place ? "registers" : "shared");
			snprintf(it->alt[0], sizeof it->alt[0], "%s  %d×%d", td->name, rws, cls);
			snprintf(it->alt[1], sizeof it->alt[1], "%s", td->name);
			snprintf(it->what, sizeof it->what, "tile %s: %s", td->name, td->holds);
		}
	return 0;
}

/* The traffic: the record's DRAM bytes read and written, the no-cache
 * model's bytes, and per kernel where there are several. */
static int flow_traffic(struct figdesc *d, const struct variant_desc *v, const struct record *r)
{
	char b1[32], b2[32];
	double rd_b = r ? record_metric_or_nan(r, M_DRAM_READ) : NAN;
	double wr_b = r ? record_metric_or_nan(r, M_DRAM_WRITE) : NAN;
	const double *model = r ? kvlist_get(&r->model, "hbm_bytes_min") : NULL;
	if (!(isfinite(rd_b) ? figdesc_item(d, "read", "dram_read_bytes", r, rd_b, "read %s", fmt_bytes(rd_b, b1, sizeof(b1)))
			     : figdesc_item(d, "read", "dram_read_bytes", NULL, NAN, "read: not measured")) ||
	    !(isfinite(wr_b) ? figdesc_item(d, "write", "dram_write_bytes", r, wr_b, "write %s", fmt_bytes(wr_b, b1, sizeof(b1)))
			     : figdesc_item(d, "write", "dram_write_bytes", NULL, NAN, "write: not measured")))
		return -1;
	if (model && usable(*model) &&
	    !figdesc_item(d, "model", "model_hbm_bytes", r, *model, "no-cache model %s", fmt_bytes(*model, b1, sizeof(b1))))
		return -1;
	/* every launch (the first 4 were listed: standard's backward lost dq_gemm, its fifth) */
	if (r && r->nlaunches > 1)
		for (size_t k = 0; k < r->nlaunches; k++) {
			const struct launch *l = &r->launches[k];
			const double *a = kvlist_get(&l->metrics, M_DRAM_READ), *b = kvlist_get(&l->metrics, M_DRAM_WRITE);
			const char *nm = k < v->nkernels ? v->kernels[k].name : l->name;
			if (a && b) {
				if (!figdesc_item(d, "launch", "launch_dram_read", r, *a, "%s: r %s, w %s", nm,
						  fmt_bytes(*a, b1, sizeof(b1)), fmt_bytes(*b, b2, sizeof(b2))) ||
				    !figdesc_item(d, "launch-write", "launch_dram_write", r, *b, "%s", ""))
					return -1;
			} else if (!figdesc_item(d, "launch", "launch", NULL, NAN, "%s", nm))
				return -1;
		}
	if (!r && !figdesc_item(d, "norecord", "norecord", NULL, NAN, "no record at these conditions: sizes from the descriptor"))
		return -1;
	return 0;
}

/* One variant's data flow as group g. */
static int flow_one(struct figdesc *d, int g, const struct rdata *rd, const struct variant_desc *v,
		    const struct record *r, const struct attn_shape *s)
{
	struct tiling t;
	v->tiling(s, rdata_sm_count(rd), &t);
	d->group = g;
	int rc = !figdesc_item(d, "name", "variant", NULL, NAN, "%s", v->name) ||
		 !figdesc_item(d, "summary", "summary", NULL, NAN, "%s", v->summary) || flow_hbm(d, v, r, s, &t) ||
		 flow_chip(d, v, s, &t) || flow_traffic(d, v, r);
	d->group = 0;
	return rc ? -1 : 0;
}

int figdesc_dataflow(const struct rdata *rd, const struct figopts *o, struct figdesc *d)
{
	char key[SERIES_KEY], buf[512], b1[32], b2[32];
	fig_series(rd, o->variant, variant_role(DOC_SUBJECT), key);
	const struct variant_desc *v = pass_desc(key, o);
	struct attn_shape s;
	const struct record *r = shape_for(rd, o, key, &s);
	if (use_recs(d, &r, r ? 1 : 0))
		return -1;
	if (!v) {
		snprintf(d->notice, sizeof d->notice, "no data-flow picture");
		snprintf(d->notice_why, sizeof d->notice_why,
			 "'%s' has no descriptor in kernels/variants.c: reference series are drawn in charts only", key);
		return 0;
	}
	const int sm = rdata_sm_count(rd);
	const double saved = absent_bytes(v, &s), fp = (double)variant_footprint(v, &s, sm);
	if (saved > 0)
		snprintf(buf, sizeof(buf), "Not storing the N×N matrices saves %s of HBM at N=%d (B=%d, H=%d, %s): footprint %s.",
			 fmt_bytes(saved, b1, sizeof(b1)), s.seqlen_kv, s.batch, s.heads, dtype_name(s.dtype),
			 fmt_bytes(fp, b2, sizeof(b2)));
	else
		snprintf(buf, sizeof(buf), "Stores every N×N matrix in HBM: footprint %s at N=%d (B=%d, H=%d, %s).",
			 fmt_bytes(fp, b1, sizeof(b1)), s.seqlen_kv, s.batch, s.heads, dtype_name(s.dtype));
	if (r && r->peak_bytes) {
		size_t l = strlen(buf);
		snprintf(buf + l, sizeof(buf) - l, " Measured peak %s.", fmt_bytes((double)r->peak_bytes, b1, sizeof(b1)));
	}
	if (!figdesc_item(d, "footer", "footer", NULL, NAN, "%s", buf) ||
	    !figdesc_item(d, "saved", "absent_bytes", NULL, saved, "%s", "") ||
	    !figdesc_item(d, "footprint", "footprint", NULL, fp, "%s", "") ||
	    (r && r->peak_bytes && !figdesc_item(d, "run_peak_bytes", "run_peak_bytes", r, (double)r->peak_bytes, "%s", "")))
		return -1;
	return flow_one(d, 0, rd, v, r, &s);
}

int figdesc_dataflow_compare(const struct rdata *rd, const struct figopts *o, struct figdesc *d)
{
	char a[SERIES_KEY], b[SERIES_KEY], buf[600], b1[32], b2[32], b3[32];
	fig_pair(rd, o, DOC_CONVENTIONAL, a, b);
	const struct variant_desc *va = pass_desc(a, o), *vb = pass_desc(b, o);
	struct attn_shape sa, sb;
	const struct record *ra = shape_for(rd, o, a, &sa), *rb = shape_for(rd, o, b, &sb);
	const struct record *both[2] = { ra, rb };
	size_t nboth = 0;
	if (ra) both[nboth++] = ra;
	if (rb) both[nboth++] = rb;
	if (use_recs(d, both, nboth))
		return -1;
	if (!va || !vb) {
		snprintf(d->notice, sizeof d->notice, "no data-flow picture");
		snprintf(d->notice_why, sizeof d->notice_why, "'%s' has no descriptor in kernels/variants.c", va ? b : a);
		return 0;
	}
	const int sm = rdata_sm_count(rd);
	const double fa = (double)variant_footprint(va, &sb, sm), fb = (double)variant_footprint(vb, &sb, sm);
	snprintf(buf, sizeof(buf), "At N=%d (B=%d, H=%d, d=%d, %s) %s keeps %s in HBM and %s keeps %s: %s %s.",
		 sb.seqlen_kv, sb.batch, sb.heads, sb.head_dim, dtype_name(sb.dtype), a, fmt_bytes(fa, b1, sizeof(b1)),
		 b, fmt_bytes(fb, b2, sizeof(b2)), fa >= fb ? "saved" : "extra", fmt_bytes(fabs(fa - fb), b3, sizeof(b3)));
	const int peaks = ra && rb && ra->peak_bytes && rb->peak_bytes;
	if (peaks) {
		size_t l = strlen(buf);
		snprintf(buf + l, sizeof(buf) - l, " Measured peaks: %s against %s.",
			 fmt_bytes((double)ra->peak_bytes, b1, sizeof(b1)), fmt_bytes((double)rb->peak_bytes, b2, sizeof(b2)));
	}
	if (!figdesc_item(d, "footer", "footer", NULL, NAN, "%s", buf) ||
	    !figdesc_item(d, "footprint", "footprint", NULL, fa, "%s", "") ||
	    !figdesc_item(d, "footprint", "footprint", NULL, fb, "%s", "") ||
	    (peaks && (!figdesc_item(d, "run_peak_bytes", "run_peak_bytes", ra, (double)ra->peak_bytes, "%s", "") ||
		       !figdesc_item(d, "run_peak_bytes", "run_peak_bytes", rb, (double)rb->peak_bytes, "%s", ""))))
		return -1;
	return flow_one(d, 0, rd, va, ra, &sa) || flow_one(d, 1, rd, vb, rb, &sb) ? -1 : 0;
}

/* ---- partition-bwd ----------------------------------------------------------- */

/* Rows of one operand a warp of flash_bwd.cu's layouts owns. */
#define BWD_WARP_ROWS 32

static int size_part(struct figdesc *d, const char *name, double v)
{
	return figdesc_item(d, "size", name, NULL, v, "%s", "") ? 0 : -1;
}

int figdesc_partition_bwd(const struct rdata *rd, const struct figopts *o, struct figdesc *d)
{
	char key[SERIES_KEY];
	fig_series(rd, o->variant, variant_role(DOC_SUBJECT), key);
	const struct variant_desc *v = variant_pass_desc(variant_find(key), PASS_BWD);
	struct tiling t = { 0 };
	const struct record *r = NULL;
	struct attn_shape s = { 0 };
	int grid[3] = { 1, 1, 1 }, measured = 0;
	if (v && v->loop == LOOP_KV_OUTER && v->tiling && v->grid) {
		struct figopts ob = *o;
		ob.sel.pass = PASS_BWD;
		struct rsel sel;
		fig_sel(rd, &ob, &sel);
		r = rdata_find(rd, key, &sel);
		s = r ? r->shape : fig_typical_shape(&sel, 4);
		v->tiling(&s, rdata_sm_count(rd), &t);
		v->grid(&s, &t, v->main_kernel, grid);
		const struct launch *l = r ? record_main_launch(r) : NULL;
		if (l && l->grid[0] > 0) {
			memcpy(grid, l->grid, sizeof(grid));
			measured = 1;
		}
	}
	if (!(t.block_m > 0 && t.block_n > 0 && t.warps > 0)) {
		snprintf(d->notice, sizeof d->notice, "no K/V-parallel backward");
		snprintf(d->notice_why, sizeof d->notice_why, "the variant's backward descriptor walks no K/V blocks");
		return 0;
	}
	if (use_recs(d, &r, r ? 1 : 0))
		return -1;
	const int Br = t.block_m, Bc = t.block_n, W = t.warps, hd = s.head_dim;
	const long qblocks = (s.seqlen_q + Br - 1) / Br;
	if (!figdesc_item(d, "grid", "thread_blocks", measured ? r : NULL, (double)grid[0] * grid[1],
			  "grid %d × %d = %lld thread blocks%s: blockIdx.x a K/V block j of Bc = %d keys, "
			  "blockIdx.y a (batch, KV head); each walks the %ld query blocks i of Br = %d rows of its %d query head%s%s",
			  grid[0], grid[1], (long long)grid[0] * grid[1], measured ? " (launched)" : "", Bc, qblocks, Br,
			  s.kv_heads > 0 ? s.heads / s.kv_heads : 1, s.kv_heads > 0 && s.heads / s.kv_heads > 1 ? "s" : "",
			  s.causal ? " (causal: on or below the diagonal)" : "") ||
	    size_part(d, "grid_x", grid[0]) || size_part(d, "Br", Br) || size_part(d, "Bc", Bc) || size_part(d, "d", hd))
		return -1;
	/* the warp tiles of the five products: S, dP over Br × Bc; dK, dV over Bc × d; dQ over Br × d */
	int sr = Br / BWD_WARP_ROWS, sc = W / (sr > 0 ? sr : 1);
	int kr = Bc / BWD_WARP_ROWS, kc = W / (kr > 0 ? kr : 1);
	if (sr < 1 || sc < 1 || kr < 1 || kc < 1 || sr * sc != W || kr * kc != W)
		return figdesc_item(d, "nolayout", "nolayout", NULL, NAN, "the tiles do not split into 32-row warp slices") ? 0 : -1;
	if (size_part(d, "sr", sr) || size_part(d, "sc", sc) || size_part(d, "kr", kr) || size_part(d, "kc", kc) ||
	    !figdesc_item(d, "sub", "S", NULL, NAN, "%d × %d, %d × %d warp tiles", Br, Bc, sr, sc) ||
	    !figdesc_item(d, "sub", "dKV", NULL, NAN, "%d × %d each, registers, whole walk", Bc, hd) ||
	    !figdesc_item(d, "sub", "dQ", NULL, NAN, "%d × %d fp32, %d × %d warp tiles", Br, hd, sr, sc))
		return -1;
	/* dQ leaves the block: into the accumulator every K/V block adds to */
	const struct buffer_desc *acc = NULL;
	for (size_t i = 0; i < v->nbuffers; i++)
		if (v->buffers[i].role == ROLE_WORKSPACE)
			acc = &v->buffers[i];
	if (acc && !figdesc_item(d, "acc", acc->name, NULL, NAN, "<b>%s</b> in HBM: %s", acc->label, acc->meaning))
		return -1;
	/* the pass's kernels in launch order, the main one marked */
	for (size_t k = 0; k < v->nkernels; k++) {
		struct figitem *it = figdesc_item(d, "kernel", v->kernels[k].name, NULL, NAN, "<b>%s</b>\n%s", v->kernels[k].name,
						  v->kernels[k].does);
		if (!it)
			return -1;
		if ((int)k == v->main_kernel)
			snprintf(it->state, sizeof it->state, "main");
	}
	return 0;
}

/* ---- hierarchy ------------------------------------------------------------------ */

int figdesc_hierarchy(const struct rdata *rd, const struct figopts *o, struct figdesc *d)
{
	(void)o;
	const struct gpu_info *g = &rd->res->header.gpu;
	char b1[48], b2[48];
	snprintf(d->cond, sizeof(d->cond), "%s%s%d SMs · sizes: the device's properties; bandwidths measured in the run "
		 "(HBM: a device-to-device copy, read + write; L2 and shared memory: loads, kernels/ceilings.cu)",
		 g->name ? g->name : "", g->name ? " · " : "", g->hw.sm_count);
	if (!g->hw.hbm_bytes && !g->hw.l2_bytes) {
		snprintf(d->notice, sizeof d->notice, "no memory hierarchy");
		snprintf(d->notice_why, sizeof d->notice_why, "the results header names no GPU sizes (header.gpu)");
		return 0;
	}
	/* a bandwidth is "not measured" unless the run measured it */
	char size[3][160], bw[3][160];
	for (int i = 0; i < 3; i++)
		snprintf(bw[i], sizeof(bw[i]), "bandwidth not measured");
	if (g->hw.smem_per_sm && g->hw.sm_count > 0) {
		fmt_quantity((double)g->hw.smem_per_sm, U_BYTES, NULL, b1, sizeof(b1));
		fmt_quantity((double)g->hw.smem_per_sm * g->hw.sm_count, U_BYTES, NULL, b2, sizeof(b2));
		snprintf(size[0], sizeof(size[0]), "%s on each SM, %s on %d SMs", b1, b2, g->hw.sm_count);
	} else
		snprintf(size[0], sizeof(size[0]), "size not measured (not in this file's header)");
	if (g->ceil.smem_gbs > 0)
		snprintf(bw[0], sizeof(bw[0]), "%.0f GB/s, all SMs' loads", g->ceil.smem_gbs);
	fmt_quantity((double)g->hw.l2_bytes, U_BYTES, NULL, b1, sizeof(b1));
	snprintf(size[1], sizeof(size[1]), "%s, shared by all SMs", g->hw.l2_bytes ? b1 : "size not measured");
	if (g->ceil.l2_gbs > 0)
		snprintf(bw[1], sizeof(bw[1]), "%.0f GB/s, reads of a resident buffer", g->ceil.l2_gbs);
	fmt_quantity((double)g->hw.hbm_bytes, U_BYTES, NULL, b1, sizeof(b1));
	snprintf(size[2], sizeof(size[2]), "%s", g->hw.hbm_bytes ? b1 : "size not measured");
	if (g->copy_gbs > 0 && g->peak_hbm_gbs > 0)
		snprintf(bw[2], sizeof(bw[2]), "%.0f GB/s copy (data sheet %.0f GB/s)", g->copy_gbs, g->peak_hbm_gbs);
	else if (g->copy_gbs > 0)
		snprintf(bw[2], sizeof(bw[2]), "%.0f GB/s copy", g->copy_gbs);
	static const char *const names[3] = { "Shared memory (SRAM)", "L2 cache", "HBM (device memory)" };
	static const char *const tags[3] = { "SRAM", "L2", "HBM" };
	const double sizes[3] = { (double)g->hw.smem_per_sm * g->hw.sm_count, (double)g->hw.l2_bytes, (double)g->hw.hbm_bytes };
	const double bws[3] = { g->ceil.smem_gbs, g->ceil.l2_gbs, g->copy_gbs };
	static const char *const qs[3][2] = { { "smem_bytes", "smem_gbs" }, { "l2_bytes", "l2_gbs" }, { "hbm_bytes", "copy_gbs" } };
	for (int i = 0; i < 3; i++) {
		struct figitem *it = figdesc_item(d, "level", tags[i], NULL, NAN, "%s\n%s", size[i], bw[i]);
		if (!it)
			return -1;
		snprintf(it->label, sizeof it->label, "%s", names[i]);
		snprintf(it->state, sizeof it->state, "%s", tags[i]);
		if ((sizes[i] > 0 && !figdesc_item(d, "level-size", qs[i][0], NULL, sizes[i], "%s", "")) ||
		    (bws[i] > 0 && !figdesc_item(d, "level-bandwidth", qs[i][1], NULL, bws[i], "%s", "")))
			return -1;
	}
	/* the ratio that motivates tiling, when both ends were measured */
	if (g->ceil.smem_gbs > 0 && g->copy_gbs > 0 && g->hw.smem_per_sm && g->hw.hbm_bytes &&
	    !figdesc_item(d, "ratio", "smem_over_hbm_bandwidth", NULL, g->ceil.smem_gbs / g->copy_gbs,
			  "shared memory: %.1f× the bandwidth of HBM, 1/%.0f of its size", g->ceil.smem_gbs / g->copy_gbs,
			  (double)g->hw.hbm_bytes / ((double)g->hw.smem_per_sm * g->hw.sm_count)))
		return -1;
	return 0;
}

/* ---- patent-capture-dataflow ------------------------------------------------------ */

int figdesc_pcapdataflow(const struct rdata *rd, const struct figopts *o, struct figdesc *d)
{
	const struct capimpl *im;
	const struct capgroup *g = captured_group(rd, o, d, &im);
	if (!g)
		return 0;
	const struct record *r = g->rep;
	if (use_recs(d, &r, 1))
		return -1;
	const int bwd = r->shape.pass == PASS_BWD;
	/* the matrices in memory: the inputs, S and P (dS and dP) where the
	 * verdict stores them or does not decide (dashed), the output */
	static const char *const in[] = { "Q", "K", "V", "O" };
	static const char *const nnk[2][2] = { { "S", "P" }, { "dS", "dP" } };
	static const char *const nnw[2][2] = { { "score matrix", "probability matrix" },
					      { "score gradient matrix", "probability gradient matrix" } };
	static const char *const nnu[2][2] = {
		{ "score matrix, its storage not decided by the measured traffic",
		  "probability matrix, its storage not decided by the measured traffic" },
		{ "score gradient matrix, its storage not decided by the measured traffic",
		  "probability gradient matrix, its storage not decided by the measured traffic" } };
	for (int i = 0; i < 4; i++) {
		struct figitem *it = figdesc_item(d, "matrix", in[i], r, NAN, "%s", "");
		if (!it)
			return -1;
		snprintf(it->state, sizeof it->state, "%s", i == 3 ? "output" : "input");
		if (i != 2)
			continue;
		for (int j = 0; j < 2; j++) {
			const char *v = record_verdict_of(r, nnk[bwd][j]);
			if (!strcmp(v, "not stored"))
				continue;
			const int stored = !strcmp(v, "stored");
			it = figdesc_item(d, "matrix", stored ? nnk[bwd][j] : (j ? "P?" : "S?"), r, r->verdict_matrices, "%s", "");
			if (!it)
				return -1;
			snprintf(it->state, sizeof it->state, "%s", v);
			snprintf(it->label, sizeof it->label, "%s", nnk[bwd][j]);
			snprintf(it->what, sizeof it->what, "%s", stored ? nnw[bwd][j] : nnu[bwd][j]);
		}
	}
	/* the kernels in launch order (at most four: the first, the longest
	 * attention kernel, and the last, the first ones filling up) */
	const size_t nk = r->nlaunches;
	const struct launch *ml = capture_main_launch(r);
	const size_t mi = ml ? (size_t)(ml - r->launches) : 0;
	if (!figdesc_item(d, "size", "kernels", r, (double)nk, "%s", ""))
		return -1;
	int np = 0;
	for (size_t i = 0; i < nk && np < 4; i++) {
		int room = 4 - np, need = (i < mi) + (mi < nk - 1 && i < nk - 1); /* the main and the last still to come */
		if (nk <= 4 || i == 0 || i == mi || i == nk - 1 || room > need) {
			struct figitem *it = figdesc_item(d, "kernel", "launch", r, (double)i, "%s",
							  r->launches[i].name ? r->launches[i].name : "");
			if (!it)
				return -1;
			if (i == mi && ml)
				snprintf(it->state, sizeof it->state, "main");
			np++;
		}
	}
	return 0;
}

/* ---- partition-grid, partition-warps ------------------------------------------- */

/* What a partition figure knows of one series: its descriptor for the
 * figure's pass, its record at the conditions (NULL: none), the shape
 * (the record's, else a typical one), the tiling, and the grid of the
 * descriptor's main kernel (the record's launch where it has one). */
struct gridinfo {
	const struct variant_desc *v;
	const struct record *r;
	struct attn_shape s;
	struct tiling t;
	int grid[3];
	int warps;          /* per block */
	int per_sm;
	int measured;       /* grid from a recorded launch */
	struct wave_plan wp;
	int kernel;         /* which kernel of the variant */
	const struct launch *launch; /* the recorded launch drawn (NULL: the descriptor's grid) */
};

/* 0 with g filled, -1 when key has no descriptor or its grid plans no wave. */
static int grid_info(const struct rdata *rd, const struct figopts *o, const char *key, struct gridinfo *g)
{
	memset(g, 0, sizeof(*g));
	g->v = variant_pass_desc(variant_find(key), rsel_pass(&o->sel));
	if (!g->v)
		return -1;
	struct rsel sel;
	fig_sel(rd, o, &sel);
	if (g->v->phases & (1u << PHASE_DECODE) && !(g->v->phases & (1u << PHASE_PREFILL))) {
		sel.phase = PHASE_DECODE;
		sel.n = o->sel.n;
		sel.d = o->sel.d;
		sel.causal = o->sel.causal;
		sel.tokens = o->sel.tokens; /* a prefill sweep's family is not decode's */
		sel.hidden = o->sel.hidden;
	}
	g->r = rdata_find(rd, key, &sel);
	int sm = rdata_sm_count(rd);
	if (g->r) {
		g->s = g->r->shape;
	} else {
		g->s = fig_typical_shape(&sel, o->sel.batch > 0 ? o->sel.batch : 4);
		if (sel.phase == PHASE_DECODE)
			g->s.seqlen_q = 1, g->s.phase = PHASE_DECODE;
	}
	g->v->tiling(&g->s, sm, &g->t);
	/* the descriptor's main kernel (standard: the softmax kernel is ours; GEMM grids belong to cuBLAS) */
	g->kernel = g->v->main_kernel;
	g->v->grid(&g->s, &g->t, g->kernel, g->grid);
	g->warps = g->t.warps > 0 ? g->t.warps : 4;
	g->per_sm = 1;
	const struct launch *l = NULL;
	if (g->r) {
		for (size_t i = 0; i < g->r->nlaunches; i++) {
			const char *m = g->kernel < (int)g->v->nkernels ? g->v->kernels[g->kernel].match : NULL;
			if (m && g->r->launches[i].name && strstr(g->r->launches[i].name, m))
				l = &g->r->launches[i];
		}
		if (!l)
			l = record_main_launch(g->r);
	}
	if (l && l->grid[0] > 0) {
		g->launch = l;
		memcpy(g->grid, l->grid, sizeof(g->grid));
		int threads = l->block[0] * (l->block[1] > 0 ? l->block[1] : 1) * (l->block[2] > 0 ? l->block[2] : 1);
		if (threads > 0)
			g->warps = (threads + 31) / 32;
		g->per_sm = blocks_per_sm_from_occupancy(l->theoretical_occupancy, g->warps, 64);
		g->measured = 1;
	} else if (g->r) {
		const double *m = kvlist_get(&g->r->model, "blocks_per_sm");
		if (m && *m >= 1 && *m <= 64) /* a results file's number: bounded before the cast */
			g->per_sm = (int)*m;
	}
	long long blocks = (long long)g->grid[0] * (g->grid[1] > 0 ? g->grid[1] : 1) * (g->grid[2] > 0 ? g->grid[2] : 1);
	return wave_plan(&g->wp, blocks, sm, g->per_sm);
}

/* The series keys a partition figure draws: the baseline a, the subject b ("" none). */
static void partition_keys(const struct rdata *rd, const struct figopts *o, char a[SERIES_KEY], char b[SERIES_KEY])
{
	fig_series(rd, o->variant, variant_role(DOC_BASELINE), a);
	fig_series(rd, o->compare, o->variant[0] && !o->compare[0] ? "" : variant_role(DOC_SUBJECT), b);
}

/* One series' grid as group d->group: its parts (figdesc.h). */
static int grid_group(struct figdesc *d, const struct gridinfo *g)
{
	const struct kernel_desc *kd = &g->v->kernels[g->kernel < (int)g->v->nkernels ? g->kernel : 0];
	const struct record *lr = g->measured ? g->r : NULL;
	const int gy = g->grid[1] > 0 ? g->grid[1] : 1;
	const struct wave_plan *wp = &g->wp;
	if (!figdesc_item(d, "title", g->v->name, NULL, NAN, "%s — %s", g->v->name, g->v->grid_text) ||
	    !figdesc_item(d, "axis", "grid_x", lr, g->grid[0], "blockIdx.x: %s (%d)", kd->grid_x ? kd->grid_x : "-",
			  g->grid[0]) ||
	    !figdesc_item(d, "axis", "grid_y", lr, gy, "blockIdx.y: %s (%d)", kd->grid_y ? kd->grid_y : "-", gy) ||
	    !figdesc_item(d, "blocks", "thread_blocks", lr, (double)wp->blocks, "%lld blocks · %d warps each%s",
			  wp->blocks, g->warps, g->measured ? "" : " (descriptor)") ||
	    !figdesc_item(d, "waves", "waves", lr, wp->waves_exact,
			  "%d SMs × %d resident block%s = %.2f waves; last wave: %lld blocks, %d SM%s idle", wp->sm_count,
			  g->per_sm, g->per_sm == 1 ? "" : "s", wp->waves_exact, wp->last_blocks, wp->idle_sms_last,
			  wp->idle_sms_last == 1 ? "" : "s") ||
	    size_part(d, "sm", wp->sm_count) || size_part(d, "per_sm", g->per_sm))
		return -1;
	/* the waves drawn, a row each: all of up to six, else the first two, the elision, the last two */
	int rows[8], nr = 0;
	if (wp->waves <= 6) {
		for (int w = 0; w < wp->waves; w++)
			rows[nr++] = w;
	} else {
		rows[nr++] = 0; rows[nr++] = 1; rows[nr++] = -1;
		rows[nr++] = wp->waves - 2; rows[nr++] = wp->waves - 1;
	}
	for (int i = 0; i < nr; i++)
		if (!(rows[i] < 0 ? figdesc_item(d, "wave", "wave", NULL, NAN, "⋯ full waves ⋯")
				  : figdesc_item(d, "wave", "wave", NULL, rows[i] + 1, "wave %d", rows[i] + 1)))
			return -1;
	if (wp->idle_sms_last > 0 && !figdesc_item(d, "idle", "idle_sms", lr, wp->idle_sms_last, "%d idle", wp->idle_sms_last))
		return -1;
	/* the record's other launches, a line each with its own grid and waves (standard drew its
	 * softmax grid alone under a title naming three launches: the two cuBLAS GEMMs had none) */
	int listed = 0;
	for (size_t k = 0; g->launch && k < g->r->nlaunches; k++) {
		const struct launch *l = &g->r->launches[k];
		if (l == g->launch || l->grid[0] <= 0)
			continue;
		const char *nm = g->r->nlaunches == g->v->nkernels ? g->v->kernels[k].name : l->name;
		const int bx = l->block[0] > 0 ? l->block[0] : 1, by = l->block[1] > 0 ? l->block[1] : 1,
			  bz = l->block[2] > 0 ? l->block[2] : 1;
		const int warps = (bx * by * bz + 31) / 32;
		const int gy1 = l->grid[1] > 0 ? l->grid[1] : 1, gz1 = l->grid[2] > 0 ? l->grid[2] : 1;
		struct wave_plan lw;
		if (wave_plan(&lw, (long long)l->grid[0] * gy1 * gz1, wp->sm_count,
			      blocks_per_sm_from_occupancy(l->theoretical_occupancy, warps, 64)))
			continue;
		if (!figdesc_item(d, "launch", "launch_blocks", g->r, (double)lw.blocks,
				  "launch %zu, %s: grid %d×%d×%d = %lld blocks · %d warps each · %.2f waves", k + 1, nm,
				  l->grid[0], gy1, gz1, lw.blocks, warps, lw.waves_exact))
			return -1;
		listed++;
	}
	if (listed) {
		const size_t k = (size_t)(g->launch - g->r->launches);
		if (!figdesc_item(d, "launch", "launch_drawn", NULL, NAN, "drawn below: launch %zu, %s", k + 1,
				  g->r->nlaunches == g->v->nkernels ? g->v->kernels[k].name : g->launch->name))
			return -1;
	}
	return 0;
}

int figdesc_partition_grid(const struct rdata *rd, const struct figopts *o, struct figdesc *d)
{
	char a[SERIES_KEY], b[SERIES_KEY];
	partition_keys(rd, o, a, b);
	struct gridinfo g[2];
	int n = 0;
	const struct record *recs[2] = { NULL, NULL };
	size_t nr = 0;
	if (!grid_info(rd, o, a, &g[n]))
		n++;
	if (b[0] && strcmp(a, b) && !grid_info(rd, o, b, &g[n]))
		n++;
	for (int i = 0; i < n; i++)
		if (g[i].r)
			recs[nr++] = g[i].r;
	if (use_recs(d, recs, nr))
		return -1;
	if (!n) {
		snprintf(d->notice, sizeof d->notice, "no grid to draw");
		snprintf(d->notice_why, sizeof d->notice_why, "the variant has no descriptor in kernels/variants.c");
		return 0;
	}
	for (int i = 0; i < n; i++) {
		d->group = i;
		if (grid_group(d, &g[i]))
			return -1;
	}
	return 0;
}

/* One series' warps as group d->group (figdesc.h). */
static int warps_group(struct figdesc *d, const struct rdata *rd, const struct figopts *o, const char *key)
{
	char buf[320], b1[32], b2[32], b3[32];
	struct gridinfo g;
	grid_info(rd, o, key, &g);
	const struct variant_desc *v = g.v;
	if (!v) {
		struct figitem *it = figdesc_item(d, "nodesc", "nodesc", NULL, NAN, "no descriptor for this series");
		if (it)
			snprintf(it->label, sizeof it->label, "no warp picture");
		return it ? 0 : -1;
	}
	const int W = g.t.warps > 0 ? g.t.warps : 4;
	const char *kind = v->warps == WARPS_SPLIT_K ? "split-K" : v->warps == WARPS_SPLIT_Q ? "split-Q"
			 : v->warps == WARPS_ROWS ? "rows" : "library";
	struct figitem *title;
	/* the descriptor's text may name the split itself ("split-K: each warp …"): once */
	if (!strncmp(v->warp_text, kind, strlen(kind)) && v->warp_text[strlen(kind)] == ':')
		title = figdesc_item(d, "title", v->name, NULL, NAN, "%s — %s", v->name, v->warp_text);
	else
		title = figdesc_item(d, "title", v->name, NULL, NAN, "%s — %s: %s", v->name, kind, v->warp_text);
	if (!title)
		return -1;
	snprintf(title->state, sizeof title->state, "%s", kind);
	/* measured shared-memory traffic, the cost a split-K reduction shows */
	if (g.r) {
		double st_wf = record_metric_or_nan(g.r, M_SMEM_ST_WF), ld_wf = record_metric_or_nan(g.r, M_SMEM_LD_WF);
		double cf = record_metric_or_nan(g.r, M_SMEM_ST_CONF);
		if (isfinite(st_wf)) {
			snprintf(buf, sizeof(buf), "measured shared-memory store wavefronts %s, load %s, store bank conflicts %s",
				 fmt_count(st_wf, b1, sizeof(b1)), isfinite(ld_wf) ? fmt_count(ld_wf, b2, sizeof(b2)) : "n/a",
				 isfinite(cf) ? fmt_count(cf, b3, sizeof(b3)) : "n/a");
			if (!figdesc_item(d, "smem", "smem_st_wavefronts", g.r, st_wf, "%s", "") ||
			    (isfinite(ld_wf) && !figdesc_item(d, "smem", "smem_ld_wavefronts", g.r, ld_wf, "%s", "")) ||
			    (isfinite(cf) && !figdesc_item(d, "smem", "smem_st_conflicts", g.r, cf, "%s", "")))
				return -1;
		} else {
			snprintf(buf, sizeof(buf), "shared-memory wavefronts not measured (%s)",
				 g.r->metrics_reason ? g.r->metrics_reason : "no hardware counters in this record");
		}
	} else {
		snprintf(buf, sizeof(buf), "no record of %s at these conditions", v->name);
	}
	if (!figdesc_item(d, "foot", "foot", g.r, NAN, "%s", buf))
		return -1;
	if (v->warps == WARPS_LIBRARY || v->warps == WARPS_ROWS)
		return figdesc_item(d, "library", "library", NULL, NAN, "the libraries' kernels choose their own warp layout; "
				    "attnprof draws only what the descriptor states") ? 0 : -1;
	const int splitk = v->warps == WARPS_SPLIT_K, Br = g.t.block_m, Bc = g.t.block_n, hd = g.s.head_dim;
	/* the tiles: Q_i | K_j, V_j | S_ij | O_i, each with the warps' slices it is cut into */
	/* by index, not pointer: each figdesc_item may move the item array */
	const size_t t0 = d->nitems;
	if (!figdesc_item(d, "tile", "Q_i", NULL, NAN, "Q_i %d×%d", Br, hd) ||
	    !figdesc_item(d, "tile", "K_j", NULL, NAN, "K_j,V_j %d×%d", Bc, hd) ||
	    !figdesc_item(d, "tile", "S_ij", NULL, NAN, "S_ij %d×%d", Br, Bc) || !figdesc_item(d, "tile", "O_i", NULL, NAN, "O_i"))
		return -1;
	static const char *const what[4] = { "tile Q_i: a block of Br query rows", "tile K_j: a block of Bc key rows",
					     "tile S_ij: scores of the tile pair", "tile O_i: output accumulator" };
	const int slices[4] = { splitk ? 1 : W, splitk ? W : 1, W, splitk ? 1 : W };
	for (int i = 0; i < 4; i++) {
		struct figitem *ti = &d->item[t0 + (size_t)i];
		ti->v = slices[i];
		snprintf(ti->what, sizeof ti->what, "%s", what[i]);
	}
	if (size_part(d, "warps", W) || size_part(d, "Br", Br) || size_part(d, "Bc", Bc) || size_part(d, "d", hd) ||
	    !figdesc_item(d, "q-note", "q-note", NULL, NAN, "%s", splitk ? "all rows, every warp" : "rows split over warps") ||
	    !figdesc_item(d, "kv-note", "kv-note", NULL, NAN, "%s", splitk ? "keys split over warps" : "shared by all warps"))
		return -1;
	if (!splitk)
		return figdesc_item(d, "note", "note", NULL, NAN, "each warp owns its rows of S_ij and O_i: no inter-warp reduction")
			       ? 0 : -1;
	/* partial O per warp, summed through shared memory */
	const double bytes = (double)W * Br * hd * 4;
	struct figitem *red = figdesc_item(d, "reduction", "reduction_bytes", NULL, bytes,
					   "shared memory: %d partial O_i (%d×%d fp32, %s) summed", W, Br, hd,
					   fmt_bytes(bytes, b1, sizeof(b1)));
	if (!red)
		return -1;
	snprintf(red->alt[0], sizeof red->alt[0], "%d partial O_i summed in shared memory", W);
	snprintf(red->alt[1], sizeof red->alt[1], "partial O_i summed");
	return 0;
}

int figdesc_partition_warps(const struct rdata *rd, const struct figopts *o, struct figdesc *d)
{
	char a[SERIES_KEY], b[SERIES_KEY];
	partition_keys(rd, o, a, b);
	/* the caption's records, as the panels find them */
	struct gridinfo g1, g2;
	const struct record *recs[2] = { NULL, NULL };
	size_t nr = 0;
	if (!grid_info(rd, o, a, &g1) && g1.r)
		recs[nr++] = g1.r;
	if (b[0] && !grid_info(rd, o, b, &g2) && g2.r)
		recs[nr++] = g2.r;
	if (use_recs(d, recs, nr))
		return -1;
	const int n = b[0] && strcmp(a, b) ? 2 : 1;
	for (int i = 0; i < n; i++) {
		d->group = i;
		if (warps_group(d, rd, o, i ? b : a))
			return -1;
	}
	return 0;
}

/* ---- patent-grid, patent-warps ----------------------------------------------------- */

const struct variant_desc *patent_view(const struct rdata *rd, const struct figopts *o, struct pview *pv)
{
	char key[SERIES_KEY];
	fig_series(rd, o->variant, variant_role(DOC_SUBJECT), key);
	const struct variant_desc *v = variant_find(key);
	if (!v)
		return NULL;
	struct rsel sel;
	fig_sel(rd, o, &sel);
	if (v->phases & (1u << PHASE_DECODE) && !(v->phases & (1u << PHASE_PREFILL))) {
		sel.phase = PHASE_DECODE;
		sel.n = o->sel.n;
		sel.d = o->sel.d;
		sel.causal = o->sel.causal;
	}
	pv->r = rdata_find(rd, key, &sel);
	if (pv->r) {
		pv->s = pv->r->shape;
	} else {
		pv->s = fig_typical_shape(&sel, 4);
	}
	int sm = rdata_sm_count(rd);
	v->tiling(&pv->s, sm, &pv->t);
	return v;
}

/* A patent view's grid of blocks over sm multiprocessors at per_sm
 * resident blocks (figdesc_patent_grid); lr the record of a launched grid. */
static int pgrid_parts(struct figdesc *d, const int grid[3], int per_sm, int sm, const struct record *lr)
{
	const int gy = grid[1] > 0 ? grid[1] : 1;
	long long blocks = (long long)grid[0] * gy * (grid[2] > 0 ? grid[2] : 1);
	struct wave_plan wp;
	if (wave_plan(&wp, blocks, sm, per_sm)) {
		snprintf(d->notice, sizeof d->notice, "no grid");
		snprintf(d->notice_why, sizeof d->notice_why, "the launch has no blocks");
		return 0;
	}
	if (!figdesc_item(d, "axis", "grid_x", lr, grid[0], "%s", "") || !figdesc_item(d, "axis", "grid_y", lr, gy, "%s", "") ||
	    !figdesc_item(d, "blocks", "thread_blocks", lr, (double)blocks, "%s", "") ||
	    !figdesc_item(d, "waves", "waves", lr, wp.waves_exact, "%s", "") || size_part(d, "sm", sm) ||
	    size_part(d, "per_sm", per_sm))
		return -1;
	/* the waves drawn, a row each: all of up to four, else the first, the elision, the last */
	int rows[3], nr = 0;
	if (wp.waves <= 4) {
		for (int w = 0; w < wp.waves; w++)
			if (!figdesc_item(d, "wave", "wave", NULL, w + 1, "%s", ""))
				return -1;
		return 0;
	}
	rows[nr++] = 0, rows[nr++] = -1, rows[nr++] = wp.waves - 1;
	for (int i = 0; i < nr; i++)
		if (!figdesc_item(d, "wave", "wave", NULL, rows[i] < 0 ? NAN : rows[i] + 1, "%s", ""))
			return -1;
	return 0;
}

int figdesc_patent_grid(const struct rdata *rd, const struct figopts *o, struct figdesc *d)
{
	struct pview pv;
	const struct variant_desc *v = patent_view(rd, o, &pv);
	if (!v) {
		snprintf(d->notice, sizeof d->notice, "no descriptor");
		snprintf(d->notice_why, sizeof d->notice_why, "the variant has no descriptor in kernels/variants.c");
		return 0;
	}
	if (use_recs(d, &pv.r, pv.r ? 1 : 0))
		return -1;
	/* the conventional variant's grid is its second kernel's (the softmax: the GEMMs' belong to cuBLAS) */
	int kern = !strcmp(v->name, variant_role(DOC_CONVENTIONAL)) ? 1 : 0, grid[3] = { 1, 1, 1 };
	v->grid(&pv.s, &pv.t, kern, grid);
	int per_sm = 1;
	const struct launch *l = pv.r ? record_main_launch(pv.r) : NULL;
	const struct record *lr = NULL;
	if (l && l->grid[0] > 0) {
		memcpy(grid, l->grid, sizeof(grid));
		int threads = l->block[0] * (l->block[1] > 0 ? l->block[1] : 1) * (l->block[2] > 0 ? l->block[2] : 1);
		per_sm = blocks_per_sm_from_occupancy(l->theoretical_occupancy, (threads + 31) / 32, 64);
		lr = pv.r;
	}
	return pgrid_parts(d, grid, per_sm, rdata_sm_count(rd), lr);
}

int figdesc_patent_capture_grid(const struct rdata *rd, const struct figopts *o, struct figdesc *d)
{
	const struct capimpl *im = capture_figure_impl(rd, o);
	const struct capgroup *g = im ? capture_figure_group(rd, im, o) : NULL;
	const struct launch *l = g ? capture_main_launch(g->rep) : NULL;
	if (!l || l->grid[0] <= 0) {
		snprintf(d->notice, sizeof d->notice, "no grid");
		snprintf(d->notice_why, sizeof d->notice_why, "the captured call recorded no kernel launch");
		return 0;
	}
	if (use_recs(d, &g->rep, 1))
		return -1;
	int threads = l->block[0] * (l->block[1] > 0 ? l->block[1] : 1) * (l->block[2] > 0 ? l->block[2] : 1);
	int per_sm = blocks_per_sm_from_occupancy(l->theoretical_occupancy, (threads + 31) / 32, 64);
	return pgrid_parts(d, l->grid, per_sm > 0 ? per_sm : 1, rdata_sm_count(rd), g->rep);
}

int figdesc_patent_warps(const struct rdata *rd, const struct figopts *o, struct figdesc *d)
{
	struct pview pv;
	const struct variant_desc *v = patent_view(rd, o, &pv);
	if (!v || (v->warps != WARPS_SPLIT_K && v->warps != WARPS_SPLIT_Q)) {
		snprintf(d->notice, sizeof d->notice, "no warp division");
		snprintf(d->notice_why, sizeof d->notice_why, "the variant's warps split neither keys nor queries");
		return 0;
	}
	if (use_recs(d, &pv.r, pv.r ? 1 : 0))
		return -1;
	struct figitem *it = figdesc_item(d, "split", "warps", NULL, pv.t.warps > 0 ? pv.t.warps : 4, "%s", "");
	if (!it)
		return -1;
	snprintf(it->state, sizeof it->state, "%s", v->warps == WARPS_SPLIT_K ? "split-K" : "split-Q");
	return 0;
}

/* ---- patent-causal ------------------------------------------------------------------ */

/* The tile pairs of a causal pass at shape s and tiling t: the counts as
 * "size" parts and the cells drawn.  1 when the tiling has no pairs (no
 * part added), 0, or -1 out of memory. */
static int causal_cells(struct figdesc *d, const struct attn_shape *s, const struct tiling *t)
{
	struct causal_count cc;
	if (causal_tiles_count(s->seqlen_q, s->seqlen_kv, t->block_m, t->block_n, &cc))
		return 1;
	/* past CAUSAL_DRAW_MAX pairs a side, a cell stands for step × step pairs */
	const long step = causal_cell_step(&cc, CAUSAL_DRAW_MAX);
	if (size_part(d, "rows", (double)cc.rows) || size_part(d, "cols", (double)cc.cols) ||
	    size_part(d, "full", (double)cc.full) || size_part(d, "masked", (double)cc.masked) ||
	    size_part(d, "skipped", (double)cc.skipped) || size_part(d, "step", (double)step))
		return -1;
	const long per = (cc.rows + step - 1) / step * ((cc.cols + step - 1) / step);
	d->cell = malloc((size_t)per * sizeof(*d->cell));
	if (!d->cell)
		return -1;
	for (long i = 0; i < cc.rows; i += step)
		for (long j = 0; j < cc.cols; j += step) {
			long i1 = i + step < cc.rows ? i + step : cc.rows, j1 = j + step < cc.cols ? j + step : cc.cols;
			enum tile_fate f = causal_block(s->seqlen_q, s->seqlen_kv, t->block_m, t->block_n, i, i1, j, j1);
			if (f != TILE_SKIPPED)
				d->cell[d->ncells++] = (struct figcell){ i, i1, j, j1, f == TILE_FULL ? FD_CELL_FULL : FD_CELL_MASKED };
		}
	return 0;
}

int figdesc_patent_causal(const struct rdata *rd, const struct figopts *o, struct figdesc *d)
{
	struct pview pv;
	struct figopts oc = *o;
	oc.sel.causal = 1;
	const struct variant_desc *v = patent_view(rd, &oc, &pv);
	const int rc = v ? causal_cells(d, &pv.s, &pv.t) : 1;
	if (rc == 1) {
		snprintf(d->notice, sizeof d->notice, "no tiles");
		snprintf(d->notice_why, sizeof d->notice_why, "the variant has no tiling");
		return 0;
	}
	return rc || use_recs(d, &pv.r, pv.r ? 1 : 0) ? -1 : 0;
}

/* ---- causal-blocks ------------------------------------------------------------------- */

/* The record of series key at the options' conditions (NULL: none), its
 * shape (else a typical one, B 4 unless the options fix it) and its
 * tiling: the teaching figures' view of a variant.  NULL when key has no
 * descriptor. */
static const struct variant_desc *teach_view(const struct rdata *rd, const struct figopts *o, const char *key,
					     struct pview *tv)
{
	memset(tv, 0, sizeof(*tv));
	const struct variant_desc *v = variant_find(key);
	if (!v)
		return NULL;
	struct rsel sel;
	fig_sel(rd, o, &sel);
	tv->r = rdata_find(rd, key, &sel);
	tv->s = tv->r ? tv->r->shape : fig_typical_shape(&sel, sel.batch > 0 ? sel.batch : 4);
	v->tiling(&tv->s, rdata_sm_count(rd), &tv->t);
	return v;
}

int figdesc_causal_blocks(const struct rdata *rd, const struct figopts *o, struct figdesc *d)
{
	char key[SERIES_KEY], b1[32], b2[32];
	fig_series(rd, o->variant, variant_role(DOC_SUBJECT), key);
	struct figopts oc = *o, on = *o;
	oc.sel.causal = 1;
	on.sel.causal = 0;
	struct pview tc, tn;
	const int okc = teach_view(rd, &oc, key, &tc) != NULL;
	teach_view(rd, &on, key, &tn);
	const struct record *recs[2] = { NULL, NULL };
	size_t nr = 0;
	if (tc.r)
		recs[nr++] = tc.r;
	if (tn.r)
		recs[nr++] = tn.r;
	if (use_recs(d, recs, nr))
		return -1;
	const int rc = okc ? causal_cells(d, &tc.s, &tc.t) : 1;
	if (rc == 1) {
		snprintf(d->notice, sizeof d->notice, "no tiles to draw");
		snprintf(d->notice_why, sizeof d->notice_why, "the variant has no tiling in kernels/variants.c");
		return 0;
	}
	if (rc)
		return -1;
	long n[6] = { 0 }; /* rows, cols, full, masked, skipped, step */
	static const char *const names[6] = { "rows", "cols", "full", "masked", "skipped", "step" };
	const struct figitem *it;
	for (size_t i = 0; (it = figdesc_part(d, "size", i)); i++)
		for (int k = 0; k < 6; k++)
			if (!strcmp(it->name, names[k]))
				n[k] = (long)it->v;
	/* the score matrix's sides and the tile's, the cells' geometry */
	if (size_part(d, "Nq", tc.s.seqlen_q) || size_part(d, "Nkv", tc.s.seqlen_kv) || size_part(d, "Br", tc.t.block_m) ||
	    size_part(d, "Bc", tc.t.block_n) ||
	    !figdesc_item(d, "head", "tile_pairs", NULL, (double)n[0] * n[1], "N = %d: %ld × %ld tile pairs (%d×%d)",
			  tc.s.seqlen_kv, n[0], n[1], tc.t.block_m, tc.t.block_n) ||
	    (n[5] > 1 && !figdesc_item(d, "cellnote", "step", NULL, n[5],
				       "one cell drawn: %ld × %ld tile pairs (masked: mixed)", n[5], n[5])))
		return -1;
	static const char *const what[3] = { "computed in full", "masked (diagonal)", "skipped" };
	static const char *const fate[3] = { "full", "masked", "skipped" };
	const long total = n[0] * n[1];
	for (int k = 0; k < 3; k++) {
		struct figitem *f = figdesc_item(d, "fate", fate[k], NULL, n[2 + k], "%s: %ld (%.0f %%)", what[k], n[2 + k],
						 100.0 * n[2 + k] / total);
		if (!f)
			return -1;
		snprintf(f->state, sizeof f->state, "%s", fate[k]);
	}
	const double t_c = tc.r ? tc.r->time_ms : NAN, t_n = tn.r ? tn.r->time_ms : NAN;
	if (usable(t_c) && usable(t_n))
		return figdesc_item(d, "measured", "run_time_us", tc.r, t_c * 1e3, "measured: %s ms causal",
				    fmt_sig(t_c, 3, b1, sizeof(b1))) &&
			       figdesc_item(d, "measured", "run_time_us", tn.r, t_n * 1e3,
					    "against %s ms without the mask (×%.2f)", fmt_sig(t_n, 3, b2, sizeof(b2)), t_c / t_n)
			       ? 0 : -1;
	return figdesc_item(d, "unmeasured", "unmeasured", NULL, NAN, "no measured causal and non-causal pair here") ? 0 : -1;
}

/* ---- warp-split ---------------------------------------------------------------------- */

int figdesc_warp_split(const struct rdata *rd, const struct figopts *o, struct figdesc *d)
{
	char key[2][SERIES_KEY], b1[32];
	fig_pair(rd, o, DOC_BASELINE, key[0], key[1]);
	struct pview tv[2];
	const struct variant_desc *v[2] = { teach_view(rd, o, key[0], &tv[0]), teach_view(rd, o, key[1], &tv[1]) };
	const struct record *recs[2] = { NULL, NULL };
	size_t nr = 0;
	for (int i = 0; i < 2; i++)
		if (tv[i].r)
			recs[nr++] = tv[i].r;
	if (use_recs(d, recs, nr))
		return -1;
	for (int i = 0; i < 2; i++)
		if (!v[i] || (v[i]->warps != WARPS_SPLIT_K && v[i]->warps != WARPS_SPLIT_Q)) {
			snprintf(d->notice, sizeof d->notice, "no warp split to draw");
			snprintf(d->notice_why, sizeof d->notice_why, "both variants must split warps by keys or by queries");
			return 0;
		}
	for (int i = 0; i < 2; i++) {
		d->group = i;
		const int splitk = v[i]->warps == WARPS_SPLIT_K;
		struct figitem *t = figdesc_item(d, "title", v[i]->name, NULL, NAN, "%s: %s", v[i]->name,
						 splitk ? "split-K" : "split-Q");
		if (!t)
			return -1;
		snprintf(t->state, sizeof t->state, "%s", splitk ? "split-K" : "split-Q");
		const double wf = tv[i].r ? record_metric_or_nan(tv[i].r, M_SMEM_ST_WF) : NAN;
		if (size_part(d, "warps", tv[i].t.warps > 0 ? tv[i].t.warps : 4) ||
		    !(isfinite(wf) ? figdesc_item(d, "foot", "smem_st_wavefronts", tv[i].r, wf, "shared-memory stores: %s wavefronts",
						  fmt_count(wf, b1, sizeof(b1)))
				   : figdesc_item(d, "foot", "foot", NULL, NAN, "shared-memory stores: not measured")) ||
		    !figdesc_item(d, "holds", "holds", NULL, NAN, "%s", splitk ? "each warp: some keys of every query row"
									: "each warp: its own query rows, all keys"))
			return -1;
	}
	return 0;
}

/* ---- online-softmax ---------------------------------------------------------------- */

/* A number of the worked example as the slide writes it: −∞, integers
 * plain, else three decimals (three digits past 100 or under 0.01), a
 * proper minus. */
static const char *osm_num(double v, char *buf, size_t len)
{
	if (v == -INFINITY)
		snprintf(buf, len, "−∞");
	else if (v == 0)
		snprintf(buf, len, "0");
	else if (v == floor(v) && fabs(v) < 1e6)
		snprintf(buf, len, "%.0f", v);
	else if (fabs(v) >= 100 || fabs(v) < 0.01)
		snprintf(buf, len, "%.3g", v);
	else
		snprintf(buf, len, "%.3f", v);
	/* a proper minus */
	if (buf[0] == '-' && len > 4) {
		memmove(buf + 3, buf + 1, strlen(buf));
		memcpy(buf, "−", 3);
	}
	return buf;
}

int figdesc_online_softmax(const struct rdata *rd, const struct figopts *o, struct figdesc *d)
{
	(void)rd, (void)o;
	struct osm_example ex;
	if (osm_teaching_example(&ex)) {
		snprintf(d->notice, sizeof d->notice, "no example");
		snprintf(d->notice_why, sizeof d->notice_why, "the online-softmax example failed to compute");
		return 0;
	}
	static const char *const head[] = { "block", "scores s", "max m", "exp(m_old − m)", "sum ℓ", "Õ = Σ exp(s − m)·v",
					    "Õ / ℓ" };
	for (int k = 0; k < 7; k++)
		if (!figdesc_item(d, "head", "head", NULL, NAN, "%s", head[k]))
			return -1;
	char a[32], b[32], cell[64];
	for (int j = 0; j < ex.nsteps && j < 7; j++) {
		const struct osm_step *s = &ex.steps[j];
		d->group = j + 1; /* a row of the table */
		cell[0] = '\0';
		for (int k = s->c0; k < s->c1; k++) {
			size_t u = strlen(cell);
			snprintf(cell + u, sizeof cell - u, "%s%s", k > s->c0 ? ", " : "", osm_num(ex.s[k], a, sizeof(a)));
		}
		/* by index, not pointer: each figdesc_item may move the item array */
		const size_t c0 = d->nitems;
		if (!figdesc_item(d, "cell", "block", NULL, j + 1, "%d", j + 1) ||
		    !figdesc_item(d, "cell", "scores", NULL, NAN, "%s", cell) ||
		    !figdesc_item(d, "cell", "m", NULL, s->m, "%s", osm_num(s->m, a, sizeof(a))) ||
		    !(j == 0 ? figdesc_item(d, "cell", "alpha", NULL, NAN, "—")
			     : figdesc_item(d, "cell", "alpha", NULL, s->alpha, "exp(%s) = %s",
					    osm_num(s->m_old - s->m, a, sizeof(a)), osm_num(s->alpha, b, sizeof(b)))) ||
		    !figdesc_item(d, "cell", "l", NULL, s->l, "%s", osm_num(s->l, a, sizeof(a))) ||
		    !figdesc_item(d, "cell", "acc", NULL, s->acc[0], "%s", osm_num(s->acc[0], a, sizeof(a))) ||
		    !figdesc_item(d, "cell", "o", NULL, s->acc[0] / s->l, "%s", osm_num(s->acc[0] / s->l, a, sizeof(a))))
			return -1;
		/* the row where the max moved is the rescale the recurrence needs */
		if (j > 0 && s->alpha < 1)
			for (size_t k = c0; k < d->nitems; k++)
				snprintf(d->item[k].state, sizeof d->item[k].state, "moved");
	}
	d->group = 0;
	/* the check: the same row computed directly */
	if (!figdesc_item(d, "result", "o", NULL, ex.o[0], "online result O = Õ / ℓ = %s        direct softmax(s)·v = %s",
			  osm_num(ex.o[0], a, sizeof(a)), osm_num(ex.o_direct[0], b, sizeof(b))))
		return -1;
	char vals[120] = "";
	for (int k = 0; k < ex.n && strlen(vals) + 24 < sizeof(vals); k++)
		snprintf(vals + strlen(vals), sizeof(vals) - strlen(vals), "%s%s", k ? ", " : "",
			 osm_num(ex.v[k * ex.d], a, sizeof(a)));
	if (ex.max_abs_err > 0)
		return figdesc_item(d, "check", "max_abs_err", NULL, ex.max_abs_err, "values v = %s · difference %.1e (fp64)", vals,
				    ex.max_abs_err) ? 0 : -1;
	return figdesc_item(d, "check", "max_abs_err", NULL, ex.max_abs_err,
			    "values v = %s · the two agree to the last bit (fp64)", vals) ? 0 : -1;
}

/* ---- capture-kernels ------------------------------------------------------------- */

/* A launch's time: the profiled duration where it has one, else the activity record's. */
static double kernel_ns(const struct launch *l)
{
	const double *v = kvlist_get(&l->metrics, M_DURATION);
	return v ? *v : l->duration_ns;
}

int capture_kinds(const struct rdata *rd, const struct capimpl *im, const struct figopts *o, const struct capgroup **out)
{
	int n = 0, N = o->sel.n > 0 ? o->sel.n : rd->focus.n;
	for (int dec = 0; dec < 2; dec++)
		for (int pass = 0; pass < 2; pass++) {
			const struct capgroup *g = im ? capture_pick(im, N, pass, dec) : NULL;
			if (g)
				out[n++] = g;
		}
	return n;
}

/* The kinds of call a capture figure draws as d->used with their
 * conditions line (d->cond), or the notice when there is none: how many. */
static int capture_kinds_used(const struct rdata *rd, const struct figopts *o, struct figdesc *d,
			      const struct capgroup **gs)
{
	const int ng = capture_kinds(rd, capture_figure_impl(rd, o), o, gs);
	const struct record *recs[4] = { NULL };
	for (int i = 0; i < ng; i++)
		recs[i] = gs[i]->rep;
	if (use_recs(d, recs, (size_t)ng))
		return -1;
	if (ng)
		capture_conditions(rd, recs, (size_t)ng, d->cond, sizeof(d->cond));
	else {
		snprintf(d->notice, sizeof d->notice, "no captured call");
		snprintf(d->notice_why, sizeof d->notice_why, "record one with 'attnprof record -o FILE -- CMD'");
	}
	return ng;
}

int figdesc_capture_kernels(const struct rdata *rd, const struct figopts *o, struct figdesc *d)
{
	const struct capgroup *gs[4];
	const int ng = capture_kinds_used(rd, o, d, gs);
	if (ng < 0)
		return -1;
	for (int p = 0; p < ng; p++) {
		const struct record *r = gs[p]->rep;
		const size_t nk = r->nlaunches;
		char sh[96];
		double total = 0;
		for (size_t i = 0; i < nk; i++)
			total += kernel_ns(&r->launches[i]);
		d->group = p;
		if (!figdesc_item(d, "head", "kernel_ns", r, total, "%s at %s: %zu kernel%s, %.1f µs of kernel time",
				  capture_call_kind(r), capture_shape_text(gs[p], sh, sizeof(sh)), nk, nk == 1 ? "" : "s", total / 1e3))
			return -1;
		if (!(total > 0)) {
			if (!figdesc_item(d, "nodur", "nodur", NULL, NAN, "no kernel durations recorded"))
				return -1;
			continue;
		}
		/* every kernel in launch order: its short name (a start is enough to tell them apart), the line's tail */
		for (size_t i = 0; i < nk; i++) {
			const struct launch *l = &r->launches[i];
			char ks[160], gd[64];
			kernel_short_name(l->name ? l->name : "?", ks, sizeof(ks));
			if (strlen(ks) > 46) {
				size_t cut = 44;
				while (cut && ((unsigned char)ks[cut] & 0xC0) == 0x80)
					cut--;
				snprintf(ks + cut, sizeof(ks) - cut, "…");
			}
			gridmap_dims(l->grid, gd, sizeof(gd));
			struct figitem *it = figdesc_item(d, "kernel", "kernel_ns", r, kernel_ns(l), "%s", ks);
			if (!it)
				return -1;
			snprintf(it->label, sizeof it->label, "%zu. ", i + 1);
			snprintf(it->alt[0], sizeof it->alt[0], " · %.1f µs (%.0f %%) · grid %s · block %d", kernel_ns(l) / 1e3,
				 100 * kernel_ns(l) / total, gd,
				 l->block[0] * (l->block[1] > 0 ? l->block[1] : 1) * (l->block[2] > 0 ? l->block[2] : 1));
		}
		/* the listing keeps the longest: the first k of "longest" (v a kernel's index), the
		 * others summed in "rest" k (its text; v their time) */
		int shown[256] = { 0 };
		for (int q = 0; q <= FD_KERNEL_LINES; q++) {
			double rest = 0;
			size_t nrest = 0;
			for (size_t i = 0; i < nk; i++)
				if (i >= 256 || !shown[i])
					rest += kernel_ns(&r->launches[i]), nrest++;
			if (!figdesc_item(d, "rest", "kernel_ns", r, rest, "the other %zu kernel%s (unnumbered in the strip where "
					  "they are narrow) · %.1f µs (%.0f %%)", nrest, nrest == 1 ? "" : "s", rest / 1e3, 100 * rest / total))
				return -1;
			if (q == FD_KERNEL_LINES)
				break;
			size_t best = nk;
			for (size_t j = 0; j < nk && j < 256; j++)
				if (!shown[j] && (best == nk || kernel_ns(&r->launches[j]) > kernel_ns(&r->launches[best])))
					best = j;
			if (best < nk) {
				shown[best] = 1;
				if (!figdesc_item(d, "longest", "launch", NULL, (double)best, "%s", ""))
					return -1;
			}
		}
	}
	return 0;
}

/* ---- loop-steps ---------------------------------------------------------------------- */

struct steps_var {
	char key[SERIES_KEY];
	const struct variant_desc *v;
	const struct record *r;      /* NULL: not measured at the shape */
	struct loop_plan p;
	int ok;                      /* the plan exists */
};

static void steps_var(const struct rdata *rd, const struct figopts *o, const char *given, const char *def,
		      struct steps_var *sv)
{
	memset(sv, 0, sizeof(*sv));
	sv->r = fig_steps_record(rd, o, given, def, sv->key);
	sv->v = variant_find(sv->key);
	if (!sv->v || !sv->r)
		return;
	const struct attn_shape *s = &sv->r->shape;
	struct tiling t;
	sv->v->tiling(s, rdata_sm_count(rd), &t);
	sv->ok = !loop_plan_init(&sv->p, sv->v, s, &t);
}

/* The steps a row shows at npan panels: the first ones, the return to the first Q block (K/V-outer), the last. */
static int pick_steps(const struct loop_plan *p, int npan, long *out)
{
	long want[4];
	int n = 0;
	want[n++] = 0;
	if (npan >= 4 || !p->kv_outer)
		want[n++] = 1;
	if (p->kv_outer)
		want[n++] = p->tr;  /* back at Q block 1 with the next K/V block: O, m, ℓ read back */
	else if (npan >= 4)
		want[n++] = 2;
	want[n++] = p->steps - 1;
	int m = 0;
	for (int k = 0; k < n; k++)
		if (want[k] < p->steps && (!m || want[k] > out[m - 1]))
			out[m++] = want[k];
	return m;
}

/* A measured quantity of the record as the text prints it ("40.4 KiB"), or -1. */
static double per_step(const struct rdata *rd, const struct steps_var *sv, const char *q, char *txt, size_t len)
{
	double v;
	enum qunit u;
	char why[200];
	if (!sv->r || rdata_quantity(rd, sv->r, q, NULL, &v, &u, why, sizeof(why))) {
		snprintf(txt, len, "not measured");
		return -1;
	}
	fmt_quantity(v, u, NULL, txt, len);
	return v;
}

/* One variant's row as group d->group (figdesc.h). */
static int steps_row(struct figdesc *d, const struct rdata *rd, const struct steps_var *sv)
{
	const struct loop_plan *p = &sv->p;
	char b1[32], b2[32];
	if (!figdesc_item(d, "key", "key", NULL, NAN, "%s", sv->key))
		return -1;
	struct figitem *h = p->kv_outer
		? figdesc_item(d, "head", "head", NULL, p->blocks, "<b>%.95s</b> · K/V outer: %.0f thread blocks, one per head, "
			       "each %ld steps (%ld K/V blocks j, and inside each the %ld Q blocks i); Br×Bc = %d×%d", sv->key,
			       p->blocks, p->steps, p->tc, p->tr, p->t.block_m, p->t.block_n)
		: figdesc_item(d, "head", "head", NULL, p->blocks, "<b>%.95s</b> · Q outer: %.0f thread blocks, one per Q block i "
			       "of a head, each %ld steps (the K/V blocks j); Br×Bc = %d×%d", sv->key, p->blocks, p->steps,
			       p->t.block_m, p->t.block_n);
	if (!h || !figdesc_item(d, "brief", "brief", NULL, p->blocks, "<b>%.95s</b> · %s: %.0f blocks × %ld steps, Br×Bc = %d×%d",
				 sv->key, p->kv_outer ? "K/V outer" : "Q outer", p->blocks, p->steps, p->t.block_m,
				 p->t.block_n))
		return -1;
	/* the buffers: HBM label, the tile's on chip ("Qᵢ", "Kⱼ"; the output and its accumulator one "Oᵢ") */
	for (size_t b = 0; b < p->v->nbuffers; b++) {
		const struct buffer_desc *bd = &p->v->buffers[b];
		struct figitem *it = figdesc_item(d, "buffer", bd->name, NULL, NAN, "%s", bd->label);
		if (!it)
			return -1;
		snprintf(it->label, sizeof it->label, "%s%s", bd->role == ROLE_WORKSPACE ? "O" : bd->label,
			 p->per_query[b] ? "ᵢ" : "ⱼ");
		snprintf(it->state, sizeof it->state, "%s", bd->role == ROLE_INPUT ? "input"
			 : bd->role == ROLE_OUTPUT || bd->role == ROLE_WORKSPACE ? "output" : "other");
	}
	/* the steps drawn at three panels and at four: title, the tiles' bytes, each buffer's io ('0'..'3') */
	for (int npan = 3; npan <= 4; npan++) {
		long steps[4];
		const int n = pick_steps(p, npan, steps);
		for (int k = 0; k < n; k++) {
			struct loop_step st;
			loop_plan_step(p, steps[k], &st);
			struct figitem *it = p->kv_outer
				? figdesc_item(d, npan == 3 ? "step3" : "step4", "step", NULL, steps[k], "step %ld: j=%ld, i=%ld",
					       steps[k] + 1, st.j + 1, st.i + 1)
				: figdesc_item(d, npan == 3 ? "step3" : "step4", "step", NULL, steps[k], "step %ld: j=%ld",
					       steps[k] + 1, st.j + 1);
			if (!it)
				return -1;
			snprintf(it->alt[0], sizeof it->alt[0], "↓ %s  ↑ %s", fmt_bytes(st.read_bytes, b1, sizeof(b1)),
				 fmt_bytes(st.write_bytes, b2, sizeof(b2)));
			for (size_t b = 0; b < p->v->nbuffers && b + 1 < sizeof it->label; b++)
				it->label[b] = (char)('0' + ((st.io[b] & STEP_READ) ? FD_STEP_READ : 0) +
						      ((st.io[b] & STEP_WRITE) ? FD_STEP_WRITE : 0));
		}
	}
	/* bytes per step: the loop's tiles, DRAM and L2 measured (v < 0: not measured) */
	static const char *const q[3] = { "tiles_per_step", "hbm_per_step", "l2_per_step" };
	static const char *const tot[3] = { NULL, "hbm_bytes", "l2_bytes" };
	static const char *const name[3] = { "tiles of the loop", "DRAM measured", "L2 measured" };
	char brief[3][40];
	for (int k = 0; k < 3; k++) {
		char t2[40], t3[40], why[200], val[300];
		const double v = per_step(rd, sv, q[k], brief[k], sizeof(brief[k]));
		snprintf(val, sizeof(val), "%s", brief[k]);
		/* measured: divided by the record's own count of steps (the model's tile pairs) */
		double pairs;
		enum qunit u;
		if (tot[k] && v >= 0 && !rdata_quantity(rd, sv->r, "model", "tile_pairs", &pairs, &u, why, sizeof(why))) {
			per_step(rd, sv, tot[k], t2, sizeof(t2));
			fmt_quantity(pairs, U_INT, NULL, t3, sizeof(t3));
			snprintf(val, sizeof(val), "%s = %s ÷ %s steps", brief[k], t2, t3);
		}
		struct figitem *it = figdesc_item(d, "bytes", q[k], v >= 0 ? sv->r : NULL, v, "%.95s, %s", sv->key, name[k]);
		if (!it)
			return -1;
		snprintf(it->alt[0], sizeof it->alt[0], "%.159s", val);
	}
	return figdesc_item(d, "line", "line", NULL, NAN, "<b>per step</b>: tiles %s · DRAM %s · L2 %s (measured)", brief[0],
			    brief[1], brief[2]) ? 0 : -1;
}

int figdesc_loop_steps(const struct rdata *rd, const struct figopts *o, struct figdesc *d)
{
	struct steps_var sv[2];
	steps_var(rd, o, o->variant, variant_role(DOC_BASELINE), &sv[0]);
	steps_var(rd, o, o->compare, variant_role(DOC_SUBJECT), &sv[1]);
	const struct record *recs[2] = { NULL, NULL };
	size_t nr = 0;
	for (int k = 0; k < 2; k++)
		if (sv[k].r)
			recs[nr++] = sv[k].r;
	if (use_recs(d, recs, nr))
		return -1;
	for (int k = 0; k < 2; k++)
		if (!sv[k].ok) {
			snprintf(d->notice, sizeof d->notice, "no loop steps to draw");
			snprintf(d->notice_why, sizeof d->notice_why, !sv[k].v ? "'%s' has no descriptor"
				 : !sv[k].r ? "no non-causal record of %s at this shape"
				 : "%s has no flash loop to draw", sv[k].key);
			return 0;
		}
	for (int k = 0; k < 2; k++) {
		d->group = k;
		if (steps_row(d, rd, &sv[k]))
			return -1;
	}
	return 0;
}

/* ---- capture-grid ------------------------------------------------------------------- */

int figdesc_capture_grid(const struct rdata *rd, const struct figopts *o, struct figdesc *d)
{
	const struct capgroup *gs[4];
	const int ng = capture_kinds_used(rd, o, d, gs);
	if (ng < 0)
		return -1;
	const int sm = rd->res->header.gpu.hw.sm_count > 0 ? rd->res->header.gpu.hw.sm_count : 1;
	for (int p = 0; p < ng; p++) {
		const struct record *r = gs[p]->rep;
		const struct launch *l = capture_main_launch(r);
		struct gridmap m;
		capture_gridmap(rd, r, l, &m);
		char sh[96], ks[160], sent[400], rule[600];
		capture_shape_text(gs[p], sh, sizeof(sh));
		kernel_short_name(l && l->name ? l->name : "?", ks, sizeof(ks));
		d->group = p;
		/* text first: kind and kernel, the mapping, the rule; "more" where no room is left for this kind and those after */
		if (l)
			gridmap_sentence(l->grid, &m, sent, sizeof(sent));
		else
			snprintf(sent, sizeof(sent), "no kernel recorded");
		snprintf(rule, sizeof(rule), "Rule: %s.", m.rule);
		capture_breakable(rule, sizeof(rule));
		capture_breakable(sent, sizeof(sent));
		struct figitem *st;
		if (!figdesc_item(d, "head", "head", NULL, NAN, "%s at %s — %s", capture_call_kind(r), sh, ks) ||
		    !(st = figdesc_item(d, "sent", "sent", NULL, NAN, "%s", sent)) ||
		    !figdesc_item(d, "rule", "rule", NULL, NAN, "%s", rule) ||
		    !figdesc_item(d, "more", "more", NULL, ng - p, "(%d more kind%s of call not drawn: see the text)", ng - p,
				  ng - p == 1 ? "" : "s"))
			return -1;
		if (m.inferred)
			snprintf(st->state, sizeof st->state, "inferred");
		if (!l)
			continue;
		/* waves: a bar per wave (at most 12 drawn), the last as busy as its share */
		long long blocks = (long long)l->grid[0] * (l->grid[1] > 0 ? l->grid[1] : 1) * (l->grid[2] > 0 ? l->grid[2] : 1);
		int threads = l->block[0] * (l->block[1] > 0 ? l->block[1] : 1) * (l->block[2] > 0 ? l->block[2] : 1);
		int per_sm = blocks_per_sm_from_occupancy(l->theoretical_occupancy, (threads + 31) / 32, 64);
		if (per_sm < 1)
			per_sm = 1;
		double waves = (double)blocks / ((double)sm * per_sm);
		if (!figdesc_item(d, "waves", "waves", r, waves, "%lld blocks, %d per SM (theoretical occupancy %.1f %%) → %.2f waves over %d SMs",
				  blocks, per_sm, 100 * l->theoretical_occupancy, waves, sm))
			return -1;
		/* a grid of 2^31 × 65535 × 65535 blocks is 2^63: counted in 64 bits,
		 * clamped below 2^53 where a double still counts whole waves */
		double wf = isfinite(waves) ? fmin(fmax(waves, 0), 9e15) : 0;
		long long full = (long long)floor(wf), nw = (long long)ceil(wf - 1e-9);
		double last = wf - (double)full;
		int draw = nw > 12 ? 12 : (int)nw;
		char tail[64];
		if (nw > draw && last > 1e-9)
			snprintf(tail, sizeof(tail), "(of %lld) last %.0f %% busy", nw, 100 * last);
		else if (nw > draw)
			snprintf(tail, sizeof(tail), "(of %lld) all full", nw);
		else if (last > 1e-9)
			snprintf(tail, sizeof(tail), "last %.0f %% busy", 100 * last);
		else
			snprintf(tail, sizeof(tail), "all full");
		if (size_part(d, "bars", draw) || size_part(d, "last", last) ||
		    !figdesc_item(d, "tail", "tail", NULL, NAN, "%s", tail))
			return -1;
	}
	return 0;
}

/* ---- warpspec, ws-timeline ------------------------------------------------------ */

/* The shape a warp-specialised view draws: the record's at fig_sel where
 * one is measured, else a typical shape at those conditions. */
static const struct record *ws_shape(const struct rdata *rd, const struct figopts *o, const struct variant_desc *v,
				     struct attn_shape *s)
{
	struct rsel sel;
	fig_sel(rd, o, &sel);
	const struct record *r = rdata_find(rd, v->name, &sel);
	*s = r ? r->shape : fig_typical_shape(&sel, 4);
	return r;
}

static int ws_role(struct figdesc *d, const char *state, int regs, const char *l1, const char *l2)
{
	struct figitem *it = figdesc_item(d, "role", state, NULL, regs, "%s", l1);
	if (!it)
		return -1;
	snprintf(it->state, sizeof it->state, "%s", state);
	snprintf(it->alt[0], sizeof it->alt[0], "%s", l2);
	return 0;
}

int figdesc_warpspec(const struct rdata *rd, const struct figopts *o, struct figdesc *d)
{
	char b1[48], b2[48], l1[200], l2[160]; /* l2: a role's second line, its part's alt[0] */
	const struct variant_desc *v = ws_variant_or_default(o->variant);
	struct attn_shape s;
	const struct record *r = v ? ws_shape(rd, o, v, &s) : NULL;
	if (use_recs(d, &r, r ? 1 : 0))
		return -1;
	struct ws_partition p;
	if (!v || ws_partition_of(v, &s, rdata_sm_count(rd), &p)) {
		snprintf(d->notice, sizeof d->notice, "no warp-specialised variant");
		snprintf(d->notice_why, sizeof d->notice_why, "no descriptor in kernels/variants.c has a ws trait");
		return 0;
	}
	const struct launch *l = r ? record_main_launch(r) : NULL;
	/* the launch as measured, where recorded, over the descriptor's compiled count */
	if (l && l->registers > 0) {
		p.regs_launch = l->registers;
		if (!p.resplit)
			p.regs_producer = p.regs_consumer = l->registers;
		p.regs_total_launch = (long long)p.threads * p.regs_launch;
		if (!p.resplit)
			p.regs_total_split = p.regs_total_launch;
	}
	if (!figdesc_item(d, "head", "threads", NULL, p.threads, "thread block: %d threads, %d query rows", p.threads,
			  p.block_m))
		return -1;
	for (int k = 0; k < p.producers + p.consumers; k++) {
		const int i = k - p.producers;
		if (k < p.producers) {
			snprintf(l1, sizeof(l1), "producer warpgroup: %d threads", p.warpgroup_threads);
			snprintf(l2, sizeof(l2), "%d registers each (setmaxnreg); %d thread issues the TMA loads", p.regs_producer,
				 p.issuing_threads);
		} else {
			snprintf(l1, sizeof(l1), "consumer warpgroup %d: rows %d–%d", i + 1, i * p.rows_per_consumer,
				 (i + 1) * p.rows_per_consumer - 1);
			snprintf(l2, sizeof(l2), "%d registers each%s; S, P and O in registers%s", p.regs_consumer,
				 p.resplit ? " (setmaxnreg)" : "", !p.producers && i == 0 ? "; its thread 0 issues the TMA loads" : "");
		}
		if (ws_role(d, k < p.producers ? "producer" : "consumer", k < p.producers ? p.regs_producer : p.regs_consumer,
			    l1, l2))
			return -1;
	}
	struct figitem *it;
	if (!figdesc_item(d, "smem", "smem_bytes", NULL, (double)p.smem_bytes, "shared memory: %s per block",
			  fmt_bytes((double)p.smem_bytes, b1, sizeof(b1))) ||
	    !(it = figdesc_item(d, "qtile", "Q", NULL, (double)p.q_bytes, "Q tile %d×%d", p.block_m, p.head_dim)))
		return -1;
	snprintf(it->alt[0], sizeof it->alt[0], "%s, 1 full barrier", fmt_bytes((double)p.q_bytes, b1, sizeof(b1)));
	for (int kv = 0; kv < 2; kv++)
		for (int k = 0; k < p.stages; k++) {
			if (!(it = figdesc_item(d, "stage", kv ? "V" : "K", NULL, (double)p.tile_bytes, "%s stage %d", kv ? "V" : "K", k)))
				return -1;
			snprintf(it->alt[0], sizeof it->alt[0], "%s; full + empty", fmt_bytes((double)p.tile_bytes, b2, sizeof(b2)));
		}
	/* who arrives, who waits: loads into the ring, full to the consumers, empty back */
	if (!figdesc_item(d, "arrow", "load", NULL, NAN, "%s", p.producers ? "TMA into the ring" : "TMA (its thread 0)") ||
	    !figdesc_item(d, "arrow", "empty-wait", NULL, NAN, "%s waits: empty", p.producers ? "producer" : "thread 0") ||
	    !figdesc_item(d, "arrow", "full-wait", NULL, NAN, "consumers wait: full") ||
	    !figdesc_item(d, "arrow", "empty-arrive", NULL, p.empty_arrivals, "%d warps arrive: empty", p.empty_arrivals))
		return -1;
	/* the register file of the block, before and after setmaxnreg */
	if (p.resplit)
		snprintf(l1, sizeof(l1), "registers: launched at %d a thread%s (%lld per block); setmaxnreg moves them: "
			 "producer %d, consumers %d (%lld per block)", p.regs_launch,
			 l ? "" : " (descriptor)", p.regs_total_launch, p.regs_producer, p.regs_consumer, p.regs_total_split);
	else
		snprintf(l1, sizeof(l1), "registers: %d a thread for every warpgroup%s (%lld per block), not re-split",
			 p.regs_launch, l ? "" : " (descriptor)", p.regs_total_launch);
	if (!figdesc_item(d, "regs", "regs_total_split", l ? r : NULL, (double)p.regs_total_split, "%s", l1))
		return -1;
	for (int i = 0; i < p.producers + p.consumers; i++) {
		const int prod = i < p.producers;
		if (!(it = figdesc_item(d, "regbar", prod ? "producer" : "consumer", NULL, prod ? p.regs_producer : p.regs_consumer,
					"%s %d", prod ? "producer" : i - p.producers ? "consumer 2" : "consumer 1",
					prod ? p.regs_producer : p.regs_consumer)))
			return -1;
		snprintf(it->state, sizeof it->state, "%s", prod ? "producer" : "consumer");
	}
	if (l && !figdesc_item(d, "launch", "registers", r, l->registers,
			       "measured launch: %d threads, %d registers a thread, %s dynamic shared memory",
			       l->block[0] * (l->block[1] > 0 ? l->block[1] : 1), l->registers,
			       fmt_bytes((double)l->dynamic_smem, b1, sizeof(b1))))
		return -1;
	const long long total = p.regs_total_split > p.regs_total_launch ? p.regs_total_split : p.regs_total_launch;
	if (size_part(d, "producers", p.producers) || size_part(d, "consumers", p.consumers) ||
	    size_part(d, "stages", p.stages) || size_part(d, "warpgroup_threads", p.warpgroup_threads) ||
	    size_part(d, "regs_producer", p.regs_producer) || size_part(d, "regs_consumer", p.regs_consumer) ||
	    size_part(d, "regs_total", (double)total))
		return -1;
	return 0;
}

static int ev_lane(const struct ws_event *e)
{
	if (e->op == SO_LOAD_K || e->op == SO_LOAD_V || e->who < 0)
		return FD_LANE_TMA; /* the producer's waits too (its lane is the TMA unit's) */
	if (e->op == SO_GEMM_QK || e->op == SO_GEMM_PV)
		return FD_LANE_TENSOR;
	return FD_LANE_CONSUMER + (e->who > 0 ? e->who : 0);
}

static void ev_label(const struct ws_event *e, char *buf, size_t len)
{
	static const char *const sub[] = { "₀", "₁", "₂", "₃", "₄", "₅", "₆", "₇", "₈", "₉" };
	const char *n = e->block >= 0 && e->block < 10 ? sub[e->block] : "";
	switch (e->op) {
	case SO_LOAD_K: snprintf(buf, len, "K%s", n); break;
	case SO_LOAD_V: snprintf(buf, len, "V%s", n); break;
	case SO_GEMM_QK: snprintf(buf, len, "QK%s", n); break;
	case SO_GEMM_PV: snprintf(buf, len, "PV%s", n); break;
	case SO_SOFTMAX: snprintf(buf, len, "P%s", n); break;
	default: buf[0] = '\0';
	}
}

int figdesc_ws_spans(struct figdesc *d, const struct ws_timeline *tl)
{
	for (size_t i = 0; i < tl->nev; i++) {
		const struct ws_event *e = &tl->ev[i];
		const int lane = ev_lane(e), wait = sched_op_is_wait(e->op);
		if (wait && lane < FD_LANE_CONSUMER)
			continue; /* a wait of the producer: its lane is the TMA unit's, not drawn */
		if (d->nspans == d->capspans) {
			size_t cap = d->capspans ? d->capspans * 2 : 64;
			struct figspan *sp = realloc(d->span, cap * sizeof(*sp));
			if (!sp)
				return -1;
			d->span = sp;
			d->capspans = cap;
		}
		struct figspan *sp = &d->span[d->nspans++];
		memset(sp, 0, sizeof(*sp));
		*sp = (struct figspan){ .group = d->group, .lane = lane, .op = e->op, .who = e->who, .block = e->block,
					.phase = e->phase, .wait = wait, .t0 = e->t0, .t1 = e->t1 };
		if (!wait)
			ev_label(e, sp->label, sizeof sp->label);
	}
	/* what waits on what, for one middle phase: the hand-over of the turn
	 * (pingpong) and the Q·Kᵀ a softmax waited for (overlap) */
	const int ph = tl->nblocks / 2;
	for (size_t i = 0; i < tl->nlinks; i++) {
		const struct ws_link *k = &tl->link[i];
		if (k->phase != ph || k->from < 0 || (k->wait != SO_TURN_WAIT && k->wait != SO_WAIT_GEMM_QK))
			continue;
		if (d->nlinks == d->caplinks) {
			size_t cap = d->caplinks ? d->caplinks * 2 : 16;
			struct figlink *lk = realloc(d->link, cap * sizeof(*lk));
			if (!lk)
				return -1;
			d->link = lk;
			d->caplinks = cap;
		}
		const int turn = k->wait == SO_TURN_WAIT;
		d->link[d->nlinks++] = (struct figlink){
			.group = d->group, .turn = turn, .t = k->t_from,
			.from_lane = turn ? FD_LANE_CONSUMER + (k->from_who > 0 ? k->from_who : 0) : FD_LANE_TENSOR,
			.to_lane = FD_LANE_CONSUMER + (k->who > 0 ? k->who : 0) };
	}
	/* the lanes' names */
	for (int i = 0; i < FD_LANE_CONSUMER + tl->consumers; i++)
		if (!(i == FD_LANE_TMA ? figdesc_item(d, "lane", "tma", NULL, NAN, "%s", tl->producer ? "TMA (producer)" : "TMA (inline)")
		      : i == FD_LANE_TENSOR ? figdesc_item(d, "lane", "tensor", NULL, NAN, "tensor cores")
					    : figdesc_item(d, "lane", "consumer", NULL, NAN, "consumer %d", i - FD_LANE_CONSUMER + 1)))
			return -1;
	return size_part(d, "end", tl->end) || size_part(d, "nblocks", tl->nblocks) ||
	       size_part(d, "lanes", FD_LANE_CONSUMER + tl->consumers) ? -1 : 0;
}

const struct figspan *figdesc_span_find(const struct figdesc *d, int g, int op, int who, int block)
{
	for (size_t i = 0; i < d->nspans; i++)
		if (d->span[i].group == g && d->span[i].op == op && d->span[i].who == who && d->span[i].block == block)
			return &d->span[i];
	return NULL;
}

/* The rungs of top's ladder that have a ws trait, base first. */
static size_t ws_rungs(const struct variant_desc *top, const struct variant_desc **out, size_t max)
{
	const struct variant_desc *chain[8];
	size_t n = top ? variant_ladder(top, chain, 8, NULL, 0, NULL) : 0, k = 0;
	for (size_t i = 0; i < n && k < max; i++)
		if (chain[i]->ws)
			out[k++] = chain[i];
	if (!k && top && top->ws && max)
		out[k++] = top;
	return k;
}

/* A rung's measurement, from the ablation table's row of it (the cells the
 * ladder table prints): "measured" (its median in µs) and "step" parts;
 * meas its text. */
static int ws_measured(struct figdesc *d, const struct rdata *rd, const struct dtable *T, const struct variant_desc *v,
		       char *meas, size_t len)
{
	for (int i = 0; T && i < T->nrows; i++) {
		if (strcmp(T->cell[i][0], v->name))
			continue;
		const struct record *r = T->rec[i][0], *prev = T->rec[i][1];
		double t = NAN, tp = NAN;
		if (r && figdesc_value(rd, r, "run_time_us", NULL, &t))
			t = NAN;
		if (prev && figdesc_value(rd, prev, "run_time_us", NULL, &tp))
			tp = NAN;
		if (T->cell[i][5][0])
			snprintf(meas, len, "measured %s ms, step %s over %s", T->cell[i][2], T->cell[i][5],
				 v->parent ? v->parent : "the rung before");
		else
			snprintf(meas, len, "measured %s ms", T->cell[i][2]);
		if (!figdesc_item(d, "measured", "run_time_us", isfinite(t) ? r : NULL, t, "%s", T->cell[i][2]) ||
		    (T->cell[i][5][0] && !figdesc_item(d, "step", "step", isfinite(t) && isfinite(tp) ? r : NULL,
						       isfinite(t) && isfinite(tp) && t > 0 ? tp / t : NAN, "%s", T->cell[i][5])))
			return -1;
		return 0;
	}
	snprintf(meas, len, "not measured at these conditions");
	return 0;
}

int figdesc_ws_timeline(const struct rdata *rd, const struct figopts *o, struct figdesc *d)
{
	const struct variant_desc *top = ws_ladder_top(o->variant), *rung[8];
	size_t nr = ws_rungs(top, rung, 8);
	/* the measured numbers: the ablation table of this ladder, under the figure's conditions */
	struct figopts oa = *o;
	if (top)
		snprintf(oa.variant, sizeof(oa.variant), "%s", top->name);
	struct dtable *T = top ? table_build(rd, table_find("ablation"), &oa) : NULL;
	struct rsel as;
	ablation_sel(rd, &oa, &as);
	const struct record *recs[8];
	size_t nrec = 0;
	for (size_t i = 0; i < nr; i++) {
		const struct record *r = rdata_find(rd, rung[i]->name, &as);
		if (r)
			recs[nrec++] = r;
	}
	struct ws_timeline *tl = malloc(sizeof(*tl));
	int rc = !tl || use_recs(d, recs, nrec) ? -1 : 0;
	d->one_run = 1; /* the measurements: the ablation table's rungs, of one run (ablation_run) */
	if (!rc && !nr) {
		snprintf(d->notice, sizeof d->notice, "no warp-specialised ladder");
		snprintf(d->notice_why, sizeof d->notice_why, "no descriptor in kernels/variants.c has a schedule table");
	}
	/* a build: step k draws rung k beside the one before it */
	size_t from = 0, to = nr;
	if (o->step > 0) {
		to = (size_t)o->step < nr ? (size_t)o->step : nr;
		from = to > 1 ? to - 2 : 0;
	}
	const int hd = as.d > 0 ? as.d : 128;
	for (size_t i = from; !rc && !d->notice[0] && i < to; i++)
		if (ws_timeline_build(tl, rung[i]->ws, rung[i]->rung, hd, 4, NULL)) {
			snprintf(d->notice, sizeof d->notice, "the schedule table does not run");
			snprintf(d->notice_why, sizeof d->notice_why, "a wait in kernels/variants.c's schedule is never satisfied");
		} else {
			char meas[150], head[400]; /* meas: with the rung's name, the head's alt[0] */
			d->group = (int)(i - from);
			rc = ws_measured(d, rd, T, rung[i], meas, sizeof meas) || figdesc_ws_spans(d, tl) ? -1 : 0;
			/* the rung, what it changes and its measured step; shorter where that does not fit one line */
			snprintf(head, sizeof(head), "%s%s%s: %s", rung[i]->name, rung[i]->change ? " — " : "",
				 rung[i]->change ? rung[i]->change : "", meas);
			struct figitem *it = rc ? NULL : figdesc_item(d, "head", rung[i]->name, NULL, NAN, "%s", head);
			if (!it)
				rc = -1;
			else
				snprintf(it->alt[0], sizeof it->alt[0], "%s: %s", rung[i]->name, meas);
		}
	free(tl);
	table_free(T);
	if (rc || d->notice[0])
		return rc;
	/* the key under the panels: a document's, a slide's */
	struct ws_lengths wl;
	ws_lengths_default(&wl);
	d->group = 0;
	if (!figdesc_item(d, "key", "document", NULL, NAN,
			  "The implemented schedule, not a measured trace: order and waits are the kernel's "
			  "loop (its descriptor's schedule table), lengths schematic (load %g, GEMM %g, softmax %g); the times "
			  "printed are measured. QKⱼ: S = Q·Kⱼᵀ · PVⱼ: O += Pⱼ·Vⱼ on the tensor cores, in the colour of the "
			  "consumer that issued it · Pⱼ: that consumer's softmax of block j · Kⱼ, Vⱼ: TMA loads · hatched: "
			  "the consumer waits · arrows: a turn handed over (named barrier) and the Q·Kᵀ a softmax waits for "
			  "(wait_group 1).", wl.load, wl.gemm, wl.softmax) ||
	    !figdesc_item(d, "key", "slides", NULL, NAN, "%s",
			  "The kernel's order and waits with schematic lengths: not a measured trace. "
			  "QK, PV: GEMMs in the colour of the consumer that issued them · P: its softmax · hatched: waiting"))
		return -1;
	return 0;
}

int figdesc_ws_loop(const struct rdata *rd, const struct figopts *o, struct figdesc *d)
{
	const struct variant_desc *v = ws_variant_or_default(o->variant);
	struct attn_shape s;
	struct ws_timeline *tl = malloc(sizeof(*tl));
	if (!tl)
		return -1;
	int rc = 0;
	if (!v || (ws_shape(rd, o, v, &s), ws_timeline_build(tl, v->ws, v->rung, s.head_dim, 4, NULL))) {
		snprintf(d->notice, sizeof d->notice, "no schedule");
		snprintf(d->notice_why, sizeof d->notice_why, "no descriptor has a schedule table");
	} else
		rc = figdesc_ws_spans(d, tl);
	free(tl);
	return rc;
}

/* ---- tiling, loop-order ------------------------------------------------------------ */

/* A part with a two-line label: text the first line, alt[0] the second. */
static struct figitem *two_lines(struct figdesc *d, const char *role, const char *name, const struct record *rec, double v,
				 const char *l1, const char *l2)
{
	struct figitem *it = figdesc_item(d, role, name, rec, v, "%s", l1);
	if (it)
		snprintf(it->alt[0], sizeof it->alt[0], "%s", l2);
	return it;
}

/* standard's build: Q K S P V O in HBM (S and P sized by the record's
 * allocation, else the descriptor's), the three kernels under them. */
static int tiling_standard(struct figdesc *d, const struct variant_desc *v, const struct pview *tv)
{
	static const char *const names[6] = { "Q", "K", "S", "P", "V", "O" };
	char b1[32], b2[64];
	for (int i = 0; i < 6; i++) {
		const int big = i == 2 || i == 3;
		const double *a = big && tv->r ? kvlist_get(&tv->r->allocs, names[i]) : NULL;
		double bytes = a ? *a : 0;
		if (big && !a)
			for (size_t k = 0; k < v->nbuffers; k++)
				if (!strcmp(v->buffers[k].name, names[i]))
					bytes = (double)buffer_bytes(&v->buffers[k], &tv->s, &tv->t);
		if (big)
			snprintf(b2, sizeof b2, "N×N · %s", fmt_bytes(bytes, b1, sizeof b1));
		else
			snprintf(b2, sizeof b2, "N×d");
		struct figitem *it = two_lines(d, "hbm", names[i], a ? tv->r : NULL, big ? bytes : NAN, names[i], b2);
		if (!it)
			return -1;
		snprintf(it->state, sizeof it->state, "%s", big ? "stored" : "input");
	}
	static const char *const kn[3] = { "GEMM", "softmax", "GEMM" };
	static const char *const kd[3] = { "S = Q·Kᵀ", "P = softmax(S)", "O = P·V" };
	for (int k = 0; k < 3; k++)
		if (!two_lines(d, "kernel", kn[k], NULL, NAN, kn[k], kd[k]))
			return -1;
	return figdesc_item(d, "foot", "foot", NULL, NAN, "each kernel reads its inputs from HBM and writes its whole output back")
		       ? 0 : -1;
}

int figdesc_tiling(const struct rdata *rd, const struct figopts *o, struct figdesc *d)
{
	char key[SERIES_KEY], l2[64];
	fig_series(rd, o->variant, variant_role(DOC_SUBJECT), key);
	struct pview tv;
	const struct variant_desc *v = teach_view(rd, o, key, &tv);
	if (!v) {
		snprintf(d->notice, sizeof d->notice, "no data flow to draw");
		snprintf(d->notice_why, sizeof d->notice_why, "the variant has no descriptor in kernels/variants.c");
		return 0;
	}
	if (use_recs(d, &tv.r, tv.r ? 1 : 0) || !figdesc_item(d, "heading", "hbm", NULL, NAN, "HBM"))
		return -1;
	if (variant_stores(v, "S")) {
		struct figitem *m = figdesc_item(d, "mode", "standard", NULL, NAN, "%s", "");
		if (!m)
			return -1;
		snprintf(m->state, sizeof m->state, "standard");
		return tiling_standard(d, v, &tv);
	}
	struct figitem *m = figdesc_item(d, "mode", "tiled", NULL, NAN, "%s", "");
	if (!m || !figdesc_item(d, "heading", "chip", NULL, NAN, "on chip"))
		return -1;
	snprintf(m->state, sizeof m->state, "tiled");
	const int step = o->step > 0 && o->step < 5 ? o->step : 5;
	const int br = tv.t.block_m, bc = tv.t.block_n, hd = tv.s.head_dim, n = tv.s.seqlen_kv;
	const int tc = bc > 0 ? (n + bc - 1) / bc : 0;
	static const char *const names[4] = { "Q", "K", "V", "O" };
	for (int i = 0; i < 4; i++)
		if (!two_lines(d, "hbm", names[i], NULL, NAN, names[i], "N×d"))
			return -1;
	/* the tiles on chip: Qᵢ, Kⱼ, Vⱼ, then Sᵢⱼ, m and ℓ, Oᵢ */
	struct figitem *it;
	snprintf(l2, sizeof l2, "%d×%d", br, hd);
	if (!(it = two_lines(d, "tile", "Q_i", NULL, br, "Qᵢ", l2)))
		return -1;
	snprintf(it->alt[1], sizeof it->alt[1], "load once");
	snprintf(l2, sizeof l2, "%d×%d", bc, hd);
	if (!two_lines(d, "tile", "K_j", NULL, bc, "Kⱼ", l2) || !two_lines(d, "tile", "V_j", NULL, bc, "Vⱼ", l2))
		return -1;
	snprintf(l2, sizeof l2, "%d×%d", br, bc);
	if (!two_lines(d, "tile", "S_ij", NULL, br, "Sᵢⱼ = QᵢKⱼᵀ", l2) ||
	    !two_lines(d, "tile", "m_l", NULL, NAN, "running max mᵢ", "running sum ℓᵢ"))
		return -1;
	snprintf(l2, sizeof l2, "%d×%d", br, hd);
	if (!two_lines(d, "tile", "O_i", NULL, br, "Oᵢ", l2) ||
	    !figdesc_item(d, "loop", "blocks", NULL, tc, "j = 1 … %d", tc))
		return -1;
	/* what the newest step does, under the chip */
	static const char *const notes[6] = {
		"", "a block of query rows Qᵢ is loaded once and stays on chip",
		"the key and value blocks Kⱼ, Vⱼ stream past it, one block at a time",
		"the score tile Sᵢⱼ exists only on chip: S is never written to HBM",
		"each row keeps a running max mᵢ and a running sum ℓᵢ of exp(s − mᵢ)",
		"Oᵢ ← exp(m_old − m)·Oᵢ + exp(Sᵢⱼ − m)·Vⱼ, written once at the end as Oᵢ / ℓᵢ" };
	if (!figdesc_item(d, "note", "note", NULL, step, "%s", notes[step]) || size_part(d, "step", step) ||
	    size_part(d, "Br", br) || size_part(d, "Bc", bc) || size_part(d, "d", hd) || size_part(d, "Tc", tc))
		return -1;
	return 0;
}

/* One variant's loops (group g): K/V-outer round-trips O, m and ℓ through
 * HBM every step; Q-outer keeps them in registers. */
static int loop_group(struct figdesc *d, const struct variant_desc *v, const struct pview *tv)
{
	const int kv_outer = v->loop == LOOP_KV_OUTER;
	const int tr = (tv->s.seqlen_q + tv->t.block_m - 1) / tv->t.block_m;
	const int tc = (tv->s.seqlen_kv + tv->t.block_n - 1) / tv->t.block_n;
	char b1[32];
	if (!figdesc_item(d, "name", v->name, NULL, NAN, "%s", v->name) || size_part(d, "Tr", tr) || size_part(d, "Tc", tc))
		return -1;
	struct figitem *it[5] = { NULL };
	if (kv_outer) {
		it[0] = figdesc_item(d, "outer", "kv", NULL, tc, "for each K/V block j (%d)", tc);
		it[1] = figdesc_item(d, "inner", "q", NULL, tr, "for each Q block i (%d)", tr);
		it[2] = figdesc_item(d, "body", "read", NULL, NAN, "read Qᵢ, Oᵢ, mᵢ, ℓᵢ from HBM");
		it[3] = figdesc_item(d, "body", "update", NULL, NAN, "update with Kⱼ, Vⱼ");
		it[4] = figdesc_item(d, "body", "write", NULL, NAN, "write Oᵢ, mᵢ, ℓᵢ back to HBM");
		if (it[2])
			snprintf(it[2]->state, sizeof it[2]->state, "hbm"); /* the round trips through HBM */
		if (it[4])
			snprintf(it[4]->state, sizeof it[4]->state, "hbm");
	} else {
		/* what the descriptor stores at the end: logsumexp L (a single rescale), or m and ℓ */
		int lse = 0;
		for (size_t i = 0; i < v->nbuffers; i++)
			lse |= !strcmp(v->buffers[i].name, "L");
		it[0] = figdesc_item(d, "outer", "q", NULL, tr, "for each Q block i (%d per head)", tr);
		it[1] = figdesc_item(d, "pre", "pre", NULL, NAN, "load Qᵢ; Oᵢ, mᵢ, ℓᵢ in registers");
		it[2] = figdesc_item(d, "inner", "kv", NULL, tc, "for each K/V block j (%d)", tc);
		it[3] = figdesc_item(d, "body", "load", NULL, NAN, "load Kⱼ, Vⱼ");
		it[4] = figdesc_item(d, "body", "update", NULL, NAN, "update Oᵢ, mᵢ, ℓᵢ in registers");
		if (it[4] && !figdesc_item(d, "post", "post", NULL, NAN, "%s",
					   lse ? "write Oᵢ and logsumexp Lᵢ once" : "write Oᵢ, mᵢ, ℓᵢ once"))
			return -1;
	}
	for (int k = 0; k < 5; k++)
		if (!it[k])
			return -1;
	/* the measured DRAM traffic under the loops */
	const double tot = tv->r ? record_hbm_bytes(tv->r) : -1;
	if (tot > 0 && !figdesc_item(d, "traffic", "hbm_bytes", tv->r, tot, "measured DRAM traffic %s",
				     fmt_bytes(tot, b1, sizeof b1)))
		return -1;
	return 0;
}

int figdesc_loop_order(const struct rdata *rd, const struct figopts *o, struct figdesc *d)
{
	char key[2][SERIES_KEY];
	fig_pair(rd, o, DOC_BASELINE, key[0], key[1]);
	struct pview tv[2];
	const struct variant_desc *v[2] = { teach_view(rd, o, key[0], &tv[0]), teach_view(rd, o, key[1], &tv[1]) };
	const struct record *recs[2];
	size_t nr = 0;
	for (int i = 0; i < 2; i++)
		if (tv[i].r)
			recs[nr++] = tv[i].r;
	if (use_recs(d, recs, nr))
		return -1;
	if (!v[0] || !v[1] || v[0]->loop == LOOP_NONE || v[1]->loop == LOOP_NONE) {
		snprintf(d->notice, sizeof d->notice, "no loop order to draw");
		snprintf(d->notice_why, sizeof d->notice_why, "both variants must be flash-template variants with a descriptor");
		return 0;
	}
	for (int i = 0; i < 2; i++) {
		d->group = i;
		if (loop_group(d, v[i], &tv[i]))
			return -1;
	}
	return 0;
}
