/* series_index.h: the records of each series key, found without a scan.
 *
 * Every lookup of a drawn value (rdata_find, rdata_values) names a series
 * key; scanning all records for each of a document's thousands of lookups
 * made report's cost per record grow with the file (issue 33: 60 000
 * records).  The index holds, per distinct key, the positions of its
 * records in file order, so a lookup reads only its series and first match
 * still means first in the file.  No Cairo.
 */
#ifndef ATTNPROF_DOC_SERIES_INDEX_H
#define ATTNPROF_DOC_SERIES_INDEX_H

#include <stddef.h>

#include "results.h"

/* a series key's buffer: "flash2", "capture:sdpa-flash" (data.h, record_series) */
#define SERIES_KEY 96

struct series_index {
	size_t nkeys;
	char (*keys)[SERIES_KEY]; /* sorted, distinct */
	size_t *first;      /* nkeys + 1: key k's records are recs[first[k] .. first[k+1]) */
	size_t *recs;       /* record positions, by key, in file order within a key */
};

/* key_of writes a record's series key (record_series).  0, or -1 after
 * error() (out of memory; *x is then empty). */
int series_index_build(struct series_index *x, const struct results *res,
		       const char *(*key_of)(const struct record *, char *, size_t));
void series_index_release(struct series_index *x);
/* The positions of key's records (*n of them; NULL and 0 when none). */
const size_t *series_index_get(const struct series_index *x, const char *key, size_t *n);

#endif
