/* test_fwd_regs_gpu.c: the forward register table (FLASH_FWD_REGS_TABLE in
 * kernels/tiles.h, which the descriptors' tilings, the occupancy figures and
 * the model read) against the kernels as compiled: for every variant of the
 * flash template family, fp16 and bf16, d = 64 and 128, the registers per
 * thread cudaFuncGetAttributes reports for the instantiation the launch
 * would choose.  The table had drifted once (d = 64 split-Q: 222/216/243 by
 * ptxas, 227/214/228 in the copy).  Skips without a GPU. */
#include "check.h"

#include "util/error.h"

#if ATTNPROF_HAVE_CUDA
#include "attn.h"
#include "gpu_device.h"
#include "variants.h"



static void test_gpu_fwd_regs_table(void)
{
	if (!gpu())
		SKIP("skipped: no GPU");
	int compared = 0;
	for (size_t i = 0; i < variant_count; i++) {
		const struct variant_desc *v = variant_table[i];
		if (v->family != FAMILY_FLASH || !variant_supports_pass(v, PASS_FWD) || !(v->phases & (1u << PHASE_PREFILL)))
			continue; /* decode-flash2 is the same template at switches 7, prefill's flash2 */
		for (int t = 0; t < 2; t++)
			for (int d = 64; d <= 128; d += 64) {
				const enum dtype dt = t ? DTYPE_BF16 : DTYPE_FP16;
				struct attn_shape s = { dt, PHASE_PREFILL, 1, 2, 2, 128, 128, d, 0, PASS_FWD };
				struct attn_run *r = NULL;
				if (attn_run_create(&r, v, &s, gpu_dev.hw.sm_count)) {
					printf("    %s d=%d: create: %s\n", v->name, d, attn_last_error());
					CHECK(0);
					continue;
				}
				const int regs = attn_run_main_kernel_regs(r);
				const int want = attn_run_tiling(r)->regs_per_thread;
				printf("    %-22s %s d=%-3d table %3d, compiled %3d%s\n", v->name, dtype_name(dt), d, want, regs,
				       regs == want ? "" : "  <- differs");
				CHECK(regs > 0);
				CHECK_INT(regs, want);
				compared++;
				attn_run_destroy(r);
			}
	}
	CHECK(compared >= 8 * 4); /* the eight ladder rungs at least, each dtype and d */
}

TESTS(test_gpu_fwd_regs_table)
#else
static void test_gpu_fwd_regs(void) { SKIP("skipped: built without the GPU half"); }
TESTS(test_gpu_fwd_regs)
#endif
