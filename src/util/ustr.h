/* ustr.h: bounded UTF-8 strings.
 *
 * Names and text from other programs' captures and from results files are
 * untrusted: they are copied into fixed buffers here, never with a bare
 * snprintf.  A string that does not fit is cut at a character boundary
 * and ends with "…", so a cut is visible and the result is valid UTF-8
 * whenever the input was.
 *
 *     struct ustr u;
 *     ustr_init(&u, buf, sizeof(buf));
 *     ustr_adds(&u, name);
 *     ustr_addf(&u, " (%d)", n);      // u.cut: something was left out
 *
 * Invariants: buf is always NUL-terminated; len < cap; once cut, later
 * additions are dropped (the "…" stays last).
 */
#ifndef ATTNPROF_USTR_H
#define ATTNPROF_USTR_H

#include <stdarg.h>
#include <stddef.h>

#define USTR_ELLIPSIS "…"

struct ustr {
	char *buf;
	size_t cap, len;
	int cut;
};

/* cap must be at least 1; below 4 a cut has no room for "…" and is unmarked. */
void ustr_init(struct ustr *u, char *buf, size_t cap);
void ustr_add(struct ustr *u, const char *p, size_t n);
void ustr_adds(struct ustr *u, const char *s);
/* Mark u as cut now: "…" last, text before it given way at a character boundary. */
void ustr_cut(struct ustr *u);
void ustr_addf(struct ustr *u, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;

void ustr_vaddf(struct ustr *u, const char *fmt, va_list ap);

/* The largest k <= n that does not split a UTF-8 character of s (s[n] must be
 * readable: a byte of s or its NUL). */
size_t utf8_boundary(const char *s, size_t n);

/* dst = src, cut with "…" to fit cap bytes; 1 when cut. */
int ustr_copy(char *dst, size_t cap, const char *src);
/* dst = the first n bytes of src (or fewer, at a character boundary) and "…" when
 * that cut anything; the whole fits cap.  For fitting a name to a width. */
int ustr_prefix(char *dst, size_t cap, const char *src, size_t n);
/* dst = n as an English ordinal: "1st", "2nd", "3rd", "4th", "11th", "12th",
 * "13th", "21st", "111th", "112th"; returns dst. */
const char *ustr_ordinal(char *dst, size_t cap, unsigned long n);

#endif
