/* series_index.c: the records of each series key; see series_index.h. */
#include "doc/series_index.h"

#include <stdlib.h>
#include <string.h>

#include "util/error.h"

static const char (*sort_keys)[SERIES_KEY]; /* qsort has no context argument */

static int by_key_then_place(const void *a, const void *b)
{
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	int c = strcmp(sort_keys[i], sort_keys[j]);
	return c ? c : (i > j) - (i < j);
}

int series_index_build(struct series_index *x, const struct results *res,
		       const char *(*key_of)(const struct record *, char *, size_t))
{
	memset(x, 0, sizeof(*x));
	size_t n = res->nrecords;
	char (*keys)[SERIES_KEY] = malloc((n ? n : 1) * sizeof(*keys)); /* each record's */
	x->keys = malloc((n ? n : 1) * sizeof(*x->keys));
	x->recs = malloc((n ? n : 1) * sizeof(*x->recs));
	x->first = malloc((n + 1) * sizeof(*x->first));
	if (!keys || !x->keys || !x->recs || !x->first) {
		free(keys);
		series_index_release(x);
		return error("out of memory indexing %zu records", n);
	}
	for (size_t i = 0; i < n; i++) {
		key_of(&res->records[i], keys[i], SERIES_KEY);
		x->recs[i] = i;
	}
	sort_keys = keys;
	qsort(x->recs, n, sizeof(*x->recs), by_key_then_place);
	sort_keys = NULL;
	for (size_t i = 0; i < n; i++) {
		const char *k = keys[x->recs[i]];
		if (x->nkeys && !strcmp(x->keys[x->nkeys - 1], k))
			continue;
		x->first[x->nkeys] = i;
		memcpy(x->keys[x->nkeys++], k, SERIES_KEY);
	}
	x->first[x->nkeys] = n;
	free(keys);
	return 0;
}

void series_index_release(struct series_index *x)
{
	free(x->keys);
	free(x->first);
	free(x->recs);
	memset(x, 0, sizeof(*x));
}

const size_t *series_index_get(const struct series_index *x, const char *key, size_t *n)
{
	size_t lo = 0, hi = x->nkeys;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(x->keys[mid], key);
		if (!c) {
			*n = x->first[mid + 1] - x->first[mid];
			return x->recs + x->first[mid];
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	*n = 0;
	return NULL;
}
