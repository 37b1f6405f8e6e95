/* kernel_name.c: see kernel_name.h. */
#include "doc/kernel_name.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/ustr.h"

#define KERNEL_NAME_MAX 36 /* characters of a kernel's name a table shows */

int kernel_short_name(const char *name, char *out, size_t len)
{
	/* names come from other programs: every copy is bounded and a cut marked "…" */
	int cut = ustr_copy(out, len, name);
	if (strncmp(name, "_Z", 2)) {
		if (strlen(name) <= KERNEL_NAME_MAX)
			return cut;
		/* a long plain name: its start, the rest in the note */
		ustr_prefix(out, len, name, KERNEL_NAME_MAX - 1);
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
			return cut;
		u += (size_t)snprintf(buf + u, sizeof(buf) - u, "%s%.*s", u ? "::" : "", (int)n, e);
		if (u >= sizeof(buf))
			return cut;
		p = e + n;
		if (!nested)
			break;
	}
	if (!u)
		return cut;
	struct ustr o;
	ustr_init(&o, out, len);
	ustr_adds(&o, buf);
	if (*p == 'I')
		ustr_adds(&o, "<…>");
	return 1;
}
