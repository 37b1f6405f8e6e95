/* progress.h: what a long command is doing, said on stderr.
 *
 * On a terminal each step rewrites one line ("\r\033[K" and no newline),
 * which the next step, a warning or the summary replaces; where stderr is
 * not a terminal (a log, a pipe, a test) nothing is said unless forced
 * (--progress: a line per step).  --quiet says none, on a terminal or not,
 * and wins over --progress.  record, report and merge share this rule.
 */
#ifndef ATTNPROF_PROGRESS_H
#define ATTNPROF_PROGRESS_H

#include "util/error.h"

struct progress {
	int on;  /* say the steps */
	int tty; /* stderr is a terminal: one line, rewritten */
};

/* force: --progress; quiet: --quiet. */
void progress_init(struct progress *p, int force, int quiet);
/* A step, "attnprof: " and the text; nothing when p is NULL or off. */
void progress_step(const struct progress *p, const char *fmt, ...) ATTNPROF_PRINTF(2, 3);
/* The step line a terminal still shows cleared, so what follows starts a
 * line of its own (error.c calls it before every message). */
void progress_clear(void);

#endif
