/* glossary.h: the abbreviations a label may take when it does not fit.
 *
 * Chart category labels (variant names such as "flash1+seqpar+splitq") that
 * would break mid-word are written with the glossary's abbreviations, and
 * the chart lists the ones it used ("sp = seqpar · sq = splitq").  A
 * template declares its glossary as data (`glossary:`, a mapping of word:
 * abbreviation, docs/templates.md); one that declares none uses the
 * built-in glossary below.  Entries are tried in order, the first word that
 * matches at a position wins.  No Cairo here.
 */
#ifndef ATTNPROF_DOC_GLOSSARY_H
#define ATTNPROF_DOC_GLOSSARY_H

#include <stddef.h>

struct gloss_entry {
	const char *word, *abbr;
};

struct glossary {
	const struct gloss_entry *e; /* n entries (the built-in's, or a template's) */
	size_t n;
};

/* The built-in glossary: the long words of the ablation rungs' names. */
extern const struct glossary glossary_builtin;

/* Abbreviate in into out (len bytes) by g (NULL: the built-in); each entry
 * used is appended to key ("sp = seqpar"), entries apart by " · ", once. */
void glossary_abbreviate(const struct glossary *g, const char *in, char *out, size_t len, char *key, size_t klen);

#endif
