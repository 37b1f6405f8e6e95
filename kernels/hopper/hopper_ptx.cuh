// hopper_ptx.cuh: the PTX helpers and the TMA tensor-map encoding the Hopper
// kernels share (hopper_fwd.cu, hopper_bwd.cu): shared-memory addresses,
// mbarriers, TMA loads, the wgmma fence/commit/wait, named barriers, ex2, the
// 128-byte-swizzle wgmma descriptor, and cuTensorMapEncodeTiled through the
// runtime's driver entry point (nothing links -lcuda).
#pragma once
#include <cuda.h>
#include <cuda_runtime.h>
#include <stdint.h>

namespace hopper {

__device__ __forceinline__ uint32_t smem_u32(const void *p) { return (uint32_t)__cvta_generic_to_shared(p); }

__device__ __forceinline__ void mbar_init(uint32_t bar, int count)
{
	asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(count) : "memory");
}
__device__ __forceinline__ void mbar_expect_tx(uint32_t bar, uint32_t bytes)
{
	asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(bytes) : "memory");
}
__device__ __forceinline__ void mbar_arrive(uint32_t bar)
{
	asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(bar) : "memory");
}
__device__ __forceinline__ void mbar_wait(uint32_t bar, uint32_t parity)
{
	uint32_t done;
	do {
		asm volatile("{\n.reg .pred p;\n"
			     "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
			     "selp.u32 %0, 1, 0, p;\n}\n"
			     : "=r"(done)
			     : "r"(bar), "r"(parity)
			     : "memory");
	} while (!done);
}
__device__ __forceinline__ void tma_load_3d(uint32_t dst, const CUtensorMap *map, uint32_t bar, int c0, int c1, int c2)
{
	asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes"
		     " [%0], [%1, {%3, %4, %5}], [%2];" ::"r"(dst),
		     "l"((uint64_t)map), "r"(bar), "r"(c0), "r"(c1), "r"(c2)
		     : "memory");
}
// TMA reduction: the box at (c0, c1, c2) of map += the shared-memory tile at
// src (fp32 add), in a bulk group; commit, then wait for the groups' reads
// of shared memory (the tile may be rewritten) or for their completion.
__device__ __forceinline__ void tma_reduce_add_3d(const CUtensorMap *map, uint32_t src, int c0, int c1, int c2)
{
	asm volatile("cp.reduce.async.bulk.tensor.3d.global.shared::cta.add.tile.bulk_group"
		     " [%0, {%2, %3, %4}], [%1];" ::"l"((uint64_t)map),
		     "r"(src), "r"(c0), "r"(c1), "r"(c2)
		     : "memory");
}
// TMA store: the box at (c0, c1, c2) of map = the shared-memory tile at src, in a bulk group.
__device__ __forceinline__ void tma_store_3d(const CUtensorMap *map, uint32_t src, int c0, int c1, int c2)
{
	asm volatile("cp.async.bulk.tensor.3d.global.shared::cta.bulk_group [%0, {%2, %3, %4}], [%1];" ::"l"(
			     (uint64_t)map),
		     "r"(src), "r"(c0), "r"(c1), "r"(c2)
		     : "memory");
}
__device__ __forceinline__ void bulk_commit() { asm volatile("cp.async.bulk.commit_group;" ::: "memory"); }
template <int N> __device__ __forceinline__ void bulk_wait_read()
{
	asm volatile("cp.async.bulk.wait_group.read %0;" ::"n"(N) : "memory");
}
template <int N> __device__ __forceinline__ void bulk_wait()
{
	asm volatile("cp.async.bulk.wait_group %0;" ::"n"(N) : "memory");
}
__device__ __forceinline__ void wg_fence() { asm volatile("wgmma.fence.sync.aligned;" ::: "memory"); }
__device__ __forceinline__ void wg_commit() { asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory"); }
template <int N> __device__ __forceinline__ void wg_wait()
{
	asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(N) : "memory");
}
template <int N> __device__ __forceinline__ void fence_regs(float (&r)[N])
{
#pragma unroll
	for (int i = 0; i < N; i++)
		asm volatile("" : "+f"(r[i])::"memory");
}
template <int M> __device__ __forceinline__ void fence_regs(uint32_t (&r)[M][4])
{
#pragma unroll
	for (int i = 0; i < M; i++)
#pragma unroll
		for (int k = 0; k < 4; k++)
			asm volatile("" : "+r"(r[i][k])::"memory");
}
__device__ __forceinline__ void bar_sync(int id, int n) { asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(n) : "memory"); }
__device__ __forceinline__ void bar_arrive(int id, int n) { asm volatile("bar.arrive %0, %1;" ::"r"(id), "r"(n) : "memory"); }
__device__ __forceinline__ float ex2(float x)
{
	float y;
	asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
	return y;
}

// wgmma shared-memory descriptor, 128-byte swizzle.  Addresses, LBO and SBO
// in bytes (encoded >> 4).  K-major operands (Q, K): rows of 128 bytes
// (64 elements), 8-row atoms SBO = 1024 apart, LBO unused (1); a k16 step
// inside the 128-byte row moves the start by 32 bytes.  MN-major (V): 64
// contiguous elements of d per 128-byte row, one row per key; SBO = 1024
// between 8-key groups, LBO = BN·128 between the 64-column blocks of d.
__device__ __forceinline__ uint64_t make_desc(uint32_t saddr, uint32_t lbo, uint32_t sbo)
{
	uint64_t d = (uint64_t)((saddr & 0x3FFFF) >> 4);
	d |= (uint64_t)((lbo >> 4) & 0x3FFF) << 16;
	d |= (uint64_t)((sbo >> 4) & 0x3FFF) << 32;
	d |= (uint64_t)1 << 62;
	return d;
}

// ---- host ---------------------------------------------------------------

typedef CUresult (*EncodeTiled)(CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *, const cuuint64_t *,
				const cuuint64_t *, const cuuint32_t *, const cuuint32_t *, CUtensorMapInterleave,
				CUtensorMapSwizzle, CUtensorMapL2promotion, CUtensorMapFloatOOBfill);

static EncodeTiled encode_fn()
{
	static EncodeTiled fn = nullptr;
	if (!fn) {
		void *ptr = nullptr;
		cudaDriverEntryPointQueryResult q;
		if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &ptr, 12000, cudaEnableDefault, &q) ==
			    cudaSuccess &&
		    q == cudaDriverEntryPointSuccess)
			fn = (EncodeTiled)ptr;
	}
	return fn;
}

// [z][rows][d] of elements of type dt (esize bytes), boxes of 128 bytes of
// columns × box_rows rows, 128-byte swizzle.
static int make_map_t(CUtensorMap *map, const void *ptr, CUtensorMapDataType dt, int esize, int d, int rows, int z,
		      int box_rows)
{
	EncodeTiled enc = encode_fn();
	if (!enc)
		return cudaErrorNotSupported;
	cuuint64_t dims[3] = {(cuuint64_t)d, (cuuint64_t)rows, (cuuint64_t)z};
	cuuint64_t strides[2] = {(cuuint64_t)d * esize, (cuuint64_t)rows * d * esize};
	cuuint32_t box[3] = {(cuuint32_t)(128 / esize), (cuuint32_t)box_rows, 1};
	cuuint32_t estr[3] = {1, 1, 1};
	CUresult r = enc(map, dt, 3, const_cast<void *>(ptr), dims, strides, box, estr, CU_TENSOR_MAP_INTERLEAVE_NONE,
			 CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
			 CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
	return r == CUDA_SUCCESS ? 0 : cudaErrorInvalidValue;
}
// [z][rows][d] of 16-bit elements, boxes of 64 columns × box_rows rows.
static int make_map(CUtensorMap *map, const void *ptr, int bf, int d, int rows, int z, int box_rows)
{
	return make_map_t(map, ptr, bf ? CU_TENSOR_MAP_DATA_TYPE_BFLOAT16 : CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, d,
			  rows, z, box_rows);
}

} // namespace hopper
