/* test_model.c: the analytic model at hand-computed points, its scaling
 * laws, and its agreement with the tile traffic flashsim.c counts. */
#include "check.h"

#include "flashsim.h"
#include "model.h"
#include "paged.h"
#include "tiles.h"
#include "hopper/hopper_tiles.h"
#include "hopper/hopper_bwd.h"
#include "util/error.h"

#define MiB (1024.0 * 1024.0)

static struct attn_shape fa2_point(int causal)
{
	/* the GPU notes' ncu point: B = 4, H = 16, N = 4096, d = 128, fp16 */
	struct attn_shape s = { DTYPE_FP16, PHASE_PREFILL, 4, 16, 16, 4096, 4096, 128, causal };
	return s;
}

static void predict(const char *name, const struct attn_shape *s, struct model *m)
{
	struct gpu_model g;
	gpu_model_h200(&g);
	CHECK_INT(model_predict(variant_find(name), s, &g, m), 0);
}

/*
 * standard at the ncu point: Q = 4·16·4096·128·2 B = 64 MiB; S = P =
 * 4·16·4096²·2 B = 2 GiB.  Reads Q K V S P = 192 MiB + 4 GiB = 4288 MiB;
 * writes S P O = 4160 MiB.  FLOPs 4·B·H·N²·d = 2⁸·2²⁴·2⁷ = 2³⁹.
 */
static void test_standard_by_hand(void)
{
	struct attn_shape s = fa2_point(0);
	struct model m;
	predict("standard", &s, &m);
	CHECK_NEAR(m.flops, 549755813888.0, 0);          /* 2³⁹ */
	CHECK_NEAR(m.flops_matmul, 549755813888.0, 0);
	CHECK_NEAR(m.hbm_read_bytes_min, 4288 * MiB, 0);
	CHECK_NEAR(m.hbm_write_bytes_min, 4160 * MiB, 0);
	CHECK_NEAR(m.hbm_bytes_min, 8448 * MiB, 0);
	CHECK_NEAR(m.footprint_bytes, 4352 * MiB, 0);    /* Q K V O + S + P */
	/* causal: the benchmark halves, cuBLAS still computes all of S */
	s.causal = 1;
	predict("standard", &s, &m);
	CHECK_NEAR(m.flops, 274877906944.0, 0);          /* 2³⁸ */
	CHECK_NEAR(m.flops_matmul, 549755813888.0, 0);
}

/*
 * flash2 at the ncu point (Br = 128, Bc = 64, 4 warps):
 * reads Q K V = 192 MiB (ncu: 206 MB); writes O + L = 64 MiB + 64·4096·4 B
 * = 65 MiB (ncu: 72 MB).  L2: Q once + K, V once per Q block (32 × 128 MiB)
 * + the writes = 64 + 4096 + 65 = 4225 MiB (ncu: 5.7 GB).
 * Grid 32 × 64 = 2048 blocks; smem 128·128·2 + 2·2·64·128·2 = 96 KiB,
 * + 1 KiB reserved: 2 per 228 KiB SM; 264 slots → 8 waves, the last with
 * 2048 − 7·264 = 200 blocks: no SM idle.
 */
static void test_flash2_by_hand(void)
{
	struct attn_shape s = fa2_point(0);
	struct model m;
	predict("flash2", &s, &m);
	CHECK_NEAR(m.hbm_read_bytes_min, 192 * MiB, 0);
	CHECK_NEAR(m.hbm_write_bytes_min, 65 * MiB, 0);
	CHECK_NEAR(m.l2_bytes, 4225 * MiB, 0);
	CHECK_NEAR(m.footprint_bytes, 257 * MiB, 0);
	CHECK_NEAR(m.blocks, 2048, 0);
	CHECK_INT(m.blocks_per_sm, 2);
	/* 255 registers/thread also allow exactly 2 blocks (8192 per warp × 4
	 * warps of 65536); on a tie the calculator names registers first */
	CHECK_STR(m.limiter, "registers");
	CHECK_NEAR(m.waves, 8, 0);
	CHECK_INT(m.idle_sms_last_wave, 0);
	/* roofline: 2³⁹ FLOP / 989.4 TFLOP/s = 0.55565 ms > 257 MiB / 4.8 TB/s = 0.0561 ms */
	CHECK_INT(m.bound, 1);
	CHECK_NEAR(m.time_roofline_ms, 549755813888.0 / 989.4e12 * 1e3, 1e-12);
	CHECK_NEAR(m.time_memory_ms, 257 * MiB / 4.8e12 * 1e3, 1e-12);
	CHECK_INT(m.peaks_measured, 0);
	/* causal: Q block i visits 2(i+1) K/V blocks: S entries per head
	 * Σ 128·128(i+1) = 16384·528, i.e. 528/1024 of the full square */
	s.causal = 1;
	predict("flash2", &s, &m);
	CHECK_NEAR(m.flops, 274877906944.0, 0);
	CHECK_NEAR(m.flops_matmul, 549755813888.0 * 528 / 1024, 0);
	CHECK_NEAR(m.hbm_read_bytes_min, 192 * MiB, 0); /* the minimum does not halve */
	CHECK_NEAR(m.tile_pairs, 64.0 * 1056, 0);       /* Σ 2(i+1) = 1056 per head */
	CHECK_NEAR(m.masked_pairs, 64.0 * 64, 0);       /* 2 straddle per Q block */
}

/*
 * flash1 at the ncu point (Br = Bc = 64): 64 K/V blocks, so each Q row's
 * O_acc (fp32, 128 MiB in all), m and ℓ (2 MiB) make 63 round trips:
 * reads 192 MiB + 63·130 MiB; writes 64 MiB O + 2 MiB m, ℓ + 63·130 MiB.
 * One block per head: 64 blocks, 1 per SM (smem 144 KiB), 68 SMs idle.
 */
static void test_flash1_by_hand(void)
{
	struct attn_shape s = fa2_point(0);
	struct model m;
	predict("flash1", &s, &m);
	CHECK_NEAR(m.hbm_read_bytes_min, (192 + 63 * 130) * MiB, 0);
	CHECK_NEAR(m.hbm_write_bytes_min, (66 + 63 * 130) * MiB, 0);
	CHECK_NEAR(m.blocks, 64, 0);
	CHECK_INT(m.blocks_per_sm, 1);
	CHECK_NEAR(m.waves, 1, 0);
	CHECK_INT(m.idle_sms_last_wave, 68);
	/* Q re-read once per K/V block from the L2: 64 × 64 MiB */
	CHECK_NEAR(m.l2_read_bytes, (64 * 64 + 128 + 63 * 130) * MiB, 0);
}

/* Standard's bytes grow as N², flash's footprint as N, causal halves. */
static void test_scaling_laws(void)
{
	struct attn_shape s = fa2_point(0), s2 = s;
	s2.seqlen_q = s2.seqlen_kv = 8192;
	struct model a, b;
	predict("standard", &s, &a);
	predict("standard", &s2, &b);
	double r = b.hbm_bytes_min / a.hbm_bytes_min;
	CHECK(r > 3.9 && r < 4.0);  /* N² terms dominate, Q K V O add a little linear */
	const char *flash[] = { "flash1", "flash2", "flash1+seqpar", "flash1+splitq+lazyrescale" };
	for (size_t i = 0; i < 4; i++) {
		predict(flash[i], &s, &a);
		predict(flash[i], &s2, &b);
		CHECK_NEAR(b.footprint_bytes, 2 * a.footprint_bytes, 0);
	}
	/* flash2: K/V re-reads (the N²d²/M term) grow as N² */
	predict("flash2", &s, &a);
	predict("flash2", &s2, &b);
	r = b.l2_read_bytes / a.l2_read_bytes;
	CHECK(r > 3.9 && r < 4.0);
	/* causal: benchmark FLOPs exactly half; flash2's executed work and its
	 * K/V re-reads about half (diagonal tiles computed whole) */
	struct attn_shape c = s;
	c.causal = 1;
	struct model mc;
	predict("flash2", &c, &mc);
	CHECK_NEAR(mc.flops, a.flops / 2, 0);
	r = mc.flops_matmul / a.flops_matmul;
	CHECK(r > 0.5 && r < 0.52);
	r = (mc.l2_read_bytes - 64 * MiB) / (a.l2_read_bytes - 64 * MiB);
	CHECK(r > 0.5 && r < 0.52);
}

/* The model's counts equal the tiles flashsim.c moves, for all 8 settings. */
static void test_agrees_with_flashsim(void)
{
	struct attn_shape shapes[] = {
		{ DTYPE_FP16, PHASE_PREFILL, 2, 4, 4, 300, 300, 64, 0 },
		{ DTYPE_BF16, PHASE_PREFILL, 1, 4, 2, 300, 300, 64, 1 },
		{ DTYPE_FP16, PHASE_PREFILL, 1, 2, 2, 70, 333, 128, 1 },
		{ DTYPE_FP16, PHASE_PREFILL, 1, 2, 1, 333, 70, 128, 1 },
	};
	struct gpu_model g;
	gpu_model_h200(&g);
	for (size_t si = 0; si < sizeof(shapes) / sizeof(shapes[0]); si++) {
		const struct attn_shape *s = &shapes[si];
		size_t nq = (size_t)s->batch * s->heads * s->seqlen_q * s->head_dim;
		size_t nkv = (size_t)s->batch * s->kv_heads * s->seqlen_kv * s->head_dim;
		float *q = calloc(nq, sizeof(float)), *k = calloc(nkv, sizeof(float));
		float *v = calloc(nkv, sizeof(float));
		double *o = malloc(nq * sizeof(double));
		for (unsigned sw = 0; sw <= FLASH_ALL; sw++) {
			const struct variant_desc *vd = variant_flash(sw);
			struct model m;
			struct flashsim_counts c;
			struct flashsim_opts opt = { .switches = sw };
			CHECK_INT(model_predict(vd, s, &g, &m), 0);
			CHECK_INT(flashsim_run(s, &opt, q, k, v, o, NULL, NULL, NULL, &c), 0);
			CHECK_NEAR(m.l2_read_bytes, (double)flashsim_read_total(&c), 0);
			CHECK_NEAR(m.l2_write_bytes, (double)flashsim_write_total(&c), 0);
			CHECK_NEAR(m.hbm_write_bytes_min, (double)flashsim_write_total(&c), 0);
			double e = (double)dtype_size(s->dtype);
			double unique = (double)nq * e + 2.0 * nkv * e;
			CHECK_NEAR(m.hbm_read_bytes_min, unique + (double)(c.read_bytes[FS_OACC]
				   + c.read_bytes[FS_M] + c.read_bytes[FS_L]), 0);
			CHECK_NEAR(m.score_elems, (double)c.score_elems, 0);
			CHECK_NEAR(m.tile_pairs, (double)c.tile_pairs, 0);
			CHECK_NEAR(m.masked_pairs, (double)c.masked_pairs, 0);
			CHECK_NEAR(m.exps, (double)c.exps, 0);
			CHECK_NEAR(m.flops_nonmatmul,
				   5.0 * c.score_elems + (double)c.rescale_flops + (double)c.reduce_flops, 0);
			CHECK_NEAR(m.blocks, (double)c.blocks, 0);
		}
		free(q); free(k); free(v); free(o);
	}
}

static void test_kvlist_names(void)
{
	static const char *const first[] = {
		"flops", "flops_matmul", "flops_nonmatmul", "hbm_bytes_min", "hbm_read_bytes_min",
		"hbm_write_bytes_min", "l2_bytes", "footprint_bytes", "blocks", "blocks_per_sm",
		"waves", "idle_sms_last_wave", "time_roofline_ms", "bound",
	};
	struct attn_shape s = fa2_point(0);
	struct model m;
	predict("flash2", &s, &m);
	struct kvlist l;
	kvlist_init(&l);
	CHECK_INT(model_to_kvlist(&m, &l), 0);
	CHECK_INT(l.n, model_quantity_count);
	for (size_t i = 0; i < sizeof(first) / sizeof(first[0]); i++)
		CHECK_STR(l.items[i].name, first[i]);
	CHECK_NEAR(*kvlist_get(&l, "hbm_read_bytes_min"), 192 * MiB, 0);
	CHECK_NEAR(*kvlist_get(&l, "blocks_per_sm"), 2, 0);
	CHECK_NEAR(*kvlist_get(&l, "block_m"), 128, 0);
	CHECK(kvlist_get(&l, "model.flops") == NULL);
	kvlist_release(&l);
}

static void test_gpu_facts(void)
{
	struct gpu_info info;
	memset(&info, 0, sizeof(info));
	info.hw.sm_count = 66;
	info.tensor_tflops = 790;
	info.copy_gbs = 4300;
	struct gpu_model g;
	gpu_model_from_info(&g, &info);
	CHECK_INT(g.hw.sm_count, 66);
	CHECK_INT(g.tensor_measured, 1);
	CHECK_INT(g.hbm_measured, 1);
	CHECK(g.hw.l2_bytes == H200_L2_BYTES);   /* missing: default */
	struct attn_shape s = fa2_point(0);
	struct model m;
	CHECK_INT(model_predict(variant_find("flash1"), &s, &g, &m), 0);
	CHECK_INT(m.idle_sms_last_wave, 2);   /* 64 blocks on 66 SMs */
	CHECK_INT(m.peaks_measured, 1);
	CHECK_NEAR(m.time_compute_ms, 549755813888.0 / 790e12 * 1e3, 1e-12);
	char buf[200];
	CHECK_CONTAINS(model_peaks_text(&m, buf, sizeof(buf)), "measured");
	info.copy_gbs = 0;
	info.peak_hbm_gbs = 4800;
	gpu_model_from_info(&g, &info);
	CHECK_INT(g.hbm_measured, 0);
	gpu_model_from_info(&g, NULL);
	CHECK_INT(g.hw.sm_count, 132);
	CHECK_INT(g.tensor_measured, 0);
}

/* Launch geometry at small B·H, split-KV decode, blocks that do not fit. */
static void test_launch_and_decode(void)
{
	struct model m;
	/* flash2, B = 1, H = 8, N = 1000: ⌈1000/128⌉ = 8 Q blocks × 8 = 64 blocks:
	 * one wave of 264 slots, 132 − 64 = 68 SMs idle */
	struct attn_shape s = { DTYPE_FP16, PHASE_PREFILL, 1, 8, 8, 1000, 1000, 128, 0 };
	predict("flash2", &s, &m);
	CHECK_NEAR(m.blocks, 64, 0);
	CHECK_NEAR(m.waves, 1, 0);
	CHECK_INT(m.idle_sms_last_wave, 68);
	/* split-K at d = 256 needs 64·256·2 + 4·64·256·2 + 4·64·256·2 = 288 KiB */
	s.head_dim = 256;
	predict("flash1", &s, &m);
	CHECK_INT(m.blocks_per_sm, 0);
	CHECK_NEAR(m.waves, 0, 0);
	/* decode: 1 query, 8192 cached keys, B = 2, H = 32, Hkv = 8, d = 128.
	 * A split block serves the G = 4 query heads of one KV head: B·Hkv·⌈G·1/16⌉
	 * = 16 groups.  splits: at most one wave, ⌊264 / 16⌋ = 16, at most
	 * ⌈8192/256⌉ = 32 → 16 (split length 512, a multiple of 64).  Grid 16 × 16.
	 * K + V unique: 2·2·8·8192·128·2 = 64 MiB; partials 16·64·(128 + 1)·4 */
	struct attn_shape d = { DTYPE_FP16, PHASE_DECODE, 2, 32, 8, 1, 8192, 128, 0 };
	predict("decode-splitkv", &d, &m);
	CHECK_INT(m.tiling.splits, 16);
	CHECK_NEAR(m.blocks, 16.0 * 16, 0);
	double q = 64.0 * 128 * 2, part = 16.0 * 64 * 129 * 4;
	CHECK_NEAR(m.hbm_read_bytes_min, q + 64 * MiB + part, 0);
	CHECK_NEAR(m.hbm_write_bytes_min, part + q + 64 * 4, 0);
	CHECK_INT(m.bound, 0);                /* decode is memory-bound */
	predict("decode-flash2", &d, &m);
	CHECK_NEAR(m.blocks, 64, 0);          /* one block per (b, h): 68 SMs idle */
	CHECK_INT(m.idle_sms_last_wave, 68);
	/* GQA: flash2 reads each KV head once per query head from the L2 */
	CHECK(m.l2_read_bytes > 3.9 * m.hbm_read_bytes_min);
}

/* decode-paged: the same keys as contiguous plus the block table's used
 * entries and the lengths; a ragged batch of the same B·Nkv the same K/V
 * bytes, its table one entry more per partial last page; the split count
 * over its longest request. */
static void test_paged_decode(void)
{
	struct model m, c;
	struct attn_shape d = { DTYPE_FP16, PHASE_DECODE, 2, 32, 8, 1, 8192, 128, 0 };
	predict("decode-splitkv", &d, &c);
	d.kv_layout = KV_PAGED;
	d.page_size = 16;
	predict("decode-paged", &d, &m);
	CHECK_INT(m.tiling.splits, c.tiling.splits);
	/* 2 · 8192 / 16 = 1024 pages: 4 · (1024 + 2) bytes of table and lengths */
	CHECK_NEAR(m.hbm_read_bytes_min, c.hbm_read_bytes_min + 4.0 * (1024 + 2), 0);
	CHECK_NEAR(m.hbm_write_bytes_min, c.hbm_write_bytes_min, 0);
	/* the pool: 1024 pages of 16 tokens × 8 heads × 128 × 2 B, K and V */
	const struct variant_desc *v = variant_find("decode-paged");
	CHECK_NEAR((double)buffer_bytes(&v->buffers[1], &d, &m.tiling), 1024.0 * 16 * 8 * 128 * 2, 0);
	/* ragged, long-tail: B·Nkv tokens as before, more splits for the longest */
	d.kv_dist = KV_DIST_LONG_TAIL;
	d.kv_seed = 4;
	d.seqlen_kv = 8000; /* not a multiple of 16: partial last pages */
	struct model r;
	predict("decode-paged", &d, &r);
	int32_t lens[2];
	CHECK_INT(paged_kv_lens(&d, lens), 0);
	const double pages = (double)((lens[0] + 15) / 16 + (lens[1] + 15) / 16);
	CHECK_NEAR((double)paged_pages(&d), pages, 0);
	const double q = 64.0 * 128 * 2, part = r.tiling.splits * 64.0 * 129 * 4;
	CHECK_NEAR(r.hbm_read_bytes_min, q + 2.0 * 8 * 16000 * 128 * 2 + 4.0 * (pages + 2) + part, 1e-12);
	CHECK(paged_max_len(&d) > 8000);
	CHECK(r.tiling.splits * splitkv_chunk(&d, &r.tiling) >= paged_max_len(&d));
}

/* A causal mask aligned bottom-right with more queries than keys: query r
 * sees keys up to r − (Nq − Nkv), so Nq = 64 over Nkv = 1 has one visible
 * pair per head (it counted all 64), and Nq = 64 over Nkv = 16 has
 * 1 + 2 + … + 16 = 136 (it counted 1024). */
static void test_causal_more_queries(void)
{
	struct attn_shape d = { DTYPE_FP16, PHASE_DECODE, 2, 8, 8, 64, 1, 128, 1 };
	CHECK_NEAR(attn_flops_fwd(&d), 4.0 * 2 * 8 * 1 * 128, 0);
	d.seqlen_kv = 16;
	CHECK_NEAR(attn_flops_fwd(&d), 4.0 * 2 * 8 * 136 * 128, 0);
	/* the loop over tiles agrees: every visible pair is in a visited tile */
	struct model m;
	predict("decode-flash2", &d, &m);
	CHECK(m.score_elems >= 2.0 * 8 * 136 && m.score_elems <= 2.0 * 8 * 64 * 16);
	/* fewer queries than keys, and equal: unchanged */
	d.seqlen_q = 4;
	d.seqlen_kv = 16;
	CHECK_NEAR(attn_flops_fwd(&d), 4.0 * 2 * 8 * (64 - 6) * 128, 0);
}

static void test_bad_input(void)
{
	struct attn_shape s = fa2_point(0);
	s.kv_heads = 5;
	struct model m;
	struct gpu_model g;
	gpu_model_h200(&g);
	int was = error_quiet(1);
	CHECK_INT(model_predict(variant_find("flash2"), &s, &g, &m), -1);
	CHECK_CONTAINS(error_last(), "does not divide");
	s.kv_heads = 16;
	s.seqlen_q = 0;
	CHECK_INT(model_predict(variant_find("flash2"), &s, &g, &m), -1);
	struct record rec;
	record_init(&rec);
	rec.variant = strdup("flash3");
	CHECK_INT(model_fill_record(&rec, NULL), -1);
	CHECK_CONTAINS(error_last(), "unknown variant 'flash3'");
	free(rec.variant);
	rec.variant = strdup("flash2");
	rec.shape.dtype = DTYPE_FP16;
	rec.shape.phase = PHASE_PREFILL;
	rec.shape.batch = 4; rec.shape.heads = 16; rec.shape.kv_heads = 16;
	rec.shape.seqlen_q = rec.shape.seqlen_kv = 4096; rec.shape.head_dim = 128;
	CHECK_INT(model_fill_record(&rec, NULL), 0);
	CHECK_NEAR(*kvlist_get(&rec.model, "hbm_read_bytes_min"), 192 * MiB, 0);
	record_release(&rec);
	error_quiet(was);
}

/*
 * flash2 backward at the ncu point (Br = 64, Bc = 128, 8 warps): Q, O, dO,
 * dQ = 64 MiB each, K + V = dK + dV = 128 MiB, the dQ accumulator 128 MiB,
 * L = D = 1 MiB.  Reads: dot_do_o O + dO (128), main Q + K + V + dO + L + D
 * + acc (64 + 128 + 64 + 2 + 128), convert acc (128) = 642 MiB; writes: D
 * (1), acc zeroed (128), acc after the atomics (128), dK + dV (128), dQ
 * (64) = 449 MiB.  Matmul: five per tile pair, 10·d per score entry =
 * 2.5 × the forward's 2³⁹.  Grid 64 × 32 = 2048 blocks, one per SM
 * (161 KiB of shared memory: K, V 2 × 32 KiB, Q, dO double-buffered
 * 4 × 16 KiB, P and dS 2 × 16 KiB, L, D 1 KiB; 255 registers × 256
 * threads), 16 waves.
 */
static void test_flash2_bwd_by_hand(void)
{
	struct attn_shape s = fa2_point(0);
	s.pass = PASS_BWD;
	struct model m;
	predict("flash2", &s, &m);
	CHECK_NEAR(m.flops, 2.5 * 549755813888.0, 0);
	CHECK_NEAR(m.flops_matmul, 2.5 * 549755813888.0, 0);
	CHECK_NEAR(m.hbm_read_bytes_min, 642 * MiB, 0);
	CHECK_NEAR(m.hbm_write_bytes_min, 449 * MiB, 0);
	CHECK_NEAR(m.footprint_bytes, 642 * MiB, 0); /* 8 × 64 + acc 128 + L, D 2 */
	CHECK_NEAR(m.tile_pairs, 64.0 * 32 * 64, 0);
	CHECK_NEAR(m.masked_pairs, 0, 0);
	CHECK_INT(m.main_kernel, 1);
	CHECK_INT(m.tiling.block_m, 64);
	CHECK_INT(m.tiling.block_n, 128);
	CHECK_INT(m.tiling.warps, 8);
	/* K, V 2 × 32 KiB; Q, dO double-buffered 4 × 16 KiB; P, dS 2 × 16 KiB;
	 * L, D 4 × 256 B; the dQ tile 64 rows × (512 + 32) B */
	CHECK_INT((long long)m.tiling.smem_bytes, 164864 + 64 * 544);
	CHECK_NEAR(m.blocks, 2048, 0);
	CHECK_INT(m.blocks_per_sm, 1);
	CHECK_NEAR(m.waves, 16, 0);
	/* causal: K/V block j sees Q blocks 2j … 63, the first two masked */
	s.causal = 1;
	predict("flash2", &s, &m);
	CHECK_NEAR(m.flops, 1.25 * 549755813888.0, 0);
	CHECK_NEAR(m.tile_pairs, 64.0 * 1056, 0);
	CHECK_NEAR(m.masked_pairs, 64.0 * 64, 0);
	CHECK_NEAR(m.flops_matmul, 10.0 * 128 * 64 * 1056 * 64 * 128, 0);
	/* fwd+bwd: the sum of the two passes, FLOPs 3.5 × forward */
	struct model f, b;
	s.causal = 0;
	s.pass = PASS_FWD;
	predict("flash2", &s, &f);
	s.pass = PASS_BWD;
	predict("flash2", &s, &b);
	s.pass = PASS_FWDBWD;
	predict("flash2", &s, &m);
	CHECK_NEAR(m.flops, 3.5 * 549755813888.0, 0);
	CHECK_NEAR(m.flops_matmul, f.flops_matmul + b.flops_matmul, 1e-12);
	CHECK_NEAR(m.hbm_bytes_min, f.hbm_bytes_min + b.hbm_bytes_min, 1e-12);
	CHECK_NEAR(m.l2_bytes, f.l2_bytes + b.l2_bytes, 1e-12);
	CHECK_NEAR(m.footprint_bytes, 642 * MiB, 0);
	CHECK_INT(m.main_kernel, 1);
}

/*
 * standard backward at the ncu point: P = dP = dS = 2 GiB.  Reads: dP GEMM
 * dO + V, softmax_bwd P + dP + O + dO, dV GEMM P + dO, dK GEMM dS + Q, dQ
 * GEMM dS + K = 5 · 2048 + 5 · 64 + 2 · 64 = 10688 MiB; writes dP, dS, dV,
 * dK, dQ = 4096 + 192 = 4288 MiB; holds 8 × 64 MiB + S, P, dP, dS.
 */
static void test_standard_bwd_by_hand(void)
{
	struct attn_shape s = fa2_point(0);
	s.pass = PASS_BWD;
	struct model m;
	predict("standard", &s, &m);
	CHECK_NEAR(m.flops, 2.5 * 549755813888.0, 0);
	CHECK_NEAR(m.flops_matmul, 2.0 * 549755813888.0, 0); /* four GEMMs, P not recomputed */
	CHECK_NEAR(m.hbm_read_bytes_min, 10688 * MiB, 0);
	CHECK_NEAR(m.hbm_write_bytes_min, 4288 * MiB, 0);
	CHECK_NEAR(m.footprint_bytes, 8704 * MiB, 0);
	CHECK_INT(m.main_kernel, 1);
	/* flash2 holds a fraction of it: the N² matrices are what standard adds */
	struct model f;
	predict("flash2", &s, &f);
	CHECK(f.footprint_bytes < m.footprint_bytes / 10);
}

/* The backward descriptors: tiling from kernels/tiles.h, buffers by name,
 * kernels in launch order; variants without backward kernels refuse it. */
static void test_bwd_descriptors(void)
{
	const struct variant_desc *f = variant_pass_desc(variant_find("flash2"), PASS_BWD);
	const struct variant_desc *st = variant_pass_desc(variant_find("standard"), PASS_FWDBWD);
	CHECK(f != NULL && st != NULL);
	if (!f || !st)
		return;
	const char *fb[] = { "Q", "K", "V", "O", "L", "dO", "D", "dQ_acc", "dQ", "dK", "dV" };
	CHECK_INT(f->nbuffers, 11);
	for (size_t i = 0; i < 11; i++)
		CHECK_STR(f->buffers[i].name, fb[i]);
	const char *sb[] = { "Q", "K", "V", "S", "P", "O", "dO", "dP", "dS", "dQ", "dK", "dV" };
	CHECK_INT(st->nbuffers, 12);
	for (size_t i = 0; i < 12; i++)
		CHECK_STR(st->buffers[i].name, sb[i]);
	CHECK_STR(f->kernels[0].name, "bwd_dot_do_o");
	CHECK_STR(f->kernels[1].name, "flash_bwd");
	CHECK_STR(f->kernels[2].name, "bwd_convert_dq");
	CHECK_STR(st->kernels[1].match, "softmax_bwd");
	/* every forward buffer is in the backward's list (a fwd+bwd run holds both) */
	const struct variant_desc *fw[] = { variant_find("flash2"), variant_find("standard") };
	const struct variant_desc *bw[] = { f, st };
	for (int k = 0; k < 2; k++)
		for (size_t i = 0; i < fw[k]->nbuffers; i++)
			CHECK(variant_stores(bw[k], fw[k]->buffers[i].name));
	for (int d = 64; d <= 128; d += 64) {
		struct attn_shape s = { DTYPE_BF16, PHASE_PREFILL, 2, 8, 4, 1000, 1000, d, 1, PASS_BWD };
		struct tiling t;
		f->tiling(&s, 132, &t);
		CHECK_INT(t.block_m, FLASH_BWD_BR(d));
		CHECK_INT(t.block_n, FLASH_BWD_BC);
		CHECK_INT(t.warps, FLASH_BWD_WARPS);
		CHECK_INT((long long)t.smem_bytes, FLASH_BWD_SMEM(d));
		int g[3];
		f->grid(&s, &t, 1, g);
		CHECK_INT(g[0], 2 * 4);      /* B·Hkv */
		CHECK_INT(g[1], 8);          /* ⌈1000/128⌉ */
	}
	CHECK(!variant_supports_pass(variant_find("flash1"), PASS_BWD));
	CHECK(!variant_supports_pass(variant_find("decode-splitkv"), PASS_FWDBWD));
	CHECK(variant_supports_pass(variant_find("flash1"), PASS_FWD));
	struct attn_shape s = fa2_point(0);
	s.pass = PASS_BWD;
	struct gpu_model g;
	struct model m;
	gpu_model_h200(&g);
	int was = error_quiet(1);
	CHECK_INT(model_predict(variant_find("flash1"), &s, &g, &m), -1);
	CHECK_CONTAINS(error_last(), "no bwd pass");
	error_quiet(was);
	enum pass p;
	CHECK_INT(pass_parse("fwd+bwd", &p), 0);
	CHECK_INT(p, PASS_FWDBWD);
	CHECK_STR(pass_name(PASS_BWD), "bwd");
	CHECK_INT(pass_parse("backward", &p), -1);
}

/* Every descriptor (and its backward's) names the head dims its kernels are
 * built for, ascending; a spec is held to them variant by variant. */
static void test_head_dims(void)
{
	for (size_t i = 0; i < variant_count; i++) {
		const struct variant_desc *vs[2] = { variant_table[i], variant_table[i]->bwd };
		for (int k = 0; k < 2 && vs[k]; k++) {
			CHECK(vs[k]->head_dims[0] > 0);
			for (int j = 1; j < MAX_HEAD_DIMS && vs[k]->head_dims[j]; j++)
				CHECK(vs[k]->head_dims[j] > vs[k]->head_dims[j - 1]);
		}
	}
	/* the Hopper rungs' trait is hopper_tiles.h's HOPPER_HEAD_DIMS, the list
	 * hopper_fwd.cu instantiates; the other families keep their own */
	static const int hd[] = HOPPER_HEAD_DIMS;
	const size_t nhd = sizeof(hd) / sizeof(hd[0]);
	for (size_t i = 0; i < variant_count; i++) {
		const struct variant_desc *h = variant_table[i];
		if (h->family != FAMILY_HOPPER)
			continue;
		size_t n = 0;
		while (n < MAX_HEAD_DIMS && h->head_dims[n])
			n++;
		CHECK_INT((int)n, (int)nhd);
		for (size_t j = 0; j < nhd && j < n; j++)
			CHECK_INT(h->head_dims[j], hd[j]);
	}
	const struct variant_desc *v = variant_find("hopper+overlap");
	CHECK(variant_supports_head_dim(v, 128));
	CHECK(variant_supports_head_dim(v, 256));
	CHECK(!variant_supports_head_dim(v, 96));
	char b[64];
	CHECK_STR(variant_head_dims_text(v, b, sizeof b), "64, 128 and 256");
	const struct variant_desc *f = variant_find("flash2");
	CHECK(!variant_supports_head_dim(f, 256));
	CHECK_STR(variant_head_dims_text(f, b, sizeof b), "64 and 128");
	/* d = 256 takes 64-key blocks (hopper_tiles.h), the tiling reports them */
	struct attn_shape s = { .dtype = DTYPE_FP16, .phase = PHASE_PREFILL, .batch = 4, .heads = 8, .kv_heads = 8,
				.seqlen_q = 4096, .seqlen_kv = 4096, .head_dim = 256 };
	struct tiling t;
	v->tiling(&s, 132, &t);
	CHECK_INT(t.block_n, 64);
	CHECK_INT((int)t.smem_bytes, HOPPER_SMEM(256));
	CHECK(t.smem_bytes <= 227 * 1024); /* an sm_90 block's opt-in shared memory */
	s.head_dim = 128;
	v->tiling(&s, 132, &t);
	CHECK_INT(t.block_n, 128);
}

/* The Hopper rungs' backward is hopper_bwd.cu's rung 1 (issue 49): its
 * descriptor's head dims are hopper_bwd.h's HOPPER_BWD_HEAD_DIMS (not the
 * forward's d = 256), its tiles and shared memory hopper_bwd.h's, its main
 * kernel's grid (⌈Nkv/128⌉, B·Hkv), and a bwd run of a Hopper rung models
 * the same traffic as flash2's backward with these tiles. */
static void test_hopper_bwd_descriptor(void)
{
	static const int hd[] = HOPPER_BWD_HEAD_DIMS;
	const size_t nhd = sizeof(hd) / sizeof(hd[0]);
	const struct variant_desc *b = NULL;
	for (size_t i = 0; i < variant_count; i++) {
		const struct variant_desc *h = variant_table[i];
		if (h->family != FAMILY_HOPPER)
			continue;
		CHECK(h->bwd != NULL);
		if (!h->bwd)
			continue;
		CHECK_INT(h->bwd->family, FAMILY_HOPPER_BWD);
		CHECK(!b || b == h->bwd); /* one backward for every rung */
		b = h->bwd;
	}
	if (!b)
		return;
	size_t n = 0;
	while (n < MAX_HEAD_DIMS && b->head_dims[n])
		n++;
	CHECK_INT((int)n, (int)nhd);
	for (size_t j = 0; j < nhd && j < n; j++)
		CHECK_INT(b->head_dims[j], hd[j]);
	CHECK(!variant_supports_head_dim(b, 256));
	const struct attn_shape s = { .dtype = DTYPE_BF16, .phase = PHASE_PREFILL, .pass = PASS_BWD, .batch = 2, .heads = 16,
				      .kv_heads = 4, .seqlen_q = 1000, .seqlen_kv = 1000, .head_dim = 128 };
	struct tiling t;
	b->tiling(&s, 132, &t);
	CHECK_INT(t.block_m, HOPPER_BWD_BLOCK_M);
	CHECK_INT(t.block_n, HOPPER_BWD_BLOCK_N);
	CHECK_INT(t.warps * 32, HOPPER_BWD_WS_THREADS);
	CHECK_INT((int)t.smem_bytes, HOPPER_BWD_WS_SMEM(128));
	CHECK_INT((int)t.smem_bytes, 198696); /* K, V 64 KiB, 2 stages of Q, dO 64 KiB, 2 dS 32 KiB, 2 dQ tiles 32 KiB, lse/D 1 KiB, 5 barriers, 1 KiB alignment */
	int g[3];
	b->grid(&s, &t, b->main_kernel, g);
	CHECK_INT(g[0], 8); /* ⌈1000/128⌉ */
	CHECK_INT(g[1], 8); /* B·Hkv */
	CHECK_INT(g[2], 1);
	struct model m, mf;
	predict("hopper+tma+ws", &s, &m);
	predict("flash2", &s, &mf);
	/* the same dataflow: the bytes that do not depend on the tile sizes agree */
	CHECK(m.hbm_read_bytes_min == mf.hbm_read_bytes_min);
	CHECK(m.flops_matmul == mf.flops_matmul);
}

TESTS(test_head_dims, test_hopper_bwd_descriptor, test_flash2_bwd_by_hand, test_standard_bwd_by_hand, test_bwd_descriptors, test_standard_by_hand, test_flash2_by_hand, test_flash1_by_hand, test_scaling_laws,
      test_agrees_with_flashsim, test_kvlist_names, test_gpu_facts, test_launch_and_decode,
      test_bad_input, test_causal_more_queries, test_paged_decode)
