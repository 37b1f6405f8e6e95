// flash_bwd.cu: the FlashAttention-2 backward pass (FA2 Algorithm 2).
//
//   bwd_dot_do_o    D = rowsum(dO ∘ O) (fp32), and the dQ accumulator zeroed
//   flash_bwd       grid (B·Hkv, ⌈Nkv/Bc⌉): a block owns Bc keys of one KV
//                   head and walks the Q blocks of its G = H/Hkv query heads;
//                   S and P recomputed from Q, K and the forward's logsumexp
//                   L; dK, dV accumulate in registers; dQ += dS·K goes to the
//                   fp32 accumulator in HBM by atomic adds
//   bwd_convert_dq  dQ = acc · scale, rounded to fp16/bf16
//
// The main kernel works on transposed tiles so that the forward's helpers
// apply unchanged: each of the 8 warps owns 16 keys and computes
// Sᵀ = K_j·Q_iᵀ and dPᵀ = V_j·dO_iᵀ with flash::qk (A = its K or V rows,
// B = Q_i or dO_i rows), then dV += Pᵀ·dO_i and dK += dSᵀ·Q_i with
// flash::pv (the accumulator layout of Pᵀ, dSᵀ is the A layout of the next
// mma; dO_i, Q_i are the B operand read with ldmatrix.trans, as V is in the
// forward).  dQ_i = dS·K_j needs dS with queries as rows: dSᵀ goes through
// shared memory (one store per element, conflict-free in the swizzled
// layout) and is read back with ldmatrix.trans as the A operand.
//
// Why atomics for dQ and not a separate pass: a dQ pass over K/V blocks per
// Q block would recompute S, P and dP (three more Br×Bc×d matmuls per tile
// pair on top of the five, 1.6× the tensor work) or store dS (N² memory).
// The atomics cost L2 traffic instead: Br·d fp32 per tile pair, about
// 2.5·Bc = 320 matmul FLOPs per byte, resolved in the L2 (red.global.add
// on float2, sm_90).  FA2 makes the same choice.
#include <math.h>

#include "flash.cuh"
#include "tiles.h"

// Not "flash_bwd": descriptors match kernels by a substring of the
// demangled name, and a namespace of that name would put "flash_bwd" into
// every kernel's name here (variants.c matches flash_bwd, bwd_dot_do_o,
// bwd_convert_dq, one kernel each).
namespace backward {

using flash::a_off;
using flash::b_off;
using flash::ex2;
using flash::opaque;

constexpr int WARPS = FLASH_BWD_WARPS;
constexpr int THREADS = WARPS * 32;
constexpr int BC = FLASH_BWD_BC;
static_assert(BC == WARPS * 16, "each warp owns 16 keys of the block");

// Shared memory, every tile 1024-byte aligned (the XOR addressing of
// flash::a_off/b_off needs bits 4..7 of a tile's base clear).
template <int D> struct layout {
	static constexpr int BR = FLASH_BWD_BR(D);
	static constexpr int KB = BC * D * 2;   // K_j or V_j
	static constexpr int QB = BR * D * 2;   // Q_i or dO_i
	static constexpr int K = 0;
	static constexpr int V = K + KB;
	static constexpr int Q = V + KB;        // Q[2]
	static constexpr int DO = Q + 2 * QB;   // dO[2]
	static constexpr int DS = DO + 2 * QB;  // dSᵀ [Bc][Br], swizzled rows of Br
	static constexpr int L = DS + BC * BR * 2; // L[2][Br]
	static constexpr int DD = L + 2 * BR * 4;  // D[2][Br]
	static constexpr int TOTAL = DD + 2 * BR * 4;
	static_assert(TOTAL == FLASH_BWD_SMEM(D), "kernels/tiles.h FLASH_BWD_SMEM is the layout");
	static_assert(KB % 1024 == 0 && QB % 1024 == 0 && (BC * BR * 2) % 1024 == 0, "tile alignment");
	static_assert(BR >= 64 && BR % 16 == 0, "dSᵀ rows use the 8-chunk swizzle");
};

// Pᵀ = exp(scale·S − L) in place over the warp's Sᵀ fragment (rows: its 16
// keys; columns: the Br queries).  Masked elements (keys past Nkv, keys after
// a row's diagonal) become exactly 0 (no −inf arithmetic: a row that sees no
// key has L = −inf, and every element of it is masked).
template <bool MASK, int NT>
__device__ __forceinline__ void probs(float (&s)[1][NT][4], const float *sL, const bwd_params &sh,
				      int key0, int q0, int lane)
{
	const float L2E = 1.4426950408889634f;
	const int g = lane >> 2, t4 = lane & 3;
	const int off = sh.Nkv - sh.Nq;
#pragma unroll
	for (int ni = 0; ni < NT; ni++) {
		const float2 l = *reinterpret_cast<const float2 *>(sL + ni * 8 + 2 * t4);
#pragma unroll
		for (int e = 0; e < 4; e++) {
			const float lv = (e & 1) ? l.y : l.x;
			float pe = ex2(fmaf(s[0][ni][e], sh.scale_log2, -lv * L2E));
			if (MASK) {
				const int kg = key0 + g + (e >> 1) * 8;
				const int qg = q0 + ni * 8 + 2 * t4 + (e & 1);
				if (kg >= sh.Nkv || (sh.causal && kg > qg + off))
					pe = 0.f;
			}
			s[0][ni][e] = pe;
		}
	}
}

template <typename T, int D>
__global__ void __launch_bounds__(THREADS, 1) flash_bwd(const __grid_constant__ bwd_params p)
{
	using SL = layout<D>;
	constexpr int BR = SL::BR, NT = BR / 8;
	extern __shared__ __align__(1024) unsigned char smem[];
	const uint32_t sb = smem_u32(smem);
	const int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31;
	const int g = lane >> 2, t4 = lane & 3;
	const bwd_params &sh = p;

	const int bhk = blockIdx.x;                 // b·Hkv + KV head
	const int c0 = blockIdx.y * BC;             // first key of the block
	const int b = bhk / p.Hkv, kvh = bhk % p.Hkv, G = p.H / p.Hkv;
	const int off = p.Nkv - p.Nq;               // causal: row r sees keys c <= r + off
	const size_t kvbase = (size_t)bhk * p.Nkv * D;
	const int kr0 = warp * 16;                  // the warp's first key in the block

	// Q blocks with a row that sees some key of this block.
	const int nqb = (p.Nq + BR - 1) / BR;
	int i0 = 0;
	if (p.causal) {
		const int r0 = c0 - off; // first row that sees key c0
		i0 = r0 <= 0 ? 0 : (r0 >= p.Nq ? nqb : r0 / BR);
	}
	const int per = nqb - i0, items = G * per; // item it: query head it / per, Q block i0 + it % per

	auto head_of = [&](int it) { return (size_t)b * p.H + (size_t)kvh * G + it / per; };
	auto load_item = [&](int it, int buf) {
		const int qb = i0 + it % per;
		const size_t bh = head_of(it);
		load_tile<BR, D, THREADS>(sb + SL::Q + buf * SL::QB, p.q + bh * p.Nq * D, qb * BR, p.Nq, tid);
		load_tile<BR, D, THREADS>(sb + SL::DO + buf * SL::QB, p.dout + bh * p.Nq * D, qb * BR, p.Nq, tid);
		if (tid < 2 * BR) { // L_i, then D_i; rows past Nq read as 0 (Q, dO rows are 0 there too)
			const int r = tid % BR, row = qb * BR + r;
			const bool ok = row < p.Nq, isd = tid >= BR;
			const float *src = (isd ? p.dsum : p.lse) + bh * p.Nq + (ok ? row : 0);
			cp_async4(sb + (isd ? SL::DD : SL::L) + buf * BR * 4 + r * 4, src, ok ? 4 : 0);
		}
	};

	load_tile<BC, D, THREADS>(sb + SL::K, p.k + kvbase, c0, p.Nkv, tid);
	load_tile<BC, D, THREADS>(sb + SL::V, p.v + kvbase, c0, p.Nkv, tid);
	if (items > 0)
		load_item(0, 0);
	cp_async_commit();

	float dk[1][D / 8][4], dv[1][D / 8][4];
#pragma unroll
	for (int dt = 0; dt < D / 8; dt++)
#pragma unroll
		for (int e = 0; e < 4; e++)
			dk[0][dt][e] = dv[0][dt][e] = 0.f;

	for (int it = 0; it < items; it++) {
		const int buf = it & 1, qb = i0 + it % per;
		cp_async_wait<0>();
		__syncthreads(); // item it landed; every warp is done with item it-1 (its buffers, dSᵀ)
		if (it + 1 < items)
			load_item(it + 1, buf ^ 1);
		cp_async_commit();
		const uint32_t sQ = sb + SL::Q + buf * SL::QB, sdO = sb + SL::DO + buf * SL::QB;
		const float *sL = reinterpret_cast<const float *>(smem + SL::L) + buf * BR;
		const float *sD = reinterpret_cast<const float *>(smem + SL::DD) + buf * BR;

		// Sᵀ = K_j·Q_iᵀ → Pᵀ; dV += Pᵀ·dO_i
		float s[1][NT][4];
		flash::qk<T, D, 1, NT>(s, sb + SL::K, sQ, kr0, 0, lane);
		if (c0 + BC > p.Nkv || (p.causal && c0 + BC - 1 > qb * BR + off))
			probs<true, NT>(s, sL, sh, c0 + kr0, qb * BR, lane);
		else
			probs<false, NT>(s, sL, sh, c0 + kr0, qb * BR, lane);
		flash::pv<T, D, 1, NT>(dv, s, sdO, 0, lane);

		// dPᵀ = V_j·dO_iᵀ; dSᵀ = Pᵀ ∘ (dPᵀ − D); dK += dSᵀ·Q_i
		{
			float dp[1][NT][4];
			flash::qk<T, D, 1, NT>(dp, sb + SL::V, sdO, kr0, 0, lane);
#pragma unroll
			for (int ni = 0; ni < NT; ni++) {
				const float2 dd = *reinterpret_cast<const float2 *>(sD + ni * 8 + 2 * t4);
#pragma unroll
				for (int e = 0; e < 4; e++)
					s[0][ni][e] *= dp[0][ni][e] - ((e & 1) ? dd.y : dd.x);
			}
		}
		flash::pv<T, D, 1, NT>(dk, s, sQ, 0, lane);

		// dSᵀ (rounded to T) to shared memory: row = key, column = query.
#pragma unroll
		for (int ni = 0; ni < NT; ni++)
#pragma unroll
			for (int hh = 0; hh < 2; hh++)
				*reinterpret_cast<uint32_t *>(smem + SL::DS + swz<BR>(kr0 + g + 8 * hh, ni * 8 + 2 * t4)) =
					elem<T>::pack(s[0][ni][2 * hh], s[0][ni][2 * hh + 1]);
		__syncthreads(); // all of dSᵀ written

		// dQ_i += dS·K_j: warp (qm, dn) owns query rows qm·16.. and d columns dn·DQC..
		{
			constexpr int MQ = BR / 16, NQW = WARPS / MQ, DQC = D / NQW;
			static_assert(WARPS % MQ == 0 && DQC % 16 == 0, "dQ tile split among the warps");
			const int qm = warp % MQ, dn = warp / MQ;
			float acc[DQC / 8][4];
#pragma unroll
			for (int nt = 0; nt < DQC / 8; nt++)
#pragma unroll
				for (int e = 0; e < 4; e++)
					acc[nt][e] = 0.f;
			// A = dS (queries × keys) from dSᵀ by ldmatrix.trans: lane rows are
			// keys (b_off's pattern), the query offset qm·16 is an XOR.
			const uint32_t aS = opaque((sb + SL::DS + b_off<BR>(lane)) ^ (uint32_t)(qm << 5));
			const uint32_t bK = opaque(sb + SL::K + a_off<D>(lane));
#pragma unroll
			for (int kk = 0; kk < BC / 16; kk++) {
				uint32_t a[4];
				ldsm_x4_t(a, aS + kk * 16 * BR * 2);
#pragma unroll
				for (int dj = 0; dj < DQC / 16; dj++) {
					uint32_t bb[4];
					ldsm_x4_t(bb, (bK ^ (uint32_t)((dn * (DQC / 16) + dj) << 5)) + kk * 16 * D * 2);
					mma16816<T>(acc[2 * dj], a, bb[0], bb[1]);
					mma16816<T>(acc[2 * dj + 1], a, bb[2], bb[3]);
				}
			}
			float *dqa = p.dq_acc + head_of(it) * p.Nq * D;
#pragma unroll
			for (int hh = 0; hh < 2; hh++) {
				const int row = qb * BR + qm * 16 + g + 8 * hh;
				if (row < p.Nq)
#pragma unroll
					for (int nt = 0; nt < DQC / 8; nt++)
						atomicAdd(reinterpret_cast<float2 *>(dqa + (size_t)row * D + dn * DQC + nt * 8 + 2 * t4),
							  make_float2(acc[nt][2 * hh], acc[nt][2 * hh + 1]));
			}
		}
	}
	cp_async_wait<0>();

	// dK = scale · Σ dSᵀ·Q, dV = Σ Pᵀ·dO for the warp's 16 keys.
#pragma unroll
	for (int hh = 0; hh < 2; hh++) {
		const int key = c0 + kr0 + g + 8 * hh;
		if (key < p.Nkv) {
			uint32_t *dkr = reinterpret_cast<uint32_t *>(p.dk + kvbase + (size_t)key * D + 2 * t4);
			uint32_t *dvr = reinterpret_cast<uint32_t *>(p.dv + kvbase + (size_t)key * D + 2 * t4);
#pragma unroll
			for (int dt = 0; dt < D / 8; dt++) {
				dkr[dt * 4] = elem<T>::pack(dk[0][dt][2 * hh] * p.scale, dk[0][dt][2 * hh + 1] * p.scale);
				dvr[dt * 4] = elem<T>::pack(dv[0][dt][2 * hh], dv[0][dt][2 * hh + 1]);
			}
		}
	}
}

// D = rowsum(dO ∘ O) in fp32, one warp per row, and the row of the dQ
// accumulator zeroed (the main kernel only adds to it).
template <typename T, int D>
__global__ void __launch_bounds__(BWD_ROW_WARPS * 32) bwd_dot_do_o(const __grid_constant__ bwd_params p)
{
	constexpr int PER = D / 32; // 2 or 4 elements per lane
	const int lane = threadIdx.x & 31;
	const size_t row = (size_t)blockIdx.x * BWD_ROW_WARPS + (threadIdx.x >> 5);
	if (row >= (size_t)p.B * p.H * p.Nq)
		return;
	const T *o = reinterpret_cast<const T *>(p.o) + row * D + lane * PER;
	const T *d = reinterpret_cast<const T *>(p.dout) + row * D + lane * PER;
	float sum = 0.f;
#pragma unroll
	for (int i = 0; i < PER; i++)
		sum += elem<T>::to_f(o[i]) * elem<T>::to_f(d[i]);
#pragma unroll
	for (int x = 16; x > 0; x >>= 1)
		sum += __shfl_xor_sync(0xffffffffu, sum, x);
	if (lane == 0)
		p.dsum[row] = sum;
	float4 *a = reinterpret_cast<float4 *>(p.dq_acc + row * D);
	for (int i = lane; i < D / 4; i += 32)
		a[i] = make_float4(0.f, 0.f, 0.f, 0.f);
}

// dQ = acc · scale, four elements per thread and step.
template <typename T>
__global__ void __launch_bounds__(256) bwd_convert_dq(const float4 *__restrict__ acc, uint2 *__restrict__ dq,
						      size_t n4, float scale)
{
	for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += (size_t)gridDim.x * blockDim.x) {
		const float4 v = acc[i];
		dq[i] = make_uint2(elem<T>::pack(v.x * scale, v.y * scale), elem<T>::pack(v.z * scale, v.w * scale));
	}
}

template <typename T, int D>
cudaError_t launch(const bwd_params &p, cudaStream_t st, const struct l2_flush *flush)
{
	constexpr int SMEM = layout<D>::TOTAL;
	static_assert(SMEM <= 227 * 1024, "shared memory over the sm_90 limit");
	const size_t rows = (size_t)p.B * p.H * p.Nq;
	bwd_dot_do_o<T, D><<<(unsigned)((rows + BWD_ROW_WARPS - 1) / BWD_ROW_WARPS), BWD_ROW_WARPS * 32, 0, st>>>(p);
	cudaError_t e = cudaGetLastError();
	if (e == cudaSuccess)
		e = l2_flush_launch(flush, st);
	if (e != cudaSuccess)
		return e;
	auto kern = flash_bwd<T, D>;
	static bool attr_set;
	if (!attr_set) {
		if ((e = cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, SMEM)) != cudaSuccess)
			return e;
		attr_set = true;
	}
	kern<<<dim3(p.B * p.Hkv, (p.Nkv + BC - 1) / BC), THREADS, SMEM, st>>>(p);
	if ((e = cudaGetLastError()) == cudaSuccess)
		e = l2_flush_launch(flush, st);
	if (e != cudaSuccess)
		return e;
	const size_t n4 = rows * D / 4;
	size_t blocks = (n4 + 255) / 256;
	if (blocks > (1u << 20))
		blocks = 1u << 20;
	bwd_convert_dq<T><<<(unsigned)blocks, 256, 0, st>>>(reinterpret_cast<const float4 *>(p.dq_acc),
								reinterpret_cast<uint2 *>(p.dq), n4, p.scale);
	return cudaGetLastError();
}

} // namespace backward

cudaError_t flash2_bwd_launch(const bwd_params &p, enum dtype t, int d, cudaStream_t st, const struct l2_flush *flush)
{
	if (t == DTYPE_FP16)
		return d == 64 ? backward::launch<__half, 64>(p, st, flush) : backward::launch<__half, 128>(p, st, flush);
	return d == 64 ? backward::launch<__nv_bfloat16, 64>(p, st, flush)
		       : backward::launch<__nv_bfloat16, 128>(p, st, flush);
}

int flash2_bwd_regs(enum dtype t, int d)
{
	cudaFuncAttributes a;
	cudaError_t e;
	if (t == DTYPE_FP16)
		e = d == 64 ? cudaFuncGetAttributes(&a, backward::flash_bwd<__half, 64>)
			    : cudaFuncGetAttributes(&a, backward::flash_bwd<__half, 128>);
	else
		e = d == 64 ? cudaFuncGetAttributes(&a, backward::flash_bwd<__nv_bfloat16, 64>)
			    : cudaFuncGetAttributes(&a, backward::flash_bwd<__nv_bfloat16, 128>);
	return e == cudaSuccess ? a.numRegs : -1;
}
