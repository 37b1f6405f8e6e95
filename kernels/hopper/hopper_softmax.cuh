// hopper_softmax.cuh: the forward's kernel parameters and its online softmax
// of one key block on the wgmma accumulators, shared by the 16-bit forward
// (hopper_fwd.cu) and the FP8 forward (hopper_fp8.cu): both hold S in the
// f32 accumulator layout of wgmma m64nN.
#pragma once
#include <math.h>
#include <stdint.h>
#include "hopper_ptx.cuh"

namespace hopper {

struct KParams {
	void *o;
	float *lse;
	int Nq, Nkv, H, Hkv, hgroup, nqb, off; // off = Nkv - Nq (causal diagonal)
	float scale, sl2;                     // scale and scale·log2(e)
};

// One block's online softmax on the S accumulators (in place: s becomes P in
// fp32).  Rows r0 (s[4i], s[4i+1]) and r1 = r0 + 8 (s[4i+2], s[4i+3]); columns
// col0 + 8i + {0, 1}, i < NS / 4 (NS = BN / 2 accumulators).  m: running max of
// raw scores (quad-uniform), l: this thread's partial row sum, corr: the factor
// O must be scaled by.
template <bool CAUSAL, int NS>
__device__ __forceinline__ void softmax_block(float (&s)[NS], float (&m)[2], float (&l)[2], float (&corr)[2], bool mask,
					      int col0, int r0, const KParams &p)
{
	if (mask) {
		int lim0 = p.Nkv - 1, lim1 = p.Nkv - 1;
		if (CAUSAL) {
			lim0 = min(lim0, r0 + p.off);
			lim1 = min(lim1, r0 + 8 + p.off);
		}
#pragma unroll
		for (int i = 0; i < NS / 4; i++)
#pragma unroll
			for (int e = 0; e < 2; e++) {
				const int col = col0 + 8 * i + e;
				if (col > lim0)
					s[4 * i + e] = -INFINITY;
				if (col > lim1)
					s[4 * i + 2 + e] = -INFINITY;
			}
	}
#pragma unroll
	for (int h = 0; h < 2; h++) {
		float mx = m[h];
#pragma unroll
		for (int i = 0; i < NS / 4; i++)
			mx = fmaxf(mx, fmaxf(s[4 * i + 2 * h], s[4 * i + 2 * h + 1]));
		mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 1));
		mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 2));
		const float ms = mx == -INFINITY ? 0.f : mx * p.sl2;
		corr[h] = ex2(m[h] * p.sl2 - ms);
		m[h] = mx;
		float ls = 0.f;
#pragma unroll
		for (int i = 0; i < NS / 4; i++) {
			const float a = ex2(fmaf(s[4 * i + 2 * h], p.sl2, -ms));
			const float b = ex2(fmaf(s[4 * i + 2 * h + 1], p.sl2, -ms));
			s[4 * i + 2 * h] = a;
			s[4 * i + 2 * h + 1] = b;
			ls += a + b;
		}
		l[h] = l[h] * corr[h] + ls;
	}
}

} // namespace hopper
