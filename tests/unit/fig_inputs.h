/* fig_inputs.h: the results files a figure-description test builds from
 * (test_figdesc, test_figpatent, test_wshare): loaded as the documents load
 * them, and whether a description drew a given record. */
#ifndef FIG_INPUTS_H
#define FIG_INPUTS_H

#include <string.h>

#include "doc/figdesc.h"

struct in {
	struct rinputs in;
	struct rdata rd;
};

static inline int load_n(struct in *x, const char *const *paths, size_t n)
{
	memset(x, 0, sizeof(*x));
	if (rinputs_load(&x->in, paths, n, NULL, 0, NULL))
		return -1;
	rdata_init_inputs(&x->rd, &x->in);
	return 0;
}

static inline int load(struct in *x, const char *path)
{
	const char *const files[1] = { path };
	return load_n(x, files, 1);
}

static inline int used_has(const struct figdesc *d, const struct record *r)
{
	for (size_t i = 0; i < d->nused; i++)
		if (d->used[i] == r)
			return 1;
	return 0;
}

#endif
