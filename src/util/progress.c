/* progress.c: steps of a long command on stderr; see progress.h. */
#include "util/progress.h"

#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

/* a step line open on the terminal (no newline yet) */
static int line_open;

void progress_init(struct progress *p, int force, int quiet)
{
	int tty = isatty(STDERR_FILENO);
	p->on = !quiet && (force || tty);
	p->tty = p->on && tty;
}

void progress_step(const struct progress *p, const char *fmt, ...)
{
	if (!p || !p->on)
		return;
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "%s%s: ", p->tty ? "\r\033[K" : "", error_progname);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (p->tty) {
		line_open = 1;
		fflush(stderr);
	} else {
		fputc('\n', stderr);
	}
}

void progress_clear(void)
{
	if (line_open) {
		fputs("\r\033[K", stderr);
		line_open = 0;
	}
}
