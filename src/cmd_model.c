/* cmd_model.c: 'attnprof model' — not built yet (see the issue tracker). */
#include <string.h>
#include <stdio.h>

#include "commands.h"
#include "util/error.h"

int cmd_model(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "--help")) {
		printf("usage: attnprof model ...\n(not implemented yet)\n");
		return EXIT_OK;
	}
	error("'model' is not implemented yet in attnprof %s", ATTNPROF_VERSION);
	return EXIT_FAILURE_RUN;
}
