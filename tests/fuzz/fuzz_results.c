/* fuzz_results.c: libFuzzer target for the results reader and the export
 * of whatever it accepts. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "export.h"
#include "results.h"
#include "util/error.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct results r;
	error_quiet(1);
	if (results_parse(&r, (const char *)data, size, "fuzz.yaml", NULL) == 0) {
		FILE *f = fopen("/dev/null", "w");
		if (f) {
			export_records(f, r.records, r.nrecords, EXPORT_JSON);
			results_write(&r, f);
			fclose(f);
		}
		results_release(&r);
	}
	return 0;
}
