/* fuzz_spec.c: libFuzzer target for the spec parser (and sweep expansion).
 * Any input must parse or be refused with a message, never crash, leak or
 * hang (libFuzzer's -timeout catches slow inputs such as alias bombs). */
#include <stddef.h>
#include <stdint.h>

#include "spec.h"
#include "util/error.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct spec s;
	error_quiet(1);
	spec_init(&s);
	if (spec_parse(&s, (const char *)data, size, "fuzz.yaml") == 0)
		spec_check_memory(&s, 139ull << 30, 132);
	spec_release(&s);
	return 0;
}
