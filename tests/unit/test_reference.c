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

TESTS(test_two_keys_by_hand, test_causal_bottom_right, test_scale_is_inv_sqrt_d,
      test_gqa_head_mapping, test_bad_arguments, test_sample_rows, test_error_sums,
      test_half_and_bf16)
