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
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

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

// ---- bench ----------------------------------------------------------------

static const char *g_label = "hopper";

static int bench(const std::vector<int> &rungs, const std::vector<int> &ds, const std::vector<int> &ns,
		 const std::vector<int> &dts, const std::vector<int> &causals, double settle, int reps)
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
						CK(cudaDeviceSynchronize());
						auto t0 = std::chrono::steady_clock::now();
						int launched = 0;
						while (std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() <
						       settle) {
							for (int i = 0; i < 10; i++)
								hopper_fwd(&p, rung);
							launched += 10;
							CK(cudaDeviceSynchronize());
						}
						std::vector<float> ms(reps);
						for (int i = 0; i < reps; i++) {
							CK(cudaEventRecord(ev[0]));
							hopper_fwd(&p, rung);
							CK(cudaEventRecord(ev[1]));
							CK(cudaEventSynchronize(ev[1]));
							CK(cudaEventElapsedTime(&ms[i], ev[0], ev[1]));
						}
						CK(cudaGetLastError());
						std::vector<float> sorted = ms;
						std::sort(sorted.begin(), sorted.end());
						const double med = sorted[reps / 2];
						const double flops = 4.0 * p.pb.B * p.pb.H * (double)n * n * d / (causal ? 2 : 1);
						printf("csv,%s,%s,%s,%d,%d,%d,%d,%d,%.4f,%.4f,%.4f,%.1f\n", g_label, hopper_rung_name(rung),
						       dtname(bf), d, causal, p.pb.B, p.pb.H, n, med, sorted[0], sorted[reps - 1],
						       flops / (med * 1e-3) / 1e12);
						fflush(stdout);
					}
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: %s check|small|bench|info [options]\n", argv[0]);
		return 2;
	}
	std::string mode = argv[1];
	std::vector<int> rungs = {0, 1, 2, 3}, ds = HOPPER_HEAD_DIMS, ns = {2048, 4096, 8192, 16384}, dts = {0, 1},
			 causals = {0, 1};
	uint64_t seed = (uint64_t)std::chrono::system_clock::now().time_since_epoch().count();
	double settle = 1.0;
	int reps = 30;
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
		else {
			fprintf(stderr, "unknown option %s\n", a.c_str());
			return 2;
		}
	}
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
		return 0;
	}
	if (mode == "bench")
		return bench(rungs, ds, ns, dts, causals, settle, reps);
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
	} else {
		fprintf(stderr, "unknown mode %s\n", mode.c_str());
		return 2;
	}
	printf("check summary: %d failed\n", nfail);
	return nfail ? 1 : 0;
}
