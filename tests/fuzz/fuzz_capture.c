/* fuzz_capture.c: libFuzzer target for capture files (`record -- CMD`'s
 * results: kernel names, grids and shapes from programs nobody here wrote).
 * Whatever the results reader accepts is read as the documents read it,
 * without Cairo: the captured implementations and their groups, each call's
 * main kernel, grid map, shape, verdict and short kernel names, every
 * `{$v.capture.NAME}` value, and the whole impl-review template's model. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "doc/capreview.h"
#include "doc/data.h"
#include "doc/docmodel.h"
#include "doc/kernel_name.h"
#include "doc/template.h"
#include "results.h"
#include "util/error.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void read_calls(const struct rdata *rd)
{
	size_t ni;
	struct capimpl *impls = capture_impls(rd, &ni);
	char buf[1024];
	for (size_t i = 0; i < ni; i++) {
		const struct capimpl *im = &impls[i];
		for (size_t g = 0; g < im->ng; g++) {
			const struct capgroup *cg = &im->g[g];
			capture_shape_text(cg, buf, sizeof buf);
			const struct record *rec = cg->rep;
			if (!rec)
				continue;
			capture_verdict_text(rd, rec, buf, sizeof buf);
			const struct launch *l = capture_main_launch(rec);
			if (l) {
				struct gridmap m;
				capture_gridmap(rd, rec, l, &m);
			}
			for (size_t k = 0; k < rec->nlaunches; k++)
				kernel_short_name(rec->launches[k].name ? rec->launches[k].name : "?", buf, sizeof buf);
			size_t nref;
			const char *const *refs = capture_reference_variants(rec, &nref);
			for (size_t k = 0; k < nref; k++)
				capture_reference(rd, rec, refs[k]);
		}
		capture_main_group(im, 4096);
		for (size_t k = 0; k < capture_value_count; k++) {
			int is_text;
			double num;
			enum qunit unit;
			capture_value(rd, im->key, capture_value_rows[k].name, &is_text, &num, &unit, buf, sizeof buf);
		}
	}
	capture_impls_free(impls, ni);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct template t;
	static int have_template = -1;
	error_quiet(1);
	if (have_template < 0)
		have_template = template_load(&t, "templates/impl-review.yaml") == 0;
	struct results r;
	if (results_parse(&r, (const char *)data, size, "fuzz.yaml", NULL) == 0) {
		struct rdata rd;
		records_resolve(&r, (double)r.header.gpu.hw.l2_bytes);
		rdata_init(&rd, &r, "fuzz.yaml");
		read_calls(&rd);
		if (have_template) {
			struct docmodel m;
			if (docmodel_build(&m, &t, &rd, 1) == 0)
				docmodel_release(&m);
		}
		results_release(&r);
	}
	return 0;
}
