/* test_grad_check.c: the backward check's sample (rows, groups, the cost
 * rule for dK and dV) and its values against attn_reference_grad. */
#include "check.h"

#include "grad_check.h"
#include "inputs.h"
#include "reference.h"
#include "util/error.h"

/* GQA, ragged, causal with Nq < Nkv: every value is the reference's on the
 * group's inputs, the row offsets point at those rows. */
static void test_values_and_offsets(void)
{
	struct attn_shape s = { DTYPE_BF16, PHASE_PREFILL, 2, 4, 2, 37, 50, 8, 1, PASS_BWD };
	struct grad_ref g;
	grad_ref_init(&g);
	CHECK_INT(grad_ref_build(&g, &s, 99, 0), 0);
	CHECK_INT(g.ngroups, 2);
	CHECK_INT(g.G, 2);
	CHECK_INT(g.nq, 37); /* check_rows 0: all */
	CHECK_INT(g.nk, 50);
	uint64_t first[200];
	CHECK_INT(grad_ref_rows(&g, &s, GRAD_DQ, NULL), 2 * 2 * 37);
	CHECK_INT(grad_ref_rows(&g, &s, GRAD_DK, first), 2 * 50);
	/* the last group is (b = 1, KV head 1): its key 49 is the last row of K */
	CHECK_INT(first[2 * 50 - 1], (uint64_t)2 * 2 * 50 * 8 - 8);
	grad_ref_rows(&g, &s, GRAD_DQ, first);
	/* group 1, head 1 of it = query head 3 of batch 1, row 36: the last row of Q */
	CHECK_INT(first[2 * 2 * 37 - 1], (uint64_t)2 * 4 * 37 * 8 - 8);
	/* values of group 1 recomputed directly */
	float q[2 * 37 * 8], dout[2 * 37 * 8], k[50 * 8], v[50 * 8];
	const uint64_t qoff = (1ull * 4 + 2) * 37 * 8, kvoff = (1ull * 2 + 1) * 50 * 8;
	for (int i = 0; i < 2 * 37 * 8; i++) {
		q[i] = grad_input(&s, 99, TENSOR_Q, qoff + (uint64_t)i);
		dout[i] = grad_input(&s, 99, TENSOR_DO, qoff + (uint64_t)i);
	}
	for (int i = 0; i < 50 * 8; i++) {
		k[i] = grad_input(&s, 99, TENSOR_K, kvoff + (uint64_t)i);
		v[i] = grad_input(&s, 99, TENSOR_V, kvoff + (uint64_t)i);
	}
	double dq[2 * 37 * 8], dk[50 * 8], dv[50 * 8];
	CHECK_INT(attn_reference_grad(&s, q, k, v, dout, g.qrows, g.nq, dq, g.krows, g.nk, dk, dv), 0);
	CHECK(dq[5] == g.val[GRAD_DQ][2 * 37 * 8 + 5]);
	CHECK(dk[49 * 8 + 3] == g.val[GRAD_DK][50 * 8 + 49 * 8 + 3]);
	CHECK(dv[7] == g.val[GRAD_DV][50 * 8 + 7]);
	/* dO differs from V: its own tensor of the input function */
	CHECK(grad_input(&s, 99, TENSOR_DO, 3) != grad_input(&s, 99, TENSOR_V, 3));
	struct grad_ref c;
	CHECK_INT(grad_ref_copy(&c, &g), 0);
	CHECK(c.val[GRAD_DV] != g.val[GRAD_DV] && c.val[GRAD_DV][20] == g.val[GRAD_DV][20]);
	CHECK(c.krows[49] == 49);
	grad_ref_release(&c);
	grad_ref_release(&g);
}

/* Over the budget: causal checks the last 64 keys, non-causal no keys;
 * check_rows spreads over the G heads of both groups. */
static void test_cost_rule(void)
{
	struct attn_shape s = { DTYPE_FP16, PHASE_PREFILL, 1, 2, 2, 8192, 8192, 64, 1, PASS_BWD };
	CHECK((double)8192 * 8192 * 64 > (double)GRAD_CHECK_BUDGET);
	struct grad_ref g;
	grad_ref_init(&g);
	CHECK_INT(grad_ref_build(&g, &s, 5, 8), 0);
	CHECK_INT(g.ngroups, 2);
	CHECK_INT(g.nq, 4);
	CHECK_INT(g.nk, 64);
	CHECK_INT(g.krows[0], 8192 - 64);
	CHECK_INT(g.qrows[0], 0);
	CHECK_INT(g.qrows[3], 8191);
	grad_ref_release(&g);
	s.causal = 0;
	CHECK_INT(grad_ref_build(&g, &s, 5, 8), 0);
	CHECK_INT(g.nk, 0);
	CHECK_INT(grad_ref_rows(&g, &s, GRAD_DK, NULL), 0);
	grad_ref_release(&g);
	/* under the budget: sampled across all keys */
	struct attn_shape m = { DTYPE_FP16, PHASE_PREFILL, 1, 1, 1, 1000, 1000, 64, 0, PASS_BWD };
	CHECK_INT(grad_ref_build(&g, &m, 5, 32), 0);
	CHECK_INT(g.ngroups, 1);
	CHECK_INT(g.nk, 32);
	CHECK_INT(g.krows[0], 0);
	CHECK_INT(g.krows[31], 999);
	grad_ref_release(&g);
	CHECK_STR(grad_tensor_name(GRAD_DK), "dK");
}

TESTS(test_values_and_offsets, test_cost_rule)
