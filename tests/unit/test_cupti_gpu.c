/* test_cupti_gpu.c: CUPTI capture on a real GPU, against kernels whose
 * counter values are known (test_cupti_probe.cu, embedded as PTX), a
 * cuBLAS GEMM among them.  Skips without a GPU or without the GPU half.
 * Prints what it measured, for docs/metrics.md. */
#include "check.h"

#include "util/error.h"

#if ATTNPROF_HAVE_CUDA
#include <time.h>

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include "attn.h"
#include "capture/cupti.h"
#include "metric_sets.h"
#include "occupancy.h"
#include "test_cupti_probe_ptx.h"

static int have_gpu = -1;
static cudaLibrary_t lib;
static cudaKernel_t k_copy, k_inc, k_smem, k_heavy;
static char skip_reason[600];

static int gpu(void)
{
	/* PROBE_ONLY=1: launch without CUPTI, for ncu (tools/ncu-compare.sh) */
	if (getenv("PROBE_ONLY")) {
		snprintf(skip_reason, sizeof skip_reason, "skipped: PROBE_ONLY is set");
		return 0;
	}
	if (have_gpu >= 0)
		return have_gpu;
	int n = 0;
	have_gpu = 0;
	if (cudaGetDeviceCount(&n) != cudaSuccess || n < 1) {
		snprintf(skip_reason, sizeof skip_reason, "skipped: no GPU");
		return 0;
	}
	if (cudaLibraryLoadData(&lib, probe_ptx, NULL, NULL, 0, NULL, NULL, 0) != cudaSuccess ||
	    cudaLibraryGetKernel(&k_copy, lib, "probe_copy") != cudaSuccess ||
	    cudaLibraryGetKernel(&k_inc, lib, "probe_inc") != cudaSuccess ||
	    cudaLibraryGetKernel(&k_smem, lib, "probe_smem") != cudaSuccess ||
	    cudaLibraryGetKernel(&k_heavy, lib, "probe_heavy") != cudaSuccess) {
		snprintf(skip_reason, sizeof skip_reason, "skipped: probe PTX did not load");
		return 0;
	}
	have_gpu = 1;
	return 1;
}

static struct cupti_session *open_set(const char *set)
{
	const struct metric_set *ms = metric_set_find(set);
	struct cupti_session *s = NULL;
	char reason[512];
	int rc = cupti_session_open(&s, ms->metrics, ms->nmetrics, reason, sizeof reason);
	if (rc == CUPTI_UNAVAILABLE) {
		snprintf(skip_reason, sizeof skip_reason, "skipped: counters unavailable: %s", reason);
		return NULL;
	}
	if (rc)
		printf("    open %s: %s\n", set, error_last());
	return s;
}

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double metric(const struct launch *l, const char *name)
{
	const double *v = kvlist_get(&l->metrics, name);
	return v ? *v : -1;
}

static void print_launches(const char *what, const struct launch *ls, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct launch *l = &ls[i];
		printf("    [%s] %zu %.60s grid %dx%dx%d block %dx%dx%d regs %d smem %d+%d occ %.3f (%s)\n",
		       what, i, l->name, l->grid[0], l->grid[1], l->grid[2], l->block[0], l->block[1],
		       l->block[2], l->registers, l->static_smem, l->dynamic_smem,
		       l->theoretical_occupancy, l->occupancy_limiter);
		for (size_t j = 0; j < l->metrics.n; j++)
			printf("        %-72s %.6g\n", l->metrics.items[j].name, l->metrics.items[j].value);
	}
}

/* ---- launches --------------------------------------------------------- */

struct copy_arg { void *in, *out; size_t n4; };

static int launch_copy(void *p)
{
	struct copy_arg *a = p;
	void *args[] = { &a->in, &a->out, &a->n4 };
	dim3 g = { 132 * 8, 1, 1 }, b = { 256, 1, 1 };
	return cudaLaunchKernel((const void *)k_copy, g, b, args, 0, 0) == cudaSuccess ? 0 : -1;
}

struct inc_arg { float *x; size_t n; };

static int launch_inc(void *p)
{
	struct inc_arg *a = p;
	void *args[] = { &a->x, &a->n };
	dim3 g = { (unsigned)((a->n + 255) / 256), 1, 1 }, b = { 256, 1, 1 };
	return cudaLaunchKernel((const void *)k_inc, g, b, args, 0, 0) == cudaSuccess ? 0 : -1;
}

struct smem_arg { float *out; int iters; int blocks; };

static int launch_smem(void *p)
{
	struct smem_arg *a = p;
	void *args[] = { &a->out, &a->iters };
	dim3 g = { (unsigned)a->blocks, 1, 1 }, b = { 128, 1, 1 };
	return cudaLaunchKernel((const void *)k_smem, g, b, args, 0, 0) == cudaSuccess ? 0 : -1;
}

struct mix_arg {
	struct copy_arg copy;
	struct smem_arg smem;
	cublasHandle_t h;
	void *A, *B, *C;
	int m;
};

/* our kernel, a cuBLAS fp16 tensor-core GEMM, our kernel */
static int launch_mix(void *p)
{
	struct mix_arg *a = p;
	const float one = 1.0f, zero = 0.0f;
	if (launch_copy(&a->copy))
		return -1;
	if (cublasGemmEx(a->h, CUBLAS_OP_T, CUBLAS_OP_N, a->m, a->m, a->m, &one, a->A, CUDA_R_16F,
			 a->m, a->B, CUDA_R_16F, a->m, &zero, a->C, CUDA_R_16F, a->m,
			 CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT) != CUBLAS_STATUS_SUCCESS)
		return error("cublasGemmEx failed");
	return launch_smem(&a->smem);
}

/* ---- tests ---------------------------------------------------------------- */

static void test_gpu_counters_readable(void)
{
	if (!gpu())
		SKIP(skip_reason);
	char reason[512];
	int r = cupti_counters_readable(reason, sizeof reason);
	printf("    counters readable: %d: %s\n    %s\n", r, reason, cupti_version_string());
	CHECK(r == 1 || r == 0);
}

static void test_gpu_copy_bytes(void)
{
	if (!gpu())
		SKIP(skip_reason);
	struct cupti_session *s = open_set("default");
	if (!s && skip_reason[0] == 's' && strstr(skip_reason, "unavailable"))
		SKIP(skip_reason);
	CHECK(s != NULL);
	if (!s)
		return;
	CHECK_STR(cupti_session_chip(s), "GH100");
	printf("    chip %s, default set: %d passes\n", cupti_session_chip(s), cupti_session_passes(s));
	struct copy_arg a = { NULL, NULL, (size_t)64 << 20 }; /* 64 Mi float4 = 1 GiB each way */
	CHECK(cudaMalloc(&a.in, a.n4 * 16) == cudaSuccess);
	CHECK(cudaMalloc(&a.out, a.n4 * 16) == cudaSuccess);
	cudaMemset(a.in, 1, a.n4 * 16);
	struct launch *ls = NULL;
	size_t n = 0;
	double t0 = now();
	int rc = cupti_profile(s, CUPTI_REPLAY_KERNEL, launch_copy, &a, &ls, &n);
	double t1 = now();
	if (rc)
		printf("    profile: %s\n", error_last());
	CHECK_INT(rc, 0);
	CHECK_INT(n, 1);
	if (n == 1) {
		print_launches("copy", ls, n);
		printf("    wall %.1f ms for 1 kernel, %d passes\n", 1e3 * (t1 - t0), cupti_session_passes(s));
		CHECK_STR(ls[0].name, "probe_copy");
		CHECK_INT(ls[0].grid[0], 132 * 8);
		CHECK_INT(ls[0].block[0], 256);
		CHECK(ls[0].registers > 0);
		double bytes = (double)a.n4 * 16;
		CHECK_NEAR(metric(&ls[0], M_DRAM_READ), bytes, 0.02);
		/* up to an L2's worth of writes may still be dirty at the end */
		CHECK(metric(&ls[0], M_DRAM_WRITE) > bytes - 64e6 && metric(&ls[0], M_DRAM_WRITE) < bytes * 1.02);
		CHECK(metric(&ls[0], M_DURATION) > 0);
		CHECK(metric(&ls[0], M_SM_CLOCK) > 5e8);
		CHECK(metric(&ls[0], M_OCC_ACHIEVED) > 10 && metric(&ls[0], M_OCC_ACHIEVED) <= 100.0001);
	}
	/* a second profiled call in the same session works too */
	cupti_launches_free(ls, n);
	ls = NULL;
	t0 = now();
	CHECK_INT(cupti_profile(s, CUPTI_REPLAY_KERNEL, launch_copy, &a, &ls, &n), 0);
	printf("    second call: wall %.1f ms\n", 1e3 * (now() - t0));
	CHECK_INT(n, 1);
	cupti_launches_free(ls, n);
	cudaFree(a.in);
	cudaFree(a.out);
	cupti_session_close(s);
}

/* DRAM writes of the copy kernel (1 GiB each way, user replay) profiled right
 * after `bytes` of device memory were written and freed: to the pool, or
 * with cudaFree. */
static double writes_after_free(struct cupti_session *s, struct copy_arg *a, size_t bytes, int pooled)
{
	void *big = NULL;
	if (pooled ? attn_dev_alloc(&big, bytes, "the big buffer") : cudaMalloc(&big, bytes) != cudaSuccess)
		return -1;
	cudaMemset(big, 0x5a, bytes);
	cudaDeviceSynchronize();
	if (pooled)
		attn_dev_free(big);
	else
		cudaFree(big);
	struct launch *ls = NULL;
	size_t n = 0;
	double w = -1;
	if (!cupti_profile(s, CUPTI_REPLAY_USER, launch_copy, a, &ls, &n) && n == 1)
		w = metric(&ls[0], M_DRAM_WRITE);
	cupti_launches_free(ls, n);
	return w;
}

/* Memory a run frees goes back to the pool, not the driver: a kernel profiled
 * right after a big run was destroyed counts its own writes only.  (After a
 * plain cudaFree of the same buffer the H200 showed more: printed.) */
static void test_gpu_freed_memory_is_quiet(void)
{
	if (!gpu())
		SKIP(skip_reason);
	struct cupti_session *s = open_set("memory");
	if (!s)
		SKIP(skip_reason);
	struct copy_arg a = { NULL, NULL, (size_t)64 << 20 };
	CHECK_INT(attn_dev_alloc(&a.in, a.n4 * 16, "in"), 0);
	CHECK_INT(attn_dev_alloc(&a.out, a.n4 * 16, "out"), 0);
	cudaMemset(a.in, 1, a.n4 * 16);
	const size_t big = (size_t)16 << 30;
	const double bytes = (double)a.n4 * 16;
	/* cudaFree last: whatever follows it may go on after the call */
	double pooled = writes_after_free(s, &a, big, 1);
	double again = writes_after_free(s, &a, big, 1); /* reused from the pool */
	double plain = writes_after_free(s, &a, big, 0);
	printf("    copy of 1 GiB, DRAM writes after freeing 16 GiB: cudaFree %.0f MB, pool %.0f MB, pool again %.0f MB\n",
	       plain / 1e6, pooled / 1e6, again / 1e6);
	/* up to an L2's worth of writes may still be dirty at the end */
	CHECK(pooled > bytes - 64e6 && pooled < bytes * 1.02);
	CHECK(again > bytes - 64e6 && again < bytes * 1.02);
	attn_dev_free(a.in);
	attn_dev_free(a.out);
	cupti_session_close(s);
}

static void test_gpu_smem_wavefronts_exact(void)
{
	if (!gpu())
		SKIP(skip_reason);
	struct cupti_session *s = open_set("default");
	if (!s)
		SKIP(skip_reason);
	struct smem_arg a = { NULL, 100, 264 };
	CHECK(cudaMalloc((void **)&a.out, 264 * 128 * sizeof(float)) == cudaSuccess);
	struct launch *ls = NULL;
	size_t n = 0;
	CHECK_INT(cupti_profile(s, CUPTI_REPLAY_KERNEL, launch_smem, &a, &ls, &n), 0);
	CHECK_INT(n, 1);
	if (n == 1) {
		print_launches("smem", ls, n);
		double warp_insts = 264.0 * 4 * 100; /* blocks x warps x iterations */
		CHECK_NEAR(metric(&ls[0], M_SMEM_LD_WF), warp_insts, 0.02);
		CHECK_NEAR(metric(&ls[0], M_SMEM_ST_WF), warp_insts, 0.02);
		CHECK(metric(&ls[0], M_SMEM_LD_CONF) < 0.01 * warp_insts);
		CHECK_INT((long long)metric(&ls[0], M_LDSM), 0);
		CHECK_STR(ls[0].occupancy_limiter, "warps");
	}
	cupti_launches_free(ls, n);
	cudaFree(a.out);
	cupti_session_close(s);
}

static void test_gpu_kernel_replay_keeps_inplace_correct(void)
{
	if (!gpu())
		SKIP(skip_reason);
	struct cupti_session *s = open_set("default"); /* 2 passes */
	if (!s)
		SKIP(skip_reason);
	CHECK(cupti_session_passes(s) >= 2);
	struct inc_arg a = { NULL, (size_t)1 << 24 };
	CHECK(cudaMalloc((void **)&a.x, a.n * sizeof(float)) == cudaSuccess);
	cudaMemset(a.x, 0, a.n * sizeof(float));
	struct launch *ls = NULL;
	size_t n = 0;
	CHECK_INT(cupti_profile(s, CUPTI_REPLAY_KERNEL, launch_inc, &a, &ls, &n), 0);
	float h[4] = { 0 };
	cudaMemcpy(h, a.x, sizeof h, cudaMemcpyDeviceToHost);
	float tail = 0;
	cudaMemcpy(&tail, a.x + a.n - 1, sizeof tail, cudaMemcpyDeviceToHost);
	printf("    x after a %d-pass profile of x += 1: %g %g %g %g … %g\n",
	       cupti_session_passes(s), h[0], h[1], h[2], h[3], tail);
	CHECK(h[0] == 1.0f && h[3] == 1.0f && tail == 1.0f);
	cupti_launches_free(ls, n);
	cudaFree(a.x);
	cupti_session_close(s);
}

/* Three kernels, a cuBLAS GEMM among them, in either replay mode: the same
 * launches must come back, mapped in order. */
static void three_kernels(enum cupti_replay replay)
{
	if (!gpu())
		SKIP(skip_reason);
	struct cupti_session *s = open_set("default");
	if (!s)
		SKIP(skip_reason);
	struct mix_arg a;
	memset(&a, 0, sizeof a);
	a.copy.n4 = (size_t)4 << 20;
	a.smem.iters = 10;
	a.smem.blocks = 132;
	a.m = 4096;
	CHECK(cudaMalloc(&a.copy.in, a.copy.n4 * 16) == cudaSuccess);
	CHECK(cudaMalloc(&a.copy.out, a.copy.n4 * 16) == cudaSuccess);
	CHECK(cudaMalloc((void **)&a.smem.out, 132 * 128 * sizeof(float)) == cudaSuccess);
	size_t mat = (size_t)a.m * a.m * 2;
	CHECK(cudaMalloc(&a.A, mat) == cudaSuccess);
	CHECK(cudaMalloc(&a.B, mat) == cudaSuccess);
	CHECK(cudaMalloc(&a.C, mat) == cudaSuccess);
	cudaMemset(a.A, 0x3c, mat);
	cudaMemset(a.B, 0x3c, mat);
	CHECK(cublasCreate(&a.h) == CUBLAS_STATUS_SUCCESS);
	launch_mix(&a); /* warm-up: cuBLAS picks and loads its kernel outside the profile */
	cudaDeviceSynchronize();
	struct launch *ls = NULL;
	size_t n = 0;
	double t0 = now();
	int rc = cupti_profile(s, replay, launch_mix, &a, &ls, &n);
	double t1 = now();
	if (rc)
		printf("    profile: %s\n", error_last());
	CHECK_INT(rc, 0);
	CHECK(n >= 3);
	if (n >= 3) {
		print_launches(cupti_replay_name(replay), ls, n);
		printf("    %s replay: wall %.1f ms for %zu kernels\n", cupti_replay_name(replay), 1e3 * (t1 - t0), n);
		CHECK_INT(n, 3);
		CHECK_STR(ls[0].name, "probe_copy");
		CHECK_STR(ls[n - 1].name, "probe_smem");
		CHECK(strncmp(ls[1].name, "probe_", 6) != 0);
		/* the GEMM reads at least A and B (2 x 32 MiB) and uses the tensor pipe */
		CHECK(metric(&ls[1], M_DRAM_READ) > 0.9 * 2 * (double)mat);
		CHECK(metric(&ls[1], M_TENSOR_ACTIVE) > 1);
		CHECK(ls[1].theoretical_occupancy > 0);
		struct record rec;
		record_init(&rec);
		rec.launches = ls;
		rec.nlaunches = n;
		CHECK_INT(results_sum_launches(&rec), 0);
		double sum = 0;
		for (size_t i = 0; i < n; i++)
			sum += metric(&ls[i], M_DRAM_READ);
		CHECK_NEAR(*record_metric(&rec, M_DRAM_READ), sum, 1e-12);
		rec.launches = NULL;
		rec.nlaunches = 0;
		record_release(&rec);
	}
	cupti_launches_free(ls, n);
	cublasDestroy(a.h);
	cudaFree(a.A); cudaFree(a.B); cudaFree(a.C);
	cudaFree(a.copy.in); cudaFree(a.copy.out); cudaFree(a.smem.out);
	cupti_session_close(s);
}

static void test_gpu_three_kernels_with_cublas(void) { three_kernels(CUPTI_REPLAY_KERNEL); }
static void test_gpu_three_kernels_user_replay(void) { three_kernels(CUPTI_REPLAY_USER); }

/* User replay runs the call once per pass and restores nothing: an in-place
 * kernel adds once per pass.  This is why a variant that writes its inputs
 * is profiled with kernel replay. */
static void test_gpu_user_replay_reruns_the_call(void)
{
	if (!gpu())
		SKIP(skip_reason);
	struct cupti_session *s = open_set("default");
	if (!s)
		SKIP(skip_reason);
	struct inc_arg a = { NULL, (size_t)1 << 22 };
	CHECK(cudaMalloc((void **)&a.x, a.n * sizeof(float)) == cudaSuccess);
	cudaMemset(a.x, 0, a.n * sizeof(float));
	struct launch *ls = NULL;
	size_t n = 0;
	int rc = cupti_profile(s, CUPTI_REPLAY_USER, launch_inc, &a, &ls, &n);
	if (rc)
		printf("    profile: %s\n", error_last());
	CHECK_INT(rc, 0);
	CHECK_INT(n, 1);
	float h = -1;
	cudaMemcpy(&h, a.x, sizeof h, cudaMemcpyDeviceToHost);
	printf("    x after a %d-pass user-replay profile of x += 1: %g\n", cupti_session_passes(s), h);
	CHECK(h == (float)cupti_session_passes(s));
	if (n == 1)
		CHECK(metric(&ls[0], M_L2_BYTES) > 0.9 * 2 * (double)a.n * 4);
	cupti_launches_free(ls, n);
	cudaFree(a.x);
	cupti_session_close(s);
}

static void test_gpu_full_set_instruction_mix(void)
{
	if (!gpu())
		SKIP(skip_reason);
	struct cupti_session *s = open_set("full");
	if (!s)
		SKIP(skip_reason);
	printf("    full set: %d passes\n", cupti_session_passes(s));
	struct smem_arg a = { NULL, 100, 264 };
	CHECK(cudaMalloc((void **)&a.out, 264 * 128 * sizeof(float)) == cudaSuccess);
	struct launch *ls = NULL;
	size_t n = 0;
	double t0 = now();
	int rc = cupti_profile(s, CUPTI_REPLAY_KERNEL, launch_smem, &a, &ls, &n);
	if (rc)
		printf("    profile: %s\n", error_last());
	CHECK_INT(rc, 0);
	if (n == 1) {
		print_launches("full", ls, n);
		printf("    wall %.1f ms, %d passes\n", 1e3 * (now() - t0), cupti_session_passes(s));
		double threads_iters = 264.0 * 128 * 100;
		/* v * 0.5 + x is one FFMA per thread per iteration */
		CHECK(metric(&ls[0], M_FFMA) >= threads_iters);
		CHECK(metric(&ls[0], M_BARRIERS) > 0);
		CHECK(metric(&ls[0], M_TENSOR_INST) == 0);
	}
	cupti_launches_free(ls, n);
	/* what user replay makes of the SASS metrics (why auto takes kernel
	 * replay for this set: metric_needs_kernel_replay) */
	ls = NULL;
	if (!cupti_profile(s, CUPTI_REPLAY_USER, launch_smem, &a, &ls, &n) && n == 1)
		printf("    user replay: FFMA %.0f, barriers %.0f (kernel replay: above)\n", metric(&ls[0], M_FFMA),
		       metric(&ls[0], M_BARRIERS));
	cupti_launches_free(ls, n);
	cudaFree(a.out);
	cupti_session_close(s);
}

static void test_gpu_occupancy_matches_cuda(void)
{
	if (!gpu())
		SKIP(skip_reason);
	struct occupancy_limits lim;
	CHECK_INT(cupti_occupancy_limits(0, &lim), 0);
	printf("    limits: %d threads/SM, %d blocks/SM, %d regs/SM, smem %zu/SM %zu/block reserved %zu\n",
	       lim.max_threads_per_sm, lim.max_blocks_per_sm, lim.regs_per_sm, lim.smem_per_sm,
	       lim.smem_per_block_max, lim.smem_reserved_per_block);
	cudaKernel_t ks[] = { k_copy, k_smem, k_heavy };
	const char *names[] = { "probe_copy", "probe_smem", "probe_heavy" };
	const size_t dyn[] = { 0, 1000, 20000, 50000, 100000, 200000 };
	int checked = 0, mismatched = 0;
	for (int k = 0; k < 3; k++) {
		struct cudaFuncAttributes fa;
		CHECK(cudaFuncGetAttributes(&fa, (const void *)ks[k]) == cudaSuccess);
		cudaFuncSetAttribute((const void *)ks[k], cudaFuncAttributeMaxDynamicSharedMemorySize,
				     (int)(lim.smem_per_block_max - fa.sharedSizeBytes));
		printf("    %s: %d regs, %zu static smem, max %d threads\n", names[k], fa.numRegs,
		       fa.sharedSizeBytes, fa.maxThreadsPerBlock);
		for (int t = 32; t <= fa.maxThreadsPerBlock; t *= 2)
			for (size_t d = 0; d < sizeof dyn / sizeof dyn[0]; d++) {
				if (dyn[d] + fa.sharedSizeBytes > lim.smem_per_block_max)
					continue;
				int cuda = -1;
				if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&cuda, (const void *)ks[k], t, dyn[d]) != cudaSuccess)
					continue;
				struct occupancy o;
				if (occupancy_compute(&lim, t, fa.numRegs, fa.sharedSizeBytes, dyn[d], &o))
					continue;
				checked++;
				if (o.blocks_per_sm != cuda) {
					mismatched++;
					printf("    MISMATCH %s block %d dyn %zu: ours %d (%s), CUDA %d\n", names[k],
					       t, dyn[d], o.blocks_per_sm, occupancy_limiter_name(o.limiter), cuda);
				}
			}
	}
	printf("    occupancy: %d points checked against cudaOccupancyMaxActiveBlocksPerMultiprocessor, %d mismatched\n",
	       checked, mismatched);
	CHECK(checked > 20);
	CHECK_INT(mismatched, 0);
}

/* The same launches as the tests above, unprofiled, for ncu to measure. */
static void test_gpu_probe_only(void)
{
	if (!getenv("PROBE_ONLY"))
		SKIP("skipped: set PROBE_ONLY=1 to launch the probes for ncu");
	unsetenv("PROBE_ONLY");
	if (!gpu())
		SKIP(skip_reason);
	struct mix_arg a;
	memset(&a, 0, sizeof a);
	a.copy.n4 = (size_t)64 << 20;
	a.smem.iters = 100;
	a.smem.blocks = 264;
	a.m = 4096;
	size_t mat = (size_t)a.m * a.m * 2;
	CHECK(cudaMalloc(&a.copy.in, a.copy.n4 * 16) == cudaSuccess);
	CHECK(cudaMalloc(&a.copy.out, a.copy.n4 * 16) == cudaSuccess);
	CHECK(cudaMalloc((void **)&a.smem.out, 264 * 128 * sizeof(float)) == cudaSuccess);
	CHECK(cudaMalloc(&a.A, mat) == cudaSuccess);
	CHECK(cudaMalloc(&a.B, mat) == cudaSuccess);
	CHECK(cudaMalloc(&a.C, mat) == cudaSuccess);
	cudaMemset(a.copy.in, 1, a.copy.n4 * 16);
	cudaMemset(a.A, 0x3c, mat);
	cudaMemset(a.B, 0x3c, mat);
	CHECK(cublasCreate(&a.h) == CUBLAS_STATUS_SUCCESS);
	CHECK_INT(launch_mix(&a), 0);
	CHECK(cudaDeviceSynchronize() == cudaSuccess);
	cublasDestroy(a.h);
	cudaFree(a.A); cudaFree(a.B); cudaFree(a.C);
	cudaFree(a.copy.in); cudaFree(a.copy.out); cudaFree(a.smem.out);
}

struct pair_arg { struct smem_arg smem; struct inc_arg inc; };

static int launch_smem_inc(void *p)
{
	struct pair_arg *a = p;
	return launch_smem(&a->smem) || launch_inc(&a->inc) ? -1 : 0;
}

/* One session, several profiled calls with unprofiled launches in between
 * (as record does: check and timed runs between profiled ones).  The range
 * profiler stays enabled across calls: every call must get its own ranges
 * (auto ranges go on counting), exact counts, and kernel replay must still
 * restore memory (x += 1 seen once per kernel-replay launch, once per pass
 * with user replay). */
static void test_gpu_session_reuse(void)
{
	if (!gpu())
		SKIP(skip_reason);
	struct cupti_session *s = open_set("default");
	if (!s)
		SKIP(skip_reason);
	struct pair_arg a = { { NULL, 100, 264 }, { NULL, (size_t)1 << 22 } };
	CHECK(cudaMalloc((void **)&a.smem.out, 264 * 128 * sizeof(float)) == cudaSuccess);
	CHECK(cudaMalloc((void **)&a.inc.x, a.inc.n * sizeof(float)) == cudaSuccess);
	cudaMemset(a.inc.x, 0, a.inc.n * sizeof(float));
	double warp_insts = 264.0 * 4 * 100;
	int incs = 0;
	for (int call = 0; call < 6; call++) {
		struct launch *ls = NULL;
		size_t n = 0;
		int two = call % 2 == 1;
		/* calls 2 and 3 with user replay: modes mix in one session, as under replay: auto */
		enum cupti_replay rp = call / 2 == 1 ? CUPTI_REPLAY_USER : CUPTI_REPLAY_KERNEL;
		double t0 = now();
		int rc = cupti_profile(s, rp, two ? launch_smem_inc : launch_inc, two ? (void *)&a : (void *)&a.inc,
				       &ls, &n);
		if (rc)
			printf("    call %d: %s\n", call, error_last());
		CHECK_INT(rc, 0);
		CHECK_INT(n, two ? 2 : 1);
		incs += rp == CUPTI_REPLAY_USER ? cupti_session_passes(s) : 1;
		if (rc == 0 && n == (two ? 2u : 1u)) {
			printf("    call %d: %zu kernel%s, %s replay, wall %.1f ms\n", call, n, n == 1 ? "" : "s",
			       cupti_replay_name(rp), 1e3 * (now() - t0));
			CHECK_STR(ls[n - 1].name, "probe_inc");
			/* reads and writes x through L2 (x may sit in L2: no HBM check) */
			CHECK(metric(&ls[n - 1], M_L2_BYTES) > 0.9 * 2 * (double)a.inc.n * 4);
			if (two) {
				CHECK_STR(ls[0].name, "probe_smem");
				CHECK_NEAR(metric(&ls[0], M_SMEM_LD_WF), warp_insts, 0.001);
				CHECK_NEAR(metric(&ls[0], M_SMEM_ST_WF), warp_insts, 0.001);
			}
		}
		cupti_launches_free(ls, n);
		/* unprofiled launches between profiled calls, as record's timed runs */
		for (int i = 0; i < 3; i++, incs++)
			CHECK_INT(launch_inc(&a.inc), 0);
		CHECK(cudaDeviceSynchronize() == cudaSuccess);
	}
	float h = -1, tail = -1;
	cudaMemcpy(&h, a.inc.x, sizeof h, cudaMemcpyDeviceToHost);
	cudaMemcpy(&tail, a.inc.x + a.inc.n - 1, sizeof tail, cudaMemcpyDeviceToHost);
	printf("    x after %d launches of x += 1 (6 calls profiled, %d passes): %g … %g\n", incs,
	       cupti_session_passes(s), h, tail);
	CHECK(h == (float)incs && tail == (float)incs);
	cudaFree(a.smem.out);
	cudaFree(a.inc.x);
	cupti_session_close(s);
}

TESTS(test_gpu_probe_only, test_gpu_counters_readable, test_gpu_copy_bytes, test_gpu_freed_memory_is_quiet,
      test_gpu_smem_wavefronts_exact,
      test_gpu_kernel_replay_keeps_inplace_correct, test_gpu_three_kernels_with_cublas,
      test_gpu_three_kernels_user_replay, test_gpu_user_replay_reruns_the_call,
      test_gpu_full_set_instruction_mix, test_gpu_occupancy_matches_cuda, test_gpu_session_reuse)
#else
static void test_gpu_capture(void)
{
	SKIP("skipped: built without the GPU half");
}
TESTS(test_gpu_capture)
#endif
