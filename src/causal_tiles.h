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
/* Counts over every pair (in O(rows log cols)); 0, or -1 when a size is not positive. */
int causal_tiles_count(int nq, int nkv, int br, int bc, struct causal_count *out);

/* Figures draw at most max × max cells: past that, one cell stands for a
 * square of step × step tile pairs.  The step for the counts cc. */
long causal_cell_step(const struct causal_count *cc, long max);
/* The fate of the pairs of rows i0..i1-1 and columns j0..j1-1 (a drawn
 * cell): FULL or SKIPPED when every pair in it is, else MASKED. */
enum tile_fate causal_block(int nq, int nkv, int br, int bc, long i0, long i1, long j0, long j1);

/* The most cells a side a causal figure draws: past it, pairs are grouped. */
#define CAUSAL_DRAW_MAX 128

#endif
