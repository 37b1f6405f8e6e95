/* file.c: see file.h. */
#include "file.h"
#include "error.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int read_whole_file(const char *path, size_t max, const char *what, char **out, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return error("cannot open %s '%s': %s", what, path, strerror(errno));
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap + 1);
	while (buf) {
		n += fread(buf + n, 1, cap - n, f);
		if (n < cap || ferror(f))
			break;
		if (cap > max) {
			fclose(f);
			free(buf);
			return error("%s '%s' is larger than %zu bytes: not read", what, path, max);
		}
		char *p = realloc(buf, 2 * cap + 1);
		if (!p) {
			free(buf);
			buf = NULL;
			break;
		}
		buf = p;
		cap *= 2;
	}
	int bad = ferror(f);
	fclose(f);
	if (!buf)
		return error("out of memory reading %s '%s'", what, path);
	if (bad) {
		free(buf);
		return error("cannot read %s '%s': %s", what, path, strerror(errno));
	}
	buf[n] = '\0';
	*out = buf;
	*len = n;
	return 0;
}
