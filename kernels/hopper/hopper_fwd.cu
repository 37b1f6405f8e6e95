// hopper_fwd.cu: the Hopper-native (sm_90a) attention forward, one template,
// four rungs (hopper_attn.h names them).  Build: tools/hopper-build.sh.
//
// A CTA owns BM = 128 query rows of one (b, h): two consumer warpgroups of
// 64 rows each (wgmma's M).  It walks the key blocks of BN = Tiles<D>::BN keys
// (128; 64 at d = 256: hopper_tiles.h):
//   S = Q·Kᵀ   wgmma m64n{BN}k16, A = Q and B = K from shared memory (K-major)
//   O += P·V   wgmma m64n{d}k16, A = P from registers (the S accumulators
//              converted in place: wgmma's accumulator layout is its A layout),
//              B = V from shared memory (MN-major, transposed by the descriptor)
// Q, K, V tiles arrive by TMA (cp.async.bulk.tensor, 128-byte swizzle, boxes
// of 64 columns) on mbarriers.  Online softmax in registers (exp2, scale
// folded), one rescale of O per block, logsumexp written at the end.
//
// Rungs (template parameter RUNG, cumulative):
//   0 +wgmma    256 threads, both warpgroups consume; thread 0 also issues the
//               TMA loads inline, STAGES-1 blocks ahead; every GEMM is waited at once.
//   1 +tma+ws   384 threads: warpgroup 0 is the producer (setmaxnreg 24; one
//               thread issues TMA into a STAGES-deep K/V ring with full and
//               empty mbarriers), warpgroups 1-2 consume (setmaxnreg 240).
//   2 +pingpong the two consumers take turns at the tensor cores: named
//               barriers 1 and 2 order their GEMM phases, so one warpgroup's
//               softmax runs while the other's GEMMs do.
//   3 +overlap  inside a warpgroup, a phase issues Q·K_jᵀ then P_{j-1}·V_{j-1}
//               and waits for the first only: the softmax of block j runs
//               under the P·V GEMM of block j-1.
#include <cuda.h>
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <math.h>
#include <stdint.h>
#include <type_traits>

#include "hopper_attn.h"
#include "hopper_tiles.h"
#include "../tiles.h" /* the forward grid, held once */
#include "wgmma_ops.cuh"
#include "hopper_ptx.cuh"
#include "hopper_softmax.cuh" /* KParams, softmax_block: shared with the FP8 forward */

#define HOPPER_STR_(x) #x
#define HOPPER_STR(x) HOPPER_STR_(x)

namespace hopper {

constexpr int BM = HOPPER_BLOCK_M; // query rows per CTA (hopper_tiles.h)
// the role split the code assumes (tid / 128, cw ^ 1, 64-row consumers) is hopper_tiles.h's
static_assert(HOPPER_WARPGROUP == 128 && HOPPER_CONSUMERS == 2 && HOPPER_CONSUMERS * 64 == BM,
	      "hopper_tiles.h: two consumer warpgroups of wgmma's 64 rows");

template <int D> struct Tiles {
	static constexpr int BN = HOPPER_BLOCK_N(D); // keys per block
	static constexpr int STAGES = HOPPER_STAGES(D);
	static constexpr int QBYTES = BM * D * 2;
	static constexpr int KBYTES = BN * D * 2; // one K (or V) block
	static constexpr int OFF_K = QBYTES;
	static constexpr int OFF_V = OFF_K + STAGES * KBYTES;
	static constexpr int OFF_BAR = OFF_V + STAGES * KBYTES;
	static constexpr int SMEM = OFF_BAR + 256 + 1024; // barriers + alignment slack
	static_assert(SMEM == HOPPER_SMEM(D), "hopper_tiles.h's HOPPER_SMEM is this layout");
};

// PTX helpers (mbarriers, TMA, wgmma fence/commit/wait, make_desc) and the
// tensor-map encoding: hopper_ptx.cuh, shared with hopper_bwd.cu.

template <bool BF> struct Ops;
template <> struct Ops<false> {
	__device__ static void qk(float (&d)[64], uint64_t a, uint64_t b, int sc) { wgmma_ss_m64n128k16_f16(d, a, b, sc); }
	__device__ static void qk(float (&d)[32], uint64_t a, uint64_t b, int sc) { wgmma_ss_m64n64k16_f16(d, a, b, sc); }
	__device__ static void pv(float (&d)[64], const uint32_t (&a)[4], uint64_t b) { wgmma_rs_m64n128k16_f16(d, a, b, 1); }
	__device__ static void pv(float (&d)[32], const uint32_t (&a)[4], uint64_t b) { wgmma_rs_m64n64k16_f16(d, a, b, 1); }
	__device__ static void pv(float (&d)[128], const uint32_t (&a)[4], uint64_t b) { wgmma_rs_m64n256k16_f16(d, a, b, 1); }
	__device__ static uint32_t pack(float x, float y)
	{
		__half2 h = __floats2half2_rn(x, y);
		return *reinterpret_cast<uint32_t *>(&h);
	}
};
template <> struct Ops<true> {
	__device__ static void qk(float (&d)[64], uint64_t a, uint64_t b, int sc) { wgmma_ss_m64n128k16_bf16(d, a, b, sc); }
	__device__ static void qk(float (&d)[32], uint64_t a, uint64_t b, int sc) { wgmma_ss_m64n64k16_bf16(d, a, b, sc); }
	__device__ static void pv(float (&d)[64], const uint32_t (&a)[4], uint64_t b) { wgmma_rs_m64n128k16_bf16(d, a, b, 1); }
	__device__ static void pv(float (&d)[32], const uint32_t (&a)[4], uint64_t b) { wgmma_rs_m64n64k16_bf16(d, a, b, 1); }
	__device__ static void pv(float (&d)[128], const uint32_t (&a)[4], uint64_t b) { wgmma_rs_m64n256k16_bf16(d, a, b, 1); }
	__device__ static uint32_t pack(float x, float y)
	{
		__nv_bfloat162 h = __floats2bfloat162_rn(x, y);
		return *reinterpret_cast<uint32_t *>(&h);
	}
};

// S = Q·Kᵀ for this warpgroup's 64 rows (issue only).
template <int D, bool BF> __device__ __forceinline__ void issue_qk(float (&s)[Tiles<D>::BN / 2], uint32_t sQw, uint32_t sK)
{
	constexpr int BN = Tiles<D>::BN;
#pragma unroll
	for (int kk = 0; kk < D / 16; kk++) {
		uint64_t a = make_desc(sQw + (kk / 4) * (BM * 128) + (kk % 4) * 32, 16, 1024);
		uint64_t b = make_desc(sK + (kk / 4) * (BN * 128) + (kk % 4) * 32, 16, 1024);
		Ops<BF>::qk(s, a, b, kk > 0);
	}
}
// O += P·V (issue only).
template <int D, bool BF>
__device__ __forceinline__ void issue_pv(float (&o)[D / 2], const uint32_t (&pk)[Tiles<D>::BN / 16][4], uint32_t sV)
{
	constexpr int BN = Tiles<D>::BN;
#pragma unroll
	for (int kk = 0; kk < BN / 16; kk++) {
		uint64_t b = make_desc(sV + kk * 16 * 128, BN * 128, 1024);
		Ops<BF>::pv(o, pk[kk], b);
	}
}

template <int D, bool BF, bool CAUSAL, int RUNG>
__global__ void __launch_bounds__(HOPPER_THREADS(RUNG), 1)
	hopper_fwd_kernel(const __grid_constant__ CUtensorMap tq, const __grid_constant__ CUtensorMap tk,
			  const __grid_constant__ CUtensorMap tv, const KParams p)
{
	using TL = Tiles<D>;
	constexpr int S = TL::STAGES, BN = TL::BN;
	constexpr bool WS = RUNG >= 1, PP = RUNG >= 2, OV = RUNG >= 3;
	constexpr int NCB = D / 64; // 64-column blocks of a tile

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
	const int bh = blockIdx.y, b = bh / p.H, h = bh % p.H;
	const int kvz = b * p.Hkv + h / p.hgroup;
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
			mbar_init(emptyK(s), HOPPER_EMPTY_ARRIVALS); // one arrival per consumer warp
			mbar_init(emptyV(s), HOPPER_EMPTY_ARRIVALS);
		}
		asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
		asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
	}
	__syncthreads();

	auto load_q = [&]() {
		mbar_expect_tx(barQ, TL::QBYTES);
		for (int c = 0; c < NCB; c++)
			tma_load_3d(sQ + c * BM * 128, &tq, barQ, c * 64, qb * BM, bh);
	};
	auto load_k = [&](int j) {
		const int st = j % S;
		mbar_expect_tx(fullK(st), TL::KBYTES);
		for (int c = 0; c < NCB; c++)
			tma_load_3d(sK0 + st * TL::KBYTES + c * BN * 128, &tk, fullK(st), c * 64, j * BN, kvz);
	};
	auto load_v = [&](int j) {
		const int st = j % S;
		mbar_expect_tx(fullV(st), TL::KBYTES);
		for (int c = 0; c < NCB; c++)
			tma_load_3d(sV0 + st * TL::KBYTES + c * BN * 128, &tv, fullV(st), c * 64, j * BN, kvz);
	};

	if (WS && tid < 128) {
		// ---- producer warpgroup ----
		asm volatile("setmaxnreg.dec.sync.aligned.u32 " HOPPER_STR(HOPPER_REGS_PRODUCER) ";\n" ::: "memory");
		if (tid == 0) {
			load_q();
			for (int j = 0; j < nkb; j++) {
				const int st = j % S;
				if (j >= S)
					mbar_wait(emptyK(st), ((j / S) - 1) & 1);
				load_k(j);
				if (j >= S)
					mbar_wait(emptyV(st), ((j / S) - 1) & 1);
				load_v(j);
			}
		}
		return;
	}
	if (WS)
		asm volatile("setmaxnreg.inc.sync.aligned.u32 " HOPPER_STR(HOPPER_REGS_CONSUMER) ";\n" ::: "memory");

	// ---- consumer warpgroups ----
	const int cw = WS ? tid / 128 - 1 : tid / 128;
	const int ct = tid % 128, w = ct / 32, lane = tid % 32, g = lane / 4, c4 = lane % 4;
	const uint32_t sQw = sQ + cw * 64 * 128;
	const int r0 = qb * BM + cw * 64 + w * 16 + g; // this thread's rows r0, r0 + 8

	if (!WS && tid == 0) {
		load_q();
		for (int j = 0; j < min(S, nkb); j++) {
			load_k(j);
			load_v(j);
		}
	}

	float o[D / 2];
#pragma unroll
	for (int i = 0; i < D / 2; i++)
		o[i] = 0.f;
	float m[2] = {-INFINITY, -INFINITY}, l[2] = {0.f, 0.f}, corr[2];
	float s[BN / 2];
	uint32_t pk[BN / 16][4];

	// Scheduling barriers of the pingpong: consumer cw waits on 1 + cw before
	// its GEMM phase and lets the other go after it.  Both run nkb + 1 phases;
	// consumer 1 opens with an arrive and leaves out its last one, so every
	// barrier's arrivals match its waits.
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
	auto convert = [&]() {
#pragma unroll
		for (int kk = 0; kk < BN / 16; kk++) {
			pk[kk][0] = Ops<BF>::pack(s[8 * kk + 0], s[8 * kk + 1]);
			pk[kk][1] = Ops<BF>::pack(s[8 * kk + 2], s[8 * kk + 3]);
			pk[kk][2] = Ops<BF>::pack(s[8 * kk + 4], s[8 * kk + 5]);
			pk[kk][3] = Ops<BF>::pack(s[8 * kk + 6], s[8 * kk + 7]);
		}
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
		// phase 0: S = Q·K_0ᵀ
		mbar_wait(fullK(0), 0);
		sched_begin();
		wg_fence();
		issue_qk<D, BF>(s, sQw, sK0);
		wg_commit();
		sched_end(false);
		wg_wait<0>();
		fence_regs(s);
		if (lane == 0)
			mbar_arrive(emptyK(0));
		softmax_block<CAUSAL>(s, m, l, corr, needs_mask(0), 2 * c4, r0, p);
		convert();

		for (int j = 1; j < nkb; j++) {
			const int st = j % S, sp = (j - 1) % S;
			mbar_wait(fullK(st), (j / S) & 1);
			mbar_wait(fullV(sp), ((j - 1) / S) & 1);
			sched_begin();
			fence_regs(o);
			fence_regs(pk);
			wg_fence();
			issue_qk<D, BF>(s, sQw, sK0 + st * TL::KBYTES);
			wg_commit();
			// O rescaled by block j-1's correction while Q·K_jᵀ runs
			rescale_o(corr);
			wg_fence();
			issue_pv<D, BF>(o, pk, sV0 + sp * TL::KBYTES);
			wg_commit();
			sched_end(false); // the other consumer may issue now
			if (OV)
				wg_wait<1>();
			else
				wg_wait<0>();
			fence_regs(s);
			if (lane == 0)
				mbar_arrive(emptyK(st));
			softmax_block<CAUSAL>(s, m, l, corr, needs_mask(j), j * BN + 2 * c4, r0, p);
			if (OV)
				wg_wait<0>();
			fence_regs(o);
			fence_regs(pk);
			if (lane == 0)
				mbar_arrive(emptyV(sp));
			if (!WS) {
				// inline producer: block j-1 is free once both consumers
				// released it; refill its stage with block j-1+S.
				if (tid == 0 && j - 1 + S < nkb) {
					mbar_wait(emptyK(sp), ((j - 1) / S) & 1);
					mbar_wait(emptyV(sp), ((j - 1) / S) & 1);
					load_k(j - 1 + S);
					load_v(j - 1 + S);
				}
				__syncwarp();
			}
			convert();
		}
		// last phase: O += P·V_{nkb-1}
		const int sp = (nkb - 1) % S;
		mbar_wait(fullV(sp), ((nkb - 1) / S) & 1);
		sched_begin();
		fence_regs(o);
		fence_regs(pk);
		rescale_o(corr);
		wg_fence();
		issue_pv<D, BF>(o, pk, sV0 + sp * TL::KBYTES);
		wg_commit();
		sched_end(true);
		wg_wait<0>();
		fence_regs(o);
	}

	// ---- epilogue: O / l, logsumexp ----
#pragma unroll
	for (int hh = 0; hh < 2; hh++) {
		l[hh] += __shfl_xor_sync(0xffffffffu, l[hh], 1);
		l[hh] += __shfl_xor_sync(0xffffffffu, l[hh], 2);
	}
	const float inv0 = l[0] > 0.f ? 1.f / l[0] : 0.f, inv1 = l[1] > 0.f ? 1.f / l[1] : 0.f;
	using T = typename std::conditional<BF, __nv_bfloat16, __half>::type;
	T *O = reinterpret_cast<T *>(p.o) + (size_t)bh * p.Nq * D;
#pragma unroll
	for (int hh = 0; hh < 2; hh++) {
		const int row = r0 + 8 * hh;
		if (row < p.Nq) {
			const float inv = hh ? inv1 : inv0;
			uint32_t *dst = reinterpret_cast<uint32_t *>(O + (size_t)row * D + 2 * c4);
#pragma unroll
			for (int i = 0; i < D / 8; i++)
				dst[4 * i] = Ops<BF>::pack(o[4 * i + 2 * hh] * inv, o[4 * i + 2 * hh + 1] * inv);
			if (p.lse && c4 == 0)
				p.lse[(size_t)bh * p.Nq + row] = l[hh] > 0.f ? m[hh] * p.scale + logf(l[hh]) : -INFINITY;
		}
	}
}

// ---- host ---------------------------------------------------------------

typedef void (*KernelFn)(CUtensorMap, CUtensorMap, CUtensorMap, KParams);

template <int D, bool BF, bool CAUSAL, int RUNG> static int launch(const hopper_fwd_params *a)
{
	auto kern = hopper_fwd_kernel<D, BF, CAUSAL, RUNG>;
	constexpr int smem = Tiles<D>::SMEM;
	static bool attr_set = false;
	if (!attr_set) {
		cudaError_t e = cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
		if (e != cudaSuccess)
			return e;
		attr_set = true;
	}
	CUtensorMap tq, tk, tv;
	int e;
	if ((e = make_map(&tq, a->q, BF, D, a->pb.Nq, a->pb.B * a->pb.H, BM)) ||
	    (e = make_map(&tk, a->k, BF, D, a->pb.Nkv, a->pb.B * a->pb.Hkv, Tiles<D>::BN)) ||
	    (e = make_map(&tv, a->v, BF, D, a->pb.Nkv, a->pb.B * a->pb.Hkv, Tiles<D>::BN)))
		return e;
	KParams p;
	p.o = a->o;
	p.lse = a->lse;
	p.Nq = a->pb.Nq;
	p.Nkv = a->pb.Nkv;
	p.H = a->pb.H;
	p.Hkv = a->pb.Hkv;
	p.hgroup = a->pb.H / a->pb.Hkv;
	p.nqb = (a->pb.Nq + BM - 1) / BM;
	p.off = a->pb.Nkv - a->pb.Nq;
	p.scale = a->pb.scale > 0.f ? a->pb.scale : 1.f / sqrtf((float)D);
	p.sl2 = p.scale * 1.4426950408889634f;
	const dim3 grid(FLASH_FWD_GRID_X(1, a->pb.Nq, BM, a->pb.B * a->pb.H), FLASH_FWD_GRID_Y(1, a->pb.B * a->pb.H));
	kern<<<grid, HOPPER_THREADS(RUNG), smem, (cudaStream_t)a->stream>>>(tq, tk, tv, p);
	return cudaGetLastError();
}

template <int D, bool BF, bool CAUSAL, int RUNG> static int info(hopper_kernel_info *out)
{
	cudaFuncAttributes fa;
	cudaError_t e = cudaFuncGetAttributes(&fa, hopper_fwd_kernel<D, BF, CAUSAL, RUNG>);
	if (e != cudaSuccess)
		return e;
	out->threads = HOPPER_THREADS(RUNG);
	out->block_m = BM;
	out->block_n = Tiles<D>::BN;
	out->stages = Tiles<D>::STAGES;
	out->regs = fa.numRegs;
	out->regs_producer = RUNG >= 1 ? HOPPER_REGS_PRODUCER : fa.numRegs;
	out->regs_consumer = RUNG >= 1 ? HOPPER_REGS_CONSUMER : fa.numRegs;
	out->smem_bytes = Tiles<D>::SMEM;
	out->local_bytes = (int)fa.localSizeBytes;
	return 0;
}

// Instantiations: one set per head dim of HOPPER_HEAD_DIMS (hopper_tiles.h),
// the list the entry check and the variant descriptors read too.
// HOPPER_DEV_ONLY=1 builds d = 128 fp16 alone (quick builds).
template <int D, bool BF, bool C> static int pick(int rung, const hopper_fwd_params *a, hopper_kernel_info *inf)
{
	switch (rung) {
	case 0: return a ? launch<D, BF, C, 0>(a) : info<D, BF, C, 0>(inf);
	case 1: return a ? launch<D, BF, C, 1>(a) : info<D, BF, C, 1>(inf);
	case 2: return a ? launch<D, BF, C, 2>(a) : info<D, BF, C, 2>(inf);
	case 3: return a ? launch<D, BF, C, 3>(a) : info<D, BF, C, 3>(inf);
	}
	return cudaErrorInvalidValue;
}

constexpr int head_dims[] = HOPPER_HEAD_DIMS;
constexpr int n_head_dims = (int)(sizeof(head_dims) / sizeof(head_dims[0]));

static bool takes_head_dim(int d)
{
	for (int i = 0; i < n_head_dims; i++)
		if (head_dims[i] == d)
			return true;
	return false;
}

template <int I> static int dispatch_d(int rung, int d, int dt, int causal, const hopper_fwd_params *a, hopper_kernel_info *inf)
{
	if constexpr (I < n_head_dims) {
		constexpr int D = head_dims[I];
		static_assert(D % 64 == 0 && D <= 256, "hopper_tiles.h: d a multiple of the 64-column box, at most wgmma's N = 256");
		if (d != D)
			return dispatch_d<I + 1>(rung, d, dt, causal, a, inf);
#if HOPPER_DEV_ONLY
		if (D != 128 || dt != HOPPER_FP16)
			return cudaErrorInvalidValue;
		return causal ? pick<128, false, true>(rung, a, inf) : pick<128, false, false>(rung, a, inf);
#else
		if (dt == HOPPER_BF16)
			return causal ? pick<D, true, true>(rung, a, inf) : pick<D, true, false>(rung, a, inf);
		return causal ? pick<D, false, true>(rung, a, inf) : pick<D, false, false>(rung, a, inf);
#endif
	} else
		return cudaErrorInvalidValue;
}

static int dispatch(int rung, int d, int dt, int causal, const hopper_fwd_params *a, hopper_kernel_info *inf)
{
	return dispatch_d<0>(rung, d, dt, causal, a, inf);
}

} // namespace hopper

extern "C" int hopper_fwd(const struct hopper_fwd_params *a, int rung)
{
	if (!a || rung < 0 || rung >= HOPPER_RUNG_COUNT || !hopper::takes_head_dim(a->pb.d) || a->pb.B < 1 || a->pb.H < 1 ||
	    a->pb.Hkv < 1 || a->pb.H % a->pb.Hkv || a->pb.Nq < 1 || a->pb.Nkv < 1 || (a->dtype != HOPPER_FP16 && a->dtype != HOPPER_BF16) ||
	    !a->q || !a->k || !a->v || !a->o || ((uintptr_t)a->q | (uintptr_t)a->k | (uintptr_t)a->v | (uintptr_t)a->o) & 15)
		return cudaErrorInvalidValue;
	return hopper::dispatch(rung, a->pb.d, a->dtype, a->pb.causal != 0, a, nullptr);
}

extern "C" const char *hopper_rung_name(int rung)
{
	static const char *names[] = {"+wgmma", "+tma+ws", "+pingpong", "+overlap"};
	return rung >= 0 && rung < HOPPER_RUNG_COUNT ? names[rung] : nullptr;
}

extern "C" int hopper_fwd_info(int rung, int d, int dtype, int causal, struct hopper_kernel_info *out)
{
	if (!out || rung < 0 || rung >= HOPPER_RUNG_COUNT)
		return cudaErrorInvalidValue;
	return hopper::dispatch(rung, d, dtype, causal != 0, nullptr, out);
}
