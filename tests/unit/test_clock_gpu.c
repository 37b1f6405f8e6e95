/* test_clock_gpu.c: the SM clock probe (kernels/clock.cu) on a real GPU.
 * Skips without a GPU or without the GPU half.
 *
 * The probe counts SM cycles across 20 us of the global timer; a broken one
 * reads 0, the timer's tick or garbage.  Checked: one probe after launches
 * and one before each timed launch read a clock between 200 MHz and 5 %
 * over the card's maximum (cudaDevAttrClockRate), and timing with and
 * without probes gives times of the same launches.
 */
#include "check.h"

#if ATTNPROF_HAVE_CUDA
#include "attn.h"

#include "gpu_device.h"

static struct attn_run *small_run(void)
{
	struct attn_shape s = { DTYPE_FP16, PHASE_PREFILL, 4, 16, 16, 1024, 1024, 64, 0, PASS_FWD };
	struct attn_run *r = NULL;
	int bad = attn_run_create(&r, variant_find("flash2"), &s, gpu_dev.hw.sm_count);
	if (bad)
		printf("    %s\n", attn_last_error());
	CHECK_INT(bad, 0);
	return bad ? NULL : r;
}

static int plausible(float mhz)
{
	return mhz >= 200 && mhz <= 1.05 * gpu_dev.hw.sm_clock_mhz;
}

static void test_gpu_clock_probe(void)
{
	if (!gpu())
		SKIP("skipped: no GPU");
	struct attn_run *r = small_run();
	if (!r)
		return;
	float mhz = 0;
	CHECK_INT(attn_run_probe_clock(r, 5, &mhz), 0);
	printf("    probe after 5 launches: %.1f MHz (maximum %d)\n", mhz, gpu_dev.hw.sm_clock_mhz);
	CHECK(plausible(mhz));
	attn_run_destroy(r);
}

static void test_gpu_clock_timed(void)
{
	if (!gpu())
		SKIP("skipped: no GPU");
	struct attn_run *r = small_run();
	if (!r)
		return;
	enum { REPS = 20 };
	float ms[REPS], plain[REPS], mhz[REPS];
	CHECK_INT(attn_run_time(r, 3, REPS, ms, mhz), 0);
	CHECK_INT(attn_run_time(r, 3, REPS, plain, NULL), 0);
	int bad = 0;
	double lo = 1e9, hi = 0, lo_ms = 1e9, lo_plain = 1e9;
	for (int i = 0; i < REPS; i++) {
		bad += !plausible(mhz[i]);
		lo = mhz[i] < lo ? mhz[i] : lo;
		hi = mhz[i] > hi ? mhz[i] : hi;
		lo_ms = ms[i] < lo_ms ? ms[i] : lo_ms;
		lo_plain = plain[i] < lo_plain ? plain[i] : lo_plain;
	}
	printf("    probed %.1f-%.1f MHz; fastest launch %.4f ms with probes, %.4f without\n", lo, hi, lo_ms,
	       lo_plain);
	CHECK_INT(bad, 0);
	/* the probes sit between the timed launches, not inside them */
	CHECK(lo_ms > 0.9 * lo_plain && lo_ms < 1.1 * lo_plain);
	attn_run_destroy(r);
}

TESTS(test_gpu_clock_probe, test_gpu_clock_timed)
#else
static void test_gpu_clock(void)
{
	SKIP("skipped: built without the GPU half");
}
TESTS(test_gpu_clock)
#endif
