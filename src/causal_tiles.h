/* causal_tiles.h: which tile pairs a causal flash kernel computes.
 *
 * With a causal mask (bottom-right aligned, as reference.h) the tile pair
 * (i, j) of Q block i (Br rows) and K/V block j (Bc keys) is skipped when
 * every key of block j lies after every query of block i; it is computed
 * in full when every key lies at or before every query; the pairs between
 * straddle the diagonal and apply the element mask.  The rule is the one
 * flashsim.c plays (a test holds the two together).
 */
#ifndef ATTNPROF_CAUSAL_TILES_H
#define ATTNPROF_CAUSAL_TILES_H

enum tile_fate { TILE_FULL, TILE_MASKED, TILE_SKIPPED };

/* The fate of pair (i, j) for nq queries, nkv keys, tiles br × bc. */
enum tile_fate causal_tile(int nq, int nkv, int br, int bc, int i, int j);

struct causal_count {
	long rows, cols;          /* Q blocks, K/V blocks */
	long full, masked, skipped;
};
/* Counts over every pair; 0, or -1 when a size is not positive. */
int causal_tiles_count(int nq, int nkv, int br, int bc, struct causal_count *out);

#endif
