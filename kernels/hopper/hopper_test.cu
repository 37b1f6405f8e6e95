// hopper_test.cu: standalone check and benchmark of the Hopper forward.
//
//   hopper_test check [--rungs 0,1,2,3] [--seed S]
//       every rung against an fp64 CPU reference at odd, ragged, causal,
//       GQA shapes, fp16 and bf16, every d of HOPPER_HEAD_DIMS (hopper_tiles.h:
//       64, 128, 256); O poisoned (NaN) before
//       each launch; rows sampled for large N.  Tolerances as attnprof's
//       forward checks (src/spec.c): fp16 max-abs 1e-2, rel-L2 5e-3; bf16
//       max-abs 5e-2, rel-L2 2e-2; logsumexp within 1e-3 (abs).  Exit 1 on
//       any failure.
//   hopper_test small  (one small shape, every rung: for compute-sanitizer)
//   hopper_test bench [--rungs ..] [--d 64,128,256] [--n 2048,..] [--settle S] [--reps R]
//       FA2-benchmark shapes B·N = 16384, H·d = 2048; each rung settled
//       (launched untimed for S seconds, default 1) then R launches each
//       between its own CUDA events (default 30); prints CSV rows
//       hopper,<rung>,<dtype>,<d>,<causal>,<B>,<H>,<N>,<median_ms>,<min_ms>,<max_ms>,<tflops>
//   hopper_test bench --fp8 1 [--rungs 3] [--d 128] [--n ..] [--causal 0,1]
//       the FP8 forward (hopper_fp8.cu) beside the given bf16 rungs on the
//       same shapes and bf16 inputs: rows "fp8" (the attention kernel alone,
//       on inputs quantised once), "quant" (the quantisation alone: amax,
//       Q/K to e4m3, V transposed; TFLOP/s column 0) and "fp8+quant" (both,
//       the FLOPs of the attention), "quant+hadamard" (the quantisation with
//       incoherent processing of Q and K).
//   hopper_test check-fp8 [--d 64,128] [--causal 0,1] [--seed S]
//       accuracy as FlashAttention-3 reports it (§4.3): RMSE of O against the
//       fp64 reference of the ORIGINAL bf16 inputs, for the best bf16 rung
//       (+overlap) and the FP8 forward, at N(0,1) inputs and at outlier
//       inputs (0.1 % of the entries of Q, K and V times 10..100); also the
//       FP8 forward against the fp64 reference of its own e4m3 inputs (the
//       quantisation checked byte for byte against the host's).  Outputs,
//       lse and the e4m3 workspaces NaN-poisoned before each launch.  The FP8
//       forward runs twice: plain, and with incoherent processing ("fp8+hadamard":
//       Q, K rows times a seeded ±1 diagonal and the Hadamard transform before
//       quantising), its RMSE also as a multiple of plain FP8's.
//       Tolerances: kernels/hopper/README.md (FP8 forward).  Exit 1 on failure.
//   hopper_test layout-fp8   (host only) P's e4m3 operand layout against the permuted V
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda_fp8.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "hopper_attn.h"
#include "hopper_test_util.cuh"
#include "hopper_tiles.h"

// ---- check ---------------------------------------------------------------

// The rows and heads checked: all when few, else a sample with the first,
// last and the tile edges of the sampled heads.
struct Sample {
	std::vector<int> rows;
	std::vector<std::pair<int, int>> heads; // (b, h)
};

static Sample sample_rows(const Shape &sh, uint64_t seed, int max_rows)
{
	Sample sm;
	if (sh.Nq <= max_rows) {
		for (int r = 0; r < sh.Nq; r++)
			sm.rows.push_back(r);
	} else {
		int fixed[] = {0, 1, 63, 64, 127, 128, sh.Nq - 1, sh.Nq - 2, sh.Nq / 2};
		for (int r : fixed)
			if (r >= 0 && r < sh.Nq)
				sm.rows.push_back(r);
		for (int i = 0; (int)sm.rows.size() < max_rows; i++)
			sm.rows.push_back((int)(mix(seed + 77 + i) % sh.Nq));
	}
	const int nbh = sh.B * sh.H;
	if (nbh <= 8) {
		for (int i = 0; i < nbh; i++)
			sm.heads.push_back({i / sh.H, i % sh.H});
	} else {
		sm.heads.push_back({0, 0});
		sm.heads.push_back({sh.B - 1, sh.H - 1});
		for (int i = 0; i < 4; i++) {
			int x = (int)(mix(seed + 999 + i) % nbh);
			sm.heads.push_back({x / sh.H, x % sh.H});
		}
	}
	return sm;
}

// The fp64 reference of the sampled rows: O (ro, d values a row) and the
// logsumexp (rl), -inf for a row that sees no key.
static void reference_rows(const Shape &sh, int causal, const Sample &sm, const std::vector<float> &fq,
			   const std::vector<float> &fk, const std::vector<float> &fv, std::vector<double> &ro,
			   std::vector<double> &rl)
{
	const size_t nr = sm.rows.size(), d = sh.d;
	ro.assign(sm.heads.size() * nr * d, 0.0);
	rl.assign(sm.heads.size() * nr, 0.0);
	const double scale = 1.0 / sqrt((double)d);
#pragma omp parallel for schedule(dynamic)
	for (long t = 0; t < (long)(sm.heads.size() * nr); t++) {
		const int hi = (int)(t / nr), r = sm.rows[t % nr];
		const int b = sm.heads[hi].first, h = sm.heads[hi].second, hkv = h / (sh.H / sh.Hkv);
		const float *qr = &fq[(((size_t)b * sh.H + h) * sh.Nq + r) * d];
		const float *kh = &fk[((size_t)b * sh.Hkv + hkv) * sh.Nkv * d];
		const float *vh = &fv[((size_t)b * sh.Hkv + hkv) * sh.Nkv * d];
		long last = sh.Nkv - 1;
		if (causal)
			last = std::min<long>(last, (long)r + sh.Nkv - sh.Nq);
		double *orow = &ro[t * d];
		if (last < 0) {
			rl[t] = -INFINITY;
			continue;
		}
		std::vector<double> sc(last + 1);
		double m = -INFINITY;
		for (long c = 0; c <= last; c++) {
			double dot = 0;
			for (size_t x = 0; x < d; x++)
				dot += (double)qr[x] * kh[c * d + x];
			sc[c] = dot * scale;
			m = std::max(m, sc[c]);
		}
		double l = 0;
		for (long c = 0; c <= last; c++) {
			double pr = exp(sc[c] - m);
			l += pr;
			for (size_t x = 0; x < d; x++)
				orow[x] += pr * vh[c * d + x];
		}
		for (size_t x = 0; x < d; x++)
			orow[x] /= l;
		rl[t] = m + log(l);
	}
}

struct Errors {
	double maxabs, rel, lse;
	double rmse;          // root mean square of the error (FlashAttention-3's figure)
	size_t nonfinite;     // non-finite values among the sampled rows
	size_t nonfinite_all; // anywhere in O (an element never written stays NaN)
};

// One rung's O and logsumexp (out, lse) against the reference of the sampled rows.
static Errors compare_rows(const Shape &sh, int bf, const Sample &sm, const std::vector<uint16_t> &out,
			   const std::vector<float> &lse, const std::vector<double> &ro, const std::vector<double> &rl)
{
	const size_t nr = sm.rows.size(), d = sh.d;
	Errors e = {};
	for (size_t i = 0; i < out.size(); i++)
		if (!std::isfinite(from16(out[i], bf)))
			e.nonfinite_all++;
	double num = 0, den = 0;
	size_t cnt = 0;
	for (size_t hi = 0; hi < sm.heads.size(); hi++)
		for (size_t ri = 0; ri < nr; ri++) {
			const int b = sm.heads[hi].first, h = sm.heads[hi].second, r = sm.rows[ri];
			const size_t row = ((size_t)b * sh.H + h) * sh.Nq + r;
			for (size_t x = 0; x < d; x++) {
				double g = from16(out[row * d + x], bf), ref = ro[(hi * nr + ri) * d + x];
				if (!std::isfinite(g)) {
					e.nonfinite++;
					continue;
				}
				e.maxabs = std::max(e.maxabs, fabs(g - ref));
				num += (g - ref) * (g - ref);
				den += ref * ref;
				cnt++;
			}
			double rlv = rl[hi * nr + ri], gl = lse[row];
			if (std::isinf(rlv)) {
				if (!(std::isinf(gl) && gl < 0))
					e.lse = INFINITY;
			} else if (!std::isfinite(gl))
				e.lse = INFINITY;
			else
				e.lse = std::max(e.lse, fabs(gl - rlv));
		}
	e.rel = den > 0 ? sqrt(num / den) : sqrt(num);
	e.rmse = cnt ? sqrt(num / cnt) : 0;
	return e;
}

static int check_one(const Shape &sh, int causal, int bf, const std::vector<int> &rungs, uint64_t seed, int max_rows,
		     int *nfail)
{
	const size_t nq = (size_t)sh.B * sh.H * sh.Nq * sh.d, nk = (size_t)sh.B * sh.Hkv * sh.Nkv * sh.d;
	std::vector<uint16_t> hq(nq), hk(nk), hv(nk);
	std::vector<float> fq(nq), fk(nk), fv(nk);
	for (size_t i = 0; i < nq; i++) {
		hq[i] = to16(rnd(seed, 0, i, 2.f), bf);
		fq[i] = from16(hq[i], bf);
	}
	for (size_t i = 0; i < nk; i++) {
		hk[i] = to16(rnd(seed, 1, i, 2.f), bf);
		fk[i] = from16(hk[i], bf);
		hv[i] = to16(rnd(seed, 2, i, 1.f), bf);
		fv[i] = from16(hv[i], bf);
	}
	void *dq, *dk, *dv, *dout;
	float *dl;
	CK(cudaMalloc(&dq, nq * 2));
	CK(cudaMalloc(&dk, nk * 2));
	CK(cudaMalloc(&dv, nk * 2));
	CK(cudaMalloc(&dout, nq * 2));
	CK(cudaMalloc(&dl, (size_t)sh.B * sh.H * sh.Nq * 4));
	CK(cudaMemcpy(dq, hq.data(), nq * 2, cudaMemcpyHostToDevice));
	CK(cudaMemcpy(dk, hk.data(), nk * 2, cudaMemcpyHostToDevice));
	CK(cudaMemcpy(dv, hv.data(), nk * 2, cudaMemcpyHostToDevice));

	const Sample sm = sample_rows(sh, seed, max_rows);
	std::vector<double> ro, rl;
	reference_rows(sh, causal, sm, fq, fk, fv, ro, rl);

	const double tol_abs = bf ? 5e-2 : 1e-2, tol_rel = bf ? 2e-2 : 5e-3, tol_lse = 1e-3;
	std::vector<uint16_t> out(nq);
	std::vector<float> lse((size_t)sh.B * sh.H * sh.Nq);
	for (int rung : rungs) {
		CK(cudaMemset(dout, 0xFF, nq * 2)); // NaN in fp16 and bf16
		CK(cudaMemset(dl, 0xFF, (size_t)sh.B * sh.H * sh.Nq * 4));
		hopper_fwd_params p = {};
		p.pb.B = sh.B, p.pb.H = sh.H, p.pb.Hkv = sh.Hkv, p.pb.Nq = sh.Nq, p.pb.Nkv = sh.Nkv, p.pb.d = sh.d;
		p.pb.causal = causal, p.dtype = bf ? HOPPER_BF16 : HOPPER_FP16;
		p.q = dq, p.k = dk, p.v = dv, p.o = dout, p.lse = dl;
		int e = hopper_fwd(&p, rung);
		if (e) {
			printf("check %-10s %s d=%d B=%d H=%d Hkv=%d Nq=%d Nkv=%d causal=%d: launch error %d (%s)\n",
			       hopper_rung_name(rung), dtname(bf), sh.d, sh.B, sh.H, sh.Hkv, sh.Nq, sh.Nkv, causal, e,
			       cudaGetErrorString((cudaError_t)e));
			++*nfail;
			continue;
		}
		cudaError_t se = cudaDeviceSynchronize();
		if (se != cudaSuccess) {
			printf("check %s: kernel error %s\n", hopper_rung_name(rung), cudaGetErrorString(se));
			exit(2);
		}
		CK(cudaMemcpy(out.data(), dout, nq * 2, cudaMemcpyDeviceToHost));
		CK(cudaMemcpy(lse.data(), dl, lse.size() * 4, cudaMemcpyDeviceToHost));
		const Errors er = compare_rows(sh, bf, sm, out, lse, ro, rl);
		const bool ok = er.nonfinite == 0 && er.nonfinite_all == 0 && er.maxabs <= tol_abs && er.rel <= tol_rel &&
				er.lse <= tol_lse;
		if (!ok)
			++*nfail;
		printf("check %-10s %s d=%3d B=%d H=%2d Hkv=%2d Nq=%5d Nkv=%5d causal=%d rows=%zux%zu max_abs=%.3e (tol %.0e) "
		       "rel_l2=%.3e (tol %.0e) lse=%.2e nonfinite=%zu %s\n",
		       hopper_rung_name(rung), dtname(bf), sh.d, sh.B, sh.H, sh.Hkv, sh.Nq, sh.Nkv, causal, sm.heads.size(),
		       sm.rows.size(), er.maxabs, tol_abs, er.rel, tol_rel, er.lse, er.nonfinite_all, ok ? "ok" : "FAIL");
		fflush(stdout);
	}
	CK(cudaFree(dq));
	CK(cudaFree(dk));
	CK(cudaFree(dv));
	CK(cudaFree(dout));
	CK(cudaFree(dl));
	return 0;
}

// ---- check-fp8 --------------------------------------------------------------

// e4m3 on the host (round to nearest even, saturating: cuda_fp8.h's host path)
static uint8_t e4m3_of(float x) { return (uint8_t)__nv_cvt_float_to_fp8(x, __NV_SATFINITE, __NV_E4M3); }
static float float_of_e4m3(uint8_t b)
{
	__half_raw h = __nv_cvt_fp8_to_halfraw((__nv_fp8_storage_t)b, __NV_E4M3);
	return __half2float(__half(h));
}
static float host_quant_scale(float amax) { return amax > 0.f ? 448.f / amax : 1.f; } // hopper_fp8.cu's quant_scale
static int host_vt_perm(int a) { return HOPPER_FP8_VT_PERM(a); }

// The permutation P's operand relies on (hopper_fp8.cu): for every lane of a
// warp, the A-fragment column (PTX ISA, wgmma m64nNk32 8-bit A: k = 4c + j,
// + 16 for registers 2/3) of each byte the kernel packs must hold the key the
// packed accumulator belongs to (the f32 accumulator: key 8i + 2c + e for
// accumulator 4i + e, rows g; 4i + 2 + e, rows g + 8).  Host only.
static int check_fp8_layout()
{
	// convert(): register r, byte j of a 32-key group packs accumulator HOPPER_FP8_PACK_ACC(r, j)
	int bad = 0;
	for (int c = 0; c < 4; c++)
		for (int r = 0; r < 4; r++)
			for (int j = 0; j < 4; j++) {
				const int acc = HOPPER_FP8_PACK_ACC(r, j), i = acc / 4, e = acc % 2, hi_row = (acc % 4) / 2;
				const int key = 8 * i + 2 * c + e;           // the accumulator's key in the group
				const int col = 4 * c + j + 16 * (r / 2);    // A's k column of this byte
				if (hi_row != r % 2 || host_vt_perm(col) != key)
					bad++;
			}
	int seen[32] = {0};
	for (int a = 0; a < 32; a++)
		seen[host_vt_perm(a)]++;
	for (int a = 0; a < 32; a++)
		bad += seen[a] != 1;
	printf("check-fp8 layout: P's e4m3 A fragment against the permuted V: %s\n", bad ? "FAIL" : "ok");
	return bad;
}

// Incoherent processing on the host, as hopper_fp8.cu's rows_kernel: each
// row of d times diag(s), the Hadamard butterflies in increasing stride (the
// same float additions, so the same bits), times the norm.
static void host_incoherent(std::vector<float> &x, int d, unsigned seed)
{
	const float norm = HOPPER_FP8_HADAMARD_NORM(d);
	for (size_t r = 0; r < x.size() / d; r++) {
		float *v = &x[r * d];
		for (int i = 0; i < d; i++)
			v[i] = HOPPER_FP8_SIGN(seed, i) ? -v[i] : v[i];
		for (int h = 1; h < d; h *= 2)
			for (int i = 0; i < d; i++)
				if (!(i & h)) {
					const float a = v[i], b = v[i + h];
					v[i] = a + b;
					v[i + h] = a - b;
				}
		for (int i = 0; i < d; i++)
			v[i] *= norm;
	}
}

// N(0,1) (Box-Muller on two seeded uniforms), and with outliers: 0.1 % of
// the entries (one in 1000, seeded) times 10..100.
static float gauss(uint64_t seed, int tensor, uint64_t i, int outliers)
{
	const double u1 = (rnd(seed, tensor, 2 * i, 0.5f) + 0.5) * (1 - 1e-7) + 1e-7, u2 = rnd(seed, tensor, 2 * i + 1, 0.5f) + 0.5;
	float x = (float)(sqrt(-2 * log(u1)) * cos(6.283185307179586 * u2));
	if (outliers && mix(seed * 131 + tensor * 7 + mix(i + 12345)) % 1000 == 0)
		x *= 10.f + 90.f * (rnd(seed, tensor + 8, i, 0.5f) + 0.5f);
	return x;
}

// Relative RMSE (RMSE / rms of the reference O) bounds and logsumexp bounds
// (abs); kernels/hopper/README.md (FP8 forward) says where these come from.
struct Fp8Tol {
	double bf16_rel;        // the bf16 rung: the 16-bit check's rel-L2 (src/spec.c's bf16 figure)
	double fp8_rel_normal;  // FP8 against the bf16 inputs' fp64, N(0,1) inputs
	double fp8_rel_outlier; // the same at outlier inputs: gross errors only (plain FP8's weakness)
	double own_rel;         // FP8 against the fp64 of its own e4m3 inputs: P's rounding alone
	double lse, lse_fp8;    // bf16 rung; FP8 (the e4m3 GEMM's accumulation); gated at N(0,1) inputs only:
				// at outlier inputs the scores are ~100x and so is lse's rounding (printed, not gated)
};
static const Fp8Tol fp8_tol = {2e-2, 0.10, 0.50, 0.06, 1e-3, 1e-2};

static int check_fp8_one(const Shape &sh, int causal, int outliers, uint64_t seed, int max_rows, int *nfail)
{
	const size_t nq = (size_t)sh.B * sh.H * sh.Nq * sh.d, nk = (size_t)sh.B * sh.Hkv * sh.Nkv * sh.d;
	const int bf = 1;
	std::vector<uint16_t> hq(nq), hk(nk), hv(nk);
	std::vector<float> fq(nq), fk(nk), fv(nk);
	for (size_t i = 0; i < nq; i++) {
		hq[i] = to16(gauss(seed, 0, i, outliers), bf);
		fq[i] = from16(hq[i], bf);
	}
	for (size_t i = 0; i < nk; i++) {
		hk[i] = to16(gauss(seed, 1, i, outliers), bf);
		fk[i] = from16(hk[i], bf);
		hv[i] = to16(gauss(seed, 2, i, outliers), bf);
		fv[i] = from16(hv[i], bf);
	}
	const unsigned hseed = (unsigned)mix(seed + 4242);
	attn_problem pb = {};
	pb.B = sh.B, pb.H = sh.H, pb.Hkv = sh.Hkv, pb.Nq = sh.Nq, pb.Nkv = sh.Nkv, pb.d = sh.d, pb.causal = causal;
	const size_t nvt = hopper_fp8_vt_bytes(&pb), L = HOPPER_FP8_VT_LEN(sh.Nkv);
	// The host's quantisation (incoh: of the rotated Q and K): the bytes the
	// device must produce, amax, and the e4m3 inputs' values (gq, gk in the
	// rotated basis, where their dot products are the scores).
	struct HostQ {
		float amax[3];
		std::vector<uint8_t> eq, ek, evt;
		std::vector<float> gq, gk, gv;
	};
	auto host_quant = [&](int incoh, HostQ &hq8) {
		std::vector<float> tq = fq, tk = fk;
		if (incoh) {
			host_incoherent(tq, sh.d, hseed);
			host_incoherent(tk, sh.d, hseed);
		}
		float *amax = hq8.amax;
		amax[0] = amax[1] = amax[2] = 0;
		for (size_t i = 0; i < nq; i++)
			amax[0] = std::max(amax[0], fabsf(tq[i]));
		for (size_t i = 0; i < nk; i++) {
			amax[1] = std::max(amax[1], fabsf(tk[i]));
			amax[2] = std::max(amax[2], fabsf(fv[i]));
		}
		hq8.eq.assign(nq, 0), hq8.ek.assign(nk, 0), hq8.evt.assign(nvt, 0);
		hq8.gq.assign(nq, 0), hq8.gk.assign(nk, 0), hq8.gv.assign(nk, 0);
		const float sq = host_quant_scale(amax[0]), sk = host_quant_scale(amax[1]), sv = host_quant_scale(amax[2]);
		int col_of[32]; // a key's column in its 32-key group of the transposed V: host_vt_perm(col_of[k]) = k
		for (int a = 0; a < 32; a++)
			col_of[host_vt_perm(a)] = a;
		for (size_t i = 0; i < nq; i++) {
			hq8.eq[i] = e4m3_of(tq[i] * sq);
			hq8.gq[i] = float_of_e4m3(hq8.eq[i]) / sq;
		}
		for (size_t i = 0; i < nk; i++) {
			hq8.ek[i] = e4m3_of(tk[i] * sk);
			hq8.gk[i] = float_of_e4m3(hq8.ek[i]) / sk;
			const uint8_t ev = e4m3_of(fv[i] * sv);
			hq8.gv[i] = float_of_e4m3(ev) / sv;
			const size_t z = i / ((size_t)sh.Nkv * sh.d), key = i / sh.d % sh.Nkv, x = i % sh.d;
			hq8.evt[(z * sh.d + x) * L + key / 32 * 32 + col_of[key % 32]] = ev;
		}
	};

	void *dq, *dk, *dv, *dq8, *dk8, *dvt8, *dout;
	float *dl, *damax;
	CK(cudaMalloc(&dq, nq * 2));
	CK(cudaMalloc(&dk, nk * 2));
	CK(cudaMalloc(&dv, nk * 2));
	CK(cudaMalloc(&dq8, nq));
	CK(cudaMalloc(&dk8, nk));
	CK(cudaMalloc(&dvt8, nvt));
	CK(cudaMalloc(&dout, nq * 2));
	CK(cudaMalloc(&dl, (size_t)sh.B * sh.H * sh.Nq * 4));
	CK(cudaMalloc(&damax, 3 * 4));
	CK(cudaMemcpy(dq, hq.data(), nq * 2, cudaMemcpyHostToDevice));
	CK(cudaMemcpy(dk, hk.data(), nk * 2, cudaMemcpyHostToDevice));
	CK(cudaMemcpy(dv, hv.data(), nk * 2, cudaMemcpyHostToDevice));

	const Sample sm = sample_rows(sh, seed, max_rows);
	std::vector<double> ro, rl;
	reference_rows(sh, causal, sm, fq, fk, fv, ro, rl); // the original bf16 inputs
	double rms = 0;
	for (double x : ro)
		rms += x * x;
	rms = sqrt(rms / std::max<size_t>(1, ro.size()));

	std::vector<uint16_t> out(nq);
	std::vector<float> lse((size_t)sh.B * sh.H * sh.Nq);
	auto poison = [&]() {
		CK(cudaMemset(dout, 0xFF, nq * 2)); // NaN in bf16
		CK(cudaMemset(dl, 0xFF, (size_t)sh.B * sh.H * sh.Nq * 4));
		CK(cudaMemset(dq8, 0xFF, nq)); // NaN in e4m3
		CK(cudaMemset(dk8, 0xFF, nk));
		CK(cudaMemset(dvt8, 0xFF, nvt));
	};
	auto fetch = [&](const char *what) {
		cudaError_t se = cudaDeviceSynchronize();
		if (se != cudaSuccess) {
			printf("check-fp8 %s: kernel error %s\n", what, cudaGetErrorString(se));
			exit(2);
		}
		CK(cudaMemcpy(out.data(), dout, nq * 2, cudaMemcpyDeviceToHost));
		CK(cudaMemcpy(lse.data(), dl, lse.size() * 4, cudaMemcpyDeviceToHost));
	};
	char tag[160];
	snprintf(tag, sizeof tag, "d=%3d B=%d H=%2d Hkv=%2d Nq=%5d Nkv=%5d causal=%d %-7s rows=%zux%zu rms(O)=%.3e", sh.d,
		 sh.B, sh.H, sh.Hkv, sh.Nq, sh.Nkv, causal, outliers ? "outlier" : "normal", sm.heads.size(), sm.rows.size(), rms);

	// the best bf16 rung
	poison();
	hopper_fwd_params p = {};
	p.pb = pb, p.dtype = HOPPER_BF16, p.q = dq, p.k = dk, p.v = dv, p.o = dout, p.lse = dl;
	int e = hopper_fwd(&p, HOPPER_RUNG_OVERLAP);
	if (e) {
		printf("check-fp8 bf16 %s: launch error %d\n", tag, e);
		++*nfail;
	} else {
		fetch("bf16");
		const Errors er = compare_rows(sh, bf, sm, out, lse, ro, rl);
		const bool ok = er.nonfinite == 0 && er.nonfinite_all == 0 && er.rel <= fp8_tol.bf16_rel &&
				(outliers || er.lse <= fp8_tol.lse);
		*nfail += !ok;
		printf("check-fp8 bf16%-10s %s rmse=%.3e rel=%.3e (tol %.0e) lse=%.1e%s %s\n", hopper_rung_name(HOPPER_RUNG_OVERLAP),
		       tag, er.rmse, er.rel, fp8_tol.bf16_rel, er.lse, outliers ? " (not gated)" : "", ok ? "ok" : "FAIL");
	}

	// FP8, plain and with incoherent processing (item 3)
	double plain_rmse = 0;
	for (int incoh = 0; incoh < 2; incoh++) {
		HostQ h8;
		host_quant(incoh, h8);
		std::vector<double> go, gl;
		reference_rows(sh, causal, sm, h8.gq, h8.gk, h8.gv, go, gl); // its own e4m3 inputs, dequantised
		const char *name = incoh ? "fp8+hadamard" : "fp8";
		poison();
		hopper_fp8_params f = {};
		f.pb = pb, f.dtype = HOPPER_BF16, f.q = dq, f.k = dk, f.v = dv, f.q8 = dq8, f.k8 = dk8, f.vt8 = dvt8;
		f.amax = damax, f.o = dout, f.lse = dl, f.incoherent = incoh, f.seed = hseed;
		e = hopper_fp8_fwd(&f);
		if (e) {
			printf("check-fp8 %s %s: launch error %d (%s)\n", name, tag, e, cudaGetErrorString((cudaError_t)e));
			++*nfail;
			continue;
		}
		fetch(name);
		float damx[3];
		std::vector<uint8_t> bq(nq), bk(nk), bvt(nvt);
		CK(cudaMemcpy(damx, damax, 12, cudaMemcpyDeviceToHost));
		CK(cudaMemcpy(bq.data(), dq8, nq, cudaMemcpyDeviceToHost));
		CK(cudaMemcpy(bk.data(), dk8, nk, cudaMemcpyDeviceToHost));
		CK(cudaMemcpy(bvt.data(), dvt8, nvt, cudaMemcpyDeviceToHost));
		size_t qbad = 0;
		for (size_t i = 0; i < nq; i++)
			qbad += bq[i] != h8.eq[i];
		for (size_t i = 0; i < nk; i++)
			qbad += bk[i] != h8.ek[i];
		for (size_t i = 0; i < nvt; i++)
			qbad += bvt[i] != h8.evt[i];
		const bool amax_ok = damx[0] == h8.amax[0] && damx[1] == h8.amax[1] && damx[2] == h8.amax[2];
		const Errors er = compare_rows(sh, bf, sm, out, lse, ro, rl);  // against the original inputs
		const Errors eo = compare_rows(sh, bf, sm, out, lse, go, gl);  // against its own e4m3 inputs
		const double tol = outliers ? fp8_tol.fp8_rel_outlier : fp8_tol.fp8_rel_normal;
		const bool ok = amax_ok && qbad == 0 && er.nonfinite == 0 && er.nonfinite_all == 0 && er.rel <= tol &&
				eo.rel <= fp8_tol.own_rel && (outliers || eo.lse <= fp8_tol.lse_fp8);
		*nfail += !ok;
		char vs[48] = "";
		if (incoh)
			snprintf(vs, sizeof vs, " (%.2fx fp8's rmse)", plain_rmse > 0 ? er.rmse / plain_rmse : 0.0);
		else
			plain_rmse = er.rmse;
		printf("check-fp8 %-14s %s rmse=%.3e%s rel=%.3e (tol %.2f) own-inputs rel=%.3e (tol %.2f) lse=%.1e%s "
		       "amax %s e4m3 bytes off %zu nonfinite=%zu %s\n",
		       name, tag, er.rmse, vs, er.rel, tol, eo.rel, fp8_tol.own_rel, eo.lse, outliers ? " (not gated)" : "", amax_ok ? "ok" : "DIFFERS", qbad,
		       er.nonfinite_all, ok ? "ok" : "FAIL");
	}
	fflush(stdout);
	CK(cudaFree(dq));
	CK(cudaFree(dk));
	CK(cudaFree(dv));
	CK(cudaFree(dq8));
	CK(cudaFree(dk8));
	CK(cudaFree(dvt8));
	CK(cudaFree(dout));
	CK(cudaFree(dl));
	CK(cudaFree(damax));
	return 0;
}

// ---- bench ----------------------------------------------------------------

static const char *g_label = "hopper";

// Settle fn (launched untimed for `settle` seconds), then `reps` launches,
// each between its own CUDA events; sorted times in ms.
template <typename F> static std::vector<float> time_launches(F fn, double settle, int reps, cudaEvent_t *ev)
{
	CK(cudaDeviceSynchronize());
	auto t0 = std::chrono::steady_clock::now();
	while (std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() < settle) {
		for (int i = 0; i < 10; i++)
			fn();
		CK(cudaDeviceSynchronize());
	}
	std::vector<float> ms(reps);
	for (int i = 0; i < reps; i++) {
		CK(cudaEventRecord(ev[0]));
		fn();
		CK(cudaEventRecord(ev[1]));
		CK(cudaEventSynchronize(ev[1]));
		CK(cudaEventElapsedTime(&ms[i], ev[0], ev[1]));
	}
	CK(cudaGetLastError());
	std::sort(ms.begin(), ms.end());
	return ms;
}

static int bench(const std::vector<int> &rungs, const std::vector<int> &ds, const std::vector<int> &ns,
		 const std::vector<int> &dts, const std::vector<int> &causals, double settle, int reps, int fp8)
{
	const size_t maxel = (size_t)16384 * 2048;
	uint16_t *dq, *dk, *dv, *dout;
	float *dl;
	CK(cudaMalloc(&dq, maxel * 2));
	CK(cudaMalloc(&dk, maxel * 2));
	CK(cudaMalloc(&dv, maxel * 2));
	CK(cudaMalloc(&dout, maxel * 2));
	CK(cudaMalloc(&dl, (size_t)16384 * 64 * 4));
	cudaEvent_t ev[2];
	CK(cudaEventCreate(&ev[0]));
	CK(cudaEventCreate(&ev[1]));
	printf("csv,impl,rung,dtype,d,causal,B,H,N,median_ms,min_ms,max_ms,tflops\n");
	for (int bf : dts) {
		fill_kernel<<<1024, 256>>>(dq, maxel, 11, 2.f, bf);
		fill_kernel<<<1024, 256>>>(dk, maxel, 12, 2.f, bf);
		fill_kernel<<<1024, 256>>>(dv, maxel, 13, 1.f, bf);
		CK(cudaDeviceSynchronize());
		for (int d : ds)
			for (int causal : causals)
				for (int n : ns)
					for (int rung : rungs) {
						hopper_fwd_params p = {};
						p.pb.B = 16384 / n, p.pb.H = 2048 / d, p.pb.Hkv = p.pb.H, p.pb.Nq = p.pb.Nkv = n, p.pb.d = d;
						p.pb.causal = causal, p.dtype = bf;
						p.q = dq, p.k = dk, p.v = dv, p.o = dout, p.lse = dl;
						int e = hopper_fwd(&p, rung);
						if (e) {
							printf("bench: launch error %d\n", e);
							return 1;
						}
						const std::vector<float> sorted =
							time_launches([&]() { hopper_fwd(&p, rung); }, settle, reps, ev);
						const double med = sorted[reps / 2];
						const double flops = 4.0 * p.pb.B * p.pb.H * (double)n * n * d / (causal ? 2 : 1);
						printf("csv,%s,%s,%s,%d,%d,%d,%d,%d,%.4f,%.4f,%.4f,%.1f\n", g_label, hopper_rung_name(rung),
						       dtname(bf), d, causal, p.pb.B, p.pb.H, n, med, sorted[0], sorted[reps - 1],
						       flops / (med * 1e-3) / 1e12);
						fflush(stdout);
					}
		if (!fp8)
			continue;
		// the FP8 forward on the same inputs: attention alone, quantisation alone, both
		void *q8, *k8, *vt8;
		float *amax;
		CK(cudaMalloc(&q8, maxel));
		CK(cudaMalloc(&k8, maxel));
		CK(cudaMalloc(&vt8, maxel + (size_t)2048 * 128)); // V transposed: rows padded to 128 keys
		CK(cudaMalloc(&amax, 12));
		const std::vector<int> fds = HOPPER_FP8_HEAD_DIMS;
		for (int d : ds)
			for (int causal : causals)
				for (int n : ns) {
					if (std::find(fds.begin(), fds.end(), d) == fds.end())
						continue;
					hopper_fp8_params f = {};
					f.pb.B = 16384 / n, f.pb.H = 2048 / d, f.pb.Hkv = f.pb.H, f.pb.Nq = f.pb.Nkv = n, f.pb.d = d;
					f.pb.causal = causal, f.dtype = bf;
					f.q = dq, f.k = dk, f.v = dv, f.q8 = q8, f.k8 = k8, f.vt8 = vt8, f.amax = amax, f.o = dout, f.lse = dl;
					if (hopper_fp8_vt_bytes(&f.pb) > maxel + (size_t)2048 * 128) {
						printf("bench: fp8 workspace too small\n");
						return 1;
					}
					int e = hopper_fp8_fwd(&f);
					if (e) {
						printf("bench: fp8 launch error %d\n", e);
						return 1;
					}
					const double flops = 4.0 * f.pb.B * f.pb.H * (double)n * n * d / (causal ? 2 : 1);
					struct {
						const char *name;
						int what; // 0 attention, 1 quantisation, 2 both
						int incoh;
					} rows[] = {{"fp8", 0, 0}, {"quant", 1, 0}, {"fp8+quant", 2, 0}, {"quant+hadamard", 1, 1}};
					for (auto &r : rows) {
						f.incoherent = r.incoh, f.seed = 1;
						const std::vector<float> t = time_launches(
							[&]() { r.what == 0 ? hopper_fp8_attn(&f) : r.what == 1 ? hopper_fp8_quant(&f) : hopper_fp8_fwd(&f); },
							settle, reps, ev);
						const double med = t[reps / 2];
						printf("csv,%s,%s,%s,%d,%d,%d,%d,%d,%.4f,%.4f,%.4f,%.1f\n", g_label, r.name, dtname(bf), d, causal,
						       f.pb.B, f.pb.H, n, med, t[0], t[reps - 1], r.what == 1 ? 0.0 : flops / (med * 1e-3) / 1e12);
						fflush(stdout);
					}
				}
		CK(cudaFree(q8));
		CK(cudaFree(k8));
		CK(cudaFree(vt8));
		CK(cudaFree(amax));
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: %s check|check-fp8|layout-fp8|small|bench|info [options]\n", argv[0]);
		return 2;
	}
	std::string mode = argv[1];
	std::vector<int> rungs = {0, 1, 2, 3}, ds = HOPPER_HEAD_DIMS, ns = {2048, 4096, 8192, 16384}, dts = {0, 1},
			 causals = {0, 1};
	uint64_t seed = (uint64_t)std::chrono::system_clock::now().time_since_epoch().count();
	double settle = 1.0;
	int reps = 30, fp8 = 0;
	for (int i = 2; i + 1 < argc; i += 2) {
		std::string a = argv[i];
		if (a == "--rungs")
			rungs = parse_list(argv[i + 1]);
		else if (a == "--d")
			ds = parse_list(argv[i + 1]);
		else if (a == "--n")
			ns = parse_list(argv[i + 1]);
		else if (a == "--dtype")
			dts = parse_list(argv[i + 1]);
		else if (a == "--causal")
			causals = parse_list(argv[i + 1]);
		else if (a == "--seed")
			seed = strtoull(argv[i + 1], nullptr, 10);
		else if (a == "--settle")
			settle = atof(argv[i + 1]);
		else if (a == "--label")
			g_label = argv[i + 1];
		else if (a == "--reps")
			reps = atoi(argv[i + 1]);
		else if (a == "--fp8")
			fp8 = atoi(argv[i + 1]);
		else {
			fprintf(stderr, "unknown option %s\n", a.c_str());
			return 2;
		}
	}
	if (mode == "layout-fp8") // host only: runs without a GPU
		return check_fp8_layout() ? 1 : 0;
	cudaDeviceProp prop;
	CK(cudaGetDeviceProperties(&prop, 0));
	printf("device %s, %d SMs, cc %d.%d\n", prop.name, prop.multiProcessorCount, prop.major, prop.minor);
	if (mode == "info") {
		for (int rung : rungs)
			for (int d : ds)
				for (int bf : dts)
					for (int c : causals) {
						hopper_kernel_info inf;
						int e = hopper_fwd_info(rung, d, bf, c, &inf);
						if (e) {
							printf("info %s d=%d: error %d\n", hopper_rung_name(rung), d, e);
							continue;
						}
						printf("info %-10s %s d=%3d causal=%d threads=%d tile=%dx%d stages=%d regs=%d "
						       "(producer %d, consumer %d) smem=%d local=%d\n",
						       hopper_rung_name(rung), dtname(bf), d, c, inf.threads, inf.block_m,
						       inf.block_n, inf.stages, inf.regs, inf.regs_producer, inf.regs_consumer,
						       inf.smem_bytes, inf.local_bytes);
					}
		const std::vector<int> fds = HOPPER_FP8_HEAD_DIMS;
		for (int d : fds)
			for (int c : causals) {
				hopper_kernel_info inf;
				int e = hopper_fp8_info(d, c, &inf);
				if (e) {
					printf("info fp8 d=%d: error %d\n", d, e);
					continue;
				}
				printf("info %-10s %s d=%3d causal=%d threads=%d tile=%dx%d stages=%d regs=%d "
				       "(producer %d, consumer %d) smem=%d local=%d\n",
				       "fp8", "e4m3", d, c, inf.threads, inf.block_m, inf.block_n, inf.stages, inf.regs,
				       inf.regs_producer, inf.regs_consumer, inf.smem_bytes, inf.local_bytes);
			}
		return 0;
	}
	if (mode == "bench")
		return bench(rungs, ds, ns, dts, causals, settle, reps, fp8);
	printf("seed %llu\n", (unsigned long long)seed);
	int nfail = 0;
	if (mode == "small") {
		Shape sh = {1, 2, 1, 200, 300, 64};
		for (int bf : dts)
			for (int c : causals)
				for (int d : ds) {
					sh.d = d;
					check_one(sh, c, bf, rungs, seed, 1 << 30, &nfail);
				}
	} else if (mode == "check") {
		std::vector<Shape> shapes = {
			{1, 1, 1, 1, 1, 128},          // one row, one key
			{2, 3, 3, 129, 129, 128},      // one row past a tile
			{2, 4, 4, 1000, 1000, 128},    // odd N
			{1, 8, 2, 777, 1333, 128},     // GQA 4:1, Nq < Nkv (ragged)
			{1, 4, 1, 1500, 700, 128},     // MQA, Nq > Nkv: causal rows with no key
			{2, 16, 16, 4096, 4096, 128},  // a benchmark-sized shape (sampled rows)
			{2, 4, 4, 1000, 1000, 64},
			{1, 8, 2, 777, 1333, 64},
			{1, 4, 1, 1500, 700, 64},
			{1, 32, 32, 8192, 8192, 64},   // sampled rows
			// d = 256: key blocks of 64 (hopper_tiles.h), so 65 and 129 keys cross them
			{1, 1, 1, 1, 1, 256},
			{2, 3, 3, 65, 65, 256},
			{2, 3, 3, 129, 129, 256},
			{2, 4, 4, 1000, 1000, 256},
			{1, 8, 2, 777, 1333, 256},     // GQA 4:1, ragged
			{1, 4, 1, 1500, 700, 256},     // MQA, causal rows with no key
			{2, 8, 8, 4096, 4096, 256},    // the benchmark's H = 2048 / 256 (sampled rows)
		};
		for (const Shape &sh : shapes)
			for (int d : ds) {
				if (sh.d != d)
					continue;
				for (int bf : dts)
					for (int c : causals)
						check_one(sh, c, bf, rungs, seed, 512, &nfail);
			}
	} else if (mode == "check-fp8") {
		nfail += check_fp8_layout();
		std::vector<Shape> shapes = {
			{1, 1, 1, 1, 1, 128},         // one row, one key
			{2, 3, 3, 129, 129, 128},     // one row past a tile, one key past a block
			{2, 4, 4, 1000, 1000, 128},   // odd N (the transposed V padded to 1024 keys)
			{1, 8, 2, 777, 1333, 128},    // GQA 4:1, Nq < Nkv (ragged)
			{1, 4, 1, 1500, 700, 128},    // MQA, Nq > Nkv: causal rows with no key
			{2, 16, 16, 4096, 4096, 128}, // the benchmark's H = 2048 / 128 (sampled rows)
			{1, 1, 1, 1, 1, 64},
			{2, 3, 3, 129, 129, 64},
			{2, 4, 4, 1000, 1000, 64},
			{1, 8, 2, 777, 1333, 64},
			{1, 4, 1, 1500, 700, 64},
			{1, 32, 32, 4096, 4096, 64},  // sampled rows
		};
		const std::vector<int> fds = HOPPER_FP8_HEAD_DIMS;
		for (const Shape &sh : shapes)
			for (int d : ds) {
				if (sh.d != d || std::find(fds.begin(), fds.end(), d) == fds.end())
					continue;
				for (int c : causals)
					for (int outl = 0; outl < 2; outl++)
						check_fp8_one(sh, c, outl, seed, 256, &nfail);
			}
	} else {
		fprintf(stderr, "unknown mode %s\n", mode.c_str());
		return 2;
	}
	printf("check summary: %d failed\n", nfail);
	return nfail ? 1 : 0;
}
