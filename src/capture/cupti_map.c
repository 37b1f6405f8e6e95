/* cupti_map.c: match auto ranges to Activity kernel records; see cupti.h.
 *
 * Why not trust positions alone: with kernel replay CUPTI may report a
 * launch's kernel record more than once, and records arrive per buffer, not
 * in launch order.  A launch is identified by its correlation id (one per
 * launch API call, increasing in call order), so records are reduced to one
 * per id and sorted by id; auto ranges are numbered in launch order.  Both
 * then list the same launches in the same order, or we refuse.  With user
 * replay the caller launches the whole sequence once per pass: every round
 * has its own ids, so there are rounds x ranges launches, the rounds must
 * repeat the first one's kernel names, and range k is the first round's k-th.
 */
#include "capture/cupti.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"

static const struct cupti_kernel_rec *sort_base;

/* Kernels CUPTI launches itself: with user replay CUPTI 13.0 launches one
 * named WaitNs, reported with the correlation id of one of ours (seen on
 * the H200).  They are not the program's and get no range. */
static int cupti_internal(const char *name)
{
	return name && !strcmp(name, "WaitNs");
}

static int by_correlation(const void *a, const void *b)
{
	const struct cupti_kernel_rec *x = &sort_base[*(const size_t *)a];
	const struct cupti_kernel_rec *y = &sort_base[*(const size_t *)b];
	if (x->correlation_id != y->correlation_id)
		return x->correlation_id < y->correlation_id ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	/* keep input order among equals: compare indices */
	return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

int cupti_range_index(const char *s, size_t *out)
{
	if (!s || !*s)
		return -1;
	/* auto range names may carry a nesting prefix ("x/3"): take the last part */
	const char *last = strrchr(s, '/');
	if (last)
		s = last + 1;
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || end == s || *end || s[0] == '-' || s[0] == '+')
		return -1;
	*out = (size_t)v;
	return 0;
}

int cupti_ranges_base(const char *const *ranges, size_t nranges, size_t *base)
{
	*base = 0;
	for (size_t i = 0; i < nranges; i++) {
		size_t k;
		if (cupti_range_index(ranges[i], &k))
			return error("CUPTI range %zu is named '%s', not a launch index: cannot map it to a kernel",
				     i, ranges[i] ? ranges[i] : "(null)");
		if (i == 0 || k < *base)
			*base = k;
	}
	return 0;
}

int cupti_map_ranges(const char *const *ranges, size_t nranges,
		     const struct cupti_kernel_rec *recs, size_t nrecs, size_t *map)
{
	return cupti_map_ranges_at(ranges, nranges, 0, recs, nrecs, map);
}

int cupti_map_ranges_at(const char *const *ranges, size_t nranges, size_t base,
			const struct cupti_kernel_rec *recs, size_t nrecs, size_t *map)
{
	return cupti_map_ranges_rounds(ranges, nranges, base, 1, recs, nrecs, map);
}

int cupti_map_ranges_rounds(const char *const *ranges, size_t nranges, size_t base, size_t rounds,
			    const struct cupti_kernel_rec *recs, size_t nrecs, size_t *map)
{
	int rc = -1;
	size_t *order = NULL, *range_of = NULL;
	size_t nunique = 0;

	if (nrecs) {
		order = malloc(nrecs * sizeof *order);
		if (!order)
			return error("out of memory");
		size_t nours = 0;
		for (size_t i = 0; i < nrecs; i++)
			if (!cupti_internal(recs[i].name))
				order[nours++] = i;
		sort_base = recs;
		qsort(order, nours, sizeof *order, by_correlation);
		/* one record per launch: the first (earliest) of each id */
		for (size_t i = 0; i < nours; i++) {
			if (nunique && recs[order[nunique - 1]].correlation_id ==
				       recs[order[i]].correlation_id) {
				const char *a = recs[order[nunique - 1]].name, *b = recs[order[i]].name;
				if (a && b && strcmp(a, b)) {
					error("CUPTI reported two kernels ('%s', '%s') for one launch (correlation id %u): cannot map ranges",
					      a, b, recs[order[i]].correlation_id);
					goto out;
				}
				continue;
			}
			order[nunique++] = order[i];
		}
	}

	if (rounds < 1)
		rounds = 1;
	if (nunique != nranges * rounds) {
		error("CUPTI profiled %zu kernel ranges%s but the Activity API saw %zu kernel launches%s%s: "
		      "refusing to guess which metrics belong to which kernel",
		      nranges, rounds > 1 ? " per pass" : "", nunique, nunique ? ", the first being " : "",
		      nunique ? (recs[order[0]].name ? recs[order[0]].name : "?") : "");
		goto out;
	}
	/* user replay: every pass must have launched the same kernels in order */
	for (size_t i = nranges; i < nunique; i++) {
		const char *a = recs[order[i % nranges]].name, *b = recs[order[i]].name;
		if (a && b && strcmp(a, b)) {
			error("pass %zu launched '%s' where pass 1 launched '%s' (launch %zu): the variant's kernel "
			      "sequence changed between passes, so user replay cannot profile it; use kernel replay",
			      i / nranges + 1, b, a, i % nranges);
			goto out;
		}
	}

	range_of = malloc((nranges ? nranges : 1) * sizeof *range_of);
	if (!range_of) {
		error("out of memory");
		goto out;
	}
	for (size_t i = 0; i < nranges; i++)
		range_of[i] = (size_t)-1;
	for (size_t i = 0; i < nranges; i++) {
		size_t k;
		if (cupti_range_index(ranges[i], &k) || k < base || k - base >= nranges) {
			error("CUPTI range %zu is named '%s', not a launch index from %zu below %zu: cannot map it to a kernel",
			      i, ranges[i] ? ranges[i] : "(null)", base, base + nranges);
			goto out;
		}
		k -= base;
		if (range_of[k] != (size_t)-1) {
			error("CUPTI ranges %zu and %zu both claim launch %zu: cannot map them to kernels",
			      range_of[k], i, base + k);
			goto out;
		}
		range_of[k] = i;
	}
	/* range named k is the k-th launch, which is the k-th record by id */
	for (size_t k = 0; k < nranges; k++)
		map[range_of[k]] = order[k];
	rc = 0;
out:
	free(order);
	free(range_of);
	return rc;
}

/* ---- session reuse ------------------------------------------------------ */

unsigned cupti_reuse_steps(const struct cupti_reuse *r)
{
	unsigned steps = CUPTI_STEP_INIT_IMAGE | CUPTI_STEP_SET_CONFIG;
	/* a new object gets a new image: re-initialising one image for a second
	 * object crashed CUPTI 13.0 on the H200 (one object, one image works) */
	if (!r->enabled)
		steps |= CUPTI_STEP_ENABLE | CUPTI_STEP_SIZE_IMAGE;
	if (!r->have_image)
		steps |= CUPTI_STEP_SIZE_IMAGE;
	if (r->per_call)
		steps |= CUPTI_STEP_DISABLE;
	return steps;
}

void cupti_reuse_after(struct cupti_reuse *r, unsigned steps, int ok)
{
	if (steps & CUPTI_STEP_SIZE_IMAGE)
		r->have_image = ok;
	if (steps & CUPTI_STEP_ENABLE)
		r->enabled = 1;
	if (!ok || (steps & CUPTI_STEP_DISABLE))
		r->enabled = 0;
}

/* ---- batches: launches per run by stream ------------------------------ */

int cupti_split_by_stream(const struct launch *l, size_t n, size_t nruns, size_t *start)
{
	size_t groups = 0;
	for (size_t i = 0; i < n; i++) {
		if (i > 0 && l[i].stream == l[i - 1].stream)
			continue;
		if (groups == nruns)
			return error("a profiled batch of %zu runs launched kernels on more than %zu streams in turn "
				     "(kernel %zu, '%s'): cannot tell whose kernels are whose", nruns, nruns, i,
				     l[i].name ? l[i].name : "?");
		start[groups++] = i;
	}
	if (groups != nruns)
		return error("a profiled batch of %zu runs launched kernels on %zu stream%s in turn: "
			     "cannot tell whose kernels are whose", nruns, groups, groups == 1 ? "" : "s");
	start[nruns] = n;
	return 0;
}
