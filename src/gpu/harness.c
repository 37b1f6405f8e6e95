/* harness.c: the record loop.
 *
 * For each config of the sweep: allocate the variant's buffers, fill the
 * inputs on the GPU from the seeded input function, run once on a poisoned
 * output and compare sampled rows of O with the fp64 CPU reference, time
 * with CUDA events (separate runs), add the model's predictions, and append
 * the record to the results file, which is rewritten atomically after every
 * record.  With counters on, the config is timed first, alone, and its
 * checked run is the profiled run (CUPTI, replayed), batched with other
 * configs' (see "the profiled batch").  A
 * signal only sets a flag: the loop stops between configs and nothing
 * recorded is lost.
 */
#include "gpu/harness.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <nvtx3/nvToolsExt.h>

#include "attn.h"
#include "gpu/check.h"
#include "capture/conditions.h"
#include "grad_check.h"
#include "capture/cupti.h"
#include "inputs.h"
#include "model.h"
#include "paged.h"
#include "reference.h"
#include "results.h"
#include "util/error.h"
#include "util/progress.h"

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	(void)sig;
	interrupted = 1;
}

static char *xstrdup(const char *s) { return s ? strdup(s) : NULL; }

/* ---- correctness ------------------------------------------------------ */

/* Reference rows for one shape, shared by every variant run on it. */
struct reference {
	struct attn_shape shape;
	uint64_t seed;
	int valid;
	int nheads;            /* sampled (batch, head) pairs */
	int bh[3][2];
	int nrows;
	int *rows;             /* [nrows], the same rows in every sampled head */
	double *o;             /* [nheads][nrows][d] (not for a bwd pass) */
	struct grad_ref grad;  /* bwd, fwd+bwd: dQ, dK, dV rows */
};

static void reference_release(struct reference *r)
{
	free(r->rows);
	free(r->o);
	grad_ref_release(&r->grad);
	memset(r, 0, sizeof(*r));
}

static int same_shape(const struct attn_shape *a, const struct attn_shape *b)
{
	return a->dtype == b->dtype && a->batch == b->batch && a->heads == b->heads &&
	       a->kv_heads == b->kv_heads && a->seqlen_q == b->seqlen_q &&
	       a->seqlen_kv == b->seqlen_kv && a->head_dim == b->head_dim && a->causal == b->causal &&
	       a->pass == b->pass && a->kv_layout == b->kv_layout && a->page_size == b->page_size &&
	       a->kv_dist == b->kv_dist && a->kv_seed == b->kv_seed;
}

/* The shape's per-request KV lengths [B] and, paged, its seeded block table
 * [B, max_pages] (kernels/paged.h; NULL when contiguous): the run's and the
 * reference's, the same from the same shape.  0, or -1 after error(). */
static int kv_pages_of(const struct attn_shape *s, int32_t **lens, int32_t **table)
{
	*lens = malloc(sizeof(int32_t) * (size_t)s->batch);
	*table = NULL;
	if (!*lens || paged_kv_lens(s, *lens))
		goto bad;
	if (s->kv_layout != KV_PAGED)
		return 0;
	*table = malloc(sizeof(int32_t) * (size_t)s->batch * (size_t)paged_max_pages(s) + sizeof(int32_t));
	if (!*table || paged_block_table(s, *lens, *table))
		goto bad;
	return 0;
bad:
	free(*lens);
	free(*table);
	*lens = *table = NULL;
	return error("cannot lay out the KV cache of B=%d Nkv=%d (out of memory, or Nkv below the query length)",
		     s->batch, s->seqlen_kv);
}

static int reference_build(struct reference *r, const struct attn_shape *s, uint64_t seed, int check_rows)
{
	reference_release(r);
	r->shape = *s;
	r->seed = seed;
	const int d = s->head_dim, B = s->batch, H = s->heads;
	/* First, last and one seeded middle head: layout bugs show at the ends. */
	int cand[3][2] = { { 0, 0 }, { B - 1, H - 1 },
			   { (int)(attn_input_mix(seed) % (uint64_t)B), (int)(attn_input_mix(seed + 1) % (uint64_t)H) } };
	for (int i = 0; i < 3; i++) {
		int dup = 0;
		for (int j = 0; j < r->nheads; j++)
			dup |= r->bh[j][0] == cand[i][0] && r->bh[j][1] == cand[i][1];
		if (!dup) {
			r->bh[r->nheads][0] = cand[i][0];
			r->bh[r->nheads][1] = cand[i][1];
			r->nheads++;
		}
	}
	int want = check_rows ? (check_rows + r->nheads - 1) / r->nheads : s->seqlen_q;
	r->rows = malloc(sizeof(int) * (size_t)(want < s->seqlen_q ? want : s->seqlen_q) + sizeof(int));
	const int maxlen = paged_max_len(s);
	size_t nq = (size_t)s->seqlen_q * d, nkv = (size_t)maxlen * d;
	float *q = malloc(nq * sizeof(float)), *k = malloc(nkv * sizeof(float)), *v = malloc(nkv * sizeof(float));
	int32_t *lens = NULL, *table = NULL;
	const int mp = paged_max_pages(s);
	int rc = -1;
	if (!r->rows || !q || !k || !v || kv_pages_of(s, &lens, &table))
		goto out;
	r->nrows = attn_sample_rows(s->seqlen_q, want, seed, r->rows);
	r->o = malloc(sizeof(double) * (size_t)r->nheads * r->nrows * d);
	if (!r->o)
		goto out;
	/* One head at a time, as a B=H=1 problem, from the input function
	 * (a backward-only run is checked on its gradients alone). */
	struct attn_shape one = *s;
	one.batch = one.heads = one.kv_heads = 1;
	one.kv_layout = KV_CONTIGUOUS;
	one.kv_dist = KV_DIST_EQUAL;
	for (int i = 0; i < r->nheads && s->pass != PASS_BWD; i++) {
		int b = r->bh[i][0], h = r->bh[i][1];
		int hk = h / (H / s->kv_heads);
		uint64_t qoff = ((uint64_t)b * H + h) * nq;
		for (size_t j = 0; j < nq; j++)
			q[j] = grad_input(s, seed, TENSOR_Q, qoff + j);
		/* request b's own length; each key row where the run keeps it
		 * (through its page when paged) */
		one.seqlen_kv = lens[b];
		for (int n = 0; n < lens[b]; n++) {
			const uint64_t row = paged_kv_row(s, table, mp, b, hk, n);
			for (int j = 0; j < d; j++) {
				k[(size_t)n * d + j] = grad_input(s, seed, TENSOR_K, row + j);
				v[(size_t)n * d + j] = grad_input(s, seed, TENSOR_V, row + j);
			}
		}
		if (attn_reference_rows(&one, q, k, v, 0, 0, r->rows, r->nrows,
					r->o + (size_t)i * r->nrows * d, NULL))
			goto out;
	}
	if (s->pass != PASS_FWD && grad_ref_build(&r->grad, s, seed, check_rows))
		goto out;
	r->valid = 1;
	rc = 0;
out:
	if (rc && !r->valid && s->pass == PASS_FWD)
		error("cannot build the fp64 reference (out of memory?)");
	free(lens);
	free(table);
	free(q);
	free(k);
	free(v);
	return rc;
}

/*
 * Test hook, for the test of the test (tests/gpu-test.sh GPU_TEST_PLANT,
 * docs/gpu-runs.md): ATTNPROF_TEST_PLANT_WRONG_RESULT=corrupt-VARIANT-output
 * overwrites VARIANT's whole O on the device with input-like values after
 * the kernel ran, so the check must call it wrong.  Only that exact
 * spelling turns it on, and it says so on every run.
 */
static int planted_wrong(const char *variant)
{
	const char *env = getenv("ATTNPROF_TEST_PLANT_WRONG_RESULT");
	char want[160];
	snprintf(want, sizeof(want), "corrupt-%s-output", variant);
	if (!env || strcmp(env, want))
		return 0;
	static int said;
	if (!said++)
		warning("ATTNPROF_TEST_PLANT_WRONG_RESULT=%s: %s's output is overwritten before the check, to test "
			"the test: these records are not measurements", env, variant);
	return 1;
}

/* Compare the run's outputs with the reference rows: O (fwd, fwd+bwd),
 * the gradients (bwd, fwd+bwd); fills the record's fields. */
static int check_output(struct attn_run *run, const struct reference *ref, struct record *rec,
			const struct tolerance *tol)
{
	const struct attn_shape *s = &ref->shape;
	const size_t d = (size_t)s->head_dim, nrows = (size_t)ref->nheads * ref->nrows;
	rec->checked = 0;
	void *o = s->pass != PASS_BWD && planted_wrong(rec->variant) ? attn_run_buffer(run, "O") : NULL;
	if (o && attn_fill_input(o, (uint64_t)s->batch * s->heads * s->seqlen_q * d, s->dtype, 1, 0))
		return error("test hook: cannot overwrite O: %s", attn_last_error());
	if (s->pass != PASS_BWD) {
		uint64_t *first = malloc(nrows * sizeof(uint64_t) + 1);
		if (!first)
			return error("out of memory for %zu rows of the output", nrows);
		for (int i = 0; i < ref->nheads; i++)
			for (int r = 0; r < ref->nrows; r++)
				first[(size_t)i * ref->nrows + r] =
					(((uint64_t)ref->bh[i][0] * s->heads + ref->bh[i][1]) * s->seqlen_q + ref->rows[r]) * d;
		struct attn_error e;
		attn_error_init(&e);
		int bad = check_compare_rows(run, "O", s->dtype, first, nrows, d, ref->o, &e);
		free(first);
		if (bad)
			return -1;
		rec->checked = 1;
		rec->max_abs_err = e.max_abs;
		rec->rel_l2_err = attn_error_rel_l2(&e);
		rec->tol_max_abs = tol->max_abs;
		rec->tol_rel_l2 = tol->rel_l2;
		rec->rows_checked = (int)nrows;
		/* NaN compares false: a poisoned element left unwritten fails here. */
		rec->correct = e.nonfinite == 0 && rec->max_abs_err <= tol->max_abs && rec->rel_l2_err <= tol->rel_l2;
	}
	return s->pass == PASS_FWD ? 0 : check_gradients(run, &ref->grad, s, rec);
}

/* ---- timing ---------------------------------------------------------- */

static int cmp_float(const void *a, const void *b)
{
	float x = *(const float *)a, y = *(const float *)b;
	return (x > y) - (x < y);
}

static double now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return 1e3 * (double)t.tv_sec + 1e-6 * (double)t.tv_nsec;
}

static double median_sorted(const float *v, int n)
{
	return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/*
 * Settling (docs/metrics.md, "The clock a config is timed at").  Under its
 * power cap the H200 lowers the SM clock after a power-hungry run, and the
 * lowered clock outlasts it: flash2's backward timed right after standard's
 * (cuBLAS at the cap) ran at 1709 MHz instead of 1978 and 12 % slower
 * (2026-12-01, docs/benchmarks.md).  So before its warm-up a config is run
 * untimed, in chunks of about SETTLE_CHUNK_MS, with the clock probed after
 * each, until the clock is near the card's maximum or has stopped rising for
 * SETTLE_FLAT_MS (the clock the config holds by itself), at most max_ms.
 * The PyTorch reference (tools/sdpa_reference.py) settles by the same rule.
 */
#define SETTLE_NEAR_MAX 0.98
#define SETTLE_RISE 1.005
#define SETTLE_FLAT_MS 200.0
#define SETTLE_CHUNK_MS 10.0

static int settle_clock(struct attn_run *run, int max_clock_mhz, double max_ms, struct record *rec)
{
	if (max_ms <= 0 || max_clock_mhz <= 0)
		return 0;
	double start = now_ms();
	float mhz;
	if (attn_run_probe_clock(run, 1, &mhz))
		return error("settling the clock: %s", attn_last_error());
	double one = now_ms() - start; /* one launch, a probe and a wait: at least the launch */
	int chunk = one > 0 && one < SETTLE_CHUNK_MS ? (int)(SETTLE_CHUNK_MS / one) : 1;
	double best = mhz, best_at = now_ms();
	while (mhz < SETTLE_NEAR_MAX * max_clock_mhz) {
		double t = now_ms();
		if (t - best_at >= SETTLE_FLAT_MS || t - start >= max_ms)
			break;
		if (attn_run_probe_clock(run, chunk, &mhz))
			return error("settling the clock: %s", attn_last_error());
		if (mhz > SETTLE_RISE * best) {
			best = mhz;
			best_at = now_ms();
		}
	}
	rec->settle_ms = now_ms() - start;
	return 0;
}

static int time_run(struct attn_run *run, const struct spec *s, struct record *rec)
{
	int n = s->repetitions;
	float *ms = malloc(2 * sizeof(float) * (size_t)n);
	if (!ms)
		return error("out of memory");
	float *mhz = ms + n;
	if (attn_run_time(run, s->warmup, n, ms, mhz)) {
		free(ms);
		return error("timing failed: %s", attn_last_error());
	}
	qsort(ms, (size_t)n, sizeof(float), cmp_float);
	qsort(mhz, (size_t)n, sizeof(float), cmp_float);
	rec->repetitions = n;
	rec->warmup = s->warmup;
	rec->time_ms = median_sorted(ms, n);
	rec->time_ms_min = ms[0];
	rec->time_ms_max = ms[n - 1];
	rec->sm_clock_mhz = median_sorted(mhz, n);
	rec->sm_clock_mhz_min = mhz[0];
	free(ms);
	return 0;
}

static int launch_and_sync(void *arg)
{
	struct attn_run *run = arg;
	if (attn_run_launch(run) || attn_run_sync(run))
		return error("launch failed: %s", attn_last_error());
	return 0;
}

/* ---- one config ---------------------------------------------------------- */

static uint64_t shape_seed(uint64_t spec_seed, const struct attn_shape *s)
{
	uint64_t h = spec_seed;
	int v[] = { (int)s->dtype, s->batch, s->heads, s->kv_heads, s->seqlen_q, s->seqlen_kv, s->head_dim, s->causal };
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		h = attn_input_mix(h ^ (uint64_t)(unsigned)v[i]);
	return h;
}

static void set_error(struct record *rec, const char *what)
{
	char buf[1024];
	snprintf(buf, sizeof(buf), "%s: %s", what, error_last()[0] ? error_last() : attn_last_error());
	free(rec->error);
	rec->error = strdup(buf);
}


/* ---- the profiled batch ------------------------------------------------ */

/*
 * With counters on, a config is set up and timed at once, with no other run
 * alive (as without counters), and its buffers are freed.  Its correctness
 * run is its profiled run, made later in a batch: up to N configs (`record
 * --profile-batch N`, default BATCH_DEFAULT, at most BATCH_MAX) are set up
 * again from their seeds, poisoned, profiled by one cupti_profile() call and
 * compared with the fp64 reference.  Batching pays CUPTI's cost per call
 * (about 15 ms per pass on the H200, whatever the kernels) once per batch;
 * each run launches on its own stream, so the launches come apart by stream.
 * Timing comes first so that a config is timed as in a sweep without
 * counters, whatever its batch holds (an earlier order, timing after the
 * batch's profile, timed two short decode configs 11-12 % slow on the H200
 * while neighbours' memory was being freed: docs/metrics.md).  A batch is
 * cut short by device memory (half the GPU's), a change of replay mode, the
 * range limit, a failed config, or the end of the sweep; its records are
 * written when it completes.  Kernel replay profiles one config at a time:
 * CUPTI saves and restores all device memory per kernel, so every run kept
 * alive would make each replay dearer.
 */
#define BATCH_MAX 8
#define BATCH_DEFAULT 8

struct pending {
	size_t index;          /* the config's index in the spec */
	struct record rec;     /* timed already */
	struct attn_run *run;  /* set up again by finish_batch */
	struct reference ref;  /* this config's reference rows (a copy) */
};

struct batch {
	struct pending p[BATCH_MAX];
	size_t n;
	uint64_t bytes;        /* device memory the pending runs hold */
	size_t ranges;         /* predicted ranges per pass */
	enum cupti_replay replay;
};

struct sweep {
	struct spec *spec;
	struct results *res;
	const char *out_path;
	int progress, tty;     /* a line per config; on a terminal, rewritten */
	struct attn_device dev;
	struct cupti_session *cupti;
	enum metrics_status mstatus;
	char mreason[512];
	struct reference ref;
	struct batch batch;
	int wrong, failed, done;
	/* ATTNPROF_CUPTI_TRACE=1: where the counters' wall time goes */
	int trace;
	double profile_ms, open_ms;
	unsigned batches;
	size_t batch_max;      /* record --profile-batch: 1 to BATCH_MAX */
	double settle_ms;      /* record --settle: the most a config waits for its clock (0: not at all) */
};

static int reference_copy(struct reference *dst, const struct reference *src)
{
	size_t nrows = (size_t)src->nrows, no = (size_t)src->nheads * src->nrows * src->shape.head_dim;
	*dst = *src;
	grad_ref_init(&dst->grad); /* not the source's arrays: release below must not free them */
	dst->rows = malloc(nrows * sizeof(int) + 1);
	dst->o = malloc(no * sizeof(double) + 1);
	if (!dst->rows || !dst->o) {
		reference_release(dst);
		return error("out of memory copying the reference rows");
	}
	memcpy(dst->rows, src->rows, nrows * sizeof(int));
	memcpy(dst->o, src->o, no * sizeof(double));
	if (grad_ref_copy(&dst->grad, &src->grad)) { /* leaves dst->grad empty */
		reference_release(dst);
		return -1;
	}
	return 0;
}

static int launch_batch(void *arg)
{
	struct batch *b = arg;
	for (size_t i = 0; i < b->n; i++)
		if (b->p[i].run && launch_and_sync(b->p[i].run))
			return -1;
	return 0;
}

static void progress_line(size_t i, size_t n, const struct record *rec, int tty);

/* Append a finished record and rewrite the results file. */
static int keep_record(struct sweep *w, size_t index, struct record *rec)
{
	if (rec->error)
		w->failed++;
	else if (rec->checked && !rec->correct)
		w->wrong++;
	w->done++;
	if (w->progress)
		progress_line(index, w->spec->nconfigs, rec, w->tty);
	if (results_add(w->res, rec) || results_save(w->res, w->out_path)) {
		record_release(rec);
		return -1;
	}
	return 0;
}

/* Correctness without counters: poison, run, compare. */
static int check_run(struct sweep *w, struct attn_run *run, const struct reference *ref, struct record *rec)
{
	/* NVTX ranges name the kinds of run for Nsight tools: tools/ncu-overhead.sh
	 * has ncu profile each config's "check" run. */
	nvtxRangePushA("check");
	int bad = attn_run_poison(run) || launch_and_sync(run);
	nvtxRangePop();
	if (bad) {
		error("%s failed: %s", rec->variant, attn_last_error());
		set_error(rec, "launch");
		return -1;
	}
	if (check_output(run, ref, rec, &w->spec->tol[ref->shape.dtype])) {
		set_error(rec, "check");
		return -1;
	}
	return 0;
}

static int time_and_rate(struct sweep *w, struct attn_run *run, const struct attn_shape *s, struct record *rec)
{
	/* Timing: plain runs, no profiler attached to them. */
	nvtxRangePushA("timing");
	int bad = settle_clock(run, w->dev.hw.sm_clock_mhz, w->settle_ms, rec) || time_run(run, w->spec, rec);
	nvtxRangePop();
	if (bad) {
		set_error(rec, "timing");
		return -1;
	}
	rec->tflops = attn_flops(s) / (rec->time_ms * 1e-3) / 1e12;
	return 0;
}

static void metrics_unavailable(struct record *rec, const char *why)
{
	rec->metrics_status = METRICS_UNAVAILABLE;
	free(rec->metrics_reason);
	rec->metrics_reason = strdup(why);
}

/* Give pending config p its launches [from, to) of the batch's profiled call,
 * less the L2 flush kernels (moved out of all; the rest freed). */
static int take_launches(struct pending *p, struct launch *all, size_t from, size_t to, enum cupti_replay replay)
{
	struct launch *mine = calloc(to - from + 1, sizeof *mine);
	if (!mine)
		return error("out of memory");
	size_t n = 0;
	for (size_t i = from; i < to; i++) {
		if (all[i].name && !strcmp(all[i].name, ATTN_L2_FLUSH_KERNEL))
			launch_release(&all[i]);
		else
			mine[n++] = all[i];
		memset(&all[i], 0, sizeof all[i]);
	}
	if (n == 0) {
		free(mine);
		return error("the profiled run of %s launched no kernels of its own", p->rec.variant);
	}
	p->rec.launches = mine;
	p->rec.nlaunches = n;
	p->rec.replay = strdup(cupti_replay_name(replay));
	p->rec.l2_flushed = replay == CUPTI_REPLAY_USER;
	return results_sum_launches(&p->rec);
}

/* A run of config c with its inputs filled from seed: on the first setup
 * and again when its batch is profiled (the same seed gives the same inputs,
 * so the reference rows hold for both). */
static int make_run(struct sweep *w, const struct config *c, uint64_t seed, struct attn_run **out)
{
	const struct attn_shape *s = &c->shape;
	*out = NULL;
	if (attn_run_create(out, c->variant, s, w->dev.hw.sm_count))
		return error("cannot set up %s: %s", c->variant->name, attn_last_error());
	static const char *const names[] = { "Q", "K", "V", "dO" };
	for (int t = 0; t < 4; t++) {
		void *p = attn_run_buffer(*out, names[t]);
		if (t == TENSOR_DO && !p)
			break; /* a forward run has no dO */
		uint64_t n = t == TENSOR_Q || t == TENSOR_DO ? (uint64_t)s->batch * s->heads * s->seqlen_q * s->head_dim
			     : s->kv_layout == KV_PAGED ? paged_pages(s) * (uint64_t)s->page_size * s->kv_heads * s->head_dim
							     : (uint64_t)s->batch * s->kv_heads * s->seqlen_kv * s->head_dim;
		if (!p || attn_fill_input(p, n, s->dtype, seed, t)) {
			error("cannot fill %s: %s", names[t], p ? attn_last_error() : "no such buffer");
			attn_run_destroy(*out);
			*out = NULL;
			return -1;
		}
	}
	if (attn_run_buffer(*out, "block_table")) {
		/* a paged run: its seeded table, validated by the entry point */
		int32_t *lens, *table;
		int bad = kv_pages_of(s, &lens, &table) || attn_run_set_kv_pages(*out, table, lens);
		if (bad && lens)
			error("cannot give %s its page table: %s", c->variant->name, attn_last_error());
		free(lens);
		free(table);
		if (bad) {
			attn_run_destroy(*out);
			*out = NULL;
			return -1;
		}
	}
	/* a backward-only run: the forward's products, once, untimed */
	if (attn_run_prepare(*out)) {
		error("cannot run the forward before the backward: %s", attn_last_error());
		attn_run_destroy(*out);
		*out = NULL;
		return -1;
	}
	return 0;
}

/* Set up, profile and check every pending config (timed already), then keep
 * their records in sweep order. */
static int finish_batch(struct sweep *w)
{
	struct batch *b = &w->batch;
	if (b->n == 0)
		return 0;
	struct launch *all = NULL;
	size_t nall = 0, start[BATCH_MAX + 1], live[BATCH_MAX], nlive = 0;
	char why[1024] = "";
	double t0 = now_ms();

	/* User replay re-runs the runs once per pass; each kernel then starts
	 * from an L2 without dirty lines, as under Nsight Compute.  Kernel replay
	 * restores memory between passes, which refills the L2: no flush. */
	int bad = 0;
	for (size_t i = 0; i < b->n; i++) {
		struct pending *p = &b->p[i];
		if (make_run(w, &w->spec->configs[p->index], p->rec.seed, &p->run)) {
			set_error(&p->rec, "setup");
			continue;
		}
		live[nlive++] = i;
		/* after a failure the rest are still set up: checked without counters */
		if (!bad && (attn_run_poison(p->run) ||
			     (b->replay == CUPTI_REPLAY_USER && attn_run_set_l2_flush(p->run, 1))))
			bad = error("cannot prepare the profiled run: %s", attn_last_error());
	}
	nvtxRangePushA("counters");
	if (!bad && nlive)
		bad = cupti_profile(w->cupti, b->replay, launch_batch, b, &all, &nall);
	nvtxRangePop();
	for (size_t j = 0; j < nlive; j++)
		attn_run_set_l2_flush(b->p[live[j]].run, 0);
	if (!bad && nlive)
		bad = cupti_split_by_stream(all, nall, nlive, start);
	if (bad)
		snprintf(why, sizeof why, "%s", error_last());
	w->profile_ms += now_ms() - t0;
	w->batches++;

	for (size_t j = 0; j < nlive; j++) {
		struct pending *p = &b->p[live[j]];
		struct record *rec = &p->rec;
		const struct attn_shape *s = &p->ref.shape;
		if (bad || take_launches(p, all, start[j], start[j + 1], b->replay)) {
			metrics_unavailable(rec, bad ? why : error_last());
			check_run(w, p->run, &p->ref, rec);
		} else if (check_output(p->run, &p->ref, rec, &w->spec->tol[s->dtype])) {
			set_error(rec, "check");
		} else if (!rec->correct) {
			/* wrong under the profiler: is it the profiling?  Run it plain. */
			struct record plain;
			record_init(&plain);
			if (!check_run(w, p->run, &p->ref, &plain) && plain.correct) {
				error("the profiled run's output was wrong (max |error| %.3g) but a plain run's is right: counters discarded",
				      rec->max_abs_err);
				metrics_unavailable(rec, error_last());
				rec->max_abs_err = plain.max_abs_err;
				rec->rel_l2_err = plain.rel_l2_err;
				memcpy(rec->grad, plain.grad, sizeof rec->grad);
				rec->correct = 1;
			}
			record_release(&plain);
		}
	}
	cupti_launches_free(all, nall); /* what is left: moved-out and flush launches are zeroed/freed */
	int rc = 0;
	for (size_t i = 0; i < b->n; i++) {
		struct pending *p = &b->p[i];
		attn_run_destroy(p->run);
		p->run = NULL;
		reference_release(&p->ref);
		if (!rc && keep_record(w, p->index, &p->rec))
			rc = -1;
		else if (rc)
			record_release(&p->rec);
	}
	b->n = 0;
	b->bytes = 0;
	b->ranges = 0;
	return rc;
}

/* One config: set up and time it; then check and keep it now (no counters,
 * or it failed), or queue it for a profiled batch. */
static int run_config(struct sweep *w, size_t index)
{
	const struct config *c = &w->spec->configs[index];
	const struct attn_shape *s = &c->shape;
	struct attn_run *run = NULL;
	uint64_t seed = shape_seed(w->spec->seed, s);
	struct record rec;
	record_init(&rec);

	if (config_to_record(c, "attnprof", &rec))
		return -1;
	rec.seed = seed;
	rec.metrics_status = w->mstatus;
	rec.metric_set = xstrdup(w->spec->metric_set);
	if (w->mstatus == METRICS_UNAVAILABLE)
		rec.metrics_reason = strdup(w->mreason);

	if (model_fill_record(&rec, &w->res->header.gpu))
		warning("no model prediction for %s: %s", c->variant->name, error_last());

	error_clear();
	if (make_run(w, c, seed, &run)) {
		set_error(&rec, "setup");
		goto keep;
	}
	const struct attn_alloc *allocs;
	size_t na = attn_run_allocs(run, &allocs);
	for (size_t i = 0; i < na; i++)
		kvlist_set(&rec.allocs, allocs[i].name, (double)allocs[i].bytes);
	rec.peak_bytes = attn_run_peak_bytes(run);

	if (!w->ref.valid || w->ref.seed != seed || !same_shape(&w->ref.shape, s)) {
		if (reference_build(&w->ref, s, seed, w->spec->check_rows)) {
			set_error(&rec, "reference");
			goto keep;
		}
	}
	if (!w->cupti) {
		if (!check_run(w, run, &w->ref, &rec))
			time_and_rate(w, run, s, &rec);
		goto keep;
	}

	/* Counters: timed now, alone; checked when its batch is profiled. */
	if (time_and_rate(w, run, s, &rec))
		goto keep;
	attn_run_destroy(run);
	run = NULL;
	struct batch *b = &w->batch;
	enum cupti_replay replay = replay_is_kernel(w->spec, c->variant) ? CUPTI_REPLAY_KERNEL
										 : CUPTI_REPLAY_USER;
	size_t ranges = 2 * variant_pass_kernels(c->variant, s->pass) + 2; /* with flushes, and a spare */
	/* kernel replay saves and restores all device memory for every kernel:
	 * more runs alive would make each kernel's replay dearer, so one */
	size_t most = replay == CUPTI_REPLAY_KERNEL ? 1 : w->batch_max;
	/* first finish the batch if this one does not fit */
	if (b->n && (b->replay != replay || b->ranges + ranges > CUPTI_MAX_RANGES ||
		     b->bytes + rec.peak_bytes > w->dev.hw.hbm_bytes / 2) && finish_batch(w)) {
		record_release(&rec);
		return -1;
	}
	struct pending *p = &b->p[b->n];
	if (reference_copy(&p->ref, &w->ref)) {
		set_error(&rec, "reference");
		goto keep;
	}
	p->index = index;
	p->rec = rec;
	p->run = NULL;
	b->replay = replay;
	b->bytes += rec.peak_bytes;
	b->ranges += ranges;
	b->n++;
	return b->n >= most ? finish_batch(w) : 0;
keep:
	attn_run_destroy(run);
	/* a failed config is kept after the batch before it, in sweep order */
	if (rec.error && finish_batch(w)) {
		record_release(&rec);
		return -1;
	}
	return keep_record(w, index, &rec);
}

static void progress_line(size_t i, size_t n, const struct record *rec, int tty)
{
	char desc[200];
	record_describe(rec, desc, sizeof(desc));
	/* On a terminal a good line is overwritten by the next; anything else stays. */
	const char *start = tty ? "\r\033[K" : "";
	if (rec->error)
		fprintf(stderr, "%s[%zu/%zu] %s: FAILED (%s)\n", start, i + 1, n, desc, rec->error);
	else
		fprintf(stderr, "%s[%zu/%zu] %s: %.3f ms, %.1f TFLOP/s, %s (rel L2 %.1e)%s", start, i + 1, n,
			desc, rec->time_ms, rec->tflops, rec->correct ? "correct" : "WRONG", rec->rel_l2_err,
			tty && rec->correct ? "" : "\n");
}

/* The roofline's ceilings (docs/results-format.md, header.gpu): cuBLAS's GEMM
 * (tensor_tflops, the wgmma ceiling) and the microbenchmarks of
 * kernels/ceilings.cu.  One that fails is left unmeasured, with a warning:
 * the documents then say "not measured". */
static void probe_ceilings(struct gpu_info *g, int progress)
{
	enum { REPS = 10, GEMM_SIZE = 8192 };
	double v = 0;
	struct attn_read_rate l2 = { 0 }, rd = { 0 };
	if (attn_measure_gemm(GEMM_SIZE, REPS, &v))
		warning("cuBLAS GEMM probe failed: %s", attn_last_error());
	else
		g->tensor_tflops = v;
	if (attn_measure_mma_sync(REPS, &v))
		warning("mma.sync-rate probe failed: %s", attn_last_error());
	else
		g->ceil.mma_sync_tflops = v;
	if (attn_measure_l2(REPS, &l2))
		warning("L2-bandwidth probe failed: %s", attn_last_error());
	else {
		g->ceil.l2_gbs = l2.gbs;
		g->ceil.l2_buf_bytes = l2.buf_bytes;
	}
	if (attn_measure_smem(REPS, &v))
		warning("shared-memory-bandwidth probe failed: %s", attn_last_error());
	else
		g->ceil.smem_gbs = v;
	if (attn_measure_hbm_read(REPS, &rd))
		warning("HBM-read-bandwidth probe failed: %s", attn_last_error());
	else
		g->ceil.hbm_read_gbs = rd.gbs;
	char why[400];
	if (gpu_ceilings_vet(g, why, sizeof why))
		warning("%s", why);
	if (gpu_ceilings_measured(&g->ceil)) {
		char m[960];
		/* the buffer the L2 kernel read, also when the vet dropped its rate (H200 2026-12-02 18:17: "0.0 MiB") */
		attn_ceilings_method(m, sizeof(m), &l2, &rd, REPS);
		if (why[0]) /* what was measured and dropped, in the record too */
			snprintf(m + strlen(m), sizeof(m) - strlen(m), "; %s", why);
		free(g->ceil.method);
		g->ceil.method = xstrdup(m);
	}
	if (progress)
		fprintf(stderr, "attnprof: ceilings: copy %.0f GB/s, HBM read %.0f GB/s, cuBLAS GEMM %.1f TFLOP/s, "
			"mma.sync %.1f TFLOP/s, L2 %.0f GB/s, shared memory %.0f GB/s\n", g->copy_gbs, g->ceil.hbm_read_gbs,
			g->tensor_tflops, g->ceil.mma_sync_tflops, g->ceil.l2_gbs, g->ceil.smem_gbs);
}

/* The results to record into: the file to resume, or a new header.
 * Nothing recorded is ever overwritten by accident.  EXIT_OK or the code. */
static int results_begin(struct results *res, const struct spec *s, const struct harness_opts *o)
{
	if (!access(o->out_path, F_OK)) {
		if (o->resume) {
			int cut = 0;
			if (results_load(res, o->out_path, &cut))
				return EXIT_BAD_INPUT;
			if (res->header.spec_name && strcmp(res->header.spec_name, s->name))
				warning("resuming '%s', which was recorded from spec '%s', with spec '%s'",
					o->out_path, res->header.spec_name, s->name);
			/* (record checked before that the file holds the same part) */
		} else if (!o->force) {
			error("results file '%s' exists: use --resume to continue it, --force to overwrite it, or -o to write elsewhere",
			      o->out_path);
			return EXIT_BAD_INPUT;
		}
	}
	if (!res->header.tool_version) {
		struct results_header *h = &res->header;
		char host[256] = "";
		gethostname(host, sizeof(host) - 1);
		char date[32];
		conditions_date(date, sizeof(date));
		h->tool_version = strdup(ATTNPROF_VERSION);
		h->date = strdup(date);
		h->host = strdup(host);
		h->command_line = xstrdup(o->command_line);
		h->spec_name = xstrdup(s->name);
		h->spec_path = xstrdup(s->path);
		h->spec_text = xstrdup(s->text);
		h->shard = xstrdup(o->shard);
	}
	return EXIT_OK;
}

/* The counters: the set validated before the sweep; unavailable is not
 * fatal (timing and correctness are still recorded).  EXIT_OK or the code. */
static int counters_begin(struct sweep *w, const struct spec *s, const struct harness_opts *o, struct results *res)
{
	w->mstatus = METRICS_NOT_REQUESTED;
	if (s->nmetrics) {
		w->batch_max = o->profile_batch >= 1 && o->profile_batch <= BATCH_MAX ? (size_t)o->profile_batch : BATCH_DEFAULT;
		const char *tr = getenv("ATTNPROF_CUPTI_TRACE");
		w->trace = tr && !strcmp(tr, "1");
		double t0 = now_ms();
		int orc = cupti_session_open(&w->cupti, (const char *const *)s->metrics, s->nmetrics,
					     w->mreason, sizeof(w->mreason));
		w->open_ms = now_ms() - t0;
		if (orc < 0)
			return EXIT_BAD_INPUT;
		if (orc == CUPTI_UNAVAILABLE) {
			w->mstatus = METRICS_UNAVAILABLE;
			warning("hardware counters are unavailable: %s", w->mreason);
			note("recording timing and correctness only; 'attnprof info' says how to enable counters");
			free(res->header.gpu.chip);
			res->header.gpu.chip = NULL;
		} else {
			w->mstatus = METRICS_OK;
			res->header.gpu.chip = xstrdup(cupti_session_chip(w->cupti));
			if (o->progress && !o->quiet)
				fprintf(stderr, "attnprof: metric set '%s': %zu metrics, %d pass%s per kernel, replay %s\n",
					s->metric_set, s->nmetrics, cupti_session_passes(w->cupti),
					cupti_session_passes(w->cupti) == 1 ? "" : "es", replay_mode_name(s->replay));
		}
	}
	return EXIT_OK;
}

int harness_record(struct spec *s, const struct harness_opts *o)
{
	struct results res;
	struct sweep w = { .spec = s, .res = &res };
	int rc = EXIT_OK;

	results_init(&res);
	if (attn_device_count() < 1) {
		const char *why = attn_last_error();
		error("no CUDA GPU is visible: record needs one%s%s%s", *why ? " (" : "", why, *why ? ")" : "");
		note("check 'nvidia-smi'; 'attnprof check %s' validates the spec without a GPU", s->path);
		return EXIT_NO_GPU;
	}
	/* --device I: before anything else touches the GPU */
	if (attn_device_select(o->device)) {
		error("--device %d: %s", o->device, attn_last_error());
		return EXIT_BAD_INPUT;
	}
	if ((rc = results_begin(&res, s, o)) != EXIT_OK)
		return rc;
	gpu_info_release(&res.header.gpu);
	if (gpu_conditions(&res.header.gpu, &w.dev)) {
		results_release(&res);
		return EXIT_FAILURE_RUN;
	}
	if (spec_check_memory(s, (uint64_t)(res.header.gpu.hw.hbm_bytes * 0.92), w.dev.hw.sm_count)) {
		results_release(&res);
		return EXIT_BAD_INPUT;
	}
	if (o->copy_bytes_gib > 0) {
		double gbs = 0;
		if (attn_measure_copy((size_t)(o->copy_bytes_gib * (1u << 30)), 20, &gbs))
			warning("copy-bandwidth probe failed: %s", attn_last_error());
		else
			res.header.gpu.copy_gbs = gbs;
	}

	if (o->ceilings)
		probe_ceilings(&res.header.gpu, o->progress && !o->quiet);

	w.settle_ms = o->settle_ms; /* with counters or without */

	/* Counters: validate the set before the sweep; unavailable is not fatal. */
	if ((rc = counters_begin(&w, s, o, &res)) != EXIT_OK) {
		results_release(&res);
		return rc;
	}
	if (results_save(&res, o->out_path)) {
		rc = EXIT_FAILURE_RUN;
		goto out;
	}

	struct sigaction sa = { .sa_handler = on_signal };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	struct progress pr; /* on a terminal, or forced; never with --quiet */
	progress_init(&pr, o->progress, o->quiet);
	w.tty = pr.tty;
	w.progress = pr.on;
	w.out_path = o->out_path;
	int skipped = 0;
	for (size_t i = 0; i < s->nconfigs && !interrupted; i++) {
		struct record rec;
		char key[256];
		record_init(&rec);
		config_to_record(&s->configs[i], "attnprof", &rec);
		record_key(&rec, key, sizeof(key));
		record_release(&rec);
		if (results_find(&res, key) >= 0) {
			skipped++;
			continue;
		}
		if (run_config(&w, i)) {
			rc = EXIT_FAILURE_RUN;
			goto out;
		}
	}
	/* The last batch; after an interrupt its configs are dropped unrecorded
	 * (--resume runs them) rather than profiled and timed first. */
	if (!interrupted && finish_batch(&w)) {
		rc = EXIT_FAILURE_RUN;
		goto out;
	}
	int tty = w.tty;
	if (tty)
		fprintf(stderr, "\r\033[K");
	fprintf(stderr, "attnprof: %s: %d config%s recorded, %d wrong, %d failed%s\n", o->out_path,
		w.done, w.done == 1 ? "" : "s", w.wrong, w.failed,
		w.mstatus == METRICS_UNAVAILABLE ? ", counters unavailable" : "");
	if (skipped)
		fprintf(stderr, "attnprof: %d config%s already in the file, skipped (--resume)\n",
			skipped, skipped == 1 ? " was" : "s were");
	if (interrupted) {
		error("interrupted: %s holds the %zu finished records; run again with --resume to finish",
		      o->out_path, res.nrecords);
		rc = EXIT_FAILURE_RUN;
	} else if (w.wrong || w.failed) {
		rc = EXIT_FAILURE_RUN;
	} else if (w.mstatus == METRICS_UNAVAILABLE) {
		rc = EXIT_NO_GPU;
	}
out:
	if (w.trace)
		fprintf(stderr, "attnprof: counters: session open %.1f ms; %d configs in %u batches: profiling %.1f ms "
			"(set-up again, poison, flush, replayed calls, mapping)\n",
			w.open_ms, w.done, w.batches, w.profile_ms);
	for (size_t i = 0; i < w.batch.n; i++) { /* after an interrupt or a failure */
		attn_run_destroy(w.batch.p[i].run);
		reference_release(&w.batch.p[i].ref);
		record_release(&w.batch.p[i].rec);
	}
	w.batch.n = 0;
	attn_l2_flush_release();
	if (w.cupti)
		cupti_session_close(w.cupti);
	reference_release(&w.ref);
	results_release(&res);
	return rc;
}

int harness_info(int quiet)
{
	struct attn_device d;
	struct gpu_info g = { 0 };
	char reason[512] = "";
	int n = attn_device_count();
	if (n < 1) {
		if (!quiet) {
			const char *why = attn_last_error();
			printf("GPU:      none visible%s%s%s: check 'nvidia-smi'; only 'record' needs a GPU\n",
			       *why ? " (" : "", why, *why ? ")" : "");
			printf("CUPTI:    %s\n", cupti_version_string());
		}
		return EXIT_NO_GPU;
	}
	if (gpu_conditions(&g, &d))
		return EXIT_FAILURE_RUN;
	int readable = cupti_counters_readable(reason, sizeof(reason));
	if (!quiet) {
		char b1[32], b2[32];
		printf("GPU:      %s (compute capability %d.%d), %d SMs, %d device%s\n", g.name, g.hw.cc_major,
		       g.hw.cc_minor, g.hw.sm_count, n, n == 1 ? "" : "s");
		printf("memory:   %s HBM, %s L2, bus %d bits at %d MHz (peak %.0f GB/s)\n",
		       format_bytes((double)g.hw.hbm_bytes, b1, sizeof(b1)), format_bytes((double)g.hw.l2_bytes, b2, sizeof(b2)),
		       g.hw.mem_bus_bits, g.hw.mem_clock_mhz, g.peak_hbm_gbs);
		printf("clocks:   SM up to %d MHz\n", g.hw.sm_clock_mhz);
		printf("driver:   %s, CUDA runtime %s\n", g.driver, g.cuda_runtime);
		printf("CUPTI:    %s\n", g.cupti);
		if (readable == 1)
			printf("counters: readable\n");
		else
			printf("counters: NOT readable: %s\n", reason);
	}
	gpu_info_release(&g);
	return readable == 1 ? EXIT_OK : EXIT_NO_GPU;
}
