/* cmd_record.c: 'attnprof record' — being written. */
#include <string.h>
#include <stdio.h>

#include "commands.h"
#include "util/error.h"

int cmd_record(int argc, char **argv)
{
	(void)argc; (void)argv;
	error("'record' is not implemented yet in attnprof %s", ATTNPROF_VERSION);
	return EXIT_FAILURE_RUN;
}
