// hopper_bwd.cu: the Hopper-native (sm_90a) attention backward, rung 0
// "+wgmma" of issue 49 (hopper_bwd.h: interface, tiling).  Build:
// tools/hopper-build.sh.  Design: kernels/hopper/README.md, "Backward".
//
// A CTA owns BN = 128 keys of one KV head: two warpgroups of 64 keys each
// (wgmma's M).  It walks the query blocks of BM = 64 rows of every query head
// of that KV head (causal: from the first block that sees one of its keys).
// Per block, each warpgroup computes on its 64 keys:
//   Sᵀ  = K·Qᵀ          wgmma m64n64k16, A = K and B = Q from shared memory,
//                       both K-major (the forward's Q·Kᵀ form)
//   dPᵀ = V·dOᵀ         the same form
//   Pᵀ  = exp(scale·Sᵀ − lse), dSᵀ = Pᵀ∘(dPᵀ − D)   in registers (masked: padded
//                       keys and rows, the causal diagonal)
//   dV += Pᵀ·dO         wgmma m64n{d}k16, A = Pᵀ from registers (the
//                       accumulator layout is wgmma's A layout), B = dO from
//                       shared memory, MN-major (transposed by the descriptor,
//                       as the forward's V)
//   dK += dSᵀ·Q         the same form
//   dQ += dS·K          dSᵀ stored transposed (dS, K-major, 128-byte swizzle)
//                       to shared memory; wgmma m64n64k16 per 64 columns of
//                       d, A = dS and B = K (MN-major) from shared memory;
//                       the warpgroup's share over its 64 keys added to the
//                       fp32 workspace by atomics (red.global.add.f32)
// K and V arrive once by TMA; Q and dO by TMA into two stages, the next
// block's issued by thread 0 while this one computes; the block's lse and D
// go to shared memory one block ahead.  Every GEMM is waited at once.
#include <cuda.h>
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <math.h>
#include <stdint.h>
#include <type_traits>

#include "hopper_bwd.h"
#include "wgmma_ops.cuh"
#include "hopper_ptx.cuh"

namespace hopper {
namespace bwd {

constexpr int BN = HOPPER_BWD_BLOCK_N; // keys per CTA
constexpr int BM = HOPPER_BWD_BLOCK_M; // query rows per step
static_assert(BN == 128 && BM == 64 && HOPPER_BWD_THREADS == 256, "two warpgroups of 64 keys, 64-row query blocks");

template <int D> struct Tiles {
	static constexpr int KB = BN * D * 2;  // K or V
	static constexpr int QB = BM * D * 2;  // one stage of Q or dO
	static constexpr int DSB = BM * BN * 2; // dS [BM queries][BN keys], two 64-key boxes
	static constexpr int OFF_V = KB;
	static constexpr int OFF_Q = 2 * KB;
	static constexpr int OFF_DO = OFF_Q + 2 * QB;
	static constexpr int OFF_DS = OFF_DO + 2 * QB;
	static constexpr int OFF_LD = OFF_DS + DSB; // float lse2[2][BM], dsum[2][BM]
	static constexpr int OFF_BAR = OFF_LD + 2 * 2 * BM * 4;
	static constexpr int SMEM = OFF_BAR + 64 + 1024;
	static_assert(SMEM == HOPPER_BWD_SMEM(D), "hopper_bwd.h's HOPPER_BWD_SMEM is this layout");
	static_assert(SMEM <= 227 * 1024, "shared memory over the sm_90 limit");
};

struct KParams {
	void *dk, *dv;
	float *dq_acc;
	const float *lse, *dsum;
	int Nq, Nkv, H, Hkv, hgroup, nqb, off; // off = Nkv - Nq (causal diagonal)
	int BH;                               // B·H: the partial dQ's slot stride in tiles (deterministic)
	float scale, sl2;                     // scale and scale·log2(e)
};

template <bool BF> struct Ops;
template <> struct Ops<false> {
	using T = __half;
	__device__ static void ss(float (&d)[32], uint64_t a, uint64_t b, int sc) { wgmma_ss_m64n64k16_f16(d, a, b, sc); }
	__device__ static void sst(float (&d)[32], uint64_t a, uint64_t b, int sc) { wgmma_sst_m64n64k16_f16(d, a, b, sc); }
	__device__ static void rs(float (&d)[64], const uint32_t (&a)[4], uint64_t b) { wgmma_rs_m64n128k16_f16(d, a, b, 1); }
	__device__ static void rs(float (&d)[32], const uint32_t (&a)[4], uint64_t b) { wgmma_rs_m64n64k16_f16(d, a, b, 1); }
	__device__ static uint32_t pack(float x, float y)
	{
		__half2 h = __floats2half2_rn(x, y);
		return *reinterpret_cast<uint32_t *>(&h);
	}
	__device__ static float to_f(T x) { return __half2float(x); }
};
template <> struct Ops<true> {
	using T = __nv_bfloat16;
	__device__ static void ss(float (&d)[32], uint64_t a, uint64_t b, int sc) { wgmma_ss_m64n64k16_bf16(d, a, b, sc); }
	__device__ static void sst(float (&d)[32], uint64_t a, uint64_t b, int sc) { wgmma_sst_m64n64k16_bf16(d, a, b, sc); }
	__device__ static void rs(float (&d)[64], const uint32_t (&a)[4], uint64_t b) { wgmma_rs_m64n128k16_bf16(d, a, b, 1); }
	__device__ static void rs(float (&d)[32], const uint32_t (&a)[4], uint64_t b) { wgmma_rs_m64n64k16_bf16(d, a, b, 1); }
	__device__ static uint32_t pack(float x, float y)
	{
		__nv_bfloat162 h = __floats2bfloat162_rn(x, y);
		return *reinterpret_cast<uint32_t *>(&h);
	}
	__device__ static float to_f(T x) { return __bfloat162float(x); }
};

// fp32 reduction into global memory, no value returned (the dQ atomics)
__device__ __forceinline__ void red_add(float *p, float v)
{
	asm volatile("red.global.add.f32 [%0], %1;" ::"l"(p), "f"(v) : "memory");
}
__device__ __forceinline__ void st_shared_u16(uint32_t addr, uint16_t v)
{
	asm volatile("st.shared.b16 [%0], %1;" ::"r"(addr), "h"(v) : "memory");
}

// X·Yᵀ of a warpgroup's 64 rows of X (K-major, rows of an xrows-row tile)
// against the BM rows of Y (K-major): Sᵀ = K·Qᵀ and dPᵀ = V·dOᵀ.  Issue only.
template <int D, bool BF> __device__ __forceinline__ void issue_xyt(float (&acc)[32], uint32_t sXw, uint32_t sY)
{
#pragma unroll
	for (int kk = 0; kk < D / 16; kk++) {
		uint64_t a = make_desc(sXw + (kk / 4) * (BN * 128) + (kk % 4) * 32, 16, 1024);
		uint64_t b = make_desc(sY + (kk / 4) * (BM * 128) + (kk % 4) * 32, 16, 1024);
		Ops<BF>::ss(acc, a, b, kk > 0);
	}
}
// acc += Aᵀ-from-registers · Y, Y [BM rows][d] MN-major (dV += Pᵀ·dO, dK += dSᵀ·Q).  Issue only.
template <int D, bool BF> __device__ __forceinline__ void issue_rs(float (&acc)[D / 2], const uint32_t (&a)[BM / 16][4], uint32_t sY)
{
#pragma unroll
	for (int kk = 0; kk < BM / 16; kk++)
		Ops<BF>::rs(acc, a[kk], make_desc(sY + kk * 16 * 128, BM * 128, 1024));
}

// The main kernel: grid (⌈Nkv/BN⌉, B·Hkv), 256 threads.
template <int D, bool BF, bool CAUSAL>
__global__ void __launch_bounds__(HOPPER_BWD_THREADS, 1)
	hopper_bwd_kernel(const __grid_constant__ CUtensorMap tq, const __grid_constant__ CUtensorMap tk,
			  const __grid_constant__ CUtensorMap tv, const __grid_constant__ CUtensorMap tdo, const KParams p)
{
	using TL = Tiles<D>;
	using T = typename Ops<BF>::T;
	constexpr int NCB = D / 64; // 64-column boxes of a tile

	extern __shared__ uint8_t smem_raw[];
	const uint32_t raw = smem_u32(smem_raw);
	const uint32_t base = (raw + 1023u) & ~1023u;
	const uint32_t sK = base, sV = base + TL::OFF_V, sQ0 = base + TL::OFF_Q, sdO0 = base + TL::OFF_DO;
	const uint32_t sDS = base + TL::OFF_DS;
	float *ld = reinterpret_cast<float *>(smem_raw + (base - raw) + TL::OFF_LD); // lse2[2][BM], dsum[2][BM]
	const uint32_t bars = base + TL::OFF_BAR;
	const uint32_t barKV = bars;
	auto full = [&](int st) { return bars + 8 * (1 + st); };

	const int tid = threadIdx.x;
	const int cw = tid / 128, ct = tid % 128, w = ct / 32, lane = tid % 32, g = lane / 4, c4 = lane % 4;
	const int kvz = blockIdx.y, b = kvz / p.Hkv, hk = kvz % p.Hkv;
	const int k0 = blockIdx.x * BN;
	// causal: the first query block with a row that sees key k0 (c <= r + off)
	int qb0 = 0;
	if (CAUSAL) {
		const int rmin = k0 - p.off;
		qb0 = rmin > 0 ? rmin / BM : 0;
	}
	const int nqe = qb0 < p.nqb ? p.nqb - qb0 : 0; // query blocks per head
	const int total = p.hgroup * nqe;

	if (tid == 0) {
		mbar_init(barKV, 1);
		mbar_init(full(0), 1);
		mbar_init(full(1), 1);
		asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
		asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
	}
	__syncthreads();

	auto head_of = [&](int it) { return hk * p.hgroup + it / nqe; };
	auto qblock_of = [&](int it) { return qb0 + it % nqe; };
	auto load_qdo = [&](int it) {
		const int st = it & 1, bh = b * p.H + head_of(it), q0 = qblock_of(it) * BM;
		mbar_expect_tx(full(st), 2 * TL::QB);
		for (int c = 0; c < NCB; c++) {
			tma_load_3d(sQ0 + st * TL::QB + c * BM * 128, &tq, full(st), c * 64, q0, bh);
			tma_load_3d(sdO0 + st * TL::QB + c * BM * 128, &tdo, full(st), c * 64, q0, bh);
		}
	};
	// the block's lse (·log2 e) and D into slot it & 1; padded rows get 0
	auto load_ld = [&](int it, int t) {
		const int st = it & 1, bh = b * p.H + head_of(it), q = qblock_of(it) * BM + t;
		const bool in = q < p.Nq;
		ld[st * BM + t] = in ? p.lse[(size_t)bh * p.Nq + q] * 1.4426950408889634f : 0.f;
		ld[2 * BM + st * BM + t] = in ? p.dsum[(size_t)bh * p.Nq + q] : 0.f;
	};

	if (tid == 0) {
		mbar_expect_tx(barKV, 2 * TL::KB);
		for (int c = 0; c < NCB; c++) {
			tma_load_3d(sK + c * BN * 128, &tk, barKV, c * 64, k0, kvz);
			tma_load_3d(sV + c * BN * 128, &tv, barKV, c * 64, k0, kvz);
		}
		if (total > 0)
			load_qdo(0);
	}
	if (tid >= 128 && tid < 128 + BM && total > 0)
		load_ld(0, tid - 128);

	float dv[D / 2], dk[D / 2];
#pragma unroll
	for (int i = 0; i < D / 2; i++)
		dv[i] = dk[i] = 0.f;

	const uint32_t sKw = sK + cw * 64 * 128, sVw = sV + cw * 64 * 128; // this warpgroup's 64 keys
	const uint32_t sDSw = sDS + cw * BM * 128;                        // its 64-key box of dS
	const int kl0 = w * 16 + g;                                       // its keys kl0, kl0 + 8 (of 64)
	const int kr0 = k0 + cw * 64 + kl0;

	mbar_wait(barKV, 0);
	for (int it = 0; it < total; it++) {
		const int st = it & 1, h = head_of(it), bh = b * p.H + h, q0 = qblock_of(it) * BM;
		// iteration it-1 is done everywhere: its Q/dO stage, lse/D slot and dS are free
		__syncthreads();
		if (tid == 0 && it + 1 < total)
			load_qdo(it + 1);
		if (tid >= 128 && tid < 128 + BM && it + 1 < total)
			load_ld(it + 1, tid - 128);
		mbar_wait(full(st), (it >> 1) & 1);
		const uint32_t sQ = sQ0 + st * TL::QB, sdO = sdO0 + st * TL::QB;

		// Sᵀ = K·Qᵀ, dPᵀ = V·dOᵀ
		float s[32], dp[32];
		wg_fence();
		issue_xyt<D, BF>(s, sKw, sQ);
		issue_xyt<D, BF>(dp, sVw, sdO);
		wg_commit();
		wg_wait<0>();
		fence_regs(s);
		fence_regs(dp);

		// Pᵀ and dSᵀ in registers: element 4i + 2hh + e is key kl0 + 8hh,
		// query row q0 + 8i + 2c4 + e
		const float *L = ld + st * BM, *Dd = ld + 2 * BM + st * BM;
		const bool mask = q0 + BM > p.Nq || k0 + BN > p.Nkv || (CAUSAL && k0 + BN - 1 > q0 + p.off);
#pragma unroll
		for (int i = 0; i < 8; i++)
#pragma unroll
			for (int e = 0; e < 2; e++) {
				const int col = 8 * i + 2 * c4 + e;
				const float l2 = L[col], dd = Dd[col];
#pragma unroll
				for (int hh = 0; hh < 2; hh++) {
					const int x = 4 * i + 2 * hh + e;
					float pv = ex2(fmaf(s[x], p.sl2, -l2));
					if (mask) {
						const int q = q0 + col, key = kr0 + 8 * hh;
						const bool valid = q < p.Nq && key < p.Nkv && (!CAUSAL || key <= q + p.off);
						pv = valid ? pv : 0.f;
					}
					s[x] = pv;
					dp[x] = pv * (dp[x] - dd);
				}
			}
		uint32_t pp[BM / 16][4], pd[BM / 16][4];
#pragma unroll
		for (int kk = 0; kk < BM / 16; kk++)
#pragma unroll
			for (int j = 0; j < 4; j++) {
				pp[kk][j] = Ops<BF>::pack(s[8 * kk + 2 * j], s[8 * kk + 2 * j + 1]);
				pd[kk][j] = Ops<BF>::pack(dp[8 * kk + 2 * j], dp[8 * kk + 2 * j + 1]);
			}
		// dS = (dSᵀ)ᵀ to shared memory: row q (128 bytes = this warpgroup's
		// 64 keys), 16-byte chunks XOR-swizzled by q mod 8 (TMA's 128B swizzle)
#pragma unroll
		for (int kk = 0; kk < BM / 16; kk++)
#pragma unroll
			for (int j = 0; j < 4; j++) {
				const int i = 2 * kk + (j >> 1), hh = j & 1, key = kl0 + 8 * hh;
#pragma unroll
				for (int e = 0; e < 2; e++) {
					const int q = 8 * i + 2 * c4 + e;
					const uint16_t v = (uint16_t)(e ? pd[kk][j] >> 16 : pd[kk][j] & 0xFFFFu);
					st_shared_u16(sDSw + q * 128 + ((key * 2) ^ ((q & 7) << 4)), v);
				}
			}
		asm volatile("fence.proxy.async.shared::cta;" ::: "memory"); // the stores, to wgmma's (async) proxy

		// dV += Pᵀ·dO, dK += dSᵀ·Q
		fence_regs(dv);
		fence_regs(dk);
		fence_regs(pp);
		fence_regs(pd);
		wg_fence();
		issue_rs<D, BF>(dv, pp, sdO);
		issue_rs<D, BF>(dk, pd, sQ);
		wg_commit();

		// dQ += dS·K over this warpgroup's 64 keys, 64 columns of d at a time
		bar_sync(1 + cw, 128); // the warpgroup's dS stores are all in
#pragma unroll
		for (int c = 0; c < NCB; c++) {
			float acc[32];
			wg_fence();
#pragma unroll
			for (int kk = 0; kk < 4; kk++) {
				const uint64_t a = make_desc(sDSw + kk * 32, 16, 1024);
				const uint64_t bk = make_desc(sK + c * BN * 128 + (cw * 64 + kk * 16) * 128, BN * 128, 1024);
				Ops<BF>::sst(acc, a, bk, kk > 0);
			}
			wg_commit();
			wg_wait<0>();
			fence_regs(acc);
			if (c == 0) {
				fence_regs(dv);
				fence_regs(dk);
				fence_regs(pp);
				fence_regs(pd);
			}
			float *dq = p.dq_acc + ((size_t)bh * p.Nq + q0) * D + c * 64;
#pragma unroll
			for (int hh = 0; hh < 2; hh++) {
				const int q = w * 16 + g + 8 * hh;
				if (q0 + q < p.Nq) {
#pragma unroll
					for (int i = 0; i < 8; i++) {
						red_add(dq + (size_t)q * D + 8 * i + 2 * c4, acc[4 * i + 2 * hh]);
						red_add(dq + (size_t)q * D + 8 * i + 2 * c4 + 1, acc[4 * i + 2 * hh + 1]);
					}
				}
			}
		}
	}

	// ---- epilogue: dK (·scale), dV ----
	T *DK = reinterpret_cast<T *>(p.dk) + (size_t)kvz * p.Nkv * D;
	T *DV = reinterpret_cast<T *>(p.dv) + (size_t)kvz * p.Nkv * D;
#pragma unroll
	for (int hh = 0; hh < 2; hh++) {
		const int key = kr0 + 8 * hh;
		if (key < p.Nkv) {
			uint32_t *dkr = reinterpret_cast<uint32_t *>(DK + (size_t)key * D + 2 * c4);
			uint32_t *dvr = reinterpret_cast<uint32_t *>(DV + (size_t)key * D + 2 * c4);
#pragma unroll
			for (int i = 0; i < D / 8; i++) {
				dkr[4 * i] = Ops<BF>::pack(dk[4 * i + 2 * hh] * p.scale, dk[4 * i + 2 * hh + 1] * p.scale);
				dvr[4 * i] = Ops<BF>::pack(dv[4 * i + 2 * hh], dv[4 * i + 2 * hh + 1]);
			}
		}
	}
}

// ---- rung 1 "+tma+ws": producer warp, ring, async GEMM groups, TMA dQ reduce ----
//
// 384 threads.  Warpgroup 0 is the producer (setmaxnreg down to 24): its
// warp 0 loads K and V once, then per query block Q and dO by TMA into a
// ring of WS_STAGES stages and the block's lse and D by plain loads into the
// stage's slot; full barrier: the TMA bytes and the warp's arrival; empty
// barrier: one arrival per consumer warp.  Warpgroups 1-2 consume (setmaxnreg
// up to 240), each owning 64 keys as rung 0, with the GEMMs in commit groups:
//   S and dP issued together; P computed while dP runs; dV += Pᵀ·dO issued
//   before dP is waited; dS, dK += dSᵀ·Q issued; dS to shared memory (two
//   buffers, alternate blocks); both warpgroups meet (named barrier 1);
//   dQ += dS·K: at d = 128 each warpgroup takes 64 columns of d over all 128
//   keys, at d = 64 all columns over its own 64 keys; the fp32 tile goes to
//   shared memory (128-byte swizzle) and one thread adds it to the workspace
//   with a TMA reduction (cp.reduce.async.bulk.tensor .add, rows past Nq
//   clipped by the map), one add per element per warpgroup.
constexpr int WS_THREADS = HOPPER_BWD_WS_THREADS;
// deterministic: partial dQ slots per key block (d = 128: one, the warpgroups
// write disjoint columns; d = 64: one per warpgroup, each over its 64 keys)
__host__ __device__ constexpr int DQ_SLOTS(int d) { return d == 128 ? 1 : 2; }
template <int D> struct Tiles1 {
	static constexpr int S = HOPPER_BWD_WS_STAGES;
	static constexpr int KB = BN * D * 2;
	static constexpr int QB = BM * D * 2;
	static constexpr int DSB = BM * BN * 2;
	static constexpr int DQB = BM * 64 * 4; // a warpgroup's fp32 dQ tile, two 32-column boxes
	static constexpr int OFF_V = KB;
	static constexpr int OFF_Q = 2 * KB;
	static constexpr int OFF_DO = OFF_Q + S * QB;
	static constexpr int OFF_DS = OFF_DO + S * QB;
	static constexpr int OFF_DQ = OFF_DS + 2 * DSB;
	static constexpr int OFF_LD = OFF_DQ + 2 * DQB; // per stage: lse2[BM], dsum[BM]
	static constexpr int OFF_BAR = OFF_LD + S * 2 * BM * 4;
	static constexpr int SMEM = OFF_BAR + 8 * (1 + 2 * S) + 1024;
	static_assert(SMEM == HOPPER_BWD_WS_SMEM(D), "hopper_bwd.h's HOPPER_BWD_WS_SMEM is this layout");
	static_assert(SMEM <= 227 * 1024, "shared memory over the sm_90 limit");
};

template <int D, bool BF, bool CAUSAL, bool DET>
__global__ void __launch_bounds__(WS_THREADS, 1)
	hopper_bwd_ws_kernel(const __grid_constant__ CUtensorMap tq, const __grid_constant__ CUtensorMap tk,
			     const __grid_constant__ CUtensorMap tv, const __grid_constant__ CUtensorMap tdo,
			     const __grid_constant__ CUtensorMap tdq, const KParams p)
{
	using TL = Tiles1<D>;
	using T = typename Ops<BF>::T;
	constexpr int S = TL::S;
	constexpr int NCB = D / 64;

	extern __shared__ uint8_t smem_raw[];
	const uint32_t raw = smem_u32(smem_raw);
	const uint32_t base = (raw + 1023u) & ~1023u;
	const uint32_t sK = base, sV = base + TL::OFF_V, sQ0 = base + TL::OFF_Q, sdO0 = base + TL::OFF_DO;
	const uint32_t sDS0 = base + TL::OFF_DS;
	float *ld = reinterpret_cast<float *>(smem_raw + (base - raw) + TL::OFF_LD);
	const uint32_t bars = base + TL::OFF_BAR;
	const uint32_t barKV = bars;
	auto full = [&](int st) { return bars + 8 * (1 + st); };
	auto empty = [&](int st) { return bars + 8 * (1 + S + st); };

	const int tid = threadIdx.x;
	const int kvz = blockIdx.y, b = kvz / p.Hkv, hk = kvz % p.Hkv;
	const int k0 = blockIdx.x * BN;
	int qb0 = 0;
	if (CAUSAL) {
		const int rmin = k0 - p.off;
		qb0 = rmin > 0 ? rmin / BM : 0;
	}
	const int nqe = qb0 < p.nqb ? p.nqb - qb0 : 0;
	const int total = p.hgroup * nqe;
	auto head_of = [&](int it) { return hk * p.hgroup + it / nqe; };
	auto qblock_of = [&](int it) { return qb0 + it % nqe; };

	if (tid == 0) {
		mbar_init(barKV, 1);
		for (int st = 0; st < S; st++) {
			mbar_init(full(st), 2);  // the TMA's expect_tx arrival and the lse/D arrival
			mbar_init(empty(st), 8); // one per consumer warp
		}
		asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
		asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
	}
	__syncthreads();

	if (tid < 128) {
		// ---- producer ----
		asm volatile("setmaxnreg.dec.sync.aligned.u32 24;\n" ::: "memory");
		if (tid < 32) {
			const int lane = tid;
			if (lane == 0) {
				mbar_expect_tx(barKV, 2 * TL::KB);
				for (int c = 0; c < NCB; c++) {
					tma_load_3d(sK + c * BN * 128, &tk, barKV, c * 64, k0, kvz);
					tma_load_3d(sV + c * BN * 128, &tv, barKV, c * 64, k0, kvz);
				}
			}
			// (head, query block) stepped, not divided out of it: the producer has 24 registers
			int bh = b * p.H + hk * p.hgroup, qb = qb0;
			for (int it = 0, st = 0; it < total; it++, st = st + 1 == S ? 0 : st + 1) {
				const int q0 = qb * BM;
				if (it >= S)
					mbar_wait(empty(st), ((it / S) - 1) & 1);
				if (lane == 0) {
					mbar_expect_tx(full(st), 2 * TL::QB);
					for (int c = 0; c < NCB; c++) {
						tma_load_3d(sQ0 + st * TL::QB + c * BM * 128, &tq, full(st), c * 64, q0, bh);
						tma_load_3d(sdO0 + st * TL::QB + c * BM * 128, &tdo, full(st), c * 64, q0, bh);
					}
				}
				float *L = ld + st * 2 * BM;
				for (int t = lane; t < BM; t += 32) {
					const int q = q0 + t;
					const bool in = q < p.Nq;
					L[t] = in ? p.lse[(size_t)bh * p.Nq + q] * 1.4426950408889634f : 0.f;
					L[BM + t] = in ? p.dsum[(size_t)bh * p.Nq + q] : 0.f;
				}
				__syncwarp();
				if (lane == 0)
					mbar_arrive(full(st));
				if (++qb == p.nqb) {
					qb = qb0;
					bh++;
				}
			}
		}
		return;
	}
	asm volatile("setmaxnreg.inc.sync.aligned.u32 240;\n" ::: "memory");

	// ---- consumers ----
	const int cw = tid / 128 - 1, ct = tid % 128, w = ct / 32, lane = tid % 32, g = lane / 4, c4 = lane % 4;
	float dv[D / 2], dk[D / 2];
#pragma unroll
	for (int i = 0; i < D / 2; i++)
		dv[i] = dk[i] = 0.f;
	const uint32_t sKw = sK + cw * 64 * 128, sVw = sV + cw * 64 * 128;
	const uint32_t sDQw = base + TL::OFF_DQ + cw * TL::DQB;
	const int kl0 = w * 16 + g;
	const int kr0 = k0 + cw * 64 + kl0;
	// the dQ GEMM's share: d = 128: columns 64·cw.. over keys 0..127; d = 64: all columns over keys 64·cw..
	constexpr int DQ_STEPS = D == 128 ? BN / 16 : 64 / 16;
	const int dq_col = D == 128 ? cw * 64 : 0, dq_k16 = D == 128 ? 0 : cw * 4;

	mbar_wait(barKV, 0);
	for (int it = 0; it < total; it++) {
		const int st = it % S, h = head_of(it), bh = b * p.H + h, q0 = qblock_of(it) * BM;
		mbar_wait(full(st), (it / S) & 1);
		const uint32_t sQ = sQ0 + st * TL::QB, sdO = sdO0 + st * TL::QB, sDS = sDS0 + (it & 1) * TL::DSB;

		float s[32], dp[32];
		wg_fence();
		issue_xyt<D, BF>(s, sKw, sQ);
		wg_commit();
		issue_xyt<D, BF>(dp, sVw, sdO);
		wg_commit();
		wg_wait<1>(); // S
		fence_regs(s);

		const float *L = ld + st * 2 * BM, *Dd = L + BM;
		const bool mask = q0 + BM > p.Nq || k0 + BN > p.Nkv || (CAUSAL && k0 + BN - 1 > q0 + p.off);
#pragma unroll
		for (int i = 0; i < 8; i++)
#pragma unroll
			for (int e = 0; e < 2; e++) {
				const int col = 8 * i + 2 * c4 + e;
				const float l2 = L[col];
#pragma unroll
				for (int hh = 0; hh < 2; hh++) {
					const int x = 4 * i + 2 * hh + e;
					float pv = ex2(fmaf(s[x], p.sl2, -l2));
					if (mask) {
						const int q = q0 + col, key = kr0 + 8 * hh;
						const bool valid = q < p.Nq && key < p.Nkv && (!CAUSAL || key <= q + p.off);
						pv = valid ? pv : 0.f;
					}
					s[x] = pv;
				}
			}
		uint32_t pp[BM / 16][4], pd[BM / 16][4];
#pragma unroll
		for (int kk = 0; kk < BM / 16; kk++)
#pragma unroll
			for (int j = 0; j < 4; j++)
				pp[kk][j] = Ops<BF>::pack(s[8 * kk + 2 * j], s[8 * kk + 2 * j + 1]);
		// dV += Pᵀ·dO while dP finishes
		fence_regs(dv);
		fence_regs(pp);
		wg_fence();
		issue_rs<D, BF>(dv, pp, sdO);
		wg_commit();
		wg_wait<1>(); // dP (dV may still run)
		fence_regs(dp);
#pragma unroll
		for (int i = 0; i < 8; i++)
#pragma unroll
			for (int e = 0; e < 2; e++) {
				const float dd = Dd[8 * i + 2 * c4 + e];
#pragma unroll
				for (int hh = 0; hh < 2; hh++) {
					const int x = 4 * i + 2 * hh + e;
					dp[x] = s[x] * (dp[x] - dd);
				}
			}
#pragma unroll
		for (int kk = 0; kk < BM / 16; kk++)
#pragma unroll
			for (int j = 0; j < 4; j++)
				pd[kk][j] = Ops<BF>::pack(dp[8 * kk + 2 * j], dp[8 * kk + 2 * j + 1]);
		fence_regs(dk);
		fence_regs(pd);
		wg_fence();
		issue_rs<D, BF>(dk, pd, sQ);
		wg_commit();
		// dS to this block's buffer, as rung 0 (box cw: this warpgroup's 64 keys)
		const uint32_t sDSw = sDS + cw * BM * 128;
#pragma unroll
		for (int kk = 0; kk < BM / 16; kk++)
#pragma unroll
			for (int j = 0; j < 4; j++) {
				const int i = 2 * kk + (j >> 1), hh = j & 1, key = kl0 + 8 * hh;
#pragma unroll
				for (int e = 0; e < 2; e++) {
					const int q = 8 * i + 2 * c4 + e;
					const uint16_t v = (uint16_t)(e ? pd[kk][j] >> 16 : pd[kk][j] & 0xFFFFu);
					st_shared_u16(sDSw + q * 128 + ((key * 2) ^ ((q & 7) << 4)), v);
				}
			}
		asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
		if (ct == 0)
			bulk_wait_read<0>(); // the previous block's dQ tile has left sDQw
		bar_sync(1, 256);            // both warpgroups' dS are in

		float acc[32];
		wg_fence();
#pragma unroll
		for (int kk = 0; kk < DQ_STEPS; kk++) {
			const int k16 = dq_k16 + kk;
			const uint64_t a = make_desc(sDS + (k16 / 4) * (BM * 128) + (k16 % 4) * 32, 16, 1024);
			const uint64_t bk = make_desc(sK + (dq_col / 64) * BN * 128 + k16 * 16 * 128, BN * 128, 1024);
			Ops<BF>::sst(acc, a, bk, kk > 0);
		}
		wg_commit();
		wg_wait<0>();
		fence_regs(acc);
		fence_regs(dv);
		fence_regs(dk);
		fence_regs(pp);
		fence_regs(pd);
		__syncwarp();
		if (lane == 0)
			mbar_arrive(empty(st)); // Q, dO, lse, D of this stage are read

		// the dQ tile: row r = w·16 + g + 8hh, column 8i + 2c4 (+1); box i / 4 of
		// 32 fp32 columns, 16-byte chunk 2(i mod 4) + c4 / 2 swizzled by r mod 8 = g
#pragma unroll
		for (int i = 0; i < 8; i++)
#pragma unroll
			for (int hh = 0; hh < 2; hh++) {
				const int r = w * 16 + g + 8 * hh, chunk = 2 * (i & 3) + (c4 >> 1);
				const uint32_t a = sDQw + (i >> 2) * (BM * 128) + r * 128 + ((chunk ^ g) << 4) + 8 * (c4 & 1);
				asm volatile("st.shared.v2.f32 [%0], {%1, %2};" ::"r"(a), "f"(acc[4 * i + 2 * hh]),
					     "f"(acc[4 * i + 2 * hh + 1])
					     : "memory");
			}
		asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
		bar_sync(2 + cw, 128);
		if (ct == 0) {
			if (DET) {
				// this key block's (and, at d = 64, warpgroup's) slot of the partial dQ
				const int z = ((int)blockIdx.x * DQ_SLOTS(D) + (D == 128 ? 0 : cw)) * p.BH + bh;
				tma_store_3d(&tdq, sDQw, dq_col, q0, z);
				tma_store_3d(&tdq, sDQw + BM * 128, dq_col + 32, q0, z);
			} else {
				tma_reduce_add_3d(&tdq, sDQw, dq_col, q0, bh);
				tma_reduce_add_3d(&tdq, sDQw + BM * 128, dq_col + 32, q0, bh);
			}
			bulk_commit();
		}
	}
	if (ct == 0)
		bulk_wait<0>();

	T *DK = reinterpret_cast<T *>(p.dk) + (size_t)kvz * p.Nkv * D;
	T *DV = reinterpret_cast<T *>(p.dv) + (size_t)kvz * p.Nkv * D;
#pragma unroll
	for (int hh = 0; hh < 2; hh++) {
		const int key = kr0 + 8 * hh;
		if (key < p.Nkv) {
			uint32_t *dkr = reinterpret_cast<uint32_t *>(DK + (size_t)key * D + 2 * c4);
			uint32_t *dvr = reinterpret_cast<uint32_t *>(DV + (size_t)key * D + 2 * c4);
#pragma unroll
			for (int i = 0; i < D / 8; i++) {
				dkr[4 * i] = Ops<BF>::pack(dk[4 * i + 2 * hh] * p.scale, dk[4 * i + 2 * hh + 1] * p.scale);
				dvr[4 * i] = Ops<BF>::pack(dv[4 * i + 2 * hh], dv[4 * i + 2 * hh + 1]);
			}
		}
	}
}

// D = rowsum(dO ∘ O) in fp32, one warp per row (8 rows per block).
template <int D, bool BF>
__global__ void __launch_bounds__(256) hopper_bwd_prep(const void *o, const void *dout, float *dsum, size_t rows)
{
	using T = typename Ops<BF>::T;
	const int lane = threadIdx.x & 31;
	const size_t row = (size_t)blockIdx.x * 8 + (threadIdx.x >> 5);
	if (row >= rows)
		return;
	const T *op = reinterpret_cast<const T *>(o) + row * D, *dp = reinterpret_cast<const T *>(dout) + row * D;
	float sum = 0.f;
#pragma unroll
	for (int i = lane; i < D; i += 32)
		sum += Ops<BF>::to_f(op[i]) * Ops<BF>::to_f(dp[i]);
#pragma unroll
	for (int x = 16; x > 0; x >>= 1)
		sum += __shfl_xor_sync(0xffffffffu, sum, x);
	if (lane == 0)
		dsum[row] = sum;
}

// dQ = acc · scale, four elements per thread and step.
template <bool BF>
__global__ void __launch_bounds__(256) hopper_bwd_dq(const float4 *__restrict__ acc, uint2 *__restrict__ dq, size_t n4, float scale)
{
	for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += (size_t)gridDim.x * blockDim.x) {
		const float4 v = acc[i];
		dq[i] = make_uint2(Ops<BF>::pack(v.x * scale, v.y * scale), Ops<BF>::pack(v.z * scale, v.w * scale));
	}
}

// Deterministic dQ: dQ = scale · Σ over the partial slots in slot order (key
// block 0 first), of the slots whose key block saw the row's query block
// (causal: key block kb starts at query block qb0(kb), as the main kernel).
template <bool BF, bool CAUSAL>
__global__ void __launch_bounds__(256) hopper_bwd_dq_det(const float4 *__restrict__ part, uint2 *__restrict__ dq, size_t n4,
							 int d4, int Nq, int nkb, int slots, int off, float scale)
{
	for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += (size_t)gridDim.x * blockDim.x) {
		const int qb = (int)((i / d4) % Nq) / BM;
		float4 a = make_float4(0.f, 0.f, 0.f, 0.f);
		for (int kb = 0; kb < nkb; kb++) {
			if (CAUSAL) {
				const int rmin = kb * BN - off;
				if ((rmin > 0 ? rmin / BM : 0) > qb)
					break;
			}
			for (int sl = 0; sl < slots; sl++) {
				const float4 v = part[((size_t)kb * slots + sl) * n4 + i];
				a.x += v.x;
				a.y += v.y;
				a.z += v.z;
				a.w += v.w;
			}
		}
		dq[i] = make_uint2(Ops<BF>::pack(a.x * scale, a.y * scale), Ops<BF>::pack(a.z * scale, a.w * scale));
	}
}

// ---- host ---------------------------------------------------------------

template <typename K> static int set_smem(K kern, int smem, bool *done)
{
	if (*done)
		return 0;
	cudaError_t ce = cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
	if (ce == cudaSuccess)
		*done = true;
	return ce;
}

template <int D, bool BF, bool CAUSAL> static int launch(const hopper_bwd_params *a, int rung)
{
	auto kern0 = hopper_bwd_kernel<D, BF, CAUSAL>;
	auto kern1 = hopper_bwd_ws_kernel<D, BF, CAUSAL, false>;
	auto kern1d = hopper_bwd_ws_kernel<D, BF, CAUSAL, true>;
	static bool attr0 = false, attr1 = false, attr1d = false;
	const bool det = a->deterministic != 0;
	cudaError_t ce;
	int e;
	if ((e = rung == HOPPER_BWD_RUNG_WS ? (det ? set_smem(kern1d, Tiles1<D>::SMEM, &attr1d)
						   : set_smem(kern1, Tiles1<D>::SMEM, &attr1))
					    : set_smem(kern0, Tiles<D>::SMEM, &attr0)))
		return e;
	const attn_problem &pb = a->pb;
	CUtensorMap tq, tk, tv, tdo, tdq;
	const size_t rows = (size_t)pb.B * pb.H * pb.Nq;
	const int nkb = (pb.Nkv + BN - 1) / BN;
	// the workspace: the fp32 dQ accumulator (deterministic: nkb · DQ_SLOTS partial dQs), then D
	const size_t nacc = det ? (size_t)nkb * DQ_SLOTS(D) : 1;
	float *dq_acc = reinterpret_cast<float *>(a->workspace);
	if ((e = make_map(&tq, a->q, BF, D, pb.Nq, pb.B * pb.H, BM)) ||
	    (e = make_map(&tdo, a->dout, BF, D, pb.Nq, pb.B * pb.H, BM)) ||
	    (e = make_map(&tk, a->k, BF, D, pb.Nkv, pb.B * pb.Hkv, BN)) ||
	    (e = make_map(&tv, a->v, BF, D, pb.Nkv, pb.B * pb.Hkv, BN)) ||
	    (rung == HOPPER_BWD_RUNG_WS && (e = make_map_t(&tdq, dq_acc, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4, D, pb.Nq,
							  (int)(nacc * pb.B * pb.H), BM))))
		return e;
	cudaStream_t st = (cudaStream_t)a->stream;
	KParams p;
	p.dk = a->dk;
	p.dv = a->dv;
	p.dq_acc = dq_acc;
	p.dsum = a->dsum ? a->dsum : p.dq_acc + nacc * rows * D;
	p.lse = a->lse;
	p.Nq = pb.Nq;
	p.Nkv = pb.Nkv;
	p.H = pb.H;
	p.Hkv = pb.Hkv;
	p.hgroup = pb.H / pb.Hkv;
	p.nqb = (pb.Nq + BM - 1) / BM;
	p.off = pb.Nkv - pb.Nq;
	p.BH = pb.B * pb.H;
	p.scale = pb.scale > 0.f ? pb.scale : 1.f / sqrtf((float)D);
	p.sl2 = p.scale * 1.4426950408889634f;
	// deterministic: every slot row a key block reads is written, no zeroing
	if (!det && (ce = cudaMemsetAsync(p.dq_acc, 0, rows * D * sizeof(float), st)) != cudaSuccess)
		return ce;
	hopper_bwd_prep<D, BF><<<(unsigned)((rows + 7) / 8), 256, 0, st>>>(a->o, a->dout, const_cast<float *>(p.dsum), rows);
	if ((ce = cudaGetLastError()) != cudaSuccess)
		return ce;
	const dim3 grid(nkb, pb.B * pb.Hkv);
	if (rung == HOPPER_BWD_RUNG_WS && det)
		kern1d<<<grid, WS_THREADS, Tiles1<D>::SMEM, st>>>(tq, tk, tv, tdo, tdq, p);
	else if (rung == HOPPER_BWD_RUNG_WS)
		kern1<<<grid, WS_THREADS, Tiles1<D>::SMEM, st>>>(tq, tk, tv, tdo, tdq, p);
	else
		kern0<<<grid, HOPPER_BWD_THREADS, Tiles<D>::SMEM, st>>>(tq, tk, tv, tdo, p);
	if ((ce = cudaGetLastError()) != cudaSuccess)
		return ce;
	const size_t n4 = rows * D / 4;
	size_t blocks = (n4 + 255) / 256;
	if (blocks > (1u << 20))
		blocks = 1u << 20;
	if (det)
		hopper_bwd_dq_det<BF, CAUSAL><<<(unsigned)blocks, 256, 0, st>>>(reinterpret_cast<const float4 *>(p.dq_acc),
										reinterpret_cast<uint2 *>(a->dq), n4, D / 4,
										pb.Nq, nkb, DQ_SLOTS(D), p.off, p.scale);
	else
		hopper_bwd_dq<BF><<<(unsigned)blocks, 256, 0, st>>>(reinterpret_cast<const float4 *>(p.dq_acc),
								   reinterpret_cast<uint2 *>(a->dq), n4, p.scale);
	return cudaGetLastError();
}

template <int D, bool BF, bool CAUSAL> static int info(int rung, hopper_kernel_info *out)
{
	cudaFuncAttributes fa;
	const bool ws = rung == HOPPER_BWD_RUNG_WS;
	cudaError_t e = ws ? cudaFuncGetAttributes(&fa, hopper_bwd_ws_kernel<D, BF, CAUSAL, false>)
			   : cudaFuncGetAttributes(&fa, hopper_bwd_kernel<D, BF, CAUSAL>);
	if (e != cudaSuccess)
		return e;
	out->threads = ws ? WS_THREADS : HOPPER_BWD_THREADS;
	out->block_m = BN;
	out->block_n = BM;
	out->stages = ws ? Tiles1<D>::S : 2;
	out->regs = fa.numRegs;
	out->regs_producer = ws ? 24 : fa.numRegs;
	out->regs_consumer = ws ? 240 : fa.numRegs;
	out->smem_bytes = ws ? Tiles1<D>::SMEM : Tiles<D>::SMEM;
	out->local_bytes = (int)fa.localSizeBytes;
	return 0;
}

template <int D, bool BF, bool C> static int pick(const hopper_bwd_params *a, int rung, hopper_kernel_info *inf)
{
	return a ? launch<D, BF, C>(a, rung) : info<D, BF, C>(rung, inf);
}

static int dispatch(int d, int dt, int causal, int rung, const hopper_bwd_params *a, hopper_kernel_info *inf)
{
#if HOPPER_DEV_ONLY
	if (d == 128 && dt == HOPPER_FP16)
		return causal ? pick<128, false, true>(a, rung, inf) : pick<128, false, false>(a, rung, inf);
	return cudaErrorInvalidValue;
#else
	if (d == 128) {
		if (dt == HOPPER_BF16)
			return causal ? pick<128, true, true>(a, rung, inf) : pick<128, true, false>(a, rung, inf);
		return causal ? pick<128, false, true>(a, rung, inf) : pick<128, false, false>(a, rung, inf);
	}
	if (d == 64) {
		if (dt == HOPPER_BF16)
			return causal ? pick<64, true, true>(a, rung, inf) : pick<64, true, false>(a, rung, inf);
		return causal ? pick<64, false, true>(a, rung, inf) : pick<64, false, false>(a, rung, inf);
	}
	return cudaErrorInvalidValue;
#endif
}

} // namespace bwd
} // namespace hopper

extern "C" size_t hopper_bwd_workspace_bytes(const struct attn_problem *pb, int deterministic)
{
	if (!pb || pb->B < 1 || pb->H < 1 || pb->Nq < 1 || pb->Nkv < 1 || pb->d < 1)
		return 0;
	const size_t rows = (size_t)pb->B * pb->H * pb->Nq;
	const size_t nacc = deterministic ? (size_t)((pb->Nkv + HOPPER_BWD_BLOCK_N - 1) / HOPPER_BWD_BLOCK_N) *
						    hopper::bwd::DQ_SLOTS(pb->d)
					  : 1;
	return nacc * rows * pb->d * sizeof(float) + rows * sizeof(float);
}

extern "C" int hopper_bwd(const struct hopper_bwd_params *a, int rung)
{
	static const int dims[] = HOPPER_BWD_HEAD_DIMS;
	bool dim_ok = false;
	for (int d : dims)
		dim_ok = dim_ok || (a && a->pb.d == d);
	if (!a || rung < 0 || rung >= HOPPER_BWD_RUNG_COUNT || !dim_ok || a->pb.B < 1 ||
	    a->pb.H < 1 || a->pb.Hkv < 1 || a->pb.H % a->pb.Hkv || a->pb.Nq < 1 || a->pb.Nkv < 1 ||
	    (a->dtype != HOPPER_FP16 && a->dtype != HOPPER_BF16) || !a->q || !a->k || !a->v || !a->o || !a->dout ||
	    !a->lse || !a->dq || !a->dk || !a->dv || !a->workspace || (a->deterministic && rung != HOPPER_BWD_RUNG_WS) ||
	    ((uintptr_t)a->q | (uintptr_t)a->k | (uintptr_t)a->v | (uintptr_t)a->o | (uintptr_t)a->dout |
	     (uintptr_t)a->dq | (uintptr_t)a->dk | (uintptr_t)a->dv | (uintptr_t)a->workspace | (uintptr_t)a->dsum) & 15)
		return cudaErrorInvalidValue;
	return hopper::bwd::dispatch(a->pb.d, a->dtype, a->pb.causal != 0, rung, a, nullptr);
}

extern "C" const char *hopper_bwd_rung_name(int rung)
{
	static const char *names[] = {"+wgmma", "+tma+ws"};
	return rung >= 0 && rung < HOPPER_BWD_RUNG_COUNT ? names[rung] : nullptr;
}

extern "C" int hopper_bwd_info(int rung, int d, int dtype, int causal, struct hopper_kernel_info *out)
{
	if (!out || rung < 0 || rung >= HOPPER_BWD_RUNG_COUNT)
		return cudaErrorInvalidValue;
	return hopper::bwd::dispatch(d, dtype, causal != 0, rung, nullptr, out);
}
