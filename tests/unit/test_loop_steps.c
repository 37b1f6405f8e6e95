/* test_loop_steps.c: the per-step reads and writes the loop-steps figure
 * draws, against the model's SM ↔ L2 traffic (an independent closed form)
 * for all eight switch settings, and flash1's and flash2's steps by hand. */
#include "check.h"

#include "loop_steps.h"
#include "model.h"

static struct attn_shape shape(int n, int d)
{
	struct attn_shape s = { DTYPE_FP16, PHASE_PREFILL, 4, 16, 16, n, n, d, 0 };
	return s;
}

static size_t buf_index(const struct variant_desc *v, const char *name)
{
	for (size_t b = 0; b < v->nbuffers; b++)
		if (!strcmp(v->buffers[b].name, name))
			return b;
	return (size_t)-1;
}

/* The plan of a variant at N = 4096, d = 128 with its own tiling. */
static const struct variant_desc *plan_at_4096(const char *name, struct loop_plan *p)
{
	const struct variant_desc *v = variant_find(name);
	struct attn_shape s = shape(4096, 128);
	struct tiling t;
	v->tiling(&s, 132, &t);
	CHECK_INT(loop_plan_init(p, v, &s, &t), 0);
	return v;
}

/* Every step of every block, summed, is the model's L2 traffic, and the
 * blocks' steps together are its tile pairs. */
static void against_model(unsigned sw, int n, int d)
{
	const struct variant_desc *v = variant_flash(sw);
	struct attn_shape s = shape(n, d);
	struct gpu_model g;
	gpu_model_h200(&g);
	struct model m;
	CHECK_INT(model_predict(v, &s, &g, &m), 0);
	struct loop_plan p;
	CHECK_INT(loop_plan_init(&p, v, &s, &m.tiling), 0);
	CHECK_NEAR(p.total_bytes, m.l2_read_bytes + m.l2_write_bytes, 1e-12);
	CHECK_NEAR(p.blocks * (double)p.steps, m.tile_pairs, 0);
}

static void test_matches_model(void)
{
	for (unsigned sw = 0; sw < 8; sw++) {
		against_model(sw, 4096, 128);
		against_model(sw, 1000, 64);   /* ragged last blocks */
	}
}

/*
 * flash1 at N = 4096, d = 128 (Br = 32, Bc = 64, Tr = 128, Tc = 64): step 0
 * reads K₀, V₀ (16 KiB each) and Q₀ (8 KiB) and writes O_acc₀ (16 KiB, fp32)
 * with m₀, ℓ₀ (128 B each); step 1 reads only Q₁; step Tr (j = 1, i = 0)
 * reads K₁, V₁, Q₀ and O_acc₀, m₀, ℓ₀ back; the last step writes O (8 KiB)
 * instead of O_acc.
 */
static void test_flash1_steps(void)
{
	struct loop_plan p;
	const struct variant_desc *v = plan_at_4096("flash1", &p);
	CHECK_INT(p.kv_outer, 1);
	CHECK_INT(p.tr, 128);
	CHECK_INT(p.tc, 64);
	CHECK_INT(p.steps, 128 * 64);
	size_t Q = buf_index(v, "Q"), K = buf_index(v, "K"), O = buf_index(v, "O"), A = buf_index(v, "O_acc"),
	       M = buf_index(v, "m");
	struct loop_step st;
	loop_plan_step(&p, 0, &st);
	CHECK_INT(st.io[K], STEP_READ);
	CHECK_INT(st.io[A], STEP_WRITE);
	CHECK_INT(st.io[M], STEP_WRITE);
	CHECK_INT(st.io[O], STEP_NONE);
	CHECK_NEAR(st.read_bytes, 16384 * 2 + 8192, 0);
	CHECK_NEAR(st.write_bytes, 16384 + 2 * 128, 0);
	loop_plan_step(&p, 1, &st);
	CHECK_INT(st.i, 1);
	CHECK_INT(st.j, 0);
	CHECK_INT(st.io[K], STEP_NONE);
	CHECK_NEAR(st.read_bytes, 8192, 0);
	loop_plan_step(&p, 128, &st);
	CHECK_INT(st.i, 0);
	CHECK_INT(st.j, 1);
	CHECK_INT(st.io[A], STEP_READ | STEP_WRITE);
	CHECK_INT(st.io[M], STEP_READ | STEP_WRITE);
	CHECK_NEAR(st.read_bytes, 16384 * 2 + 8192 + 16384 + 2 * 128, 0);
	loop_plan_step(&p, p.steps - 1, &st);
	CHECK_INT(st.io[A], STEP_READ);
	CHECK_INT(st.io[O], STEP_WRITE);
	CHECK_INT(st.io[Q], STEP_READ);
	CHECK_NEAR(st.write_bytes, 8192 + 2 * 128, 0);
}

/* flash2 (Br = 128, Bc = 64): Q_i read once, K_j and V_j every step, O and L once at the end. */
static void test_flash2_steps(void)
{
	struct loop_plan p;
	const struct variant_desc *v = plan_at_4096("flash2", &p);
	CHECK_INT(p.kv_outer, 0);
	CHECK_INT(p.steps, 64);
	CHECK_NEAR(p.blocks, 32 * 64, 0);
	struct loop_step st;
	loop_plan_step(&p, 0, &st);
	CHECK_NEAR(st.read_bytes, 32768 + 2 * 16384, 0);
	CHECK_NEAR(st.write_bytes, 0, 0);
	loop_plan_step(&p, 1, &st);
	CHECK_NEAR(st.read_bytes, 2 * 16384, 0);
	CHECK_INT(st.io[buf_index(v, "Q")], STEP_NONE);
	loop_plan_step(&p, 63, &st);
	CHECK_NEAR(st.write_bytes, 32768 + 128 * 4, 0);
	CHECK_INT(st.io[buf_index(v, "L")], STEP_WRITE);
	/* no loop: standard; and a causal shape is refused */
	struct attn_shape s = p.s;
	struct tiling t = p.t;
	CHECK_INT(loop_plan_init(&p, variant_find("standard"), &s, &t), -1);
	s.causal = 1;
	CHECK_INT(loop_plan_init(&p, v, &s, &t), -1);
}

TESTS(test_matches_model, test_flash1_steps, test_flash2_steps)
