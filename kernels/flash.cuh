// flash.cuh: the one flash-attention forward template, flash_fwd<T, D,
// SEQPAR, SPLITQ, LAZY>.  flash1 = <0,0,0>, flash2 = <1,1,1>; the six
// other switch settings are the rungs of the ablation ladder.
//
//   SEQPAR  1: grid (q-blocks, B·H), outer loop over the block's Q rows is
//              trivial and the inner loop walks K/V; O, m, ℓ stay on chip.
//           0: grid B·H, outer loop over K/V blocks, inner loop over Q
//              blocks; O (fp32, O_acc), m and ℓ go through HBM every step.
//   SPLITQ  1: each of the 4 warps owns Br/4 query rows and reads all of
//              K_j, V_j: no communication between warps.
//           0: split-K: each warp owns Bc/4 keys of K_j, V_j for all Br
//              rows; the row maxima, row sums and partial O are combined
//              through shared memory every step.
//   LAZY    1: O kept unnormalised, divided by ℓ once at the end; stores
//              the logsumexp L.
//           0: O kept normalised: rescaled by diag(ℓ_new)⁻¹ every step
//              (FA1 Algorithm 1, line 12); stores m and ℓ.
//
// Common to all: mma.sync m16n8k16 with fp32 accumulators, ldmatrix from
// XOR-swizzled shared memory, cp.async double buffering, exp2 with log2(e)
// folded into the softmax scale, causal (bottom-right aligned) by skipping
// blocks above the diagonal and masking only blocks that cross it (and the
// ragged last key block).
#pragma once

#include <math.h>

#include <type_traits>

#include "common.cuh"
#include "tiles.h"

namespace flash {

constexpr int WARPS = FLASH_FWD_WARPS; // block sizes and shared memory: tiles.h
constexpr int THREADS = WARPS * 32;

template <int D, bool SPLITQ> struct tile {
	static constexpr int BR = FLASH_FWD_BR(SPLITQ, D);
	static constexpr int BC = FLASH_FWD_BC;
	static constexpr int PART_LD = FLASH_FWD_PART_LD(D);
};

template <int D, bool SEQPAR, bool SPLITQ> struct smem_layout {
	using TL = tile<D, SPLITQ>;
	static constexpr int QB = TL::BR * D * 2;
	static constexpr int KB = TL::BC * D * 2;
	static constexpr int NQ = SEQPAR ? 1 : 2;      // KV-outer prefetches the next Q_i
	static constexpr int Q = 0;
	static constexpr int K = Q + NQ * QB;          // K[2]
	static constexpr int V = K + 2 * KB;           // V[2]
	static constexpr int PART = V + 2 * KB;        // split-K: partial O [4][BR][PART_LD] fp32
	static constexpr int PART_BYTES = SPLITQ ? 0 : WARPS * TL::BR * TL::PART_LD * 4;
	static constexpr int ORUN = PART + PART_BYTES; // split-K + SEQPAR: running O [BR][D] fp32
	static constexpr int ORUN_BYTES = (!SPLITQ && SEQPAR) ? TL::BR * D * 4 : 0;
	static constexpr int STATS = ORUN + ORUN_BYTES; // split-K: m, ℓ, red_m[4], red_l[4] per row
	static constexpr int STATS_BYTES = SPLITQ ? 0 : 10 * TL::BR * 4;
	static constexpr int TOTAL = STATS + STATS_BYTES;
	static_assert(TOTAL == FLASH_FWD_SMEM(SEQPAR, SPLITQ, D), "kernels/tiles.h FLASH_FWD_SMEM is the layout");
};

__device__ __forceinline__ float ex2(float x)
{
	float y;
	asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
	return y;
}

// Reference point of the exponent for a row maximum m (raw score units):
// m·scale·log2e, or 0 while the row has seen no key (m = -inf), so that
// exp2(-inf - ref) = 0 instead of NaN.
__device__ __forceinline__ float exp_ref(float m, float sl2) { return m == -INFINITY ? 0.f : m * sl2; }

// Key blocks q-block qb needs: all of them, or up to its last row's diagonal.
template <int BR, int BC>
__device__ __forceinline__ int kv_blocks(const flash_params &sh, int qb)
{
	if (!sh.pb.causal)
		return ((sh.pb.Nkv + BC - 1) / BC);
	int maxrow = min(sh.pb.Nq, (qb + 1) * BR) - 1;
	int lim = maxrow + (sh.pb.Nkv - sh.pb.Nq);
	if (lim < 0)
		return 0;
	return min(((sh.pb.Nkv + BC - 1) / BC), lim / BC + 1);
}

// Does the (qb, j) tile have keys some of its rows may not see?
template <int BR, int BC>
__device__ __forceinline__ bool needs_mask(const flash_params &sh, int qb, int j)
{
	return (j + 1) * BC > sh.pb.Nkv || (sh.pb.causal && (j + 1) * BC - 1 > qb * BR + (sh.pb.Nkv - sh.pb.Nq));
}

// Per-lane byte offsets of ldmatrix rows in a swizzled tile (swz<D>):
// the chunk of k-step kk is the lane's chunk XOR (kk << 1), and since row
// offsets are multiples of the 256/128-byte row pitch, the k step is one
// XOR with an immediate on (tile base + lane offset): tile bases are
// 1024-byte aligned, so no carries cross bits 4..7.
//   a_off: A operand / V (trans): rows lane & 15, chunk lane >> 4.
//   b_off: K (B operand, non-trans): rows (lane & 7) + 8·(lane >> 4), chunk (lane >> 3) & 1.
template <int D> __device__ __forceinline__ uint32_t a_off(int lane)
{
	return (uint32_t)((lane & 15) * D * 2 + ((((lane >> 4) & 1) ^ (lane & 7)) << 4));
}
template <int D> __device__ __forceinline__ uint32_t b_off(int lane)
{
	return (uint32_t)(((lane & 7) + ((lane >> 4) << 3)) * D * 2 + ((((lane >> 3) & 1) ^ (lane & 7)) << 4));
}
// An opaque copy: keeps the compiler from hoisting per-k-step addresses
// out of the K/V loop into (many) registers.
__device__ __forceinline__ uint32_t opaque(uint32_t x)
{
	uint32_t y;
	asm volatile("mov.b32 %0, %1;" : "=r"(y) : "r"(x));
	return y;
}

// S[MT×16 rows][NT×8 keys] = Q rows [qrow0, …) · K rows [krow0, …)ᵀ from shared memory.
template <typename T, int D, int MT, int NT, int KU = 2>
__device__ __forceinline__ void qk(float (&s)[MT][NT][4], uint32_t sQ, uint32_t sK, int qrow0, int krow0, int lane)
{
#pragma unroll
	for (int mi = 0; mi < MT; mi++)
#pragma unroll
		for (int ni = 0; ni < NT; ni++)
#pragma unroll
			for (int e = 0; e < 4; e++)
				s[mi][ni][e] = 0.f;
	const uint32_t qa = opaque(sQ + qrow0 * D * 2 + a_off<D>(lane));
	const uint32_t kb = opaque(sK + krow0 * D * 2 + b_off<D>(lane));
#pragma unroll KU // full unrolling lets ptxas hoist too many ldmatrix: spills at 255 registers
	for (int kk = 0; kk < D / 16; kk++) {
		uint32_t a[MT][4];
		const uint32_t qk_ = qa ^ (kk << 5), kk_ = kb ^ (kk << 5);
#pragma unroll
		for (int mi = 0; mi < MT; mi++)
			ldsm_x4(a[mi], qk_ + mi * 16 * D * 2);
#pragma unroll
		for (int nj = 0; nj < NT / 2; nj++) {
			uint32_t b[4];
			ldsm_x4(b, kk_ + nj * 16 * D * 2);
#pragma unroll
			for (int mi = 0; mi < MT; mi++) {
				mma16816<T>(s[mi][2 * nj], a[mi], b[0], b[1]);
				mma16816<T>(s[mi][2 * nj + 1], a[mi], b[2], b[3]);
			}
		}
	}
}

// O[MT×16][D] += P[MT×16][NT×8 keys] · V rows [krow0, krow0 + NT×8).  P is
// the fp32 score fragment (the accumulator layout of two n8 tiles is the A
// layout of one k16 step), rounded to the input type.
template <typename T, int D, int MT, int NT>
__device__ __forceinline__ void pv(float (&o)[MT][D / 8][4], const float (&p)[MT][NT][4], uint32_t sV, int krow0, int lane)
{
	const uint32_t va = opaque(sV + krow0 * D * 2 + a_off<D>(lane));
#pragma unroll
	for (int kc = 0; kc < NT / 2; kc++) {
		uint32_t a[MT][4];
#pragma unroll
		for (int mi = 0; mi < MT; mi++) {
			a[mi][0] = elem<T>::pack(p[mi][2 * kc][0], p[mi][2 * kc][1]);
			a[mi][1] = elem<T>::pack(p[mi][2 * kc][2], p[mi][2 * kc][3]);
			a[mi][2] = elem<T>::pack(p[mi][2 * kc + 1][0], p[mi][2 * kc + 1][1]);
			a[mi][3] = elem<T>::pack(p[mi][2 * kc + 1][2], p[mi][2 * kc + 1][3]);
		}
#pragma unroll
		for (int dj = 0; dj < D / 16; dj++) {
			uint32_t b[4];
			ldsm_x4_t(b, (va ^ (dj << 5)) + kc * 16 * D * 2);
#pragma unroll
			for (int mi = 0; mi < MT; mi++) {
				mma16816<T>(o[mi][2 * dj], a[mi], b[0], b[1]);
				mma16816<T>(o[mi][2 * dj + 1], a[mi], b[2], b[3]);
			}
		}
	}
}

// P (fp32 score fragment) → the A operands of the PV mma, rounded to T.
template <typename T, int MT, int NT>
__device__ __forceinline__ void pack_p(uint32_t (&a)[NT / 2][MT][4], const float (&p)[MT][NT][4])
{
#pragma unroll
	for (int kc = 0; kc < NT / 2; kc++)
#pragma unroll
		for (int mi = 0; mi < MT; mi++) {
			a[kc][mi][0] = elem<T>::pack(p[mi][2 * kc][0], p[mi][2 * kc][1]);
			a[kc][mi][1] = elem<T>::pack(p[mi][2 * kc][2], p[mi][2 * kc][3]);
			a[kc][mi][2] = elem<T>::pack(p[mi][2 * kc + 1][0], p[mi][2 * kc + 1][1]);
			a[kc][mi][3] = elem<T>::pack(p[mi][2 * kc + 1][2], p[mi][2 * kc + 1][3]);
		}
}

// pv() with P already packed (pack_p): half the registers of the fp32 P.
template <typename T, int D, int MT, int NT>
__device__ __forceinline__ void pv_packed(float (&o)[MT][D / 8][4], const uint32_t (&a)[NT / 2][MT][4], uint32_t sV, int krow0, int lane)
{
	const uint32_t va = opaque(sV + krow0 * D * 2 + a_off<D>(lane));
#pragma unroll
	for (int kc = 0; kc < NT / 2; kc++)
#pragma unroll
		for (int dj = 0; dj < D / 16; dj++) {
			uint32_t b[4];
			ldsm_x4_t(b, (va ^ (dj << 5)) + kc * 16 * D * 2);
#pragma unroll
			for (int mi = 0; mi < MT; mi++) {
				mma16816<T>(o[mi][2 * dj], a[kc][mi], b[0], b[1]);
				mma16816<T>(o[mi][2 * dj + 1], a[kc][mi], b[2], b[3]);
			}
		}
}

// Mask keys a row may not see (beyond Nkv, or after the diagonal) to -inf.
template <int MT, int NT>
__device__ __forceinline__ void apply_mask(float (&s)[MT][NT][4], const flash_params &sh, int row0, int col0, int lane)
{
	const int g = lane >> 2, t4 = lane & 3;
#pragma unroll
	for (int mi = 0; mi < MT; mi++)
#pragma unroll
		for (int ni = 0; ni < NT; ni++)
#pragma unroll
			for (int e = 0; e < 4; e++) {
				int row = row0 + mi * 16 + g + (e >> 1) * 8;
				int col = col0 + ni * 8 + 2 * t4 + (e & 1);
				if (col >= sh.pb.Nkv || (sh.pb.causal && col > row + (sh.pb.Nkv - sh.pb.Nq)))
					s[mi][ni][e] = -INFINITY;
			}
}

// ---- split-Q engine: a warp's rows, O in registers ------------------------

template <typename T, int D, int MT, bool LAZY> struct sq_state {
	float o[MT][D / 8][4];
	float m[MT][2]; // raw row maximum of the scores seen so far
	float l[MT][2]; // LAZY: this thread's partial row sum (quad-reduced at the end); else the full sum
	__device__ __forceinline__ void init()
	{
#pragma unroll
		for (int mi = 0; mi < MT; mi++) {
#pragma unroll
			for (int dt = 0; dt < D / 8; dt++)
#pragma unroll
				for (int e = 0; e < 4; e++)
					o[mi][dt][e] = 0.f;
#pragma unroll
			for (int hh = 0; hh < 2; hh++) {
				m[mi][hh] = -INFINITY;
				l[mi][hh] = 0.f;
			}
		}
	}
};

// No deferred O: O is on chip across steps (SEQPAR).
struct o_on_chip {
	static constexpr bool DEFER = false;
	template <class St, class Osc> __device__ __forceinline__ void operator()(St &, const Osc &) const {}
};

// K/V-outer: O_i from O_acc in HBM (zeros at the first step).  ob: this
// thread's first row; the others are immediates away (row offsets
// mi·16 + hh·8); rows at or beyond Nq read as zeros.
// LAZY: ℓ_i comes in here too (the step starts from ℓ = 0 and adds
// α·ℓ_i, α = osc), so ℓ_i is not live across QKᵀ either.
template <int D, bool LAZY> struct o_from_hbm {
	static constexpr bool DEFER = true;
	const float2 *ob;
	const float *lb;
	int r0, nq, t4;
	bool first;
	template <class St, class Osc> __device__ __forceinline__ void operator()(St &st, const Osc &osc) const
	{
		constexpr int MT = sizeof(st.o) / sizeof(st.o[0]);
#pragma unroll
		for (int mi = 0; mi < MT; mi++)
#pragma unroll
			for (int hh = 0; hh < 2; hh++) {
				const int ro = mi * 16 + hh * 8;
				const bool ok = !first && r0 + ro < nq;
#pragma unroll
				for (int dt = 0; dt < D / 8; dt++) {
					float2 v = ok ? ob[ro * D / 2 + dt * 4] : make_float2(0.f, 0.f);
					st.o[mi][dt][2 * hh] = v.x;
					st.o[mi][dt][2 * hh + 1] = v.y;
				}
				if (LAZY && ok && t4 == 0)
					st.l[mi][hh] += osc[mi][hh] * lb[ro];
			}
	}
};

// One (Q rows of this warp) × (K_j, V_j) step.  row0: global row of the
// warp's first row (for the mask); col0: global key of the block's first key.
// load_o: with LoadO::DEFER, fills st.o (O_i from HBM, or zeros) after the
// softmax, right before its rescale and the PV mma, so that O is not live
// across QKᵀ (the K/V-outer rungs: O_i comes from HBM every step anyway).
template <typename T, int D, int BC, int MT, bool LAZY, bool MASK, int KU, class LoadO = o_on_chip>
__device__ __forceinline__ void sq_step(sq_state<T, D, MT, LAZY> &st, uint32_t sQ, uint32_t sK, uint32_t sV,
					int wrow0, int row0, int col0, const flash_params &sh, float sl2, int lane,
					LoadO load_o = LoadO())
{
	constexpr int NT = BC / 8;
	constexpr bool DEFER = LoadO::DEFER;
	float s[MT][NT][4];
	float osc[MT][2]; // DEFER: each row's O factor until O is there
	qk<T, D, MT, NT, KU>(s, sQ, sK, wrow0, 0, lane);
	if (MASK)
		apply_mask<MT, NT>(s, sh, row0, col0, lane);
#pragma unroll
	for (int mi = 0; mi < MT; mi++)
#pragma unroll
		for (int hh = 0; hh < 2; hh++) {
			float mx = st.m[mi][hh];
#pragma unroll
			for (int ni = 0; ni < NT; ni++)
				mx = fmaxf(mx, fmaxf(s[mi][ni][2 * hh], s[mi][ni][2 * hh + 1]));
			mx = quad_max(mx);
			const float ref = exp_ref(mx, sl2);
			const float alpha = ex2(fmaf(st.m[mi][hh], sl2, -ref)); // m = -inf → 0
			st.m[mi][hh] = mx;
			float rs = 0.f;
#pragma unroll
			for (int ni = 0; ni < NT; ni++)
#pragma unroll
				for (int e = 0; e < 2; e++) {
					float pe = ex2(fmaf(s[mi][ni][2 * hh + e], sl2, -ref));
					s[mi][ni][2 * hh + e] = pe;
					rs += pe;
				}
			float oscale;
			if (LAZY) {
				st.l[mi][hh] = st.l[mi][hh] * alpha + rs;
				oscale = alpha;
			} else {
				// O_new = diag(ℓ_new)⁻¹ (diag(ℓ)·α·O + P̃·V): scale O and P̃ now.
				rs = quad_sum(rs);
				float lnew = st.l[mi][hh] * alpha + rs;
				// rcp.approx (ℓ_new ≥ 1 here: no denormal, ≤ 1 ulp): the IEEE
				// division's slow path cost registers in the step loop.
				float inv = lnew > 0.f ? __fdividef(1.f, lnew) : 0.f;
				oscale = alpha * st.l[mi][hh] * inv;
				st.l[mi][hh] = lnew;
#pragma unroll
				for (int ni = 0; ni < NT; ni++) {
					s[mi][ni][2 * hh] *= inv;
					s[mi][ni][2 * hh + 1] *= inv;
				}
			}
			if constexpr (DEFER) {
				osc[mi][hh] = oscale;
			} else {
#pragma unroll
				for (int dt = 0; dt < D / 8; dt++) {
					st.o[mi][dt][2 * hh] *= oscale;
					st.o[mi][dt][2 * hh + 1] *= oscale;
				}
			}
		}
	if constexpr (DEFER) {
		// P̃ packed before O arrives: O (128 fp32 at d = 128) and P̃ (64 fp32)
		// never live together in fp32.
		uint32_t pk[NT / 2][MT][4];
		pack_p<T, MT, NT>(pk, s);
		load_o(st, osc);
#pragma unroll
		for (int mi = 0; mi < MT; mi++)
#pragma unroll
			for (int hh = 0; hh < 2; hh++)
#pragma unroll
				for (int dt = 0; dt < D / 8; dt++) {
					st.o[mi][dt][2 * hh] *= osc[mi][hh];
					st.o[mi][dt][2 * hh + 1] *= osc[mi][hh];
				}
		pv_packed<T, D, MT, NT>(st.o, pk, sV, 0, lane);
	} else {
		pv<T, D, MT, NT>(st.o, s, sV, 0, lane);
	}
}

// K_j and V_j into buffer j & 1 (cp.async; the caller commits).
template <int BC, int D, class SL>
__device__ __forceinline__ void load_kv(uint32_t sbase, const uint16_t *Kg, const uint16_t *Vg, int j, int Nkv, int tid)
{
	load_tile<BC, D, THREADS>(sbase + SL::K + (j & 1) * SL::KB, Kg, j * BC, Nkv, tid);
	load_tile<BC, D, THREADS>(sbase + SL::V + (j & 1) * SL::KB, Vg, j * BC, Nkv, tid);
}

// ---- Q-outer schedule (SEQPAR = 1) --------------------------------------
//
// One q-block per CTA; its n K/V blocks stream through two buffers, block
// j + 1 loading while block j computes.  The caller has committed the loads
// of Q and of block 0.  work(j, sK, sV) with the block's shared addresses.
template <int BC, int D, class SL, class Work>
__device__ __forceinline__ void q_outer(uint32_t sbase, const uint16_t *Kg, const uint16_t *Vg, int n, int Nkv,
					int tid, Work work)
{
	for (int j = 0; j < n; j++) {
		cp_async_wait<0>();
		__syncthreads(); // K_j, V_j landed; everyone is done with buffer (j+1)&1
		if (j + 1 < n)
			load_kv<BC, D, SL>(sbase, Kg, Vg, j + 1, Nkv, tid);
		cp_async_commit();
		work(j, sbase + SL::K + (j & 1) * SL::KB, sbase + SL::V + (j & 1) * SL::KB);
	}
	cp_async_wait<0>();
}

// ---- K/V-outer schedule (SEQPAR = 0) ------------------------------------
//
// Work items (j, qb) in FA1 order: K/V block j outer, Q block qb inner,
// only pairs where q-block qb sees some key of block j.  The next item's
// tiles (Q_qb, and K_j/V_j when j changes) are prefetched with cp.async
// into the other buffer while the current item computes, as the Q-outer
// loop prefetches K/V: the ladder then measures the loop order, not the
// pipelining.  work(j, qb, it, first, final); load(j, qb, it, new_kv);
// empty(qb) for q-blocks whose rows see no key.
template <int BR, int BC, class Work, class Load, class Empty>
__device__ __forceinline__ void kv_outer(const flash_params &sh, Work work, Load load, Empty empty)
{
	for (int qb = 0; qb < ((sh.pb.Nq + BR - 1) / BR); qb++)
		if (kv_blocks<BR, BC>(sh, qb) == 0)
			empty(qb);
	const int jmax = kv_blocks<BR, BC>(sh, ((sh.pb.Nq + BR - 1) / BR) - 1); // the last q-block needs the most
	int j = 0, qb = 0;
	while (qb < ((sh.pb.Nq + BR - 1) / BR) && kv_blocks<BR, BC>(sh, qb) == 0)
		qb++;
	if (jmax == 0 || qb >= ((sh.pb.Nq + BR - 1) / BR))
		return;
	load(j, qb, 0, true);
	cp_async_commit();
	for (int it = 0;; it++) {
		int nj = j, nq = qb + 1;
		for (;;) {
			if (nq >= ((sh.pb.Nq + BR - 1) / BR)) {
				nj++;
				nq = 0;
				if (nj >= jmax)
					break;
			}
			if (kv_blocks<BR, BC>(sh, nq) > nj)
				break;
			nq++;
		}
		const bool has_next = nj < jmax;
		cp_async_wait<0>();
		__syncthreads(); // this item's tiles landed; the buffers of item it-1 are free
		if (has_next)
			load(nj, nq, it + 1, nj != j);
		cp_async_commit();
		work(j, qb, it, j == 0, j == kv_blocks<BR, BC>(sh, qb) - 1);
		if (!has_next)
			break;
		j = nj;
		qb = nq;
	}
	cp_async_wait<0>();
}

// ---- the kernel ----------------------------------------------------------

template <typename T, int D, bool SEQPAR, bool SPLITQ, bool LAZY>
__global__ void __launch_bounds__(THREADS, SPLITQ ? 2 : 1) flash_fwd(const __grid_constant__ flash_params p)
{
	using TL = tile<D, SPLITQ>;
	using SL = smem_layout<D, SEQPAR, SPLITQ>;
	constexpr int BR = TL::BR, BC = TL::BC;
	extern __shared__ __align__(128) unsigned char smem[];
	const uint32_t sbase = smem_u32(smem);
	const int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31;
	const int g = lane >> 2, t4 = lane & 3;

	const flash_params &sh = p; // fields read from the constant bank, not held in registers
	const float sl2 = p.pb.scale_log2;

	const int bh = SEQPAR ? blockIdx.y : blockIdx.x;
	const int b = bh / p.pb.H, h = bh % p.pb.H;
	const int kvh = h / (p.pb.H / p.pb.Hkv);
	const uint16_t *Qg = p.q + (size_t)bh * p.pb.Nq * D;
	const uint16_t *Kg = p.k + ((size_t)b * p.pb.Hkv + kvh) * (size_t)p.pb.Nkv * D;
	const uint16_t *Vg = p.v + ((size_t)b * p.pb.Hkv + kvh) * (size_t)p.pb.Nkv * D;
	uint16_t *Og = p.o + (size_t)bh * p.pb.Nq * D;
	const size_t rowbase = (size_t)bh * p.pb.Nq; // index of row 0 in [B·H·Nq] statistics

	// Write the final row statistics of row r (raw max m, full sum l).
	auto put_stats = [&](int r, float m, float l) {
		if (r >= p.pb.Nq)
			return;
		if (LAZY) {
			p.lse[rowbase + r] = l > 0.f ? m * p.pb.scale + logf(l) : -INFINITY;
		} else {
			p.m[rowbase + r] = m == -INFINITY ? -INFINITY : m * p.pb.scale;
			p.l[rowbase + r] = l;
		}
	};

	// A q-block whose rows see no key: O = 0, m = -inf, ℓ = 0 (lse = -inf);
	// the K/V-outer lazy kernels keep their running m, ℓ in HBM as well.
	auto empty_qblock = [&](int qb) {
		for (int i = tid; i < BR * D; i += THREADS) {
			int r = qb * BR + i / D;
			if (r < p.pb.Nq) {
				Og[(size_t)r * D + i % D] = 0;
				if (i % D == 0) {
					put_stats(r, -INFINITY, 0.f);
					if (!SEQPAR && LAZY) {
						p.m[rowbase + r] = -INFINITY;
						p.l[rowbase + r] = 0.f;
					}
				}
			}
		}
	};

	if constexpr (SPLITQ) {
		constexpr int MT = BR / WARPS / 16;
		// ldmatrix lookahead in the k loop (ptxas, nvcc 13.0, d = 128): the
		// Q-outer kernels are spill-free with 2 (⟨1,1,0⟩ spills with 1), the
		// K/V-outer ones are what ptxas allocates best with 1.
		constexpr int KU = SEQPAR || D == 64 ? 2 : 1;
		const int wrow0 = warp * (BR / WARPS);
		sq_state<T, D, MT, LAZY> st;

		// Final O of this warp's rows (normalised) and statistics.
		auto store_final = [&](int qb) {
#pragma unroll
			for (int mi = 0; mi < MT; mi++)
#pragma unroll
				for (int hh = 0; hh < 2; hh++) {
					float l = LAZY ? quad_sum(st.l[mi][hh]) : st.l[mi][hh];
					float inv = LAZY ? (l > 0.f ? 1.f / l : 0.f) : 1.f;
					int r = qb * BR + wrow0 + mi * 16 + g + hh * 8;
					if (r < p.pb.Nq) {
						uint32_t *dst = reinterpret_cast<uint32_t *>(Og + (size_t)r * D + 2 * t4);
#pragma unroll
						for (int dt = 0; dt < D / 8; dt++)
							dst[dt * 4] = elem<T>::pack(st.o[mi][dt][2 * hh] * inv, st.o[mi][dt][2 * hh + 1] * inv);
						if (t4 == 0)
							put_stats(r, st.m[mi][hh], l);
					}
				}
		};

		if constexpr (SEQPAR) {
			// Heaviest causal q-blocks first: they set the tail of the grid.
			const int qb = p.pb.causal ? ((sh.pb.Nq + BR - 1) / BR) - 1 - blockIdx.x : blockIdx.x;
			const int n = kv_blocks<BR, BC>(sh, qb);
			const uint32_t sQ = sbase + SL::Q;
			load_tile<BR, D, THREADS>(sQ, Qg, qb * BR, p.pb.Nq, tid);
			if (n > 0)
				load_kv<BC, D, SL>(sbase, Kg, Vg, 0, p.pb.Nkv, tid);
			cp_async_commit();
			st.init();
			q_outer<BC, D, SL>(sbase, Kg, Vg, n, p.pb.Nkv, tid, [&](int j, uint32_t sK, uint32_t sV) {
				if (needs_mask<BR, BC>(sh, qb, j))
					sq_step<T, D, BC, MT, LAZY, true, KU>(st, sQ, sK, sV, wrow0, qb * BR + wrow0, j * BC, sh, sl2, lane);
				else
					sq_step<T, D, BC, MT, LAZY, false, KU>(st, sQ, sK, sV, wrow0, qb * BR + wrow0, j * BC, sh, sl2, lane);
			});
			store_final(qb);
		} else {
			kv_outer<BR, BC>(sh, [&](int j, int qb, int it, bool first, bool final) {
				const uint32_t sQ = sbase + SL::Q + (it & 1) * SL::QB;
				const uint32_t sK = sbase + SL::K + (j & 1) * SL::KB, sV = sbase + SL::V + (j & 1) * SL::KB;
				// This thread's first row and its O_acc / m / ℓ addresses; the
				// other rows are immediates away.
				const int r0 = qb * BR + wrow0 + g;
				float2 *ob = reinterpret_cast<float2 *>(p.o_acc + (rowbase + r0) * D + 2 * t4);
				float *mb = p.m + rowbase + r0, *lb = p.l + rowbase + r0;
				// m_i, ℓ_i come back from HBM (FA1 Algorithm 1, line 8) now, O_i
				// inside the step, after the softmax (o_from_hbm).
#pragma unroll
				for (int mi = 0; mi < MT; mi++)
#pragma unroll
					for (int hh = 0; hh < 2; hh++) {
						const int ro = mi * 16 + hh * 8; // row offset: an immediate on one base
						const bool ok = !first && r0 + ro < p.pb.Nq;
						float ms = ok ? mb[ro] : -INFINITY;
						st.m[mi][hh] = ms == -INFINITY ? -INFINITY : __fdividef(ms, p.pb.scale);
						st.l[mi][hh] = (!LAZY && ok) ? lb[ro] : 0.f; // LAZY: added in load_o
					}
				const o_from_hbm<D, LAZY> load_o{ob, lb, r0, p.pb.Nq, t4, first};
				if (needs_mask<BR, BC>(sh, qb, j))
					sq_step<T, D, BC, MT, LAZY, true, KU>(st, sQ, sK, sV, wrow0, qb * BR + wrow0, j * BC, sh, sl2, lane, load_o);
				else
					sq_step<T, D, BC, MT, LAZY, false, KU>(st, sQ, sK, sV, wrow0, qb * BR + wrow0, j * BC, sh, sl2, lane, load_o);
				if (final) {
					store_final(qb);
					if (LAZY) { // the running m, ℓ are buffers of this variant too
#pragma unroll
						for (int mi = 0; mi < MT; mi++)
#pragma unroll
							for (int hh = 0; hh < 2; hh++) {
								int r = qb * BR + wrow0 + mi * 16 + g + hh * 8;
								float l = quad_sum(st.l[mi][hh]);
								if (r < p.pb.Nq && t4 == 0) {
									p.m[rowbase + r] = st.m[mi][hh] == -INFINITY ? -INFINITY : st.m[mi][hh] * p.pb.scale;
									p.l[rowbase + r] = l;
								}
							}
					}
					return;
				}
#pragma unroll
				for (int mi = 0; mi < MT; mi++)
#pragma unroll
					for (int hh = 0; hh < 2; hh++) {
						const int ro = mi * 16 + hh * 8;
						float l = LAZY ? quad_sum(st.l[mi][hh]) : st.l[mi][hh];
						if (r0 + ro < p.pb.Nq) {
#pragma unroll
							for (int dt = 0; dt < D / 8; dt++)
								ob[ro * D / 2 + dt * 4] = make_float2(st.o[mi][dt][2 * hh], st.o[mi][dt][2 * hh + 1]);
							if (t4 == 0) {
								mb[ro] = st.m[mi][hh] == -INFINITY ? -INFINITY : st.m[mi][hh] * p.pb.scale;
								lb[ro] = l;
							}
						}
					}
			}, [&](int j, int qb, int it, bool new_kv) {
				// The head's Q/K/V bases are derived again per item from an
				// opaque copy of bh: held across the step, these three 64-bit
				// pointers were what spilled at 255 registers (d = 128).
				const int bho = (int)opaque((uint32_t)bh);
				const int kvo = (bho / p.pb.H) * p.pb.Hkv + (bho % p.pb.H) / (p.pb.H / p.pb.Hkv);
				if (new_kv)
					load_kv<BC, D, SL>(sbase, p.k + (size_t)kvo * p.pb.Nkv * D, p.v + (size_t)kvo * p.pb.Nkv * D, j, p.pb.Nkv, tid);
				load_tile<BR, D, THREADS>(sbase + SL::Q + (it & 1) * SL::QB, p.q + (size_t)bho * p.pb.Nq * D, qb * BR, p.pb.Nq, tid);
			}, empty_qblock);
		}
	} else {
		// ---- split-K engine: every warp sees all BR rows and 16 keys ----
		constexpr int MT = BR / 16, NT = 2;
		constexpr int LD = TL::PART_LD;
		float *part = reinterpret_cast<float *>(smem + SL::PART);
		float *orun = reinterpret_cast<float *>(smem + SL::ORUN);
		float *sm_m = reinterpret_cast<float *>(smem + SL::STATS); // raw running max
		float *sm_l = sm_m + BR;                                   // running sum
		float *red_m = sm_l + BR;                                  // [4][BR] block-local maxima
		float *red_l = red_m + WARPS * BR;                         // [4][BR] block-local sums
		const int kw0 = warp * 16;

		// One (Q_i, K_j, V_j) step of the whole block.  first: no state yet
		// (m = -inf, ℓ = 0, O = 0); final: write O and the statistics.
		auto step = [&](auto mask_tag, uint32_t sQ, uint32_t sK, uint32_t sV, int qb, int j, bool first, bool final) {
			constexpr bool MASK = decltype(mask_tag)::value;
			if (!SEQPAR && tid < BR) { // m_i, ℓ_i from HBM
				int r = qb * BR + tid;
				float ms = (!first && r < p.pb.Nq) ? p.m[rowbase + r] : -INFINITY;
				sm_m[tid] = ms == -INFINITY ? -INFINITY : ms / p.pb.scale;
				sm_l[tid] = (!first && r < p.pb.Nq) ? p.l[rowbase + r] : 0.f;
			}
			float s[MT][NT][4];
			qk<T, D, MT, NT>(s, sQ, sK, 0, kw0, lane);
			if (MASK)
				apply_mask<MT, NT>(s, sh, qb * BR, j * BC + kw0, lane);
#pragma unroll
			for (int mi = 0; mi < MT; mi++)
#pragma unroll
				for (int hh = 0; hh < 2; hh++) {
					float mx = fmaxf(fmaxf(s[mi][0][2 * hh], s[mi][0][2 * hh + 1]),
							 fmaxf(s[mi][1][2 * hh], s[mi][1][2 * hh + 1]));
					mx = quad_max(mx);
					if (t4 == 0)
						red_m[warp * BR + mi * 16 + g + hh * 8] = mx;
				}
			__syncthreads(); // all warps' maxima (and m_i, ℓ_i) visible
#pragma unroll
			for (int mi = 0; mi < MT; mi++)
#pragma unroll
				for (int hh = 0; hh < 2; hh++) {
					int r = mi * 16 + g + hh * 8;
					float mnew = sm_m[r];
#pragma unroll
					for (int w = 0; w < WARPS; w++)
						mnew = fmaxf(mnew, red_m[w * BR + r]);
					float ref = exp_ref(mnew, sl2), rs = 0.f;
#pragma unroll
					for (int ni = 0; ni < NT; ni++)
#pragma unroll
						for (int e = 0; e < 2; e++) {
							float pe = ex2(fmaf(s[mi][ni][2 * hh + e], sl2, -ref));
							s[mi][ni][2 * hh + e] = pe;
							rs += pe;
						}
					rs = quad_sum(rs);
					if (t4 == 0)
						red_l[warp * BR + r] = rs;
				}
			float o[MT][D / 8][4];
#pragma unroll
			for (int mi = 0; mi < MT; mi++)
#pragma unroll
				for (int dt = 0; dt < D / 8; dt++)
#pragma unroll
					for (int e = 0; e < 4; e++)
						o[mi][dt][e] = 0.f;
			pv<T, D, MT, NT>(o, s, sV, kw0, lane);
			float *mypart = part + warp * BR * LD;
#pragma unroll
			for (int mi = 0; mi < MT; mi++)
#pragma unroll
				for (int hh = 0; hh < 2; hh++)
#pragma unroll
					for (int dt = 0; dt < D / 8; dt++)
						*reinterpret_cast<float2 *>(mypart + (mi * 16 + g + hh * 8) * LD + dt * 8 + 2 * t4) =
							make_float2(o[mi][dt][2 * hh], o[mi][dt][2 * hh + 1]);
			__syncthreads(); // partial O, sums visible
			// Combine: O_i ← α·O_i + Σ_w O_w (lazy), or the normalised form.
			for (int v = tid; v < BR * D / 4; v += THREADS) {
				const int r = (v * 4) / D, c = (v * 4) % D, gr = qb * BR + r;
				const float mo = sm_m[r], lo = sm_l[r];
				float mnew = mo, lsum = 0.f;
#pragma unroll
				for (int w = 0; w < WARPS; w++) {
					mnew = fmaxf(mnew, red_m[w * BR + r]);
					lsum += red_l[w * BR + r];
				}
				const float alpha = ex2(fmaf(mo, sl2, -exp_ref(mnew, sl2)));
				const float lnew = alpha * lo + lsum;
				float4 acc = make_float4(0.f, 0.f, 0.f, 0.f);
#pragma unroll
				for (int w = 0; w < WARPS; w++) {
					float4 pw = *reinterpret_cast<const float4 *>(part + w * BR * LD + r * LD + c);
					acc.x += pw.x; acc.y += pw.y; acc.z += pw.z; acc.w += pw.w;
				}
				float4 old = make_float4(0.f, 0.f, 0.f, 0.f);
				if (!first) {
					if (SEQPAR)
						old = *reinterpret_cast<const float4 *>(orun + r * D + c);
					else if (gr < p.pb.Nq)
						old = *reinterpret_cast<const float4 *>(p.o_acc + (rowbase + gr) * D + c);
				}
				float f_old, f_new;
				if (LAZY) {
					f_old = alpha;
					f_new = 1.f;
				} else { // diag(ℓ_new)⁻¹ every step
					float inv = lnew > 0.f ? 1.f / lnew : 0.f;
					f_old = alpha * lo * inv;
					f_new = inv;
				}
				float4 nw = make_float4(old.x * f_old + acc.x * f_new, old.y * f_old + acc.y * f_new,
							old.z * f_old + acc.z * f_new, old.w * f_old + acc.w * f_new);
				if (final) {
					if (gr < p.pb.Nq) {
						float inv = LAZY ? (lnew > 0.f ? 1.f / lnew : 0.f) : 1.f;
						uint2 pk = make_uint2(elem<T>::pack(nw.x * inv, nw.y * inv), elem<T>::pack(nw.z * inv, nw.w * inv));
						*reinterpret_cast<uint2 *>(Og + (size_t)gr * D + c) = pk;
					}
				} else if (SEQPAR) {
					*reinterpret_cast<float4 *>(orun + r * D + c) = nw;
				} else if (gr < p.pb.Nq) {
					*reinterpret_cast<float4 *>(p.o_acc + (rowbase + gr) * D + c) = nw;
				}
			}
			__syncthreads(); // everyone read sm_m, red_*
			if (tid < BR) {
				const int r = tid, gr = qb * BR + r;
				const float mo = sm_m[r], lo = sm_l[r];
				float mnew = mo, lsum = 0.f;
#pragma unroll
				for (int w = 0; w < WARPS; w++) {
					mnew = fmaxf(mnew, red_m[w * BR + r]);
					lsum += red_l[w * BR + r];
				}
				const float lnew = ex2(fmaf(mo, sl2, -exp_ref(mnew, sl2))) * lo + lsum;
				sm_m[r] = mnew;
				sm_l[r] = lnew;
				if (final) {
					put_stats(gr, mnew, lnew);
					if (!SEQPAR && LAZY && gr < p.pb.Nq) {
						p.m[rowbase + gr] = mnew == -INFINITY ? -INFINITY : mnew * p.pb.scale;
						p.l[rowbase + gr] = lnew;
					}
				} else if (!SEQPAR && gr < p.pb.Nq) { // m_i, ℓ_i back to HBM
					p.m[rowbase + gr] = mnew == -INFINITY ? -INFINITY : mnew * p.pb.scale;
					p.l[rowbase + gr] = lnew;
				}
			}
			__syncthreads();
		};
		using yes = std::true_type;
		using no = std::false_type;

		if constexpr (SEQPAR) {
			const int qb = p.pb.causal ? ((sh.pb.Nq + BR - 1) / BR) - 1 - blockIdx.x : blockIdx.x;
			const int n = kv_blocks<BR, BC>(sh, qb);
			const uint32_t sQ = sbase + SL::Q;
			if (n == 0) {
				empty_qblock(qb);
				return;
			}
			if (tid < BR) {
				sm_m[tid] = -INFINITY;
				sm_l[tid] = 0.f;
			}
			load_tile<BR, D, THREADS>(sQ, Qg, qb * BR, p.pb.Nq, tid);
			load_tile<BC, D, THREADS>(sbase + SL::K, Kg, 0, p.pb.Nkv, tid);
			load_tile<BC, D, THREADS>(sbase + SL::V, Vg, 0, p.pb.Nkv, tid);
			cp_async_commit();
			// q_outer's loop written out: through q_outer these two rungs ran
			// 0.5–4.5 % slower (A/B on the H200, 2026-12-03, docs/benchmarks.md)
			// for the same registers give or take one; the split-Q rungs did not.
			for (int j = 0; j < n; j++) {
				cp_async_wait<0>();
				__syncthreads();
				if (j + 1 < n) {
					const int nb = (j + 1) & 1;
					load_tile<BC, D, THREADS>(sbase + SL::K + nb * SL::KB, Kg, (j + 1) * BC, p.pb.Nkv, tid);
					load_tile<BC, D, THREADS>(sbase + SL::V + nb * SL::KB, Vg, (j + 1) * BC, p.pb.Nkv, tid);
				}
				cp_async_commit();
				const uint32_t sK = sbase + SL::K + (j & 1) * SL::KB, sV = sbase + SL::V + (j & 1) * SL::KB;
				if (needs_mask<BR, BC>(sh, qb, j))
					step(yes{}, sQ, sK, sV, qb, j, j == 0, j == n - 1);
				else
					step(no{}, sQ, sK, sV, qb, j, j == 0, j == n - 1);
			}
			cp_async_wait<0>();
		} else {
			kv_outer<BR, BC>(sh, [&](int j, int qb, int it, bool first, bool final) {
				const uint32_t sQ = sbase + SL::Q + (it & 1) * SL::QB;
				const uint32_t sK = sbase + SL::K + (j & 1) * SL::KB, sV = sbase + SL::V + (j & 1) * SL::KB;
				if (needs_mask<BR, BC>(sh, qb, j))
					step(yes{}, sQ, sK, sV, qb, j, first, final);
				else
					step(no{}, sQ, sK, sV, qb, j, first, final);
			}, [&](int j, int qb, int it, bool new_kv) {
				if (new_kv)
					load_kv<BC, D, SL>(sbase, Kg, Vg, j, p.pb.Nkv, tid);
				load_tile<BR, D, THREADS>(sbase + SL::Q + (it & 1) * SL::QB, Qg, qb * BR, p.pb.Nq, tid);
			}, empty_qblock);
		}
	}
}

} // namespace flash

namespace flash {

// Launch one instantiation: grid (q-blocks, B·H) or (B·H), 128 threads.
// With regs: no launch, *regs = the instantiation's registers per thread.
template <typename T, int D, bool SEQPAR, bool SPLITQ, bool LAZY>
cudaError_t launch(const flash_params &p, cudaStream_t st, int *regs = nullptr)
{
	using TL = tile<D, SPLITQ>;
	constexpr int SMEM = smem_layout<D, SEQPAR, SPLITQ>::TOTAL;
	static_assert(SMEM <= 227 * 1024, "shared memory over the sm_90 limit");
	auto kern = flash_fwd<T, D, SEQPAR, SPLITQ, LAZY>;
	if (regs) {
		cudaFuncAttributes a;
		const cudaError_t e = cudaFuncGetAttributes(&a, kern);
		*regs = e == cudaSuccess ? a.numRegs : -1;
		return e;
	}
	static bool attr_set; // raising the dynamic limit once per instantiation is enough
	if (!attr_set) {
		cudaError_t e = cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, SMEM);
		if (e != cudaSuccess)
			return e;
		attr_set = true;
	}
	const int bh = p.pb.B * p.pb.H;
	const dim3 grid(FLASH_FWD_GRID_X(SEQPAR, p.pb.Nq, TL::BR, bh), FLASH_FWD_GRID_Y(SEQPAR, bh));
	kern<<<grid, THREADS, SMEM, st>>>(p);
	return cudaGetLastError();
}

template <bool SEQPAR, bool SPLITQ, bool LAZY>
cudaError_t launch_sw(const flash_params &p, enum dtype t, int d, cudaStream_t st, int *regs = nullptr)
{
	if (t == DTYPE_FP16)
		return d == 64 ? launch<__half, 64, SEQPAR, SPLITQ, LAZY>(p, st, regs)
			       : launch<__half, 128, SEQPAR, SPLITQ, LAZY>(p, st, regs);
	return d == 64 ? launch<__nv_bfloat16, 64, SEQPAR, SPLITQ, LAZY>(p, st, regs)
		       : launch<__nv_bfloat16, 128, SEQPAR, SPLITQ, LAZY>(p, st, regs);
}

} // namespace flash
