/* online_softmax.h: the online-softmax recurrence on a small example.
 *
 * The worked example the slides teach with: one query row whose scores
 * s_1..s_n arrive in blocks of Bc, as the K/V tiles of a flash kernel do.
 * After block j the running state is
 *
 *     m_j = max(m_{j-1}, max_k s_k)                    (running max)
 *     α_j = e^{m_{j-1} - m_j}                           (rescale factor)
 *     ℓ_j = α_j·ℓ_{j-1} + Σ_k e^{s_k - m_j}             (running sum)
 *     Õ_j = α_j·Õ_{j-1} + Σ_k e^{s_k - m_j}·v_k         (unnormalised output)
 *
 * with m_0 = -∞, ℓ_0 = 0, Õ_0 = 0 (α_1 = 0), and O = Õ_last / ℓ_last.
 * The same row is also computed directly, p = softmax(s), O = Σ p·v, so
 * that the example carries its own check (max_abs_err).  fp64 throughout;
 * no Cairo, no GPU: the figure kind "online-softmax" draws these steps.
 */
#ifndef ATTNPROF_ONLINE_SOFTMAX_H
#define ATTNPROF_ONLINE_SOFTMAX_H

#define OSM_MAX_N 4096   /* scores in one example */
#define OSM_MAX_D 4      /* value dimension */
#define OSM_MAX_STEPS 64 /* blocks kept step by step (later ones are summed only) */

struct osm_step {
	int c0, c1;                 /* the block's scores: s[c0 .. c1-1] */
	double block_max;           /* max of the block's scores */
	double m_old, m;            /* running max before and after */
	double alpha;               /* e^{m_old - m} (0 on the first block) */
	double l;                   /* running sum after the block */
	double acc[OSM_MAX_D];      /* unnormalised output Õ after the block */
};

struct osm_example {
	int n, d, bc;               /* scores, value dimension, block size */
	const double *s, *v;        /* the inputs (v is n×d, row-major), not owned */
	int nsteps;                 /* blocks: ceil(n / bc) */
	struct osm_step steps[OSM_MAX_STEPS]; /* the first OSM_MAX_STEPS of them */
	double o[OSM_MAX_D];        /* online result Õ / ℓ */
	double m, l;                /* final max and sum */
	double o_direct[OSM_MAX_D]; /* softmax(s)·v computed directly */
	double max_abs_err;         /* max |o - o_direct| */
};

/*
 * Run the recurrence over s (n scores) and v (n×d values) in blocks of bc,
 * and the direct softmax beside it.  0, or -1 after error() when a size is
 * out of range (n in 1..OSM_MAX_N, d in 1..OSM_MAX_D, bc >= 1) or a score
 * is not finite.
 */
int osm_run(const double *s, const double *v, int n, int d, int bc, struct osm_example *ex);

/* The slides' example: six scores in three blocks of two, one value each,
 * chosen so that the running max moves twice (the rescale is seen). */
int osm_teaching_example(struct osm_example *ex);

#endif
