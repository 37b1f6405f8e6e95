/* cmd_report.c: 'attnprof report' — not built yet (see the issue tracker). */
#include <string.h>
#include <stdio.h>

#include "commands.h"
#include "util/error.h"

int cmd_report(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "--help")) {
		printf("usage: attnprof report ...\n(not implemented yet)\n");
		return EXIT_OK;
	}
	error("'report' is not implemented yet in attnprof %s", ATTNPROF_VERSION);
	return EXIT_FAILURE_RUN;
}
