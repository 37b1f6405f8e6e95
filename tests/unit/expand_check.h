/* expand_check.h: template text expanded for a test (interp.h). */
#ifndef ATTNPROF_EXPAND_CHECK_H
#define ATTNPROF_EXPAND_CHECK_H

#include <stdio.h>

#include "doc/interp.h"
#include "util/error.h"

/* Expand text (the scalar node) under ip, quietly: the expansion, or the
 * error with its file:line:col, into out.  Returns interp_expand's code,
 * or the number of values written n/a. */
static inline int check_expand(struct interp *ip, const struct ynode *node, const char *text, char *out, size_t len)
{
	struct sbuf sb;
	sbuf_init(&sb);
	error_clear();
	error_quiet(1);
	int rc = interp_expand(ip, node, text, &sb);
	error_quiet(0);
	snprintf(out, len, "%s", rc ? error_last() : sb.buf);
	sbuf_release(&sb);
	return rc ? rc : ip->missing;
}

#endif
