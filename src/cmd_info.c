/* cmd_info.c: 'attnprof info' — being written. */
#include <string.h>
#include <stdio.h>

#include "commands.h"
#include "util/error.h"

int cmd_info(int argc, char **argv)
{
	(void)argc; (void)argv;
	error("'info' is not implemented yet in attnprof %s", ATTNPROF_VERSION);
	return EXIT_FAILURE_RUN;
}
