/* test_cupti_sum.c: per-kernel metrics summed into per-variant totals
 * (results_sum_launches) on realistic multi-kernel data: the standard
 * variant's cuBLAS GEMM, softmax, cuBLAS GEMM. */
#include "check.h"

#include <math.h>
#include <stdlib.h>

#include "metric_sets.h"
#include "results.h"

struct k {
	const char *name;
	double dram_rd, dram_wr, smem_ld, occ, clock, dur;
};

static void add_launch(struct record *rec, const struct k *k)
{
	struct launch *l = &rec->launches[rec->nlaunches++];
	memset(l, 0, sizeof *l);
	l->name = strdup(k->name);
	l->occupancy_limiter = strdup("registers");
	kvlist_init(&l->metrics);
	kvlist_set(&l->metrics, M_DRAM_READ, k->dram_rd);
	kvlist_set(&l->metrics, M_DRAM_WRITE, k->dram_wr);
	kvlist_set(&l->metrics, M_SMEM_LD_WF, k->smem_ld);
	kvlist_set(&l->metrics, M_OCC_ACHIEVED, k->occ);
	kvlist_set(&l->metrics, M_SM_CLOCK, k->clock);
	kvlist_set(&l->metrics, M_DURATION, k->dur);
}

static void test_standard_three_kernels(void)
{
	/* B=4 H=16 N=4096 d=128 fp16: S and P are 2 GiB each */
	const struct k ks[] = {
		{ "sm90_xmma_gemm_f16f16_f32_tn_n_cublas", 134217728, 2147483648.0, 3.1e8, 30.0, 1.98e9, 2.0e6 },
		{ "softmax_rows", 2147483648.0, 2147483648.0, 1.0e6, 90.0, 1.95e9, 1.0e6 },
		{ "sm90_xmma_gemm_f16f16_f32_nn_n_cublas", 2214592512.0, 67108864, 3.3e8, 40.0, 1.97e9, 1.0e6 },
	};
	struct record rec;
	record_init(&rec);
	rec.launches = calloc(3, sizeof *rec.launches);
	for (int i = 0; i < 3; i++)
		add_launch(&rec, &ks[i]);
	CHECK_INT(results_sum_launches(&rec), 0);
	/* bytes, wavefronts and durations add up */
	CHECK_NEAR(*record_metric(&rec, M_DRAM_READ), 134217728 + 2147483648.0 + 2214592512.0, 1e-12);
	CHECK_NEAR(*record_metric(&rec, M_DRAM_WRITE), 2147483648.0 * 2 + 67108864, 1e-12);
	CHECK_NEAR(*record_metric(&rec, M_SMEM_LD_WF), 3.1e8 + 1.0e6 + 3.3e8, 1e-12);
	CHECK_NEAR(*record_metric(&rec, M_DURATION), 4.0e6, 1e-12);
	/* occupancy (pct) and clock (per_second) average weighted by duration */
	CHECK_NEAR(*record_metric(&rec, M_OCC_ACHIEVED), (30.0 * 2 + 90.0 + 40.0) / 4, 1e-12);
	CHECK_NEAR(*record_metric(&rec, M_SM_CLOCK), (1.98e9 * 2 + 1.95e9 + 1.97e9) / 4, 1e-12);
	/* recomputing replaces, never doubles */
	CHECK_INT(results_sum_launches(&rec), 0);
	CHECK_NEAR(*record_metric(&rec, M_DURATION), 4.0e6, 1e-12);
	record_release(&rec);
}

static void test_single_kernel_is_identity(void)
{
	const struct k k1 = { "flash2_fwd", 2.06e8, 7.2e7, 1.2e9, 12.3, 1.96e9, 1.55e6 };
	struct record rec;
	record_init(&rec);
	rec.launches = calloc(1, sizeof *rec.launches);
	add_launch(&rec, &k1);
	CHECK_INT(results_sum_launches(&rec), 0);
	CHECK_NEAR(*record_metric(&rec, M_DRAM_READ), 2.06e8, 1e-15);
	CHECK_NEAR(*record_metric(&rec, M_OCC_ACHIEVED), 12.3, 1e-15);
	CHECK_NEAR(*record_metric(&rec, M_SM_CLOCK), 1.96e9, 1e-15);
	record_release(&rec);
}

static void test_split_kv_decode(void)
{
	/* decode: a split-KV kernel then a small reduction */
	const struct k ks[] = {
		{ "decode_split_kv", 5.0e8, 1.0e6, 2.0e7, 50.0, 1.9e9, 3.0e5 },
		{ "decode_combine", 1.0e6, 2.5e5, 0, 10.0, 1.9e9, 1.0e4 },
	};
	struct record rec;
	record_init(&rec);
	rec.launches = calloc(2, sizeof *rec.launches);
	for (int i = 0; i < 2; i++)
		add_launch(&rec, &ks[i]);
	CHECK_INT(results_sum_launches(&rec), 0);
	CHECK_NEAR(*record_metric(&rec, M_DRAM_READ), 5.01e8, 1e-12);
	CHECK_NEAR(*record_metric(&rec, M_OCC_ACHIEVED), (50.0 * 3.0e5 + 10.0 * 1.0e4) / 3.1e5, 1e-12);
	record_release(&rec);
}

/* Two launches of 3 ms and 1 ms: each metric combines by its row's
 * aggregation, a peak as the larger, a floor as the smaller, a share by
 * duration, a count added; a table row overrides the naming rule. */
static void test_aggregation_by_row(void)
{
	static const char *const names[] = {
		"sm__x_peak.max", "sm__x_floor.min", "dram__x_bytes.sum",
		"sm__x_busy.avg.pct_of_peak_sustained_active", M_SMS_ACTIVE, "lts__x.avg",
	};
	static const double v[2][6] = { { 7, 5, 100, 20, 1000, 2 }, { 9, 3, 50, 60, 400, 6 } };
	static const double dur[2] = { 3e6, 1e6 };
	struct record rec;
	record_init(&rec);
	rec.launches = calloc(2, sizeof *rec.launches);
	for (int i = 0; i < 2; i++) {
		struct launch *l = &rec.launches[rec.nlaunches++];
		kvlist_init(&l->metrics);
		kvlist_set(&l->metrics, M_DURATION, dur[i]);
		for (int j = 0; j < 6; j++)
			kvlist_set(&l->metrics, names[j], v[i][j]);
	}
	CHECK_INT(results_sum_launches(&rec), 0);
	CHECK_NEAR(*record_metric(&rec, "sm__x_peak.max"), 9, 0);
	CHECK_NEAR(*record_metric(&rec, "sm__x_floor.min"), 3, 0);
	CHECK_NEAR(*record_metric(&rec, "dram__x_bytes.sum"), 150, 0);
	CHECK_NEAR(*record_metric(&rec, "sm__x_busy.avg.pct_of_peak_sustained_active"), (20 * 3 + 60 * 1) / 4.0, 1e-15);
	/* sm__cycles_active.avg: its row says a count (cycles, mean over SMs),
	 * added over launches where the .avg rule alone would average it */
	CHECK_INT(metric_info(M_SMS_ACTIVE).agg, METRIC_SUM);
	CHECK_INT(metric_derive(M_SMS_ACTIVE).agg, METRIC_WEIGHTED_AVG);
	CHECK_NEAR(*record_metric(&rec, M_SMS_ACTIVE), 1400, 0);
	CHECK_NEAR(*record_metric(&rec, "lts__x.avg"), (2 * 3 + 6 * 1) / 4.0, 1e-15);
	CHECK_NEAR(*record_metric(&rec, M_DURATION), 4e6, 0);
	/* a launch's NaN leaves the total unknown, a peak's too */
	kvlist_set(&rec.launches[0].metrics, "sm__x_nan.max", NAN);
	kvlist_set(&rec.launches[1].metrics, "sm__x_nan.max", 4);
	CHECK_INT(results_sum_launches(&rec), 0);
	CHECK(isnan(*record_metric(&rec, "sm__x_nan.max")));
	CHECK_NEAR(*record_metric(&rec, "sm__x_peak.max"), 9, 0);
	/* one metric alone combines the same way */
	double one;
	CHECK_INT(record_launches_metric(&rec, "sm__x_peak.max", &one), 0);
	CHECK_NEAR(one, 9, 0);
	CHECK_INT(record_launches_metric(&rec, "sm__absent.sum", &one), -1);
	/* the totals keep the order the names first appear in */
	CHECK_STR(rec.totals.items[0].name, M_DURATION);
	CHECK_STR(rec.totals.items[1].name, "sm__x_peak.max");
	record_release(&rec);
}

/* The naming rule for names without a row, and a row found by its pattern. */
static void test_metric_rows(void)
{
	static const struct {
		const char *name;
		enum metric_agg agg;
		enum metric_unit unit;
	} want[] = {
		{ "dram__bytes_read.sum", METRIC_SUM, MU_BYTES },
		{ "dram__bytes_read.sum.per_second", METRIC_WEIGHTED_AVG, MU_BYTES_PER_SECOND },
		{ "dram__throughput.avg.pct_of_peak_sustained_elapsed", METRIC_WEIGHTED_AVG, MU_PCT },
		{ "sm__cycles_elapsed.max", METRIC_MAX, MU_CYCLES },
		{ "sm__cycles_elapsed.min", METRIC_MIN, MU_CYCLES },
		{ "sm__cycles_elapsed.avg.per_second", METRIC_WEIGHTED_AVG, MU_HZ },
		{ "smsp__inst_executed.avg.per_cycle_active", METRIC_WEIGHTED_AVG, MU_PER_CYCLE },
		{ "smsp__average_thread_inst_executed_pred_on_per_inst_executed.ratio", METRIC_WEIGHTED_AVG, MU_RATIO },
		{ "lts__t_sector_hit_rate.pct", METRIC_WEIGHTED_AVG, MU_PCT },
		{ "lts__t_sectors_op_red.sum", METRIC_SUM, MU_SECTORS },
		{ "gpu__time_duration.max", METRIC_MAX, MU_NS },
		{ "smsp__warps_launched.sum", METRIC_SUM, MU_CYCLES },
		{ "nodunder", METRIC_SUM, MU_COUNT },
	};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		struct metric_info m = metric_derive(want[i].name);
		CHECK_INT(m.agg, want[i].agg);
		CHECK_INT(m.unit, want[i].unit);
		CHECK(m.about == NULL);
	}
	/* every stall reason is one row's, by its pattern */
	struct metric_info st = metric_info(M_STALL("long_scoreboard"));
	CHECK(st.about != NULL);
	CHECK_INT(st.unit, MU_CYCLES);
	CHECK_INT(st.agg, METRIC_SUM);
	CHECK(metric_info("smsp__warps_issue_stalled_barrier.avg").about == NULL);
	/* every metric of a built-in set has a row, and the rows agree with
	 * the naming rule but where a row exists to say otherwise */
	for (size_t i = 0; i < metric_sets_builtin_count; i++)
		for (size_t j = 0; j < metric_sets_builtin[i].nmetrics; j++)
			CHECK(metric_info(metric_sets_builtin[i].metrics[j]).about != NULL);
	for (size_t i = 0; i < metric_table_count; i++) {
		if (!strcmp(metric_table[i].name, M_SMS_ACTIVE))
			continue;
		struct metric_info d = metric_derive(metric_table[i].name);
		CHECK_INT(d.agg, metric_table[i].agg);
		CHECK_INT(d.unit, metric_table[i].unit);
	}
}

TESTS(test_standard_three_kernels, test_single_kernel_is_identity, test_split_kv_decode, test_aggregation_by_row,
      test_metric_rows)
