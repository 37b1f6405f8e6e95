// standard.cu: the softmax kernel of standard attention (S → P in HBM).
// The two GEMMs are cuBLAS calls in runtime.cu.  Also the backward's
// softmax step (softmax_bwd), between its four cuBLAS GEMMs.
#include <math.h>

#include "common.cuh"
#include "tiles.h"

// One warp per row of S: pass 1 an online (max, sum) over the visible keys,
// pass 2 writes P = exp(S - max) / sum, zeros after the causal diagonal
// (bottom-right aligned: row r sees keys c <= r + Nkv - Nq).  fp32 math.
template <typename T, bool VEC>
__global__ void __launch_bounds__(128) softmax_rows(const T *__restrict__ S, T *__restrict__ P, int Nq, int Nkv, int causal)
{
	const int lane = threadIdx.x & 31;
	const int r = blockIdx.x * 4 + (threadIdx.x >> 5);
	if (r >= Nq)
		return;
	const size_t base = ((size_t)blockIdx.y * Nq + r) * Nkv;
	const T *srow = S + base;
	T *prow = P + base;
	const long long last = causal ? (long long)r + Nkv - Nq : (long long)Nkv - 1;
	const int nvis = last < 0 ? 0 : (int)min((long long)Nkv, last + 1);
	const float L2E = 1.4426950408889634f;

	float m = -INFINITY, l = 0.f;
	auto add = [&](float x) {
		float mn = fmaxf(m, x);
		l = l * exp2f((m - mn) * L2E) + exp2f((x - mn) * L2E);
		m = mn;
	};
	if (VEC) { // 8 elements (16 bytes) per load; rows start 16-byte aligned
		for (int c = lane * 8; c < nvis; c += 32 * 8) {
			uint4 u = *reinterpret_cast<const uint4 *>(srow + c);
			const T *e = reinterpret_cast<const T *>(&u);
			float mx = -INFINITY;
#pragma unroll
			for (int i = 0; i < 8; i++)
				if (c + i < nvis)
					mx = fmaxf(mx, elem<T>::to_f(e[i]));
			float mn = fmaxf(m, mx), sum = 0.f;
#pragma unroll
			for (int i = 0; i < 8; i++)
				if (c + i < nvis)
					sum += exp2f((elem<T>::to_f(e[i]) - mn) * L2E);
			l = (m == -INFINITY ? 0.f : l * exp2f((m - mn) * L2E)) + sum;
			m = mn;
		}
	} else {
		for (int c = lane; c < nvis; c += 32)
			add(elem<T>::to_f(srow[c]));
	}
	// Combine the lanes' (m, l).
#pragma unroll
	for (int off = 16; off > 0; off >>= 1) {
		float mo = __shfl_xor_sync(0xffffffffu, m, off), lo = __shfl_xor_sync(0xffffffffu, l, off);
		float mn = fmaxf(m, mo);
		float a = m == -INFINITY ? 0.f : l * exp2f((m - mn) * L2E);
		float b = mo == -INFINITY ? 0.f : lo * exp2f((mo - mn) * L2E);
		m = mn;
		l = a + b;
	}
	const float inv = l > 0.f ? 1.f / l : 0.f;
	if (VEC) {
		for (int c = lane * 8; c < Nkv; c += 32 * 8) {
			uint4 u = *reinterpret_cast<const uint4 *>(srow + c);
			const T *e = reinterpret_cast<const T *>(&u);
			uint4 o;
			T *oe = reinterpret_cast<T *>(&o);
#pragma unroll
			for (int i = 0; i < 8; i++)
				oe[i] = elem<T>::from_f(c + i < nvis ? exp2f((elem<T>::to_f(e[i]) - m) * L2E) * inv : 0.f);
			*reinterpret_cast<uint4 *>(prow + c) = o;
		}
	} else {
		for (int c = lane; c < Nkv; c += 32)
			prow[c] = elem<T>::from_f(c < nvis ? exp2f((elem<T>::to_f(srow[c]) - m) * L2E) * inv : 0.f);
	}
}

template <typename T>
static cudaError_t launch_t(const uint16_t *s, uint16_t *p, int BH, int Nq, int Nkv, int causal, cudaStream_t st)
{
	dim3 grid((Nq + 3) / 4, BH);
	if (Nkv % 8 == 0)
		softmax_rows<T, true><<<grid, 128, 0, st>>>(reinterpret_cast<const T *>(s), reinterpret_cast<T *>(p), Nq, Nkv, causal);
	else
		softmax_rows<T, false><<<grid, 128, 0, st>>>(reinterpret_cast<const T *>(s), reinterpret_cast<T *>(p), Nq, Nkv, causal);
	return cudaGetLastError();
}

cudaError_t softmax_rows_launch(const uint16_t *s, uint16_t *p, enum dtype t, int BH, int Nq, int Nkv, int causal, cudaStream_t st)
{
	return t == DTYPE_FP16 ? launch_t<__half>(s, p, BH, Nq, Nkv, causal, st)
			       : launch_t<__nv_bfloat16>(s, p, BH, Nq, Nkv, causal, st);
}

// ---- backward ----------------------------------------------------------------

// dS = P ∘ (dP − D) with D = rowsum(dO ∘ O), one warp per row of P (fp32
// math).  Keys after the causal diagonal have P = 0 from the forward, so
// their dS is 0 with no mask here.
template <typename T, bool VEC>
__global__ void __launch_bounds__(BWD_ROW_WARPS * 32) softmax_bwd(const T *__restrict__ P, const bwd_params p, int d)
{
	const int lane = threadIdx.x & 31;
	const int r = blockIdx.x * BWD_ROW_WARPS + (threadIdx.x >> 5);
	if (r >= p.pb.Nq)
		return;
	const size_t row = (size_t)blockIdx.y * p.pb.Nq + r; // of [B·H·Nq]
	const T *o = reinterpret_cast<const T *>(p.o) + row * d;
	const T *dO = reinterpret_cast<const T *>(p.dout) + row * d;
	float dsum = 0.f;
	for (int x = lane; x < d; x += 32)
		dsum += elem<T>::to_f(o[x]) * elem<T>::to_f(dO[x]);
#pragma unroll
	for (int x = 16; x > 0; x >>= 1)
		dsum += __shfl_xor_sync(0xffffffffu, dsum, x);
	const size_t base = row * p.pb.Nkv;
	const T *prow = P + base;
	const T *dprow = reinterpret_cast<const T *>(p.dp) + base;
	T *dsrow = reinterpret_cast<T *>(p.ds) + base;
	if (VEC) { // 8 elements (16 bytes) per access; rows start 16-byte aligned
		for (int c = lane * 8; c < p.pb.Nkv; c += 32 * 8) {
			uint4 pu = *reinterpret_cast<const uint4 *>(prow + c), du = *reinterpret_cast<const uint4 *>(dprow + c), out;
			const T *pe = reinterpret_cast<const T *>(&pu), *de = reinterpret_cast<const T *>(&du);
			T *oe = reinterpret_cast<T *>(&out);
#pragma unroll
			for (int i = 0; i < 8; i++)
				oe[i] = elem<T>::from_f(elem<T>::to_f(pe[i]) * (elem<T>::to_f(de[i]) - dsum));
			*reinterpret_cast<uint4 *>(dsrow + c) = out;
		}
	} else {
		for (int c = lane; c < p.pb.Nkv; c += 32)
			dsrow[c] = elem<T>::from_f(elem<T>::to_f(prow[c]) * (elem<T>::to_f(dprow[c]) - dsum));
	}
}

template <typename T>
static cudaError_t launch_bwd_t(const uint16_t *P, const bwd_params &b, int d, cudaStream_t st)
{
	dim3 grid((b.pb.Nq + BWD_ROW_WARPS - 1) / BWD_ROW_WARPS, b.pb.B * b.pb.H);
	if (b.pb.Nkv % 8 == 0)
		softmax_bwd<T, true><<<grid, BWD_ROW_WARPS * 32, 0, st>>>(reinterpret_cast<const T *>(P), b, d);
	else
		softmax_bwd<T, false><<<grid, BWD_ROW_WARPS * 32, 0, st>>>(reinterpret_cast<const T *>(P), b, d);
	return cudaGetLastError();
}

cudaError_t softmax_bwd_launch(const uint16_t *P, const bwd_params &b, enum dtype t, int d, cudaStream_t st)
{
	return t == DTYPE_FP16 ? launch_bwd_t<__half>(P, b, d, st) : launch_bwd_t<__nv_bfloat16>(P, b, d, st);
}
