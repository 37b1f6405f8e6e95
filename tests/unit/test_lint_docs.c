/* test_lint_docs.c: run tests/lint-check.sh against this build's binary
 * (the linter over the committed reports and fixture renders) and report
 * its counts as this test's. */
#include "check.h"

#if ATTNPROF_HAVE_RENDER
#include <libgen.h>
#include <unistd.h>

static void test_lint_check(void)
{
	/* this binary is BUILD/tests/unit/test_lint_docs; attnprof is BUILD/attnprof */
	char exe[4096], cmd[8400];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		SKIP("cannot find the build folder");
	exe[n] = '\0';
	char *build = dirname(dirname(dirname(exe)));
	snprintf(cmd, sizeof(cmd), "sh tests/lint-check.sh '%s/attnprof' 2>&1", build);
	FILE *p = popen(cmd, "r");
	if (!p)
		SKIP("cannot run tests/lint-check.sh");
	char line[1024];
	int failed = 0, passed = 0, skipped = 0, no_tools = 0;
	while (fgets(line, sizeof(line), p)) {
		if (!strncmp(line, "FAIL", 4) || !strncmp(line, "    ", 4) || !strncmp(line, "skip", 4))
			printf("    %s", line);
		no_tools |= !strncmp(line, "skip lint-check:", 16);
		sscanf(line, "# lint-check: %d passed, %d failed, %d skipped", &passed, &failed, &skipped);
	}
	int rc = pclose(p);
	if (no_tools)
		SKIP("lint-check skipped (pdftotext missing)");
	CHECK(passed + skipped >= 6);
	CHECK_INT(failed, 0);
	CHECK_INT(rc, 0);
}

TESTS(test_lint_check)
#else
static void test_built_without_render(void) { SKIP("built without the renderer"); }
TESTS(test_built_without_render)
#endif
