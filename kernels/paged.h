/* paged.h: a paged KV cache and a ragged batch, as plain C (decode-paged).
 *
 * A decode shape (struct attn_shape) with kv_layout paged keeps K and V in
 * a pool of pages [pages, page_size, Hkv, d]; request b's key n lives in
 * page table[b · max_pages + n / page_size], row n % page_size.  Its KV
 * length is lens[b]: Nkv for every request (kv_dist equal), or drawn from
 * kv_seed so that the lengths add up to B·Nkv (uniform, long-tail).  The
 * pool holds exactly Σ_b ⌈lens[b] / page_size⌉ pages, placed in a seeded
 * random permutation, so nothing relies on a request's pages being
 * adjacent.  The runtime, the harness's fp64 reference and the model all
 * take their lengths, pages and element offsets from here.
 */
#ifndef ATTNPROF_PAGED_H
#define ATTNPROF_PAGED_H

#include <stddef.h>
#include <stdint.h>

#include "variants.h"

#ifdef __cplusplus
extern "C" {
#endif

/* 1 if decode-paged is built for page size ps (kernels/tiles.h PAGED_PAGE_SIZES). */
int paged_page_size_built(int ps);
/* The built page sizes in words ("16, 32, 64 and 128"); returns buf. */
const char *paged_page_sizes_text(char *buf, size_t len);
/* Per-request KV lengths of the shape into lens[batch]; each at least
 * max(1, Nq), adding up to B·Nkv.  0, or -1 (a shape of B < 1 or Nkv < Nq). */
int paged_kv_lens(const struct attn_shape *s, int32_t *lens);
/* The longest request's length (Nkv when kv_dist is equal). */
int paged_max_len(const struct attn_shape *s);
/* Pages of the pool: Σ ⌈lens[b] / page_size⌉ (0 when not paged). */
uint64_t paged_pages(const struct attn_shape *s);
/* Block-table columns: ⌈max_len / page_size⌉ (0 when not paged). */
int paged_max_pages(const struct attn_shape *s);
/* The seeded table [B, max_pages] for the lengths: request b's
 * ⌈lens[b] / page_size⌉ pages, a random permutation of the pool, then -1. */
int paged_block_table(const struct attn_shape *s, const int32_t *lens, int32_t *table);
/* Check a table and lengths against the shape, before any launch: the page
 * size is built, each length is ≥ max(1, Nq) (the queries are the last
 * tokens) and fits the table, each used entry names a page of the pool
 * and no page is used twice.  0, or -1 with the first fault in why. */
int paged_validate(const struct attn_shape *s, const int32_t *table, const int32_t *lens, uint64_t pages,
		   char *why, size_t len);
/* Element offset of the first element of request b's key n of KV head hk
 * in K (and V): paged through the table, or [B, Hkv, Nkv, d]. */
uint64_t paged_kv_row(const struct attn_shape *s, const int32_t *table, int max_pages, int b, int hk, int n);

#ifdef __cplusplus
}
#endif
#endif
