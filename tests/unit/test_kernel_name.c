/* test_kernel_name.c: kernels' names as tables and figures show them. */
#include "check.h"

#include "doc/kernel_name.h"

static void test_mangled(void)
{
	char out[120];
	/* nested names with template arguments */
	CHECK_INT(kernel_short_name("_ZN5flash9flash_fwdI6__halfLi128ELb1ELb1ELb1EEEv12flash_params", out, sizeof out), 1);
	CHECK_STR(out, "flash::flash_fwd<…>");
	CHECK_INT(kernel_short_name("_ZN13pytorch_flash16flash_fwd_kernelI23Flash_fwd_kernel_traitsILi128EEEEvNS_16Flash_fwd_paramsE",
				    out, sizeof out), 1);
	CHECK_STR(out, "pytorch_flash::flash_fwd_kernel<…>");
	/* a plain function */
	CHECK_INT(kernel_short_name("_Z12softmax_rowsPKtPti", out, sizeof out), 1);
	CHECK_STR(out, "softmax_rows");
	/* a length that runs past the name: kept as given */
	CHECK_INT(kernel_short_name("_ZN99short", out, sizeof out), 0);
	CHECK_STR(out, "_ZN99short");
}

static void test_plain(void)
{
	char out[120];
	CHECK_INT(kernel_short_name("attnprof_l2_flush", out, sizeof out), 0);
	CHECK_STR(out, "attnprof_l2_flush");
	/* a long plain name: its first 35 characters and an ellipsis */
	CHECK_INT(kernel_short_name("cudnn_generated_fort_native_sdpa_sm90_flash_fprop_wgmma_f16_knob_3", out, sizeof out), 1);
	CHECK_STR(out, "cudnn_generated_fort_native_sdpa_sm…");
	/* a small buffer is cut, never overrun, the cut marked */
	CHECK_INT(kernel_short_name("attnprof_l2_flush", out, 6), 1);
	CHECK_STR(out, "at…");
}

/* a mangled name that cannot be shortened (_ZL…, a component over 120
 * characters) and is longer than the buffer: cut at a character with "…"
 * (it was cut bare at the buffer's end, and fit_name then wrote past it) */
static void test_mangled_unshortened_long(void)
{
	char name[400], out[160];
	snprintf(name, sizeof name, "_ZL%s", "");
	size_t n = strlen(name);
	for (; n < 300; n++)
		name[n] = n % 7 ? 'k' : '_';
	name[n] = '\0';
	CHECK_INT(kernel_short_name(name, out, sizeof out), 1);
	CHECK_INT(strlen(out), sizeof out - 1);
	CHECK(!strcmp(out + strlen(out) - 3, "…"));
	CHECK(!strncmp(out, "_ZL", 3));
	/* a component over 120 characters */
	snprintf(name, sizeof name, "_Z200%s", "");
	n = strlen(name);
	while (n < 5 + 200) /* "_Z200" and 200 letters: longer than out */
		name[n++] = 'a';
	name[n] = '\0';
	CHECK_INT(kernel_short_name(name, out, sizeof out), 1);
	CHECK(!strcmp(out + strlen(out) - 3, "…"));
	/* UTF-8 in a plain name is cut at a character */
	CHECK_INT(kernel_short_name("é_é_é_é_é_é_é_é_é_é_é_é_é_é_é_é_é_é_é_é", out, 12), 1);
	CHECK_STR(out, "é_é_é…");
}

TESTS(test_mangled, test_plain, test_mangled_unshortened_long)
