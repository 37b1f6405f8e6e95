/* merge.h: the parts a captured program left (one results file per process
 * that loaded the injection library) into one results file. */
#ifndef ATTNPROF_MERGE_H
#define ATTNPROF_MERGE_H

#include <stddef.h>

#include "results.h"

struct merge_summary {
	size_t parts;          /* part files read */
	size_t bad_parts;      /* part files that could not be read (named in a note) */
	size_t calls;          /* records merged */
	size_t unparsed;       /* calls whose range name did not parse (shape unknown) */
	size_t failed;         /* calls recorded with an error */
	size_t exits_inside;   /* processes that left from inside the profiler (their part's header.program_exit,
				  set by the injection library): the program did not run to its end */
};

/*
 * Read every DIR/part-*.yaml in pid order and append their records to out
 * (moved), their notes to out's header notes (each prefixed with the pid).
 * A part that cannot be read is named in a note, not fatal: the others are
 * kept.  0, or -1 via error() (DIR unreadable, no memory).
 */
int merge_parts(const char *dir, struct results *out, struct merge_summary *sum);

/*
 * Application replay: run is another run of the same program, its calls
 * counted with other metrics.  Record i of base takes the metrics of record
 * i of run, kernel by kernel, and its totals are summed again.  The two
 * must be the same calls in the same order (call number, pass, variant,
 * kernel names); where they are not, -1 via error() naming the first
 * difference (the program did not repeat itself), and base is unchanged.
 */
int merge_replay_run(struct results *base, const struct results *run);

/* Append "text" as a line of r's header notes.  0 or -1. */
int results_note(struct results *r, const char *text);

#endif
