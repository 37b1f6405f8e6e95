/* fuzz_template.c: libFuzzer target for the template language: the input
 * is a template (YAML with placeholders, selectors, `when:` conditions,
 * figure and table options), loaded and walked into the document model over
 * the small fixture and the capture fixture, as report does before drawing.
 * Errors are expected (file:line:col); crashes, hangs and UB are not. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "doc/data.h"
#include "doc/docmodel.h"
#include "doc/template.h"
#include "util/error.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct rinputs in;
	static int loaded = -1;
	static char path[64];
	error_quiet(1);
	if (loaded < 0) {
		const char *files[] = { "tests/fixtures/results-small.yaml", "tests/fixtures/capture-small.yaml" };
		loaded = rinputs_load(&in, files, 2, NULL, 0, NULL) == 0;
		snprintf(path, sizeof path, "/tmp/attnprof-fuzz-template-%ld.yaml", (long)getpid());
	}
	if (!loaded)
		abort(); /* the fixtures must load: a fuzzer without data tests nothing */
	/* template_load reads a file (its errors name it) */
	FILE *f = fopen(path, "wb");
	if (!f)
		abort();
	if (size && fwrite(data, 1, size, f) != size)
		abort();
	fclose(f);
	struct template t;
	if (template_load(&t, path) == 0) {
		struct rdata rd;
		rdata_init_inputs(&rd, &in);
		struct docmodel m;
		if (docmodel_build(&m, &t, &rd, 1) == 0)
			docmodel_release(&m);
		template_release(&t);
	}
	return 0;
}
