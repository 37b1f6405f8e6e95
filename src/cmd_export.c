/* cmd_export.c: 'attnprof export' — being written. */
#include <string.h>
#include <stdio.h>

#include "commands.h"
#include "util/error.h"

int cmd_export(int argc, char **argv)
{
	(void)argc; (void)argv;
	error("'export' is not implemented yet in attnprof %s", ATTNPROF_VERSION);
	return EXIT_FAILURE_RUN;
}
