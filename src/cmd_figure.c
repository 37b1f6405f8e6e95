/* cmd_figure.c: 'attnprof figure' — not built yet (see the issue tracker). */
#include <string.h>
#include <stdio.h>

#include "commands.h"
#include "util/error.h"

int cmd_figure(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "--help")) {
		printf("usage: attnprof figure ...\n(not implemented yet)\n");
		return EXIT_OK;
	}
	error("'figure' is not implemented yet in attnprof %s", ATTNPROF_VERSION);
	return EXIT_FAILURE_RUN;
}
