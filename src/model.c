/* model.c: the analytic model (see model.h and docs/model.md).
 *
 * One predictor per variant family (the descriptor's `family`), five
 * traffic patterns:
 *   standard      two GEMMs and a softmax; S and P written and read back;
 *   flash (8)     the tile loop of flashsim.c, counted in closed form per
 *                 Q block: Q-outer streams K/V once per Q block; K/V-outer
 *                 streams Q and round-trips O_acc, m, ℓ once per K/V block;
 *   split-KV      decode: each split streams its slice of K/V, writes a
 *                 partial O and logsumexp, and a combine kernel reads them;
 *   standard bwd  four GEMMs and a softmax backward; dP and dS written and
 *                 read back beside the forward's P;
 *   flash2 bwd    D = rowsum(dO ∘ O), then per K/V block the Q blocks that
 *                 see it stream Q_i, dO_i, L_i, D_i and add Br·d fp32 into
 *                 the dQ accumulator; then the accumulator is converted.
 * A fwd+bwd run is the sum of its two passes.
 */
#include "model.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "paged.h"
#include "util/error.h"

void gpu_model_h200(struct gpu_model *g)
{
	memset(g, 0, sizeof(*g));
	g->name = "NVIDIA H200";
	g->hw.sm_count = H200_SM_COUNT;
	g->hw.l2_bytes = H200_L2_BYTES;
	g->tensor_tflops = H200_TENSOR_TFLOPS;
	g->hbm_gbs = H200_HBM_GBS;
	g->occ = occupancy_gh100;
}

void gpu_model_from_info(struct gpu_model *g, const struct gpu_info *info)
{
	gpu_model_h200(g);
	if (!info)
		return;
	if (info->name)
		g->name = info->name;
	g->hw = info->hw;
	g->hw.sm_count = sm_count_or_default(info->hw.sm_count);
	if (!g->hw.l2_bytes)
		g->hw.l2_bytes = H200_L2_BYTES;
	if (info->tensor_tflops > 0) {
		g->tensor_tflops = info->tensor_tflops;
		g->tensor_measured = 1;
	}
	if (info->copy_gbs > 0) {
		g->hbm_gbs = info->copy_gbs;
		g->hbm_measured = 1;
	} else if (info->peak_hbm_gbs > 0) {
		g->hbm_gbs = info->peak_hbm_gbs; /* this GPU's theoretical rate, not measured */
	}
}

static long cdivl(long a, long b) { return (a + b - 1) / b; }

/* ---- flash: the tile loop in closed form per Q block -------------------- */

struct loop_sums {
	double q_read, kv_read;         /* bytes, per head */
	double oacc_rw, ml_rw;          /* K/V-outer round trips, each direction */
	double score, pairs, masked, row_steps, visited_rows;
};

/* Walk the Q blocks of one head as flashsim.c does (same skip rule). */
static void flash_loop(const struct attn_shape *s, const struct tiling *t, unsigned sw,
		       struct loop_sums *L)
{
	const long nq = s->seqlen_q, nkv = s->seqlen_kv, br = t->block_m, bc = t->block_n;
	const long tr = cdivl(nq, br), tc = cdivl(nkv, bc), off = nkv - nq;
	const double e = (double)dtype_size(s->dtype), d = s->head_dim;
	memset(L, 0, sizeof(*L));
	for (long i = 0; i < tr; i++) {
		long r0 = i * br, r1 = r0 + br < nq ? r0 + br : nq, rows = r1 - r0;
		long jl = tc - 1;
		if (s->causal) {
			long cmax = r1 - 1 + off;
			jl = cmax < 0 ? -1 : (cmax / bc < tc - 1 ? cmax / bc : tc - 1);
		}
		long visits = jl + 1;
		long cols = visits * bc < nkv ? visits * bc : nkv;
		L->score += (double)rows * cols;
		L->pairs += visits;
		L->row_steps += (double)rows * visits;
		if (visits > 0)
			L->visited_rows += rows;
		if (s->causal)
			for (long j = 0; j <= jl; j++) {
				long c1 = (j + 1) * bc < nkv ? (j + 1) * bc : nkv;
				if (c1 - 1 > r0 + off)
					L->masked++;
			}
		if (sw & FLASH_SEQPAR) {
			L->q_read += rows * d * e;
			L->kv_read += 2.0 * cols * d * e;
		} else {
			L->q_read += visits * rows * d * e;
			if (visits > 1) {
				L->oacc_rw += (visits - 1) * rows * d * 4;
				L->ml_rw += (visits - 1) * rows * 2.0 * 4;
			}
		}
	}
	if (!(sw & FLASH_SEQPAR))
		L->kv_read = 2.0 * nkv * d * e; /* each K/V block once per head */
}

/* A flash-template loop with switches sw over the tiling in m. */
static void predict_flash_loop(unsigned sw, const struct attn_shape *s, struct model *m)
{
	const struct tiling *t = &m->tiling;
	const int lazy = !!(sw & FLASH_LAZY), splitk = !(sw & FLASH_SPLITQ);
	const double heads = (double)s->batch * s->heads, d = s->head_dim;
	const double e = (double)dtype_size(s->dtype);
	struct loop_sums L;
	flash_loop(s, t, sw, &L);

	m->score_elems = heads * L.score;
	m->tile_pairs = heads * L.pairs;
	m->masked_pairs = heads * L.masked;
	m->flops_matmul = 4.0 * d * m->score_elems;
	/* per S entry: scale, max, subtract, exp, sum; per row and step: the
	 * O rescale (FA1: two scalings and an add; FA2: one scaling), FA2's
	 * final division; split-K: the warps' partial ℓ and P·V summed */
	double rescale = heads * (L.row_steps * d * (lazy ? 1 : 3) + (lazy ? L.visited_rows * d : 0));
	double reduce = splitk ? heads * L.row_steps * (t->warps - 1) * (d + 1) : 0;
	m->flops_nonmatmul = 5.0 * m->score_elems + rescale + reduce;
	m->exps = m->score_elems + heads * (L.row_steps * (lazy ? 1 : 2) + (lazy ? L.visited_rows : 0));

	const double q = heads * s->seqlen_q * d * e;
	const double kv_unique = 2.0 * s->batch * s->kv_heads * (double)s->seqlen_kv * d * e;
	const double o = q;
	/* every step: m, ℓ; once: L (K/V-outer also leaves m, ℓ, as its kernel does) */
	const double stats = heads * s->seqlen_q * 4.0 * (lazy ? ((sw & FLASH_SEQPAR) ? 1 : 3) : 2);
	const double trips = heads * (L.oacc_rw + L.ml_rw);

	m->hbm_read_bytes_min = q + kv_unique + trips;
	m->hbm_write_bytes_min = o + stats + trips;
	m->l2_read_bytes = heads * (L.q_read + L.kv_read) + trips;
	m->l2_write_bytes = o + stats + trips;
}

static void predict_flash(const struct variant_desc *v, const struct attn_shape *s, struct model *m)
{
	predict_flash_loop(v->switches, s, m);
}

/* The Hopper forward runs flash2's loop (Q-outer, split-Q rows, one rescale,
 * L stored) over its own tiles; what its rungs change is when the work is
 * issued, not how much there is. */
static void predict_hopper(const struct variant_desc *v, const struct attn_shape *s, struct model *m)
{
	(void)v;
	predict_flash_loop(FLASH_ALL, s, m);
}

static void predict_standard(const struct variant_desc *v, const struct attn_shape *s, struct model *m)
{
	(void)v;
	const double heads = (double)s->batch * s->heads, d = s->head_dim;
	const double e = (double)dtype_size(s->dtype);
	const double nn = (double)s->seqlen_q * s->seqlen_kv;
	/* cuBLAS computes all of S; the mask is the softmax kernel's business */
	m->score_elems = heads * nn;
	m->flops_matmul = 4.0 * d * m->score_elems;
	/* scale (GEMM epilogue), max, subtract, exp, sum, normalise */
	m->flops_nonmatmul = 6.0 * m->score_elems;
	m->exps = m->score_elems;

	const double q = heads * s->seqlen_q * d * e;
	const double kv = 2.0 * s->batch * s->kv_heads * (double)s->seqlen_kv * d * e;
	const double sp = heads * nn * e; /* S, and P the same */
	m->hbm_read_bytes_min = q + kv + 2 * sp;   /* softmax reads S, PV GEMM reads P */
	m->hbm_write_bytes_min = 2 * sp + q;       /* S, P, O */
	/* GEMM operand re-reads are cuBLAS's tiling: the lower bound only */
	m->l2_read_bytes = m->hbm_read_bytes_min;
	m->l2_write_bytes = m->hbm_write_bytes_min;
}

static void predict_splitkv(const struct variant_desc *v, const struct attn_shape *s, struct model *m)
{
	(void)v;
	const struct tiling *t = &m->tiling;
	const double heads = (double)s->batch * s->heads, d = s->head_dim;
	const double e = (double)dtype_size(s->dtype);
	const double nq = s->seqlen_q, nkv = s->seqlen_kv, splits = t->splits;
	const long tc = cdivl(s->seqlen_kv, t->block_n);

	m->score_elems = heads * nq * nkv;
	m->tile_pairs = heads * (double)tc;
	m->flops_matmul = 4.0 * d * m->score_elems;
	/* online softmax per KV block, then combine: per split a weight and
	 * a scaled add of the partial O */
	m->flops_nonmatmul = 5.0 * m->score_elems + heads * nq * d * ((double)tc + 1)
		+ heads * nq * (t->warps - 1) * (d + 1) * (double)tc
		+ heads * nq * splits * 2 * d;
	m->exps = m->score_elems + heads * nq * ((double)tc + splits + 1);

	const double q = heads * nq * d * e;
	/* the minimum bytes of a ragged batch: each request's own keys (the
	 * lengths add up to B·Nkv, kernels/paged.h; the unused rows of a last
	 * partial page are never read), and for a paged cache the used entries
	 * of the block table and the B lengths (int32); the padding of the last
	 * partial pages counts in the footprint only */
	const double tokens = (double)s->batch * nkv;
	const double table = model_block_table_bytes(s);
	const double kv_unique = model_decode_cache_bytes(s) - table;
	const double part = heads * splits * nq * (d + 1) * 4; /* O_part and L_part: written, read by the combine */
	const double out = q + heads * nq * 4;                 /* O and L */
	m->hbm_read_bytes_min = q + kv_unique + table + part;
	m->hbm_write_bytes_min = part + out;
	/* every block of a KV head group re-reads its table row from the L2 */
	const double groups = (double)cdivl((long)(s->heads / (s->kv_heads > 0 ? s->kv_heads : 1)) * s->seqlen_q, t->block_m);
	m->l2_read_bytes = q * splits + heads * 2.0 * tokens / s->batch * d * e + part +
		(s->kv_layout == KV_PAGED ? table * s->kv_heads * groups : 0);
	m->l2_write_bytes = part + out;
}

double model_block_table_bytes(const struct attn_shape *s)
{
	return s->kv_layout == KV_PAGED ? 4.0 * ((double)paged_pages(s) + s->batch) : 0;
}

double model_decode_cache_bytes(const struct attn_shape *s)
{
	const double tokens = (double)s->batch * s->seqlen_kv;
	return 2.0 * s->kv_heads * tokens * s->head_dim * (double)dtype_size(s->dtype) + model_block_table_bytes(s);
}

/* ---- backward -------------------------------------------------------- */

static void predict_standard_bwd(const struct variant_desc *v, const struct attn_shape *s, struct model *m)
{
	(void)v;
	const double heads = (double)s->batch * s->heads, d = s->head_dim;
	const double e = (double)dtype_size(s->dtype);
	const double rows = heads * s->seqlen_q;
	m->score_elems = rows * s->seqlen_kv; /* cuBLAS computes every entry of dP */
	/* dP = dO·Vᵀ, dV = Pᵀ·dO, dK = dSᵀ·Q, dQ = dS·K: 2·d each per entry */
	m->flops_matmul = 8.0 * d * m->score_elems;
	/* per entry: subtract D, multiply by P; per row: D = Σ dO·O */
	m->flops_nonmatmul = 2.0 * m->score_elems + 2.0 * d * rows;
	m->exps = 0;
	const double q = rows * d * e;                                    /* Q, O, dO, dQ alike */
	const double kv1 = (double)s->batch * s->kv_heads * s->seqlen_kv * d * e; /* one of K, V, dK, dV */
	const double sp = m->score_elems * e;                             /* P, dP, dS alike */
	/* dP GEMM: dO, V → dP; softmax_bwd: P, dP, O, dO → dS; dV: P, dO; dK: dS, Q; dQ: dS, K */
	m->hbm_read_bytes_min = (q + kv1) + (2 * sp + 2 * q) + (sp + q) + (sp + q) + (sp + kv1);
	m->hbm_write_bytes_min = sp + sp + kv1 + kv1 + q;
	m->l2_read_bytes = m->hbm_read_bytes_min;
	m->l2_write_bytes = m->hbm_write_bytes_min;
}

/* The main kernel's loop: for each K/V block of a KV head, the Q blocks of
 * its G query heads that see one of its keys (kernels/flash_bwd.cu). */
static void predict_flash2_bwd(const struct variant_desc *v, const struct attn_shape *s, struct model *m)
{
	(void)v;
	const struct tiling *t = &m->tiling;
	const long nq = s->seqlen_q, nkv = s->seqlen_kv, br = t->block_m, bc = t->block_n;
	const long nqb = cdivl(nq, br), nkb = cdivl(nkv, bc), off = nkv - nq;
	const double G = (double)s->heads / s->kv_heads, kvheads = (double)s->batch * s->kv_heads;
	const double d = s->head_dim, e = (double)dtype_size(s->dtype);
	double score = 0, pairs = 0, masked = 0, qrows = 0;
	for (long j = 0; j < nkb; j++) {
		const long c0 = j * bc, cols = c0 + bc < nkv ? bc : nkv - c0;
		long i0 = 0;
		if (s->causal) {
			long r0 = c0 - off;
			i0 = r0 <= 0 ? 0 : (r0 >= nq ? nqb : r0 / br);
		}
		for (long i = i0; i < nqb; i++) {
			const long rows = (i + 1) * br < nq ? br : nq - i * br;
			score += (double)rows * cols;
			pairs++;
			qrows += rows;
			if (c0 + bc > nkv || (s->causal && c0 + bc - 1 > i * br + off))
				masked++;
		}
	}
	const double heads_rows = (double)s->batch * s->heads * nq;
	m->score_elems = kvheads * G * score;
	m->tile_pairs = kvheads * G * pairs;
	m->masked_pairs = kvheads * G * masked;
	/* S = K·Qᵀ again, dV += Pᵀ·dO, dP = V·dOᵀ, dK += dSᵀ·Q, dQ += dS·K */
	m->flops_matmul = 10.0 * d * m->score_elems;
	/* per entry: scale-and-subtract, exp, subtract D, multiply by P; per
	 * row: D (2·d), the dQ scaling (d); per key: the dK scaling (d) */
	m->flops_nonmatmul = 4.0 * m->score_elems + 3.0 * d * heads_rows + d * kvheads * nkv;
	m->exps = m->score_elems;
	const double q = heads_rows * d * e, kv = 2.0 * kvheads * nkv * d * e;
	const double acc = heads_rows * d * 4, stats = heads_rows * 4;
	/* dot_do_o: O, dO → D, acc = 0; main: Q, K, V, dO, L, D, acc (the atomics'
	 * lines at least once each way) → dK, dV; convert: acc → dQ */
	m->hbm_read_bytes_min = 2 * q + (q + kv + q + 2 * stats + acc) + acc;
	m->hbm_write_bytes_min = stats + acc + (acc + kv) + q;
	const double visit_rows = kvheads * G * qrows; /* query rows streamed by the main kernel */
	m->l2_read_bytes = 2 * q + visit_rows * (2 * d * e + 8) + kv + acc;
	m->dq_reduce_bytes = visit_rows * d * 4; /* each pair's dQ_i, fp32, reduced into acc */
	m->l2_write_bytes = stats + acc + m->dq_reduce_bytes + kv + q;
}

/* The predictor table, indexed by enum variant_family (variants.h). */
typedef void (*predict_fn)(const struct variant_desc *v, const struct attn_shape *s, struct model *m);
static const predict_fn family_predict[FAMILY_COUNT] = {
	predict_standard,     /* FAMILY_STANDARD */
	predict_flash,        /* FAMILY_FLASH */
	predict_splitkv,      /* FAMILY_SPLITKV */
	predict_standard_bwd, /* FAMILY_STANDARD_BWD */
	predict_flash2_bwd,   /* FAMILY_FLASH2_BWD */
	predict_hopper,       /* FAMILY_HOPPER */
	predict_flash2_bwd,   /* FAMILY_HOPPER_BWD: flash2's loop (K/V blocks outer, the same causal start), its tiles */
};
_Static_assert(FAMILY_COUNT == 7, "one predictor per variant family");

static void predict_launch(const struct variant_desc *v, const struct attn_shape *s,
			   const struct gpu_model *g, struct model *m)
{
	int dims[3] = { 1, 1, 1 };
	m->main_kernel = v->main_kernel;
	v->grid(s, &m->tiling, m->main_kernel, dims);
	m->blocks = (double)dims[0] * dims[1] * dims[2];

	const struct tiling *t = &m->tiling;
	m->blocks_per_sm = 0;
	m->limiter = "none";
	m->occupancy = 0;
	struct occupancy occ;
	if (t->smem_bytes + g->occ.smem_reserved_per_block > g->occ.smem_per_sm
	    || t->smem_bytes > g->occ.smem_per_block_max) {
		m->limiter = "shared memory";  /* does not fit at all */
	} else {
		int was = error_quiet(1);
		if (!occupancy_compute(&g->occ, t->warps * g->occ.warp_size, t->regs_per_thread,
				       0, t->smem_bytes, &occ)) {
			m->blocks_per_sm = occ.blocks_per_sm;
			m->limiter = occupancy_limiter_name(occ.limiter);
			m->occupancy = occ.occupancy;
		}
		error_quiet(was);
	}
	m->waves = m->waves_exact = 0;
	m->idle_sms_last_wave = g->hw.sm_count;
	if (m->blocks_per_sm > 0 && g->hw.sm_count > 0) {
		double slots = (double)m->blocks_per_sm * g->hw.sm_count;
		m->waves_exact = m->blocks / slots;
		m->waves = ceil(m->waves_exact);
		/* the block scheduler spreads a wave over the SMs first */
		double last = m->blocks - (m->waves - 1) * slots;
		m->idle_sms_last_wave = last >= g->hw.sm_count ? 0 : g->hw.sm_count - (int)last;
	}
}

int model_predict(const struct variant_desc *v, const struct attn_shape *s,
		  const struct gpu_model *g, struct model *m)
{
	memset(m, 0, sizeof(*m));
	if (!v)
		return error("model: no variant");
	if (s->batch < 1 || s->heads < 1 || s->kv_heads < 1 || s->head_dim < 1
	    || s->seqlen_q < 1 || s->seqlen_kv < 1)
		return error("model: bad shape for '%s' (every dimension must be at least 1)", v->name);
	if (s->heads % s->kv_heads)
		return error("model: kv_heads %d does not divide heads %d", s->kv_heads, s->heads);

	const struct variant_desc *pd = variant_pass_desc(v, s->pass);
	if (!pd)
		return error("model: '%s' has no %s pass (the backward exists for flash2, standard and the Hopper rungs)",
			     v->name, pass_name(s->pass));
	if (v->family >= FAMILY_COUNT || pd->family >= FAMILY_COUNT)
		return error("model: no traffic model for variant '%s'", v->name);

	pd->tiling(s, g->hw.sm_count, &m->tiling);
	family_predict[pd->family](pd, s, m);
	if (s->pass == PASS_FWDBWD) { /* the forward's work and traffic on top */
		struct model f;
		memset(&f, 0, sizeof(f));
		v->tiling(s, g->hw.sm_count, &f.tiling);
		family_predict[v->family](v, s, &f);
		m->score_elems += f.score_elems;
		m->flops_matmul += f.flops_matmul;
		m->flops_nonmatmul += f.flops_nonmatmul;
		m->exps += f.exps;
		m->tile_pairs += f.tile_pairs;
		m->masked_pairs += f.masked_pairs;
		m->hbm_read_bytes_min += f.hbm_read_bytes_min;
		m->hbm_write_bytes_min += f.hbm_write_bytes_min;
		m->l2_read_bytes += f.l2_read_bytes;
		m->l2_write_bytes += f.l2_write_bytes;
	}
	m->flops = attn_flops(s);

	m->hbm_bytes_min = m->hbm_read_bytes_min + m->hbm_write_bytes_min;
	m->l2_bytes = m->l2_read_bytes + m->l2_write_bytes;
	m->footprint_bytes = (double)variant_footprint(v, s, g->hw.sm_count);
	predict_launch(pd, s, g, m);

	m->peak_tflops = g->tensor_tflops;
	m->bandwidth_gbs = g->hbm_gbs;
	m->peaks_measured = g->tensor_measured && g->hbm_measured;
	m->tensor_measured = g->tensor_measured;
	m->hbm_measured = g->hbm_measured;
	m->time_compute_ms = g->tensor_tflops > 0 ? m->flops_matmul / (g->tensor_tflops * 1e12) * 1e3 : 0;
	m->time_memory_ms = g->hbm_gbs > 0 ? m->hbm_bytes_min / (g->hbm_gbs * 1e9) * 1e3 : 0;
	m->bound = m->time_compute_ms >= m->time_memory_ms;
	m->time_roofline_ms = m->bound ? m->time_compute_ms : m->time_memory_ms;
	return 0;
}

/* ---- quantities ----------------------------------------------------- */

enum { Q_DOUBLE, Q_INT, Q_SIZE };
#define QD(n, u, a) { #n, u, a, offsetof(struct model, n), Q_DOUBLE }
#define QI(n, u, a) { #n, u, a, offsetof(struct model, n), Q_INT }

const struct model_quantity model_quantities[] = {
	QD(flops, "FLOP", "FLOPs of the pass, benchmark convention: 4·B·H·Nq·Nkv·d (halved if causal) × 1 (fwd), 2.5 (bwd), 3.5 (fwd+bwd)"),
	QD(flops_matmul, "FLOP", "matmul FLOPs executed: 4·d per score entry of the visited tiles"),
	QD(flops_nonmatmul, "FLOP", "softmax, rescale and reduction FLOPs"),
	QD(hbm_bytes_min, "bytes", "minimum HBM traffic: reads + writes"),
	QD(hbm_read_bytes_min, "bytes", "inputs once, plus what the variant reads back (S, P; O_acc, m, ℓ)"),
	QD(hbm_write_bytes_min, "bytes", "outputs once, plus what the variant stores"),
	QD(l2_bytes, "bytes", "SM ↔ L2 traffic of the tile loads and stores"),
	QD(footprint_bytes, "bytes", "device memory of the run (sum of the buffers)"),
	QD(blocks, "", "thread blocks of the main kernel"),
	QI(blocks_per_sm, "", "resident blocks per SM (0: does not fit)"),
	QD(waves, "", "waves of blocks over the SMs"),
	QI(idle_sms_last_wave, "", "SMs with no block in the last wave"),
	QD(time_roofline_ms, "ms", "roofline time: max(matmul FLOPs / tensor peak, HBM bytes / bandwidth)"),
	QI(bound, "", "1 compute-bound, 0 memory-bound"),
	QD(l2_read_bytes, "bytes", "L2 → SM bytes"),
	QD(l2_write_bytes, "bytes", "SM → L2 bytes"),
	QD(score_elems, "", "entries of S computed"),
	QD(exps, "", "exp and log evaluations"),
	QD(tile_pairs, "", "(Q block, K/V block) pairs computed"),
	QD(masked_pairs, "", "of those, pairs that need the causal element mask"),
	QD(waves_exact, "", "blocks / (blocks per SM · SMs)"),
	QD(occupancy, "", "theoretical occupancy of the main kernel, 0..1"),
	QD(time_compute_ms, "ms", "matmul FLOPs at the tensor peak"),
	QD(time_memory_ms, "ms", "minimum HBM bytes at the bandwidth"),
	QD(peak_tflops, "TFLOP/s", "tensor peak used"),
	QD(bandwidth_gbs, "GB/s", "HBM bandwidth used"),
	QI(peaks_measured, "", "1 if both peaks were measured on this GPU, 0 if defaults"),
	{ "block_m", "", "Br", offsetof(struct model, tiling.block_m), Q_INT },
	{ "block_n", "", "Bc", offsetof(struct model, tiling.block_n), Q_INT },
	{ "warps", "", "warps per block of the main kernel", offsetof(struct model, tiling.warps), Q_INT },
	{ "splits", "", "KV splits (split-KV decode)", offsetof(struct model, tiling.splits), Q_INT },
	{ "smem_bytes", "bytes", "dynamic shared memory per block", offsetof(struct model, tiling.smem_bytes), Q_SIZE },
};
const size_t model_quantity_count = sizeof(model_quantities) / sizeof(model_quantities[0]);

double model_value(const struct model *m, const struct model_quantity *q)
{
	const char *p = (const char *)m + q->offset;
	switch (q->is_int) {
	case Q_INT: return (double)*(const int *)(const void *)p;
	case Q_SIZE: return (double)*(const size_t *)(const void *)p;
	default: return *(const double *)(const void *)p;
	}
}

int model_to_kvlist(const struct model *m, struct kvlist *l)
{
	for (size_t i = 0; i < model_quantity_count; i++)
		if (kvlist_set(l, model_quantities[i].name, model_value(m, &model_quantities[i])))
			return error("model: out of memory");
	return 0;
}

int model_shape_of_record(const struct record *rec, const struct variant_desc **v,
			  struct attn_shape *s)
{
	*v = rec->variant ? variant_find(rec->variant) : NULL;
	*s = rec->shape;
	/* the model is of attnprof's kernels, which run no other dtype or phase */
	if (!dtype_runs_here(s->dtype))
		return error("model: unknown dtype '%s'", dtype_name(s->dtype));
	if (s->phase == PHASE_UNKNOWN)
		return error("model: unknown phase '%s'", phase_name(s->phase));
	if (!*v)
		return error("model: unknown variant '%s'", rec->variant ? rec->variant : "(none)");
	return 0;
}

int model_fill_record(struct record *rec, const struct gpu_info *gpu)
{
	const struct variant_desc *v;
	struct attn_shape s;
	struct gpu_model g;
	struct model m;
	if (model_shape_of_record(rec, &v, &s))
		return -1;
	gpu_model_from_info(&g, gpu);
	if (model_predict(v, &s, &g, &m))
		return -1;
	return model_to_kvlist(&m, &rec->model);
}

const char *model_peaks_text(const struct model *m, char *buf, size_t len)
{
	const char *how = m->peaks_measured ? "both measured"
		: m->tensor_measured ? "tensor rate measured; bandwidth a datasheet value, not measured"
		: m->hbm_measured ? "bandwidth measured; tensor rate the H200 datasheet default, not measured"
		: "H200 datasheet defaults, not measured";
	snprintf(buf, len, "roofline peaks: %.0f TFLOP/s and %.0f GB/s (%s)",
		 m->peak_tflops, m->bandwidth_gbs, how);
	return buf;
}
