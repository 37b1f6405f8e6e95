/* patent_desc.c: the brief description of the drawings; see patent_desc.h. */
#include "render/patent_desc.h"

#include <stdlib.h>
#include <string.h>

#include "doc/inline.h"

int pdesc_sentence(struct sbuf *out, const char *label, const char *caption)
{
	size_t n = strlen(caption);
	while (n && (caption[n - 1] == ' ' || caption[n - 1] == '\n'))
		n--;
	int stop = n && caption[n - 1] == '.';
	return sbuf_addf(out, "%c%s%c is %.*s%s", inline_mark(INLINE_BOLD, 1), label, inline_mark(INLINE_BOLD, 0), (int)n,
			 caption, stop ? "" : ".");
}

static int by_numeral(const void *a, const void *b)
{
	const struct part *p = *(const struct part *const *)a, *q = *(const struct part *const *)b;
	return (p->numeral > q->numeral) - (p->numeral < q->numeral);
}

int pdesc_list(struct sbuf *out, const struct numerals *num, const int *const *parts, const int *nparts,
	       size_t nviews)
{
	if (!num->n)
		return 0;
	char *seen = calloc(num->n, 1);
	const struct part **list = calloc(num->n, sizeof(*list));
	int n = 0, rc = 0;
	if (!seen || !list)
		rc = -1;
	for (size_t v = 0; !rc && v < nviews; v++)
		for (int k = 0; k < nparts[v]; k++) {
			int i = parts[v][k];
			if (i >= 0 && (size_t)i < num->n && !seen[i]) {
				seen[i] = 1;
				list[n++] = &num->parts[i];
			}
		}
	if (!rc)
		qsort(list, (size_t)n, sizeof(*list), by_numeral);
	for (int i = 0; !rc && i < n; i++)
		if (sbuf_addf(out, "%s%d — %s", i ? "\n\n" : "", list[i]->numeral, list[i]->what) ||
		    (list[i]->also[0] && sbuf_addf(out, "\n\n%d — %s", list[i]->numeral, list[i]->also)))
			rc = -1;
	free(seen);
	free(list);
	return rc ? -1 : n;
}
