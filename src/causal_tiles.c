/* causal_tiles.c: the causal tile rule of causal_tiles.h. */
#include "causal_tiles.h"

enum tile_fate causal_tile(int nq, int nkv, int br, int bc, int i, int j)
{
	long off = (long)nkv - nq;                    /* bottom-right alignment */
	long r0 = (long)i * br, r1 = r0 + br - 1;     /* the block's queries */
	long c0 = (long)j * bc, c1 = c0 + bc - 1;     /* the block's keys */
	if (r1 > nq - 1) r1 = nq - 1;
	if (c1 > nkv - 1) c1 = nkv - 1;
	/* query r sees keys 0 .. r + off */
	if (c0 > r1 + off)
		return TILE_SKIPPED;
	if (c1 <= r0 + off)
		return TILE_FULL;
	return TILE_MASKED;
}

/* The first column in [lo, hi) of row i whose pair is not full, or with
 * want_skipped the first skipped one: along a row the pairs are full, then
 * masked, then skipped, so a binary search finds either. */
static long first_col(int nq, int nkv, int br, int bc, long i, long lo, long hi, int want_skipped)
{
	while (lo < hi) {
		long mid = lo + (hi - lo) / 2;
		enum tile_fate f = causal_tile(nq, nkv, br, bc, (int)i, (int)mid);
		int past = want_skipped ? f == TILE_SKIPPED : f != TILE_FULL;
		if (past)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

int causal_tiles_count(int nq, int nkv, int br, int bc, struct causal_count *out)
{
	*out = (struct causal_count){ 0 };
	if (nq <= 0 || nkv <= 0 || br <= 0 || bc <= 0)
		return -1;
	out->rows = (nq + br - 1) / br;
	out->cols = (nkv + bc - 1) / bc;
	/* along a row the pairs are full, then masked, then skipped: two binary
	 * searches a row, not a visit of every pair (4M x 4M is 2^31 pairs) */
	for (long i = 0; i < out->rows; i++) {
		long full = first_col(nq, nkv, br, bc, i, 0, out->cols, 0);
		long skip = first_col(nq, nkv, br, bc, i, full, out->cols, 1);
		out->full += full;
		out->masked += skip - full;
		out->skipped += out->cols - skip;
	}
	return 0;
}

long causal_cell_step(const struct causal_count *cc, long max)
{
	long n = cc->rows > cc->cols ? cc->rows : cc->cols;
	return n <= max ? 1 : (n + max - 1) / max;
}

enum tile_fate causal_block(int nq, int nkv, int br, int bc, long i0, long i1, long j0, long j1)
{
	/* full is a prefix of each row, shortest in the first row; skipped a
	 * suffix, shortest in the last row */
	if (causal_tile(nq, nkv, br, bc, (int)i0, (int)(j1 - 1)) == TILE_FULL)
		return TILE_FULL;
	if (causal_tile(nq, nkv, br, bc, (int)(i1 - 1), (int)j0) == TILE_SKIPPED)
		return TILE_SKIPPED;
	return TILE_MASKED;
}
