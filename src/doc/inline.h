/* inline.h: the document model's inline text, in no back end's terms.
 *
 * Every text of the model (docmodel.h: titles, paragraphs, bullets,
 * captions) is UTF-8 with three styles, each opened and closed by a mark:
 * a control byte that template text and interpolated values never carry
 * (interp.c drops such bytes from both).  Nothing else is special: '<' and
 * '&' are characters, so a back end escapes text in its own way — Pango
 * markup for the PDF (render/draw.c), HTML and Markdown (render/html.c,
 * markdown.c) — and no back end reads another's language.
 *
 *     "the \x10whole\x11 grid"   ->   the <b>whole</b> grid   (Pango, HTML)
 *                                ->   the **whole** grid       (Markdown)
 */
#ifndef ATTNPROF_DOC_INLINE_H
#define ATTNPROF_DOC_INLINE_H

#include <stddef.h>

enum inline_style { INLINE_BOLD, INLINE_ITALIC, INLINE_CODE, INLINE_STYLES };

/* The marks: style s opens with INLINE_OPEN + 2s and closes with the byte after. */
#define INLINE_OPEN '\x10'
#define INLINE_MARK_END ('\x10' + 2 * INLINE_STYLES)

/* The mark that opens (open = 1) or closes style s. */
static inline char inline_mark(enum inline_style s, int open) { return (char)(INLINE_OPEN + 2 * (int)s + !open); }
/* 1 when c is a mark. */
static inline int inline_is_mark(char c) { return c >= INLINE_OPEN && c < INLINE_MARK_END; }

/* How a back end writes inline text: each run of characters between marks
 * through text (n bytes at s, never 0), each mark through style. */
struct inline_out {
	void (*text)(void *ctx, const char *s, size_t n);
	void (*style)(void *ctx, enum inline_style s, int open);
};
/* Walk s (NULL: nothing) through out. */
void inline_walk(const char *s, const struct inline_out *out, void *ctx);
/* s without its marks, in a new string (NULL out of memory): bookmarks,
 * alt text, speaker notes. */
char *inline_plain(const char *s);

#endif
