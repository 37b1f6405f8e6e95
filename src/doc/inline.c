/* inline.c: the document model's inline text; see inline.h. */
#include "doc/inline.h"

#include <stdlib.h>
#include <string.h>

void inline_walk(const char *s, const struct inline_out *out, void *ctx)
{
	while (s && *s) {
		if (inline_is_mark(*s)) {
			int k = *s - INLINE_OPEN;
			out->style(ctx, (enum inline_style)(k / 2), !(k % 2));
			s++;
			continue;
		}
		size_t n = 1;
		while (s[n] && !inline_is_mark(s[n]))
			n++;
		out->text(ctx, s, n);
		s += n;
	}
}

char *inline_plain(const char *s)
{
	char *out = malloc(strlen(s ? s : "") + 1), *o = out;
	if (!out)
		return NULL;
	for (; s && *s; s++)
		if (!inline_is_mark(*s))
			*o++ = *s;
	*o = '\0';
	return out;
}
