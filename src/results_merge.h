/* results_merge.h: several results files as one — the shards of a sweep
 * joined by `attnprof merge` (and by `record --gpus`), and the one rule by
 * which a record supersedes another of the same identity, which the
 * documents follow too (src/doc/inputs.c).
 *
 * The identity of a record is record_key() (results.h): source, variant,
 * phase, pass, dtype, B, H, Hkv, Nq, Nkv, d, causal (and a captured call's
 * pid and call number).
 */
#ifndef ATTNPROF_RESULTS_MERGE_H
#define ATTNPROF_RESULTS_MERGE_H

#include <stddef.h>

#include "results.h"
#include "util/progress.h"

/*
 * The rule for two records of one identity from two results files:
 * > 0 when the record from file a (its header, its path as the user gave
 * it) supersedes the one from file b, < 0 when b's supersedes a's, 0 when
 * they are one file (there the earlier record in the file stands, as every
 * reader takes it).
 *
 * The newer recording wins: header.date (when the sweep started) as the
 * instant the reader parsed (results_date: "2026-12-01T19:00:00Z" and
 * "2026-12-01 20:00:00+01:00" alike); a file without a date is older than
 * any file with one.  Equal dates: the file whose path sorts later (strcmp) wins.
 * (`merge --primary FILE` puts one file above this rule; the caller does.)
 */
int results_supersedes(const struct results_header *a, const char *path_a,
		       const struct results_header *b, const char *path_b);

/* One input file of a merge, loaded (results_load) by the caller. */
struct merge_input {
	const char *path;
	struct results res;
	int cut;               /* the reader found it cut short */
};

struct merge_opts {
	int allow_mixed;       /* join files of different specs, GPUs, drivers, versions */
	const char *primary;   /* an input whose records win every duplicate (NULL: none) */
	int quiet;             /* no line per superseded record */
	const struct progress *progress; /* NULL, or where reading file k of n is said */
	int allow_partial;     /* merge the complete records of a cut input (refused otherwise); the
				* output's header.notes name each cut input and where it was cut */
};

/* What a merge found, for its summary line. */
struct merge_report {
	size_t records;        /* in the merged file */
	size_t superseded;     /* records dropped for another of their identity */
	size_t missing;        /* configs the inputs' shards should hold and do not */
};

/*
 * Join in[0..n) into out (results_init'ed here): the records of every
 * identity's winner (results_supersedes, or the primary file's), moved out
 * of the inputs, each whole with its own timing, clocks, counters and
 * correctness; in the order of the sweep of the first file's spec (records
 * the spec does not hold after it, by identity), so the inputs' order on the
 * command line does not change the output.  The header is the earliest
 * recording's, without its shard (and its command line without --shard and
 * --device: the command of the sweep the parts make).
 *
 * Refused (-1 after error() naming both files and the field): files whose
 * header.spec, header.gpu.name, header.gpu.driver, header.tool_version or
 * shard count differ, unless o->allow_mixed (then header.notes lists each
 * file's conditions).  Each superseded record gets a line on stderr (unless
 * o->quiet); a shard that lacks configs of its part (an interrupted run) and
 * a part none of the inputs holds are named with what is missing (warnings).
 * 0, or -1 after error().
 */
int results_merge(struct merge_input *in, size_t n, const struct merge_opts *o,
		  struct results *out, struct merge_report *rep);

/* Load paths[0..n), merge them and write out_path atomically
 * (results_save); a summary line on stderr.  Returns an exit code
 * (error.h): 0, 2 for unreadable or mismatched inputs, 1 when the output
 * cannot be written. */
int results_merge_files(const char *const *paths, size_t n, const struct merge_opts *o,
			const char *out_path);

#endif
