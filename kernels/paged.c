/* paged.c: a paged KV cache and a ragged batch (paged.h). */
#include "paged.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inputs.h"
#include "tiles.h"

const char *const kv_layout_names[KV_LAYOUT_COUNT] = { "contiguous", "paged" };
const char *const kv_dist_names[KV_DIST_COUNT] = { "equal", "uniform", "long-tail" };

static const int built[PAGED_N_PAGE_SIZES] = PAGED_PAGE_SIZES;

int paged_page_size_built(int ps)
{
	for (int i = 0; i < PAGED_N_PAGE_SIZES; i++)
		if (built[i] == ps)
			return 1;
	return 0;
}

const char *paged_page_sizes_text(char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = 0;
	for (int i = 0; i < PAGED_N_PAGE_SIZES && used < len; i++) {
		const char *sep = i == 0 ? "" : i == PAGED_N_PAGE_SIZES - 1 ? " and " : ", ";
		int w = snprintf(buf + used, len - used, "%s%d", sep, built[i]);
		used += w > 0 ? (size_t)w : 0;
	}
	return buf;
}

/* uniform in [0, 1): request b's draw */
static double draw(unsigned seed, int b)
{
	return (double)(attn_input_mix(((uint64_t)seed << 32) ^ (uint64_t)b ^ 0x6b76u) >> 11) * 0x1.0p-53;
}

int paged_kv_lens(const struct attn_shape *s, int32_t *lens)
{
	/* a paged or ragged cache holds the queries as its last tokens (kv >= q);
	 * the contiguous equal cache has no such rule (q 3 or 8 over KV 1 is a
	 * gpu-test config: it ran before paged caches, and failed to build its
	 * reference on 2026-12-07 when this bound applied to it too) */
	const int bounded = s->kv_layout == KV_PAGED || s->kv_dist != KV_DIST_EQUAL;
	const int B = s->batch, lo = bounded && s->seqlen_q > 1 ? s->seqlen_q : 1;
	if (B < 1 || s->seqlen_kv < lo)
		return -1;
	if (s->kv_dist == KV_DIST_EQUAL) {
		for (int b = 0; b < B; b++)
			lens[b] = s->seqlen_kv;
		return 0;
	}
	/* weights: uniform in [0.25, 1.75), or long-tail 1 / (1 - 0.95 u) in
	 * [1, 20) (most requests short, a few twenty times longer); the spare
	 * tokens above the minimum shared in their proportion, the rounding's
	 * remainder one token each to the first requests */
	double *w = malloc(sizeof(double) * (size_t)B), wsum = 0;
	if (!w)
		return -1;
	for (int b = 0; b < B; b++) {
		const double u = draw(s->kv_seed, b);
		w[b] = s->kv_dist == KV_DIST_UNIFORM ? 0.25 + 1.5 * u : 1.0 / (1.0 - 0.95 * u);
		wsum += w[b];
	}
	const long long total = (long long)B * s->seqlen_kv, spare = total - (long long)B * lo;
	long long sum = 0;
	for (int b = 0; b < B; b++) {
		lens[b] = lo + (int32_t)((double)spare * w[b] / wsum);
		sum += lens[b];
	}
	for (int b = 0; sum < total; b = (b + 1) % B, sum++)
		lens[b]++;
	free(w);
	return 0;
}

int paged_max_len(const struct attn_shape *s)
{
	if (s->kv_dist == KV_DIST_EQUAL || s->batch < 1)
		return s->seqlen_kv;
	int32_t *lens = malloc(sizeof(int32_t) * (size_t)s->batch);
	int m = s->seqlen_kv;
	if (lens && !paged_kv_lens(s, lens))
		for (int b = 0; b < s->batch; b++)
			m = lens[b] > m ? lens[b] : m;
	free(lens);
	return m;
}

uint64_t paged_pages(const struct attn_shape *s)
{
	if (s->kv_layout != KV_PAGED || s->page_size < 1 || s->batch < 1)
		return 0;
	int32_t *lens = malloc(sizeof(int32_t) * (size_t)s->batch);
	uint64_t n = 0;
	if (lens && !paged_kv_lens(s, lens))
		for (int b = 0; b < s->batch; b++)
			n += (uint64_t)(lens[b] + s->page_size - 1) / (uint64_t)s->page_size;
	free(lens);
	return n;
}

int paged_max_pages(const struct attn_shape *s)
{
	if (s->kv_layout != KV_PAGED || s->page_size < 1)
		return 0;
	return (paged_max_len(s) + s->page_size - 1) / s->page_size;
}

int paged_block_table(const struct attn_shape *s, const int32_t *lens, int32_t *table)
{
	const int mp = paged_max_pages(s), ps = s->page_size;
	const uint64_t np = paged_pages(s);
	if (mp < 1 || np < 1)
		return -1;
	int32_t *perm = malloc(sizeof(int32_t) * np);
	if (!perm)
		return -1;
	for (uint64_t i = 0; i < np; i++)
		perm[i] = (int32_t)i;
	for (uint64_t i = np - 1; i > 0; i--) { /* Fisher-Yates, seeded */
		uint64_t j = attn_input_mix(((uint64_t)s->kv_seed << 40) ^ i ^ 0x7062u) % (i + 1);
		int32_t x = perm[i];
		perm[i] = perm[j];
		perm[j] = x;
	}
	uint64_t next = 0;
	for (int b = 0; b < s->batch; b++) {
		const int used = (lens[b] + ps - 1) / ps;
		for (int j = 0; j < mp; j++)
			table[(size_t)b * mp + j] = j < used ? perm[next++] : -1;
	}
	free(perm);
	return 0;
}

int paged_validate(const struct attn_shape *s, const int32_t *table, const int32_t *lens, uint64_t pages,
		   char *why, size_t len)
{
	const int ps = s->page_size, mp = paged_max_pages(s), lo = s->seqlen_q > 1 ? s->seqlen_q : 1;
	char sizes[64];
	if (!paged_page_size_built(ps)) {
		snprintf(why, len, "page size %d is not built: decode-paged takes %s", ps,
			 paged_page_sizes_text(sizes, sizeof sizes));
		return -1;
	}
	if (!table || !lens || mp < 1) {
		snprintf(why, len, "a paged run needs a block table and the requests' KV lengths");
		return -1;
	}
	unsigned char *seen = calloc(pages ? pages : 1, 1);
	if (!seen) {
		snprintf(why, len, "out of memory for %llu pages", (unsigned long long)pages);
		return -1;
	}
	int rc = 0;
	for (int b = 0; b < s->batch && !rc; b++) {
		if (lens[b] < lo || (long long)lens[b] > (long long)mp * ps) {
			snprintf(why, len, "request %d: KV length %d is outside %d .. %d (the query length, %d table columns of %d tokens)",
				 b, lens[b], lo, mp * ps, mp, ps);
			rc = -1;
			break;
		}
		const int used = (lens[b] + ps - 1) / ps;
		for (int j = 0; j < used; j++) {
			const int32_t pg = table[(size_t)b * mp + j];
			if (pg < 0 || (uint64_t)pg >= pages) {
				snprintf(why, len, "request %d: block table entry %d is page %d, outside the pool of %llu pages",
					 b, j, pg, (unsigned long long)pages);
				rc = -1;
				break;
			}
			if (seen[pg]) {
				snprintf(why, len, "request %d: block table entry %d repeats page %d", b, j, pg);
				rc = -1;
				break;
			}
			seen[pg] = 1;
		}
	}
	free(seen);
	return rc;
}

uint64_t paged_kv_row(const struct attn_shape *s, const int32_t *table, int max_pages, int b, int hk, int n)
{
	const uint64_t d = (uint64_t)s->head_dim, hkv = (uint64_t)s->kv_heads;
	if (s->kv_layout != KV_PAGED)
		return (((uint64_t)b * hkv + (uint64_t)hk) * (uint64_t)s->seqlen_kv + (uint64_t)n) * d;
	const uint64_t page = (uint64_t)table[(size_t)b * max_pages + n / s->page_size];
	return ((page * (uint64_t)s->page_size + (uint64_t)(n % s->page_size)) * hkv + (uint64_t)hk) * d;
}
