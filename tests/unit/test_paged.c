/* test_paged.c: a paged KV cache and a ragged batch on the CPU
 * (kernels/paged.h): the lengths, the seeded block table, the validation
 * the runtime's entry point runs before any copy, and an emulation of
 * splitkv_fwd's paged addressing, split ranges and causal rule
 * (kernels/decode.cu) against the fp64 reference. */
#include "check.h"

#include "inputs.h"
#include "paged.h"
#include "reference.h"
#include "util/error.h"

static struct attn_shape paged_shape(int B, int Hkv, int nq, int nkv, int ps, int dist)
{
	struct attn_shape s = { .dtype = DTYPE_FP16, .phase = PHASE_DECODE, .batch = B, .heads = 4 * Hkv, .kv_heads = Hkv,
				.seqlen_q = nq, .seqlen_kv = nkv, .head_dim = 64, .causal = 1,
				.kv_layout = KV_PAGED, .page_size = ps, .kv_dist = dist, .kv_seed = 17 };
	return s;
}

static void test_lengths_add_up(void)
{
	for (int dist = 0; dist < KV_DIST_COUNT; dist++) {
		struct attn_shape s = paged_shape(33, 2, 4, 1000, 16, dist);
		int32_t lens[33];
		CHECK_INT(paged_kv_lens(&s, lens), 0);
		long long sum = 0;
		int lo = lens[0], hi = lens[0];
		for (int b = 0; b < 33; b++) {
			sum += lens[b];
			CHECK(lens[b] >= 4);
			lo = lens[b] < lo ? lens[b] : lo;
			hi = lens[b] > hi ? lens[b] : hi;
		}
		CHECK_INT(sum, 33 * 1000);
		CHECK_INT(paged_max_len(&s), hi);
		if (dist == KV_DIST_EQUAL)
			CHECK_INT(hi - lo, 0);
		else
			CHECK(hi - lo > 100); /* ragged: not one length */
	}
	struct attn_shape s = paged_shape(2, 1, 8, 7, 16, KV_DIST_UNIFORM); /* Nkv below the query length */
	int32_t lens[2];
	CHECK_INT(paged_kv_lens(&s, lens), -1);
	s = paged_shape(2, 1, 8, 7, 16, KV_DIST_EQUAL); /* paged, equal: still the cache's last tokens */
	CHECK_INT(paged_kv_lens(&s, lens), -1);
	/* the contiguous cache has no such rule: q 8 over KV 1 (a gpu-test config) gets its one length */
	s = paged_shape(2, 1, 8, 1, 0, KV_DIST_EQUAL);
	s.kv_layout = KV_CONTIGUOUS;
	CHECK_INT(paged_kv_lens(&s, lens), 0);
	CHECK_INT(lens[0], 1);
	CHECK_INT(lens[1], 1);
}

static void test_table_is_a_permutation(void)
{
	struct attn_shape s = paged_shape(5, 1, 1, 77, 16, KV_DIST_LONG_TAIL);
	int32_t lens[5], table[5 * 64];
	CHECK_INT(paged_kv_lens(&s, lens), 0);
	uint64_t want = 0;
	for (int b = 0; b < 5; b++)
		want += (uint64_t)(lens[b] + 15) / 16;
	CHECK_INT(paged_pages(&s), want);
	const int mp = paged_max_pages(&s);
	CHECK(mp >= 1 && mp <= 64);
	CHECK_INT(paged_block_table(&s, lens, table), 0);
	char why[256];
	CHECK_INT(paged_validate(&s, table, lens, want, why, sizeof why), 0);
	/* every page once, and not in key order everywhere (seeded permutation) */
	int seen[64] = { 0 }, in_order = 1;
	uint64_t next = 0;
	for (int b = 0; b < 5; b++)
		for (int j = 0; j < (lens[b] + 15) / 16; j++) {
			int pg = table[b * mp + j];
			CHECK(pg >= 0 && (uint64_t)pg < want);
			if (pg >= 0 && pg < 64)
				seen[pg]++;
			in_order &= (uint64_t)pg == next++;
		}
	for (uint64_t p = 0; p < want && p < 64; p++)
		CHECK_INT(seen[p], 1);
	CHECK(!in_order);
}

static void test_validate_refuses(void)
{
	struct attn_shape s = paged_shape(2, 1, 2, 40, 16, KV_DIST_EQUAL); /* 3 pages each, 6 in the pool */
	int32_t lens[2] = { 40, 40 }, table[6] = { 4, 0, 2, 5, 1, 3 };
	char why[256];
	CHECK_INT(paged_validate(&s, table, lens, 6, why, sizeof why), 0);
	table[4] = 2; /* repeated */
	CHECK_INT(paged_validate(&s, table, lens, 6, why, sizeof why), -1);
	CHECK(strstr(why, "repeats page 2") != NULL);
	table[4] = 6; /* outside the pool */
	CHECK_INT(paged_validate(&s, table, lens, 6, why, sizeof why), -1);
	CHECK(strstr(why, "outside the pool") != NULL);
	table[4] = -1; /* a used entry left empty */
	CHECK_INT(paged_validate(&s, table, lens, 6, why, sizeof why), -1);
	table[4] = 1;
	lens[1] = 49; /* beyond 3 columns of 16 */
	CHECK_INT(paged_validate(&s, table, lens, 6, why, sizeof why), -1);
	CHECK(strstr(why, "KV length 49") != NULL);
	lens[1] = 1; /* shorter than the 2 queries */
	CHECK_INT(paged_validate(&s, table, lens, 6, why, sizeof why), -1);
	lens[1] = 33; /* the last page partial: fine */
	CHECK_INT(paged_validate(&s, table, lens, 6, why, sizeof why), 0);
	s.page_size = 24;
	CHECK_INT(paged_validate(&s, table, lens, 6, why, sizeof why), -1);
	CHECK(strstr(why, "page size 24 is not built") != NULL);
	CHECK(!paged_page_size_built(8) && paged_page_size_built(16) && paged_page_size_built(64));
	CHECK_INT(paged_validate(&s, NULL, lens, 6, why, sizeof why), -1);
}

/* splitkv_fwd on the CPU: each split's keys [s·chunk, min(len, (s+1)·chunk))
 * gathered the kernel's way (page << shift | n & mask, then · Hkv·d + kvh·d),
 * online softmax per split, its logsumexp, then the combine's weights
 * e^{L_s - L}; against attn_reference_rows on the request's keys in order. */
static void test_emulated_kernel_matches_reference(void)
{
	const int shapes[][5] = { /* B, Hkv, q, Nkv (mean), page */
		{ 3, 2, 1, 1, 16 }, { 3, 2, 1, 17, 16 }, { 2, 1, 8, 63, 16 }, { 4, 2, 4, 300, 64 }, { 5, 1, 3, 650, 16 },
	};
	for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
		const int B = shapes[k][0], Hkv = shapes[k][1], nq = shapes[k][2], d = 64;
		struct attn_shape s = paged_shape(B, Hkv, nq, shapes[k][3], shapes[k][4], k % 2 ? KV_DIST_EQUAL : KV_DIST_LONG_TAIL);
		const int H = s.heads, G = H / Hkv, mp = paged_max_pages(&s), maxlen = paged_max_len(&s);
		int32_t *lens = malloc(sizeof(int32_t) * B), *table = malloc(sizeof(int32_t) * (size_t)B * mp);
		CHECK(lens && table && !paged_kv_lens(&s, lens) && !paged_block_table(&s, lens, table));
		struct tiling t;
		variant_find("decode-paged")->tiling(&s, 132, &t);
		const int chunk = splitkv_chunk(&s, &t), shift = __builtin_ctz((unsigned)s.page_size);
		CHECK(chunk % t.block_n == 0 && (long long)chunk * t.splits >= maxlen);
		float *q = malloc(sizeof(float) * nq * d), *kk = malloc(sizeof(float) * (size_t)maxlen * d),
		      *vv = malloc(sizeof(float) * (size_t)maxlen * d);
		double *ref = malloc(sizeof(double) * nq * d), *acc = malloc(sizeof(double) * d);
		double worst = 0;
		for (int b = 0; b < B; b++)
			for (int h = 0; h < H; h++) {
				const int hk = h / G;
				for (int i = 0; i < nq * d; i++)
					q[i] = attn_input_value(3, TENSOR_Q, ((uint64_t)b * H + h) * nq * d + i);
				for (int n = 0; n < lens[b]; n++)
					for (int j = 0; j < d; j++) {
						const uint64_t row = paged_kv_row(&s, table, mp, b, hk, n);
						kk[(size_t)n * d + j] = attn_input_value(3, TENSOR_K, row + j);
						vv[(size_t)n * d + j] = attn_input_value(3, TENSOR_V, row + j);
					}
				struct attn_shape one = s;
				one.batch = one.heads = one.kv_heads = 1;
				one.kv_layout = KV_CONTIGUOUS;
				one.kv_dist = KV_DIST_EQUAL;
				one.seqlen_kv = lens[b];
				int rows[8];
				for (int i = 0; i < nq; i++)
					rows[i] = i;
				CHECK_INT(attn_reference_rows(&one, q, kk, vv, 0, 0, rows, nq, ref, NULL), 0);
				for (int i = 0; i < nq; i++) {
					double Lmax = -INFINITY, Ls[256], Os[256][64];
					for (int sp = 0; sp < t.splits; sp++) {
						const int k0 = sp * chunk, k1 = k0 + chunk < lens[b] ? k0 + chunk : lens[b];
						double m = -INFINITY, l = 0, o[64] = { 0 };
						for (int c = k0; c < k1; c++) {
							if (c > lens[b] - nq + i) /* query token i sees keys 0 .. len - q + i */
								continue;
							const int32_t pg = table[b * mp + (c >> shift)];
							const size_t slot = ((size_t)pg << shift) + (size_t)(c & (s.page_size - 1));
							const uint64_t base = slot * (uint64_t)Hkv * d + (uint64_t)hk * d;
							double sc = 0;
							for (int j = 0; j < d; j++)
								sc += (double)q[i * d + j] * attn_input_value(3, TENSOR_K, base + j);
							sc *= 1.0 / sqrt((double)d);
							const double mn = sc > m ? sc : m, a = exp(m - mn), p = exp(sc - mn);
							l = l * a + p;
							for (int j = 0; j < d; j++)
								o[j] = o[j] * a + p * attn_input_value(3, TENSOR_V, base + j);
							m = mn;
						}
						Ls[sp] = l > 0 ? m + log(l) : -INFINITY;
						for (int j = 0; j < d; j++)
							Os[sp][j] = l > 0 ? o[j] / l : 0;
						Lmax = Ls[sp] > Lmax ? Ls[sp] : Lmax;
					}
					double wsum = 0;
					for (int j = 0; j < d; j++)
						acc[j] = 0;
					for (int sp = 0; sp < t.splits; sp++) {
						const double w = Ls[sp] == -INFINITY ? 0 : exp(Ls[sp] - Lmax);
						wsum += w;
						for (int j = 0; j < d; j++)
							acc[j] += w * Os[sp][j];
					}
					for (int j = 0; j < d; j++) {
						const double e = fabs(acc[j] / wsum - ref[i * d + j]);
						worst = e > worst ? e : worst;
					}
				}
			}
		if (worst > 1e-12)
			printf("    shape %zu: worst |emulated - reference| %.3g\n", k, worst);
		CHECK(worst <= 1e-12);
		free(lens); free(table); free(q); free(kk); free(vv); free(ref); free(acc);
	}
}

TESTS(test_lengths_add_up, test_table_is_a_permutation, test_validate_refuses, test_emulated_kernel_matches_reference)
