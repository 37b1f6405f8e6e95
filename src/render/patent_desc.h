/* patent_desc.h: the brief description of the drawings (37 CFR 1.74) and
 * its list of reference numerals, as paragraphs for the description pages.
 *
 * One sentence a view, "FIG. 3A is a block diagram of …", from the view's
 * caption (a template's caption names the kind of view and what it shows);
 * then the reference numerals of every view, each once, ascending, one a
 * line: "12 — query matrix".  A numeral is listed when a view drew it (the
 * plan pass records the parts each figure used), so the list and the
 * drawings agree by construction; the patent lint profile checks the PDF.
 * Both are the document model's inline text (doc/inline.h), as the
 * captions they quote are.
 */
#ifndef ATTNPROF_RENDER_PATENT_DESC_H
#define ATTNPROF_RENDER_PATENT_DESC_H

#include <stddef.h>

#include "render/draw.h"
#include "doc/interp.h"

/* "FIG. 3A is CAPTION.", the label bold (a full stop added when the caption has none). */
int pdesc_sentence(struct sbuf *out, const char *label, const char *caption);

/* The list: parts[k] of view v are numeral indices into num->parts.  Each
 * entry is a paragraph of its own ("\n\n" between them).
 * Returns the number of entries, or -1 when out of memory. */
int pdesc_list(struct sbuf *out, const struct numerals *num, const int *const *parts, const int *nparts,
	       size_t nviews);

#endif
