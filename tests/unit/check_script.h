/* check_script.h: run a checker script under tests/ against this build's binary and
 * read its "# NAME: N passed, N failed, N skipped" summary (the test binary
 * is BUILD/tests/unit/X; attnprof is BUILD/attnprof).  Failure and skip
 * lines are echoed.  Returns pclose's status, or -1 when the script could
 * not be started; *skip_tag is set when a line starts with skip_prefix. */
#ifndef ATTNPROF_CHECK_SCRIPT_H
#define ATTNPROF_CHECK_SCRIPT_H

#include <libgen.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

struct script_counts {
	int passed, failed, skipped, skip_tag;
};

static int run_check_script(const char *script, const char *name, const char *skip_prefix,
			    struct script_counts *c)
{
	char exe[4096], cmd[8400], fmt[128], line[1024];
	memset(c, 0, sizeof *c);
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return -1;
	exe[n] = '\0';
	char *build = dirname(dirname(dirname(exe)));
	snprintf(cmd, sizeof(cmd), "sh %s '%s/attnprof' 2>&1", script, build);
	snprintf(fmt, sizeof(fmt), "# %s: %%d passed, %%d failed, %%d skipped", name);
	FILE *p = popen(cmd, "r");
	if (!p)
		return -1;
	while (fgets(line, sizeof(line), p)) {
		if (!strncmp(line, "FAIL", 4) || !strncmp(line, "    ", 4) || !strncmp(line, "skip", 4))
			printf("    %s", line);
		if (skip_prefix && !strncmp(line, skip_prefix, strlen(skip_prefix)))
			c->skip_tag = 1;
		sscanf(line, fmt, &c->passed, &c->failed, &c->skipped);
	}
	return pclose(p);
}

#endif
