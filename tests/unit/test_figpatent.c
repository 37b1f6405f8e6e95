/* test_figpatent.c: the patent views' builders without Cairo
 * (doc/figpatent.h): each bar is the record of its series at the view's
 * conditions and its category, its value that record's; the parts a view
 * names are the descriptor's.  Runs in the RENDER=0 build too. */
#include "check.h"

#include <math.h>
#include <stdlib.h>

#include "variants.h"

#include "doc/capreview.h"
#include "doc/figpatent.h"
#include "fig_inputs.h"
#include "doc/figure.h"

/* patent-throughput: one panel at fig_sel; every bar the record of its
 * series at that d, mask and the category's N, with its TFLOP/s; hi the
 * largest; a series without a descriptor named by its place */
static void test_patent_throughput(void)
{
	struct in x;
	static const char *const f[] = { "tests/fixtures/results-small.yaml" };
	if (load_n(&x, f, 1))
		SKIP("fixture missing");
	struct figopts o;
	figopts_init(&o);
	struct figdesc d;
	figdesc_init(&d, "patent-throughput");
	CHECK_INT(figdesc_patent_throughput(&x.rd, &o, &d), 0);
	CHECK(!d.notice[0]);
	CHECK_INT(d.npanels, 1);
	CHECK(d.nseries >= 2);
	const struct figpanel *pn = &d.panel[0];
	struct rsel sel;
	fig_sel(&x.rd, &o, &sel);
	CHECK_INT(pn->sel.d, sel.d);
	CHECK_INT(pn->sel.causal, sel.causal);
	CHECK_STR(pn->quantity, "tflops");
	CHECK(pn->ncat >= 2);
	double top = 0;
	size_t values = 0;
	for (size_t s = 0; s < d.nseries; s++) {
		CHECK(d.series[s].generic[0] != '\0');
		if (!variant_find(d.series[s].key))
			CHECK(strstr(d.series[s].generic, "reference implementation") != NULL);
		for (size_t i = 0; i < pn->ncat; i++) {
			const struct figpoint *q = figdesc_at(&d, 0, s, i);
			CHECK(q != NULL);
			if (!q || q->state == FP_NONE)
				continue;
			struct rsel s1 = sel;
			s1.n = pn->cat[i];
			CHECK(q->rec == rdata_find(&x.rd, d.series[s].key, &s1));
			CHECK(used_has(&d, q->rec));
			CHECK(!q->whisker);
			if (q->state != FP_VALUE)
				continue;
			CHECK_NEAR(q->v, q->rec->tflops, 1e-12);
			top = fmax(top, q->v);
			values++;
		}
	}
	CHECK(values >= 4);
	CHECK_NEAR(pn->hi, top, 0);
	figdesc_release(&d);
	/* no record at these conditions: the notice, no bars */
	o.sel.d = 7;
	figdesc_init(&d, "patent-throughput");
	CHECK_INT(figdesc_patent_throughput(&x.rd, &o, &d), 0);
	CHECK_STR(d.notice, "no throughput");
	CHECK_INT(d.nused, 0);
	figdesc_release(&d);
	rinputs_release(&x.in);
}

/* patent-ladder: the ladder's rungs, their TFLOP/s only; a "rung" part
 * per rung with a value, numbered in order and named by its place */
static void test_patent_ladder(void)
{
	struct in x;
	static const char *const f[] = { "tests/fixtures/results-small.yaml" };
	if (load_n(&x, f, 1))
		SKIP("fixture missing");
	struct figopts o;
	figopts_init(&o);
	struct figdesc d, l;
	figdesc_init(&d, "patent-ladder");
	figdesc_init(&l, "ladder");
	CHECK_INT(figdesc_patent_ladder(&x.rd, &o, &d), 0);
	CHECK_INT(figdesc_ladder(&x.rd, &o, &l), 0);
	CHECK(!d.notice[0]);
	CHECK_INT(d.nseries, 1); /* the step is not drawn on the sheet */
	CHECK_STR(d.series[0].key, "tflops");
	CHECK_INT(d.panel[0].ncat, l.panel[0].ncat);
	size_t n = 0;
	for (size_t i = 0; i < l.panel[0].ncat; i++) {
		const struct figpoint *t = figdesc_at(&d, 0, 0, i), *lt = figdesc_at(&l, 0, 0, i);
		CHECK(t->rec == lt->rec);
		if (lt->state != FP_VALUE)
			continue;
		CHECK_NEAR(t->v, lt->v, 0);
		const struct figitem *it = figdesc_part(&d, "rung", n);
		CHECK(it != NULL);
		if (it)
			CHECK_NEAR(it->v, (double)i, 0);
		n++;
	}
	CHECK(n >= 2);
	CHECK(figdesc_part(&d, "rung", n) == NULL);
	CHECK_STR(figdesc_part(&d, "rung", 0)->what, "bar of the first tiled computation");
	figdesc_release(&d);
	figdesc_release(&l);
	rinputs_release(&x.in);
	/* no ladder in the results: the sheet's notice */
	static const char *const cap[] = { "tests/fixtures/capture-small.yaml" };
	if (load_n(&x, cap, 1))
		SKIP("capture fixture missing");
	figdesc_init(&d, "patent-ladder");
	CHECK_INT(figdesc_patent_ladder(&x.rd, &o, &d), 0);
	CHECK_STR(d.notice, "no ladder");
	CHECK(figdesc_part(&d, "rung", 0) == NULL);
	figdesc_release(&d);
	rinputs_release(&x.in);
}

/* patent-capture-throughput: a category per KV length of the captured
 * forward calls of known shape; a captured series' bar is its call at that
 * shape, the conventional and the subject's capture_reference's */
static void test_patent_capture_throughput(void)
{
	struct in x;
	static const char *const f[] = { "tests/fixtures/capture-small.yaml", "tests/fixtures/results-small.yaml" };
	if (load_n(&x, f, 2))
		SKIP("fixtures missing");
	struct figopts o;
	figopts_init(&o);
	struct figdesc d;
	figdesc_init(&d, "patent-capture-throughput");
	CHECK_INT(figdesc_patent_capture_throughput(&x.rd, &o, &d), 0);
	CHECK(!d.notice[0]);
	CHECK(d.nseries >= 3);
	const struct figpanel *pn = &d.panel[0];
	CHECK(pn->ncat >= 1);
	for (size_t i = 1; i < pn->ncat; i++)
		CHECK(pn->cat[i] > pn->cat[i - 1]);
	const size_t nimpl = d.nseries - 2;
	CHECK_STR(d.series[nimpl].key, variant_role(DOC_CONVENTIONAL));
	CHECK_STR(d.series[nimpl + 1].key, variant_role(DOC_SUBJECT));
	size_t captured = 0;
	double top = 0;
	for (size_t s = 0; s < d.nseries; s++) {
		if (s < nimpl)
			CHECK(strstr(d.series[s].generic, "captured computation") != NULL);
		for (size_t i = 0; i < pn->ncat; i++) {
			const struct figpoint *q = figdesc_at(&d, 0, s, i);
			if (q->state == FP_NONE)
				continue;
			CHECK_INT(q->rec->shape.seqlen_kv, pn->cat[i]);
			CHECK(used_has(&d, q->rec));
			if (s < nimpl) {
				CHECK(q->rec->capture != NULL);
				CHECK_INT(q->rec->shape.pass, PASS_FWD);
				captured++;
			} else
				CHECK(q->rec->capture == NULL);
			if (q->state == FP_VALUE) {
				CHECK_NEAR(q->v, q->rec->tflops, 0);
				top = fmax(top, q->v);
			}
		}
	}
	CHECK(captured >= 1);
	CHECK_NEAR(pn->hi, top, 0);
	figdesc_release(&d);
	rinputs_release(&x.in);
	/* nothing captured: the notice */
	static const char *const g[] = { "tests/fixtures/results-small.yaml" };
	if (load_n(&x, g, 1))
		SKIP("fixture missing");
	figdesc_init(&d, "patent-capture-throughput");
	CHECK_INT(figdesc_patent_capture_throughput(&x.rd, &o, &d), 0);
	CHECK_STR(d.notice, "no throughput");
	CHECK_INT(d.nseries, 0);
	figdesc_release(&d);
	rinputs_release(&x.in);
}

/* patent-dataflow: a matrix per descriptor buffer (S and P twice as tall),
 * a tile per on-chip tile by where it lives, or the kernels of a variant
 * without tiles; each with its reference character and its part */
static void test_patent_dataflow(void)
{
	struct in x;
	static const char *const f[] = { "tests/fixtures/results-small.yaml" };
	if (load_n(&x, f, 1))
		SKIP("fixture missing");
	static const char *const vs[] = { "flash2", "standard", "pytorch-sdpa:FLASH_ATTENTION" };
	int tiled = 0, kernels = 0;
	for (int k = 0; k < 3; k++) {
		struct figopts o;
		figopts_init(&o);
		snprintf(o.variant, sizeof o.variant, "%s", vs[k]);
		struct pview pv;
		const struct variant_desc *v = patent_view(&x.rd, &o, &pv);
		struct figdesc d;
		figdesc_init(&d, "patent-dataflow");
		CHECK_INT(figdesc_patent_dataflow(&x.rd, &o, &d), 0);
		CHECK((v == NULL) == (k == 2));
		CHECK(!!d.notice[0] == (v == NULL));
		if (!v) {
			CHECK_INT(d.nitems, 0);
			figdesc_release(&d);
			continue;
		}
		const struct figitem *it;
		size_t nm = 0;
		for (; (it = figdesc_part(&d, "matrix", nm)); nm++) {
			CHECK_STR(it->name, v->buffers[nm].name);
			CHECK(it->label[0] && it->what[0]);
			CHECK_INT(!strcmp(it->state, "nxn"), it->name[0] == 'S' || it->name[0] == 'P');
		}
		CHECK_INT(nm, v->nbuffers < MAX_BUFFERS ? v->nbuffers : MAX_BUFFERS);
		it = figdesc_part(&d, "matrix", 0);
		if (it && !strcmp(it->name, "Q")) {
			CHECK_STR(it->label, "Q");
			CHECK_STR(it->what, "query matrix");
		}
		size_t nt = 0;
		for (; (it = figdesc_part(&d, "tile", nt)); nt++) {
			CHECK_STR(it->name, v->tiles[nt].name);
			CHECK_STR(it->state, v->tiles[nt].where == IN_SHARED ? "shared" : "registers");
		}
		CHECK_INT(nt, v->ntiles);
		size_t nk = 0;
		while (figdesc_part(&d, "kernel", nk))
			nk++;
		CHECK_INT(nk, v->ntiles ? 0 : (v->nkernels < 4 ? v->nkernels : 4));
		tiled += nt > 0;
		kernels += nk > 0;
		const struct figitem *sz = figdesc_part(&d, "size", 0);
		CHECK((sz != NULL) == !v->ntiles);
		if (sz)
			CHECK_NEAR(sz->v, (double)v->nkernels, 0);
		figdesc_release(&d);
	}
	CHECK_INT(tiled, 1); /* flash2 draws its tiles, standard its kernels */
	CHECK_INT(kernels, 1);
	/* the names of parts: a buffer's and a tile's, none for an unknown key */
	const char *chr = "x", *what = "y";
	CHECK_INT(patent_part_name(1, "S_ij", &chr, &what), 0);
	CHECK_STR(chr, "Sᵢⱼ");
	CHECK_STR(what, "score tile");
	CHECK_INT(patent_part_name(0, "S_ij", &chr, &what), 1);
	CHECK_STR(chr, "Sᵢⱼ");
	rinputs_release(&x.in);
}

/* the kinds name these builders (figure_kinds[]) */
static void test_kinds_built(void)
{
	static const struct {
		const char *kind;
		int (*build)(const struct rdata *, const struct figopts *, struct figdesc *);
	} k[] = {
		{ "patent-throughput", figdesc_patent_throughput },
		{ "patent-ladder", figdesc_patent_ladder },
		{ "patent-capture-throughput", figdesc_patent_capture_throughput },
		{ "patent-dataflow", figdesc_patent_dataflow },
	};
	for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
		const struct figkind *fk = figkind_find(k[i].kind);
		CHECK(fk != NULL);
		if (fk)
			CHECK(fk->build == k[i].build);
	}
}

TESTS(test_patent_throughput, test_patent_ladder, test_patent_capture_throughput, test_patent_dataflow, test_kinds_built)
