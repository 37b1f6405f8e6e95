// decode.cu: split-KV decoding (Flash-Decoding style).
//
// splitkv_fwd: grid (splits, B·Hkv·row groups).  One block serves all G =
// H/Hkv query heads of a KV head (their G·Nq query rows are consecutive in
// Q and O), 16 rows per group, and one slice of `chunk` keys.  The K/V
// slice streams through a 3-stage cp.async pipeline of 64-key tiles
// (16-byte coalesced loads, two tiles in flight while one is consumed);
// each of the 4 warps takes 16 keys of a tile with mma.sync and keeps its
// own (m, ℓ, O); the warps combine once at the end through shared memory,
// and the block writes its partial O (fp32) and logsumexp.
// splitkv_combine: O = Σ_s e^{L_s - L} O_s with L = log Σ_s e^{L_s}.
#include <math.h>

#include "flash.cuh"

namespace {

constexpr int KT = 64;      // keys per tile (4 warps × 16)
constexpr int STAGES = 3;
constexpr int ROWS = 16;    // query rows per block (one m16 tile)

template <int D> struct dlayout {
	static constexpr int Q = 0;
	static constexpr int QB = ROWS * D * 2;
	static constexpr int TB = KT * D * 2;                   // one K or V tile
	static constexpr int STAGE0 = (QB + 1023) / 1024 * 1024; // tiles 1024-aligned (swizzle XOR)
	static constexpr int TOTAL = STAGE0 + STAGES * 2 * TB;
	static constexpr int PART_LD = D + 8;
	static_assert(QB <= STAGE0, "Q tile must fit before the stages");
	static_assert(4 * ROWS * PART_LD * 4 + 8 * ROWS * 4 <= STAGES * 2 * TB, "combine scratch reuses the stages");
};

template <typename T, int D>
__global__ void __launch_bounds__(128) splitkv_fwd(const __grid_constant__ splitkv_params p)
{
	using L = dlayout<D>;
	extern __shared__ __align__(1024) unsigned char smem[];
	const uint32_t sbase = smem_u32(smem);
	const int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31, g = lane >> 2, t4 = lane & 3;
	const int G = p.H / p.Hkv, grow = G * p.Nq; // query rows of one KV head
	const int ngroups = (grow + ROWS - 1) / ROWS;
	const int split = blockIdx.x;
	const int grp = blockIdx.y % ngroups, bk = blockIdx.y / ngroups; // bk = b·Hkv + kvh
	const int b = bk / p.Hkv, kvh = bk % p.Hkv;
	const size_t row0 = ((size_t)b * p.H + (size_t)kvh * G) * p.Nq + (size_t)grp * ROWS; // flat [B·H·Nq] row
	const int nrows = min(ROWS, grow - grp * ROWS);
	const uint16_t *Kg = p.k + (size_t)bk * p.Nkv * D;
	const uint16_t *Vg = p.v + (size_t)bk * p.Nkv * D;
	const int k0 = split * p.chunk, k1 = min(p.Nkv, k0 + p.chunk);
	const int ntiles = k1 > k0 ? (k1 - k0 + KT - 1) / KT : 0;
	const float sl2 = p.scale_log2;
	const int offset = p.Nkv - p.Nq;

	load_tile<ROWS, D, 128>(sbase + L::Q, p.q + row0 * D, 0, nrows, tid);
#pragma unroll
	for (int s = 0; s < STAGES - 1; s++) {
		if (s < ntiles) {
			load_tile<KT, D, 128>(sbase + L::STAGE0 + (2 * s) * L::TB, Kg, k0 + s * KT, k1, tid);
			load_tile<KT, D, 128>(sbase + L::STAGE0 + (2 * s + 1) * L::TB, Vg, k0 + s * KT, k1, tid);
		}
		cp_async_commit();
	}

	flash::sq_state<T, D, 1, true> st;
	st.init();
	// Query position of this thread's two rows (for the causal mask).
	int qpos[2];
#pragma unroll
	for (int hh = 0; hh < 2; hh++)
		qpos[hh] = (grp * ROWS + g + hh * 8) % p.Nq;

	for (int t = 0; t < ntiles; t++) {
		cp_async_wait<STAGES - 2>();
		__syncthreads(); // tile t landed; everyone is done with tile t-1's stage
		{
			const int tn = t + STAGES - 1, sn = tn % STAGES;
			if (tn < ntiles) {
				load_tile<KT, D, 128>(sbase + L::STAGE0 + (2 * sn) * L::TB, Kg, k0 + tn * KT, k1, tid);
				load_tile<KT, D, 128>(sbase + L::STAGE0 + (2 * sn + 1) * L::TB, Vg, k0 + tn * KT, k1, tid);
			}
			cp_async_commit();
		}
		const int sidx = t % STAGES;
		const uint32_t sK = sbase + L::STAGE0 + (2 * sidx) * L::TB, sV = sK + L::TB;
		float s[1][2][4];
		flash::qk<T, D, 1, 2>(s, sbase + L::Q, sK, 0, warp * 16, lane);
		const int kb = k0 + t * KT + warp * 16; // first key of this warp
		if (kb + 16 > k1 || (p.causal && kb + 15 > offset)) {
#pragma unroll
			for (int ni = 0; ni < 2; ni++)
#pragma unroll
				for (int e = 0; e < 4; e++) {
					int c = kb + ni * 8 + 2 * t4 + (e & 1);
					if (c >= k1 || (p.causal && c > qpos[e >> 1] + offset))
						s[0][ni][e] = -INFINITY;
				}
		}
#pragma unroll
		for (int hh = 0; hh < 2; hh++) {
			float mx = st.m[0][hh];
#pragma unroll
			for (int ni = 0; ni < 2; ni++)
				mx = fmaxf(mx, fmaxf(s[0][ni][2 * hh], s[0][ni][2 * hh + 1]));
			mx = quad_max(mx);
			const float ref = flash::exp_ref(mx, sl2);
			const float alpha = flash::ex2(fmaf(st.m[0][hh], sl2, -ref));
			st.m[0][hh] = mx;
			float rs = 0.f;
#pragma unroll
			for (int ni = 0; ni < 2; ni++)
#pragma unroll
				for (int e = 0; e < 2; e++) {
					float pe = flash::ex2(fmaf(s[0][ni][2 * hh + e], sl2, -ref));
					s[0][ni][2 * hh + e] = pe;
					rs += pe;
				}
			st.l[0][hh] = st.l[0][hh] * alpha + rs;
#pragma unroll
			for (int dt = 0; dt < D / 8; dt++) {
				st.o[0][dt][2 * hh] *= alpha;
				st.o[0][dt][2 * hh + 1] *= alpha;
			}
		}
		flash::pv<T, D, 1, 2>(st.o, s, sV, warp * 16, lane);
	}
	cp_async_wait<0>();
	__syncthreads(); // stages free: reuse them for the combine

	float *part = reinterpret_cast<float *>(smem + L::STAGE0); // [4][ROWS][PART_LD]
	float *red_m = part + 4 * ROWS * L::PART_LD;                // [4][ROWS]
	float *red_l = red_m + 4 * ROWS;                            // [4][ROWS]
#pragma unroll
	for (int hh = 0; hh < 2; hh++) {
		const int r = g + hh * 8;
		float l = quad_sum(st.l[0][hh]);
		if (t4 == 0) {
			red_m[warp * ROWS + r] = st.m[0][hh];
			red_l[warp * ROWS + r] = l;
		}
#pragma unroll
		for (int dt = 0; dt < D / 8; dt++)
			*reinterpret_cast<float2 *>(part + (warp * ROWS + r) * L::PART_LD + dt * 8 + 2 * t4) =
				make_float2(st.o[0][dt][2 * hh], st.o[0][dt][2 * hh + 1]);
	}
	__syncthreads();
	for (int i = tid; i < ROWS * D / 4; i += 128) {
		const int r = (i * 4) / D, c = (i * 4) % D;
		if (r >= nrows)
			continue;
		float M = -INFINITY;
#pragma unroll
		for (int w = 0; w < 4; w++)
			M = fmaxf(M, red_m[w * ROWS + r]);
		const float ref = flash::exp_ref(M, sl2);
		float lsum = 0.f;
		float4 acc = make_float4(0.f, 0.f, 0.f, 0.f);
#pragma unroll
		for (int w = 0; w < 4; w++) {
			const float e = flash::ex2(fmaf(red_m[w * ROWS + r], sl2, -ref));
			lsum += e * red_l[w * ROWS + r];
			float4 v = *reinterpret_cast<const float4 *>(part + (w * ROWS + r) * L::PART_LD + c);
			acc.x += e * v.x; acc.y += e * v.y; acc.z += e * v.z; acc.w += e * v.w;
		}
		const float inv = lsum > 0.f ? 1.f / lsum : 0.f;
		const size_t orow = (size_t)split * p.B * p.H * p.Nq + row0 + r;
		*reinterpret_cast<float4 *>(p.o_part + orow * D + c) =
			make_float4(acc.x * inv, acc.y * inv, acc.z * inv, acc.w * inv);
		if (c == 0)
			p.l_part[orow] = lsum > 0.f ? M * p.scale + logf(lsum) : -INFINITY;
	}
}

// One thread per output element; each reads the splits' logsumexp of its row.
template <typename T, int D>
__global__ void __launch_bounds__(128) splitkv_combine(const __grid_constant__ splitkv_params p)
{
	const int e = blockIdx.x * 128 + threadIdx.x;
	if (e >= p.Nq * D)
		return;
	const int q = e / D, c = e % D;
	const size_t row = (size_t)blockIdx.y * p.Nq + q, stride = (size_t)p.B * p.H * p.Nq;
	float M = -INFINITY;
	for (int s = 0; s < p.splits; s++)
		M = fmaxf(M, p.l_part[s * stride + row]);
	float wsum = 0.f, acc = 0.f;
	if (M != -INFINITY)
		for (int s = 0; s < p.splits; s++) {
			const float w = __expf(p.l_part[s * stride + row] - M);
			wsum += w;
			acc += w * p.o_part[(s * stride + row) * D + c];
		}
	const float o = wsum > 0.f ? acc / wsum : 0.f;
	reinterpret_cast<T *>(p.o)[row * D + c] = elem<T>::from_f(o);
	if (c == 0)
		p.lse[row] = wsum > 0.f ? M + logf(wsum) : -INFINITY;
}

template <typename T, int D>
cudaError_t launch(const splitkv_params &p, cudaStream_t st)
{
	constexpr int SMEM = dlayout<D>::TOTAL;
	static bool attr_set;
	if (!attr_set) {
		cudaError_t e = cudaFuncSetAttribute(splitkv_fwd<T, D>, cudaFuncAttributeMaxDynamicSharedMemorySize, SMEM);
		if (e != cudaSuccess)
			return e;
		attr_set = true;
	}
	const int G = p.H / p.Hkv, ngroups = (G * p.Nq + ROWS - 1) / ROWS;
	splitkv_fwd<T, D><<<dim3(p.splits, p.B * p.Hkv * ngroups), 128, SMEM, st>>>(p);
	cudaError_t e = cudaGetLastError();
	if (e != cudaSuccess)
		return e;
	splitkv_combine<T, D><<<dim3((p.Nq * D + 127) / 128, p.B * p.H), 128, 0, st>>>(p);
	return cudaGetLastError();
}

} // namespace

cudaError_t splitkv_launch(const splitkv_params &p, enum dtype t, int d, cudaStream_t st)
{
	if (t == DTYPE_FP16)
		return d == 64 ? launch<__half, 64>(p, st) : launch<__half, 128>(p, st);
	return d == 64 ? launch<__nv_bfloat16, 64>(p, st) : launch<__nv_bfloat16, 128>(p, st);
}
