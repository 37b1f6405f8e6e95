/* test_half.c: the host fp16/bf16 conversions (declared in kernels/attn.h
 * and src/reference.h) against an independent model: exhaustive over all
 * 65536 bit patterns one way, and round-to-nearest-even checked the other
 * way against the two neighbouring representable values in double. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "reference.h"

static float bits_f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint32_t f_bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

/* binary16 value by its definition: (-1)^s · 2^(e-15) · 1.m, or subnormal. */
static double half_value(uint16_t h)
{
	int s = h >> 15, e = (h >> 10) & 31, m = h & 1023;
	double v;
	if (e == 31)
		v = m ? NAN : INFINITY;
	else if (e == 0)
		v = ldexp((double)m, -24);
	else
		v = ldexp(1024.0 + m, e - 25);
	return s ? -v : v;
}

static void test_half_to_float_exhaustive(void)
{
	int bad = 0;
	for (uint32_t h = 0; h < 65536; h++) {
		double want = half_value((uint16_t)h);
		float got = half_to_float((uint16_t)h);
		if (isnan(want) ? !isnan(got) : (double)got != want || !signbit(got) != !signbit(want))
			bad++;
	}
	CHECK_INT(bad, 0);
}

static void test_half_roundtrip_exhaustive(void)
{
	int bad = 0;
	for (uint32_t h = 0; h < 65536; h++) {
		uint16_t back = float_to_half(half_to_float((uint16_t)h));
		int nan = ((h >> 10) & 31) == 31 && (h & 1023);
		if (nan ? !(((back >> 10) & 31) == 31 && (back & 1023)) : back != h)
			bad++;
	}
	CHECK_INT(bad, 0);
}

/* Nearest-even by brute force: the candidate halves around f. */
static uint16_t half_rne_model(float f)
{
	double x = f;
	if (isnan(x))
		return 0x7e00;
	uint16_t sign = signbit(x) ? 0x8000 : 0;
	double a = fabs(x);
	if (a >= 65520.0)
		return sign | 0x7c00;
	/* the largest half ≤ a, then compare the midpoint */
	uint16_t lo = 0;
	for (int step = 0x4000; step; step >>= 1)
		if (lo + step <= 0x7bff && half_value((uint16_t)(lo + step)) <= a)
			lo = (uint16_t)(lo + step);
	double vlo = half_value(lo), vhi = half_value((uint16_t)(lo + 1));
	if (vlo == a)
		return sign | lo;
	double mid = (vlo + vhi) / 2;
	uint16_t r = a < mid ? lo : a > mid ? (uint16_t)(lo + 1) : ((lo & 1) ? (uint16_t)(lo + 1) : lo);
	return sign | r;
}

static void test_float_to_half_rne(void)
{
	/* Every float whose low 13 bits hit the rounding cases, over the whole
	 * half range (normal, subnormal, overflow), both signs. */
	static const uint32_t lows[] = { 0, 1, 0xfff, 0x1000, 0x1001, 0x1fff, 0x17ff, 0x0800 };
	int bad = 0, n = 0;
	for (uint32_t e = 90; e <= 145; e++)
		for (uint32_t m = 0; m < (1u << 10); m += 7)
			for (size_t k = 0; k < sizeof lows / sizeof lows[0]; k++)
				for (int s = 0; s < 2; s++) {
					uint32_t u = ((uint32_t)s << 31) | (e << 23) | (m << 13) | lows[k];
					float f = bits_f(u);
					uint16_t got = float_to_half(f), want = half_rne_model(f);
					n++;
					if (got != want) {
						if (bad < 5)
							printf("    float_to_half(%a) = 0x%04x, expected 0x%04x\n", (double)f, got, want);
						bad++;
					}
				}
	CHECK_INT(bad, 0);
	CHECK(n > 100000);
	CHECK_INT(float_to_half(INFINITY), 0x7c00);
	CHECK_INT(float_to_half(-INFINITY), 0xfc00);
	CHECK_INT(float_to_half(65504.0f), 0x7bff);
	CHECK_INT(float_to_half(65519.996f), 0x7bff);
	CHECK_INT(float_to_half(65520.0f), 0x7c00);
	CHECK_INT(float_to_half(ldexpf(1.0f, -24)), 0x0001);  /* smallest subnormal */
	CHECK_INT(float_to_half(ldexpf(1.0f, -25)), 0x0000);  /* tie to even: 0 */
	CHECK_INT(float_to_half(ldexpf(3.0f, -25)), 0x0002);  /* 1.5 ulp: tie to even 2 */
	CHECK_INT(float_to_half(-0.0f), 0x8000);
	uint16_t qn = float_to_half(NAN);
	CHECK(((qn >> 10) & 31) == 31 && (qn & 0x3ff) != 0);
}

static void test_bf16(void)
{
	int bad = 0;
	for (uint32_t b = 0; b < 65536; b++) {
		float f = bf16_to_float((uint16_t)b);
		if (f_bits(f) != b << 16)
			bad++;
		uint16_t back = float_to_bf16(f);
		int nan = ((b >> 7) & 0xff) == 0xff && (b & 0x7f);
		if (nan ? !(((back >> 7) & 0xff) == 0xff && (back & 0x7f)) : back != b)
			bad++;
	}
	CHECK_INT(bad, 0);
	/* ties to even and carries */
	CHECK_INT(float_to_bf16(bits_f(0x3f808000u)), 0x3f80); /* tie, even stays */
	CHECK_INT(float_to_bf16(bits_f(0x3f818000u)), 0x3f82); /* tie, odd rounds up */
	CHECK_INT(float_to_bf16(bits_f(0x3f808001u)), 0x3f81);
	CHECK_INT(float_to_bf16(bits_f(0x7f7fffffu)), 0x7f80); /* FLT_MAX rounds to inf */
	CHECK_INT(float_to_bf16(bits_f(0x00000001u)), 0x0000); /* tiny subnormal to 0 */
	CHECK_INT(float_to_bf16(bits_f(0x00018000u)), 0x0002); /* subnormal tie to even */
	uint16_t qn = float_to_bf16(bits_f(0x7f800001u));     /* signalling NaN stays NaN */
	CHECK(((qn >> 7) & 0xff) == 0xff && (qn & 0x7f) != 0);
}

TESTS(test_half_to_float_exhaustive, test_half_roundtrip_exhaustive, test_float_to_half_rne, test_bf16)
