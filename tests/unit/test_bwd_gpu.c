/* test_bwd_gpu.c: the backward kernels (flash2, standard) on a real GPU,
 * against the fp64 reference (attn_reference_grad) on fresh inputs from the
 * seeded input function.  Skips without a GPU or without the GPU half.
 *
 * Every variant × dtype × d × causal × pass (bwd, fwd+bwd) at odd and
 * ragged lengths (1, 37, 301, 1001), Nq ≠ Nkv both ways (bottom-right
 * causal, rows that see no key), grouped-query attention (Hkv = H/2).  For
 * each case the first and the last KV head group are checked as record
 * checks them (src/grad_check.h): dQ on sampled query rows of each of its G
 * query heads, dK and dV on sampled key rows, the forward's O too for
 * fwd+bwd.
 *
 * Tolerances (rel-L2 over the checked elements, the number that a layout or
 * indexing bug moves to O(1)): fp16 1e-2, bf16 4e-2.  Why: the kernels round
 * P and dS to the input type for the tensor cores (FA2 does the same), 2⁻¹¹
 * relative for fp16 and 2⁻⁸ for bf16 per rounding; standard also rounds S,
 * dP to the input type in HBM, and dS = P ∘ (dP − D) loses relative accuracy
 * where dP ≈ D.  Every value is printed so the margins can be read.
 *
 * BWD_QUICK=1 runs eight small flash2 cases only (for compute-sanitizer).
 * BWD_BENCH=1 also times flash2 and standard bwd and fwd+bwd at the FA2
 * paper's shapes (fp16, d = 64 and 128, B·N = 16k, H·d = 2048; 3 warm-up,
 * 20 timed launches, median) and prints TFLOP/s by the FA2 convention
 * (bwd = 2.5 × forward FLOPs, fwd+bwd = 3.5 ×).
 */
#include "check.h"

#include "util/error.h"

#if ATTNPROF_HAVE_CUDA
#include <stdlib.h>

#include "attn.h"
#include "gpu_device.h"
#include "gpu/check.h"
#include "grad_check.h"
#include "inputs.h"
#include "reference.h"

static const char *skip_reason = "skipped: no GPU";


static float to_f(enum dtype t, uint16_t x) { return t == DTYPE_FP16 ? half_to_float(x) : bf16_to_float(x); }

/* Read rows of a run's buffer and add their errors against ref. */
static int add_rows(struct attn_run *r, const char *name, enum dtype t, const uint64_t *first, size_t n,
		    size_t d, const double *ref, struct attn_error *e)
{
	uint16_t *raw = malloc(n * d * sizeof(uint16_t) + 1);
	float *row = malloc(d * sizeof(float));
	int rc = -1;
	if (raw && row && !attn_run_get_buffer_rows(r, name, first, n, d, raw)) {
		for (size_t i = 0; i < n; i++) {
			for (size_t x = 0; x < d; x++)
				row[x] = to_f(t, raw[i * d + x]);
			attn_error_add(e, ref + i * d, row, d);
		}
		rc = 0;
	} else {
		printf("    reading %s: %s\n", name, attn_last_error());
	}
	free(raw);
	free(row);
	return rc;
}

static int fill(struct attn_run *r, const char *name, uint64_t n, enum dtype t, uint64_t seed, int tensor)
{
	void *p = attn_run_buffer(r, name);
	if (!p || attn_fill_input(p, n, t, seed, tensor)) {
		printf("    filling %s: %s\n", name, attn_last_error());
		return -1;
	}
	return 0;
}

/* One case; returns 1 when every checked tensor is within tolerance.
 * The sample and the fp64 values are record's (src/grad_check.c): the first
 * and the last KV head group, every row up to 64 (check_rows 64·heads). */
static int run_case(const char *variant, enum pass pass, enum dtype t, int B, int H, int Hkv, int nq, int nkv,
		    int d, int causal)
{
	const struct variant_desc *v = variant_find(variant);
	struct attn_shape s = { t, PHASE_PREFILL, B, H, Hkv, nq, nkv, d, causal, pass };
	const uint64_t seed = 0x5eed0000u + (uint64_t)(nq * 131 + nkv * 7 + d + causal * 3 + (int)t * 5 + Hkv);
	struct attn_run *r = NULL;
	struct grad_ref g;
	struct attn_error e[GRAD_COUNT + 1];
	for (int i = 0; i <= GRAD_COUNT; i++)
		attn_error_init(&e[i]);
	grad_ref_init(&g);
	int ok = 0;
	uint64_t *first = NULL;
	double *o = NULL;
	float *q = NULL, *k = NULL, *vv = NULL;
	if (attn_run_create(&r, v, &s, gpu_dev.hw.sm_count)) {
		printf("    %s %s: create: %s\n", variant, pass_name(pass), attn_last_error());
		return 0;
	}
	const uint64_t nQ = (uint64_t)B * H * nq * d, nK = (uint64_t)B * Hkv * nkv * d;
	if (fill(r, "Q", nQ, t, seed, TENSOR_Q) || fill(r, "K", nK, t, seed, TENSOR_K) ||
	    fill(r, "V", nK, t, seed, TENSOR_V) || fill(r, "dO", nQ, t, seed, TENSOR_DO))
		goto out;
	if (attn_run_prepare(r) || attn_run_poison(r) || attn_run_launch(r) || attn_run_sync(r)) {
		printf("    %s %s: run: %s\n", variant, pass_name(pass), attn_last_error());
		goto out;
	}
	if (grad_ref_build(&g, &s, seed, 64 * H * 2)) {
		printf("    reference: %s\n", error_last());
		goto out;
	}
	first = malloc(sizeof(uint64_t) * (grad_ref_rows(&g, &s, GRAD_DQ, NULL) + grad_ref_rows(&g, &s, GRAD_DK, NULL)) + 8);
	if (!first)
		goto out;
	for (int ti = 0; ti < GRAD_COUNT; ti++) {
		size_t n = grad_ref_rows(&g, &s, (enum grad_tensor)ti, first);
		if (add_rows(r, grad_tensor_name((enum grad_tensor)ti), t, first, n, d, g.val[ti], &e[ti]))
			goto out;
	}
	if (pass == PASS_FWDBWD) { /* the forward's O: the first head's sampled rows */
		struct attn_shape one = s;
		one.batch = one.heads = one.kv_heads = 1;
		q = malloc(sizeof(float) * nq * d);
		k = malloc(sizeof(float) * nkv * d);
		vv = malloc(sizeof(float) * nkv * d);
		o = malloc(sizeof(double) * g.nq * d);
		if (!q || !k || !vv || !o)
			goto out;
		for (uint64_t i = 0; i < (uint64_t)nq * d; i++)
			q[i] = grad_input(&s, seed, TENSOR_Q, i);
		for (uint64_t i = 0; i < (uint64_t)nkv * d; i++) {
			k[i] = grad_input(&s, seed, TENSOR_K, i);
			vv[i] = grad_input(&s, seed, TENSOR_V, i);
		}
		grad_ref_rows(&g, &s, GRAD_DQ, first); /* head 0's rows come first */
		if (attn_reference_rows(&one, q, k, vv, 0, 0, g.qrows, g.nq, o, NULL) ||
		    add_rows(r, "O", t, first, g.nq, d, o, &e[GRAD_COUNT]))
			goto out;
	}
	const double tol = t == DTYPE_FP16 ? 1e-2 : 4e-2;
	ok = 1;
	for (int i = 0; i <= GRAD_COUNT; i++)
		if (e[i].n && (e[i].nonfinite || !(attn_error_rel_l2(&e[i]) <= tol)))
			ok = 0;
	if (g.nk == 0) /* every case here is small enough for dK, dV */
		ok = 0;
	const int regs = attn_run_main_kernel_regs(r);
	const int want = attn_run_tiling(r)->regs_per_thread;
	if (regs > 0 && want > 0 && regs != want) {
		printf("    %s: descriptor says %d registers, the compiled kernel has %d\n", variant, want, regs);
		ok = 0;
	}
	printf("    %s %-8s %-7s %s d=%-3d causal=%d B=%d H=%d Hkv=%d Nq=%-4d Nkv=%-4d rel-L2 dQ %.2e dK %.2e dV %.2e O %.2e "
	       "max|err| dQ %.1e dK %.1e dV %.1e nonfinite %zu\n", ok ? "ok  " : "FAIL", variant, pass_name(pass),
	       dtype_name(t), d, causal, B, H, Hkv, nq, nkv, attn_error_rel_l2(&e[GRAD_DQ]),
	       attn_error_rel_l2(&e[GRAD_DK]), attn_error_rel_l2(&e[GRAD_DV]),
	       e[GRAD_COUNT].n ? attn_error_rel_l2(&e[GRAD_COUNT]) : 0.0, e[GRAD_DQ].max_abs, e[GRAD_DK].max_abs,
	       e[GRAD_DV].max_abs, e[0].nonfinite + e[1].nonfinite + e[2].nonfinite + e[3].nonfinite);
out:
	free(first);
	free(o);
	free(q);
	free(k);
	free(vv);
	grad_ref_release(&g);
	attn_run_destroy(r);
	return ok;
}

static void test_gpu_bwd_correct(void)
{
	if (!gpu())
		SKIP(skip_reason);
	const char *variants[] = { "flash2", "standard" };
	const int lens[][2] = { { 1, 1 }, { 37, 37 }, { 301, 301 }, { 37, 301 }, { 301, 37 }, { 128, 256 } };
	int cases = 0, bad = 0;
	if (getenv("BWD_QUICK")) { /* under compute-sanitizer: flash2, fp16, a few shapes */
		for (int d = 64; d <= 128; d += 64)
			for (int causal = 0; causal < 2; causal++) {
				cases += 2;
				bad += !run_case("flash2", PASS_BWD, DTYPE_FP16, 1, 2, 1, 301, 301, d, causal);
				bad += !run_case("flash2", PASS_FWDBWD, DTYPE_FP16, 1, 2, 2, 37, 200, d, causal);
			}
		printf("    %d quick cases, %d failing\n", cases, bad);
		CHECK_INT(bad, 0);
		return;
	}
	for (int vi = 0; vi < 2; vi++)
		for (int t = 0; t < 2; t++)
			for (int d = 64; d <= 128; d += 64)
				for (int causal = 0; causal < 2; causal++)
					for (size_t li = 0; li < sizeof(lens) / sizeof(lens[0]); li++)
						for (int hk = 0; hk < 2; hk++) {
							const enum pass pass = li % 2 ? PASS_FWDBWD : PASS_BWD;
							cases++;
							bad += !run_case(variants[vi], pass, (enum dtype)t, 2, 4, hk ? 2 : 4,
									 lens[li][0], lens[li][1], d, causal);
						}
	/* longer: several K/V blocks and Q blocks, both passes */
	for (int vi = 0; vi < 2; vi++)
		for (int causal = 0; causal < 2; causal++)
			for (int d = 64; d <= 128; d += 64) {
				cases++;
				bad += !run_case(variants[vi], PASS_BWD, DTYPE_FP16, 1, 2, 2, 1001, 1001, d, causal);
			}
	printf("    %d cases, %d failing\n", cases, bad);
	CHECK_INT(bad, 0);
}

/* What record keeps of a backward check (src/gpu/check.c): each gradient's
 * own errors and bounds beside the worst, and a wrong dK failing dK alone. */
static void test_gpu_bwd_record_grads(void)
{
	if (!gpu())
		SKIP(skip_reason);
	struct attn_shape s = { DTYPE_FP16, PHASE_PREFILL, 1, 2, 2, 301, 301, 64, 1, PASS_BWD };
	const uint64_t seed = 0x6a11u, nQ = 2ull * 301 * 64;
	struct attn_run *r = NULL;
	struct grad_ref g;
	struct record rec;
	grad_ref_init(&g);
	record_init(&rec);
	CHECK_INT(attn_run_create(&r, variant_find("flash2"), &s, gpu_dev.hw.sm_count), 0);
	if (!r)
		return;
	int ready = !fill(r, "Q", nQ, s.dtype, seed, TENSOR_Q) && !fill(r, "K", nQ, s.dtype, seed, TENSOR_K) &&
		    !fill(r, "V", nQ, s.dtype, seed, TENSOR_V) && !fill(r, "dO", nQ, s.dtype, seed, TENSOR_DO) &&
		    !attn_run_prepare(r) && !attn_run_launch(r) && !attn_run_sync(r) && !grad_ref_build(&g, &s, seed, 0);
	CHECK(ready);
	if (ready) {
		CHECK_INT(check_gradients(r, &g, &s, &rec), 0);
		double worst = 0;
		for (int t = 0; t < RECORD_GRADS; t++) {
			const struct grad_error *e = &rec.grad[t];
			printf("    %s: rel-L2 %.2e (bound %.0e), max|err| %.2e (bound %.2e)%s\n", record_grad_names[t],
			       e->rel_l2_err, e->tol_rel_l2, e->max_abs_err, e->tol_max_abs, e->correct ? "" : " FAIL");
			CHECK(e->checked && e->correct);
			CHECK(e->rel_l2_err > 0 && e->rel_l2_err <= e->tol_rel_l2 && e->max_abs_err <= e->tol_max_abs);
			worst = e->rel_l2_err > worst ? e->rel_l2_err : worst;
		}
		CHECK(rec.correct && rec.rel_l2_err == worst);
		/* dK overwritten with other numbers: dK fails, dQ and dV stay within */
		void *dk = attn_run_buffer(r, "dK");
		CHECK(dk && !attn_fill_input(dk, nQ, s.dtype, seed + 1, TENSOR_K));
		record_release(&rec);
		CHECK_INT(check_gradients(r, &g, &s, &rec), 0);
		CHECK(!rec.correct);
		CHECK(!rec.grad[GRAD_DK].correct && rec.grad[GRAD_DQ].correct && rec.grad[GRAD_DV].correct);
		CHECK(rec.grad[GRAD_DK].rel_l2_err > 10 * rec.grad[GRAD_DK].tol_rel_l2);
	}
	record_release(&rec);
	grad_ref_release(&g);
	attn_run_destroy(r);
}

/* A variant without backward kernels is refused with a clear error. */
static void test_gpu_bwd_unsupported(void)
{
	if (!gpu())
		SKIP(skip_reason);
	struct attn_shape s = { DTYPE_FP16, PHASE_PREFILL, 1, 1, 1, 64, 64, 64, 0, PASS_BWD };
	struct attn_run *r = NULL;
	CHECK_INT(attn_run_create(&r, variant_find("flash1"), &s, gpu_dev.hw.sm_count), -1);
	CHECK_CONTAINS(attn_last_error(), "no bwd kernels");
	/* a bwd run launched before its forward products exist */
	CHECK_INT(attn_run_create(&r, variant_find("flash2"), &s, gpu_dev.hw.sm_count), 0);
	if (r) {
		CHECK_INT(attn_run_launch(r), -1);
		CHECK_CONTAINS(attn_last_error(), "attn_run_prepare");
		attn_run_destroy(r);
	}
}

static void bench(const char *variant, enum pass pass, int d, int n, int causal)
{
	const int H = 2048 / d, B = 16384 / n;
	struct attn_shape s = { DTYPE_FP16, PHASE_PREFILL, B, H, H, n, n, d, causal, pass };
	struct attn_run *r = NULL;
	float ms[20];
	if (attn_run_create(&r, variant_find(variant), &s, gpu_dev.hw.sm_count)) {
		printf("    bench %s: %s\n", variant, attn_last_error());
		return;
	}
	const uint64_t nq = (uint64_t)B * H * n * d;
	if (fill(r, "Q", nq, s.dtype, 1, TENSOR_Q) || fill(r, "K", nq, s.dtype, 1, TENSOR_K) ||
	    fill(r, "V", nq, s.dtype, 1, TENSOR_V) || fill(r, "dO", nq, s.dtype, 1, TENSOR_DO) ||
	    attn_run_prepare(r) || attn_run_time(r, 3, 20, ms, NULL)) {
		printf("    bench %s: %s\n", variant, attn_last_error());
		attn_run_destroy(r);
		return;
	}
	for (int i = 1; i < 20; i++) /* insertion sort for the median */
		for (int j = i; j > 0 && ms[j] < ms[j - 1]; j--) {
			float x = ms[j];
			ms[j] = ms[j - 1];
			ms[j - 1] = x;
		}
	const double med = 0.5 * (ms[9] + ms[10]);
	printf("    bench %-8s %-7s fp16 d=%-3d causal=%d N=%-5d B=%-2d H=%-2d %8.3f ms %6.1f TFLOP/s  peak %.0f MiB\n",
	       variant, pass_name(pass), d, causal, n, B, H, med, attn_flops(&s) / (med * 1e-3) / 1e12,
	       (double)attn_run_peak_bytes(r) / 1048576.0);
	attn_run_destroy(r);
}

static void test_gpu_bwd_bench(void)
{
	if (!gpu())
		SKIP(skip_reason);
	if (!getenv("BWD_BENCH"))
		SKIP("skipped: set BWD_BENCH=1 to time the backward at the FA2-paper shapes");
	const int ns[] = { 512, 1024, 2048, 4096, 8192, 16384 };
	/* BWD_BENCH_N, BWD_BENCH_D: one length, one head size (e.g. under ncu) */
	const int only_n = getenv("BWD_BENCH_N") ? atoi(getenv("BWD_BENCH_N")) : 0;
	const int only_d = getenv("BWD_BENCH_D") ? atoi(getenv("BWD_BENCH_D")) : 0;
	for (int d = 128; d >= 64; d -= 64)
		for (int causal = 0; causal < 2; causal++)
			for (size_t i = 0; i < 6; i++) {
				if ((only_n && ns[i] != only_n) || (only_d && d != only_d))
					continue;
				bench("flash2", PASS_BWD, d, ns[i], causal);
				bench("flash2", PASS_FWDBWD, d, ns[i], causal);
				if (ns[i] <= 8192)
					bench("standard", PASS_BWD, d, ns[i], causal);
			}
}

TESTS(test_gpu_bwd_unsupported, test_gpu_bwd_record_grads, test_gpu_bwd_correct, test_gpu_bwd_bench)
#else
static void test_gpu_bwd(void)
{
	SKIP("skipped: built without the GPU half");
}
TESTS(test_gpu_bwd)
#endif
