/* kernel_name.c: see kernel_name.h. */
#include "render/kernel_name.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KERNEL_NAME_MAX 36 /* characters of a kernel's name a table shows */

int kernel_short_name(const char *name, char *out, size_t len)
{
	snprintf(out, len, "%s", name);
	if (strncmp(name, "_Z", 2)) {
		if (strlen(name) <= KERNEL_NAME_MAX || len < KERNEL_NAME_MAX + 4)
			return 0;
		/* a long plain name: its start, the rest in the note */
		size_t k = KERNEL_NAME_MAX - 1;
		while (k && ((unsigned char)name[k] & 0xC0) == 0x80)
			k--;
		snprintf(out, len, "%.*s…", (int)k, name);
		return 1;
	}
	const char *p = name + 2;
	int nested = *p == 'N';
	if (nested)
		p++;
	char buf[200] = "";
	size_t u = 0;
	while (*p >= '0' && *p <= '9') {
		char *e;
		long n = strtol(p, &e, 10);
		if (n <= 0 || n > 120 || (long)strnlen(e, (size_t)n) < n)
			return 0;
		u += (size_t)snprintf(buf + u, sizeof(buf) - u, "%s%.*s", u ? "::" : "", (int)n, e);
		if (u >= sizeof(buf))
			return 0;
		p = e + n;
		if (!nested)
			break;
	}
	if (!u)
		return 0;
	snprintf(out, len, "%s%s", buf, *p == 'I' ? "<…>" : "");
	return 1;
}
