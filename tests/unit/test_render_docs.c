/* test_render_docs.c: run tests/render-check.sh against this build's
 * binary (documents in every style, rasterised and text-extracted), and
 * report its counts as this test's. */
#include "check.h"

#if ATTNPROF_HAVE_RENDER
#include <libgen.h>
#include <unistd.h>

static void test_render_check(void)
{
	/* this binary is BUILD/tests/unit/test_render_docs; attnprof is BUILD/attnprof */
	char exe[4096], cmd[8400];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		SKIP("cannot find the build folder");
	exe[n] = '\0';
	char *build = dirname(dirname(dirname(exe)));
	snprintf(cmd, sizeof(cmd), "sh tests/render-check.sh '%s/attnprof' 2>&1", build);
	FILE *p = popen(cmd, "r");
	if (!p)
		SKIP("cannot run tests/render-check.sh");
	char line[1024];
	int failed = 0, passed = 0, skipped = 0;
	while (fgets(line, sizeof(line), p)) {
		if (!strncmp(line, "FAIL", 4) || !strncmp(line, "    ", 4) || !strncmp(line, "skip", 4))
			printf("    %s", line);
		sscanf(line, "# render-check: %d passed, %d failed, %d skipped", &passed, &failed, &skipped);
	}
	int rc = pclose(p);
	if (skipped && !passed && !failed)
		SKIP("render-check skipped (tools missing)");
	CHECK(passed > 40);
	CHECK_INT(failed, 0);
	CHECK_INT(rc, 0);
}

TESTS(test_render_check)
#else
static void test_built_without_render(void) { SKIP("built without the renderer"); }
TESTS(test_built_without_render)
#endif
