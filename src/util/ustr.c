/* ustr.c: see ustr.h. */
#include "util/ustr.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ustr_init(struct ustr *u, char *buf, size_t cap)
{
	u->buf = buf;
	u->cap = cap;
	u->len = 0;
	u->cut = 0;
	if (cap)
		buf[0] = '\0';
}

size_t utf8_boundary(const char *s, size_t n)
{
	/* step back over continuation bytes to the lead byte of the character at n */
	size_t k = n;
	while (k > 0 && ((unsigned char)s[k] & 0xC0) == 0x80)
		k--;
	return k;
}

void ustr_cut(struct ustr *u)
{
	if (u->cut || !u->cap)
		return;
	const size_t mark = sizeof(USTR_ELLIPSIS) - 1;
	u->cut = 1;
	if (u->cap < mark + 1)
		return; /* no room for the mark */
	size_t limit = u->cap - 1 - mark; /* bytes of text that may stay before it */
	if (u->len > limit)
		u->len = utf8_boundary(u->buf, limit);
	memcpy(u->buf + u->len, USTR_ELLIPSIS, mark);
	u->len += mark;
	u->buf[u->len] = '\0';
}

void ustr_add(struct ustr *u, const char *p, size_t n)
{
	if (u->cut || !u->cap || !n)
		return;
	size_t room = u->cap - 1 - u->len, k = n;
	if (n > room)
		k = utf8_boundary(p, room);
	memcpy(u->buf + u->len, p, k);
	u->len += k;
	u->buf[u->len] = '\0';
	if (k < n)
		ustr_cut(u);
}

void ustr_adds(struct ustr *u, const char *s)
{
	ustr_add(u, s, strlen(s));
}

void ustr_vaddf(struct ustr *u, const char *fmt, va_list ap)
{
	char tmp[512];
	va_list again;
	va_copy(again, ap);
	int n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	if (n >= 0 && (size_t)n < sizeof(tmp)) {
		ustr_add(u, tmp, (size_t)n);
	} else if (n >= 0) {
		char *big = malloc((size_t)n + 1);
		if (big) {
			vsnprintf(big, (size_t)n + 1, fmt, again);
			ustr_add(u, big, (size_t)n);
			free(big);
		} else {
			ustr_add(u, tmp, utf8_boundary(tmp, sizeof(tmp) - 1)); /* the start, marked as cut */
			ustr_cut(u);
		}
	}
	va_end(again);
}

void ustr_addf(struct ustr *u, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	ustr_vaddf(u, fmt, ap);
	va_end(ap);
}

int ustr_copy(char *dst, size_t cap, const char *src)
{
	struct ustr u;
	ustr_init(&u, dst, cap);
	ustr_adds(&u, src);
	return u.cut;
}

int ustr_prefix(char *dst, size_t cap, const char *src, size_t n)
{
	if (n >= strlen(src))
		return ustr_copy(dst, cap, src);
	struct ustr u;
	ustr_init(&u, dst, cap);
	ustr_add(&u, src, utf8_boundary(src, n));
	ustr_cut(&u);
	return 1;
}

const char *ustr_ordinal(char *dst, size_t cap, unsigned long n)
{
	const unsigned long t = n % 100, u = n % 10;
	const char *sfx = t >= 11 && t <= 13 ? "th" : u == 1 ? "st" : u == 2 ? "nd" : u == 3 ? "rd" : "th";
	snprintf(dst, cap, "%lu%s", n, sfx);
	return dst;
}
