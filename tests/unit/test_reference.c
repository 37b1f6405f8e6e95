/* test_reference.c: the fp64 reference against values worked by hand. */
#include "check.h"

#include "reference.h"
#include "util/error.h"

static struct attn_shape tiny(int nq, int nkv, int d, int causal)
{
	struct attn_shape s = { DTYPE_FP16, PHASE_PREFILL, 1, 1, 1, nq, nkv, d, causal };
	return s;
}

/* d = 1 (scale 1), q = [1, 2], k = [0, 1], v = [10, 20]:
 * row 0: scores (0, 1): O = (10 + 20e)/(1 + e) = 17.310585786300049,
 *        lse = log(1 + e) = 1.3132616875182228
 * row 1: scores (0, 2): O = (10 + 20e²)/(1 + e²) = 18.807970779778823,
 *        lse = log(1 + e²) = 2.1269280110429727 */
static void test_two_keys_by_hand(void)
{
	struct attn_shape s = tiny(2, 2, 1, 0);
	const float q[] = { 1, 2 }, k[] = { 0, 1 }, v[] = { 10, 20 };
	int rows[] = { 0, 1 };
	double o[2], lse[2];
	CHECK_INT(attn_reference_rows(&s, q, k, v, 0, 0, rows, 2, o, lse), 0);
	CHECK_NEAR(o[0], 17.310585786300049, 1e-14);
	CHECK_NEAR(lse[0], 1.3132616875182228, 1e-14);
	CHECK_NEAR(o[1], 18.807970779778823, 1e-14);
	CHECK_NEAR(lse[1], 2.1269280110429727, 1e-14);

	/* causal, Nq = Nkv: row 0 sees key 0 only -> O = 10, lse = 0 */
	s.causal = 1;
	CHECK_INT(attn_reference_rows(&s, q, k, v, 0, 0, rows, 2, o, lse), 0);
	CHECK_NEAR(o[0], 10.0, 1e-15);
	CHECK(lse[0] == 0.0);
	CHECK_NEAR(o[1], 18.807970779778823, 1e-14);
}

/* Causal is bottom-right aligned: with Nq = 3, Nkv = 2 the offset is -1,
 * so row 0 sees nothing (O = 0, lse = -inf), row 1 key 0, row 2 both. */
static void test_causal_bottom_right(void)
{
	struct attn_shape s = tiny(3, 2, 1, 1);
	const float q[] = { 5, 1, 2 }, k[] = { 0, 1 }, v[] = { 10, 20 };
	int rows[] = { 0, 1, 2 };
	double o[3], lse[3];
	CHECK_INT(attn_reference_rows(&s, q, k, v, 0, 0, rows, 3, o, lse), 0);
	CHECK(o[0] == 0.0);
	CHECK(isinf(lse[0]) && lse[0] < 0);
	CHECK_NEAR(o[1], 10.0, 1e-15);
	CHECK_NEAR(o[2], 18.807970779778823, 1e-14);
	CHECK_INT(attn_last_key(&s, 0), -1);
	CHECK_INT(attn_last_key(&s, 2), 1);
	/* decode shape: 1 query against 5 keys sees all of them */
	struct attn_shape dec = tiny(1, 5, 1, 1);
	CHECK_INT(attn_last_key(&dec, 0), 4);
}

/* d = 4: scale 1/2.  q = (1,1,1,1), k0 = 0, k1 = (1,1,1,1): scores 0 and 2,
 * so the weights are those of row 1 above; v0 = 0, v1 = 1 in every column:
 * O = e²/(1 + e²) = 0.88079707797788231 */
static void test_scale_is_inv_sqrt_d(void)
{
	struct attn_shape s = tiny(1, 2, 4, 0);
	const float q[] = { 1, 1, 1, 1 }, k[] = { 0, 0, 0, 0, 1, 1, 1, 1 };
	const float v[] = { 0, 0, 0, 0, 1, 1, 1, 1 };
	int row = 0;
	double o[4], lse;
	CHECK_INT(attn_reference_rows(&s, q, k, v, 0, 0, &row, 1, o, &lse), 0);
	for (int x = 0; x < 4; x++)
		CHECK_NEAR(o[x], 0.88079707797788231, 1e-14);
	CHECK_NEAR(lse, 2.1269280110429727, 1e-14);
}

/* GQA: H = 4, Hkv = 2: heads 0,1 read KV head 0; heads 2,3 read KV head 1. */
static void test_gqa_head_mapping(void)
{
	struct attn_shape s = { DTYPE_BF16, PHASE_PREFILL, 1, 4, 2, 1, 2, 1, 0 };
	const float q[] = { 1, 1, 1, 1 };         /* [1,4,1,1] */
	const float k[] = { 0, 1, 0, 1 };         /* [1,2,2,1] */
	const float v[] = { 10, 20, 30, 50 };     /* KV head 1 has other values */
	int row = 0;
	double o[4];
	for (int h = 0; h < 4; h++)
		CHECK_INT(attn_reference_rows(&s, q, k, v, 0, h, &row, 1, &o[h], NULL), 0);
	/* weights 1/(1+e), e/(1+e) = 0.2689414213699951, 0.7310585786300049 */
	CHECK_NEAR(o[0], 17.310585786300049, 1e-14);
	CHECK_NEAR(o[1], o[0], 0);
	CHECK_NEAR(o[2], 30 + 20 * 0.7310585786300049, 1e-14);
	CHECK_NEAR(o[3], o[2], 0);
}

static void test_bad_arguments(void)
{
	struct attn_shape s = tiny(2, 2, 1, 0);
	const float q[] = { 1, 2 }, k[] = { 0, 1 }, v[] = { 10, 20 };
	int bad = 2;
	double o;
	int was = error_quiet(1);
	CHECK_INT(attn_reference_rows(&s, q, k, v, 0, 0, &bad, 1, &o, NULL), -1);
	CHECK_CONTAINS(error_last(), "query row 2");
	CHECK_INT(attn_reference_rows(&s, q, k, v, 0, 1, &bad, 0, &o, NULL), -1);
	CHECK_CONTAINS(error_last(), "outside");
	struct attn_shape g = s;
	g.heads = 3; g.kv_heads = 2;
	CHECK_INT(attn_reference_rows(&g, q, k, v, 0, 0, &bad, 0, &o, NULL), -1);
	CHECK_CONTAINS(error_last(), "does not divide");
	error_quiet(was);
}

static void test_sample_rows(void)
{
	int rows[100];
	CHECK_INT(attn_sample_rows(10, 20, 1, rows), 10);
	for (int i = 0; i < 10; i++)
		CHECK_INT(rows[i], i);
	int n = attn_sample_rows(1000, 17, 42, rows);
	CHECK_INT(n, 17);
	CHECK_INT(rows[0], 0);
	CHECK_INT(rows[n - 1], 999);
	for (int i = 1; i < n; i++)
		CHECK(rows[i] > rows[i - 1]);
	int again[100];
	attn_sample_rows(1000, 17, 42, again);
	CHECK(!memcmp(rows, again, sizeof(int) * 17)); /* seeded: reproducible */
	attn_sample_rows(1000, 17, 43, again);
	CHECK(memcmp(rows, again, sizeof(int) * 17) != 0);
	CHECK_INT(attn_sample_rows(5, 1, 0, rows), 1);
	CHECK_INT(rows[0], 0);
}

static void test_error_sums(void)
{
	struct attn_error e;
	attn_error_init(&e);
	const double ref[] = { 3, 4 };
	const float got[] = { 3, 4.5f };
	attn_error_add(&e, ref, got, 2);
	CHECK_NEAR(e.max_abs, 0.5, 0);
	CHECK_NEAR(attn_error_rel_l2(&e), 0.1, 1e-15); /* 0.5 / ‖(3,4)‖ = 0.5 / 5 */
	const float nan_[] = { NAN, 0 };
	attn_error_add(&e, ref, nan_, 1);
	CHECK_INT(e.nonfinite, 1);
	CHECK(isinf(e.max_abs));
}

static void test_half_and_bf16(void)
{
	CHECK(half_to_float(0x3c00) == 1.0f);
	CHECK(half_to_float(0xc000) == -2.0f);
	CHECK(half_to_float(0x7bff) == 65504.0f);
	CHECK(half_to_float(0x0001) == ldexpf(1, -24));
	CHECK(isinf(half_to_float(0x7c00)));
	CHECK_INT(float_to_half(1.0f), 0x3c00);
	CHECK_INT(float_to_half(65519.0f), 0x7bff);
	CHECK_INT(float_to_half(65520.0f), 0x7c00);
	CHECK_INT(float_to_half(-0.0f), 0x8000);
	/* 1 + 2⁻¹¹ is halfway between 1 and 1 + 2⁻¹⁰: ties to even (1.0) */
	CHECK_INT(float_to_half(1.0f + ldexpf(1, -11)), 0x3c00);
	CHECK_INT(float_to_half(1.0f + 3 * ldexpf(1, -11)), 0x3c02);
	int bad = 0;
	for (uint32_t h = 0; h < 0x10000; h++) {
		if ((h & 0x7c00) == 0x7c00 && (h & 0x3ff))
			continue; /* NaN payloads need not survive */
		if (float_to_half(half_to_float((uint16_t)h)) != h)
			bad++;
	}
	CHECK_INT(bad, 0);
	CHECK(bf16_to_float(0x3f80) == 1.0f);
	CHECK_INT(float_to_bf16(1.0f), 0x3f80);
	CHECK_INT(float_to_bf16(1.0f + ldexpf(1, -8)), 0x3f80);     /* tie, to even */
	CHECK_INT(float_to_bf16(1.0f + 3 * ldexpf(1, -8)), 0x3f82); /* tie, to even */
	CHECK_INT(float_to_bf16(1.0f + ldexpf(1, -7) + ldexpf(1, -9)), 0x3f81);
}

/* ---- gradients ------------------------------------------------------- */

/* loss = ⟨dO, O⟩ over the G query heads of one KV head, by the forward
 * reference (fp64 arithmetic on float inputs). */
static double grad_loss(const struct attn_shape *s, const float *q, const float *k, const float *v,
			const float *dout)
{
	const int G = s->heads / s->kv_heads, d = s->head_dim;
	struct attn_shape one = *s;
	one.heads = G;
	one.kv_heads = 1;
	int rows[16];
	for (int r = 0; r < s->seqlen_q; r++)
		rows[r] = r;
	double o[16 * 8], loss = 0;
	for (int g = 0; g < G; g++) {
		CHECK_INT(attn_reference_rows(&one, q, k, v, 0, g, rows, s->seqlen_q, o, NULL), 0);
		for (int i = 0; i < s->seqlen_q * d; i++)
			loss += dout[(size_t)g * s->seqlen_q * d + i] * o[i];
	}
	return loss;
}

/* Small dyadic inputs, so that x ± 2⁻¹² is exact in float. */
static void dyadic_fill(float *x, int n, unsigned seed, double range)
{
	for (int i = 0; i < n; i++) {
		seed = seed * 1103515245u + 12345u;
		x[i] = (float)((double)((seed >> 16) % 65) / 32.0 - 1.0) * (float)range;
	}
}

/* Central differences of the loss (h = 2⁻¹², O(h²) ≈ 6e-8 truncation)
 * against attn_reference_grad for every element of Q, K and V, on shapes
 * with GQA (G = 2), causal both ways (Nq < Nkv, and Nq > Nkv where the
 * first rows see no key) and not. */
static void test_grad_matches_finite_differences(void)
{
	const int shapes[][4] = { /* Nq, Nkv, d, causal */
		{ 5, 7, 4, 0 }, { 5, 7, 4, 1 }, { 7, 5, 4, 1 }, { 6, 6, 8, 1 }, { 1, 3, 4, 0 },
	};
	for (size_t t = 0; t < sizeof(shapes) / sizeof(shapes[0]); t++) {
		struct attn_shape s = { DTYPE_FP16, PHASE_PREFILL, 1, 2, 1, shapes[t][0], shapes[t][1],
					shapes[t][2], shapes[t][3] };
		const int G = 2, nq = s.seqlen_q, nkv = s.seqlen_kv, d = s.head_dim;
		float q[2 * 16 * 8], k[16 * 8], v[16 * 8], dout[2 * 16 * 8];
		dyadic_fill(q, G * nq * d, 1u + (unsigned)t, 2.0);
		dyadic_fill(k, nkv * d, 7u + (unsigned)t, 2.0);
		dyadic_fill(v, nkv * d, 13u + (unsigned)t, 1.0);
		dyadic_fill(dout, G * nq * d, 19u + (unsigned)t, 1.0);
		int qrows[16], krows[16];
		for (int r = 0; r < nq; r++)
			qrows[r] = r;
		for (int c = 0; c < nkv; c++)
			krows[c] = c;
		double dq[2 * 16 * 8], dk[16 * 8], dv[16 * 8];
		CHECK_INT(attn_reference_grad(&s, q, k, v, dout, qrows, nq, dq, krows, nkv, dk, dv), 0);
		const float h = 1.0f / 4096.0f;
		double worst = 0, norm = 0;
		struct { float *x; int n; const double *g; } ts[3] = {
			{ q, G * nq * d, dq }, { k, nkv * d, dk }, { v, nkv * d, dv } };
		for (int w = 0; w < 3; w++)
			for (int i = 0; i < ts[w].n; i++) {
				const float x0 = ts[w].x[i];
				ts[w].x[i] = x0 + h;
				double up = grad_loss(&s, q, k, v, dout);
				ts[w].x[i] = x0 - h;
				double down = grad_loss(&s, q, k, v, dout);
				ts[w].x[i] = x0;
				double fd = (up - down) / (2.0 * h);
				double diff = fabs(fd - ts[w].g[i]);
				if (diff > worst)
					worst = diff;
				if (fabs(ts[w].g[i]) > norm)
					norm = fabs(ts[w].g[i]);
			}
		if (!(worst <= 1e-6)) {
			printf("    shape %zu: worst |fd - grad| = %g (largest gradient %g)\n", t, worst, norm);
			CHECK(worst <= 1e-6);
		}
		CHECK(norm > 0.05); /* the gradients are not trivially zero */
		if (shapes[t][3] && nq > nkv)
			for (int x = 0; x < d; x++) /* row 0 sees no key: dQ = 0 */
				CHECK(dq[x] == 0.0 && dq[(size_t)nq * d + x] == 0.0);
	}
}

/* Sampling: rows asked for in any order and subsets of the keys give the
 * values of the full computation, and nk = 0 skips dK, dV. */
static void test_grad_sampled_rows(void)
{
	struct attn_shape s = { DTYPE_BF16, PHASE_PREFILL, 1, 2, 1, 9, 11, 8, 1 };
	const int G = 2, d = 8;
	float q[2 * 9 * 8], k[11 * 8], v[11 * 8], dout[2 * 9 * 8];
	dyadic_fill(q, G * 9 * d, 3, 2.0);
	dyadic_fill(k, 11 * d, 5, 2.0);
	dyadic_fill(v, 11 * d, 9, 1.0);
	dyadic_fill(dout, G * 9 * d, 11, 1.0);
	int all_q[9], all_k[11];
	for (int r = 0; r < 9; r++)
		all_q[r] = r;
	for (int c = 0; c < 11; c++)
		all_k[c] = c;
	double dq[2 * 9 * 8], dk[11 * 8], dv[11 * 8];
	CHECK_INT(attn_reference_grad(&s, q, k, v, dout, all_q, 9, dq, all_k, 11, dk, dv), 0);
	int sq[] = { 8, 0, 4 }, sk[] = { 10, 2 };
	double dq2[2 * 3 * 8], dk2[2 * 8], dv2[2 * 8];
	CHECK_INT(attn_reference_grad(&s, q, k, v, dout, sq, 3, dq2, sk, 2, dk2, dv2), 0);
	for (int g = 0; g < G; g++)
		for (int i = 0; i < 3; i++)
			for (int x = 0; x < d; x++)
				CHECK(dq2[((size_t)g * 3 + i) * d + x] == dq[((size_t)g * 9 + sq[i]) * d + x]);
	for (int j = 0; j < 2; j++)
		for (int x = 0; x < d; x++) {
			CHECK(dk2[j * d + x] == dk[sk[j] * d + x]);
			CHECK(dv2[j * d + x] == dv[sk[j] * d + x]);
		}
	CHECK_INT(attn_reference_grad(&s, q, k, v, dout, sq, 3, dq2, NULL, 0, NULL, NULL), 0);
	CHECK(dq2[0] == dq[8 * d]);
	int bad = 11;
	int was = error_quiet(1);
	CHECK_INT(attn_reference_grad(&s, q, k, v, dout, sq, 3, dq2, &bad, 1, dk2, dv2), -1);
	error_quiet(was);
}

TESTS(test_grad_matches_finite_differences, test_grad_sampled_rows, test_two_keys_by_hand, test_causal_bottom_right, test_scale_is_inv_sqrt_d,
      test_gqa_head_mapping, test_bad_arguments, test_sample_rows, test_error_sums,
      test_half_and_bf16)
