/* test_lint_docs.c: run tests/lint-check.sh against this build's binary
 * (the linter over the committed reports and fixture renders) and report
 * its counts as this test's. */
#include "check.h"

#if ATTNPROF_HAVE_RENDER
#include "check_script.h"

static void test_lint_check(void)
{
	struct script_counts c;
	int rc = run_check_script("tests/lint-check.sh", "lint-check", "skip lint-check:", &c);
	if (rc == -1)
		SKIP("cannot run tests/lint-check.sh");
	if (c.skip_tag)
		SKIP("lint-check skipped (pdftotext missing)");
	CHECK(c.passed + c.skipped >= 6);
	CHECK_INT(c.failed, 0);
	CHECK_INT(rc, 0);
}

TESTS(test_lint_check)
#else
static void test_built_without_render(void) { SKIP("built without the renderer"); }
TESTS(test_built_without_render)
#endif
