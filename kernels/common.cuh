// common.cuh: device helpers shared by the attention kernels (sm_80+ PTX:
// mma.sync m16n8k16, ldmatrix, cp.async) and the launch interface between
// kernels/*.cu files.  Everything here is CUDA C++; host C sees attn.h only.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <stdint.h>

#include "problem.h"
#include "variants.h"

// The reason attn_last_error() gives (runtime.cu): -1, for `return attn_fail(...)`.
int attn_fail(const char *fmt, ...);
int attn_cuda_fail(cudaError_t e, const char *what);

// ---- element types ------------------------------------------------------

template <typename T> struct elem;
template <> struct elem<__half> {
	static __device__ __forceinline__ uint32_t pack(float a, float b)
	{
		__half2 h = __floats2half2_rn(a, b);
		return *reinterpret_cast<uint32_t *>(&h);
	}
	static __device__ __forceinline__ float to_f(__half x) { return __half2float(x); }
	static __device__ __forceinline__ __half from_f(float x) { return __float2half_rn(x); }
};
template <> struct elem<__nv_bfloat16> {
	static __device__ __forceinline__ uint32_t pack(float a, float b)
	{
		__nv_bfloat162 h = __floats2bfloat162_rn(a, b);
		return *reinterpret_cast<uint32_t *>(&h);
	}
	static __device__ __forceinline__ float to_f(__nv_bfloat16 x) { return __bfloat162float(x); }
	static __device__ __forceinline__ __nv_bfloat16 from_f(float x) { return __float2bfloat16_rn(x); }
};

// ---- tensor-core and copy primitives --------------------------------------

// D += A·B, m16n8k16, A row-major (4 regs), B col-major (2 regs), fp32 accumulators.
template <typename T>
__device__ __forceinline__ void mma16816(float *c, const uint32_t *a, uint32_t b0, uint32_t b1);
template <>
__device__ __forceinline__ void mma16816<__half>(float *c, const uint32_t *a, uint32_t b0, uint32_t b1)
{
	asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
		     "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
		     : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
		     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}
template <>
__device__ __forceinline__ void mma16816<__nv_bfloat16>(float *c, const uint32_t *a, uint32_t b0, uint32_t b1)
{
	asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
		     "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
		     : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
		     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

__device__ __forceinline__ uint32_t smem_u32(const void *p)
{
	return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void ldsm_x4(uint32_t *r, uint32_t addr)
{
	asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
		     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(addr));
}
__device__ __forceinline__ void ldsm_x4_t(uint32_t *r, uint32_t addr)
{
	asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];\n"
		     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(addr));
}

// 16-byte global → shared copy; src_bytes 0 zero-fills (ragged tails).
__device__ __forceinline__ void cp_async16(uint32_t dst, const void *src, int src_bytes)
{
	asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n"
		     :: "r"(dst), "l"(src), "r"(src_bytes));
}
// 4-byte global → shared copy (per-row statistics, no 16-byte alignment);
// src_bytes 0 zero-fills.
__device__ __forceinline__ void cp_async4(uint32_t dst, const void *src, int src_bytes)
{
	asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n"
		     :: "r"(dst), "l"(src), "r"(src_bytes));
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n"); }
template <int N>
__device__ __forceinline__ void cp_async_wait() { asm volatile("cp.async.wait_group %0;\n" :: "n"(N)); }

// Bulk asynchronous reduction (sm_90): global[dst..dst+bytes) += the
// fp32 words at shared address src (both 16-byte aligned, bytes a multiple
// of 16), tracked per thread in bulk groups.  Shared-memory writes the
// reduction reads must be made visible to the async proxy first
// (fence_proxy_async, then a barrier).
__device__ __forceinline__ void bulk_reduce_add_f32(float *dst, uint32_t src, uint32_t bytes)
{
	asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32 [%0], [%1], %2;\n"
		     :: "l"(dst), "r"(src), "r"(bytes) : "memory");
}
__device__ __forceinline__ void bulk_commit() { asm volatile("cp.async.bulk.commit_group;\n"); }
// The thread's bulk groups have read their shared-memory sources (it may be overwritten).
__device__ __forceinline__ void bulk_wait_read() { asm volatile("cp.async.bulk.wait_group.read 0;\n" ::: "memory"); }
// The thread's bulk groups are complete (their writes done).
__device__ __forceinline__ void bulk_wait() { asm volatile("cp.async.bulk.wait_group 0;\n" ::: "memory"); }
__device__ __forceinline__ void fence_proxy_async() { asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory"); }

// Quad (4 lanes sharing a row of an mma fragment) reductions.
__device__ __forceinline__ float quad_max(float x)
{
	x = fmaxf(x, __shfl_xor_sync(0xffffffffu, x, 1));
	return fmaxf(x, __shfl_xor_sync(0xffffffffu, x, 2));
}
__device__ __forceinline__ float quad_sum(float x)
{
	x += __shfl_xor_sync(0xffffffffu, x, 1);
	return x + __shfl_xor_sync(0xffffffffu, x, 2);
}

// Swizzled tile of ROWS × D 16-bit elements: 16-byte chunk c of row r lives
// at chunk c ^ (r & 7), so the 8 row addresses of an ldmatrix (same logical
// chunk, 8 consecutive rows) and the 8 chunks of a cp.async phase fall in
// different bank groups.  D ≥ 64 (8 chunks per row).
template <int D>
__device__ __forceinline__ uint32_t swz(int row, int col /* element */)
{
	int chunk = (col >> 3) ^ (row & 7);
	return (uint32_t)((row * D + (chunk << 3) + (col & 7)) * 2);
}

// Copy a ROWS × D tile (rows [row0, row0+ROWS) of a [nrows, D] matrix) into
// swizzled shared memory with NTHREADS threads; rows ≥ nrows become zeros.
// A thread always copies the same chunk column of rows tid/CPR + i·RSTEP,
// so every address is one base plus an immediate (no hoisted pointers).
template <int ROWS, int D, int NTHREADS>
__device__ __forceinline__ void load_tile(uint32_t sbase, const uint16_t *g, int row0, int nrows, int tid)
{
	constexpr int CPR = D / 8;              // 16-byte chunks per row
	constexpr int RSTEP = NTHREADS / CPR;   // rows covered per pass
	static_assert(NTHREADS % CPR == 0 && ROWS % RSTEP == 0 && RSTEP % 8 == 0, "tile chunks must divide among threads");
	const int ch = tid % CPR, r0 = tid / CPR;
	const uint16_t *src = g + (size_t)(row0 + r0) * D + ch * 8;
	const uint32_t dst = sbase + swz<D>(r0, ch * 8); // r0 & 7 is the same for every pass
#pragma unroll
	for (int i = 0; i < ROWS / RSTEP; i++) {
		const bool ok = row0 + r0 + i * RSTEP < nrows;
		cp_async16(dst + i * RSTEP * D * 2, ok ? (const void *)(src + (size_t)i * RSTEP * D) : (const void *)g, ok ? 16 : 0);
	}
}

// ---- launch interface between the .cu files ------------------------------

// Each family's parameters: its buffers, then the problem (problem.h: B, H,
// Hkv, Nq, Nkv, causal, scale, d), last so that its offsets stay as they were.
struct flash_params {
	const uint16_t *q, *k, *v;
	uint16_t *o;
	float *o_acc, *m, *l, *lse; // NULL when the variant has no such buffer
	attn_problem pb;
};

// Backward of one attention problem (flash2 and standard): the forward's
// Q, K, V, O and logsumexp L, the incoming gradient dO; out come dQ, dK,
// dV.  D = rowsum(dO ∘ O) and the fp32 dQ accumulator are flash2's
// workspaces; dP, dS standard's (NULL when the variant has none).
struct bwd_params {
	const uint16_t *q, *k, *v, *o, *dout;
	const float *lse;
	float *dsum, *dq_acc;   // D [B·H·Nq], dQ accumulator [B·H·Nq·d]
	uint16_t *dp, *ds;      // standard: dP, dS [B·H·Nq·Nkv]
	uint16_t *dq, *dk, *dv;
	attn_problem pb;
};

struct splitkv_params {
	const uint16_t *q, *k, *v;
	uint16_t *o;
	float *o_part, *l_part, *lse;
	attn_problem pb;
	int splits, chunk; // KV rows per split (multiple of the tile)
	// Paged KV (decode-paged; NULL block_table: contiguous [B, Hkv, Nkv, d]):
	// K and V are [pages, 1 << page_shift, Hkv, d], request b's key n in page
	// block_table[b · max_pages + (n >> page_shift)]; kv_lens[b] is its
	// length (NULL: Nkv for every request).  Validated on the host first
	// (kernels/paged.c).
	const int *block_table, *kv_lens;
	int page_shift, max_pages;
};

// An L2 flush (l2flush.cu) to run before each kernel of a profiled call; a
// NULL flush, or one without a buffer, launches nothing.
struct l2_flush {
	const uint4 *buf;  // zeroed, several times the L2's size
	size_t n16;        // 16-byte elements in buf
	unsigned *sink;
	int blocks;
};
cudaError_t l2_flush_launch(const struct l2_flush *f, cudaStream_t st);
// kernels/clock.cu: one probe of the SM clock into slot[0] (cycles) and
// slot[1] (ns of the global timer), on stream st.
cudaError_t clock_probe_launch(unsigned long long *slot, cudaStream_t st);
// A flush buffer of 4x the L2, zeroed, from alloc (bytes → device memory or
// NULL; release gives it back on a later error, leaving f empty).
cudaError_t l2_flush_make(struct l2_flush *f, void *(*alloc)(size_t bytes), void (*release)(void *mem));

// Each returns cudaSuccess or the launch error.  sw = enum flash_switch bits.
// With regs, nothing is launched: *regs is the registers per thread of the
// kernel that would run (cudaFuncGetAttributes; the descriptors' table in
// kernels/tiles.h is tested against it), through the same dispatch.
cudaError_t flash2_launch(const flash_params &p, enum dtype t, int d, cudaStream_t st, int *regs = nullptr);
cudaError_t flash_ladder_launch(unsigned sw, const flash_params &p, enum dtype t, int d, cudaStream_t st,
				int *regs = nullptr);
// With a flush, the combine follows a flush kernel instead of overlapping
// splitkv_fwd's tail (programmatic dependent launch is off then).
cudaError_t splitkv_launch(const splitkv_params &p, enum dtype t, int d, cudaStream_t st,
			   const struct l2_flush *flush);
// flash2 backward: D = rowsum(dO ∘ O) with the dQ accumulator zeroed,
// the K/V-parallel main kernel, dQ = acc · scale converted to T.
cudaError_t flash2_bwd_launch(const bwd_params &p, enum dtype t, int d, cudaStream_t st,
			      const struct l2_flush *flush);
// Registers per thread of the compiled flash_bwd<T, D> (cudaFuncGetAttributes), or -1.
int flash2_bwd_regs(enum dtype t, int d);
// standard backward's softmax step: dS = P ∘ (dP − rowsum(dO ∘ O)).
cudaError_t softmax_bwd_launch(const uint16_t *p, const bwd_params &b, enum dtype t, int d, cudaStream_t st);
cudaError_t softmax_rows_launch(const uint16_t *s, uint16_t *p, enum dtype t, int BH, int Nq, int Nkv,
				int causal, cudaStream_t st);
