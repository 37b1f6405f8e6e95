/* error.c: printing of errors, warnings and notes; see error.h. */
#include "error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "util/progress.h"

const char *error_progname = "attnprof";
static char last_error[2048];
static int quiet;

static void vreport(const char *kind, const char *fmt, va_list ap, int keep)
{
	char buf[sizeof(last_error)];
	vsnprintf(buf, sizeof(buf), fmt, ap);
	if (keep)
		memcpy(last_error, buf, sizeof(buf));
	if (!quiet) {
		progress_clear();
		fprintf(stderr, "%s: %s: %s\n", error_progname, kind, buf);
	}
}

int error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport("error", fmt, ap, 1);
	va_end(ap);
	return -1;
}

void warning(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport("warning", fmt, ap, 0);
	va_end(ap);
}

void note(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport("note", fmt, ap, 0);
	va_end(ap);
}

const char *error_last(void) { return last_error; }
void error_clear(void) { last_error[0] = '\0'; }

int error_quiet(int q)
{
	int old = quiet;
	quiet = q;
	return old;
}
