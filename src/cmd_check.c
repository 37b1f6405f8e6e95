/* cmd_check.c: 'attnprof check' — being written. */
#include <string.h>
#include <stdio.h>

#include "commands.h"
#include "util/error.h"

int cmd_check(int argc, char **argv)
{
	(void)argc; (void)argv;
	error("'check' is not implemented yet in attnprof %s", ATTNPROF_VERSION);
	return EXIT_FAILURE_RUN;
}
