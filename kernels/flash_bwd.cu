// flash_bwd.cu: the FlashAttention-2 backward pass (FA2 Algorithm 2).
//
//   bwd_dot_do_o    D = rowsum(dO ∘ O) (fp32), and the dQ accumulator zeroed
//   flash_bwd       grid (⌈Nkv/Bc⌉, B·Hkv): a block owns Bc keys of one KV
//                   head and walks the Q blocks of its G = H/Hkv query heads;
//                   S and P recomputed from Q, K and the forward's logsumexp
//                   L; dK, dV accumulate in registers; dQ += dS·K goes to the
//                   fp32 accumulator in HBM by reductions in the L2 (a bulk
//                   reduction per row from a shared tile; tiles.h)
//   bwd_convert_dq  dQ = acc · scale, rounded to fp16/bf16
//
// The main kernel follows FA2's warp layouts: S and dP are computed by
// 2 × 4 warps (32 queries × 32 keys each), P and dS go to shared memory,
// dV += Pᵀ·dO_i and dK += dSᵀ·Q_i are computed by 4 × 2 warps (32 keys ×
// d/2 columns each, accumulating in registers for the whole walk) and
// dQ_i = dS·K_j by 2 × 4 warps (32 queries × d/4 columns).  Every warp
// reads 32-row slices of both operands, so the ldmatrix traffic per tile
// pair is 144 loads per warp at d = 128, against 184 when each warp owns
// 16 keys through all five products (the first version of this kernel,
// 0.80–0.83× SDPA's backward on the H200; docs/benchmarks.md).
// Why atomics for dQ and not a separate pass: a dQ pass over K/V blocks per
// Q block would recompute S, P and dP (three more Br×Bc×d matmuls per tile
// pair on top of the five, 1.6× the tensor work) or store dS (N² memory).
// The atomics cost L2 traffic instead: Br·d fp32 per tile pair, about
// 2.5·Bc = 320 matmul FLOPs per byte, resolved in the L2.  FA2 makes the
// same choice (red.global.add per element); here the block's dQ_i tile
// leaves shared memory as one cp.reduce.async.bulk per row, which keeps
// the atomics' sources out of the registers (FLASH_BWD_DQ_BULK).
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
// k-loop unrolling (tiles.h); a pragma takes a constant, not a macro
constexpr int TN_UNROLL = FLASH_BWD_TN_UNROLL, DQ_UNROLL = FLASH_BWD_DQ_UNROLL;
constexpr bool DQ_BULK = FLASH_BWD_DQ_BULK;

// Shared memory, every tile 1024-byte aligned (the XOR addressing of
// flash::a_off/b_off needs bits 4..7 of a tile's base clear).  P and dS are
// [Br queries][Bc keys] tiles, swizzled rows of Bc.
template <int D> struct layout {
	static constexpr int BR = FLASH_BWD_BR(D);
	static constexpr int KB = BC * D * 2;   // K_j or V_j
	static constexpr int QB = BR * D * 2;   // Q_i or dO_i
	static constexpr int PB = BR * BC * 2;  // P_ij or dS_ij
	static constexpr int K = 0;
	static constexpr int V = K + KB;
	static constexpr int Q = V + KB;        // Q[2]
	static constexpr int DO = Q + 2 * QB;   // dO[2]
	static constexpr int P = DO + 2 * QB;
	static constexpr int DS = P + PB;
	static constexpr int L = DS + PB;          // L[2][Br]
	static constexpr int DD = L + 2 * BR * 4;  // D[2][Br]
	static constexpr int DQ = DD + 2 * BR * 4; // dQ_i fp32, FLASH_BWD_DQ_BULK only
	static constexpr int DQP = FLASH_BWD_DQ_PITCH(D);
	static constexpr int TOTAL = DQ + FLASH_BWD_DQ_BULK * BR * DQP;
	static_assert(TOTAL == FLASH_BWD_SMEM(D), "kernels/tiles.h FLASH_BWD_SMEM is the layout");
	static_assert(KB % 1024 == 0 && QB % 1024 == 0 && PB % 1024 == 0, "tile alignment");
	static_assert(BR == 64 && BC == 128, "the warp layouts below split 64 queries × 128 keys");
};

// Warp tiles of the five products (8 warps):
//   S = Q_i·K_jᵀ, dP = dO_i·V_jᵀ   2 × 4 warps: 32 queries × 32 keys each
//   dV += Pᵀ·dO_i, dK += dSᵀ·Q_i   4 × 2 warps: 32 keys × D/2 columns each
//   dQ_i = dS·K_j                  2 × 4 warps: 32 queries × D/4 columns each
// P and dS go through shared memory between them (FA2's layout): every
// warp then reads a 32-row slice of both operands instead of all of one,
// which cuts the ldmatrix traffic per tile pair by a fifth against warps
// that own 16 keys through all five products.
constexpr int SM_ = 2, SN_ = 4;  // S, dP: warps along queries × keys
constexpr int KM_ = 4, KN_ = 2;  // dK, dV: warps along keys × columns
constexpr int QM_ = 2, QN_ = 4;  // dQ: warps along queries × columns
static_assert(SM_ * SN_ == WARPS && KM_ * KN_ == WARPS && QM_ * QN_ == WARPS, "warp layouts");

// P = exp(scale·S − L) in place over the warp's 32 × 32 score fragment
// (rows: queries q0 + mi·16 + …; columns: keys k0 + ni·8 + …).  Masked
// elements (keys past Nkv, keys after a row's diagonal) become exactly 0
// (no −inf arithmetic: a row that sees no key has L = −inf, and every
// element of it is masked).  sL holds the block's Br logsumexps.
template <bool MASK>
__device__ __forceinline__ void probs(float (&s)[2][4][4], const float *sL, const bwd_params &sh, int qloc0,
				      int q0, int k0, int lane)
{
	const float L2E = 1.4426950408889634f;
	const int g = lane >> 2, t4 = lane & 3;
	const int off = sh.pb.Nkv - sh.pb.Nq;
#pragma unroll
	for (int mi = 0; mi < 2; mi++)
#pragma unroll
		for (int hh = 0; hh < 2; hh++) {
			const int rl = qloc0 + mi * 16 + g + 8 * hh;
			const float ls = sL[rl] * L2E;
			const int qg = q0 + mi * 16 + g + 8 * hh;
#pragma unroll
			for (int ni = 0; ni < 4; ni++)
#pragma unroll
				for (int e = 0; e < 2; e++) {
					float pe = ex2(fmaf(s[mi][ni][2 * hh + e], sh.pb.scale_log2, -ls));
					if (MASK) {
						const int kg = k0 + ni * 8 + 2 * t4 + e;
						if (kg >= sh.pb.Nkv || (sh.pb.causal && kg > qg + off))
							pe = 0.f;
					}
					s[mi][ni][2 * hh + e] = pe;
				}
		}
}

// A 32-row × NC-column fragment (two m16 tiles) to a swizzled [Br][Bc] tile, rounded to T.
template <typename T, int NC>
__device__ __forceinline__ void store_tile(unsigned char *tile, const float (&x)[2][NC][4], int r0, int c0, int lane)
{
	const int g = lane >> 2, t4 = lane & 3;
#pragma unroll
	for (int mi = 0; mi < 2; mi++)
#pragma unroll
		for (int ni = 0; ni < NC; ni++)
#pragma unroll
			for (int hh = 0; hh < 2; hh++)
				*reinterpret_cast<uint32_t *>(tile + swz<BC>(r0 + mi * 16 + g + 8 * hh, c0 + ni * 8 + 2 * t4)) =
					elem<T>::pack(x[mi][ni][2 * hh], x[mi][ni][2 * hh + 1]);
}

// acc[32 keys][NC columns] += Xᵀ·Y over the Br queries: X is a [Br][Bc]
// tile (P or dS, read transposed: A = Xᵀ rows k0.., b_off's row pattern),
// Y a [Br][D] tile (dO or Q, the B operand by ldmatrix.trans as V in the
// forward), columns n0.. of it.
template <typename T, int D, int NC>
__device__ __forceinline__ void gemm_tn(float (&acc)[2][NC][4], uint32_t sX, uint32_t sY, int k0, int n0, int lane)
{
	constexpr int BR = FLASH_BWD_BR(D);
	const uint32_t xa = opaque((sX + b_off<BC>(lane)) ^ (uint32_t)((k0 / 8) << 4));
	const uint32_t yb = opaque((sY + a_off<D>(lane)) ^ (uint32_t)((n0 / 8) << 4));
#pragma unroll TN_UNROLL
	for (int kc = 0; kc < BR / 16; kc++) {
		uint32_t a[2][4];
#pragma unroll
		for (int mi = 0; mi < 2; mi++)
			ldsm_x4_t(a[mi], (xa ^ (uint32_t)(mi << 5)) + kc * 16 * BC * 2);
#pragma unroll
		for (int dj = 0; dj < NC / 2; dj++) {
			uint32_t b[4];
			ldsm_x4_t(b, (yb ^ (uint32_t)(dj << 5)) + kc * 16 * D * 2);
#pragma unroll
			for (int mi = 0; mi < 2; mi++) {
				mma16816<T>(acc[mi][2 * dj], a[mi], b[0], b[1]);
				mma16816<T>(acc[mi][2 * dj + 1], a[mi], b[2], b[3]);
			}
		}
	}
}

template <typename T, int D>
__global__ void __launch_bounds__(THREADS, 1) flash_bwd(const __grid_constant__ bwd_params p)
{
	using SL = layout<D>;
	constexpr int BR = SL::BR;
	constexpr int KNC = D / KN_ / 8, QNC = D / QN_ / 8; // n8 tiles per warp: dK/dV, dQ
	extern __shared__ __align__(1024) unsigned char smem[];
	const uint32_t sb = smem_u32(smem);
	const int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31;
	const int g = lane >> 2, t4 = lane & 3;
	const bwd_params &sh = p;

	// Key blocks along x (as FA2): the blocks resident at once are the key
	// blocks of a few heads, which walk the same Q_i, dO_i and dQ_acc rows
	// in the same order, so those come from the L2 rather than DRAM.
	const int c0 = blockIdx.x * BC;             // first key of the block
	const int bhk = blockIdx.y;                 // b·Hkv + KV head
	const int b = bhk / p.pb.Hkv, kvh = bhk % p.pb.Hkv, G = p.pb.H / p.pb.Hkv;
	const int off = p.pb.Nkv - p.pb.Nq;               // causal: row r sees keys c <= r + off
	const size_t kvbase = (size_t)bhk * p.pb.Nkv * D;
	const int sq0 = (warp % SM_) * 32, sk0 = (warp / SM_) * 32;         // S, dP tile
	const int kk0 = (warp % KM_) * 32, kn0 = (warp / KM_) * (D / KN_);  // dK, dV tile
	const int qq0 = (warp % QM_) * 32, qn0 = (warp / QM_) * (D / QN_);  // dQ tile

	// Q blocks with a row that sees some key of this block.
	const int nqb = (p.pb.Nq + BR - 1) / BR;
	int i0 = 0;
	if (p.pb.causal) {
		const int r0 = c0 - off; // first row that sees key c0
		i0 = r0 <= 0 ? 0 : (r0 >= p.pb.Nq ? nqb : r0 / BR);
	}
	const int items = G * (nqb - i0); // the query heads' Q blocks i0.., head by head

	// An item is (query head hq of the group, Q block qb), stepped by
	// next_item: no integer division per item (a division by a runtime
	// count costs ~20 instructions and a MUFU, and its registers collided
	// with the pending dQ atomics' in ncu's stall sampling, 2026-12-01).
	auto head_of = [&](int hq) { return (size_t)b * p.pb.H + (size_t)kvh * G + hq; };
	auto next_item = [&](int &qb, int &hq) {
		if (++qb == nqb) {
			qb = i0;
			hq++;
		}
	};
	auto load_item = [&](int qb, int hq, int buf) {
		const size_t bh = head_of(hq);
		load_tile<BR, D, THREADS>(sb + SL::Q + buf * SL::QB, p.q + bh * p.pb.Nq * D, qb * BR, p.pb.Nq, tid);
		load_tile<BR, D, THREADS>(sb + SL::DO + buf * SL::QB, p.dout + bh * p.pb.Nq * D, qb * BR, p.pb.Nq, tid);
		if (tid < 2 * BR) { // L_i, then D_i; rows past Nq read as 0 (Q, dO rows are 0 there too)
			const int r = tid % BR, row = qb * BR + r;
			const bool ok = row < p.pb.Nq, isd = tid >= BR;
			const float *src = (isd ? p.dsum : p.lse) + bh * p.pb.Nq + (ok ? row : 0);
			cp_async4(sb + (isd ? SL::DD : SL::L) + buf * BR * 4 + r * 4, src, ok ? 4 : 0);
		}
	};

	load_tile<BC, D, THREADS>(sb + SL::K, p.k + kvbase, c0, p.pb.Nkv, tid);
	load_tile<BC, D, THREADS>(sb + SL::V, p.v + kvbase, c0, p.pb.Nkv, tid);
	if (items > 0)
		load_item(i0, 0, 0);
	cp_async_commit();

	float dk[2][KNC][4], dv[2][KNC][4];
#pragma unroll
	for (int mi = 0; mi < 2; mi++)
#pragma unroll
		for (int nt = 0; nt < KNC; nt++)
#pragma unroll
			for (int e = 0; e < 4; e++)
				dk[mi][nt][e] = dv[mi][nt][e] = 0.f;

	// FLASH_BWD_DQ_BULK: the dQ tile of item (qb, hq) is in shared memory
	// (every thread fenced its stores, then a barrier): one bulk reduction
	// per valid row, 8 rows per warp, by lanes 0..7.
	auto reduce_dq = [&](int qb, int hq) {
		const int r = warp * (BR / WARPS) + lane, row = qb * BR + r;
		if (lane < BR / WARPS && row < p.pb.Nq) {
			bulk_reduce_add_f32(p.dq_acc + (head_of(hq) * p.pb.Nq + row) * D, sb + SL::DQ + r * SL::DQP, D * 4);
			bulk_commit();
		}
	};
	static_assert(!DQ_BULK || BR % WARPS == 0 && BR / WARPS <= 32, "dQ rows per warp");

	int qb = i0, hq = 0; // the item in hand
	int pqb = 0, phq = 0; // the item before it (its dQ tile, FLASH_BWD_DQ_BULK)
	for (int it = 0; it < items; it++) {
		const int buf = it & 1;
		cp_async_wait<0>();
		__syncthreads(); // item it landed; every warp is done with item it-1 (its buffers, P, dS, dQ tile)
		if (DQ_BULK && it > 0)
			reduce_dq(pqb, phq);
		if (it + 1 < items) {
			int next_qb = qb, next_hq = hq;
			next_item(next_qb, next_hq);
			load_item(next_qb, next_hq, buf ^ 1);
		}
		cp_async_commit();
		const uint32_t sQ = sb + SL::Q + buf * SL::QB, sdO = sb + SL::DO + buf * SL::QB;
		const float *sL = reinterpret_cast<const float *>(smem + SL::L) + buf * BR;
		const float *sD = reinterpret_cast<const float *>(smem + SL::DD) + buf * BR;

		// S = Q_i·K_jᵀ → P; dP = dO_i·V_jᵀ; dS = P ∘ (dP − D); both to shared memory
		{
			float s[2][4][4], dp[2][4][4];
			flash::qk<T, D, 2, 4, FLASH_BWD_QK_UNROLL>(s, sQ, sb + SL::K, sq0, sk0, lane);
			if (c0 + BC > p.pb.Nkv || (p.pb.causal && c0 + BC - 1 > qb * BR + off))
				probs<true>(s, sL, sh, sq0, qb * BR + sq0, c0 + sk0, lane);
			else
				probs<false>(s, sL, sh, sq0, qb * BR + sq0, c0 + sk0, lane);
			store_tile<T, 4>(smem + SL::P, s, sq0, sk0, lane);
			flash::qk<T, D, 2, 4, FLASH_BWD_QK_UNROLL>(dp, sdO, sb + SL::V, sq0, sk0, lane);
#pragma unroll
			for (int mi = 0; mi < 2; mi++)
#pragma unroll
				for (int hh = 0; hh < 2; hh++) {
					const float dd = sD[sq0 + mi * 16 + g + 8 * hh];
#pragma unroll
					for (int ni = 0; ni < 4; ni++)
#pragma unroll
						for (int e = 0; e < 2; e++)
							s[mi][ni][2 * hh + e] *= dp[mi][ni][2 * hh + e] - dd;
				}
			store_tile<T, 4>(smem + SL::DS, s, sq0, sk0, lane);
		}
		if (DQ_BULK)
			bulk_wait_read(); // item it-1's reductions have read the dQ tile
		__syncthreads(); // all of P and dS written (and the dQ tile free)

		// dV, dK, then dQ: FA2's order (dQ and its atomic adds before dK)
		// was 3–4 % slower here (H200, 2026-12-01, docs/benchmarks.md)
		gemm_tn<T, D, KNC>(dv, sb + SL::P, sdO, kk0, kn0, lane);
		gemm_tn<T, D, KNC>(dk, sb + SL::DS, sQ, kk0, kn0, lane);

		// dQ_i += dS·K_j (A = dS rows, B = K_j by ldmatrix.trans), to the fp32 accumulator
		{
			float acc[2][QNC][4];
#pragma unroll
			for (int mi = 0; mi < 2; mi++)
#pragma unroll
				for (int nt = 0; nt < QNC; nt++)
#pragma unroll
					for (int e = 0; e < 4; e++)
						acc[mi][nt][e] = 0.f;
			const uint32_t aS = opaque(sb + SL::DS + qq0 * BC * 2 + a_off<BC>(lane));
			const uint32_t bK = opaque((sb + SL::K + a_off<D>(lane)) ^ (uint32_t)((qn0 / 8) << 4));
#pragma unroll DQ_UNROLL
			for (int kk = 0; kk < BC / 16; kk++) {
				uint32_t a[2][4];
#pragma unroll
				for (int mi = 0; mi < 2; mi++)
					ldsm_x4(a[mi], (aS ^ (uint32_t)(kk << 5)) + mi * 16 * BC * 2);
#pragma unroll
				for (int dj = 0; dj < QNC / 2; dj++) {
					uint32_t bb[4];
					ldsm_x4_t(bb, (bK ^ (uint32_t)(dj << 5)) + kk * 16 * D * 2);
#pragma unroll
					for (int mi = 0; mi < 2; mi++) {
						mma16816<T>(acc[mi][2 * dj], a[mi], bb[0], bb[1]);
						mma16816<T>(acc[mi][2 * dj + 1], a[mi], bb[2], bb[3]);
					}
				}
			}
			if (DQ_BULK) {
				// to the dQ tile; the reductions leave after the next barrier
				unsigned char *t = smem + SL::DQ + (qq0 + g) * SL::DQP + (qn0 + 2 * t4) * 4;
#pragma unroll
				for (int mi = 0; mi < 2; mi++)
#pragma unroll
					for (int hh = 0; hh < 2; hh++)
#pragma unroll
						for (int nt = 0; nt < QNC; nt++)
							*reinterpret_cast<float2 *>(t + (mi * 16 + 8 * hh) * SL::DQP + nt * 32) =
								make_float2(acc[mi][nt][2 * hh], acc[mi][nt][2 * hh + 1]);
				fence_proxy_async();
			} else {
				// One base address, the 16 adds at constant offsets from it: an
				// address computed between the adds reused a register an
				// earlier add was still to read, and waited for it (ncu's long
				// scoreboard stalls, 10 % of flash_bwd's samples, 2026-12-01).
				const int row0 = qb * BR + qq0 + g;
				float *dqr = p.dq_acc + head_of(hq) * p.pb.Nq * D + (size_t)row0 * D + qn0 + 2 * t4;
#pragma unroll
				for (int mi = 0; mi < 2; mi++)
#pragma unroll
					for (int hh = 0; hh < 2; hh++)
						if (row0 + mi * 16 + 8 * hh < p.pb.Nq)
#pragma unroll
							for (int nt = 0; nt < QNC; nt++)
								atomicAdd(reinterpret_cast<float2 *>(dqr + (mi * 16 + 8 * hh) * D + nt * 8),
									  make_float2(acc[mi][nt][2 * hh], acc[mi][nt][2 * hh + 1]));
			}
		}
		pqb = qb;
		phq = hq;
		next_item(qb, hq);
	}
	cp_async_wait<0>();
	if (DQ_BULK && items > 0) {
		__syncthreads(); // the last item's dQ tile written and fenced
		reduce_dq(pqb, phq);
		bulk_wait(); // done before the kernel ends (bwd_convert_dq reads the accumulator next)
	}

	// dK = scale · Σ dSᵀ·Q, dV = Σ Pᵀ·dO for the warp's 32 keys × D/2 columns.
#pragma unroll
	for (int mi = 0; mi < 2; mi++)
#pragma unroll
		for (int hh = 0; hh < 2; hh++) {
			const int key = c0 + kk0 + mi * 16 + g + 8 * hh;
			if (key < p.pb.Nkv) {
				uint32_t *dkr = reinterpret_cast<uint32_t *>(p.dk + kvbase + (size_t)key * D + kn0 + 2 * t4);
				uint32_t *dvr = reinterpret_cast<uint32_t *>(p.dv + kvbase + (size_t)key * D + kn0 + 2 * t4);
#pragma unroll
				for (int nt = 0; nt < KNC; nt++) {
					dkr[nt * 4] = elem<T>::pack(dk[mi][nt][2 * hh] * p.pb.scale, dk[mi][nt][2 * hh + 1] * p.pb.scale);
					dvr[nt * 4] = elem<T>::pack(dv[mi][nt][2 * hh], dv[mi][nt][2 * hh + 1]);
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
	if (row >= (size_t)p.pb.B * p.pb.H * p.pb.Nq)
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
	const size_t rows = (size_t)p.pb.B * p.pb.H * p.pb.Nq;
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
	kern<<<dim3((p.pb.Nkv + BC - 1) / BC, p.pb.B * p.pb.Hkv), THREADS, SMEM, st>>>(p);
	if ((e = cudaGetLastError()) == cudaSuccess)
		e = l2_flush_launch(flush, st);
	if (e != cudaSuccess)
		return e;
	const size_t n4 = rows * D / 4;
	size_t blocks = (n4 + 255) / 256;
	if (blocks > (1u << 20))
		blocks = 1u << 20;
	bwd_convert_dq<T><<<(unsigned)blocks, 256, 0, st>>>(reinterpret_cast<const float4 *>(p.dq_acc),
								reinterpret_cast<uint2 *>(p.dq), n4, p.pb.scale);
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
