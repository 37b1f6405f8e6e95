/* reference.c: naive fp64 attention (see reference.h).
 *
 * Deliberately the textbook algorithm — full score row, max, exp, sum,
 * weighted sum of V — so it shares no code and no tiling with the kernels
 * or with flashsim.c, which it judges.
 */
#include "reference.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"

long attn_last_key(const struct attn_shape *s, long r)
{
	if (!s->causal)
		return (long)s->seqlen_kv - 1;
	long last = r + ((long)s->seqlen_kv - s->seqlen_q);
	if (last >= s->seqlen_kv)
		last = s->seqlen_kv - 1;
	return last < 0 ? -1 : last;
}

int attn_reference_rows(const struct attn_shape *s, const float *q,
			const float *k, const float *v, int b, int h,
			const int *rows, int nrows, double *o, double *lse)
{
	if (s->batch < 1 || s->heads < 1 || s->kv_heads < 1 || s->head_dim < 1
	    || s->seqlen_q < 1 || s->seqlen_kv < 1)
		return error("reference: bad shape (every dimension must be at least 1)");
	if (s->heads % s->kv_heads)
		return error("reference: kv_heads %d does not divide heads %d", s->kv_heads, s->heads);
	if (b < 0 || b >= s->batch || h < 0 || h >= s->heads)
		return error("reference: head (b=%d, h=%d) outside B=%d H=%d", b, h, s->batch, s->heads);

	const size_t d = (size_t)s->head_dim, nq = (size_t)s->seqlen_q, nkv = (size_t)s->seqlen_kv;
	const int hkv = h / (s->heads / s->kv_heads);
	const float *qh = q + ((size_t)b * s->heads + h) * nq * d;
	const float *kh = k + ((size_t)b * s->kv_heads + hkv) * nkv * d;
	const float *vh = v + ((size_t)b * s->kv_heads + hkv) * nkv * d;
	const double scale = 1.0 / sqrt((double)s->head_dim);

	double *sc = malloc(nkv * sizeof(*sc));
	if (!sc)
		return error("reference: out of memory for %zu scores", nkv);
	for (int i = 0; i < nrows; i++) {
		long r = rows[i];
		if (r < 0 || r >= s->seqlen_q) {
			free(sc);
			return error("reference: query row %ld outside [0, %d)", r, s->seqlen_q);
		}
		long last = attn_last_key(s, r);
		double *orow = o ? o + (size_t)i * d : NULL;
		if (orow)
			memset(orow, 0, d * sizeof(*orow));
		if (last < 0) {
			if (lse)
				lse[i] = -INFINITY;
			continue;
		}
		const float *qr = qh + (size_t)r * d;
		double m = -INFINITY;
		for (long c = 0; c <= last; c++) {
			const float *kc = kh + (size_t)c * d;
			double dot = 0;
			for (size_t x = 0; x < d; x++)
				dot += (double)qr[x] * kc[x];
			sc[c] = dot * scale;
			if (sc[c] > m)
				m = sc[c];
		}
		double l = 0;
		for (long c = 0; c <= last; c++) {
			double p = exp(sc[c] - m);
			l += p;
			if (orow) {
				const float *vc = vh + (size_t)c * d;
				for (size_t x = 0; x < d; x++)
					orow[x] += p * vc[x];
			}
		}
		if (orow)
			for (size_t x = 0; x < d; x++)
				orow[x] /= l;
		if (lse)
			lse[i] = m + log(l);
	}
	free(sc);
	return 0;
}

int attn_reference_grad(const struct attn_shape *s, const float *q, const float *k,
			const float *v, const float *dout, const int *qrows, int nq,
			double *dq, const int *krows, int nk, double *dk, double *dv)
{
	if (s->batch < 1 || s->heads < 1 || s->kv_heads < 1 || s->head_dim < 1
	    || s->seqlen_q < 1 || s->seqlen_kv < 1)
		return error("reference: bad shape (every dimension must be at least 1)");
	if (s->heads % s->kv_heads)
		return error("reference: kv_heads %d does not divide heads %d", s->kv_heads, s->heads);
	const int G = s->heads / s->kv_heads;
	const size_t d = (size_t)s->head_dim, Nq = (size_t)s->seqlen_q, Nkv = (size_t)s->seqlen_kv;
	for (int i = 0; i < nq; i++)
		if (qrows[i] < 0 || qrows[i] >= s->seqlen_q)
			return error("reference: query row %d outside [0, %d)", qrows[i], s->seqlen_q);
	for (int j = 0; j < nk; j++)
		if (krows[j] < 0 || krows[j] >= s->seqlen_kv)
			return error("reference: key row %d outside [0, %d)", krows[j], s->seqlen_kv);
	const double scale = 1.0 / sqrt((double)s->head_dim);

	double *p = malloc(Nkv * sizeof(*p)), *o = malloc(d * sizeof(*o));
	int *qidx = malloc(Nq * sizeof(*qidx));
	if (!p || !o || !qidx) {
		free(p); free(o); free(qidx);
		return error("reference: out of memory for %zu scores", Nkv);
	}
	for (size_t r = 0; r < Nq; r++)
		qidx[r] = -1;
	for (int i = 0; i < nq; i++)
		qidx[qrows[i]] = i;
	long kmin = s->seqlen_kv; /* a row that sees no sampled key only matters for dQ */
	for (int j = 0; j < nk; j++)
		if (krows[j] < kmin)
			kmin = krows[j];
	if (nq)
		memset(dq, 0, (size_t)G * nq * d * sizeof(*dq));
	if (nk) {
		memset(dk, 0, (size_t)nk * d * sizeof(*dk));
		memset(dv, 0, (size_t)nk * d * sizeof(*dv));
	}
	for (int g = 0; g < G; g++)
		for (size_t r = 0; r < Nq; r++) {
			const int qi = qidx[r];
			const long last = attn_last_key(s, (long)r);
			if (last < 0)
				continue; /* sees no key: P = 0, nothing flows */
			if (qi < 0 && last < kmin)
				continue;
			const float *qr = q + ((size_t)g * Nq + r) * d, *dor = dout + ((size_t)g * Nq + r) * d;
			double m = -INFINITY, l = 0;
			for (long c = 0; c <= last; c++) {
				double dot = 0;
				for (size_t x = 0; x < d; x++)
					dot += (double)qr[x] * k[(size_t)c * d + x];
				p[c] = dot * scale;
				if (p[c] > m)
					m = p[c];
			}
			for (long c = 0; c <= last; c++) {
				p[c] = exp(p[c] - m);
				l += p[c];
			}
			memset(o, 0, d * sizeof(*o));
			for (long c = 0; c <= last; c++) {
				p[c] /= l;
				for (size_t x = 0; x < d; x++)
					o[x] += p[c] * v[(size_t)c * d + x];
			}
			double D = 0;
			for (size_t x = 0; x < d; x++)
				D += (double)dor[x] * o[x];
			/* dS_rc = P_rc (dO_r · V_c − D_r), for the keys this row needs */
			if (qi >= 0) {
				double *dqr = dq + ((size_t)g * nq + qi) * d;
				for (long c = 0; c <= last; c++) {
					double dp = 0;
					for (size_t x = 0; x < d; x++)
						dp += (double)dor[x] * v[(size_t)c * d + x];
					const double ds = p[c] * (dp - D);
					for (size_t x = 0; x < d; x++)
						dqr[x] += scale * ds * k[(size_t)c * d + x];
				}
			}
			for (int j = 0; j < nk; j++) {
				const long c = krows[j];
				if (c > last)
					continue;
				double dp = 0;
				for (size_t x = 0; x < d; x++)
					dp += (double)dor[x] * v[(size_t)c * d + x];
				const double ds = p[c] * (dp - D);
				for (size_t x = 0; x < d; x++) {
					dv[(size_t)j * d + x] += p[c] * dor[x];
					dk[(size_t)j * d + x] += scale * ds * qr[x];
				}
			}
		}
	free(p);
	free(o);
	free(qidx);
	return 0;
}

/* splitmix64: small, seedable, good enough for picking rows. */
static uint64_t mix_next(uint64_t *st)
{
	uint64_t z = (*st += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

int attn_sample_rows(int nq, int n, uint64_t seed, int *rows)
{
	if (nq <= 0 || n <= 0)
		return 0;
	if (n >= nq) {
		for (int r = 0; r < nq; r++)
			rows[r] = r;
		return nq;
	}
	int k = 0;
	rows[k++] = 0;
	if (n == 1)
		return 1;
	/* Selection sampling (Knuth's Algorithm S) over the inner rows:
	 * sorted output, no memory beyond rows[]. */
	int need = n - 2, pool = nq - 2;
	uint64_t st = seed;
	for (int r = 1; r <= nq - 2 && need > 0; r++, pool--) {
		double u = (double)(mix_next(&st) >> 11) * (1.0 / 9007199254740992.0);
		if (u * pool < need) {
			rows[k++] = r;
			need--;
		}
	}
	rows[k++] = nq - 1;
	return k;
}

void attn_error_init(struct attn_error *e)
{
	memset(e, 0, sizeof(*e));
}

static void error_add_one(struct attn_error *e, double ref, double got)
{
	e->n++;
	if (!isfinite(got)) {
		e->nonfinite++;
		e->max_abs = INFINITY;
		e->sum_sq_err = INFINITY;
		return;
	}
	double diff = fabs(got - ref);
	if (diff > e->max_abs)
		e->max_abs = diff;
	e->sum_sq_err += diff * diff;
	e->sum_sq_ref += ref * ref;
}

void attn_error_add(struct attn_error *e, const double *ref, const float *got, size_t n)
{
	for (size_t i = 0; i < n; i++)
		error_add_one(e, ref[i], got[i]);
}

double attn_error_rel_l2(const struct attn_error *e)
{
	if (e->sum_sq_ref > 0)
		return sqrt(e->sum_sq_err / e->sum_sq_ref);
	return sqrt(e->sum_sq_err);
}

/* ---- 16-bit floats --------------------------------------------------- */

static float bits_to_float(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint32_t float_to_bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

float half_to_float(uint16_t h)
{
	uint32_t sign = (uint32_t)(h & 0x8000) << 16;
	uint32_t ex = (h >> 10) & 0x1f, mant = h & 0x3ff;
	if (ex == 0) { /* zero or subnormal: mant · 2⁻²⁴, exact in float */
		float f = ldexpf((float)mant, -24);
		return sign ? -f : f;
	}
	if (ex == 31)
		return bits_to_float(sign | 0x7f800000u | (mant << 13));
	return bits_to_float(sign | ((ex - 15 + 127) << 23) | (mant << 13));
}

float bf16_to_float(uint16_t b)
{
	return bits_to_float((uint32_t)b << 16);
}

uint16_t float_to_half(float f)
{
	uint32_t x = float_to_bits(f);
	uint16_t sign = (uint16_t)((x >> 16) & 0x8000);
	uint32_t ax = x & 0x7fffffffu;
	if (ax >= 0x7f800000u) /* inf, or NaN kept quiet */
		return sign | 0x7c00 | (ax > 0x7f800000u ? 0x200 : 0);
	if (ax >= 0x477ff000u) /* ≥ 65520 rounds to inf */
		return sign | 0x7c00;
	if (ax < 0x38800000u) { /* below 2⁻¹⁴: subnormal half, f·2²⁴ is exact */
		float a = bits_to_float(ax);
		return sign | (uint16_t)lrintf(a * 16777216.0f);
	}
	uint32_t mant = ax & 0x7fffff;
	uint32_t h = ((((ax >> 23) - 127 + 15)) << 10) | (mant >> 13);
	uint32_t rem = mant & 0x1fff;
	if (rem > 0x1000 || (rem == 0x1000 && (h & 1)))
		h++; /* a carry into the exponent is the right answer */
	return sign | (uint16_t)h;
}

uint16_t float_to_bf16(float f)
{
	uint32_t x = float_to_bits(f);
	if ((x & 0x7fffffffu) > 0x7f800000u)
		return (uint16_t)((x >> 16) | 0x40);
	x += 0x7fffu + ((x >> 16) & 1);
	return (uint16_t)(x >> 16);
}
