/* test_tensor_path.c: the instruction path each kernel's matmuls take
 * (kernel_desc.path), which picks the roofline's ceiling for the kernel
 * (mma.sync's measured rate or cuBLAS's wgmma GEMM rate), and the mapping
 * of a recorded launch to its descriptor kernel. */
#include "check.h"

#include "variants.h"

/* every kernel: a cuBLAS GEMM is PATH_LIBRARY, the flash template and the
 * decode kernels mma.sync, the Hopper rungs wgmma; every variant's main
 * kernel takes a tensor path except none */
static void test_paths_of_descriptors(void)
{
	int lib = 0, mma = 0, wg = 0;
	for (size_t i = 0; i < variant_count; i++) {
		const struct variant_desc *v = variant_table[i];
		for (int p = 0; p < 2; p++) {
			const struct variant_desc *d = p ? v->bwd : v;
			for (size_t k = 0; d && k < d->nkernels; k++) {
				const struct kernel_desc *kd = &d->kernels[k];
				const int gemm = kd->does && strstr(kd->does, "cuBLAS") != NULL;
				if (gemm != (kd->path == PATH_LIBRARY))
					printf("    %s: kernel %s path %d\n", d->name, kd->name, kd->path);
				CHECK(gemm == (kd->path == PATH_LIBRARY));
				lib += kd->path == PATH_LIBRARY;
				mma += kd->path == PATH_MMA_SYNC;
				wg += kd->path == PATH_WGMMA;
				if (v->family == FAMILY_FLASH && !p)
					CHECK_INT(kd->path, PATH_MMA_SYNC);
				if (v->family == FAMILY_HOPPER && !p)
					CHECK_INT(kd->path, PATH_WGMMA);
			}
		}
	}
	CHECK(lib >= 6 && mma >= 3 && wg >= 1);
	CHECK_STR(tensor_path_name(PATH_MMA_SYNC), "mma.sync");
	CHECK_STR(tensor_path_name(PATH_WGMMA), "wgmma");
}

/* launches as CUPTI names them: ours by the descriptor's match, cuBLAS's
 * (which no match names) as the descriptor's library kernel */
static void test_launch_kernel(void)
{
	const struct variant_desc *st = variant_find("standard"), *f2 = variant_find("flash2");
	CHECK(st && f2);
	if (!st || !f2)
		return;
	const struct kernel_desc *k = variant_launch_kernel(st, PASS_FWD, "nvjet_sm90_hsh_256x128_64x4_1x2_h_bz_coopA_TNT");
	CHECK(k && k->path == PATH_LIBRARY);
	k = variant_launch_kernel(st, PASS_FWD, "void softmax_rows<__half, true>(__half const*, __half*, int, int, int)");
	CHECK(k && k->path == PATH_NONE && !strcmp(k->name, "softmax"));
	k = variant_launch_kernel(f2, PASS_FWD, "void flash::flash_fwd<__half, 128, true, true, true>(flash::flash_params)");
	CHECK(k && k->path == PATH_MMA_SYNC);
	/* flash2's backward: the fused kernel mma.sync, the dQ conversion none */
	k = variant_launch_kernel(f2, PASS_BWD, "void flash_bwd<__half, 128, false>(bwd_params)");
	CHECK(k && k->path == PATH_MMA_SYNC);
	k = variant_launch_kernel(f2, PASS_BWD, "void bwd_convert_dq<__half>(bwd_params)");
	CHECK(k && k->path == PATH_NONE);
	/* fwd+bwd: the forward's kernels are there too */
	k = variant_launch_kernel(f2, PASS_FWDBWD, "void flash::flash_fwd<__half, 128, true, true, true>(flash::flash_params)");
	CHECK(k && k->path == PATH_MMA_SYNC);
	/* flash2 has no library kernel: an unknown name is none of its kernels */
	CHECK(variant_launch_kernel(f2, PASS_FWD, "nvjet_sm90_x") == NULL);
}

TESTS(test_paths_of_descriptors, test_launch_kernel)
