/* test_render_geom.c: the renderer's geometry without a surface — ticks,
 * log axes, boxes, grouped bars, waves of thread blocks on SMs, labels. */
#include "check.h"

#if ATTNPROF_HAVE_RENDER

#include "render/chart.h"
#include "render/fig_counters.h"
#include "doc/geom.h"

static void test_nice_step(void)
{
	CHECK_NEAR(nice_step(100, 5), 20, 1e-12);
	CHECK_NEAR(nice_step(1, 4), 0.25, 1e-12);
	CHECK_NEAR(nice_step(334, 5), 100, 1e-12);
	CHECK_NEAR(nice_step(7, 5), 2, 1e-12);
	CHECK_NEAR(nice_step(0, 5), 1, 0);
}

static void test_axis_linear(void)
{
	struct axis a;
	axis_linear(&a, 0, 334 * 1.08, 5, 1);
	CHECK_NEAR(a.lo, 0, 0);
	CHECK_NEAR(a.hi, 400, 1e-12);
	CHECK_INT(a.nticks, 5);
	CHECK_NEAR(a.ticks[1], 100, 1e-12);
	/* include_zero pulls a positive range down to 0 */
	axis_linear(&a, 12, 17, 5, 1);
	CHECK_NEAR(a.lo, 0, 0);
	CHECK(a.hi >= 17);
	/* a flat range is widened, not divided by zero */
	axis_linear(&a, 5, 5, 5, 0);
	CHECK(a.hi > a.lo);
	CHECK(a.nticks >= 2);
	/* non-finite input */
	axis_linear(&a, NAN, 1, 5, 0);
	CHECK(a.nticks >= 2);
	CHECK_NEAR(axis_map(&a, a.lo, 10, 110), 10, 1e-12);
	CHECK_NEAR(axis_map(&a, a.hi, 10, 110), 110, 1e-12);
}

static void test_axis_log(void)
{
	struct axis a;
	axis_log(&a, 512, 16384, 2, 8);
	CHECK_NEAR(a.lo, 512, 0);
	CHECK_NEAR(a.hi, 16384, 0);
	CHECK_INT(a.nticks, 6);
	CHECK_NEAR(a.ticks[3], 4096, 0);
	CHECK_NEAR(axis_map(&a, 2048, 0, 100), 40, 1e-9);
	/* bytes from 256 MiB to 64 GiB with at most 7 ticks: every other power */
	axis_log(&a, 268435456.0, 68719476736.0, 2, 7);
	CHECK(a.nticks <= 7);
	CHECK(a.nticks >= 4);
	CHECK(a.nminor > 0);
	/* decades with minor ticks */
	axis_log(&a, 3, 700, 10, 8);
	CHECK_NEAR(a.lo, 1, 0);
	CHECK_NEAR(a.hi, 1000, 1e-9);
	CHECK_INT(a.nticks, 4);
	CHECK_INT(a.nminor, 24);
	/* zero or negative never reaches log() */
	axis_log(&a, 0, 100, 10, 8);
	CHECK(a.lo > 0);
	CHECK_NEAR(axis_map(&a, -5, 0, 100), 0, 0);
}

static void test_boxes(void)
{
	struct rbox b = rbox_make(10, 20, 100, 50);
	struct rbox top = rbox_cut_top(&b, 10);
	CHECK_NEAR(top.h, 10, 0);
	CHECK_NEAR(b.y, 30, 0);
	CHECK_NEAR(b.h, 40, 0);
	struct rbox right = rbox_cut_right(&b, 30);
	CHECK_NEAR(right.x, 80, 0);
	CHECK_NEAR(b.w, 70, 0);
	struct rbox big = rbox_cut_bottom(&b, 1000); /* clamps */
	CHECK_NEAR(big.h, 40, 0);
	CHECK_NEAR(b.h, 0, 0);
	struct rbox in = rbox_inset(rbox_make(0, 0, 10, 10), 20, 0, 0, 0);
	CHECK_NEAR(in.h, 0, 0);
	struct rbox c = rbox_grid_cell(rbox_make(0, 0, 210, 100), 2, 2, 1, 1, 10, 0);
	CHECK_NEAR(c.x, 110, 1e-12);
	CHECK_NEAR(c.w, 100, 1e-12);
	CHECK_NEAR(c.y, 50, 1e-12);
	struct rbox f = rbox_fit(rbox_make(0, 0, 200, 100), 1.0);
	CHECK_NEAR(f.w, 100, 1e-12);
	CHECK_NEAR(f.x, 50, 1e-12);
	int r, k;
	grid_shape(4, 500, 320, &r, &k);
	CHECK_INT(r * k, 4);
	grid_shape(1, 500, 320, &r, &k);
	CHECK_INT(r, 1);
	CHECK_INT(k, 1);
	grid_shape(3, 900, 300, &r, &k);
	CHECK_INT(r, 1);
	CHECK_INT(k, 3);
}

static void test_bars(void)
{
	double x, w;
	bar_slot(0, 600, 6, 0, 4, 0, 0.8, &x, &w);
	CHECK_NEAR(w, 20, 1e-12);
	CHECK_NEAR(x, 10, 1e-12);
	bar_slot(0, 600, 6, 5, 4, 3, 0.8, &x, &w);
	CHECK_NEAR(x + w, 590, 1e-9);
}

static void test_waves(void)
{
	struct wave_plan w;
	/* flash2 at B=4, H=16, N=4096: 32 q-blocks × 64 heads, 2 blocks per SM */
	CHECK_INT(wave_plan(&w, 2048, 132, 2), 0);
	CHECK_INT(w.waves, 8);
	CHECK_NEAR(w.waves_exact, 2048.0 / 264, 1e-12);
	CHECK_INT(w.last_blocks, 2048 - 7 * 264);
	CHECK_INT(w.idle_sms_last, 0);
	CHECK_INT(wave_sm_blocks(&w, 0, 131), 2);
	CHECK_INT(wave_sm_blocks(&w, 7, 0), 2);   /* 200 blocks: 68 SMs get two */
	CHECK_INT(wave_sm_blocks(&w, 7, 67), 2);
	CHECK_INT(wave_sm_blocks(&w, 7, 68), 1);
	/* flash1 at B·H = 64: one wave, 68 SMs idle */
	CHECK_INT(wave_plan(&w, 64, 132, 1), 0);
	CHECK_INT(w.waves, 1);
	CHECK_INT(w.idle_sms_last, 68);
	CHECK_INT(wave_sm_blocks(&w, 0, 63), 1);
	CHECK_INT(wave_sm_blocks(&w, 0, 64), 0);
	CHECK_NEAR(w.utilisation, 64.0 / 132, 1e-12);
	/* the sum over SMs of every wave is the block count */
	CHECK_INT(wave_plan(&w, 1000, 132, 3), 0);
	long long sum = 0;
	for (int v = 0; v < w.waves; v++)
		for (int s = 0; s < 132; s++)
			sum += wave_sm_blocks(&w, v, s);
	CHECK_INT(sum, 1000);
	CHECK_INT(wave_plan(&w, 0, 132, 1), -1);
	CHECK_INT(wave_plan(&w, 10, 0, 1), -1);
	CHECK_INT(blocks_per_sm_from_occupancy(0.125, 4, 64), 2);
	CHECK_INT(blocks_per_sm_from_occupancy(0.0625, 4, 64), 1);
	CHECK_INT(blocks_per_sm_from_occupancy(0, 4, 64), 1);
}

static void test_labels(void)
{
	char b[32];
	CHECK_STR(fmt_bytes(67108864, b, sizeof(b)), "64.0 MiB");
	CHECK_STR(fmt_bytes(2147483648.0, b, sizeof(b)), "2.00 GiB");
	CHECK_STR(fmt_bytes(512, b, sizeof(b)), "512 B");
	CHECK_STR(fmt_bytes(1023.9 * 1024, b, sizeof(b)), "1.00 MiB");
	CHECK_STR(fmt_count(1234567, b, sizeof(b)), "1.23 M");
	CHECK_STR(fmt_count(42, b, sizeof(b)), "42");
	CHECK_STR(fmt_seqlen(16384, b, sizeof(b)), "16k");
	CHECK_STR(fmt_seqlen(512, b, sizeof(b)), "512");
	CHECK_STR(fmt_seqlen(1000, b, sizeof(b)), "1000");
	CHECK_STR(fmt_sig(9.996, 3, b, sizeof(b)), "10.0");
	CHECK_STR(fmt_sig(0.0009, 2, b, sizeof(b)), "9.0e-04");
	CHECK_STR(fmt_sig(0.0123, 2, b, sizeof(b)), "0.012");
	CHECK_STR(fmt_sig(NAN, 3, b, sizeof(b)), "n/a");
	CHECK_STR(fmt_tick(0.25, 0.25, b, sizeof(b)), "0.25");
	CHECK_STR(fmt_tick(200, 100, b, sizeof(b)), "200");
	CHECK_STR(fmt_tick(2.5, 2.5, b, sizeof(b)), "2.5");
	CHECK_STR(fmt_tick(1e-17, 0.2, b, sizeof(b)), "0.0");
}

/* Tick labels on a log axis are whole numbers: "1", "10", "64 GiB", "10 M",
 * never "1.00" or "10.0" (issue 15); a linear axis keeps its decimals. */
static void test_log_tick_labels(void)
{
	struct axis a;
	char buf[48];
	axis_log(&a, 1, 1e4, 10, 8);
	CHECK_STR(tick_label(1, &a, TICK_NUM, buf, sizeof(buf)), "1");
	CHECK_STR(tick_label(10, &a, TICK_NUM, buf, sizeof(buf)), "10");
	CHECK_STR(tick_label(10000, &a, TICK_NUM, buf, sizeof(buf)), "10000");
	CHECK_STR(tick_label(0.1, &a, TICK_NUM, buf, sizeof(buf)), "0.1");
	CHECK_STR(tick_label(1e7, &a, TICK_COUNT, buf, sizeof(buf)), "10 M");
	CHECK_STR(tick_label(64.0 * 1024 * 1024 * 1024, &a, TICK_BYTES, buf, sizeof(buf)), "64 GiB");
	CHECK_STR(tick_label(256.0 * 1024 * 1024, &a, TICK_BYTES, buf, sizeof(buf)), "256 MiB");
	axis_linear(&a, 0, 1, 4, 1);
	CHECK(strchr(tick_label(0.25, &a, TICK_NUM, buf, sizeof(buf)), '.') != NULL);
}

/* the counter figures' geometry (fig_counters.h) */
static void test_counter_geometry(void)
{
	struct rbox cell[WL_LEVELS];
	workload_cells(rbox_make(10, 20, 400, 30), 70, 10, cell);
	CHECK_NEAR(cell[0].x, 90, 1e-9);  /* after the label and one gap */
	CHECK_NEAR(cell[0].w, 100, 1e-9); /* (400 - 70 - 3 gaps) / 3 */
	CHECK_NEAR(cell[2].x + cell[2].w, 410, 1e-9); /* the row's right end */
	CHECK_NEAR(cell[1].x, cell[0].x + cell[0].w + 10, 1e-9);
	CHECK_NEAR(cell[1].y, 20, 0);
	struct rbox b = workload_bar(cell[1], 0.25, 8);
	CHECK_NEAR(b.x, cell[1].x, 0);
	CHECK_NEAR(b.w, 25, 1e-9);
	CHECK_NEAR(b.h, 8, 0);
	CHECK_NEAR(workload_bar(cell[1], 3, 8).w, 100, 1e-9); /* clamped to the cell */
	CHECK_NEAR(workload_bar(cell[1], NAN, 8).w, 0, 0);    /* not measured: no bar */
	CHECK_NEAR(workload_bar(cell[1], -1, 80).h, 30, 0);   /* never taller than the cell */

	const double v[] = { 30, NAN, 20, -5, 60 };
	struct rbox seg[5];
	double sum = stall_segments(rbox_make(0, 0, 200, 10), v, 5, 100, seg);
	CHECK_NEAR(sum, 100, 1e-9);             /* 30 + 20 + the 50 that fit of 60 */
	CHECK_NEAR(seg[0].w, 60, 1e-9);
	CHECK_NEAR(seg[1].w, 0, 0);             /* NaN: no width */
	CHECK_NEAR(seg[2].x, 60, 1e-9);
	CHECK_NEAR(seg[2].w, 40, 1e-9);
	CHECK_NEAR(seg[3].w, 0, 0);             /* negative: no width */
	CHECK_NEAR(seg[4].x + seg[4].w, 200, 1e-9); /* never past the bar's end */
}

TESTS(test_nice_step, test_counter_geometry, test_axis_linear, test_axis_log, test_boxes, test_bars, test_waves, test_labels,
      test_log_tick_labels)

#else
static void test_built_without_render(void) { SKIP("built without the renderer"); }
TESTS(test_built_without_render)
#endif
