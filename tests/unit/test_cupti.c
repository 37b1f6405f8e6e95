/* test_cupti.c: metric validation and pass planning through the CUPTI
 * Profiler Host API for chip GH100 (no GPU needed), and the range -> kernel
 * mapping on synthetic range and activity lists. */
#include "check.h"

#include "metric_sets.h"
#include "util/error.h"

#if ATTNPROF_HAVE_CUDA
#include "capture/cupti.h"
#include "capture/cupti_host.h"

#define NEED_HOST_API() do { if (CUPTI_HOST_UNDER_ASAN) \
	SKIP("skipped: CUPTI's host library cannot load under AddressSanitizer"); } while (0)

static int passes_of(const char *set)
{
	const struct metric_set *s = metric_set_find(set);
	int p = -1;
	if (!s || cupti_validate_metrics("GH100", s->metrics, s->nmetrics, &p))
		return -1;
	return p;
}

static void test_builtin_sets_valid_on_gh100(void)
{
	NEED_HOST_API();
	/* pass counts documented in docs/metrics.md (CUPTI 13.0) */
	CHECK_INT(passes_of("memory"), 1);
	CHECK_INT(passes_of("default"), 2);
	CHECK_INT(passes_of("full"), 4);
	CHECK_INT(passes_of("workload"), 3);
	CHECK_INT(passes_of("stalls"), 6);
	int p = -1;
	CHECK_INT(cupti_validate_metrics("GH100", NULL, 0, &p), 0);
	CHECK_INT(p, 0);
}

static void test_each_named_metric_valid(void)
{
	NEED_HOST_API();
	static const char *const names[] = {
		M_DRAM_READ, M_DRAM_WRITE, M_L2_BYTES, M_L2_READ_SECT, M_L2_WRITE_SECT,
		M_SMEM_LD_WF, M_SMEM_ST_WF, M_SMEM_LD_CONF, M_SMEM_ST_CONF, M_LDSM, M_LDGSTS,
		M_OCC_ACHIEVED, M_TENSOR_ACTIVE, M_DURATION, M_SM_CLOCK, M_FADD, M_FMUL, M_FFMA,
		M_MUFU, M_TENSOR_INST, M_BARRIERS, M_SMS_ACTIVE, M_TENSOR_HMMA, M_TENSOR_GMMA,
		M_SMEM_GMMA_WF, M_INST_EXECUTED,
	};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		int p = 0;
		int rc = cupti_validate_metrics("GH100", &names[i], 1, &p);
		if (rc || p != 1)
			printf("    %s: rc %d, %d passes\n", names[i], rc, p);
		CHECK(rc == 0 && p == 1);
	}
}

static void test_unknown_metric_names_metric_and_chip(void)
{
	NEED_HOST_API();
	const char *bad[] = { M_DRAM_READ, "dram__bytes_red.sum", M_DURATION };
	int p = 7;
	error_quiet(1);
	CHECK_INT(cupti_validate_metrics("GH100", bad, 3, &p), -1);
	CHECK_CONTAINS(error_last(), "'dram__bytes_red.sum'");
	CHECK_CONTAINS(error_last(), "GH100");
	CHECK_INT(p, 0);
	/* a name ncu knows but the range profiler does not */
	const char *ncu_only[] = { "launch__registers_per_thread" };
	CHECK_INT(cupti_validate_metrics("GH100", ncu_only, 1, &p), -1);
	CHECK_CONTAINS(error_last(), "launch__registers_per_thread");
	/* the old name for barriers that GH100 rejects */
	const char *old_bar[] = { "smsp__inst_executed_op_barrier.sum" };
	CHECK_INT(cupti_validate_metrics("GH100", old_bar, 1, &p), -1);
	CHECK_INT(cupti_validate_metrics("NOCHIP", bad, 1, &p), -1);
	CHECK_CONTAINS(error_last(), "NOCHIP");
	error_quiet(0);
}

/* every warp-stall counter GH100's range profiler offers is a reason of
 * the stalls set, and every reason of the set is one of them: an active
 * warp is in one state a cycle, so the rows add up to 100 % only with all
 * of them (the gmma reason was missing once: Hopper rows read 95-99 %) */
struct chip_stalls {
	char names[64][96];
	size_t n;
};
static void add_stall(const char *name, void *arg)
{
	struct chip_stalls *c = arg;
	if (c->n < 64)
		snprintf(c->names[c->n++], sizeof c->names[0], "%s", name);
}

static void test_stall_set_has_every_gh100_reason(void)
{
	NEED_HOST_API();
	struct chip_stalls c = { .n = 0 };
	const char *prefix = "smsp__warps_issue_stalled_";
	int n = cupti_chip_counters("GH100", prefix, add_stall, &c);
	CHECK(n >= 19); /* CUPTI 13.0: 19 reasons, gmma among them */
	int gmma = 0;
	for (size_t i = 0; i < c.n; i++) {
		const char *reason = c.names[i] + strlen(prefix);
		gmma |= !strcmp(reason, "gmma");
		size_t k;
		for (k = 0; k < metric_stall_reason_count && strcmp(metric_stall_reasons[k].name, reason); k++)
			;
		if (k == metric_stall_reason_count)
			printf("    GH100 counts %s, the stalls set does not\n", c.names[i]);
		CHECK(k < metric_stall_reason_count);
	}
	CHECK(gmma);
	CHECK_INT((int)metric_stall_reason_count, n);
	/* and the set's metrics are those counters with .sum */
	const struct metric_set *st = metric_set_find("stalls");
	CHECK(st != NULL);
	size_t in_set = 0;
	for (size_t i = 0; st && i < st->nmetrics; i++)
		in_set += !strncmp(st->metrics[i], prefix, strlen(prefix));
	CHECK_INT((int)in_set, n);
	error_quiet(1);
	CHECK_INT(cupti_chip_counters("NOCHIP", prefix, add_stall, &c), -1);
	error_quiet(0);
}

static void test_expensive_metric_costs_passes(void)
{
	NEED_HOST_API();
	const char *m[] = { "sm__throughput.avg.pct_of_peak_sustained_elapsed" };
	int p = 0;
	CHECK_INT(cupti_validate_metrics("GH100", m, 1, &p), 0);
	CHECK(p > 2);
}

static void test_version(void)
{
	NEED_HOST_API();
	CHECK_CONTAINS(cupti_version_string(), "CUPTI API 13");
}

/* ---- mapping ------------------------------------------------------------ */

#define NREC(a) (sizeof(a) / sizeof((a)[0]))

static void test_map_in_order(void)
{
	const char *ranges[] = { "0", "1", "2" };
	struct cupti_kernel_rec recs[] = {
		{ 10, 100, "a" }, { 11, 200, "b" }, { 12, 300, "c" },
	};
	size_t map[3];
	CHECK_INT(cupti_map_ranges(ranges, 3, recs, 3, map), 0);
	CHECK_INT(map[0], 0);
	CHECK_INT(map[1], 1);
	CHECK_INT(map[2], 2);
}

/* standard attention: cuBLAS GEMM (S = QK^T), our softmax, cuBLAS GEMM
 * (O = PV).  Records come in buffer order, and each kernel appears twice
 * (a replay of the same launch shares its correlation id). */
static void test_map_cublas_three_kernels_with_replays(void)
{
	const char *ranges[] = { "0", "1", "2" };
	struct cupti_kernel_rec recs[] = {
		{ 57, 5000, "softmax_rows_kernel" },
		{ 41, 1000, "sm90_xmma_gemm_f16f16_f16f32_f32_tn_n_tilesize128x128x64_cublas" },
		{ 58, 9000, "sm90_xmma_gemm_f16f16_f16f32_f32_nn_n_tilesize128x256x64_cublas" },
		{ 41, 1500, "sm90_xmma_gemm_f16f16_f16f32_f32_tn_n_tilesize128x128x64_cublas" },
		{ 58, 9900, "sm90_xmma_gemm_f16f16_f16f32_f32_nn_n_tilesize128x256x64_cublas" },
		{ 57, 5500, "softmax_rows_kernel" },
	};
	size_t map[3];
	CHECK_INT(cupti_map_ranges(ranges, 3, recs, NREC(recs), map), 0);
	CHECK_CONTAINS(recs[map[0]].name, "tn_n_tilesize128x128");
	CHECK_STR(recs[map[1]].name, "softmax_rows_kernel");
	CHECK_CONTAINS(recs[map[2]].name, "nn_n_tilesize128x256");
	/* the first record of a launch is kept */
	CHECK_INT(recs[map[0]].start, 1000);
}

static void test_map_ranges_out_of_order(void)
{
	const char *ranges[] = { "2", "0", "1" };
	struct cupti_kernel_rec recs[] = { { 3, 0, "z" }, { 1, 0, "x" }, { 2, 0, "y" } };
	size_t map[3];
	CHECK_INT(cupti_map_ranges(ranges, 3, recs, 3, map), 0);
	CHECK_STR(recs[map[0]].name, "z");
	CHECK_STR(recs[map[1]].name, "x");
	CHECK_STR(recs[map[2]].name, "y");
}

static void test_map_refuses_mismatch(void)
{
	const char *ranges[] = { "0", "1", "2" };
	struct cupti_kernel_rec two[] = { { 1, 0, "gemm" }, { 2, 0, "softmax" } };
	struct cupti_kernel_rec four[] = { { 1, 0, "a" }, { 2, 0, "b" }, { 3, 0, "c" }, { 4, 0, "d" } };
	size_t map[4];
	error_quiet(1);
	CHECK_INT(cupti_map_ranges(ranges, 3, two, 2, map), -1);
	CHECK_CONTAINS(error_last(), "3 kernel ranges");
	CHECK_CONTAINS(error_last(), "2 kernel launches");
	CHECK_INT(cupti_map_ranges(ranges, 3, four, 4, map), -1);
	CHECK_INT(cupti_map_ranges(ranges, 3, NULL, 0, map), -1);
	/* names that are not launch indices */
	const char *named[] = { "0", "gemm", "2" };
	CHECK_INT(cupti_map_ranges(named, 3, four, 3, map), -1);
	CHECK_CONTAINS(error_last(), "'gemm'");
	const char *big[] = { "0", "1", "7" };
	CHECK_INT(cupti_map_ranges(big, 3, four, 3, map), -1);
	const char *dup[] = { "0", "1", "1" };
	CHECK_INT(cupti_map_ranges(dup, 3, four, 3, map), -1);
	CHECK_CONTAINS(error_last(), "both claim");
	const char *neg[] = { "-1", "0", "1" };
	CHECK_INT(cupti_map_ranges(neg, 3, four, 3, map), -1);
	/* one correlation id with two different kernel names */
	struct cupti_kernel_rec clash[] = { { 1, 0, "a" }, { 1, 5, "b" }, { 2, 0, "c" } };
	const char *r2[] = { "0", "1" };
	CHECK_INT(cupti_map_ranges(r2, 2, clash, 3, map), -1);
	CHECK_CONTAINS(error_last(), "two kernels");
	error_quiet(0);
}

static void test_map_empty_and_nested_names(void)
{
	size_t map[2];
	CHECK_INT(cupti_map_ranges(NULL, 0, NULL, 0, map), 0);
	const char *nested[] = { "outer/1", "outer/0" };
	struct cupti_kernel_rec recs[] = { { 8, 0, "first" }, { 9, 0, "second" } };
	CHECK_INT(cupti_map_ranges(nested, 2, recs, 2, map), 0);
	CHECK_STR(recs[map[0]].name, "second");
	CHECK_STR(recs[map[1]].name, "first");
}

/* A range profiler object kept enabled across calls numbers its auto ranges
 * on: the second call of a sweep sees "3", the third "4", "5", "6" (seen on
 * the H200).  Each call's ranges are rebased to their lowest number. */
static void test_map_ranges_numbered_on_across_calls(void)
{
	size_t base = 99, map[3];
	const char *second[] = { "3" };
	struct cupti_kernel_rec one[] = { { 70, 0, "flash_fwd" }, { 70, 10, "flash_fwd" } };
	CHECK_INT(cupti_ranges_base(second, 1, &base), 0);
	CHECK_INT(base, 3);
	CHECK_INT(cupti_map_ranges_at(second, 1, base, one, 2, map), 0);
	CHECK_INT(map[0], 0);

	const char *third[] = { "6", "4", "5" };
	struct cupti_kernel_rec recs[] = { { 92, 0, "nvjet_nn" }, { 90, 0, "nvjet_tn" }, { 91, 0, "softmax_rows" } };
	CHECK_INT(cupti_ranges_base(third, 3, &base), 0);
	CHECK_INT(base, 4);
	CHECK_INT(cupti_map_ranges_at(third, 3, base, recs, 3, map), 0);
	CHECK_STR(recs[map[0]].name, "nvjet_nn");     /* range "6" = launch 2 */
	CHECK_STR(recs[map[1]].name, "nvjet_tn");     /* range "4" = launch 0 */
	CHECK_STR(recs[map[2]].name, "softmax_rows"); /* range "5" = launch 1 */

	/* without the base the old mapping refuses, as it did on the H200 */
	error_quiet(1);
	CHECK_INT(cupti_map_ranges(third, 3, recs, 3, map), -1);
	CHECK_CONTAINS(error_last(), "'6'");
	/* a gap or a repeat is still refused */
	const char *gap[] = { "4", "5", "7" };
	CHECK_INT(cupti_ranges_base(gap, 3, &base), 0);
	CHECK_INT(cupti_map_ranges_at(gap, 3, base, recs, 3, map), -1);
	const char *rep[] = { "4", "5", "5" };
	CHECK_INT(cupti_map_ranges_at(rep, 3, 4, recs, 3, map), -1);
	CHECK_CONTAINS(error_last(), "both claim launch 5");
	/* a base above a name is refused, not wrapped around */
	CHECK_INT(cupti_map_ranges_at(third, 3, 5, recs, 3, map), -1);
	const char *bad[] = { "4", "x" };
	CHECK_INT(cupti_ranges_base(bad, 2, &base), -1);
	CHECK_CONTAINS(error_last(), "'x'");
	error_quiet(0);
	/* nested names and no ranges */
	const char *nested[] = { "outer/12", "outer/11" };
	CHECK_INT(cupti_ranges_base(nested, 2, &base), 0);
	CHECK_INT(base, 11);
	CHECK_INT(cupti_ranges_base(NULL, 0, &base), 0);
	CHECK_INT(base, 0);
}

/* The session sets up once and re-initialises per call only the image and
 * the config; a failed call, or per-call mode, starts the next one afresh. */
static void test_reuse_steps(void)
{
	struct cupti_reuse r = { 0, 0, 0 };
	const unsigned per = CUPTI_STEP_INIT_IMAGE | CUPTI_STEP_SET_CONFIG;
	unsigned st = cupti_reuse_steps(&r);
	CHECK_INT(st, per | CUPTI_STEP_ENABLE | CUPTI_STEP_SIZE_IMAGE);
	cupti_reuse_after(&r, st, 1);
	CHECK_INT(r.enabled, 1);
	CHECK_INT(r.have_image, 1);
	for (int call = 2; call <= 4; call++) {
		st = cupti_reuse_steps(&r);
		CHECK_INT(st, per); /* nothing but the per-call image and config */
		cupti_reuse_after(&r, st, 1);
	}
	/* a failed call disables: the next enables again, with a new image
	 * (one image re-initialised for a second object crashed CUPTI 13.0) */
	cupti_reuse_after(&r, cupti_reuse_steps(&r), 0);
	CHECK_INT(r.enabled, 0);
	st = cupti_reuse_steps(&r);
	CHECK_INT(st, per | CUPTI_STEP_ENABLE | CUPTI_STEP_SIZE_IMAGE);
	cupti_reuse_after(&r, st, 1);
	CHECK_INT(cupti_reuse_steps(&r), per);
	/* failing in the call that sized the image sizes it again */
	struct cupti_reuse f = { 0, 0, 0 };
	cupti_reuse_after(&f, cupti_reuse_steps(&f), 0);
	CHECK_INT(cupti_reuse_steps(&f), per | CUPTI_STEP_ENABLE | CUPTI_STEP_SIZE_IMAGE);
	/* per-call mode (ATTNPROF_CUPTI_PER_CALL=1): enable and disable every call */
	struct cupti_reuse p = { 0, 0, 1 };
	st = cupti_reuse_steps(&p);
	CHECK_INT(st, per | CUPTI_STEP_ENABLE | CUPTI_STEP_SIZE_IMAGE | CUPTI_STEP_DISABLE);
	cupti_reuse_after(&p, st, 1);
	CHECK_INT(p.enabled, 0);
	CHECK_INT(cupti_reuse_steps(&p), per | CUPTI_STEP_ENABLE | CUPTI_STEP_SIZE_IMAGE | CUPTI_STEP_DISABLE);
}

/* User replay: the call runs once per pass, every launch with its own
 * correlation id.  Standard attention with the L2 flush before each kernel,
 * 2 passes: 6 ranges, 12 launches; range k is pass 1's k-th launch. */
static void test_map_user_replay_rounds(void)
{
	const char *ranges[] = { "8", "9", "10", "11", "12", "13" };
	const char *seq[] = { "attnprof_l2_flush", "nvjet_tn", "attnprof_l2_flush", "softmax_rows",
			      "attnprof_l2_flush", "nvjet_nn" };
	struct cupti_kernel_rec recs[12];
	for (int i = 0; i < 12; i++) {
		/* delivered in reverse: order must come from the ids */
		recs[11 - i] = (struct cupti_kernel_rec){ (uint32_t)(300 + i), (uint64_t)(1000 * i), seq[i % 6] };
	}
	size_t map[6], base = 0;
	CHECK_INT(cupti_ranges_base(ranges, 6, &base), 0);
	CHECK_INT(base, 8);
	CHECK_INT(cupti_map_ranges_rounds(ranges, 6, base, 2, recs, 12, map), 0);
	for (int k = 0; k < 6; k++) {
		CHECK_STR(recs[map[k]].name, seq[k]);
		CHECK_INT(recs[map[k]].correlation_id, 300 + k); /* the first pass's launch */
	}
	/* CUPTI's own WaitNs kernel shares one of our ids: not a launch of ours */
	struct cupti_kernel_rec with_wait[13];
	memcpy(with_wait, recs, sizeof recs);
	with_wait[12] = (struct cupti_kernel_rec){ 306, 5990, "WaitNs" };
	CHECK_INT(cupti_map_ranges_rounds(ranges, 6, base, 2, with_wait, 13, map), 0);
	CHECK_STR(with_wait[map[0]].name, "attnprof_l2_flush");
	error_quiet(1);
	/* one pass short, or counted as kernel replay: refused */
	CHECK_INT(cupti_map_ranges_rounds(ranges, 6, base, 2, recs, 11, map), -1);
	CHECK_CONTAINS(error_last(), "per pass");
	CHECK_INT(cupti_map_ranges_at(ranges, 6, base, recs, 12, map), -1);
	/* a pass that launched another kernel: refused, naming both */
	recs[0].name = "flash_fwd"; /* id 311: pass 2's last launch */
	CHECK_INT(cupti_map_ranges_rounds(ranges, 6, base, 2, recs, 12, map), -1);
	CHECK_CONTAINS(error_last(), "pass 2 launched 'flash_fwd' where pass 1 launched 'nvjet_nn'");
	error_quiet(0);
}

/* A batch of runs, each on its own stream, in one profiled call. */
static void test_split_by_stream(void)
{
	struct launch l[6];
	memset(l, 0, sizeof l);
	uint32_t streams[6] = { 7, 7, 7, 9, 9, 13 };
	for (int i = 0; i < 6; i++)
		l[i].stream = streams[i];
	size_t start[4];
	CHECK_INT(cupti_split_by_stream(l, 6, 3, start), 0);
	CHECK_INT(start[0], 0);
	CHECK_INT(start[1], 3);
	CHECK_INT(start[2], 5);
	CHECK_INT(start[3], 6);
	error_quiet(1);
	CHECK_INT(cupti_split_by_stream(l, 6, 2, start), -1); /* one group too many */
	CHECK_CONTAINS(error_last(), "more than 2 streams");
	CHECK_INT(cupti_split_by_stream(l, 6, 4, start), -1); /* a run that launched nothing */
	CHECK_CONTAINS(error_last(), "on 3 streams");
	l[4].stream = 7; /* back to the first run's stream: 4 groups for 3 runs */
	CHECK_INT(cupti_split_by_stream(l, 6, 3, start), -1);
	error_quiet(0);
	CHECK_INT(cupti_split_by_stream(NULL, 0, 0, start), 0);
}

TESTS(test_builtin_sets_valid_on_gh100, test_each_named_metric_valid,
      test_unknown_metric_names_metric_and_chip, test_stall_set_has_every_gh100_reason, test_expensive_metric_costs_passes,
      test_version, test_map_in_order, test_map_cublas_three_kernels_with_replays,
      test_map_ranges_out_of_order, test_map_refuses_mismatch, test_map_empty_and_nested_names,
      test_map_ranges_numbered_on_across_calls, test_map_user_replay_rounds, test_split_by_stream,
      test_reuse_steps)
#else
static void test_cupti_host_api(void)
{
	SKIP("skipped: built without the GPU half");
}
TESTS(test_cupti_host_api)
#endif
