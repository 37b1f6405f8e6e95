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

/* The captured call's HBM column (Q, K, V, S/P or dS/dP, O or dQ, L), its
 * on-chip column (longest kernel, what happened to S and P, the matrices
 * the verdict counted, the family), the DRAM and L2 traffic between them
 * and the rule that decided, all of one record: the last call of the
 * group capture_figure_group picks. */
int figdesc_capdataflow(const struct rdata *rd, const struct figopts *o, struct figdesc *d)
{
	const struct capimpl *im = capture_figure_impl(rd, o);
	const struct capgroup *g = im ? capture_figure_group(rd, im, o) : NULL;
	if (!g) {
		snprintf(d->notice, sizeof d->notice, "no captured call");
		snprintf(d->notice_why, sizeof d->notice_why, "record one with 'attnprof record -o FILE -- CMD'");
		return 0;
	}
	const struct record *r = g->rep;
	capture_conditions(rd, &r, 1, d->cond, sizeof d->cond);
	d->used = malloc(sizeof(*d->used));
	if (!d->used)
		return -1;
	d->used[0] = r;
	d->nused = d->capused = 1;
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
