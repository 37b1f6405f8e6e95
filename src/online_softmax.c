/* online_softmax.c: the recurrence of online_softmax.h and its direct check. */
#include "online_softmax.h"

#include <math.h>
#include <string.h>

#include "util/error.h"

int osm_run(const double *s, const double *v, int n, int d, int bc, struct osm_example *ex)
{
	memset(ex, 0, sizeof(*ex));
	if (n < 1 || n > OSM_MAX_N)
		return error("online softmax: %d scores is out of range (1 to %d)", n, OSM_MAX_N);
	if (d < 1 || d > OSM_MAX_D)
		return error("online softmax: value dimension %d is out of range (1 to %d)", d, OSM_MAX_D);
	if (bc < 1)
		return error("online softmax: block size %d must be at least 1", bc);
	for (int k = 0; k < n; k++)
		if (!isfinite(s[k]))
			return error("online softmax: score %d is not finite", k);
	ex->n = n;
	ex->d = d;
	ex->bc = bc;
	ex->s = s;
	ex->v = v;
	ex->nsteps = (n + bc - 1) / bc;

	/* the recurrence, one block at a time */
	double m = -INFINITY, l = 0, acc[OSM_MAX_D] = { 0 };
	for (int j = 0; j < ex->nsteps; j++) {
		int c0 = j * bc, c1 = c0 + bc < n ? c0 + bc : n;
		double bmax = -INFINITY;
		for (int k = c0; k < c1; k++)
			bmax = fmax(bmax, s[k]);
		double m_new = fmax(m, bmax);
		double alpha = m == -INFINITY ? 0.0 : exp(m - m_new);
		l *= alpha;
		for (int x = 0; x < d; x++)
			acc[x] *= alpha;
		for (int k = c0; k < c1; k++) {
			double p = exp(s[k] - m_new);
			l += p;
			for (int x = 0; x < d; x++)
				acc[x] += p * v[(size_t)k * d + x];
		}
		if (j < OSM_MAX_STEPS) {
			struct osm_step *st = &ex->steps[j];
			st->c0 = c0;
			st->c1 = c1;
			st->block_max = bmax;
			st->m_old = m;
			st->m = m_new;
			st->alpha = alpha;
			st->l = l;
			memcpy(st->acc, acc, sizeof(acc));
		}
		m = m_new;
	}
	ex->m = m;
	ex->l = l;
	for (int x = 0; x < d; x++)
		ex->o[x] = acc[x] / l;

	/* the direct softmax: all scores at once */
	double mx = -INFINITY, sum = 0;
	for (int k = 0; k < n; k++)
		mx = fmax(mx, s[k]);
	for (int k = 0; k < n; k++)
		sum += exp(s[k] - mx);
	for (int x = 0; x < d; x++) {
		double o = 0;
		for (int k = 0; k < n; k++)
			o += exp(s[k] - mx) / sum * v[(size_t)k * d + x];
		ex->o_direct[x] = o;
		ex->max_abs_err = fmax(ex->max_abs_err, fabs(ex->o[x] - o));
	}
	return 0;
}

int osm_teaching_example(struct osm_example *ex)
{
	/* max 2 after block 1, 5 after block 2 (α = e^-3), block 3 stays below it */
	static const double s[] = { 1, 2, 5, 0, 3, 4 };
	static const double v[] = { 1, 2, 3, 4, 5, 6 };
	return osm_run(s, v, 6, 1, 2, ex);
}
