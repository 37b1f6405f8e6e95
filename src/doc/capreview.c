/* capreview.c: captured calls as implementations, beside the references; see capreview.h. */
#include "doc/capreview.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture/family.h"
#include "capture/verdict.h"
#include "doc/figdesc.h"
#include "doc/geom.h"
#include "doc/kernel_name.h"
#include "metric_sets.h"
#include "util/error.h"
#include "util/ustr.h"
#include "util/yamltree.h"

/* text appended to a fixed buffer */
/* text into a fixed buffer through ustr: a cut falls at a character, marked "…" */
struct tb {
	char *p;
	size_t len, u;
	int cut;
};
static void tb_add(struct tb *b, const char *fmt, ...) ATTNPROF_PRINTF(2, 3);
static void tb_add(struct tb *b, const char *fmt, ...)
{
	if (!b->len || b->u >= b->len)
		return;
	struct ustr u = { b->p, b->len, b->u, b->cut };
	va_list ap;
	va_start(ap, fmt);
	ustr_vaddf(&u, fmt, ap);
	va_end(ap);
	b->u = u.len;
	b->cut = u.cut;
}

static int is_capture(const struct record *r) { return r->source && !strcmp(r->source, "capture"); }
static int is_decode(const struct record *r) { return r->shape.phase == PHASE_DECODE; }
static int is_bwd(const struct record *r) { return r->shape.pass == PASS_BWD; }
static int known(const struct record *r) { return !r->capture || r->capture->shape_known; }
static double l2_of(const struct rdata *rd) { return (double)rd->res->header.gpu.hw.l2_bytes; }

static int same_group(const struct record *a, const struct record *b)
{
	if (a->shape.phase != b->shape.phase || a->shape.pass != b->shape.pass)
		return 0;
	if (known(a) != known(b))
		return 0;
	if (!known(a))
		return 1;
	return a->shape.batch == b->shape.batch && a->shape.heads == b->shape.heads && a->shape.kv_heads == b->shape.kv_heads &&
	       a->shape.seqlen_q == b->shape.seqlen_q && a->shape.head_dim == b->shape.head_dim && !!a->shape.causal == !!b->shape.causal &&
	       a->shape.dtype == b->shape.dtype &&
	       (is_decode(a) || a->shape.seqlen_kv == b->shape.seqlen_kv);
}

/* one more element of an array that grows by doubling (0: out of memory, said) */
static void *grow(void *p, size_t *cap, size_t need, size_t each)
{
	if (need <= *cap)
		return p;
	size_t c = *cap ? *cap * 2 : 8;
	while (c < need)
		c *= 2;
	void *q = realloc(p, c * each);
	if (!q) {
		error("out of memory listing the captured implementations");
		return NULL;
	}
	*cap = c;
	return q;
}

void capture_impls_free(struct capimpl *all, size_t n)
{
	for (size_t i = 0; all && i < n; i++)
		free(all[i].g);
	free(all);
}

struct capimpl *capture_impls(const struct rdata *rd, size_t *nout)
{
	struct capimpl *out = NULL;
	size_t n = 0, cap = 0;
	*nout = 0;
	for (size_t i = 0; i < rd->res->nrecords; i++) {
		const struct record *r = &rd->res->records[i];
		if (!is_capture(r) || r->error)
			continue;
		char key[SERIES_KEY];
		record_series(r, key, sizeof(key));
		struct capimpl *im = NULL;
		for (size_t k = 0; k < n; k++)
			if (!strcmp(out[k].key, key))
				im = &out[k];
		if (!im) {
			struct capimpl *o2 = grow(out, &cap, n + 1, sizeof(*out));
			if (!o2)
				goto oom;
			out = o2;
			im = &out[n++];
			memset(im, 0, sizeof(*im));
			snprintf(im->key, sizeof(im->key), "%s", key);
			im->variant = r->variant;
			im->family = r->capture ? r->capture->family : NULL;
		}
		im->ncalls++;
		struct capgroup *g = NULL;
		for (size_t k = 0; k < im->ng; k++)
			if (same_group(im->g[k].rep, r))
				g = &im->g[k];
		if (!g) {
			struct capgroup *g2 = grow(im->g, &im->gcap, im->ng + 1, sizeof(*im->g));
			if (!g2)
				goto oom;
			im->g = g2;
			g = &im->g[im->ng++];
			memset(g, 0, sizeof(*g));
			g->nkv_min = g->nkv_max = r->shape.seqlen_kv;
			g->t_min = g->t_max = r->time_ms;
			g->err_min = INFINITY;
			g->err_max = -INFINITY;
		}
		g->rep = r;
		g->ncalls++;
		if (r->shape.seqlen_kv < g->nkv_min) g->nkv_min = r->shape.seqlen_kv;
		if (r->shape.seqlen_kv > g->nkv_max) g->nkv_max = r->shape.seqlen_kv;
		if (r->time_ms < g->t_min) g->t_min = r->time_ms;
		if (r->time_ms > g->t_max) g->t_max = r->time_ms;
		if (r->checked) {
			g->checked++;
			g->incorrect += !r->correct;
			if (r->rel_l2_err < g->err_min) g->err_min = r->rel_l2_err;
			if (r->rel_l2_err > g->err_max) g->err_max = r->rel_l2_err;
		}
	}
	*nout = n;
	return out;
oom:
	capture_impls_free(out, n);
	return NULL;
}

/* the list capture_impl and capture_figure_impl point into: static, valid
 * until the next call; the same records give the same list at the same
 * addresses (rewritten in place), so a pointer held across a call over the
 * same rdata stays valid, as with a fixed array */
static const struct capimpl *held_list(const struct rdata *rd, size_t *n)
{
	static struct capimpl *held;
	static size_t nheld;
	size_t nw;
	struct capimpl *w = capture_impls(rd, &nw);
	int same = w && nw == nheld;
	for (size_t i = 0; same && i < nw; i++)
		same = w[i].ng == held[i].ng;
	if (same) {
		for (size_t i = 0; i < nw; i++) {
			struct capgroup *g = held[i].g;
			size_t gcap = held[i].gcap;
			memcpy(g, w[i].g, w[i].ng * sizeof(*g));
			held[i] = w[i];
			held[i].g = g;
			held[i].gcap = gcap;
		}
		capture_impls_free(w, nw);
	} else {
		capture_impls_free(held, nheld);
		held = w;
		nheld = nw;
	}
	*n = nheld;
	return held;
}

const struct capimpl *capture_impl(const struct rdata *rd, const char *key)
{
	size_t n;
	const struct capimpl *all = held_list(rd, &n);
	for (size_t i = 0; i < n; i++)
		if (!strcmp(all[i].key, key))
			return &all[i];
	return NULL;
}

const char *capture_ordinal(const struct rdata *rd, const char *key, char *buf, size_t len)
{
	static const char *const words[] = { "first", "second", "third", "fourth", "fifth",
					     "sixth", "seventh", "eighth", "ninth", "tenth" };
	size_t n, i;
	struct capimpl *all = capture_impls(rd, &n);
	for (i = 0; i < n && strcmp(all[i].key, key); i++)
		;
	capture_impls_free(all, n);
	if (i < sizeof(words) / sizeof(*words))
		snprintf(buf, len, "%s", words[i]);
	else
		ustr_ordinal(buf, len, (unsigned long)i + 1);
	return buf;
}

const char *const *capture_reference_variants(const struct record *rec, size_t *n)
{
	/* the descriptors' conventional and subject variants (decode's for a decode call) */
	static const char *prefill[2], *decode[2];
	prefill[0] = variant_role(DOC_CONVENTIONAL);
	prefill[1] = variant_role(DOC_SUBJECT);
	decode[0] = variant_role(DOC_DECODE_BASELINE);
	decode[1] = variant_role(DOC_DECODE_SUBJECT);
	*n = 2;
	return rec && is_decode(rec) ? decode : prefill;
}

const struct record *capture_reference(const struct rdata *rd, const struct record *rec, const char *variant)
{
	if (!known(rec))
		return NULL;
	/* attnprof's own record of the call's whole identity */
	struct rsel s;
	rsel_any(&s);
	s.pass = rec->shape.pass;
	s.batch = rec->shape.batch;
	s.heads = rec->shape.heads;
	s.kv_heads = rec->shape.kv_heads;
	s.nq = rec->shape.seqlen_q;
	s.n = rec->shape.seqlen_kv;
	s.d = rec->shape.head_dim;
	s.causal = !!rec->shape.causal;
	s.dtype = rec->shape.dtype;
	const struct record *r = rdata_find(rd, variant, &s);
	return r && !r->error ? r : NULL;
}

const struct launch *capture_main_launch(const struct record *rec)
{
	/* the longest kernel that computes attention (fused) or a product of it (GEMM);
	 * an elementwise copy or mask kernel says nothing of the partition */
	const struct launch *best = NULL;
	double bt = -1;
	for (int pass = 0; pass < 2 && !best; pass++)
		for (size_t i = 0; i < rec->nlaunches; i++) {
			const struct launch *l = &rec->launches[i];
			const struct family_rule *fr = l->name ? family_of_kernel(l->name) : NULL;
			const char *role = fr ? fr->role : "";
			if (pass == 0 && strcmp(role, "fused") && strcmp(role, "gemm"))
				continue;
			const double *d = kvlist_get(&l->metrics, M_DURATION);
			double t = d ? *d : l->duration_ns;
			if (!best || t > bt) {
				best = l;
				bt = t;
			}
		}
	return best ? best : record_main_launch(rec);
}

void capture_gridmap(const struct rdata *rd, const struct record *rec, const struct launch *l, struct gridmap *m)
{
	static const int one[3] = { 1, 1, 1 };
	gridmap_infer(l ? l->grid : one, known(rec) ? &rec->shape : NULL, rd->res->header.gpu.hw.sm_count, m);
}

static const char *seqlen_text(int n, char *buf, size_t len)
{
	if (n >= 1024 && n % 1024 == 0)
		snprintf(buf, len, "%dk", n / 1024);
	else
		snprintf(buf, len, "%d", n);
	return buf;
}

const char *capture_shape_text(const struct capgroup *g, char *buf, size_t len)
{
	const struct record *r = g->rep;
	if (!known(r)) {
		snprintf(buf, len, "shape unknown");
		return buf;
	}
	char h[24], a[16], b[16];
	if (r->shape.kv_heads != r->shape.heads)
		snprintf(h, sizeof(h), "H=%d/%d", r->shape.heads, r->shape.kv_heads);
	else
		snprintf(h, sizeof(h), "H=%d", r->shape.heads);
	if (is_decode(r)) {
		if (g->nkv_min != g->nkv_max)
			snprintf(buf, len, "B=%d %s q=%d kv=%d to %d d=%d%s", r->shape.batch, h, r->shape.seqlen_q, g->nkv_min, g->nkv_max,
				 r->shape.head_dim, r->shape.causal ? " causal" : "");
		else
			snprintf(buf, len, "B=%d %s q=%d kv=%d d=%d%s", r->shape.batch, h, r->shape.seqlen_q, g->nkv_min, r->shape.head_dim,
				 r->shape.causal ? " causal" : "");
	} else if (r->shape.seqlen_q != r->shape.seqlen_kv) {
		snprintf(buf, len, "B=%d %s Nq=%s Nkv=%s d=%d%s", r->shape.batch, h, seqlen_text(r->shape.seqlen_q, a, sizeof(a)),
			 seqlen_text(r->shape.seqlen_kv, b, sizeof(b)), r->shape.head_dim, r->shape.causal ? " causal" : "");
	} else {
		snprintf(buf, len, "B=%d %s N=%s d=%d%s", r->shape.batch, h, seqlen_text(r->shape.seqlen_kv, a, sizeof(a)), r->shape.head_dim,
			 r->shape.causal ? " causal" : "");
	}
	return buf;
}

const char *capture_verdict_text(const struct rdata *rd, const struct record *rec, char *buf, size_t len)
{
	(void)rd; /* the verdict is the record's own, resolved at load (records_resolve) */
	int bwd = is_bwd(rec);
	const char *a = record_verdict_of(rec, bwd ? "dS" : "S");
	const char *b = record_verdict_of(rec, bwd ? "dP" : "P");
	const char *na = bwd ? "dS" : "S", *nb = bwd ? "dP" : "P";
	if (!strcmp(a, "unknown"))
		snprintf(buf, len, "unknown");
	else if (!strcmp(a, b))
		snprintf(buf, len, "%s%s%s %s", na, !strcmp(a, "stored") ? " and " : ", ", nb, a);
	else
		snprintf(buf, len, "%s %s, %s %s", na, a, nb, b);
	return buf;
}

const char *capture_rule_text(const char *rule)
{
	if (!rule) return "no rule";
	if (!strcmp(rule, "dram-writes")) return "DRAM writes (the matrix is larger than twice the L2)";
	if (!strcmp(rule, "l2-writes")) return "L2 writes from the SMs (the matrix fits in the L2)";
	if (!strcmp(rule, "footprint")) return "memory allocated beyond the inputs (no counters)";
	if (!strcmp(rule, "family")) return "the implementation family (traffic cannot decide at this size)";
	if (!strcmp(rule, "descriptor")) return "attnprof's descriptor of the variant (traffic cannot decide at this size)";
	if (!strcmp(rule, "too-small")) return "none: traffic cannot decide and the family is unknown";
	return "none: the shape is unknown";
}

/* The largest write of one kernel of the call, by the rule's measure (-1: none). */
static double max_kernel_write(const struct record *r, const char *rule)
{
	double best = -1;
	if (!rule)
		return -1;
	if (!strcmp(rule, "footprint"))
		return r->capture ? r->capture->footprint_bytes : -1;
	for (size_t i = 0; i < r->nlaunches; i++) {
		const struct launch *l = &r->launches[i];
		const double *v = kvlist_get(&l->metrics, !strcmp(rule, "dram-writes") ? M_DRAM_WRITE : M_L2_WRITE_SECT);
		if (!v)
			continue;
		double b = !strcmp(rule, "dram-writes") ? *v : *v * 32.0;
		if (b > best)
			best = b;
	}
	return best;
}

/* "N = 1k–8k" or "kv = 513–519" over groups */
static void range_text(struct tb *b, const char *what, int lo, int hi, int k)
{
	char x[16], y[16];
	if (lo == hi)
		tb_add(b, "%s = %s", what, k ? seqlen_text(lo, x, sizeof(x)) : (snprintf(x, sizeof(x), "%d", lo), x));
	else if (k)
		tb_add(b, "%s = %s to %s", what, seqlen_text(lo, x, sizeof(x)), seqlen_text(hi, y, sizeof(y)));
	else
		tb_add(b, "%s = %d to %d", what, lo, hi);
}

static const char *bytes_text(double v, char *buf, size_t len) { return fmt_bytes(v, buf, len); }

/* Q1: what is no longer stored, pass by pass and rule by rule. */
static void answer_stored(const struct rdata *rd, const struct capimpl *im, struct tb *b)
{
	int said = 0;
	for (int pass = 0; pass < 2; pass++)
		for (int dec = 0; dec < 2; dec++) {
			/* clusters of groups by (rule, verdict) */
			char done[im->ng ? im->ng : 1];
			memset(done, 0, sizeof(done));
			for (size_t i = 0; i < im->ng; i++) {
				const struct record *r = im->g[i].rep;
				if (done[i] || is_bwd(r) != pass || is_decode(r) != dec)
					continue;
				const char *rule = r->verdict_rule;
				char v[64];
				capture_verdict_text(rd, r, v, sizeof(v));
				int lo = INT32_MAX, hi = 0, calls = 0;
				double wlo = INFINITY, whi = -1, nlo = INFINITY, nhi = 0;
				for (size_t j = i; j < im->ng; j++) {
					const struct record *s = im->g[j].rep;
					const char *rule2 = s->verdict_rule;
					char v2[64];
					if (done[j] || is_bwd(s) != pass || is_decode(s) != dec)
						continue;
					if (strcmp(rule2, rule) || strcmp(capture_verdict_text(rd, s, v2, sizeof(v2)), v))
						continue;
					done[j] = 1;
					calls += im->g[j].ncalls;
					int klo = dec ? im->g[j].nkv_min : s->shape.seqlen_kv, khi = dec ? im->g[j].nkv_max : s->shape.seqlen_kv;
					if (klo < lo) lo = klo;
					if (khi > hi) hi = khi;
					double w = max_kernel_write(s, rule2), nn = verdict_nn_bytes(s);
					if (w >= 0 && w < wlo) wlo = w;
					if (w > whi) whi = w;
					if (nn < nlo) nlo = nn;
					if (nn > nhi) nhi = nn;
				}
				tb_add(b, "%s%s %s, ", said ? " " : "", pass ? "Backward" : "Forward",
				       !known(r) ? "(phase unknown)" : dec ? "decode" : "prefill");
				if (!known(r)) {
					tb_add(b, "shape unknown (%d call%s): no verdict, the matrix size is not known.", calls,
					       calls == 1 ? "" : "s");
					said = 1;
					continue;
				}
				range_text(b, dec ? "kv" : "N", lo, hi, !dec);
				tb_add(b, " (%d call%s): %s", calls, calls == 1 ? "" : "s", v);
				char x[32], y[32], z[32], w2[32];
				if (!strcmp(rule, "dram-writes") || !strcmp(rule, "l2-writes") || !strcmp(rule, "footprint")) {
					const char *what = !strcmp(rule, "dram-writes") ? "to DRAM" : !strcmp(rule, "l2-writes")
							 ? "through the L2" : "beyond its inputs (allocated)";
					if (whi >= 0)
						tb_add(b, " — the largest write of one kernel %s was %s%s%s against %s%s%s for one "
						       "Nq × Nkv matrix (stored: ≥ 0.9 × that)",
						       what, bytes_text(wlo, x, sizeof(x)), whi > wlo * 1.01 ? " to " : "",
						       whi > wlo * 1.01 ? bytes_text(whi, y, sizeof(y)) : "", bytes_text(nlo, z, sizeof(z)),
						       nhi > nlo ? " to " : "", nhi > nlo ? bytes_text(nhi, w2, sizeof(w2)) : "");
					tb_add(b, "; rule: %s.", capture_rule_text(rule));
				} else if (!strcmp(rule, "family")) {
					tb_add(b, " by family (%s: %s) — one Nq × Nkv matrix is %s%s%s, too small against the "
					       "pass's outputs for traffic to decide.", im->family ? im->family : "?",
					       family_describe(im->family ? im->family : ""), bytes_text(nlo, z, sizeof(z)),
					       nhi > nlo ? " to " : "", nhi > nlo ? bytes_text(nhi, w2, sizeof(w2)) : "");
				} else {
					tb_add(b, " — %s.", capture_rule_text(rule));
				}
				said = 1;
			}
		}
	if (!said)
		tb_add(b, "No calls.");
}

/* The group a figure or an answer is drawn at: forward prefill at N (or
 * the largest N), else the first forward group, else the first. */
static const struct capgroup *pick_group(const struct capimpl *im, int n, int pass, int dec)
{
	const struct capgroup *best = NULL;
	for (size_t i = 0; i < im->ng; i++) {
		const struct record *r = im->g[i].rep;
		if (is_bwd(r) != pass || is_decode(r) != dec)
			continue;
		if (n > 0 && r->shape.seqlen_kv == n && !dec)
			return &im->g[i];
		if (!best || (known(r) && r->shape.seqlen_kv > best->rep->shape.seqlen_kv) || !known(best->rep))
			best = &im->g[i];
	}
	return best;
}

const struct capgroup *capture_pick(const struct capimpl *im, int n, int pass, int dec)
{
	return pick_group(im, n, pass, dec);
}

const struct capgroup *capture_main_group(const struct capimpl *im, int n)
{
	const struct capgroup *g = pick_group(im, n, 0, 0);
	if (!g) g = pick_group(im, n, 0, 1);
	if (!g) g = pick_group(im, n, 1, 0);
	return g;
}

const struct capimpl *capture_figure_impl(const struct rdata *rd, const struct figopts *o)
{
	if (o->variant[0])
		return capture_impl(rd, o->variant);
	size_t n;
	const struct capimpl *all = held_list(rd, &n);
	return n ? &all[0] : NULL;
}

/* implementations with prefill calls of pass (of known shape when known_only) beyond max */
static int chart_cut(const struct rdata *rd, enum pass pass, int known_only, size_t max, const char *what, char *why,
		     size_t len)
{
	size_t n, m = 0;
	struct capimpl *all = capture_impls(rd, &n);
	for (size_t i = 0; i < n; i++) {
		int has = 0;
		for (size_t k = 0; k < all[i].ng; k++) {
			const struct record *r = all[i].g[k].rep;
			has |= r->shape.pass == pass && r->shape.phase == PHASE_PREFILL && (!known_only || known(r));
		}
		m += has;
	}
	capture_impls_free(all, n);
	if (m <= max)
		return 0;
	snprintf(why, len, "the first %zu of %zu captured %s are drawn; the tables list all", max, m, what);
	return 1;
}

/* the distinct prefill shapes (B, H, N, d, causal) of pass with a known shape: the compare chart's categories */
static size_t chart_shapes(const struct rdata *rd, enum pass pass)
{
	size_t n, m = 0, cap = 0;
	struct capimpl *all = capture_impls(rd, &n);
	const struct record **seen = NULL;
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < all[i].ng; k++) {
			const struct record *r = all[i].g[k].rep;
			if (r->shape.pass != pass || r->shape.phase != PHASE_PREFILL || !known(r))
				continue;
			size_t j;
			for (j = 0; j < m; j++) {
				const struct attn_shape *a = &seen[j]->shape, *b = &r->shape;
				if (a->seqlen_kv == b->seqlen_kv && a->batch == b->batch && a->heads == b->heads &&
				    a->head_dim == b->head_dim && !!a->causal == !!b->causal)
					break;
			}
			if (j < m)
				continue;
			if (m == cap) {
				const struct record **p = realloc(seen, (cap = cap ? 2 * cap : 32) * sizeof(*p));
				if (!p)
					break;
				seen = p;
			}
			seen[m++] = r;
		}
	free(seen);
	capture_impls_free(all, n);
	return m;
}

int capture_compare_cut(const struct rdata *rd, const struct figopts *o, char *why, size_t len)
{
	const enum pass pass = capture_compare_pass(o);
	int cut = chart_cut(rd, pass, 0, CAP_CHART_IMPLS, "implementations", why, len);
	const size_t m = chart_shapes(rd, pass);
	if (m > FD_BAR_CATS) {
		size_t l = cut ? strlen(why) : 0;
		snprintf(why + l, len - l, "%s%d of the %zu shapes are drawn", cut ? "; " : "", FD_BAR_CATS, m);
		cut = 1;
	}
	return cut;
}

int capture_pthroughput_cut(const struct rdata *rd, const struct figopts *o, char *why, size_t len)
{
	return chart_cut(rd, capture_compare_pass(o), 1, CAP_PATENT_IMPLS, "computations", why, len);
}

const char *capture_impl_name(const struct capimpl *im) { return im && im->variant ? im->variant : "?"; }

const struct capgroup *capture_figure_group(const struct rdata *rd, const struct capimpl *im, const struct figopts *o)
{
	return capture_main_group(im, o->sel.n > 0 ? o->sel.n : rd->focus.n);
}

const char *capture_call_kind(const struct record *r)
{
	int dec = r->shape.phase == PHASE_DECODE, bwd = r->shape.pass == PASS_BWD;
	if (r->shape.phase == PHASE_UNKNOWN)
		return bwd ? "backward (phase unknown)" : "forward (phase unknown)";
	return dec ? (bwd ? "decode backward" : "decode forward") : (bwd ? "prefill backward" : "prefill forward");
}

/* Q2: where work is partitioned: the main kernel's grid, per kind of call. */
static void answer_partition(const struct rdata *rd, const struct capimpl *im, struct tb *b)
{
	int said = 0, sm = rd->res->header.gpu.hw.sm_count;
	for (int dec = 0; dec < 2; dec++)
		for (int pass = 0; pass < 2; pass++) {
			const struct capgroup *g = pick_group(im, rd->focus.n, pass, dec);
			if (!g)
				continue;
			const struct record *r = g->rep;
			const struct launch *l = capture_main_launch(r);
			char sh[96], ks[160], sent[400];
			capture_shape_text(g, sh, sizeof(sh));
			tb_add(b, "%s%s %s at %s: ", said ? " " : "", pass ? "Backward" : "Forward",
			       !known(r) ? "(phase unknown)" : dec ? "decode" : "prefill", sh);
			said = 1;
			if (!l) {
				tb_add(b, "no kernel was recorded.");
				continue;
			}
			kernel_short_name(l->name ? l->name : "?", ks, sizeof(ks));
			struct gridmap m;
			capture_gridmap(rd, r, l, &m);
			gridmap_sentence(l->grid, &m, sent, sizeof(sent));
			long long blocks = (long long)l->grid[0] * (l->grid[1] > 0 ? l->grid[1] : 1) * (l->grid[2] > 0 ? l->grid[2] : 1);
			int threads = l->block[0] * (l->block[1] > 0 ? l->block[1] : 1) * (l->block[2] > 0 ? l->block[2] : 1);
			int warps = (threads + 31) / 32;
			int per_sm = blocks_per_sm_from_occupancy(l->theoretical_occupancy, warps > 0 ? warps : 1, 64);
			tb_add(b, "the longest attention kernel (fused, else a GEMM), %s, ran %s (%s). %lld blocks of %d threads", ks, sent, m.rule, blocks, threads);
			if (sm > 0 && per_sm > 0)
				tb_add(b, " at %d per SM (%d registers, theoretical occupancy %.1f %%): %.2f waves over the %d SMs.",
				       per_sm, l->registers, 100 * l->theoretical_occupancy, (double)blocks / ((double)sm * per_sm), sm);
			else
				tb_add(b, ".");
			/* the same reading at the other shapes of this kind */
			int same = 0, other = 0;
			for (size_t i = 0; i < im->ng; i++) {
				const struct record *s = im->g[i].rep;
				if (&im->g[i] == g || is_bwd(s) != pass || is_decode(s) != dec)
					continue;
				struct gridmap m2;
				capture_gridmap(rd, s, capture_main_launch(s), &m2);
				if (m2.kind == m.kind) same++; else other++;
			}
			if (same || other)
				tb_add(b, " The other %d shape%s: %d read the same way, %d otherwise.", same + other,
				       same + other == 1 ? "" : "s", same, other);
		}
	if (!said)
		tb_add(b, "No calls.");
}

static double metric_of(const struct record *r, const char *name)
{
	return record_metric_or_nan(r, name);
}

/* Q3: how communication is reduced, at the shape with references (largest N). */
static void answer_traffic(const struct rdata *rd, const struct capimpl *im, struct tb *b)
{
	const struct capgroup *g = NULL;
	for (size_t i = 0; i < im->ng; i++) {
		const struct record *r = im->g[i].rep;
		if (is_bwd(r) || is_decode(r) || !known(r))
			continue;
		int ref = capture_reference(rd, r, variant_role(DOC_CONVENTIONAL)) != NULL;
		if (!g || (ref && !capture_reference(rd, g->rep, variant_role(DOC_CONVENTIONAL))) ||
		    (ref == (capture_reference(rd, g->rep, variant_role(DOC_CONVENTIONAL)) != NULL) &&
		     r->shape.seqlen_kv > g->rep->shape.seqlen_kv))
			g = &im->g[i];
	}
	if (!g)
		g = pick_group(im, 0, 0, 1);
	if (!g) {
		tb_add(b, "No forward call with a known shape.");
		return;
	}
	const struct record *r = g->rep;
	char sh[96], x[32], y[32], z[32], f[32];
	capture_shape_text(g, sh, sizeof(sh));
	double rd_b = metric_of(r, M_DRAM_READ), wr_b = metric_of(r, M_DRAM_WRITE);
	if (!usable(rd_b + 1) || !usable(wr_b + 1)) {
		tb_add(b, "At %s the call's DRAM traffic was not measured (%s).", sh,
		       r->metrics_reason ? r->metrics_reason : "recorded without counters");
		return;
	}
	double e = (double)dtype_size(r->shape.dtype);
	const struct attn_shape *s = &r->shape;
	double floor_b = (double)s->batch * ((double)s->heads * s->seqlen_q * 2 + 2.0 * r->shape.kv_heads * s->seqlen_kv) * s->head_dim * e;
	tb_add(b, "At %s the %s call moved %s through DRAM (read %s, written %s) against a floor of %s (Q, K, V read "
	       "and O written once)", sh, is_decode(r) ? "decode" : "forward", bytes_text(rd_b + wr_b, x, sizeof(x)),
	       bytes_text(rd_b, y, sizeof(y)), bytes_text(wr_b, z, sizeof(z)), bytes_text(floor_b, f, sizeof(f)));
	size_t nref;
	const char *const *refs = capture_reference_variants(r, &nref);
	for (size_t k = 0; k < nref; k++) {
		const struct record *ref = capture_reference(rd, r, refs[k]);
		double hb = ref ? record_hbm_bytes(ref) : -1;
		if (hb > 0)
		{
			double q = (rd_b + wr_b) / hb;
			if (q >= 1)
				tb_add(b, "; attnprof's %s moved %s at the same shape (the captured call %.3g× that)", refs[k],
				       bytes_text(hb, x, sizeof(x)), q);
			else
				tb_add(b, "; attnprof's %s moved %s at the same shape (%.3g× the captured call's)", refs[k],
				       bytes_text(hb, x, sizeof(x)), 1 / q);
		}
	}
	tb_add(b, ".");
	if (r->capture && r->capture->density > 0 && r->capture->density < 1)
		tb_add(b, " Its block mask computed %.1f %% of the (query block, key block) pairs: FLOPs and TFLOP/s "
		       "count those blocks only, while attnprof's references at the same shape compute every pair.",
		       100 * r->capture->density);
	double l2w = r->capture ? r->capture->l2_write_bytes : -1;
	if (l2w >= 0 && wr_b > 0)
		tb_add(b, " Its kernels wrote %s through the L2, %.1f× their DRAM writes (L2 writes also count what never "
		       "reached DRAM: outputs still in the %s L2 at kernel end, and traffic overwritten there, such as "
		       "register spills; docs/capture.md).", bytes_text(l2w, x, sizeof(x)), l2w / wr_b,
		       bytes_text(l2_of(rd), y, sizeof(y)));
	else if (l2w >= 0) /* a ratio to zero DRAM writes is undefined: say why instead */
		tb_add(b, " Its kernels wrote %s through the L2 and no byte to DRAM during the call, so there is no ratio "
		       "of the two: what they wrote was still in the %s L2 at kernel end, or overwritten there "
		       "(docs/capture.md).", bytes_text(l2w, x, sizeof(x)), bytes_text(l2_of(rd), y, sizeof(y)));
	double tens = metric_of(r, M_TENSOR_ACTIVE), occ = metric_of(r, M_OCC_ACHIEVED);
	if (usable(tens))
		tb_add(b, " Tensor pipes were active %.0f %% of the cycles", tens);
	if (usable(occ))
		tb_add(b, "%s %.1f %%", usable(tens) ? ", achieved occupancy" : " Achieved occupancy", occ);
	if (usable(tens) || usable(occ))
		tb_add(b, " (time-weighted over the call's kernels).");
}

/* the largest Nq × Nkv the helper checks a backward at (its GRAD_CHECK_MAX_PAIRS) */
#define GRAD_CHECK_MAX_PAIRS 33554432.0

static void answer_correct(const struct capimpl *im, struct tb *b)
{
	/* per pass: calls, checked, out of tolerance, the error range and tolerance */
	int calls[2] = { 0 }, checked[2] = { 0 }, bad[2] = { 0 }, large = 0;
	double lo[2] = { INFINITY, INFINITY }, hi[2] = { -INFINITY, -INFINITY }, tol[2] = { 0 };
	for (size_t i = 0; i < im->ng; i++) {
		const struct capgroup *g = &im->g[i];
		const int p = is_bwd(g->rep);
		calls[p] += g->ncalls;
		checked[p] += g->checked;
		bad[p] += g->incorrect;
		/* unchecked backward calls whose one-head fp64 reference is over the
		 * helper's size (GRAD_CHECK_MAX_PAIRS in src/capture/python/attnprof_hook) */
		if (p && g->checked < g->ncalls && (double)g->rep->shape.seqlen_q * g->rep->shape.seqlen_kv > GRAD_CHECK_MAX_PAIRS)
			large += g->ncalls - g->checked;
		if (g->checked) {
			if (g->err_min < lo[p]) lo[p] = g->err_min;
			if (g->err_max > hi[p]) hi[p] = g->err_max;
			tol[p] = g->rep->tol_rel_l2;
		}
	}
	static const char *const what[2] = { "forward calls were checked against fp64 on sampled rows",
					      "backward calls' gradients (dQ, and dK, dV where each query head has its "
					      "own KV head) were checked against fp64 on sampled heads" };
	int said = 0;
	if (!checked[0] && !checked[1]) {
		tb_add(b, "No call was checked against fp64");
		said = 1;
	}
	for (int p = 0; p < 2; p++) {
		if (!calls[p] || (!checked[p] && p == 0))
			continue;
		if (!checked[p]) {
			tb_add(b, "%sthe %d backward call%s %s not checked (the capture holds no gradient check: the "
			       "helper re-runs and checks a backward for SDPA without a mask and FlexAttention without a "
			       "score_mod)", said ? "; " : "", calls[p], calls[p] == 1 ? "" : "s", calls[p] == 1 ? "was" : "were");
			said = 1;
			continue;
		}
		tb_add(b, "%s%d of %d %s: %d within tolerance, relative L2 error from %.1e to %.1e (tolerance %.0e)",
		       said ? "; " : "", checked[p], calls[p], what[p], checked[p] - bad[p], lo[p], hi[p], tol[p]);
		if (p && large)
			tb_add(b, ", and %d not checked: one head's fp64 reference, Nq × Nkv, is over the helper's %.0f M pairs",
			       large, GRAD_CHECK_MAX_PAIRS / 1048576.0);
		said = 1;
	}
	tb_add(b, ".");
}

void capture_breakable(char *s, size_t len)
{
	/* after every middle dot (C2 B7) a zero-width space (E2 80 8B): "B·H·Nq" may break there */
	size_t n = strlen(s);
	for (size_t i = 0; i + 1 < n; i++)
		if ((unsigned char)s[i] == 0xC2 && (unsigned char)s[i + 1] == 0xB7 && n + 3 < len) {
			memmove(s + i + 5, s + i + 2, n - i - 1);
			memcpy(s + i + 2, "\xe2\x80\x8b", 3);
			n += 3;
			i += 4;
		}
}

/* One evaluation of {IMPL.capture.NAME}: the implementation, its calls
 * counted once (every row reads the same counts), and what the row's
 * function writes. */
struct capcall {
	const struct rdata *rd;
	const char *key;
	const struct capimpl *im;
	const struct capture_value_row *row;
	int calls, fwd, bwd, prefill, decode, nophase, checked, incorrect, unknown_shape, mapped;
	int stored_fwd, stored_bwd; /* the most Nq × Nkv matrices one call wrote; -1: none decided by traffic */
	int is_text;
	double num;                 /* a number, in the row's unit */
	struct tb b;                /* a text, or why a number is missing */
};

static void tally_calls(struct capcall *c)
{
	c->calls = c->im->ncalls;
	c->stored_fwd = c->stored_bwd = -1;
	for (size_t k = 0; k < c->im->ng; k++) {
		const struct capgroup *g = &c->im->g[k];
		const struct record *r = g->rep;
		if (is_bwd(r)) c->bwd += g->ncalls; else c->fwd += g->ncalls;
		/* a call found by family has no phase ("unknown"): neither prefill nor decode */
		if (is_decode(r)) c->decode += g->ncalls;
		else if (r->shape.phase == PHASE_UNKNOWN) c->nophase += g->ncalls;
		else c->prefill += g->ncalls;
		c->checked += g->checked;
		c->incorrect += g->incorrect;
		c->unknown_shape += known(r) ? 0 : g->ncalls;
		const char *rule = r->verdict_rule;
		int m = r->verdict_matrices;
		if (m >= 0 && strcmp(rule, "family")) {
			int *st = is_bwd(r) ? &c->stored_bwd : &c->stored_fwd;
			if (m > *st) *st = m;
		}
		struct gridmap gm;
		capture_gridmap(c->rd, r, capture_main_launch(r), &gm);
		c->mapped += gm.inferred;
	}
}

static int tally_field(const struct capcall *c)
{
	return *(const int *)(const void *)((const char *)c + c->row->field);
}

/* calls, fwd_calls, checked …: a count of the tally (the row's field) */
static int cv_count(struct capcall *c)
{
	c->num = tally_field(c);
	return 0;
}

/* stored_fwd, stored_bwd: missing where no call of the pass was decided by traffic */
static int cv_stored(struct capcall *c)
{
	int st = tally_field(c);
	if (st < 0) {
		snprintf(c->b.p, c->b.len, "no %s call of '%s' was decided by traffic", c->row->name + strlen("stored_"),
			 c->key);
		return 1;
	}
	c->num = st;
	return 0;
}

static int cv_text(struct capcall *c)
{
	c->is_text = 1;
	return 0;
}

static int cv_impl(struct capcall *c)
{
	tb_add(&c->b, "%s", c->im->variant ? c->im->variant : "?");
	return cv_text(c);
}

static int cv_ordinal(struct capcall *c)
{
	char o[16];
	tb_add(&c->b, "%s", capture_ordinal(c->rd, c->key, o, sizeof(o)));
	return cv_text(c);
}

static int cv_family(struct capcall *c)
{
	tb_add(&c->b, "%s", c->im->family ? c->im->family : "unknown");
	return cv_text(c);
}

static int cv_family_what(struct capcall *c)
{
	tb_add(&c->b, "%s", family_describe(c->im->family ? c->im->family : ""));
	return cv_text(c);
}

static int cv_phases(struct capcall *c)
{
	tb_add(&c->b, "%d prefill, %d decode", c->prefill, c->decode);
	if (c->nophase)
		tb_add(&c->b, ", %d of unknown phase", c->nophase);
	return cv_text(c);
}

static int cv_stored_answer(struct capcall *c)
{
	answer_stored(c->rd, c->im, &c->b);
	return cv_text(c);
}

static int cv_partition(struct capcall *c)
{
	answer_partition(c->rd, c->im, &c->b);
	return cv_text(c);
}

static int cv_traffic(struct capcall *c)
{
	answer_traffic(c->rd, c->im, &c->b);
	return cv_text(c);
}

static int cv_correctness(struct capcall *c)
{
	answer_correct(c->im, &c->b);
	return cv_text(c);
}

static int cv_shapes(struct capcall *c)
{
	for (size_t k = 0; k < c->im->ng; k++) {
		char sh[96];
		const struct capgroup *g = &c->im->g[k];
		tb_add(&c->b, "%s%s %s %s", k ? "; " : "", capture_shape_text(g, sh, sizeof(sh)),
		       is_decode(g->rep) ? "decode" : "prefill", record_pass(g->rep));
	}
	return cv_text(c);
}

/* of the call the data-flow figure draws */
static int cv_verdict(struct capcall *c)
{
	const struct capgroup *g = capture_main_group(c->im, c->rd->focus.n);
	char v[64];
	tb_add(&c->b, "%s", g ? capture_verdict_text(c->rd, g->rep, v, sizeof(v)) : "no calls");
	return cv_text(c);
}

#define TALLY(member) offsetof(struct capcall, member)

/* Every {IMPL.capture.NAME} with its unit, what it is and the function
 * that finds it, in the order errors list them (docs/templates.md, "A
 * captured program", describes each). */
const struct capture_value_row capture_value_rows[] = {
	{ "impl", U_NUM, "the implementation's name", cv_impl },
	{ "ordinal", U_NUM, "its place among the captured implementations as a word (first, second …)", cv_ordinal },
	{ "family", U_NUM, "its family from the kernel names", cv_family },
	{ "family_what", U_NUM, "what that family is", cv_family_what },
	{ "calls", U_INT, "calls", cv_count, TALLY(calls) },
	{ "fwd_calls", U_INT, "forward calls", cv_count, TALLY(fwd) },
	{ "bwd_calls", U_INT, "backward calls", cv_count, TALLY(bwd) },
	{ "prefill_calls", U_INT, "prefill calls (a call of unknown phase is neither)", cv_count, TALLY(prefill) },
	{ "decode_calls", U_INT, "decode calls", cv_count, TALLY(decode) },
	{ "phases", U_NUM, "\"N prefill, M decode\", and \", K of unknown phase\"", cv_phases },
	{ "checked", U_INT, "calls checked against fp64", cv_count, TALLY(checked) },
	{ "incorrect", U_INT, "checked calls outside their tolerance", cv_count, TALLY(incorrect) },
	{ "unknown_shape", U_INT, "calls whose shape is not known", cv_count, TALLY(unknown_shape) },
	{ "stored_fwd", U_INT, "the most Nq × Nkv matrices one forward call wrote, over those traffic decided", cv_stored,
	  TALLY(stored_fwd) },
	{ "stored_bwd", U_INT, "the same for the backward calls", cv_stored, TALLY(stored_bwd) },
	{ "mapped", U_INT, "shapes whose longest attention kernel's grid factors into the shape", cv_count, TALLY(mapped) },
	{ "stored", U_NUM, "what is no longer stored: per pass and phase, the verdict, the largest write, the rule",
	  cv_stored_answer },
	{ "partition", U_NUM, "where the work is partitioned: per kind of call, the grid, its mapping, blocks per SM, waves",
	  cv_partition },
	{ "traffic", U_NUM, "how communication is reduced: DRAM bytes against the floor and the references", cv_traffic },
	{ "correctness", U_NUM, "the calls checked against fp64, within tolerance, the error range", cv_correctness },
	{ "shapes", U_NUM, "every shape, phase and pass", cv_shapes },
	{ "verdict", U_NUM, "the verdict on S and P of the call the data-flow figure draws", cv_verdict },
};
const size_t capture_value_count = sizeof capture_value_rows / sizeof capture_value_rows[0];

const struct capture_value_row *capture_value_find(const char *name)
{
	for (size_t i = 0; i < capture_value_count; i++)
		if (!strcmp(capture_value_rows[i].name, name))
			return &capture_value_rows[i];
	return NULL;
}

/* "unknown capture value 'stord': did you mean 'stored'? (impl, …: docs/…)" */
static void unknown_capture_value(const char *name, struct tb *b)
{
	const char *names[sizeof capture_value_rows / sizeof capture_value_rows[0]];
	for (size_t k = 0; k < capture_value_count; k++)
		names[k] = capture_value_rows[k].name;
	const char *near = nearest_word(name, names, capture_value_count);
	tb_add(b, "unknown capture value '%s'", name);
	if (near)
		tb_add(b, ": did you mean '%s'?", near);
	tb_add(b, " (docs/templates.md, \"A captured program\": ");
	for (size_t k = 0; k < capture_value_count; k++)
		tb_add(b, "%s%s", k ? ", " : "", names[k]);
	tb_add(b, ")");
}

int capture_value(const struct rdata *rd, const char *key, const char *name, int *is_text, double *num,
		  enum qunit *unit, char *text, size_t len)
{
	const struct capture_value_row *row = capture_value_find(name);
	if (!row) {
		struct tb b = { text, len, 0 };
		unknown_capture_value(name, &b);
		return -1;
	}
	const struct capimpl *im = capture_impl(rd, key);
	if (!im) {
		snprintf(text, len, "'%s' has no captured calls", key);
		return 1;
	}
	text[0] = '\0';
	struct capcall c = { .rd = rd, .key = key, .im = im, .row = row, .b = { text, len, 0 } };
	tally_calls(&c);
	int rc = row->value(&c);
	*is_text = c.is_text;
	*unit = row->unit;
	if (!c.is_text && !rc)
		*num = c.num;
	if (c.is_text)
		capture_breakable(text, len);
	return rc;
}

int capture_role(const struct rdata *rd, const char *role, char *key, size_t len)
{
	int bwd = !strcmp(role, "fastest_bwd");
	int stores = !strcmp(role, "stores");
	if (!bwd && !stores && strcmp(role, "fastest"))
		return -1;
	/* the record a value of the series would draw: the focus, the sweep's family */
	struct rsel sel;
	rsel_any(&sel);
	sel.phase = PHASE_PREFILL;
	sel.pass = bwd ? PASS_BWD : PASS_FWD;
	sel.n = rd->focus.n;
	sel.d = rd->focus.d;
	sel.causal = rd->focus.causal;
	rsel_family(&sel, rd);
	size_t n;
	struct capimpl *all = capture_impls(rd, &n);
	const struct capimpl *best = NULL;
	double best_x = 0;
	for (size_t i = 0; i < n; i++) {
		const struct record *r = rdata_find(rd, all[i].key, &sel);
		if (!r || !(r->time_ms > 0))
			continue;
		double x = r->time_ms;
		if (stores) {
			/* of those whose traffic shows S and P stored, the one that moves the most */
			if (r->verdict_matrices < 2 || !strcmp(r->verdict_rule, "family"))
				continue;
			x = -record_hbm_bytes(r);
		}
		if (!best || x < best_x) {
			best = &all[i];
			best_x = x;
		}
	}
	if (best)
		snprintf(key, len, "%s", best->key);
	capture_impls_free(all, n);
	return best ? 0 : 1;
}

/* a captured call timed otherwise than by the helper's unprofiled re-runs
 * between CUDA events (time source "kernels": the sum of its kernel
 * durations under profiling) */
static int kernel_timed(const struct record *r)
{
	return !r->capture || !r->capture->time_source || strcmp(r->capture->time_source, "events");
}

/* a capture file's header names no library versions (the helper's
 * "libraries:" line, src/capture/inject/inject.c) */
static int header_without_versions(const struct results_header *h)
{
	return !h->notes || !strstr(h->notes, "libraries:");
}

int capture_has(const struct rdata *rd, const char *what, int *truth)
{
	*truth = 0;
	if (!strcmp(what, "missing-references")) {
		*truth = capture_missing_spec(rd, NULL) > 0;
		return 0;
	}
	if (!strcmp(what, "capture-no-versions")) {
		for (int k = 0; k < rd->nprograms; k++)
			*truth |= header_without_versions(&rd->programs[k]);
		if (!rd->nprograms && rd->program)
			*truth = header_without_versions(rd->program);
		return 0;
	}
	const int unchecked = !strcmp(what, "capture-unchecked"), ktimed = !strcmp(what, "capture-kernel-timed"),
		  etimed = !strcmp(what, "capture-event-timed");
	if (unchecked || ktimed || etimed) {
		for (size_t i = 0; i < rd->res->nrecords; i++) {
			const struct record *r = &rd->res->records[i];
			if (is_capture(r) && !r->error && (unchecked ? !r->checked : ktimed ? kernel_timed(r) : !kernel_timed(r)))
				*truth = 1;
		}
		return 0;
	}
	int dec = !strcmp(what, "capture-decode"), bwd = !strcmp(what, "capture-bwd"), win = !strcmp(what, "capture-window");
	if (!dec && !bwd && !win && strcmp(what, "capture"))
		return -1;
	for (size_t i = 0; i < rd->res->nrecords; i++) {
		const struct record *r = &rd->res->records[i];
		if (is_capture(r) && (!dec || is_decode(r)) && (!bwd || is_bwd(r)) && (!win || (r->capture && r->capture->counter_window)))
			*truth = 1;
	}
	return 0;
}

size_t capture_facts(const struct rdata *rd, const char **names, int *values, size_t cap)
{
	static const char *const facts[] = { "capture", "capture-unchecked", "capture-kernel-timed", "capture-event-timed",
					     "capture-no-versions" };
	size_t n = 0;
	for (size_t i = 0; i < sizeof facts / sizeof facts[0] && n < cap; i++) {
		names[n] = facts[i];
		capture_has(rd, facts[i], &values[n]);
		n++;
	}
	return n;
}

/* ---- references missing ------------------------------------------------- */

/* A forward shape with no reference: the first group of each shape. */
static int missing_groups(const struct rdata *rd, const struct capgroup ***outp)
{
	/* out points into held_list's list (valid until its next call) */
	size_t n;
	const struct capimpl *all = held_list(rd, &n);
	size_t most = 0;
	for (size_t i = 0; i < n; i++)
		most += all[i].ng;
	/* every missing shape (no cap): at most one a group */
	const struct capgroup **out = *outp = malloc((most ? most : 1) * sizeof(*out));
	if (!out)
		return error("out of memory listing the missing references");
	int m = 0;
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < all[i].ng; k++) {
			const struct capgroup *g = &all[i].g[k];
			const struct record *r = g->rep;
			if (is_bwd(r) || !known(r))
				continue;
			size_t nref;
			const char *const *refs = capture_reference_variants(r, &nref);
			int have = 1;
			if (is_decode(r)) {
				/* every KV length of the group */
				for (int kv = g->nkv_min; kv <= g->nkv_max && have; kv++) {
					struct record t = *r;
					t.shape.seqlen_kv = kv;
					have = capture_reference(rd, &t, refs[0]) != NULL;
				}
			} else {
				for (size_t j = 0; j < nref; j++)
					have &= capture_reference(rd, r, refs[j]) != NULL;
			}
			if (have)
				continue;
			int dup = 0;
			for (int j = 0; j < m; j++)
				if (same_group(out[j]->rep, r) && out[j]->nkv_min == g->nkv_min && out[j]->nkv_max == g->nkv_max)
					dup = 1;
			if (!dup)
				out[m++] = g;
		}
	return m;
}

int capture_missing_spec_text(const struct rdata *rd, char *buf, size_t len)
{
	const struct capgroup **gs;
	int m = missing_groups(rd, &gs);
	struct tb b = { buf, len, 0 };
	buf[0] = '\0';
	if (m <= 0) {
		if (m == 0)
			free(gs);
		return m;
	}
	tb_add(&b, "name: missing-references\n");
	tb_add(&b, "description: attnprof's references at the shapes of the captured calls\n");
	tb_add(&b, "metrics: default\n");
	tb_add(&b, "sweeps:\n");
	for (int i = 0; i < m; i++) {
		const struct record *r = gs[i]->rep;
		if (is_decode(r)) {
			tb_add(&b, "- {phase: decode, variants: [%s, %s], batch: %d, heads: %d, kv_heads: %d, "
			       "query_len: %d, kv_len: [", variant_role(DOC_DECODE_BASELINE), variant_role(DOC_DECODE_SUBJECT), r->shape.batch, r->shape.heads, r->shape.kv_heads, r->shape.seqlen_q);
			for (int kv = gs[i]->nkv_min; kv <= gs[i]->nkv_max; kv++)
				tb_add(&b, "%s%d", kv > gs[i]->nkv_min ? ", " : "", kv);
			tb_add(&b, "], head_dim: %d, dtype: %s}\n", r->shape.head_dim, dtype_name(r->shape.dtype));
		} else {
			tb_add(&b, "- {phase: prefill, variants: [%s, %s], batch: %d, heads: %d, kv_heads: %d, "
			       "seqlen: %d, head_dim: %d, causal: %s, dtype: %s}\n", variant_role(DOC_CONVENTIONAL), variant_role(DOC_SUBJECT), r->shape.batch, r->shape.heads, r->shape.kv_heads, r->shape.seqlen_kv,
			       r->shape.head_dim, r->shape.causal ? "true" : "false", dtype_name(r->shape.dtype));
		}
	}
	free(gs);
	if (b.cut) /* no silent cut: a spec cut short would record fewer shapes than it says */
		return error("the spec of the missing references is longer than %zu bytes", len);
	return m;
}

int capture_missing_spec(const struct rdata *rd, FILE *f)
{
	const struct capgroup **gs;
	int m = missing_groups(rd, &gs); /* the count alone needs no text */
	if (m >= 0)
		free(gs);
	if (!f || m <= 0)
		return m;
	size_t len = 512 + (size_t)m * 1024;
	char *buf = malloc(len);
	if (!buf)
		return error("out of memory writing the missing references");
	m = capture_missing_spec_text(rd, buf, len);
	if (m > 0)
		fputs(buf, f);
	free(buf);
	return m;
}

/* ---- tables ---------------------------------------------------------------- */

static void cols(struct dtable *T, int n, const char *const *h, const int *right)
{
	T->ncols = n;
	for (int i = 0; i < n; i++) {
		snprintf(T->head[i], sizeof(T->head[i]), "%s", h[i]);
		T->right[i] = right[i];
	}
}
static char (*row_new(struct dtable *T))[TCELL]
{
	if (T->nrows < TROWS)
		return T->cell[T->nrows++];
	T->rows_cut = 1;
	return NULL;
}

_Static_assert(MAX_SERIES_NAME < SERIES_KEY, "results.c refuses a series name that a key would cut");

static const char *impl_label(const char *key)
{
	const char *c = strchr(key, ':');
	return c ? c + 1 : key;
}

/* the distinct texts of a column over a row's groups, "; "-joined */
static void add_distinct(char *cell, const char *v)
{
	if (strstr(cell, v))
		return;
	size_t u = strlen(cell);
	snprintf(cell + u, TCELL - u, "%s%s", u ? "; " : "", v);
}

/* Prefill groups that differ only in B and N: "B×N = 16×1k, 8×2k; H=16 d=128". */
static void compact_shapes(const struct capimpl *im, int ph, int pass, char *cell)
{
	const struct record *first = NULL;
	int n = 0;
	for (size_t k = 0; k < im->ng; k++) {
		const struct record *r = im->g[k].rep;
		int p = !known(r) ? 2 : is_decode(r);
		if (p != ph || is_bwd(r) != pass)
			continue;
		if (ph != 0 || r->shape.seqlen_q != r->shape.seqlen_kv)
			return;
		if (!first)
			first = r;
		else if (r->shape.heads != first->shape.heads || r->shape.kv_heads != first->shape.kv_heads || r->shape.head_dim != first->shape.head_dim ||
			 !!r->shape.causal != !!first->shape.causal)
			return;
		n++;
	}
	if (n < 2)
		return;
	struct tb b = { cell, TCELL, 0 };
	cell[0] = '\0';
	tb_add(&b, "B×N = ");
	int j = 0;
	for (size_t k = 0; k < im->ng; k++) {
		const struct record *r = im->g[k].rep;
		if (!known(r) || is_decode(r) || is_bwd(r) != pass)
			continue;
		char x[16];
		tb_add(&b, "%s%d×%s", j++ ? ", " : "", r->shape.batch, seqlen_text(r->shape.seqlen_kv, x, sizeof(x)));
	}
	if (first->shape.kv_heads != first->shape.heads)
		tb_add(&b, "; H=%d/%d d=%d%s", first->shape.heads, first->shape.kv_heads, first->shape.head_dim, first->shape.causal ? " causal" : "");
	else
		tb_add(&b, "; H=%d d=%d%s", first->shape.heads, first->shape.head_dim, first->shape.causal ? " causal" : "");
}

/* How the captured calls of one pass were timed, as the records say: the
 * helper's unprofiled re-runs between CUDA events (time source "events"),
 * the kernels' sum under profiling ("kernels"), or each for some. */
const char *capture_timing(const struct rdata *rd, int bwd)
{
	int events = 0, kernels = 0;
	for (size_t i = 0; i < rd->res->nrecords; i++) {
		const struct record *r = &rd->res->records[i];
		if (!r->capture || is_bwd(r) != bwd)
			continue;
		if (kernel_timed(r))
			kernels++;
		else
			events++;
	}
	if (!events && !kernels)
		return NULL;
	return events && !kernels ? bwd ? "median of unprofiled re-runs, each of a fresh forward"
					: "median of unprofiled re-runs between CUDA events"
	       : events ? "median of unprofiled re-runs where the helper re-ran it, else the sum of the kernel "
			  "durations under profiling"
			: "sum of the kernel durations under profiling"; /* "timed by the {program.timing_fwd}" */
}

static const char *or_none(const char *s) { return s ? s : "no call"; }

/* a captured call of that pass timed by its kernels' sum */
static int capture_has_kernel_timed(const struct rdata *rd, int bwd)
{
	for (size_t i = 0; i < rd->res->nrecords; i++) {
		const struct record *r = &rd->res->records[i];
		if (r->capture && is_bwd(r) == bwd && kernel_timed(r))
			return 1;
	}
	return 0;
}

/* a captured call of that pass timed by the helper's unprofiled re-runs (time source events) */
static int capture_has_event_timed(const struct rdata *rd, int bwd)
{
	for (size_t i = 0; i < rd->res->nrecords; i++) {
		const struct record *r = &rd->res->records[i];
		if (r->capture && is_bwd(r) == bwd && !kernel_timed(r))
			return 1;
	}
	return 0;
}

/* The mark of a time cell timed by its kernels' sum, in a table that also
 * holds CUDA-event medians: " †" every call of the row, " (some †)" some. */
#define KERNEL_SUM_MARK " †"
static const char *kernel_sum_mark(int kernels, int events)
{
	return kernels && !events ? KERNEL_SUM_MARK : kernels ? " (some †)" : "";
}

void capture_table_calls(struct dtable *T, const struct rdata *rd, const struct figopts *o)
{
	(void)o;
	static const char *const h[] = { "implementation", "call", "shapes", "calls", "time (ms)", "kernels", "family",
					 "verdict", "rule" };
	static const int right[] = { 0, 0, 0, 1, 1, 1, 0, 0, 0 };
	cols(T, 9, h, right);
	table_quantity_col(T, 4, "hbm_bytes", NULL);
	table_quantity_col(T, 5, "beyond_inputs", NULL);
	size_t n;
	struct capimpl *all = capture_impls(rd, &n);
	/* rows of both time sources: each kernel-timed row says so */
	int ev = 0, kt = 0;
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < all[i].ng; k++)
			*(kernel_timed(all[i].g[k].rep) ? &kt : &ev) += 1;
	const int mixed = ev && kt;
	for (size_t i = 0; i < n; i++)
		for (int ph = 0; ph < 3; ph++) /* prefill, decode, unknown */
			for (int pass = 0; pass < 2; pass++) {
				char (*row)[TCELL] = NULL;
				int calls = 0, kmin = 1 << 30, kmax = 0, bad = 0, by_kernels = 0, by_events = 0;
				double tmin = INFINITY, tmax = 0;
				for (size_t k = 0; k < all[i].ng; k++) {
					const struct capgroup *g = &all[i].g[k];
					const struct record *r = g->rep;
					int p = !known(r) ? 2 : is_decode(r);
					if (p != ph || is_bwd(r) != pass)
						continue;
					if (!row) {
						if (!(row = row_new(T))) {
							capture_impls_free(all, n);
							return;
						}
						snprintf(row[0], TCELL, "%.90s", impl_label(all[i].key));
						snprintf(row[1], TCELL, "%s %s", ph == 2 ? "unknown" : ph ? "decode" : "prefill",
							 record_pass(r));
					}
					char sh[96], v[64];
					capture_shape_text(g, sh, sizeof(sh));
					add_distinct(row[2], sh);
					calls += g->ncalls;
					if (g->t_min < tmin) tmin = g->t_min;
					if (g->t_max > tmax) tmax = g->t_max;
					if ((int)r->nlaunches < kmin) kmin = (int)r->nlaunches;
					if ((int)r->nlaunches > kmax) kmax = (int)r->nlaunches;
					add_distinct(row[6], r->capture && r->capture->family ? r->capture->family : "?");
					add_distinct(row[7], capture_verdict_text(rd, r, v, sizeof(v)));
					add_distinct(row[8], r->verdict_rule);
					bad |= g->incorrect > 0;
					if (kernel_timed(r))
						by_kernels++;
					else
						by_events++;
				}
				if (!row)
					continue;
				compact_shapes(&all[i], ph, pass, row[2]);
				snprintf(row[3], TCELL, "%d", calls);
				const char *mark = mixed ? kernel_sum_mark(by_kernels, by_events) : "";
				if (tmax > tmin * 1.05)
					snprintf(row[4], TCELL, "%.3f to %.3f%s", tmin, tmax, mark);
				else
					snprintf(row[4], TCELL, "%.3f%s", tmax, mark);
				if (kmax > kmin)
					snprintf(row[5], TCELL, "%d to %d", kmin, kmax);
				else
					snprintf(row[5], TCELL, "%d", kmax);
				if (bad)
					T->bad[T->nrows - 1] = 1;
			}
	capture_impls_free(all, n);
	snprintf(T->note, sizeof(T->note),
		 "One row per implementation, phase and pass; shapes lists the calls' shapes (a decode shape spans its KV "
		 "lengths). time: the calls' range (forward: %s%s%s)%s. verdict: S and P (backward dS and dP) stored when "
		 "kernels wrote at least 0.9 × one Nq × Nkv matrix each; rule: which bytes decided (dram-writes, "
		 "l2-writes, footprint) or the family where traffic cannot (docs/capture.md).", or_none(capture_timing(rd, 0)),
		 capture_timing(rd, 1) ? "; backward: " : "", capture_timing(rd, 1) ? capture_timing(rd, 1) : "", mixed ? "; † the sum of the calls' kernel durations under profiling (time source "
		 "kernels), not a median between CUDA events like the other rows" : "");
}

/* The L2-flush policy the records actually had (l2_flushed), captured calls
 * or attnprof's own: "not flushed", "flushed before each profiled kernel",
 * "flushed for 3 of 8, not for 5", or "not said" for files before the key. */
static const char *flush_policy(const struct rdata *rd, int captured, char *buf, size_t len)
{
	int yes = 0, no = 0, unsaid = 0;
	for (size_t i = 0; i < rd->res->nrecords; i++) {
		const struct record *r = &rd->res->records[i];
		if (is_capture(r) != captured || (!captured && r->source && strcmp(r->source, "attnprof")) ||
		    r->metrics_status != METRICS_OK)
			continue;
		if (r->l2_flushed > 0) yes++;
		else if (r->l2_flushed == 0) no++;
		else unsaid++;
	}
	const char *when = captured ? "at each call's start" : "before each profiled kernel";
	if (yes && !no && !unsaid) snprintf(buf, len, "flushed %s", when);
	else if (no && !yes && !unsaid) snprintf(buf, len, "not flushed");
	else if (!yes && !no) snprintf(buf, len, "flush not recorded");
	else snprintf(buf, len, "flushed %.30s for %d of %d profiled records, not for %d%s", when, yes,
		      yes + no + unsaid, no, unsaid ? " (the rest did not record it)" : "");
	return buf;
}

static void compare_row(struct dtable *T, const struct rdata *rd, const char *sh, const char *label,
			const struct record *r)
{
	char (*row)[TCELL] = row_new(T);
	if (!row)
		return;
	char b[32];
	T->rec[T->nrows - 1][0] = r;
	snprintf(row[0], TCELL, "%s", sh);
	snprintf(row[1], TCELL, "%s", label);
	/* attnprof's rows are CUDA-event medians: a captured call's kernel sum beside them says so */
	snprintf(row[2], TCELL, "%.3f%s", r->time_ms, r->capture && kernel_timed(r) ? KERNEL_SUM_MARK : "");
	snprintf(row[3], TCELL, usable(r->tflops) ? "%.0f" : "–", r->tflops);
	double h = record_hbm_bytes(r);
	snprintf(row[4], TCELL, "%s", h >= 0 ? fmt_bytes(h, b, sizeof(b)) : "–");
	double m = record_beyond_inputs(r);
	snprintf(row[5], TCELL, "%s", m >= 0 ? fmt_bytes(m, b, sizeof(b)) : "–");
	double occ = metric_of(r, M_OCC_ACHIEVED), tens = metric_of(r, M_TENSOR_ACTIVE);
	snprintf(row[6], TCELL, usable(occ) ? "%.1f %%" : "–", occ);
	snprintf(row[7], TCELL, usable(tens) ? "%.0f %%" : "–", tens);
	capture_verdict_text(rd, r, row[8], TCELL); /* the same measured rule for both */
	if (r->checked && !r->correct)
		T->bad[T->nrows - 1] = 1;
}

enum pass capture_compare_pass(const struct figopts *o)
{
	return o && o->sel.pass == PASS_BWD ? PASS_BWD : PASS_FWD;
}

void capture_table_compare(struct dtable *T, const struct rdata *rd, const struct figopts *o)
{
	int bwd = capture_compare_pass(o) == PASS_BWD;
	const char *const h[] = { "shape", "implementation", "time (ms)", "TFLOP/s", "DRAM r+w", "beyond Q, K, V",
				  "occupancy", "tensor", bwd ? "dS, dP" : "S, P" };
	static const int right[] = { 0, 0, 1, 1, 1, 1, 1, 1, 0 };
	cols(T, 9, h, right);
	table_quantity_col(T, 4, "hbm_bytes", NULL);
	table_quantity_col(T, 5, "beyond_inputs", NULL);
	size_t n;
	struct capimpl *all = capture_impls(rd, &n);
	/* the prefill shapes of the pass, in the order first seen */
	const struct capgroup *shapes[64];
	int ns = 0, missing = 0;
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < all[i].ng; k++) {
			const struct capgroup *g = &all[i].g[k];
			if (is_bwd(g->rep) != bwd || is_decode(g->rep) || !known(g->rep))
				continue;
			if (o && o->sel.n > 0 && g->rep->shape.seqlen_kv != o->sel.n)
				continue;
			int dup = 0;
			for (int j = 0; j < ns; j++)
				dup |= same_group(shapes[j]->rep, g->rep);
			if (!dup && ns < 64)
				shapes[ns++] = g;
		}
	for (int s = 0; s < ns; s++) {
		char sh[96];
		capture_shape_text(shapes[s], sh, sizeof(sh));
		int first = 1;
		for (size_t i = 0; i < n; i++)
			for (size_t k = 0; k < all[i].ng; k++)
				if (same_group(all[i].g[k].rep, shapes[s]->rep)) {
					compare_row(T, rd, first ? sh : "", impl_label(all[i].key), all[i].g[k].rep);
					first = 0;
				}
		size_t nref;
		const char *const *refs = capture_reference_variants(shapes[s]->rep, &nref);
		for (size_t j = 0; j < nref; j++) {
			const struct record *ref = capture_reference(rd, shapes[s]->rep, refs[j]);
			char lab[64];
			snprintf(lab, sizeof(lab), "attnprof %s", refs[j]);
			if (ref)
				compare_row(T, rd, "", lab, ref);
			else
				missing++;
		}
	}
	capture_impls_free(all, n);
	const struct gpu_info *g = &rd->res->header.gpu;
	struct tb b = { T->note, sizeof(T->note), 0 };
	if (!ns)
		tb_add(&b, "No %s prefill call of a known shape was captured. ", bwd ? "backward" : "forward");
	/* the time label names the time sources of the pass's captured calls, no other */
	const int kt = capture_has_kernel_timed(rd, bwd), et = capture_has_event_timed(rd, bwd);
	if (bwd)
		tb_add(&b, "Backward calls on the %s, the captured implementations (their last call per shape) beside "
		       "attnprof's own backward kernels recorded at the same B, H, Hkv, N, d, causal and dtype. time: "
		       "captured, %s; attnprof, median "
		       "of timed launches. TFLOP/s: 2.5 × 4·B·H·N²·d / time (halved for "
		       "causal), the FA2 paper's convention. dS, dP: stored when one kernel wrote at least 0.9 × one "
		       "Nq × Nkv matrix, by the same rule for every row (where traffic cannot decide: by family for a captured "
		       "call, by its descriptor, which says what it allocates, for attnprof's own).",
		       g->name ? g->name : "GPU",
		       kt && et ? "the median of unprofiled re-runs of the backward where the helper re-ran it (time "
				  "source events), else († in the time column) the sum of the call's kernel durations under "
				  "profiling"
		       : kt ? "(† in the time column) the sum of the call's kernel durations under profiling"
			    : "the median of unprofiled re-runs of the backward, each of a fresh forward (time source events)");
	else
		tb_add(&b, "Forward calls on the %s, the captured implementations (their last call per shape) beside "
		       "attnprof's own variants recorded at the same B, H, Hkv, N, d, causal and dtype. time: captured, "
		       "%s; attnprof, median of timed launches. TFLOP/s: 4·B·H·N²·d / time "
		       "(halved for causal).", g->name ? g->name : "GPU",
		       kt && et ? "median of unprofiled re-runs between CUDA events, or († in the time column) the sum of the "
				  "call's kernel durations under profiling (time source kernels)"
		       : kt ? "(† in the time column) the sum of the call's kernel durations under profiling (time source "
			      "kernels)"
			    : "median of unprofiled re-runs");
	char fc[200], fa[200];
	int unmeasured = 0; /* "–" beyond Q, K, V: the helper measured no footprint */
	for (int i = 0; i < T->nrows; i++)
		unmeasured |= !strcmp(T->cell[i][5], "–");
	tb_add(&b, " DRAM r+w: bytes read and written (CUPTI); the L2 %s for the captured calls, %s for attnprof's "
	       "records (docs/capture.md). beyond Q, K, V: device "
	       "memory the call allocated beyond its inputs (captured) or peak minus the Q, K, V buffers (attnprof)%s. "
	       "occupancy: achieved warps, tensor: tensor-pipe active cycles, both time-weighted.%s",
	       flush_policy(rd, 1, fc, sizeof(fc)), flush_policy(rd, 0, fa, sizeof(fa)),
	       unmeasured ? "; – where nothing was measured (the helper measures the memory of the calls it re-runs, "
			    "a forward's, not a backward's or a call it did not mark)" : "",
	       missing ? bwd ? " Some shapes have no backward reference record: their rows are missing."
			     : " Reference variants missing at some shapes are listed in the table of missing references."
		       : "");
}

void capture_table_missing(struct dtable *T, const struct rdata *rd, const struct figopts *o)
{
	(void)o;
	static const char *const h[] = { "a spec that records them" };
	static const int right[] = { 0 };
	cols(T, 1, h, right);
	static char buf[16384];
	int m = capture_missing_spec_text(rd, buf, sizeof(buf));
	for (char *p = buf; *p;) {
		char *e = strchr(p, '\n');
		size_t l = e ? (size_t)(e - p) : strlen(p);
		char (*row)[TCELL] = row_new(T);
		if (!row)
			break;
		size_t c = l < TCELL - 1 ? l : TCELL - 1;
		memcpy(row[0], p, c);
		row[0][c] = '\0';
		p += l + (e ? 1 : 0);
	}
	const struct capgroup **gs;
	int k = missing_groups(rd, &gs);
	struct tb b = { T->note, sizeof(T->note), 0 };
	if (k < 0)
		return;
	if (m < 0) { /* longer than the table's text: the rows stop, and say where the whole spec is */
		error_clear();
		tb_add(&b, "The spec is longer than this table shows (its first rows above); `attnprof report "
		       "--missing-spec FILE` writes it whole. ");
	}
	if (!k) {
		free(gs);
		tb_add(&b, "Every forward shape of the captured calls has its reference records.");
		return;
	}
	tb_add(&b, "%d forward shape%s of the captured calls ha%s no reference record: ", k, k == 1 ? "" : "s",
	       k == 1 ? "s" : "ve");
	for (int i = 0; i < k; i++) {
		char sh[96];
		tb_add(&b, "%s%s %s", i ? "; " : "", capture_shape_text(gs[i], sh, sizeof(sh)),
		       is_decode(gs[i]->rep) ? "decode" : "prefill");
	}
	tb_add(&b, ". Record them on a GPU with `attnprof record SPEC` (`attnprof report --missing-spec FILE` writes "
	       "this spec) and pass the results file to `attnprof report` after the capture.");
	free(gs);
}
