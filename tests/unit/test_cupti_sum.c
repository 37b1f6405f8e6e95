/* test_cupti_sum.c: per-kernel metrics summed into per-variant totals
 * (results_sum_launches) on realistic multi-kernel data: the standard
 * variant's cuBLAS GEMM, softmax, cuBLAS GEMM. */
#include "check.h"

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

TESTS(test_standard_three_kernels, test_single_kernel_is_identity, test_split_kv_decode)
