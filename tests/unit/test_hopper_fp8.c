/* test_hopper_fp8.c: the FP8 forward's register layout facts
 * (kernels/hopper/hopper_tiles.h), which no CPU can run the kernel to
 * check: P packed from the f32 accumulators of S into wgmma's 8-bit A
 * fragment must meet, at every A column, the key the transposed V stores
 * there; the transposed V's padding and the incoherent processing's sign
 * vector and norm. */
#include <math.h>

#include "check.h"

#include "hopper/hopper_tiles.h"

/* The f32 accumulator of wgmma m64nN (PTX ISA): accumulator 4i + 2h + e of
 * lane 4g + c is row g + 8h, column 8i + 2c + e. */
static int acc_row_half(int acc) { return (acc % 4) / 2; }
static int acc_col(int acc, int c) { return 8 * (acc / 4) + 2 * c + acc % 2; }
/* The 8-bit A fragment of wgmma m64nNk32 (PTX ISA; CUTLASS ALayout_64x32):
 * register r, byte j of lane 4g + c is row g + 8 (r & 1), column
 * 4c + j + 16 (r >> 1). */
static int a_row_half(int r) { return r & 1; }
static int a_col(int r, int j, int c) { return 4 * c + j + 16 * (r >> 1); }

static void test_packed_p_meets_the_permuted_v(void)
{
	for (int c = 0; c < 4; c++)
		for (int r = 0; r < 4; r++)
			for (int j = 0; j < 4; j++) {
				const int acc = HOPPER_FP8_PACK_ACC(r, j);
				CHECK(acc >= 0 && acc < 16);
				CHECK_INT(acc_row_half(acc), a_row_half(r));
				/* column a of A holds this accumulator: V's column a must be its key */
				CHECK_INT(HOPPER_FP8_VT_PERM(a_col(r, j, c)), acc_col(acc, c));
			}
}

static void test_each_accumulator_packed_once_each_key_stored_once(void)
{
	int packed[16] = { 0 }, stored[32] = { 0 };
	for (int r = 0; r < 4; r++)
		for (int j = 0; j < 4; j++)
			packed[HOPPER_FP8_PACK_ACC(r, j)]++;
	for (int i = 0; i < 16; i++)
		CHECK_INT(packed[i], 1);
	for (int a = 0; a < 32; a++)
		stored[HOPPER_FP8_VT_PERM(a)]++;
	for (int k = 0; k < 32; k++)
		CHECK_INT(stored[k], 1);
}

/* the padded key count: whole 128-key blocks (no TMA box leaves the tensor) */
static void test_transposed_v_rows_are_whole_blocks(void)
{
	CHECK_INT(HOPPER_FP8_VT_LEN(1), HOPPER_FP8_BLOCK_N);
	CHECK_INT(HOPPER_FP8_VT_LEN(128), 128);
	CHECK_INT(HOPPER_FP8_VT_LEN(129), 256);
	CHECK_INT(HOPPER_FP8_VT_LEN(1333), 1408);
	static const int dims[] = HOPPER_FP8_HEAD_DIMS;
	for (size_t i = 0; i < sizeof(dims) / sizeof(dims[0]); i++)
		CHECK(HOPPER_FP8_SMEM(dims[i]) <= 227 * 1024); /* one CTA's opt-in shared memory on sm_90 */
}

/* the rotation diag(s)·H/sqrt(d): the norm is 1/sqrt(d) in float, s about half -1 */
static void test_incoherent_norm_and_signs(void)
{
	static const int dims[] = HOPPER_FP8_HEAD_DIMS;
	for (size_t i = 0; i < sizeof(dims) / sizeof(dims[0]); i++) {
		const int d = dims[i];
		CHECK(HOPPER_FP8_HADAMARD_NORM(d) == (float)(1.0 / sqrt((double)d)));
		for (unsigned seed = 0; seed < 8; seed++) {
			int neg = 0;
			for (int x = 0; x < d; x++) {
				CHECK(HOPPER_FP8_SIGN(seed * 7919u, x) <= 1u);
				neg += (int)HOPPER_FP8_SIGN(seed * 7919u, x);
			}
			CHECK(neg > d / 4 && neg < 3 * d / 4);
		}
	}
}

TESTS(test_packed_p_meets_the_permuted_v, test_each_accumulator_packed_once_each_key_stored_once,
      test_transposed_v_rows_are_whole_blocks, test_incoherent_norm_and_signs)
