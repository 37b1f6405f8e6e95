/* shard.c: a sweep split into parts balanced by predicted time (shard.h). */
#include "shard.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "util/error.h"

int shard_parse(const char *opt, const char *text, int *k, int *n)
{
	char *end;
	errno = 0;
	/* digits only: strtol alone takes ' 1/3' and '+1/3' */
	long a = text[0] >= '0' && text[0] <= '9' ? strtol(text, &end, 10) : (end = (char *)text, 0), b = 0;
	int ok = end != text && *end == '/' && !errno;
	if (ok) {
		const char *p = end + 1;
		b = *p >= '0' && *p <= '9' ? strtol(p, &end, 10) : (end = (char *)p, 0);
		ok = end != p && !*end && !errno;
	}
	if (!ok || b < 1 || b > SHARD_MAX || a < 1 || a > b)
		return error("%s '%s' must be K/N, part K of N counted from 1 (1 <= K <= N <= %d), e.g. '%s 2/8'",
			     opt, text, SHARD_MAX, opt);
	*k = (int)a;
	*n = (int)b;
	return 0;
}

double config_predicted_ms(const struct config *c)
{
	struct gpu_model g;
	struct model m;
	gpu_model_h200(&g); /* the same split on every GPU */
	int old = error_quiet(1);
	int rc = model_predict(c->variant, &c->shape, &g, &m);
	error_quiet(old);
	return rc || !isfinite(m.time_roofline_ms) || m.time_roofline_ms < 0 ? 0 : m.time_roofline_ms;
}

struct costed {
	double ms;
	size_t i;
};

/* longest first; equal: earlier in the sweep first */
static int by_cost(const void *a, const void *b)
{
	const struct costed *x = a, *y = b;
	if (x->ms != y->ms)
		return x->ms > y->ms ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

int shard_assign(const struct spec *s, int n, int *owner, double *load)
{
	if (n < 1 || n > SHARD_MAX)
		return error("a sweep splits into 1 to %d parts, not %d", SHARD_MAX, n);
	struct costed *c = malloc((s->nconfigs ? s->nconfigs : 1) * sizeof(*c));
	double *sum = calloc((size_t)n, sizeof(*sum));
	size_t *cnt = calloc((size_t)n, sizeof(*cnt));
	if (!c || !sum || !cnt) {
		free(c);
		free(sum);
		free(cnt);
		return error("out of memory splitting the sweep into %d parts", n);
	}
	for (size_t i = 0; i < s->nconfigs; i++) {
		c[i].ms = config_predicted_ms(&s->configs[i]);
		c[i].i = i;
	}
	qsort(c, s->nconfigs, sizeof(*c), by_cost);
	for (size_t j = 0; j < s->nconfigs; j++) {
		/* the least predicted time; equal (configs the model has no time
		 * for): the fewest configs; then the lower part */
		int best = 0;
		for (int p = 1; p < n; p++)
			if (sum[p] < sum[best] || (sum[p] == sum[best] && cnt[p] < cnt[best]))
				best = p;
		sum[best] += c[j].ms;
		cnt[best]++;
		owner[c[j].i] = best + 1;
	}
	if (load)
		memcpy(load, sum, (size_t)n * sizeof(*sum));
	free(c);
	free(sum);
	free(cnt);
	return 0;
}

int spec_keep_shard(struct spec *s, int k, int n, double *total_ms, double *part_ms)
{
	int *owner = malloc((s->nconfigs ? s->nconfigs : 1) * sizeof(*owner));
	double *load = malloc((size_t)n * sizeof(*load));
	if (!owner || !load) {
		free(owner);
		free(load);
		return error("out of memory splitting the sweep into %d parts", n);
	}
	if (shard_assign(s, n, owner, load)) {
		free(owner);
		free(load);
		return -1;
	}
	double total = 0;
	for (int p = 0; p < n; p++)
		total += load[p];
	size_t kept = 0;
	for (size_t i = 0; i < s->nconfigs; i++)
		if (owner[i] == k)
			s->configs[kept++] = s->configs[i];
	s->nconfigs = kept;
	if (total_ms)
		*total_ms = total;
	if (part_ms)
		*part_ms = load[k - 1];
	free(owner);
	free(load);
	return 0;
}
