/* bad_files.h: run a loader over every fixture of a folder of bad inputs.
 *
 * Each file's first line says "# expect: <text the error must contain>".
 * The loader must fail (-1), quickly, with that text in error_last() and,
 * when name_in_message is set, the file's name too.  Returns the number of
 * files tried. */
#ifndef ATTNPROF_BAD_FILES_H
#define ATTNPROF_BAD_FILES_H

#include <dirent.h>
#include <time.h>

#include "check.h"
#include "util/error.h"

static int check_bad_files(const char *dir, int (*load)(const char *path), int name_in_message)
{
	DIR *d = opendir(dir);
	CHECK(d != NULL);
	if (!d)
		return 0;
	struct dirent *e;
	int count = 0;
	while ((e = readdir(d))) {
		if (!strstr(e->d_name, ".yaml"))
			continue;
		char path[512], expect[256] = "";
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		char *text = check_slurp(path, NULL);
		CHECK(text != NULL);
		if (text && !strncmp(text, "# expect: ", 10))
			snprintf(expect, sizeof(expect), "%.*s", (int)strcspn(text + 10, "\n"), text + 10);
		free(text);
		CHECK(expect[0] != '\0');
		int old = error_quiet(1);
		clock_t t0 = clock();
		int rc = load(path);
		double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
		error_quiet(old);
		if (rc == 0 || !strstr(error_last(), expect))
			printf("    %s: rc %d, message \"%s\", expected \"%s\"\n", e->d_name, rc, error_last(), expect);
		CHECK_INT(rc, -1);
		CHECK_CONTAINS(error_last(), expect);
		if (name_in_message)
			CHECK_CONTAINS(error_last(), e->d_name);
		CHECK(secs < 1.0); /* hostile input is refused quickly */
		count++;
	}
	closedir(d);
	return count;
}

#endif
