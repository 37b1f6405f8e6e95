// hopper_fp8.cu: the FP8 (e4m3) attention forward on Hopper (sm_90a), and
// the quantisation that feeds it (hopper_attn.h has the interface,
// hopper_tiles.h the tiling).  Build: tools/hopper-build.sh.
//
// The warp roles and the loop are the 16-bit forward's +tma+ws / +overlap
// rungs (hopper_fwd.cu): a producer warpgroup (setmaxnreg 24) feeds Q and a
// K/V ring by TMA on full/empty mbarriers; two consumer warpgroups of 64
// query rows each (setmaxnreg 240) run, per 128-key block,
//   S = Q8·K8ᵀ   wgmma m64n128k32 e4m3.e4m3, both operands K-major from
//                shared memory (FP8 wgmma has no transpose);
//   softmax      hopper_softmax.cuh's, on S in f32 with the softmax scale
//                times the descales of Q and K folded into exp2's factor;
//   O += P8·Vt8  wgmma m64n{d}k32, A = P quantised to e4m3 in registers,
//                B = the transposed V [d rows, 128 keys] (K-major).
// P's operand layout.  wgmma's 8-bit A fragment (m64k32) gives thread
// (warp w, lane = 4g + c) rows 16w + g (registers 0, 2) and 16w + g + 8
// (1, 3), the k columns 4c..4c+3 (registers 0, 1) and 16 + 4c..16 + 4c+3
// (2, 3), byte j of a register holding column +j.  The f32 accumulator of S
// gives the same rows but the key columns 8i + 2c + {0, 1}.  Rather than
// shuffle bytes across the quad, the keys of each 32-key group of the
// transposed V are stored permuted (vt_perm): A's column a holds key
// vt_perm(a) of the accumulator, so the accumulators pack in place.
// The descale of V and 1/l are applied to O at the end (bf16 out).
#include <cuda.h>
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda_fp8.h>
#include <math.h>
#include <stdint.h>
#include <type_traits>

#include "hopper_attn.h"
#include "hopper_tiles.h"
#include "../tiles.h" /* the forward grid, held once */
#include "wgmma_fp8.cuh"
#include "hopper_ptx.cuh"
#include "hopper_softmax.cuh"

#define HOPPER_STR_(x) #x
#define HOPPER_STR(x) HOPPER_STR_(x)

namespace hopper8 {
using namespace hopper;

constexpr int BM = HOPPER_BLOCK_M;
constexpr int BN = HOPPER_FP8_BLOCK_N;
constexpr int STAGES = HOPPER_FP8_STAGES;
constexpr float E4M3_MAX = 448.f; // the largest finite e4m3

template <int D> struct T8 {
	static constexpr int QBYTES = BM * D;
	static constexpr int KBYTES = BN * D;
	static constexpr int VBYTES = D * BN; // the transposed V: D rows of 128 keys
	static constexpr int OFF_K = QBYTES;
	static constexpr int OFF_V = OFF_K + STAGES * KBYTES;
	static constexpr int OFF_BAR = OFF_V + STAGES * VBYTES;
	static constexpr int SMEM = OFF_BAR + 256 + 1024;
	static_assert(SMEM == HOPPER_FP8_SMEM(D), "hopper_tiles.h's HOPPER_FP8_SMEM is this layout");
	static_assert(8 * (1 + 4 * STAGES) <= 256, "the mbarriers fit their 256 bytes");
	// Q and K rows are D bytes: a 128-byte swizzle row at d = 128, a 64-byte one at d = 64
	static constexpr int SWZ = D;
	static_assert(D == 64 || D == 128, "HOPPER_FP8_HEAD_DIMS");
};

// the scale a tensor is multiplied by before rounding to e4m3 (its descale is the inverse)
__host__ __device__ __forceinline__ float quant_scale(float amax) { return amax > 0.f ? E4M3_MAX / amax : 1.f; }

// The key that column a (0..31) of P's A operand holds in a 32-key group
// (hopper_tiles.h: HOPPER_FP8_VT_PERM, HOPPER_FP8_PACK_ACC).
__host__ __device__ __forceinline__ int vt_perm(int a) { return HOPPER_FP8_VT_PERM(a); }

__device__ __forceinline__ uint32_t e4m3x4(float a, float b, float c, float d)
{
	const uint32_t lo = __nv_cvt_float2_to_fp8x2(make_float2(a, b), __NV_SATFINITE, __NV_E4M3); // a: the low byte
	const uint32_t hi = __nv_cvt_float2_to_fp8x2(make_float2(c, d), __NV_SATFINITE, __NV_E4M3);
	return lo | hi << 16;
}

// wgmma descriptor of a K-major e4m3 tile: rows of SWZ bytes (128- or
// 64-byte swizzle), 8-row atoms SBO = 8·SWZ apart, LBO unused.
template <int SWZ> __device__ __forceinline__ uint64_t desc8(uint32_t saddr)
{
	uint64_t d = make_desc(saddr, 16, 8 * SWZ); // layout type 1: 128-byte swizzle
	if (SWZ == 64)
		d = (d & ~(3ull << 62)) | (2ull << 62); // layout type 2: 64-byte swizzle
	return d;
}

struct P8 {
	KParams k;          // o, lse, shape; sl2 without the descales
	const float *amax;  // max |q|, |k|, |v| (the quantisation's)
};

template <int D> __device__ __forceinline__ void issue_qk8(float (&s)[BN / 2], uint32_t sQw, uint32_t sK)
{
#pragma unroll
	for (int kk = 0; kk < D / 32; kk++)
		wgmma_ss_m64n128k32_e4m3(s, desc8<T8<D>::SWZ>(sQw + kk * 32), desc8<T8<D>::SWZ>(sK + kk * 32), kk > 0);
}
__device__ __forceinline__ void pv8(float (&o)[32], const uint32_t (&a)[4], uint64_t b) { wgmma_rs_m64n64k32_e4m3(o, a, b, 1); }
__device__ __forceinline__ void pv8(float (&o)[64], const uint32_t (&a)[4], uint64_t b) { wgmma_rs_m64n128k32_e4m3(o, a, b, 1); }
template <int D> __device__ __forceinline__ void issue_pv8(float (&o)[D / 2], const uint32_t (&pk)[BN / 32][4], uint32_t sV)
{
#pragma unroll
	for (int kk = 0; kk < BN / 32; kk++)
		pv8(o, pk[kk], desc8<128>(sV + kk * 32));
}

template <int D, bool CAUSAL, int RUNG>
__global__ void __launch_bounds__(HOPPER_THREADS(1), 1)
	hopper_fp8_kernel(const __grid_constant__ CUtensorMap tq, const __grid_constant__ CUtensorMap tk,
			  const __grid_constant__ CUtensorMap tv, const P8 p8)
{
	using TL = T8<D>;
	constexpr int S = STAGES;
	constexpr bool PP = RUNG >= 2, OV = RUNG >= 3;
	const KParams &p = p8.k;

	extern __shared__ uint8_t smem_raw[];
	const uint32_t base = (smem_u32(smem_raw) + 1023u) & ~1023u;
	const uint32_t sQ = base, sK0 = base + TL::OFF_K, sV0 = base + TL::OFF_V;
	const uint32_t bars = base + TL::OFF_BAR;
	const uint32_t barQ = bars;
	auto fullK = [&](int s) { return bars + 8 * (1 + s); };
	auto fullV = [&](int s) { return bars + 8 * (1 + S + s); };
	auto emptyK = [&](int s) { return bars + 8 * (1 + 2 * S + s); };
	auto emptyV = [&](int s) { return bars + 8 * (1 + 3 * S + s); };

	const int tid = threadIdx.x;
	const int qb = CAUSAL ? p.nqb - 1 - (int)blockIdx.x : (int)blockIdx.x;
	const int bh = blockIdx.y;
	const int kvz = (bh / p.H) * p.Hkv + (bh % p.H) / p.hgroup;
	int nkb = (p.Nkv + BN - 1) / BN;
	if (CAUSAL) {
		const int maxcol = qb * BM + BM - 1 + p.off;
		nkb = min(nkb, maxcol >= 0 ? maxcol / BN + 1 : 0);
	}

	if (tid == 0) {
		mbar_init(barQ, 1);
		for (int s = 0; s < S; s++) {
			mbar_init(fullK(s), 1);
			mbar_init(fullV(s), 1);
			mbar_init(emptyK(s), HOPPER_EMPTY_ARRIVALS);
			mbar_init(emptyV(s), HOPPER_EMPTY_ARRIVALS);
		}
		asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
		asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
	}
	__syncthreads();

	if (tid < 128) {
		// ---- producer warpgroup ----
		asm volatile("setmaxnreg.dec.sync.aligned.u32 " HOPPER_STR(HOPPER_REGS_PRODUCER) ";\n" ::: "memory");
		if (tid == 0) {
			mbar_expect_tx(barQ, TL::QBYTES);
			tma_load_3d(sQ, &tq, barQ, 0, qb * BM, bh);
			for (int j = 0; j < nkb; j++) {
				const int st = j % S;
				if (j >= S)
					mbar_wait(emptyK(st), ((j / S) - 1) & 1);
				mbar_expect_tx(fullK(st), TL::KBYTES);
				tma_load_3d(sK0 + st * TL::KBYTES, &tk, fullK(st), 0, j * BN, kvz);
				if (j >= S)
					mbar_wait(emptyV(st), ((j / S) - 1) & 1);
				mbar_expect_tx(fullV(st), TL::VBYTES);
				tma_load_3d(sV0 + st * TL::VBYTES, &tv, fullV(st), j * BN, 0, kvz);
			}
		}
		return;
	}
	asm volatile("setmaxnreg.inc.sync.aligned.u32 " HOPPER_STR(HOPPER_REGS_CONSUMER) ";\n" ::: "memory");

	// ---- consumer warpgroups ----
	const int cw = tid / 128 - 1;
	const int ct = tid % 128, w = ct / 32, lane = tid % 32, g = lane / 4, c4 = lane % 4;
	const uint32_t sQw = sQ + cw * 64 * D;
	const int r0 = qb * BM + cw * 64 + w * 16 + g;

	// the descales: S·dq·dk is the score of the unquantised inputs, O·dv their output
	const float dqk = 1.f / (quant_scale(p8.amax[0]) * quant_scale(p8.amax[1]));
	const float dv = 1.f / quant_scale(p8.amax[2]);
	KParams kp = p;
	kp.sl2 = p.sl2 * dqk;

	float o[D / 2];
#pragma unroll
	for (int i = 0; i < D / 2; i++)
		o[i] = 0.f;
	float m[2] = {-INFINITY, -INFINITY}, l[2] = {0.f, 0.f}, corr[2];
	float s[BN / 2];
	uint32_t pk[BN / 32][4];

	auto sched_begin = [&]() {
		if (PP)
			bar_sync(1 + cw, 256);
	};
	auto sched_end = [&](bool last) {
		if (PP && !(cw == 1 && last))
			bar_arrive(1 + (cw ^ 1), 256);
	};
	auto needs_mask = [&](int j) {
		return (j + 1) * BN > p.Nkv || (CAUSAL && (j + 1) * BN - 1 > qb * BM + p.off);
	};
	// P (f32 accumulators) to e4m3 in A's layout; the permuted V matches (vt_perm)
	auto convert = [&]() {
#pragma unroll
		for (int kk = 0; kk < BN / 32; kk++)
#pragma unroll
			for (int r = 0; r < 4; r++)
				pk[kk][r] = e4m3x4(s[16 * kk + HOPPER_FP8_PACK_ACC(r, 0)], s[16 * kk + HOPPER_FP8_PACK_ACC(r, 1)],
						   s[16 * kk + HOPPER_FP8_PACK_ACC(r, 2)], s[16 * kk + HOPPER_FP8_PACK_ACC(r, 3)]);
	};
	auto rescale_o = [&](const float (&cr)[2]) {
#pragma unroll
		for (int i = 0; i < D / 8; i++) {
			o[4 * i + 0] *= cr[0];
			o[4 * i + 1] *= cr[0];
			o[4 * i + 2] *= cr[1];
			o[4 * i + 3] *= cr[1];
		}
	};

	mbar_wait(barQ, 0);
	if (nkb > 0) {
		if (PP && cw == 1)
			bar_arrive(1, 256);
		mbar_wait(fullK(0), 0);
		sched_begin();
		wg_fence();
		issue_qk8<D>(s, sQw, sK0);
		wg_commit();
		sched_end(false);
		wg_wait<0>();
		fence_regs(s);
		if (lane == 0)
			mbar_arrive(emptyK(0));
		softmax_block<CAUSAL>(s, m, l, corr, needs_mask(0), 2 * c4, r0, kp);
		convert();

		for (int j = 1; j < nkb; j++) {
			const int st = j % S, sp = (j - 1) % S;
			mbar_wait(fullK(st), (j / S) & 1);
			mbar_wait(fullV(sp), ((j - 1) / S) & 1);
			sched_begin();
			fence_regs(o);
			fence_regs(pk);
			wg_fence();
			issue_qk8<D>(s, sQw, sK0 + st * TL::KBYTES);
			wg_commit();
			rescale_o(corr);
			wg_fence();
			issue_pv8<D>(o, pk, sV0 + sp * TL::VBYTES);
			wg_commit();
			sched_end(false);
			if (OV)
				wg_wait<1>();
			else
				wg_wait<0>();
			fence_regs(s);
			if (lane == 0)
				mbar_arrive(emptyK(st));
			softmax_block<CAUSAL>(s, m, l, corr, needs_mask(j), j * BN + 2 * c4, r0, kp);
			if (OV)
				wg_wait<0>();
			fence_regs(o);
			fence_regs(pk);
			if (lane == 0)
				mbar_arrive(emptyV(sp));
			convert();
		}
		const int sp = (nkb - 1) % S;
		mbar_wait(fullV(sp), ((nkb - 1) / S) & 1);
		sched_begin();
		fence_regs(o);
		fence_regs(pk);
		rescale_o(corr);
		wg_fence();
		issue_pv8<D>(o, pk, sV0 + sp * TL::VBYTES);
		wg_commit();
		sched_end(true);
		wg_wait<0>();
		fence_regs(o);
	}

	// ---- epilogue: O · dv / l in bf16, logsumexp of the descaled scores ----
#pragma unroll
	for (int hh = 0; hh < 2; hh++) {
		l[hh] += __shfl_xor_sync(0xffffffffu, l[hh], 1);
		l[hh] += __shfl_xor_sync(0xffffffffu, l[hh], 2);
	}
	__nv_bfloat16 *O = reinterpret_cast<__nv_bfloat16 *>(p.o) + (size_t)bh * p.Nq * D;
#pragma unroll
	for (int hh = 0; hh < 2; hh++) {
		const int row = r0 + 8 * hh;
		if (row < p.Nq) {
			const float inv = l[hh] > 0.f ? dv / l[hh] : 0.f;
			uint32_t *dst = reinterpret_cast<uint32_t *>(O + (size_t)row * D + 2 * c4);
#pragma unroll
			for (int i = 0; i < D / 8; i++) {
				__nv_bfloat162 v = __floats2bfloat162_rn(o[4 * i + 2 * hh] * inv, o[4 * i + 2 * hh + 1] * inv);
				dst[4 * i] = *reinterpret_cast<uint32_t *>(&v);
			}
			if (p.lse && c4 == 0)
				p.lse[(size_t)bh * p.Nq + row] =
					l[hh] > 0.f ? m[hh] * dqk * p.scale + logf(l[hh]) : -INFINITY;
		}
	}
}

// ---- quantisation --------------------------------------------------------

template <typename T> __device__ __forceinline__ float tof(T x);
template <> __device__ __forceinline__ float tof(__half x) { return __half2float(x); }
template <> __device__ __forceinline__ float tof(__nv_bfloat16 x) { return __bfloat162float(x); }

struct QIn {
	const void *x[3];
	size_t n[3];
};

// amax[t] = max |x_t| (t = t0 + blockIdx.y: q, k, v); amax zeroed before.
template <typename T> __global__ void amax_kernel(QIn in, float *amax, int t0)
{
	const int t = t0 + blockIdx.y; // selected, not indexed: a dynamic index puts the parameters on the stack
	const uint4 *x = reinterpret_cast<const uint4 *>(t == 0 ? in.x[0] : t == 1 ? in.x[1] : in.x[2]); // 8 elements (n: a multiple of d)
	const size_t n8 = (t == 0 ? in.n[0] : t == 1 ? in.n[1] : in.n[2]) / 8;
	float mx = 0.f;
	for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n8; i += (size_t)gridDim.x * blockDim.x) {
		const uint4 u = x[i];
		const T *e = reinterpret_cast<const T *>(&u);
#pragma unroll
		for (int k = 0; k < 8; k++)
			mx = fmaxf(mx, fabsf(tof(e[k])));
	}
	for (int o = 16; o; o >>= 1)
		mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, o));
	if ((threadIdx.x & 31) == 0)
		atomicMax(reinterpret_cast<unsigned *>(&amax[t]), __float_as_uint(mx)); // non-negative: bits order as values
}

// Q (blockIdx.y 0) and K (1) to e4m3 at quant_scale(amax), 8 elements a thread.
template <typename T> __global__ void quant_kernel(QIn in, uint8_t *q8, uint8_t *k8, const float *amax)
{
	const int t = blockIdx.y;
	const T *x = reinterpret_cast<const T *>(t ? in.x[1] : in.x[0]);
	uint8_t *y = t ? k8 : q8;
	const float sc = quant_scale(amax[t]);
	const size_t n8 = (t ? in.n[1] : in.n[0]) / 8;
	for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n8; i += (size_t)gridDim.x * blockDim.x) {
		const uint4 u = reinterpret_cast<const uint4 *>(x)[i];
		const T *e = reinterpret_cast<const T *>(&u);
		uint2 r;
		r.x = e4m3x4(tof(e[0]) * sc, tof(e[1]) * sc, tof(e[2]) * sc, tof(e[3]) * sc);
		r.y = e4m3x4(tof(e[4]) * sc, tof(e[5]) * sc, tof(e[6]) * sc, tof(e[7]) * sc);
		reinterpret_cast<uint2 *>(y)[i] = r;
	}
}

// Incoherent processing of Q (blockIdx.y 0) and K (1): a warp a row of D,
// lane l holding elements 32e + l; the row times diag(s), the Hadamard
// butterflies (strides 1..16 across lanes, 32 and 64 inside a lane, in
// increasing order, as the host's check does them), times the norm.
// quant = 0: amax of the result; 1: the result to e4m3 at quant_scale(amax).
template <typename T, int D> __global__ void __launch_bounds__(256) rows_kernel(QIn in, uint8_t *q8, uint8_t *k8, float *amax, unsigned seed, int quant)
{
	constexpr int E = D / 32;
	const int t = blockIdx.y, lane = threadIdx.x & 31;
	const T *x = reinterpret_cast<const T *>(t ? in.x[1] : in.x[0]);
	uint8_t *y = t ? k8 : q8;
	const size_t rows = (t ? in.n[1] : in.n[0]) / D;
	const float sc = quant ? quant_scale(amax[t]) : 1.f, norm = HOPPER_FP8_HADAMARD_NORM(D);
	float mx = 0.f;
	for (size_t r = (blockIdx.x * (size_t)blockDim.x + threadIdx.x) / 32; r < rows; r += (size_t)gridDim.x * blockDim.x / 32) {
		float v[E];
#pragma unroll
		for (int e = 0; e < E; e++) {
			const float f = tof(x[r * D + 32 * e + lane]);
			v[e] = HOPPER_FP8_SIGN(seed, 32 * e + lane) ? -f : f;
		}
#pragma unroll
		for (int h = 1; h < 32; h *= 2)
#pragma unroll
			for (int e = 0; e < E; e++) {
				const float o = __shfl_xor_sync(0xffffffffu, v[e], h);
				v[e] = (lane & h) ? o - v[e] : v[e] + o;
			}
#pragma unroll
		for (int k = 1; k < E; k *= 2)
#pragma unroll
			for (int e = 0; e < E; e++)
				if (!(e & k)) {
					const float a = v[e], b = v[e | k];
					v[e] = a + b;
					v[e | k] = a - b;
				}
#pragma unroll
		for (int e = 0; e < E; e++) {
			const float u = v[e] * norm;
			if (quant)
				y[r * D + 32 * e + lane] = (uint8_t)__nv_cvt_float_to_fp8(u * sc, __NV_SATFINITE, __NV_E4M3);
			else
				mx = fmaxf(mx, fabsf(u));
		}
	}
	if (!quant) {
		for (int o = 16; o; o >>= 1)
			mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, o));
		if (lane == 0)
			atomicMax(reinterpret_cast<unsigned *>(&amax[t]), __float_as_uint(mx));
	}
}

// V [z, Nkv, D] to e4m3, transposed to [z, D, VT_LEN(Nkv)], each 32-key
// group permuted (vt_perm), keys past Nkv zero.  Block: 32 keys of one z.
template <typename T, int D> __global__ void __launch_bounds__(256) vt_kernel(const T *v, uint8_t *vt, int Nkv, const float *amax)
{
	__shared__ float tile[32][D + 1];
	const int n0 = blockIdx.x * 32, z = blockIdx.y, L = HOPPER_FP8_VT_LEN(Nkv);
	const float sc = quant_scale(amax[2]);
	const T *vz = v + (size_t)z * Nkv * D;
	for (int i = threadIdx.x; i < 32 * D; i += blockDim.x) {
		const int key = i / D, x = i % D;
		tile[key][x] = n0 + key < Nkv ? tof(vz[(size_t)(n0 + key) * D + x]) * sc : 0.f;
	}
	__syncthreads();
	uint8_t *vtz = vt + (size_t)z * D * L;
	for (int i = threadIdx.x; i < D * 8; i += blockDim.x) {
		const int x = i / 8, a = 4 * (i % 8);
		reinterpret_cast<uint32_t *>(vtz + (size_t)x * L + n0)[a / 4] =
			e4m3x4(tile[vt_perm(a)][x], tile[vt_perm(a + 1)][x], tile[vt_perm(a + 2)][x], tile[vt_perm(a + 3)][x]);
	}
}

// ---- host ------------------------------------------------------------------

// [z][rows][inner] bytes, boxes of box_inner × box_rows, swizzle of box_inner bytes (64 or 128)
static int make_map8(CUtensorMap *map, const void *ptr, int inner, int rows, int z, int box_inner, int box_rows)
{
	EncodeTiled enc = encode_fn();
	if (!enc)
		return cudaErrorNotSupported;
	cuuint64_t dims[3] = {(cuuint64_t)inner, (cuuint64_t)rows, (cuuint64_t)z};
	cuuint64_t strides[2] = {(cuuint64_t)inner, (cuuint64_t)rows * inner};
	cuuint32_t box[3] = {(cuuint32_t)box_inner, (cuuint32_t)box_rows, 1};
	cuuint32_t estr[3] = {1, 1, 1};
	CUresult r = enc(map, CU_TENSOR_MAP_DATA_TYPE_UINT8, 3, const_cast<void *>(ptr), dims, strides, box, estr,
			 CU_TENSOR_MAP_INTERLEAVE_NONE, box_inner == 128 ? CU_TENSOR_MAP_SWIZZLE_128B : CU_TENSOR_MAP_SWIZZLE_64B,
			 CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
	return r == CUDA_SUCCESS ? 0 : cudaErrorInvalidValue;
}

// the FP8 attention's schedule: +tma+ws's roles with +overlap's in-warpgroup overlap and
// +pingpong's turns (RUNG 3 of hopper_fwd.cu's ladder)
constexpr int FP8_RUNG = HOPPER_RUNG_OVERLAP;

template <int D, bool CAUSAL> static int launch(const hopper_fp8_params *a)
{
	auto kern = hopper_fp8_kernel<D, CAUSAL, FP8_RUNG>;
	constexpr int smem = T8<D>::SMEM;
	static bool attr_set = false;
	if (!attr_set) {
		cudaError_t e = cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
		if (e != cudaSuccess)
			return e;
		attr_set = true;
	}
	const attn_problem &pb = a->pb;
	CUtensorMap tq, tk, tv;
	int e;
	if ((e = make_map8(&tq, a->q8, D, pb.Nq, pb.B * pb.H, D, BM)) ||
	    (e = make_map8(&tk, a->k8, D, pb.Nkv, pb.B * pb.Hkv, D, BN)) ||
	    (e = make_map8(&tv, a->vt8, HOPPER_FP8_VT_LEN(pb.Nkv), D, pb.B * pb.Hkv, BN, D)))
		return e;
	P8 p;
	p.k.o = a->o;
	p.k.lse = a->lse;
	p.k.Nq = pb.Nq;
	p.k.Nkv = pb.Nkv;
	p.k.H = pb.H;
	p.k.Hkv = pb.Hkv;
	p.k.hgroup = pb.H / pb.Hkv;
	p.k.nqb = (pb.Nq + BM - 1) / BM;
	p.k.off = pb.Nkv - pb.Nq;
	p.k.scale = pb.scale > 0.f ? pb.scale : 1.f / sqrtf((float)D);
	p.k.sl2 = p.k.scale * 1.4426950408889634f;
	p.amax = a->amax;
	const dim3 grid(FLASH_FWD_GRID_X(1, pb.Nq, BM, pb.B * pb.H), FLASH_FWD_GRID_Y(1, pb.B * pb.H));
	kern<<<grid, HOPPER_THREADS(1), smem, (cudaStream_t)a->stream>>>(tq, tk, tv, p);
	return cudaGetLastError();
}

template <typename T> static int quant(const hopper_fp8_params *a)
{
	const attn_problem &pb = a->pb;
	cudaStream_t st = (cudaStream_t)a->stream;
	QIn in;
	in.x[0] = a->q, in.x[1] = a->k, in.x[2] = a->v;
	in.n[0] = (size_t)pb.B * pb.H * pb.Nq * pb.d;
	in.n[1] = in.n[2] = (size_t)pb.B * pb.Hkv * pb.Nkv * pb.d;
	cudaError_t e = cudaMemsetAsync(a->amax, 0, 3 * sizeof(float), st);
	if (e != cudaSuccess)
		return e;
	if (a->incoherent) {
		amax_kernel<T><<<dim3(264, 1), 256, 0, st>>>(in, a->amax, 2); // V as it is
		auto rows = pb.d == 64 ? rows_kernel<T, 64> : rows_kernel<T, 128>;
		rows<<<dim3(264, 2), 256, 0, st>>>(in, (uint8_t *)a->q8, (uint8_t *)a->k8, a->amax, a->seed, 0);
		rows<<<dim3(264, 2), 256, 0, st>>>(in, (uint8_t *)a->q8, (uint8_t *)a->k8, a->amax, a->seed, 1);
	} else {
		amax_kernel<T><<<dim3(264, 3), 256, 0, st>>>(in, a->amax, 0);
		quant_kernel<T><<<dim3(264, 2), 256, 0, st>>>(in, (uint8_t *)a->q8, (uint8_t *)a->k8, a->amax);
	}
	const dim3 gv(HOPPER_FP8_VT_LEN(pb.Nkv) / 32, pb.B * pb.Hkv);
	if (pb.d == 64)
		vt_kernel<T, 64><<<gv, 256, 0, st>>>((const T *)a->v, (uint8_t *)a->vt8, pb.Nkv, a->amax);
	else
		vt_kernel<T, 128><<<gv, 256, 0, st>>>((const T *)a->v, (uint8_t *)a->vt8, pb.Nkv, a->amax);
	return cudaGetLastError();
}

template <int D, bool CAUSAL> static int info(hopper_kernel_info *out)
{
	cudaFuncAttributes fa;
	cudaError_t e = cudaFuncGetAttributes(&fa, hopper_fp8_kernel<D, CAUSAL, FP8_RUNG>);
	if (e != cudaSuccess)
		return e;
	out->threads = HOPPER_THREADS(1);
	out->block_m = BM;
	out->block_n = BN;
	out->stages = STAGES;
	out->regs = fa.numRegs;
	out->regs_producer = HOPPER_REGS_PRODUCER;
	out->regs_consumer = HOPPER_REGS_CONSUMER;
	out->smem_bytes = T8<D>::SMEM;
	out->local_bytes = (int)fa.localSizeBytes;
	return 0;
}

static bool takes(const hopper_fp8_params *a)
{
	static const int ds[] = HOPPER_FP8_HEAD_DIMS;
	bool d_ok = false;
	for (int d : ds)
		d_ok |= a && a->pb.d == d;
	return d_ok && a->pb.B >= 1 && a->pb.H >= 1 && a->pb.Hkv >= 1 && a->pb.H % a->pb.Hkv == 0 && a->pb.Nq >= 1 &&
	       a->pb.Nkv >= 1 && (a->dtype == HOPPER_FP16 || a->dtype == HOPPER_BF16) && a->q8 && a->k8 && a->vt8 &&
	       a->amax && a->o &&
	       !(((uintptr_t)a->q8 | (uintptr_t)a->k8 | (uintptr_t)a->vt8 | (uintptr_t)a->o) & 15);
}

} // namespace hopper8

extern "C" size_t hopper_fp8_vt_bytes(const struct attn_problem *pb)
{
	return (size_t)pb->B * pb->Hkv * pb->d * HOPPER_FP8_VT_LEN(pb->Nkv);
}

extern "C" int hopper_fp8_quant(const struct hopper_fp8_params *a)
{
	if (!hopper8::takes(a) || !a->q || !a->k || !a->v || (((uintptr_t)a->q | (uintptr_t)a->k | (uintptr_t)a->v) & 15))
		return cudaErrorInvalidValue;
	return a->dtype == HOPPER_BF16 ? hopper8::quant<__nv_bfloat16>(a) : hopper8::quant<__half>(a);
}

extern "C" int hopper_fp8_attn(const struct hopper_fp8_params *a)
{
	if (!hopper8::takes(a))
		return cudaErrorInvalidValue;
	if (a->pb.d == 64)
		return a->pb.causal ? hopper8::launch<64, true>(a) : hopper8::launch<64, false>(a);
	return a->pb.causal ? hopper8::launch<128, true>(a) : hopper8::launch<128, false>(a);
}

extern "C" int hopper_fp8_fwd(const struct hopper_fp8_params *a)
{
	int e = hopper_fp8_quant(a);
	return e ? e : hopper_fp8_attn(a);
}

extern "C" int hopper_fp8_info(int d, int causal, struct hopper_kernel_info *out)
{
	if (!out)
		return cudaErrorInvalidValue;
	if (d == 64)
		return causal ? hopper8::info<64, true>(out) : hopper8::info<64, false>(out);
	if (d == 128)
		return causal ? hopper8::info<128, true>(out) : hopper8::info<128, false>(out);
	return cudaErrorInvalidValue;
}
