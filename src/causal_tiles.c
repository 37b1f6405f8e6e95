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

int causal_tiles_count(int nq, int nkv, int br, int bc, struct causal_count *out)
{
	*out = (struct causal_count){ 0 };
	if (nq <= 0 || nkv <= 0 || br <= 0 || bc <= 0)
		return -1;
	out->rows = (nq + br - 1) / br;
	out->cols = (nkv + bc - 1) / bc;
	for (long i = 0; i < out->rows; i++)
		for (long j = 0; j < out->cols; j++)
			switch (causal_tile(nq, nkv, br, bc, (int)i, (int)j)) {
			case TILE_FULL: out->full++; break;
			case TILE_MASKED: out->masked++; break;
			default: out->skipped++; break;
			}
	return 0;
}
