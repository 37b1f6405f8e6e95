// runtime.cu: the C interface of attn.h — device facts, the named
// allocations of a variant's descriptor, poisoning, launches and timing.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vector>

#include "attn.h"
#include "paged.h"
#include "common.cuh"
#include "hopper/hopper_attn.h"
#include "hopper/hopper_bwd.h"

// ---- errors ---------------------------------------------------------------

static thread_local char last_error[512];

// the reason, for every .cu file (common.cuh)
int attn_fail(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(last_error, sizeof last_error, fmt, ap);
	va_end(ap);
	return -1;
}
#define fail attn_fail

// "what failed: cuda error string", keeping the CUDA error sticky-free.
static int cuda_fail(cudaError_t e, const char *what)
{
	return fail("%s: %s (%s)", what, cudaGetErrorString(e), cudaGetErrorName(e));
}
#define CUDA_TRY(call, what) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) return cuda_fail(e_, what); } while (0)

int attn_cuda_fail(cudaError_t e, const char *what) { return cuda_fail(e, what); }

static const char *cublas_name(cublasStatus_t s)
{
	switch (s) {
	case CUBLAS_STATUS_SUCCESS: return "CUBLAS_STATUS_SUCCESS";
	case CUBLAS_STATUS_NOT_INITIALIZED: return "CUBLAS_STATUS_NOT_INITIALIZED";
	case CUBLAS_STATUS_ALLOC_FAILED: return "CUBLAS_STATUS_ALLOC_FAILED";
	case CUBLAS_STATUS_INVALID_VALUE: return "CUBLAS_STATUS_INVALID_VALUE";
	case CUBLAS_STATUS_ARCH_MISMATCH: return "CUBLAS_STATUS_ARCH_MISMATCH";
	case CUBLAS_STATUS_EXECUTION_FAILED: return "CUBLAS_STATUS_EXECUTION_FAILED";
	case CUBLAS_STATUS_NOT_SUPPORTED: return "CUBLAS_STATUS_NOT_SUPPORTED";
	default: return "cuBLAS error";
	}
}

extern "C" const char *attn_last_error(void) { return last_error; }

// ---- device memory ------------------------------------------------------------

// Every buffer comes from the device's default memory pool with a release
// threshold of "everything": memory a run frees stays with the process and
// the next run reuses it.  Memory handed back with cudaFree is not idle
// afterwards: on the H200 the next few milliseconds of kernels showed up to
// GBs of DRAM writes that were not theirs in the (device-wide) counters, and
// short memory-bound kernels timed slower (docs/metrics.md, "Freed memory").
static cudaMemPool_t pool;

extern "C" int attn_dev_alloc(void **p, uint64_t bytes, const char *what)
{
	*p = nullptr;
	if (!pool) {
		int dev = 0;
		cudaMemPool_t mp = nullptr;
		uint64_t keep = UINT64_MAX;
		CUDA_TRY(cudaGetDevice(&dev), "finding the device");
		CUDA_TRY(cudaDeviceGetDefaultMemPool(&mp, dev), "getting the device's memory pool");
		CUDA_TRY(cudaMemPoolSetAttribute(mp, cudaMemPoolAttrReleaseThreshold, &keep),
			 "keeping freed memory in the pool");
		pool = mp;
	}
	cudaError_t e = cudaMallocFromPoolAsync(p, bytes ? bytes : 1, pool, 0);
	if (e == cudaSuccess)
		e = cudaStreamSynchronize(0); // usable from any stream from here on
	if (e != cudaSuccess) {
		*p = nullptr;
		char buf[200];
		snprintf(buf, sizeof buf, "allocating %s (%llu bytes)", what, (unsigned long long)bytes);
		return cuda_fail(e, buf);
	}
	return 0;
}

extern "C" void attn_dev_free(void *p)
{
	if (!p)
		return;
	cudaFreeAsync(p, 0);
	cudaStreamSynchronize(0);
}

// ---- device -----------------------------------------------------------------

extern "C" int attn_device_count(void)
{
	int n = 0;
	if (cudaGetDeviceCount(&n) != cudaSuccess) {
		cudaGetLastError(); // no driver / no device: not an error here
		return 0;
	}
	return n;
}

// record --device I: every later call (buffers, kernels, CUPTI's session)
// works on the current device, which this sets before any of them.
extern "C" int attn_device_select(int device)
{
	int n = attn_device_count();
	if (device < 0 || device >= n) {
		char buf[200];
		snprintf(buf, sizeof buf, "device %d is not visible: %d device%s (0 to %d; CUDA_VISIBLE_DEVICES renumbers them)",
			 device, n, n == 1 ? "" : "s", n - 1);
		return cuda_fail(cudaErrorInvalidDevice, buf);
	}
	CUDA_TRY(cudaSetDevice(device), "selecting the device");
	return 0;
}

extern "C" int attn_device_info(struct attn_device *d)
{
	memset(d, 0, sizeof *d);
	int dev = 0;
	CUDA_TRY(cudaGetDevice(&dev), "finding the current device");
	cudaDeviceProp p;
	CUDA_TRY(cudaGetDeviceProperties(&p, dev), "reading the device's properties");
	snprintf(d->name, sizeof d->name, "%s", p.name);
	d->hw.cc_major = p.major;
	d->hw.cc_minor = p.minor;
	d->hw.sm_count = p.multiProcessorCount;
	d->hw.l2_bytes = (uint64_t)p.l2CacheSize;
	d->hw.hbm_bytes = (uint64_t)p.totalGlobalMem;
	d->hw.mem_bus_bits = p.memoryBusWidth;
	d->smem_per_block_optin = p.sharedMemPerBlockOptin;
	d->hw.smem_per_sm = p.sharedMemPerMultiprocessor;
	int khz = 0;
	CUDA_TRY(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, dev), "reading the SM clock");
	d->hw.sm_clock_mhz = khz / 1000;
	CUDA_TRY(cudaDeviceGetAttribute(&khz, cudaDevAttrMemoryClockRate, dev), "reading the memory clock");
	d->hw.mem_clock_mhz = khz / 1000;
	CUDA_TRY(cudaDriverGetVersion(&d->driver_version), "reading the driver version");
	CUDA_TRY(cudaRuntimeGetVersion(&d->runtime_version), "reading the runtime version");
	return 0;
}

extern "C" int attn_measure_copy(size_t bytes, int reps, double *gbs)
{
	if (bytes == 0 || reps < 1)
		return fail("attn_measure_copy: need bytes > 0 and reps >= 1");
	void *a = nullptr, *b = nullptr;
	cudaEvent_t e0 = nullptr, e1 = nullptr;
	std::vector<float> ms;
	int rc = -1;
	cudaError_t e;
	if (attn_dev_alloc(&a, bytes, "a copy-bandwidth buffer") || attn_dev_alloc(&b, bytes, "a copy-bandwidth buffer"))
		goto out;
	if ((e = cudaEventCreate(&e0)) != cudaSuccess || (e = cudaEventCreate(&e1)) != cudaSuccess) {
		cuda_fail(e, "creating events");
		goto out;
	}
	if ((e = cudaMemset(a, 0x3c, bytes)) != cudaSuccess ||
	    (e = cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice)) != cudaSuccess) { // warm-up
		cuda_fail(e, "warm-up copy");
		goto out;
	}
	for (int i = 0; i < reps; i++) {
		float t = 0;
		cudaEventRecord(e0);
		cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice);
		cudaEventRecord(e1);
		if ((e = cudaEventSynchronize(e1)) != cudaSuccess || (e = cudaEventElapsedTime(&t, e0, e1)) != cudaSuccess) {
			cuda_fail(e, "timing a device-to-device copy");
			goto out;
		}
		ms.push_back(t);
	}
	std::sort(ms.begin(), ms.end());
	*gbs = 2.0 * (double)bytes / (ms[ms.size() / 2] * 1e-3) / 1e9;
	rc = 0;
out:
	if (e0) cudaEventDestroy(e0);
	if (e1) cudaEventDestroy(e1);
	attn_dev_free(a);
	attn_dev_free(b);
	return rc;
}

// A dense fp16 GEMM by cuBLAS, as PyTorch's matmul calls it (fp16 in and
// out, fp32 accumulation): the tensor rate the library reaches, which on
// Hopper is the wgmma path (docs/kernels.md has the SASS check).
extern "C" int attn_measure_gemm(int size, int reps, double *tflops)
{
	if (size < 256 || reps < 1)
		return fail("attn_measure_gemm: need size >= 256 and reps >= 1");
	const size_t n = (size_t)size * size;
	void *a = nullptr, *b = nullptr, *c = nullptr;
	cublasHandle_t h = nullptr;
	cudaEvent_t e0 = nullptr, e1 = nullptr;
	std::vector<float> ms;
	int rc = -1;
	cudaError_t e = cudaSuccess;
	cublasStatus_t st;
	const float one = 1.f, zero = 0.f;
	if (attn_dev_alloc(&a, n * 2, "a GEMM operand") || attn_dev_alloc(&b, n * 2, "a GEMM operand") ||
	    attn_dev_alloc(&c, n * 2, "a GEMM result"))
		goto out;
	// the attention inputs' values (in [-1, 1)): zeros would draw less power and clock higher
	if (attn_fill_input(a, n, DTYPE_FP16, 1, 0) || attn_fill_input(b, n, DTYPE_FP16, 1, 1))
		goto out;
	if ((e = cudaEventCreate(&e0)) != cudaSuccess || (e = cudaEventCreate(&e1)) != cudaSuccess) {
		cuda_fail(e, "preparing the GEMM");
		goto out;
	}
	if ((st = cublasCreate(&h)) != CUBLAS_STATUS_SUCCESS) {
		fail("cublasCreate: %s", cublas_name(st));
		goto out;
	}
	for (int i = 0; i < 3 + reps; i++) { // 3 untimed
		float t = 0;
		cudaEventRecord(e0);
		st = cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, size, size, size, &one, a, CUDA_R_16F, size, b, CUDA_R_16F,
				  size, &zero, c, CUDA_R_16F, size, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
		cudaEventRecord(e1);
		if (st != CUBLAS_STATUS_SUCCESS) {
			fail("cublasGemmEx (fp16, %d^3): %s", size, cublas_name(st));
			goto out;
		}
		if ((e = cudaEventSynchronize(e1)) != cudaSuccess || (e = cudaEventElapsedTime(&t, e0, e1)) != cudaSuccess) {
			cuda_fail(e, "timing a GEMM");
			goto out;
		}
		if (i >= 3)
			ms.push_back(t);
	}
	std::sort(ms.begin(), ms.end());
	*tflops = 2.0 * size * (double)size * size / (ms[ms.size() / 2] * 1e-3) / 1e12;
	rc = 0;
out:
	if (h) cublasDestroy(h);
	if (e0) cudaEventDestroy(e0);
	if (e1) cudaEventDestroy(e1);
	attn_dev_free(a);
	attn_dev_free(b);
	attn_dev_free(c);
	return rc;
}

// ---- runs -------------------------------------------------------------------

struct attn_run {
	const struct variant_desc *v;  // the forward's descriptor
	const struct variant_desc *pd; // the descriptor of the run's pass (buffers)
	int prepared;                  // bwd: the forward's products are there
	struct attn_shape s;
	struct tiling t;
	struct attn_alloc allocs[MAX_BUFFERS + 1];
	void *ptrs[MAX_BUFFERS + 1];
	size_t nallocs;
	cudaStream_t stream;
	cublasHandle_t cublas;
	std::vector<cudaEvent_t> events;
	unsigned long long *probe = nullptr; // 2 per timed launch: SM cycles, ns (kernels/clock.cu)
	int probe_slots = 0;
	struct l2_flush flush; // buf set: flush the L2 before each kernel (shared_flush)
	bool kv_pages_set = false; // a paged run: attn_run_set_kv_pages validated and copied its table
};

static void *buf(const struct attn_run *r, const char *name)
{
	for (size_t i = 0; i < r->nallocs; i++)
		if (!strcmp(r->allocs[i].name, name))
			return r->ptrs[i];
	return nullptr;
}

static uint64_t buf_bytes(const struct attn_run *r, const char *name)
{
	for (size_t i = 0; i < r->nallocs; i++)
		if (!strcmp(r->allocs[i].name, name))
			return r->allocs[i].bytes;
	return 0;
}

static int add_alloc(struct attn_run *r, const char *name, uint64_t bytes)
{
	void *p = nullptr;
	char what[160];
	snprintf(what, sizeof what, "%s of %s", name, r->v->name);
	if (attn_dev_alloc(&p, bytes, what))
		return -1;
	r->allocs[r->nallocs].name = name;
	r->allocs[r->nallocs].bytes = bytes;
	r->ptrs[r->nallocs] = p;
	r->nallocs++;
	return 0;
}

extern "C" void attn_run_destroy(struct attn_run *r)
{
	if (!r)
		return;
	if (r->stream)
		cudaStreamSynchronize(r->stream);
	for (cudaEvent_t e : r->events)
		cudaEventDestroy(e);
	if (r->probe)
		cudaFree(r->probe);
	if (r->cublas)
		cublasDestroy(r->cublas);
	for (size_t i = 0; i < r->nallocs; i++)
		attn_dev_free(r->ptrs[i]);
	if (r->stream)
		cudaStreamDestroy(r->stream);
	delete r;
}

static bool needs_cublas(const struct variant_desc *d)
{
	return d && (d->family == FAMILY_STANDARD || d->family == FAMILY_STANDARD_BWD);
}

extern "C" int attn_run_create(struct attn_run **out, const struct variant_desc *v,
			       const struct attn_shape *s, int sm_count)
{
	*out = nullptr;
	if (!v || !s)
		return fail("attn_run_create: no variant or shape");
	if (!variant_supports_head_dim(v, s->head_dim)) { /* the descriptor's trait is the one list */
		char dims[64];
		return fail("%s: head dim %d is not built (%s are)", v->name, s->head_dim,
			    variant_head_dims_text(v, dims, sizeof(dims)));
	}
	if (s->batch < 1 || s->heads < 1 || s->kv_heads < 1 || s->seqlen_q < 1 || s->seqlen_kv < 1)
		return fail("%s: every dimension must be >= 1 (B=%d H=%d Hkv=%d Nq=%d Nkv=%d)", v->name,
			    s->batch, s->heads, s->kv_heads, s->seqlen_q, s->seqlen_kv);
	if (s->heads % s->kv_heads)
		return fail("%s: KV heads %d do not divide heads %d", v->name, s->kv_heads, s->heads);
	if (!dtype_runs_here(s->dtype))
		return fail("%s: unknown dtype", v->name);
	if (v->family >= FAMILY_COUNT)
		return fail("%s: no kernels for this variant", v->name);
	{
		bool paged_kernel = false;
		for (size_t i = 0; i < v->nbuffers; i++)
			paged_kernel = paged_kernel || !strcmp(v->buffers[i].name, "block_table");
		char sizes[64];
		if (paged_kernel != (s->kv_layout == KV_PAGED))
			return fail("%s: a %s KV cache, but the kernel reads a %s one", v->name,
				    kv_layout_names[s->kv_layout == KV_PAGED], paged_kernel ? "paged" : "contiguous");
		if (s->kv_layout == KV_PAGED && !paged_page_size_built(s->page_size))
			return fail("%s: page size %d is not built (%s are)", v->name, s->page_size,
				    paged_page_sizes_text(sizes, sizeof sizes));
		if (!paged_kernel && s->kv_dist != KV_DIST_EQUAL)
			return fail("%s: a ragged batch (kv_dist %s) needs the paged kernel", v->name, kv_dist_names[s->kv_dist]);
	}
	const struct variant_desc *pd = variant_pass_desc(v, s->pass);
	if (!pd)
		return fail("%s: no %s kernels (the backward exists for flash2 and standard)", v->name, pass_name(s->pass));

	struct attn_run *r = new attn_run();
	r->v = v;
	r->pd = pd;
	r->prepared = s->pass != PASS_BWD;
	r->s = *s;
	pd->tiling(s, sm_count, &r->t);
	cudaError_t e = cudaStreamCreateWithFlags(&r->stream, cudaStreamNonBlocking);
	if (e != cudaSuccess) {
		cuda_fail(e, "creating a stream");
		attn_run_destroy(r);
		return -1;
	}
	for (size_t i = 0; i < pd->nbuffers; i++)
		if (add_alloc(r, pd->buffers[i].name, buffer_bytes(&pd->buffers[i], s, &r->t))) {
			attn_run_destroy(r);
			return -1;
		}
	if (needs_cublas(v) || needs_cublas(pd)) {
		cublasStatus_t cs = cublasCreate(&r->cublas);
		if (cs != CUBLAS_STATUS_SUCCESS) {
			fail("cublasCreate: %s", cublas_name(cs));
			attn_run_destroy(r);
			return -1;
		}
		// An explicit workspace, so that it is counted: 32 MiB as cuBLAS advises for Hopper.
		const uint64_t ws = 32ull << 20;
		if (add_alloc(r, "cublas_workspace", ws)) {
			attn_run_destroy(r);
			return -1;
		}
		if ((cs = cublasSetStream(r->cublas, r->stream)) != CUBLAS_STATUS_SUCCESS ||
		    (cs = cublasSetWorkspace(r->cublas, buf(r, "cublas_workspace"), ws)) != CUBLAS_STATUS_SUCCESS ||
		    (cs = cublasSetMathMode(r->cublas, CUBLAS_DEFAULT_MATH)) != CUBLAS_STATUS_SUCCESS) {
			fail("configuring cuBLAS: %s", cublas_name(cs));
			attn_run_destroy(r);
			return -1;
		}
	}
	*out = r;
	return 0;
}

extern "C" int attn_run_set_kv_pages(struct attn_run *r, const int32_t *table, const int32_t *lens)
{
	void *dt = buf(r, "block_table"), *dl = buf(r, "kv_lens");
	if (!dt || !dl)
		return fail("%s: no block table (a contiguous KV cache)", r->v->name);
	char why[256];
	if (paged_validate(&r->s, table, lens, paged_pages(&r->s), why, sizeof why))
		return fail("%s: bad page table: %s", r->v->name, why);
	CUDA_TRY(cudaMemcpy(dt, table, buf_bytes(r, "block_table"), cudaMemcpyHostToDevice), "copying the block table");
	CUDA_TRY(cudaMemcpy(dl, lens, buf_bytes(r, "kv_lens"), cudaMemcpyHostToDevice), "copying the KV lengths");
	r->kv_pages_set = true;
	return 0;
}

extern "C" const struct tiling *attn_run_tiling(const struct attn_run *r) { return &r->t; }

// Is the run's buffer i one attn_run_poison fills?  Not the inputs (Q, K,
// V, dO), not the library workspace, and in a backward-only run not the
// forward's products (O, L; S, P), which attn_run_prepare made.
static bool poisoned(const struct attn_run *r, size_t i)
{
	const char *n = r->allocs[i].name;
	if (!strcmp(n, "cublas_workspace"))
		return false;
	for (size_t b = 0; b < r->pd->nbuffers; b++)
		if (!strcmp(r->pd->buffers[b].name, n)) {
			enum buf_role role = r->pd->buffers[b].role;
			if (role == ROLE_INPUT || role == ROLE_GRAD_INPUT)
				return false;
			return !(r->s.pass == PASS_BWD && variant_stores(r->v, n));
		}
	return false;
}

extern "C" int attn_run_poison(struct attn_run *r)
{
	// 0xFF bytes are NaN in fp16, bf16 and fp32 alike.
	for (size_t i = 0; i < r->nallocs; i++) {
		const char *n = r->allocs[i].name;
		if (!poisoned(r, i))
			continue;
		char what[96];
		snprintf(what, sizeof what, "poisoning %s", n);
		CUDA_TRY(cudaMemsetAsync(r->ptrs[i], 0xff, r->allocs[i].bytes, r->stream), what);
	}
	CUDA_TRY(cudaStreamSynchronize(r->stream), "poisoning outputs");
	return 0;
}

// The problem every kernel's parameters carry (problem.h), filled here only.
static attn_problem problem_of(const struct attn_shape &s)
{
	attn_problem pb;
	pb.B = s.batch;
	pb.H = s.heads;
	pb.Hkv = s.kv_heads;
	pb.Nq = s.seqlen_q;
	pb.Nkv = s.seqlen_kv;
	pb.d = s.head_dim;
	pb.causal = s.causal;
	pb.scale = 1.0f / sqrtf((float)s.head_dim);
	pb.scale_log2 = pb.scale * 1.4426950408889634f;
	return pb;
}

static int launch_standard(struct attn_run *r)
{
	const struct attn_shape &s = r->s;
	const int G = s.heads / s.kv_heads, d = s.head_dim;
	const cudaDataType_t dt = s.dtype == DTYPE_FP16 ? CUDA_R_16F : CUDA_R_16BF;
	const float scale = problem_of(s).scale, one = 1.0f, zero = 0.0f;
	// Row-major S[G·Nq][Nkv] per (b, kv head) is column-major Sᵀ = K·Qᵀ: the
	// G query heads of a KV head are consecutive rows of Q and S, so one
	// strided batch over B·Hkv covers grouped-query attention.
	const long long rows = (long long)G * s.seqlen_q;
	cudaError_t e = l2_flush_launch(&r->flush, r->stream);
	if (e != cudaSuccess)
		return cuda_fail(e, "standard: launching the L2 flush");
	cublasStatus_t cs = cublasGemmStridedBatchedEx(
		r->cublas, CUBLAS_OP_T, CUBLAS_OP_N, s.seqlen_kv, (int)rows, d, &scale,
		buf(r, "K"), dt, d, (long long)s.seqlen_kv * d,
		buf(r, "Q"), dt, d, rows * d, &zero,
		buf(r, "S"), dt, s.seqlen_kv, rows * s.seqlen_kv,
		s.batch * s.kv_heads, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
	if (cs != CUBLAS_STATUS_SUCCESS)
		return fail("standard: S = Q·Kᵀ GEMM: %s", cublas_name(cs));
	if ((e = l2_flush_launch(&r->flush, r->stream)) == cudaSuccess)
		e = softmax_rows_launch((const uint16_t *)buf(r, "S"), (uint16_t *)buf(r, "P"), s.dtype,
					s.batch * s.heads, s.seqlen_q, s.seqlen_kv, s.causal, r->stream);
	if (e == cudaSuccess)
		e = l2_flush_launch(&r->flush, r->stream);
	if (e != cudaSuccess)
		return cuda_fail(e, "standard: launching softmax_rows");
	// Oᵀ = Vᵀ·Pᵀ in column-major terms.
	cs = cublasGemmStridedBatchedEx(
		r->cublas, CUBLAS_OP_N, CUBLAS_OP_N, d, (int)rows, s.seqlen_kv, &one,
		buf(r, "V"), dt, d, (long long)s.seqlen_kv * d,
		buf(r, "P"), dt, s.seqlen_kv, rows * s.seqlen_kv, &zero,
		buf(r, "O"), dt, d, rows * d,
		s.batch * s.kv_heads, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
	if (cs != CUBLAS_STATUS_SUCCESS)
		return fail("standard: O = P·V GEMM: %s", cublas_name(cs));
	return 0;
}

static int launch_flash(struct attn_run *r)
{
	const struct attn_shape &s = r->s;
	flash_params p;
	p.pb = problem_of(s);
	p.q = (const uint16_t *)buf(r, "Q");
	p.k = (const uint16_t *)buf(r, "K");
	p.v = (const uint16_t *)buf(r, "V");
	p.o = (uint16_t *)buf(r, "O");
	p.o_acc = (float *)buf(r, "O_acc");
	p.m = (float *)buf(r, "m");
	p.l = (float *)buf(r, "l");
	p.lse = (float *)buf(r, "L");
	cudaError_t e = l2_flush_launch(&r->flush, r->stream);
	if (e == cudaSuccess)
		e = flash_ladder_launch(r->v->switches, p, s.dtype, s.head_dim, r->stream);
	if (e != cudaSuccess) {
		char what[96];
		snprintf(what, sizeof what, "%s: launching flash_fwd", r->v->name);
		return cuda_fail(e, what);
	}
	return 0;
}

static int launch_splitkv(struct attn_run *r)
{
	const struct attn_shape &s = r->s;
	splitkv_params p;
	p.pb = problem_of(s);
	p.q = (const uint16_t *)buf(r, "Q");
	p.k = (const uint16_t *)buf(r, "K");
	p.v = (const uint16_t *)buf(r, "V");
	p.o = (uint16_t *)buf(r, "O");
	p.o_part = (float *)buf(r, "O_part");
	p.l_part = (float *)buf(r, "L_part");
	p.lse = (float *)buf(r, "L");
	p.splits = r->t.splits;
	p.chunk = splitkv_chunk(&s, &r->t);
	p.block_table = (const int *)buf(r, "block_table");
	p.kv_lens = (const int *)buf(r, "kv_lens");
	p.max_pages = paged_max_pages(&s);
	p.page_shift = 0;
	while (s.page_size > 1 << p.page_shift)
		p.page_shift++;
	if (p.block_table && !r->kv_pages_set)
		return fail("%s: launched before attn_run_set_kv_pages gave it a block table", r->v->name);
	cudaError_t e = l2_flush_launch(&r->flush, r->stream);
	if (e == cudaSuccess)
		e = splitkv_launch(p, s.dtype, s.head_dim, r->stream, &r->flush);
	if (e != cudaSuccess) {
		char what[96];
		snprintf(what, sizeof what, "%s: launching splitkv_fwd/splitkv_combine", r->v->name);
		return cuda_fail(e, what);
	}
	return 0;
}

static bwd_params bwd_params_of(struct attn_run *r)
{
	bwd_params p;
	p.pb = problem_of(r->s);
	p.q = (const uint16_t *)buf(r, "Q");
	p.k = (const uint16_t *)buf(r, "K");
	p.v = (const uint16_t *)buf(r, "V");
	p.o = (const uint16_t *)buf(r, "O");
	p.dout = (const uint16_t *)buf(r, "dO");
	p.lse = (const float *)buf(r, "L");
	p.dsum = (float *)buf(r, "D");
	p.dq_acc = (float *)buf(r, "dQ_acc");
	p.dp = (uint16_t *)buf(r, "dP");
	p.ds = (uint16_t *)buf(r, "dS");
	p.dq = (uint16_t *)buf(r, "dQ");
	p.dk = (uint16_t *)buf(r, "dK");
	p.dv = (uint16_t *)buf(r, "dV");
	return p;
}

static int launch_flash2_bwd(struct attn_run *r)
{
	const bwd_params p = bwd_params_of(r);
	cudaError_t e = l2_flush_launch(&r->flush, r->stream);
	if (e == cudaSuccess)
		e = flash2_bwd_launch(p, r->s.dtype, r->s.head_dim, r->stream, &r->flush);
	if (e != cudaSuccess)
		return cuda_fail(e, "flash2: launching bwd_dot_do_o/flash_bwd/bwd_convert_dq");
	return 0;
}

// Strided-batched GEMM over B·Hkv in column-major terms (see launch_standard).
static int gemm(struct attn_run *r, const char *what, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
		float alpha, const char *a, int lda, long long sa, const char *b, int ldb, long long sb,
		const char *c, int ldc, long long sc)
{
	const cudaDataType_t dt = r->s.dtype == DTYPE_FP16 ? CUDA_R_16F : CUDA_R_16BF;
	const float zero = 0.0f;
	cudaError_t e = l2_flush_launch(&r->flush, r->stream);
	if (e != cudaSuccess)
		return cuda_fail(e, "standard: launching the L2 flush");
	cublasStatus_t cs = cublasGemmStridedBatchedEx(r->cublas, ta, tb, m, n, k, &alpha, buf(r, a), dt, lda, sa,
						       buf(r, b), dt, ldb, sb, &zero, buf(r, c), dt, ldc, sc,
						       r->s.batch * r->s.kv_heads, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
	if (cs != CUBLAS_STATUS_SUCCESS)
		return fail("standard: %s GEMM: %s", what, cublas_name(cs));
	return 0;
}

// Row-major X[rows][n] is column-major Xᵀ (ld n), as in launch_standard; the
// G query heads of a KV head are consecutive rows (rows = G·Nq).
static int launch_standard_bwd(struct attn_run *r)
{
	const struct attn_shape &s = r->s;
	const int d = s.head_dim, nkv = s.seqlen_kv;
	const long long rows = (long long)(s.heads / s.kv_heads) * s.seqlen_q;
	const bwd_params p = bwd_params_of(r);
	const float scale = p.pb.scale;
	// dPᵀ = V·dOᵀ
	if (gemm(r, "dP = dO·Vᵀ", CUBLAS_OP_T, CUBLAS_OP_N, nkv, (int)rows, d, 1.0f, "V", d, (long long)nkv * d,
		 "dO", d, rows * d, "dP", nkv, rows * nkv))
		return -1;
	cudaError_t e = l2_flush_launch(&r->flush, r->stream);
	if (e == cudaSuccess)
		e = softmax_bwd_launch((const uint16_t *)buf(r, "P"), p, s.dtype, d, r->stream);
	if (e != cudaSuccess)
		return cuda_fail(e, "standard: launching softmax_bwd");
	// dVᵀ = dOᵀ·P, dKᵀ = scale·Qᵀ·dS  (P, dS read transposed: op T of their Pᵀ view)
	if (gemm(r, "dV = Pᵀ·dO", CUBLAS_OP_N, CUBLAS_OP_T, d, nkv, (int)rows, 1.0f, "dO", d, rows * d,
		 "P", nkv, rows * nkv, "dV", d, (long long)nkv * d) ||
	    gemm(r, "dK = dSᵀ·Q", CUBLAS_OP_N, CUBLAS_OP_T, d, nkv, (int)rows, scale, "Q", d, rows * d,
		 "dS", nkv, rows * nkv, "dK", d, (long long)nkv * d))
		return -1;
	// dQᵀ = scale·Kᵀ·dSᵀ (as Oᵀ = Vᵀ·Pᵀ in the forward)
	return gemm(r, "dQ = dS·K", CUBLAS_OP_N, CUBLAS_OP_N, d, (int)rows, nkv, scale, "K", d, (long long)nkv * d,
		    "dS", nkv, rows * nkv, "dQ", d, rows * d);
}

// The launch table, indexed by enum variant_family (variants.h).
typedef int (*launch_fn)(struct attn_run *r);
// kernels/hopper: the sm_90a forward, the descriptor's rung
static int launch_hopper(struct attn_run *r)
{
	const struct attn_shape &s = r->s;
	hopper_fwd_params p = {};
	p.pb = problem_of(s);
	p.dtype = s.dtype == DTYPE_BF16 ? HOPPER_BF16 : HOPPER_FP16;
	p.q = buf(r, "Q");
	p.k = buf(r, "K");
	p.v = buf(r, "V");
	p.o = buf(r, "O");
	p.lse = (float *)buf(r, "L");
	p.stream = r->stream;
	cudaError_t e = l2_flush_launch(&r->flush, r->stream);
	if (e == cudaSuccess)
		e = (cudaError_t)hopper_fwd(&p, r->v->rung);
	if (e != cudaSuccess) {
		char what[96];
		snprintf(what, sizeof what, "%s: launching hopper_fwd (an sm_90 device is needed)", r->v->name);
		return cuda_fail(e, what);
	}
	return 0;
}

// kernels/hopper: the sm_90a backward, rung 1 "+tma+ws" (dQ by TMA reductions into dQ_acc)
static int launch_hopper_bwd(struct attn_run *r)
{
	const struct attn_shape &s = r->s;
	hopper_bwd_params p = {};
	p.pb = problem_of(s);
	p.dtype = s.dtype == DTYPE_BF16 ? HOPPER_BF16 : HOPPER_FP16;
	p.q = buf(r, "Q");
	p.k = buf(r, "K");
	p.v = buf(r, "V");
	p.o = buf(r, "O");
	p.dout = buf(r, "dO");
	p.lse = (const float *)buf(r, "L");
	p.dsum = (float *)buf(r, "D");
	p.workspace = buf(r, "dQ_acc");
	p.dq = buf(r, "dQ");
	p.dk = buf(r, "dK");
	p.dv = buf(r, "dV");
	p.stream = r->stream;
	cudaError_t e = l2_flush_launch(&r->flush, r->stream);
	if (e == cudaSuccess)
		e = (cudaError_t)hopper_bwd(&p, HOPPER_BWD_RUNG_WS);
	if (e != cudaSuccess)
		return cuda_fail(e, "hopper backward: launching hopper_bwd_prep/hopper_bwd_ws_kernel/hopper_bwd_dq (an sm_90 device is needed)");
	return 0;
}

static const launch_fn family_launch[FAMILY_COUNT] = {
	launch_standard,     // FAMILY_STANDARD
	launch_flash,        // FAMILY_FLASH
	launch_splitkv,      // FAMILY_SPLITKV
	launch_standard_bwd, // FAMILY_STANDARD_BWD
	launch_flash2_bwd,   // FAMILY_FLASH2_BWD
	launch_hopper,       // FAMILY_HOPPER
	launch_hopper_bwd,   // FAMILY_HOPPER_BWD
};
static_assert(FAMILY_COUNT == 7, "one launch function per variant family");

extern "C" int attn_run_prepare(struct attn_run *r)
{
	if (r->s.pass != PASS_BWD)
		return 0;
	r->prepared = 0;
	if (family_launch[r->v->family](r) || attn_run_sync(r))
		return -1;
	r->prepared = 1;
	return 0;
}

extern "C" int attn_run_launch(struct attn_run *r)
{
	switch (r->s.pass) {
	case PASS_FWD:
		return family_launch[r->v->family](r);
	case PASS_BWD:
		if (!r->prepared)
			return fail("%s: backward launched before attn_run_prepare made the forward's products", r->v->name);
		return family_launch[r->pd->family](r);
	default:
		if (family_launch[r->v->family](r))
			return -1;
		return family_launch[r->pd->family](r);
	}
}

// One flush buffer for the process, shared by every run (4x the L2).
static struct l2_flush shared_flush;

static void *flush_alloc(size_t bytes)
{
	void *mem = nullptr;
	return attn_dev_alloc(&mem, bytes, "the L2 flush buffer") ? nullptr : mem;
}

extern "C" int attn_run_set_l2_flush(struct attn_run *r, int on)
{
	if (!on) {
		r->flush = l2_flush();
		return 0;
	}
	if (!shared_flush.buf) {
		cudaError_t e = l2_flush_make(&shared_flush, flush_alloc, attn_dev_free);
		if (e != cudaSuccess)
			return cuda_fail(e, "preparing the L2 flush buffer");
	}
	r->flush = shared_flush;
	return 0;
}

extern "C" void attn_l2_flush_release(void)
{
	attn_dev_free((void *)shared_flush.buf);
	shared_flush = l2_flush();
}

extern "C" int attn_run_sync(struct attn_run *r)
{
	cudaError_t e = cudaStreamSynchronize(r->stream);
	if (e == cudaSuccess)
		e = cudaGetLastError();
	if (e != cudaSuccess) {
		char what[96];
		snprintf(what, sizeof what, "%s: running its kernels", r->v->name);
		return cuda_fail(e, what);
	}
	return 0;
}

extern "C" int attn_run_get_buffer_rows(struct attn_run *r, const char *name, const uint64_t *first, size_t n,
					size_t len, uint16_t *out)
{
	if (attn_run_sync(r))
		return -1;
	const uint16_t *o = (const uint16_t *)buf(r, name);
	if (!o)
		return fail("%s has no buffer '%s' in its %s run", r->v->name, name, pass_name(r->s.pass));
	const uint64_t count = buf_bytes(r, name) / sizeof(uint16_t);
	char what[64];
	snprintf(what, sizeof what, "downloading rows of %s", name);
	for (size_t i = 0; i < n; i++) {
		if (first[i] + len > count)
			return fail("row at element %llu of %s runs past its %llu elements",
				    (unsigned long long)first[i], name, (unsigned long long)count);
		CUDA_TRY(cudaMemcpy(out + i * len, o + first[i], len * sizeof(uint16_t), cudaMemcpyDeviceToHost), what);
	}
	return 0;
}

// Room for n clock probes (not one of the variant's buffers: 16 bytes each, outside its peak).
static int probe_slots(struct attn_run *r, int n)
{
	if (r->probe_slots >= n)
		return 0;
	if (r->probe)
		cudaFree(r->probe);
	r->probe = nullptr;
	r->probe_slots = 0;
	CUDA_TRY(cudaMalloc(&r->probe, 2 * sizeof(unsigned long long) * (size_t)n), "allocating the clock probes");
	r->probe_slots = n;
	return 0;
}

static float probe_mhz(const unsigned long long *slot)
{
	return slot[1] ? (float)(1e3 * (double)slot[0] / (double)slot[1]) : 0.0f;
}

extern "C" int attn_run_probe_clock(struct attn_run *r, int launches, float *mhz)
{
	if (probe_slots(r, 1))
		return -1;
	for (int i = 0; i < launches; i++)
		if (attn_run_launch(r))
			return -1;
	CUDA_TRY(clock_probe_launch(r->probe, r->stream), "launching the clock probe");
	unsigned long long h[2];
	CUDA_TRY(cudaMemcpyAsync(h, r->probe, sizeof h, cudaMemcpyDeviceToHost, r->stream), "reading the clock probe");
	if (attn_run_sync(r))
		return -1;
	*mhz = probe_mhz(h);
	return 0;
}

extern "C" int attn_run_time(struct attn_run *r, int warmup, int reps, float *ms, float *mhz)
{
	if (reps < 1)
		return fail("attn_run_time: reps must be >= 1");
	while ((int)r->events.size() < 2 * reps) {
		cudaEvent_t e;
		CUDA_TRY(cudaEventCreate(&e), "creating timing events");
		r->events.push_back(e);
	}
	if (mhz && probe_slots(r, reps))
		return -1;
	for (int i = 0; i < warmup; i++)
		if (attn_run_launch(r))
			return -1;
	for (int i = 0; i < reps; i++) {
		if (mhz)
			CUDA_TRY(clock_probe_launch(r->probe + 2 * i, r->stream), "launching the clock probe");
		CUDA_TRY(cudaEventRecord(r->events[2 * i], r->stream), "recording a start event");
		if (attn_run_launch(r))
			return -1;
		CUDA_TRY(cudaEventRecord(r->events[2 * i + 1], r->stream), "recording a stop event");
	}
	if (attn_run_sync(r))
		return -1;
	for (int i = 0; i < reps; i++)
		CUDA_TRY(cudaEventElapsedTime(&ms[i], r->events[2 * i], r->events[2 * i + 1]), "reading event times");
	if (mhz) {
		std::vector<unsigned long long> h(2 * (size_t)reps);
		CUDA_TRY(cudaMemcpy(h.data(), r->probe, h.size() * sizeof h[0], cudaMemcpyDeviceToHost),
			 "reading the clock probes");
		for (int i = 0; i < reps; i++)
			mhz[i] = probe_mhz(&h[2 * i]);
	}
	return 0;
}

extern "C" int attn_run_main_kernel_regs(const struct attn_run *r)
{
	if (r->s.pass != PASS_FWD && r->pd->family == FAMILY_FLASH2_BWD)
		return flash2_bwd_regs(r->s.dtype, r->s.head_dim);
	if (r->s.pass == PASS_FWD && r->v->family == FAMILY_FLASH) {
		int regs = -1;
		flash_params p = {}; /* nothing is launched: only the instantiation is chosen */
		return flash_ladder_launch(r->v->switches, p, r->s.dtype, r->s.head_dim, nullptr, &regs) == cudaSuccess
			       ? regs : -1;
	}
	return -1;
}

extern "C" size_t attn_run_allocs(const struct attn_run *r, const struct attn_alloc **out)
{
	*out = r->allocs;
	return r->nallocs;
}

extern "C" uint64_t attn_run_peak_bytes(const struct attn_run *r)
{
	uint64_t sum = 0;
	for (size_t i = 0; i < r->nallocs; i++)
		sum += r->allocs[i].bytes;
	return sum;
}

extern "C" void *attn_run_buffer(struct attn_run *r, const char *name)
{
	return r ? buf(r, name) : nullptr;
}
