/* error.h: one place for messages and exit codes.
 *
 * Modules never exit: they call error() (which prints and returns -1) and
 * pass the code up, so callers write `return error("...")`.  Only main()
 * turns codes into an exit status.  Messages start lowercase, have no full
 * stop, say what went wrong first and quote the subject.
 *
 * The last error message is kept (error_last()) so tests can check wording
 * without scraping stderr, and error_quiet() silences printing for them.
 */
#ifndef ATTNPROF_ERROR_H
#define ATTNPROF_ERROR_H

#include <stddef.h>

/* Documented exit codes (docs/cli.md, attnprof(1)). */
enum exit_code {
	EXIT_OK = 0,        /* success */
	EXIT_FAILURE_RUN = 1, /* runtime failure (a kernel failed, I/O error, a check failed) */
	EXIT_BAD_INPUT = 2, /* bad input or usage: spec, results file, template, command line */
	EXIT_NO_GPU = 3,    /* no GPU, GPU half built out, or hardware counters unavailable */
};

#if defined(__GNUC__)
#define ATTNPROF_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define ATTNPROF_PRINTF(a, b)
#endif

/* Print "attnprof: error: <msg>" and return -1. */
int error(const char *fmt, ...) ATTNPROF_PRINTF(1, 2);
/* Print "attnprof: warning: <msg>". */
void warning(const char *fmt, ...) ATTNPROF_PRINTF(1, 2);
/* Print "attnprof: note: <msg>" (hints on how to fix). */
void note(const char *fmt, ...) ATTNPROF_PRINTF(1, 2);

/* The text of the last error() (without the prefix); "" if none. */
const char *error_last(void);
void error_clear(void);
/* Non-zero: keep messages (error_last) but print nothing. Returns old value. */
int error_quiet(int quiet);

/* Program name used in messages ("attnprof"). */
extern const char *error_progname;

#endif
