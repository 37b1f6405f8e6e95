/* test_render_docs.c: run tests/render-check.sh against this build's
 * binary (documents in every style, rasterised and text-extracted), and
 * report its counts as this test's. */
#include "check.h"

#if ATTNPROF_HAVE_RENDER
#include "check_script.h"

static void test_render_check(void)
{
	struct script_counts c;
	int rc = run_check_script("tests/render-check.sh", "render-check", NULL, &c);
	if (rc == -1)
		SKIP("cannot run tests/render-check.sh");
	if (c.skipped && !c.passed && !c.failed)
		SKIP("render-check skipped (tools missing)");
	CHECK(c.passed > 40);
	CHECK_INT(c.failed, 0);
	CHECK_INT(rc, 0);
}

TESTS(test_render_check)
#else
static void test_built_without_render(void) { SKIP("built without the renderer"); }
TESTS(test_built_without_render)
#endif
