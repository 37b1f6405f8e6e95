// hopper_bwd_test.cu: standalone check and benchmark of the Hopper backward
// (hopper_bwd.h), built by tools/hopper-build.sh as build/hopper/hopper_bwd_test.
//
//   hopper_bwd_test check-bwd [--d 64,128] [--dtype 0,1] [--causal 0,1] [--seed S]
//       dQ, dK, dV of every rung against an fp64 CPU reference computed from
//       Q, K, V and dO (O and the logsumexp in fp64 too; the kernel is given
//       O rounded to the dtype and lse in fp32) at N = 1, 17, 200, 1000,
//       Nq != Nkv both ways (causal rows with no key), GQA 4:1, MQA, B = 2;
//       dQ, dK, dV poisoned (NaN) before each launch; every element compared.
//       Then rung 1 deterministic ("+tma+ws+det") launched twice: besides the
//       tolerances, dQ, dK and dV of the two launches must be the same bits.
//       Tolerances as attnprof's gradient checks (src/grad_check.c
//       grad_tolerance): rel-L2 fp16 1e-2, bf16 4e-2; max-abs fp16 5e-2, bf16
//       2e-1 times the tensor's largest |reference|, plus 1e-5 for a tensor
//       whose reference is 0 throughout (N = 1: dS = P·(dP − D) = 0, which the
//       fp32 sums round to a few 1e-7); any non-finite fails.
//       Exit 1 on any failure.
//   hopper_bwd_test small-bwd   one small shape per d/dtype/causal (for compute-sanitizer)
//   hopper_bwd_test bench-bwd [--d ..] [--n 1024,..] [--dtype ..] [--causal ..] [--settle S] [--reps R]
//       B·N = 16384, H·d = 2048; O and lse from hopper_fwd (+wgmma); each
//       rung settled S seconds (default 1) then R launches between their own
//       CUDA events (default 30); CSV rows
//       hopper-bwd,<rung>,<dtype>,<d>,<causal>,<B>,<H>,<N>,<median_ms>,<min_ms>,<max_ms>,<tflops>
//       with backward FLOPs = 2.5 × 4·B·H·N²·d (halved when causal); then
//       the same for flash2's backward (kernels/flash_bwd.cu through
//       flash2_bwd_launch, impl flash2-bwd) on the same inputs.
//   hopper_bwd_test info-bwd    registers, shared memory, spills per instantiation
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>

#include "hopper_bwd.h"
#include "hopper_test_util.cuh"
#include "../common.cuh" /* flash2_bwd_launch, bwd_params: flash2's backward, the baseline */

// ---- fp64 reference --------------------------------------------------------

struct Ref {
	std::vector<double> o, lse, dq, dk, dv;
};

static void reference(const Shape &sh, int causal, const std::vector<float> &fq, const std::vector<float> &fk,
		      const std::vector<float> &fv, const std::vector<float> &fdo, Ref &r)
{
	const int d = sh.d, G = sh.H / sh.Hkv;
	const size_t nbh = (size_t)sh.B * sh.H;
	const double scale = 1.0 / sqrt((double)d);
	r.o.assign(nbh * sh.Nq * d, 0.0);
	r.lse.assign(nbh * sh.Nq, 0.0);
	r.dq.assign(nbh * sh.Nq * d, 0.0);
	std::vector<double> dkh(nbh * sh.Nkv * d, 0.0), dvh(nbh * sh.Nkv * d, 0.0); // per query head
#pragma omp parallel for schedule(dynamic)
	for (long bh = 0; bh < (long)nbh; bh++) {
		const int b = (int)(bh / sh.H), h = (int)(bh % sh.H), hkv = h / G;
		const float *K = &fk[((size_t)b * sh.Hkv + hkv) * sh.Nkv * d];
		const float *V = &fv[((size_t)b * sh.Hkv + hkv) * sh.Nkv * d];
		std::vector<double> p(sh.Nkv);
		for (int row = 0; row < sh.Nq; row++) {
			const size_t ri = (size_t)bh * sh.Nq + row;
			const float *q = &fq[ri * d], *g = &fdo[ri * d];
			long last = sh.Nkv - 1;
			if (causal)
				last = std::min<long>(last, (long)row + sh.Nkv - sh.Nq);
			if (last < 0) {
				r.lse[ri] = -INFINITY;
				continue;
			}
			double m = -INFINITY;
			for (long c = 0; c <= last; c++) {
				double s = 0;
				for (int x = 0; x < d; x++)
					s += (double)q[x] * K[c * d + x];
				p[c] = s * scale;
				m = std::max(m, p[c]);
			}
			double l = 0;
			for (long c = 0; c <= last; c++)
				l += exp(p[c] - m);
			const double lse = m + log(l);
			r.lse[ri] = lse;
			double *o = &r.o[ri * d];
			for (long c = 0; c <= last; c++) {
				p[c] = exp(p[c] - lse);
				for (int x = 0; x < d; x++)
					o[x] += p[c] * V[c * d + x];
			}
			double D = 0;
			for (int x = 0; x < d; x++)
				D += (double)g[x] * o[x];
			double *dq = &r.dq[ri * d];
			double *dk = &dkh[(size_t)bh * sh.Nkv * d], *dv = &dvh[(size_t)bh * sh.Nkv * d];
			for (long c = 0; c <= last; c++) {
				double dp = 0;
				for (int x = 0; x < d; x++)
					dp += (double)g[x] * V[c * d + x];
				const double ds = p[c] * (dp - D);
				for (int x = 0; x < d; x++) {
					dq[x] += scale * ds * K[c * d + x];
					dk[c * d + x] += scale * ds * q[x];
					dv[c * d + x] += p[c] * g[x];
				}
			}
		}
	}
	r.dk.assign((size_t)sh.B * sh.Hkv * sh.Nkv * d, 0.0);
	r.dv.assign(r.dk.size(), 0.0);
	for (size_t bh = 0; bh < nbh; bh++) {
		const size_t b = bh / sh.H, h = bh % sh.H, z = b * sh.Hkv + h / G;
		for (size_t i = 0; i < (size_t)sh.Nkv * d; i++) {
			r.dk[z * sh.Nkv * d + i] += dkh[bh * sh.Nkv * d + i];
			r.dv[z * sh.Nkv * d + i] += dvh[bh * sh.Nkv * d + i];
		}
	}
}

struct GradErr {
	double maxabs, maxref, rel;
	size_t nonfinite;
};

static GradErr compare(const std::vector<uint16_t> &got, const std::vector<double> &ref, int bf)
{
	GradErr e = {};
	double num = 0, den = 0;
	for (size_t i = 0; i < ref.size(); i++) {
		const double g = from16(got[i], bf);
		e.maxref = std::max(e.maxref, fabs(ref[i]));
		if (!std::isfinite(g)) {
			e.nonfinite++;
			continue;
		}
		e.maxabs = std::max(e.maxabs, fabs(g - ref[i]));
		num += (g - ref[i]) * (g - ref[i]);
		den += ref[i] * ref[i];
	}
	e.rel = den > 0 ? sqrt(num / den) : sqrt(num);
	return e;
}

static void upload(void **dst, const std::vector<uint16_t> &h)
{
	CK(cudaMalloc(dst, std::max<size_t>(h.size(), 8) * 2));
	CK(cudaMemcpy(*dst, h.data(), h.size() * 2, cudaMemcpyHostToDevice));
}

static void check_one(const Shape &sh, int causal, int bf, uint64_t seed, int *nfail)
{
	const size_t nq = (size_t)sh.B * sh.H * sh.Nq * sh.d, nk = (size_t)sh.B * sh.Hkv * sh.Nkv * sh.d;
	std::vector<uint16_t> hq(nq), hk(nk), hv(nk), hdo(nq), ho(nq);
	std::vector<float> fq(nq), fk(nk), fv(nk), fdo(nq);
	for (size_t i = 0; i < nq; i++) {
		hq[i] = to16(rnd(seed, 0, i, 2.f), bf);
		fq[i] = from16(hq[i], bf);
		hdo[i] = to16(rnd(seed, 3, i, 1.f), bf);
		fdo[i] = from16(hdo[i], bf);
	}
	for (size_t i = 0; i < nk; i++) {
		hk[i] = to16(rnd(seed, 1, i, 2.f), bf);
		fk[i] = from16(hk[i], bf);
		hv[i] = to16(rnd(seed, 2, i, 1.f), bf);
		fv[i] = from16(hv[i], bf);
	}
	Ref ref;
	reference(sh, causal, fq, fk, fv, fdo, ref);
	std::vector<float> hl(ref.lse.size());
	for (size_t i = 0; i < nq; i++)
		ho[i] = to16((float)ref.o[i], bf);
	for (size_t i = 0; i < hl.size(); i++)
		hl[i] = (float)ref.lse[i];

	void *dq_in, *dk_in, *dv_in, *ddo, *dout, *gq, *gk, *gv, *ws;
	float *dl;
	upload(&dq_in, hq);
	upload(&dk_in, hk);
	upload(&dv_in, hv);
	upload(&ddo, hdo);
	upload(&dout, ho);
	CK(cudaMalloc(&dl, hl.size() * 4));
	CK(cudaMemcpy(dl, hl.data(), hl.size() * 4, cudaMemcpyHostToDevice));
	CK(cudaMalloc(&gq, nq * 2));
	CK(cudaMalloc(&gk, nk * 2));
	CK(cudaMalloc(&gv, nk * 2));
	hopper_bwd_params p = {};
	p.pb.B = sh.B, p.pb.H = sh.H, p.pb.Hkv = sh.Hkv, p.pb.Nq = sh.Nq, p.pb.Nkv = sh.Nkv, p.pb.d = sh.d;
	p.pb.causal = causal, p.dtype = bf ? HOPPER_BF16 : HOPPER_FP16;
	CK(cudaMalloc(&ws, hopper_bwd_workspace_bytes(&p.pb, 1))); // the larger (deterministic) layout
	p.q = dq_in, p.k = dk_in, p.v = dv_in, p.o = dout, p.dout = ddo, p.lse = dl;
	p.dq = gq, p.dk = gk, p.dv = gv, p.workspace = ws;

	double tol_rel = bf ? 4e-2 : 1e-2, frac = bf ? 2e-1 : 5e-2; // src/grad_check.c grad_tolerance
	std::vector<uint16_t> oq(nq), ok_(nk), ov(nk);
	// every rung, then rung 1 deterministic (launched twice: the two results must be the same bits)
	for (int cfg = 0; cfg <= HOPPER_BWD_RUNG_COUNT; cfg++) {
		const bool det = cfg == HOPPER_BWD_RUNG_COUNT;
		const int rung = det ? HOPPER_BWD_RUNG_WS : cfg;
		char name[32];
		snprintf(name, sizeof name, "%s%s", hopper_bwd_rung_name(rung), det ? "+det" : "");
		p.deterministic = det;
		std::vector<uint16_t> first[3];
		bool same = true;
		int e = 0;
		for (int run = 0; run < (det ? 2 : 1) && !e; run++) {
			CK(cudaMemset(gq, 0xFF, nq * 2)); // NaN in fp16 and bf16
			CK(cudaMemset(gk, 0xFF, nk * 2));
			CK(cudaMemset(gv, 0xFF, nk * 2));
			CK(cudaMemset(ws, 0xFF, hopper_bwd_workspace_bytes(&p.pb, 1)));
			e = hopper_bwd(&p, rung);
			if (e)
				break;
			cudaError_t se = cudaDeviceSynchronize();
			if (se != cudaSuccess) {
				printf("check-bwd %s %s d=%d B=%d H=%d Hkv=%d Nq=%d Nkv=%d causal=%d: kernel error %s\n", name,
				       dtname(bf), sh.d, sh.B, sh.H, sh.Hkv, sh.Nq, sh.Nkv, causal, cudaGetErrorString(se));
				exit(2);
			}
			CK(cudaMemcpy(oq.data(), gq, nq * 2, cudaMemcpyDeviceToHost));
			CK(cudaMemcpy(ok_.data(), gk, nk * 2, cudaMemcpyDeviceToHost));
			CK(cudaMemcpy(ov.data(), gv, nk * 2, cudaMemcpyDeviceToHost));
			if (run == 0) {
				first[0] = oq, first[1] = ok_, first[2] = ov;
			} else
				same = first[0] == oq && first[1] == ok_ && first[2] == ov;
		}
		if (e) {
			printf("check-bwd %s %s d=%d Nq=%d Nkv=%d causal=%d: launch error %d (%s)\n", name, dtname(bf), sh.d,
			       sh.Nq, sh.Nkv, causal, e, cudaGetErrorString((cudaError_t)e));
			++*nfail;
			continue;
		}
		const GradErr eq = compare(oq, ref.dq, bf), ek = compare(ok_, ref.dk, bf), ev = compare(ov, ref.dv, bf);
		auto good = [&](const GradErr &x) { return x.nonfinite == 0 && x.rel <= tol_rel && x.maxabs <= frac * x.maxref + 1e-5; };
		const bool ok = good(eq) && good(ek) && good(ev) && same;
		if (!ok)
			++*nfail;
		printf("check-bwd %-7s %s d=%3d B=%d H=%d Hkv=%d Nq=%4d Nkv=%4d causal=%d", name, dtname(bf), sh.d, sh.B, sh.H,
		       sh.Hkv, sh.Nq, sh.Nkv, causal);
		const GradErr *es[3] = {&eq, &ek, &ev};
		const char *nm[3] = {"dQ", "dK", "dV"};
		for (int t = 0; t < 3; t++)
			printf(" %s rel_l2=%.2e max_abs=%.2e/%.2e nonfinite=%zu%s", nm[t], es[t]->rel, es[t]->maxabs,
			       frac * es[t]->maxref + 1e-5, es[t]->nonfinite, good(*es[t]) ? "" : "!");
		if (det)
			printf(" runs %s", same ? "bit-identical" : "DIFFER!");
		printf(" (tol rel %.0e, max_abs %.0e x max|ref|) %s\n", tol_rel, frac, ok ? "ok" : "FAIL");
		fflush(stdout);
	}
	void *all[] = {dq_in, dk_in, dv_in, ddo, dout, gq, gk, gv, ws, dl};
	for (void *x : all)
		CK(cudaFree(x));
}

// ---- bench ---------------------------------------------------------------

static int bench(const std::vector<int> &ds, const std::vector<int> &ns, const std::vector<int> &dts,
		 const std::vector<int> &causals, double settle, int reps)
{
	const size_t maxel = (size_t)16384 * 2048;
	uint16_t *q, *k, *v, *o, *dout, *gq, *gk, *gv;
	float *lse;
	void *ws;
	uint16_t **bufs[] = {&q, &k, &v, &o, &dout, &gq, &gk, &gv};
	for (uint16_t **b : bufs)
		CK(cudaMalloc(b, maxel * 2));
	CK(cudaMalloc(&lse, (size_t)16384 * 64 * 4));
	CK(cudaMalloc(&ws, maxel * 4 + (size_t)16384 * 64 * 4));
	cudaEvent_t ev[2];
	CK(cudaEventCreate(&ev[0]));
	CK(cudaEventCreate(&ev[1]));
	printf("csv,impl,rung,dtype,d,causal,B,H,N,median_ms,min_ms,max_ms,tflops\n");
	for (int bf : dts) {
		fill_kernel<<<1024, 256>>>(q, maxel, 11, 2.f, bf);
		fill_kernel<<<1024, 256>>>(k, maxel, 12, 2.f, bf);
		fill_kernel<<<1024, 256>>>(v, maxel, 13, 1.f, bf);
		fill_kernel<<<1024, 256>>>(dout, maxel, 14, 1.f, bf);
		CK(cudaDeviceSynchronize());
		for (int d : ds)
			for (int causal : causals)
				for (int n : ns) {
					hopper_fwd_params f = {};
					f.pb.B = 16384 / n, f.pb.H = 2048 / d, f.pb.Hkv = f.pb.H, f.pb.Nq = f.pb.Nkv = n, f.pb.d = d;
					f.pb.causal = causal, f.dtype = bf;
					f.q = q, f.k = k, f.v = v, f.o = o, f.lse = lse;
					int e = hopper_fwd(&f, HOPPER_RUNG_WGMMA);
					if (e) {
						printf("bench-bwd: forward launch error %d\n", e);
						return 1;
					}
					const double flops = 2.5 * 4.0 * f.pb.B * f.pb.H * (double)n * n * d / (causal ? 2 : 1);
					// settle, time reps launches of fn between their own events, print a CSV row
					auto timed = [&](const char *impl, const char *name, auto fn) -> int {
						if ((e = fn())) {
							printf("bench-bwd %s: launch error %d\n", impl, e);
							return 1;
						}
						CK(cudaDeviceSynchronize());
						auto t0 = std::chrono::steady_clock::now();
						while (std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() < settle) {
							for (int i = 0; i < 5; i++)
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
						const double med = ms[reps / 2];
						printf("csv,%s,%s,%s,%d,%d,%d,%d,%d,%.4f,%.4f,%.4f,%.1f\n", impl, name, dtname(bf), d, causal,
						       f.pb.B, f.pb.H, n, med, ms[0], ms[reps - 1], flops / (med * 1e-3) / 1e12);
						fflush(stdout);
						return 0;
					};
					for (int rung = 0; rung < HOPPER_BWD_RUNG_COUNT; rung++) {
						hopper_bwd_params p = {};
						p.pb = f.pb, p.dtype = bf;
						p.q = q, p.k = k, p.v = v, p.o = o, p.dout = dout, p.lse = lse;
						p.dq = gq, p.dk = gk, p.dv = gv, p.workspace = ws;
						if (timed("hopper-bwd", hopper_bwd_rung_name(rung), [&]() { return hopper_bwd(&p, rung); }))
							return 1;
					}
					{ // rung 1 deterministic: its own workspace (a partial dQ per key block)
						hopper_bwd_params p = {};
						p.pb = f.pb, p.dtype = bf, p.deterministic = 1;
						p.q = q, p.k = k, p.v = v, p.o = o, p.dout = dout, p.lse = lse;
						p.dq = gq, p.dk = gk, p.dv = gv;
						const size_t bytes = hopper_bwd_workspace_bytes(&p.pb, 1);
						size_t freeb = 0, totalb = 0;
						CK(cudaMemGetInfo(&freeb, &totalb));
						if (bytes + ((size_t)1 << 30) > freeb) {
							printf("bench-bwd +tma+ws+det N=%d d=%d: workspace %.1f GB does not fit, skipped\n", n, d,
							       bytes / 1e9);
						} else {
							CK(cudaMalloc(&p.workspace, bytes));
							const int r = timed("hopper-bwd", "+tma+ws+det",
									    [&]() { return hopper_bwd(&p, HOPPER_BWD_RUNG_WS); });
							CK(cudaFree(p.workspace));
							if (r)
								return 1;
						}
					}
					bwd_params bp = {};
					bp.q = q, bp.k = k, bp.v = v, bp.o = o, bp.dout = dout, bp.lse = lse;
					bp.dq_acc = reinterpret_cast<float *>(ws);
					bp.dsum = bp.dq_acc + (size_t)f.pb.B * f.pb.H * n * d; // the same layout as hopper_bwd's workspace
					bp.dq = gq, bp.dk = gk, bp.dv = gv;
					bp.pb = f.pb;
					bp.pb.scale = 1.f / sqrtf((float)d);
					bp.pb.scale_log2 = bp.pb.scale * 1.4426950408889634f;
					const enum dtype t = bf ? DTYPE_BF16 : DTYPE_FP16;
					if (timed("flash2-bwd", "flash2", [&]() { return (int)flash2_bwd_launch(bp, t, d, 0, nullptr); }))
						return 1;
				}
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: %s check-bwd|small-bwd|bench-bwd|info-bwd [options]\n", argv[0]);
		return 2;
	}
	std::string mode = argv[1];
	std::vector<int> ds = {64, 128}, ns = {1024, 2048, 4096, 8192, 16384}, dts = {0, 1}, causals = {0, 1};
	uint64_t seed = (uint64_t)std::chrono::system_clock::now().time_since_epoch().count();
	double settle = 1.0;
	int reps = 30;
	for (int i = 2; i + 1 < argc; i += 2) {
		std::string a = argv[i];
		if (a == "--d")
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
		else if (a == "--reps")
			reps = std::max(1, atoi(argv[i + 1]));
		else {
			fprintf(stderr, "unknown option %s\n", a.c_str());
			return 2;
		}
	}
	int ndev = 0;
	if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
		printf("skipped: no GPU\n");
		return 0;
	}
	cudaDeviceProp prop;
	CK(cudaGetDeviceProperties(&prop, 0));
	printf("device %s, %d SMs, cc %d.%d\n", prop.name, prop.multiProcessorCount, prop.major, prop.minor);
	if (mode == "info-bwd") {
		for (int rung = 0; rung < HOPPER_BWD_RUNG_COUNT; rung++)
			for (int d : ds)
				for (int bf : dts)
					for (int c : causals) {
						hopper_kernel_info inf;
						int e = hopper_bwd_info(rung, d, bf, c, &inf);
						if (e) {
							printf("info-bwd %s d=%d %s causal=%d: error %d\n", hopper_bwd_rung_name(rung), d,
							       dtname(bf), c, e);
							continue;
						}
						printf("info-bwd %-7s %s d=%3d causal=%d threads=%d keys=%d rows=%d stages=%d regs=%d "
						       "(producer %d, consumer %d) smem=%d local=%d\n",
						       hopper_bwd_rung_name(rung), dtname(bf), d, c, inf.threads, inf.block_m,
						       inf.block_n, inf.stages, inf.regs, inf.regs_producer, inf.regs_consumer,
						       inf.smem_bytes, inf.local_bytes);
					}
		return 0;
	}
	if (mode == "bench-bwd")
		return bench(ds, ns, dts, causals, settle, reps);
	printf("seed %llu\n", (unsigned long long)seed);
	int nfail = 0;
	if (mode == "small-bwd") {
		for (int bf : dts)
			for (int c : causals)
				for (int d : ds)
					check_one({1, 2, 1, 70, 150, d}, c, bf, seed, &nfail);
	} else if (mode == "check-bwd") {
		const Shape shapes[] = {
			{1, 1, 1, 1, 1, 0},       // one row, one key
			{1, 2, 2, 17, 17, 0},     // inside one tile
			{2, 2, 2, 200, 200, 0},   // B = 2, N past the tiles
			{1, 8, 2, 1000, 1000, 0}, // GQA 4:1, odd N
			{1, 4, 1, 130, 1000, 0},  // MQA, Nq < Nkv (ragged)
			{1, 2, 2, 333, 150, 0},   // Nq > Nkv: causal rows with no key
		};
		for (int d : ds)
			for (Shape sh : shapes) {
				sh.d = d;
				for (int bf : dts)
					for (int c : causals)
						check_one(sh, c, bf, seed, &nfail);
			}
	} else {
		fprintf(stderr, "unknown mode %s\n", mode.c_str());
		return 2;
	}
	printf("check-bwd summary: %d failed\n", nfail);
	return nfail ? 1 : 0;
}
