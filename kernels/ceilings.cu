// ceilings.cu: the roofline's ceilings that no library call gives, measured
// by three microbenchmarks (attn.h, attn_measure_ceilings).
//
//   mma.sync  the dense fp16 rate of the instruction flash1 and flash2 use:
//             mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 from
//             registers, CEIL_MMA_CHAINS independent accumulators a warp,
//             CEIL_BLOCKS_PER_SM blocks of 8 warps on every SM; FLOPs counted
//             (2·16·8·16 an instruction) over event time.  Nothing is loaded:
//             the tensor pipes are the only limit.  (cuBLAS's GEMM rate,
//             gpu.tensor_tflops, is the wgmma ceiling: its Hopper kernels
//             are wgmma kernels, docs/kernels.md.)
//   L2        16-byte ld.global.cg (L2 only, no L1) of a buffer of 1/4 to
//             5/8 of the L2, every element once a pass, CEIL_L2_PASSES
//             passes after a warm-up pass that makes it resident; 4 to 16
//             loads in flight a thread, 2 to 8 blocks an SM (those whose
//             loads fit the share); the best configuration's rate.
//   shared    16-byte ld.shared on every SM, a warp's 32 loads on 512
//             consecutive bytes (4 wavefronts, no bank conflict).
//   HBM read  the L2 kernel once over a buffer of CEIL_READ_L2S times the
//             L2 (every element once a launch, nothing written back): the
//             roof of a kernel that only reads, as decode does; the copy
//             (runtime.cu) counts read + written bytes and turns the bus
//             around.  The best of the L2's configurations.
//
// Each is checked: A = B = 1 makes every accumulator 16·iterations exactly
// (fp32 holds it), and the L2 and shared-memory kernels add up the words they
// read (every word is 1) into a count the host knows beforehand, so a kernel
// the compiler or a bug cut short fails instead of reporting a fast rate.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <stdio.h>
#include <string.h>
#include <vector>

#include "attn.h"
#include "common.cuh"

enum {
	CEIL_THREADS = 256,     // 8 warps a block
	CEIL_BLOCKS_PER_SM = 4, // 32 warps an SM: 8 a scheduler
	CEIL_MMA_CHAINS = 8,    // independent accumulators a warp (latency hidden 8×)
	CEIL_MMA_ITERS = 8192,  // ≈ 2 ms at mma.sync's rate on an H200
	CEIL_L2_PASSES = 40,
	CEIL_SMEM_WORDS = 1024, // uint4 a block: 16 KiB
	CEIL_SMEM_ITERS = 16384,
	CEIL_WARMUP = 3,
	CEIL_READ_L2S = 32, // the HBM-read buffer: 32 L2s, so a launch's reads are ≥ 97 % misses
};

// ---- kernels ----------------------------------------------------------------

// Loads neither nvcc nor ptxas may merge or drop: the smem pattern repeats
// every CEIL_SMEM_WORDS / CEIL_THREADS iterations and the L2 one every pass,
// and a plain load would be reused from a register there.
__device__ __forceinline__ uint4 ld_cg(const uint4 *p)
{
	uint4 v;
	asm volatile("ld.global.cg.v4.u32 {%0,%1,%2,%3}, [%4];" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
	return v;
}
__device__ __forceinline__ uint4 ld_shared(uint32_t addr)
{
	uint4 v;
	// .volatile: ptxas merges plain ld.shared of an address it has loaded
	// (asm volatile binds only nvcc), and the pattern repeats every 4
	// iterations: 107840 GB/s against a bound of 33454 (H200 2026-12-02)
	asm volatile("ld.volatile.shared.v4.u32 {%0,%1,%2,%3}, [%4];" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "r"(addr));
	return v;
}

__global__ void __launch_bounds__(CEIL_THREADS, CEIL_BLOCKS_PER_SM)
	attnprof_ceil_mma_sync(uint32_t one2, int iters, float expect, unsigned *bad)
{
	const uint32_t a[4] = { one2, one2, one2, one2 };
	float c[CEIL_MMA_CHAINS][4];
#pragma unroll
	for (int k = 0; k < CEIL_MMA_CHAINS; k++)
		c[k][0] = c[k][1] = c[k][2] = c[k][3] = 0.f;
	for (int i = 0; i < iters; i++) {
#pragma unroll
		for (int k = 0; k < CEIL_MMA_CHAINS; k++)
			mma16816<__half>(c[k], a, one2, one2);
	}
	unsigned wrong = 0;
#pragma unroll
	for (int k = 0; k < CEIL_MMA_CHAINS; k++)
		wrong += (c[k][0] != expect) + (c[k][1] != expect) + (c[k][2] != expect) + (c[k][3] != expect);
	if (wrong)
		atomicAdd(bad, wrong);
}

// Thread t reads elements t + (r·U + u)·T of the buffer (T the grid's
// threads, u < U, r < rows) each pass: the buffer is exactly rows·U·T
// elements.  One pass over a buffer far larger than the L2 is the HBM-read
// stream.  The U loads of a row are issued before any is used, so each
// thread has U 16-byte loads in flight (the 15:25 probe: one or four loads
// a thread left the L2 kernel latency-bound, under the HBM copy's rate).
template <int U>
__global__ void __launch_bounds__(CEIL_THREADS)
	attnprof_ceil_l2(const uint4 *__restrict__ buf, int rows, int passes, unsigned long long *sum)
{
	const size_t T = (size_t)gridDim.x * blockDim.x;
	const size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
	unsigned acc = 0;
	for (int p = 0; p < passes; p++) {
		for (int r = 0; r < rows; r++) {
			uint4 v[U];
#pragma unroll
			for (int u = 0; u < U; u++)
				v[u] = ld_cg(buf + t + ((size_t)r * U + u) * T);
#pragma unroll
			for (int u = 0; u < U; u++)
				acc += v[u].x + v[u].y + v[u].z + v[u].w;
		}
	}
	atomicAdd(sum, (unsigned long long)acc);
}

__global__ void __launch_bounds__(CEIL_THREADS)
	attnprof_ceil_smem(unsigned one, int iters, unsigned long long *sum)
{
	__shared__ uint4 s[CEIL_SMEM_WORDS];
	for (int j = threadIdx.x; j < CEIL_SMEM_WORDS; j += blockDim.x)
		s[j] = make_uint4(one, one, one, one);
	__syncthreads();
	const uint32_t base = smem_u32(s);
	unsigned acc = 0;
#pragma unroll 8
	for (int i = 0; i < iters; i++) {
		// a warp: 32 consecutive uint4 = 512 B, 4 wavefronts, no conflict
		const uint4 v = ld_shared(base + 16 * ((threadIdx.x + i * CEIL_THREADS) & (CEIL_SMEM_WORDS - 1)));
		acc += v.x + v.y + v.z + v.w;
	}
	atomicAdd(sum, (unsigned long long)acc);
}

__global__ void attnprof_ceil_fill(unsigned *p, size_t n, unsigned v)
{
	for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
		p[i] = v;
}

// ---- timing -----------------------------------------------------------------

// Median of `reps` event-timed launches of `launch` after CEIL_WARMUP untimed
// ones; 0, or -1 with the reason set.
template <typename F> static int time_median(F launch, int reps, const char *what, float *ms)
{
	cudaEvent_t e0 = nullptr, e1 = nullptr;
	std::vector<float> t;
	cudaError_t e = cudaEventCreate(&e0);
	if (e == cudaSuccess)
		e = cudaEventCreate(&e1);
	for (int i = 0; e == cudaSuccess && i < CEIL_WARMUP + reps; i++) {
		float x = 0;
		if ((e = cudaEventRecord(e0)) != cudaSuccess || (e = launch()) != cudaSuccess ||
		    (e = cudaEventRecord(e1)) != cudaSuccess || (e = cudaEventSynchronize(e1)) != cudaSuccess ||
		    (e = cudaEventElapsedTime(&x, e0, e1)) != cudaSuccess)
			break;
		if (i >= CEIL_WARMUP)
			t.push_back(x);
	}
	if (e0) cudaEventDestroy(e0);
	if (e1) cudaEventDestroy(e1);
	if (e != cudaSuccess)
		return attn_cuda_fail(e, what);
	std::sort(t.begin(), t.end());
	*ms = t[t.size() / 2];
	return 0;
}

static int sm_count(int *n)
{
	int dev = 0;
	cudaError_t e = cudaGetDevice(&dev);
	if (e == cudaSuccess)
		e = cudaDeviceGetAttribute(n, cudaDevAttrMultiProcessorCount, dev);
	return e == cudaSuccess ? 0 : attn_cuda_fail(e, "reading the SM count");
}

// ---- the three measurements ---------------------------------------------------

extern "C" int attn_measure_mma_sync(int reps, double *tflops)
{
	int sms = 0;
	if (reps < 1)
		return attn_fail("attn_measure_mma_sync: need reps >= 1");
	if (sm_count(&sms))
		return -1;
	unsigned *bad = nullptr;
	if (attn_dev_alloc((void **)&bad, sizeof *bad, "the mma.sync check counter"))
		return -1;
	const int blocks = sms * CEIL_BLOCKS_PER_SM, iters = CEIL_MMA_ITERS;
	const uint32_t one2 = 0x3c003c00u; // two fp16 ones
	const float expect = 16.0f * iters; // k = 16 products of 1·1 an instruction, exact in fp32
	float ms = 0;
	int rc = cudaMemset(bad, 0, sizeof *bad) != cudaSuccess ? attn_cuda_fail(cudaGetLastError(), "clearing a counter")
		 : time_median([&] {
			   attnprof_ceil_mma_sync<<<blocks, CEIL_THREADS>>>(one2, iters, expect, bad);
			   return cudaGetLastError();
		   }, reps, "timing the mma.sync kernel", &ms);
	unsigned wrong = 0;
	if (!rc && cudaMemcpy(&wrong, bad, sizeof wrong, cudaMemcpyDeviceToHost) != cudaSuccess)
		rc = attn_cuda_fail(cudaGetLastError(), "reading the mma.sync check");
	attn_dev_free(bad);
	if (rc)
		return -1;
	if (wrong)
		return attn_fail("the mma.sync kernel computed %u accumulators different from %.0f: its rate is not reported",
				 wrong, (double)expect);
	const double flops = (double)blocks * (CEIL_THREADS / 32) * CEIL_MMA_CHAINS * iters * (2.0 * 16 * 8 * 16);
	*tflops = flops / (ms * 1e-3) / 1e12;
	return 0;
}

// One configuration of the read kernel over `cap` bytes of `buf` (filled
// with ones): `bps` blocks an SM, U loads in flight a thread, `passes`
// passes; its rate checked by the words it read.  0, 1 when one row of the
// grid's U loads a thread is larger than `cap`, or -1 with the reason set.
template <int U>
static int read_config(const uint4 *buf, uint64_t cap, int sms, int bps, int passes, int reps, unsigned long long *sum,
		       double *gbs, uint64_t *bytes)
{
	const int blocks = sms * bps;
	const size_t T = (size_t)blocks * CEIL_THREADS;
	const size_t rows = cap / 16 / (T * U); // whole rows of U·T elements
	if (rows < 1)
		return 1; // the grid's loads alone would overflow the share: no such configuration
	const size_t n16 = rows * U * T;
	float ms = 0;
	int rc = cudaMemset(sum, 0, sizeof *sum) != cudaSuccess ? attn_cuda_fail(cudaGetLastError(), "clearing a check sum")
		 : time_median([&] {
			   attnprof_ceil_l2<U><<<blocks, CEIL_THREADS>>>(buf, (int)rows, passes, sum);
			   return cudaGetLastError();
		   }, reps, "timing the read kernel", &ms);
	unsigned long long got = 0;
	if (!rc && cudaMemcpy(&got, sum, sizeof got, cudaMemcpyDeviceToHost) != cudaSuccess)
		rc = attn_cuda_fail(cudaGetLastError(), "reading the read kernel's check sum");
	if (rc)
		return -1;
	// every launch reads every word (each 1) `passes` times
	const unsigned long long want = (unsigned long long)(CEIL_WARMUP + reps) * passes * n16 * 4;
	if (got != want)
		return attn_fail("the read kernel read %llu words where %llu were due: its rate is not reported", got, want);
	*gbs = (double)n16 * 16 * passes / (ms * 1e-3) / 1e9;
	*bytes = n16 * 16;
	return 0;
}

// A buffer of `bytes` filled with ones and a check sum, for read_config.
static int read_buffers(uint64_t bytes, int sms, uint4 **buf, unsigned long long **sum)
{
	*buf = nullptr;
	*sum = nullptr;
	if (attn_dev_alloc((void **)buf, bytes, "the read-bandwidth buffer"))
		return -1;
	if (attn_dev_alloc((void **)sum, sizeof **sum, "the read check sum")) {
		attn_dev_free(*buf);
		return -1;
	}
	attnprof_ceil_fill<<<sms * 4, CEIL_THREADS>>>((unsigned *)*buf, bytes / 4, 1u);
	cudaError_t e = cudaGetLastError();
	if (e == cudaSuccess)
		e = cudaDeviceSynchronize();
	if (e != cudaSuccess) {
		attn_dev_free(*buf);
		attn_dev_free(*sum);
		return attn_cuda_fail(e, "filling the read-bandwidth buffer");
	}
	return 0;
}

// The best configuration (blocks an SM, loads in flight) of `passes` over
// `cap` bytes of buf into *r; -1 when any configuration's count is wrong.
static int read_best(const uint4 *buf, uint64_t cap, int sms, int passes, int reps, unsigned long long *sum,
		     struct attn_read_rate *r)
{
	static const int bps[] = { 2, 4, 8 };
	for (int b : bps)
		for (int u : { 4, 8, 16 }) {
			double gbs = 0;
			uint64_t bytes = 0;
			const int bad = u == 4 ? read_config<4>(buf, cap, sms, b, passes, reps, sum, &gbs, &bytes)
				      : u == 8 ? read_config<8>(buf, cap, sms, b, passes, reps, sum, &gbs, &bytes)
					       : read_config<16>(buf, cap, sms, b, passes, reps, sum, &gbs, &bytes);
			if (bad < 0)
				return -1; // a wrong count in any configuration: no rate at all
			if (bad)
				continue;
			r->configs++;
			if (gbs > r->gbs)
				*r = (struct attn_read_rate){ gbs, bytes, b, u, r->configs };
		}
	return 0;
}

static int l2_size(int *l2)
{
	int dev = 0;
	if (cudaGetDevice(&dev) != cudaSuccess || cudaDeviceGetAttribute(l2, cudaDevAttrL2CacheSize, dev) != cudaSuccess)
		return attn_cuda_fail(cudaGetLastError(), "reading the L2 size");
	return 0;
}

// A ceiling is the best rate the hardware gives, so the L2's is the best of
// a few configurations (the buffer's share of the L2, blocks an SM, loads in
// flight): which one wins is the card's, and the result names it.
extern "C" int attn_measure_l2(int reps, struct attn_read_rate *r)
{
	static const int eighths[] = { 2, 3, 4, 5 };
	int sms = 0, l2 = 0;
	memset(r, 0, sizeof *r);
	if (reps < 1)
		return attn_fail("attn_measure_l2: need reps >= 1");
	if (sm_count(&sms) || l2_size(&l2))
		return -1;
	uint4 *buf = nullptr;
	unsigned long long *sum = nullptr;
	if (read_buffers((uint64_t)l2 * 5 / 8, sms, &buf, &sum))
		return -1;
	int rc = 0;
	// the buffer's share of the L2: each share's best, the best of all kept
	for (int e : eighths) {
		struct attn_read_rate one = { 0 };
		if ((rc = read_best(buf, (uint64_t)l2 * e / 8, sms, CEIL_L2_PASSES, reps, sum, &one)))
			break;
		const int configs = r->configs + one.configs;
		if (one.gbs > r->gbs)
			*r = one;
		r->configs = configs;
	}
	attn_dev_free(buf);
	attn_dev_free(sum);
	return rc;
}

extern "C" int attn_measure_hbm_read(int reps, struct attn_read_rate *r)
{
	int sms = 0, l2 = 0;
	memset(r, 0, sizeof *r);
	if (reps < 1)
		return attn_fail("attn_measure_hbm_read: need reps >= 1");
	if (sm_count(&sms) || l2_size(&l2))
		return -1;
	const uint64_t bytes = (uint64_t)l2 * CEIL_READ_L2S;
	uint4 *buf = nullptr;
	unsigned long long *sum = nullptr;
	if (read_buffers(bytes, sms, &buf, &sum))
		return -1;
	const int rc = read_best(buf, bytes, sms, 1, reps, sum, r);
	attn_dev_free(buf);
	attn_dev_free(sum);
	return rc;
}

extern "C" int attn_measure_smem(int reps, double *gbs)
{
	int sms = 0;
	if (reps < 1)
		return attn_fail("attn_measure_smem: need reps >= 1");
	if (sm_count(&sms))
		return -1;
	const int blocks = sms * CEIL_BLOCKS_PER_SM, iters = CEIL_SMEM_ITERS;
	unsigned long long *sum = nullptr;
	if (attn_dev_alloc((void **)&sum, sizeof *sum, "the shared-memory check sum"))
		return -1;
	float ms = 0;
	int rc = cudaMemset(sum, 0, sizeof *sum) != cudaSuccess ? attn_cuda_fail(cudaGetLastError(), "clearing a sum")
		 : time_median([&] {
			   attnprof_ceil_smem<<<blocks, CEIL_THREADS>>>(1u, iters, sum);
			   return cudaGetLastError();
		   }, reps, "timing the shared-memory kernel", &ms);
	unsigned long long got = 0;
	if (!rc && cudaMemcpy(&got, sum, sizeof got, cudaMemcpyDeviceToHost) != cudaSuccess)
		rc = attn_cuda_fail(cudaGetLastError(), "reading the shared-memory check sum");
	attn_dev_free(sum);
	if (rc)
		return -1;
	const unsigned long long threads = (unsigned long long)blocks * CEIL_THREADS;
	const unsigned long long want = (unsigned long long)(CEIL_WARMUP + reps) * threads * iters * 4;
	if (got != want)
		return attn_fail("the shared-memory kernel read %llu words where %llu were due: its rate is not reported",
				 got, want);
	*gbs = (double)threads * iters * 16 / (ms * 1e-3) / 1e9;
	return 0;
}

extern "C" void attn_ceilings_method(char *buf, size_t len, const struct attn_read_rate *l2,
				     const struct attn_read_rate *rd, int reps)
{
	int n = snprintf(buf, len,
		 "kernels/ceilings.cu, every SM %d blocks of %d threads; mma.sync.m16n8k16 f16->f32 from registers, "
		 "%d independent accumulators a warp, FLOPs counted; L2: 16-byte ld.global.cg, the best of %d "
		 "configurations: %.1f MiB, %d blocks an SM, %d loads in flight a thread, %d passes; "
		 "shared: 16-byte ld.volatile.shared, conflict-free; each the median of %d launches after %d, CUDA events, checked",
		 CEIL_BLOCKS_PER_SM, CEIL_THREADS, CEIL_MMA_CHAINS, l2->configs, l2->buf_bytes / 1048576.0,
		 l2->blocks_per_sm, l2->loads, CEIL_L2_PASSES, reps, CEIL_WARMUP);
	if (rd && rd->configs && n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - n,
			 "; HBM read: the L2 kernel once over %.0f MiB (%d L2s), the best of %d configurations: "
			 "%d blocks an SM, %d loads in flight a thread",
			 rd->buf_bytes / 1048576.0, CEIL_READ_L2S, rd->configs, rd->blocks_per_sm, rd->loads);
}
