/* glossary.c: abbreviations for labels that do not fit; see glossary.h. */
#include "doc/glossary.h"

#include <stdio.h>
#include <string.h>

static const struct gloss_entry builtin[] = {
	{ "lazyrescale", "lazy" }, { "seqpar", "sp" }, { "splitq", "sq" },
	{ "pingpong", "pp" }, { "overlap", "ov" }, { "tma+ws", "ws" },
};
const struct glossary glossary_builtin = { builtin, sizeof(builtin) / sizeof(builtin[0]) };

void glossary_abbreviate(const struct glossary *g, const char *in, char *out, size_t len, char *key, size_t klen)
{
	if (!g)
		g = &glossary_builtin;
	size_t u = 0;
	for (const char *p = in; *p && u + 1 < len;) {
		size_t k;
		for (k = 0; k < g->n; k++)
			if (!strncmp(p, g->e[k].word, strlen(g->e[k].word)))
				break;
		if (k == g->n) {
			out[u++] = *p++;
			continue;
		}
		int w = snprintf(out + u, len - u, "%s", g->e[k].abbr);
		u = w > 0 && (size_t)w < len - u ? u + (size_t)w : len - 1;
		p += strlen(g->e[k].word);
		char entry[160];
		snprintf(entry, sizeof(entry), "%s = %s", g->e[k].abbr, g->e[k].word);
		if (!strstr(key, entry))
			snprintf(key + strlen(key), klen - strlen(key), "%s%s", key[0] ? " · " : "", entry);
	}
	out[u] = '\0';
}
