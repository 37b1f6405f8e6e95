/* test_online_softmax.c: the slides' online-softmax example, step by step,
 * against a softmax computed directly; and the recurrence on long random
 * rows in every block size against the same direct softmax.
 * Tolerance: 1e-12 absolute on O for values of magnitude ≤ 1 (fp64: the
 * two orders of summation differ by a few ulps per term, ~1e-15 here). */
#include "check.h"

#include "online_softmax.h"
#include "util/error.h"

static void test_teaching_example_steps(void)
{
	struct osm_example ex;
	CHECK_INT(osm_teaching_example(&ex), 0);
	CHECK_INT(ex.nsteps, 3);
	CHECK_INT(ex.bc, 2);
	/* the running max: 2, then 5, then still 5 */
	CHECK_NEAR(ex.steps[0].m, 2, 0);
	CHECK_NEAR(ex.steps[1].m, 5, 0);
	CHECK_NEAR(ex.steps[2].m, 5, 0);
	CHECK_NEAR(ex.steps[0].alpha, 0, 0);
	CHECK_NEAR(ex.steps[1].alpha, exp(-3.0), 1e-15);
	CHECK_NEAR(ex.steps[2].alpha, 1, 0);
	/* ℓ after block 1: e^{1-2} + e^{0} */
	CHECK_NEAR(ex.steps[0].l, exp(-1.0) + 1, 1e-15);
	/* after block 2 it is rescaled by e^{-3}, then e^{5-5} + e^{0-5} added */
	CHECK_NEAR(ex.steps[1].l, (exp(-1.0) + 1) * exp(-3.0) + 1 + exp(-5.0), 1e-15);
	/* the final state is the direct softmax's denominator */
	double sum = 0, num = 0;
	const double s[] = { 1, 2, 5, 0, 3, 4 }, v[] = { 1, 2, 3, 4, 5, 6 };
	for (int k = 0; k < 6; k++) {
		sum += exp(s[k] - 5);
		num += exp(s[k] - 5) * v[k];
	}
	CHECK_NEAR(ex.l, sum, 1e-15);
	CHECK_NEAR(ex.o[0], num / sum, 1e-15);
	CHECK_NEAR(ex.o_direct[0], num / sum, 1e-15);
	CHECK(ex.max_abs_err <= 1e-12);
}

static double lcg(unsigned *st)
{
	*st = *st * 1664525u + 1013904223u;
	return (double)(*st >> 8) / 16777216.0 * 2 - 1;
}

static void test_random_rows_every_block_size(void)
{
	enum { N = 1000, D = 4 };
	static double s[N], v[N * D];
	unsigned st = 7;
	for (int k = 0; k < N; k++)
		s[k] = 40 * lcg(&st);  /* a wide range: the max moves often */
	for (int k = 0; k < N * D; k++)
		v[k] = lcg(&st);
	const int sizes[] = { 1, 2, 7, 64, 999, 1000, 5000 };
	for (size_t i = 0; i < sizeof(sizes) / sizeof(*sizes); i++) {
		struct osm_example ex;
		CHECK_INT(osm_run(s, v, N, D, sizes[i], &ex), 0);
		CHECK_INT(ex.nsteps, (N + sizes[i] - 1) / sizes[i]);
		CHECK(ex.max_abs_err <= 1e-12);
		/* the recurrence's m is the row max, whatever the blocks */
		double mx = s[0];
		for (int k = 1; k < N; k++)
			mx = s[k] > mx ? s[k] : mx;
		CHECK_NEAR(ex.m, mx, 0);
	}
}

/* A recurrence that forgot the rescale would be caught: the check itself
 * can fail (the direct result differs from the unrescaled sum). */
static void test_check_is_sensitive(void)
{
	struct osm_example ex;
	CHECK_INT(osm_teaching_example(&ex), 0);
	double wrong_l = 0, wrong_acc = 0; /* Σ over blocks without α */
	for (int j = 0; j < ex.nsteps; j++)
		for (int k = ex.steps[j].c0; k < ex.steps[j].c1; k++) {
			wrong_l += exp(ex.s[k] - ex.steps[j].m);
			wrong_acc += exp(ex.s[k] - ex.steps[j].m) * ex.v[k];
		}
	CHECK(fabs(wrong_acc / wrong_l - ex.o_direct[0]) > 1e-3);
}

static void test_bad_sizes(void)
{
	double s[2] = { 0, NAN }, v[2] = { 1, 1 };
	struct osm_example ex;
	error_quiet(1);
	CHECK_INT(osm_run(s, v, 0, 1, 1, &ex), -1);
	CHECK_INT(osm_run(s, v, 1, 0, 1, &ex), -1);
	CHECK_INT(osm_run(s, v, 1, OSM_MAX_D + 1, 1, &ex), -1);
	CHECK_INT(osm_run(s, v, 1, 1, 0, &ex), -1);
	CHECK_INT(osm_run(s, v, 2, 1, 1, &ex), -1); /* NaN score */
	error_quiet(0);
	CHECK_INT(osm_run(s, v, 1, 1, 1, &ex), 0);
	CHECK_NEAR(ex.o[0], 1, 0);
}

TESTS(test_teaching_example_steps, test_random_rows_every_block_size, test_check_is_sensitive, test_bad_sizes)
