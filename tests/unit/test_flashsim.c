/* test_flashsim.c: the flash template's algorithm (all 8 switch settings)
 * against naive fp64 attention, and its tile-traffic counters against
 * counts worked by hand. */
#include "check.h"

#include "flashsim.h"
#include "reference.h"
#include "util/error.h"

/* Deterministic inputs with a wide score range, so the running max moves
 * and the rescaling is exercised (|q·k|·scale reaches ~10). */
static float *fill(size_t n, uint32_t seed, float amp)
{
	float *x = malloc(n * sizeof(*x));
	uint32_t st = seed * 2654435761u + 1;
	for (size_t i = 0; i < n; i++) {
		st = st * 1664525u + 1013904223u;
		x[i] = amp * ((float)(st >> 8) / 16777216.0f * 2.0f - 1.0f);
	}
	return x;
}

struct io {
	struct attn_shape s;
	float *q, *k, *v;
	size_t nq_el, stats_el;
};

static void io_make(struct io *io, struct attn_shape s, uint32_t seed)
{
	io->s = s;
	size_t d = (size_t)s.head_dim;
	io->nq_el = (size_t)s.batch * s.heads * s.seqlen_q * d;
	io->stats_el = (size_t)s.batch * s.heads * s.seqlen_q;
	size_t nkv_el = (size_t)s.batch * s.kv_heads * s.seqlen_kv * d;
	io->q = fill(io->nq_el, seed, 2.5f);
	io->k = fill(nkv_el, seed + 1, 2.5f);
	io->v = fill(nkv_el, seed + 2, 1.0f);
}

static void io_free(struct io *io) { free(io->q); free(io->k); free(io->v); }

#define POISON 12345.0

/* Run one setting and compare O and the statistics with the reference.
 * Returns the max abs error over O and the statistics. */
static double run_and_compare(const struct io *io, const struct flashsim_opts *o)
{
	const struct attn_shape *s = &io->s;
	const size_t d = (size_t)s->head_dim;
	double *out = malloc(io->nq_el * sizeof(double));
	double *m = malloc(io->stats_el * sizeof(double)), *l = malloc(io->stats_el * sizeof(double));
	double *lse = malloc(io->stats_el * sizeof(double));
	for (size_t i = 0; i < io->stats_el; i++)
		m[i] = l[i] = lse[i] = POISON;
	struct flashsim_counts c;
	CHECK_INT(flashsim_run(s, o, io->q, io->k, io->v, out, m, l, lse, &c), 0);

	double worst = 0;
	int *rows = malloc(sizeof(int) * (size_t)s->seqlen_q);
	double *ref = malloc(sizeof(double) * (size_t)s->seqlen_q * d);
	double *rl = malloc(sizeof(double) * (size_t)s->seqlen_q);
	for (int r = 0; r < s->seqlen_q; r++)
		rows[r] = r;
	const int lazy = !!(o->switches & FLASH_LAZY);
	for (int b = 0; b < s->batch; b++)
		for (int h = 0; h < s->heads; h++) {
			size_t base = ((size_t)b * s->heads + h) * s->seqlen_q;
			attn_reference_rows(s, io->q, io->k, io->v, b, h, rows, s->seqlen_q, ref, rl);
			for (size_t x = 0; x < (size_t)s->seqlen_q * d; x++) {
				double e = fabs(out[base * d + x] - ref[x]);
				if (!(e <= worst))
					worst = isnan(e) ? INFINITY : e;
			}
			for (int r = 0; r < s->seqlen_q; r++) {
				double want = rl[r], got;
				if (lazy) {
					got = lse[base + r];
					CHECK(m[base + r] == POISON && l[base + r] == POISON);
				} else {
					/* every-step stores m and ℓ: L = m + log ℓ */
					got = l[base + r] > 0 ? m[base + r] + log(l[base + r]) : -INFINITY;
					CHECK(lse[base + r] == POISON);
				}
				if (isinf(want)) {
					CHECK(isinf(got) && got < 0);
					continue;
				}
				double e = fabs(got - want);
				if (!(e <= worst))
					worst = isnan(e) ? INFINITY : e;
			}
		}
	free(rows); free(ref); free(rl);
	free(out); free(m); free(l); free(lse);
	return worst;
}

/* All 8 settings × causal × ragged N × d, small tiles so there are many. */
static void test_all_switches_match_reference(void)
{
	static const int ns[][2] = { { 77, 77 }, { 130, 130 }, { 1, 1 }, { 33, 100 }, { 100, 33 }, { 5, 64 } };
	static const int ds[] = { 8, 64 };
	int cases = 0;
	for (size_t ni = 0; ni < sizeof(ns) / sizeof(ns[0]); ni++)
		for (size_t di = 0; di < 2; di++)
			for (int causal = 0; causal < 2; causal++) {
				struct attn_shape s = { DTYPE_FP16, PHASE_PREFILL, 2, 4, 2,
							ns[ni][0], ns[ni][1], ds[di], causal };
				struct io io;
				io_make(&io, s, (uint32_t)(ni * 7 + di * 3 + (size_t)causal));
				for (unsigned sw = 0; sw <= FLASH_ALL; sw++) {
					struct flashsim_opts o = { .switches = sw, .block_m = 16,
								   .block_n = 12, .warps = 4 };
					double err = run_and_compare(&io, &o);
					if (!(err < 1e-12))
						printf("    sw=%u Nq=%d Nkv=%d d=%d causal=%d: error %g\n",
						       sw, s.seqlen_q, s.seqlen_kv, s.head_dim, causal, err);
					CHECK(err < 1e-12);
					cases++;
				}
				io_free(&io);
			}
	CHECK_INT(cases, 6 * 2 * 2 * 8);
}

/* The descriptor's own block sizes (Br 64/128, Bc 64/128) on a ragged N. */
static void test_default_tiling_matches_reference(void)
{
	struct attn_shape s = { DTYPE_BF16, PHASE_PREFILL, 1, 2, 2, 300, 300, 64, 0 };
	for (int causal = 0; causal < 2; causal++) {
		s.causal = causal;
		struct io io;
		io_make(&io, s, 99u + (uint32_t)causal);
		for (unsigned sw = 0; sw <= FLASH_ALL; sw++) {
			struct flashsim_opts o = { .switches = sw };
			CHECK(run_and_compare(&io, &o) < 1e-12);
		}
		io_free(&io);
	}
}

/* fp32 rounding where the kernel keeps fp32: still close, not exact. */
static void test_fp32_accumulation(void)
{
	struct attn_shape s = { DTYPE_FP16, PHASE_PREFILL, 1, 1, 1, 200, 200, 64, 1 };
	struct io io;
	io_make(&io, s, 5);
	for (unsigned sw = 0; sw <= FLASH_ALL; sw++) {
		struct flashsim_opts o = { .switches = sw, .block_m = 32, .block_n = 16, .warps = 4, .fp32 = 1 };
		double err = run_and_compare(&io, &o);
		CHECK(err < 1e-5);
		CHECK(err > 1e-12); /* the rounding really happens */
	}
	io_free(&io);
}

/* Visiting the tiles above the diagonal changes the work, not the answer. */
static void test_visit_masked_tiles(void)
{
	struct attn_shape s = { DTYPE_FP16, PHASE_PREFILL, 1, 1, 1, 100, 100, 8, 1 };
	struct io io;
	io_make(&io, s, 11);
	for (unsigned sw = 0; sw <= FLASH_ALL; sw++) {
		struct flashsim_opts o = { .switches = sw, .block_m = 32, .block_n = 16, .warps = 4,
					   .visit_masked = 1 };
		CHECK(run_and_compare(&io, &o) < 1e-12);
	}
	io_free(&io);
}

/*
 * Traffic by hand: B = H = 1, N = 100, d = 8, fp16 (2 bytes), Br = 32,
 * Bc = 16: Tr = 4 Q blocks (32, 32, 32, 4 rows), Tc = 7 K/V blocks
 * (6 × 16 + 4).  One full Q, K, V or O is 100·8·2 = 1600 bytes.
 */
static void test_counts_by_hand(void)
{
	struct attn_shape s = { DTYPE_FP16, PHASE_PREFILL, 1, 1, 1, 100, 100, 8, 0 };
	struct io io;
	io_make(&io, s, 3);
	double *o = malloc(io.nq_el * sizeof(double));
	struct flashsim_counts c;

	/* flash2, Q-outer: Q once (1600), K and V once per Q block (4 × 1600),
	 * O once (1600), L once (100 rows × 4 = 400); 4 blocks; 28 tile pairs */
	struct flashsim_opts f2 = { .switches = FLASH_ALL, .block_m = 32, .block_n = 16, .warps = 4 };
	CHECK_INT(flashsim_run(&s, &f2, io.q, io.k, io.v, o, NULL, NULL, NULL, &c), 0);
	CHECK_INT(c.read_bytes[FS_Q], 1600);
	CHECK_INT(c.read_bytes[FS_K], 6400);
	CHECK_INT(c.read_bytes[FS_V], 6400);
	CHECK_INT(c.write_bytes[FS_O], 1600);
	CHECK_INT(c.write_bytes[FS_LSE], 400);
	CHECK_INT(c.write_bytes[FS_M] + c.write_bytes[FS_L] + c.write_bytes[FS_OACC], 0);
	CHECK_INT(c.blocks, 4);
	CHECK_INT(c.tile_pairs, 28);
	CHECK_INT(c.score_elems, 10000);
	CHECK_INT(c.reduce_flops, 0);       /* split-Q: no reduction */
	/* FA2 rescale: d per row per step (100 rows × 7 steps × 8) + d per row at the end */
	CHECK_INT(c.rescale_flops, 5600 + 800);

	/* flash1, K/V-outer: K, V once (1600 each); Q once per K/V block
	 * (7 × 1600 = 11200); O_acc read and written 6 times (6 × 100·8·4 =
	 * 19200 each way); m and ℓ 6 round trips (2400 each way) plus the
	 * final m and ℓ (400 each); O once; 1 block */
	struct flashsim_opts f1 = { .switches = 0, .block_m = 32, .block_n = 16, .warps = 4 };
	CHECK_INT(flashsim_run(&s, &f1, io.q, io.k, io.v, o, NULL, NULL, NULL, &c), 0);
	CHECK_INT(c.read_bytes[FS_K], 1600);
	CHECK_INT(c.read_bytes[FS_V], 1600);
	CHECK_INT(c.read_bytes[FS_Q], 11200);
	CHECK_INT(c.read_bytes[FS_OACC], 19200);
	CHECK_INT(c.write_bytes[FS_OACC], 19200);
	CHECK_INT(c.read_bytes[FS_M], 2400);
	CHECK_INT(c.write_bytes[FS_M], 2800);
	CHECK_INT(c.write_bytes[FS_L], 2800);
	CHECK_INT(c.write_bytes[FS_O], 1600);
	CHECK_INT(c.write_bytes[FS_LSE], 0);
	CHECK_INT(c.blocks, 1);
	/* split-K, 4 warps: 3 partials of (d + 1) summed per row per step */
	CHECK_INT(c.reduce_flops, 100 * 7 * 3 * 9);
	/* FA1 rescale: 3·d per row per step */
	CHECK_INT(c.rescale_flops, 100 * 7 * 24);

	/* flash1+lazyrescale (K/V-outer, once): the same round trips, then L
	 * (400) and, as its kernel does, the final m and ℓ (400 each) */
	struct flashsim_opts f4 = { .switches = FLASH_LAZY, .block_m = 32, .block_n = 16, .warps = 4 };
	CHECK_INT(flashsim_run(&s, &f4, io.q, io.k, io.v, o, NULL, NULL, NULL, &c), 0);
	CHECK_INT(c.write_bytes[FS_LSE], 400);
	CHECK_INT(c.write_bytes[FS_M], 2800);
	CHECK_INT(c.write_bytes[FS_OACC], 19200);
	CHECK_INT(c.rescale_flops, 100 * 7 * 8 + 800);

	/* causal flash2: Q block i sees keys up to 32i+31 (the last, 99):
	 * 2, 4, 6, 7 K/V blocks = 32 + 64 + 96 + 100 key rows → K reads
	 * 292 · 8 · 2 = 4672; S entries 32·32 + 32·64 + 32·96 + 4·100 = 6544;
	 * pairs 19, of which 2 + 2 + 2 + 1 = 7 straddle the diagonal */
	s.causal = 1;
	CHECK_INT(flashsim_run(&s, &f2, io.q, io.k, io.v, o, NULL, NULL, NULL, &c), 0);
	CHECK_INT(c.read_bytes[FS_K], 4672);
	CHECK_INT(c.score_elems, 6544);
	CHECK_INT(c.tile_pairs, 19);
	CHECK_INT(c.masked_pairs, 7);
	CHECK_INT(flashsim_read_total(&c), 1600 + 2 * 4672);
	CHECK_INT(flashsim_write_total(&c), 1600 + 400);
	free(o);
	io_free(&io);
}

static void test_bad_options(void)
{
	struct attn_shape s = { DTYPE_FP16, PHASE_PREFILL, 1, 3, 2, 4, 4, 8, 0 };
	struct flashsim_opts o = { .switches = FLASH_ALL };
	int was = error_quiet(1);
	CHECK_INT(flashsim_run(&s, &o, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL), -1);
	CHECK_CONTAINS(error_last(), "does not divide");
	s.kv_heads = 3;
	o.switches = 8;
	CHECK_INT(flashsim_run(&s, &o, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL), -1);
	CHECK_CONTAINS(error_last(), "switch");
	error_quiet(was);
}

TESTS(test_all_switches_match_reference, test_default_tiling_matches_reference,
      test_fp32_accumulation, test_visit_masked_tiles, test_counts_by_hand, test_bad_options)
