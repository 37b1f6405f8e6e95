/* tabledata.c: the measured tables (speed-up, conditions, correctness,
 * model against measurement, memory, variants, launches, ablation, decode)
 * built into owned rows of text from the results; tables.c lays them out.
 * No drawing here: a document model holds these as data. */
#include "doc/figkind.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doc/globals.h"
#include "doc/capreview.h"
#include "doc/datasheet.h"
#include "doc/kernel_name.h"
#include "grad_check.h"
#include "metric_sets.h"
#include "util/error.h"
#include "util/yamltree.h"

static void t_cols(struct dtable *T, int n, const char *const *heads, const int *right)
{
	T->ncols = n;
	for (int i = 0; i < n; i++) {
		snprintf(T->head[i], sizeof(T->head[i]), "%s", heads[i]);
		T->right[i] = right ? right[i] : 0;
	}
}
static char (*t_row(struct dtable *T))[TCELL]
{
	if (T->nrows >= TROWS) {
		T->rows_cut = 1;
		return NULL;
	}
	return T->cell[T->nrows++];
}
static void t_set(char (*row)[TCELL], int col, const char *fmt, ...) ATTNPROF_PRINTF(3, 4);
static void t_set(char (*row)[TCELL], int col, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(row[col], TCELL, fmt, ap);
	va_end(ap);
}

static const char *q_text(const struct rdata *rd, const struct record *r, const char *q, const char *arg,
			  const char *spec, char *buf, size_t len)
{
	double v;
	enum qunit u;
	char why[200];
	if (!r || rdata_quantity(rd, r, q, arg, &v, &u, why, sizeof(why))) {
		snprintf(buf, len, "–");
		return buf;
	}
	fmt_quantity(v, u, spec, buf, len);
	return buf;
}

/* Independent runs of each configuration before two medians are called equal ("≈"): the
 * range of 5 run medians holds a median's true value with about 94 % (1 - 2 · 2^-5).  One
 * run's slowest and fastest launch are no such interval: a single slow launch of a
 * reference widened them until 17-19 % gaps read "≈" (issue 47 item 5). */
#define RUNS_FOR_EQUAL 5

struct within { int marked, short_runs, most_runs; };

/* A speed-up cell, marked "≈ " before it where both configurations have RUNS_FOR_EQUAL
 * runs and the ranges of their run medians (rdata_runs) overlap; w counts the marks and
 * the pairs with too few runs to judge. */
static void speedup_cell(const struct rdata *rd, const struct record *r, const char *other, char *cell,
			 struct within *w)
{
	q_text(rd, r, "speedup_vs", other, NULL, cell, TCELL);
	char why[160];
	const struct record *o = r ? rdata_other(rd, r, other, why, sizeof(why)) : NULL;
	if (!o || !strcmp(cell, "–"))
		return;
	double la, ha, lb, hb;
	int na = rdata_runs(rd, r, &la, &ha), nb = rdata_runs(rd, o, &lb, &hb);
	if (na < RUNS_FOR_EQUAL || nb < RUNS_FOR_EQUAL) {
		w->short_runs++;
		w->most_runs = na > w->most_runs ? na : w->most_runs;
		w->most_runs = nb > w->most_runs ? nb : w->most_runs;
		return;
	}
	if (ha < lb || hb < la)
		return;
	char v[TCELL - 8]; /* a ratio: a few characters */
	snprintf(v, sizeof(v), "%s", cell);
	snprintf(cell, TCELL, "≈ %s", v);
	w->marked++;
}

static void build_speedup(struct dtable *T, const struct rdata *rd, const struct figopts *o)
{
	struct rsel s;
	fig_prefill_sel(rd, o, &s); /* pass unset: the forward */
	char keys[12][SERIES_KEY];
	size_t ns = rdata_series(rd, &s, SERIES_MAIN, keys, 12), kept = 0;
	/* flash2's table: a ladder built on flash2 (the Hopper rungs) is compared
	 * in its own section, from its own run */
	for (size_t k = 0; k < ns; k++) {
		const struct variant_desc *v = strchr(keys[k], ':') ? NULL : variant_find(keys[k]);
		const struct variant_desc *chain[8];
		size_t nl = v && v->parent ? variant_ladder(v, chain, 8, NULL, 0, NULL) : 0;
		if (nl && !strcmp(chain[0]->name, variant_role(DOC_SUBJECT)))
			continue;
		if (kept < 6)
			memmove(keys[kept++], keys[k], SERIES_KEY);
	}
	ns = kept;
	const char *heads[TCOLS];
	int right[TCOLS];
	char hb[TCOLS][48];
	int nc = 0;
	heads[nc] = "d"; right[nc++] = 1;
	heads[nc] = "mask"; right[nc++] = 0;
	heads[nc] = "N"; right[nc++] = 1;
	for (size_t k = 0; k < ns && nc < TCOLS - 3; k++) {
		char l[40];
		snprintf(hb[nc], sizeof(hb[nc]), "%s ms", series_label(keys[k], l, sizeof(l)));
		heads[nc] = hb[nc];
		right[nc++] = 1;
	}
	int has_std = 0, has_f1 = 0, has_f2 = 0, has_ref = 0;
	for (size_t k = 0; k < ns; k++) {
		has_std |= !strcmp(keys[k], variant_role(DOC_CONVENTIONAL));
		has_f1 |= !strcmp(keys[k], variant_role(DOC_BASELINE));
		has_f2 |= !strcmp(keys[k], variant_role(DOC_SUBJECT));
		has_ref |= strchr(keys[k], ':') != NULL;
	}
	int c_std = -1, c_f1 = -1, c_ref = -1;
	/* "flash2 vs standard": the roles' names, from the descriptors */
	const char *subject = variant_role(DOC_SUBJECT);
	char vs[3][48];
	snprintf(vs[0], sizeof vs[0], "%s vs %s", subject, variant_role(DOC_CONVENTIONAL));
	snprintf(vs[1], sizeof vs[1], "%s vs %s", subject, variant_role(DOC_BASELINE));
	snprintf(vs[2], sizeof vs[2], "%s vs SDPA", subject);
	if (has_f2 && has_std) { c_std = nc; heads[nc] = vs[0]; right[nc++] = 1; }
	if (has_f2 && has_f1 && nc < TCOLS) { c_f1 = nc; heads[nc] = vs[1]; right[nc++] = 1; }
	if (has_f2 && has_ref && nc < TCOLS) { c_ref = nc; heads[nc] = vs[2]; right[nc++] = 1; }
	int c_spread = -1;
	struct within within = { 0 };
	if (nc < TCOLS) { c_spread = nc; heads[nc] = "spread"; right[nc++] = 1; }
	t_cols(T, nc, heads, right);
	int ds[16], cs[2], ns_[32];
	size_t nd = rdata_values(rd, NULL, &s, RF_D, ds, 16);
	for (size_t i = 0; i < nd; i++) {
		if (o->sel.d >= 0 && ds[i] != o->sel.d)
			continue;
		s.d = ds[i];
		size_t ncs = rdata_values(rd, NULL, &s, RF_CAUSAL, cs, 2);
		for (size_t j = 0; j < ncs; j++) {
			if (o->sel.causal >= 0 && cs[j] != o->sel.causal)
				continue;
			s.causal = cs[j];
			size_t nn = rdata_values(rd, NULL, &s, RF_N, ns_, 32);
			for (size_t m = 0; m < nn; m++) {
				s.n = ns_[m];
				char (*row)[TCELL] = t_row(T);
				if (!row)
					return;
				t_set(row, 0, "%d", ds[i]);
				t_set(row, 1, "%s", cs[j] ? "causal" : "–");
				t_set(row, 2, "%d", ns_[m]);
				char ref[SERIES_KEY] = "";
				for (size_t k = 0; k < ns; k++) {
					const struct record *r = rdata_find(rd, keys[k], &s);
					q_text(rd, r, "time_ms", NULL, "%.3f", row[3 + k], TCELL);
					if (r && r->error)
						T->bad[T->nrows - 1] = 1;
					if (strchr(keys[k], ':') && !ref[0])
						memcpy(ref, keys[k], SERIES_KEY);
				}
				const struct record *f2 = rdata_find(rd, variant_role(DOC_SUBJECT), &s);
				if (c_std >= 0) speedup_cell(rd, f2, variant_role(DOC_CONVENTIONAL), row[c_std], &within);
				if (c_f1 >= 0) speedup_cell(rd, f2, variant_role(DOC_BASELINE), row[c_f1], &within);
				if (c_ref >= 0) speedup_cell(rd, f2, ref, row[c_ref], &within);
				if (c_spread >= 0) {
					/* the widest spread of the row's timed launches (within one run each) */
					double w = -1;
					for (size_t k = 0; k < ns; k++) {
						const struct record *r = rdata_find(rd, keys[k], &s);
						if (r && !isnan(record_spread_ms(r)) && r->time_ms > 0)
							w = fmax(w, record_spread_ms(r) / r->time_ms * 100);
					}
					if (w >= 0)
						t_set(row, c_spread, "≤ %.1f %%", w);
					else
						t_set(row, c_spread, "–");
				}
			}
			s.n = -1;
		}
		s.causal = -1;
	}
	const char *pass_note = rsel_pass(&s) == PASS_FWD ? "" : s.pass == PASS_BWD ? "Backward pass. " : "Forward + backward pass. ";
	char fam[80] = "";
	if (s.tokens > 0 && s.hidden > 0) {
		char tk[24];
		snprintf(fam, sizeof(fam), "Shapes B·N = %s, H·d = %d. ", fmt_seqlen((double)s.tokens, tk, sizeof(tk)), s.hidden);
	}
	char eq[400] = "";
	if (within.marked)
		snprintf(eq, sizeof(eq), "; ≈: equal within run-to-run spread, the ranges of the two configurations' run "
			 "medians (%d or more independent runs each, about a 94 %% interval of each median) overlap",
			 RUNS_FOR_EQUAL);
	if (within.short_runs)
		snprintf(eq + strlen(eq), sizeof(eq) - strlen(eq), "; %s speed-up is called equal within spread: that "
			 "needs %d independent runs of both configurations, %s %d run%s of a configuration, and the spread "
			 "column is one run's launches, which a single slow launch widens (more runs: report --repeat FILE "
			 "of the spec recorded again)", within.marked ? "elsewhere no" : "no", RUNS_FOR_EQUAL,
			 within.marked ? "the other pairs have at most" : "these results hold at most", within.most_runs,
			 within.most_runs == 1 ? "" : "s");
	snprintf(T->note, sizeof(T->note), "%s%sMedian time over the repetitions (CUDA events); speed-up = other time / %s time at the same shape; "
		 "spread = the widest (slowest − fastest launch) / median among the row's records, within one run%s; – = not "
		 "measured%s.", pass_note, fam, subject, eq, rd->synthetic ? "; SYNTHETIC FIXTURE VALUES" : "");
}

/* A condition and its value; a value longer than a cell (a header's notes, one line per
 * note) goes on over rows of its own, each line of it and each cell-sized piece of a long
 * line broken between words, never cut short. */
static void kv_row(struct dtable *T, const char *k, const char *v)
{
	if (!v || !*v)
		v = "not recorded";
	int first = 1;
	while (*v) {
		size_t n = strcspn(v, "\n");
		if (n > TCELL - 1) { /* the last space that fits, else a cut between characters */
			size_t cut = TCELL - 1;
			while (cut > 0 && v[cut] != ' ')
				cut--;
			if (!cut) {
				cut = TCELL - 1;
				while (cut > 0 && ((unsigned char)v[cut] & 0xC0) == 0x80)
					cut--;
			}
			n = cut;
		}
		char (*row)[TCELL] = t_row(T);
		if (!row)
			return;
		t_set(row, 0, "%s", first ? k : "");
		t_set(row, 1, "%.*s", (int)n, v);
		first = 0;
		v += n;
		while (*v == ' ' || *v == '\n')
			v++;
	}
}

/* kv_row with a printf-formatted value of any length: a value built into a fixed buffer
 * was cut there before kv_row could wrap it (the records' list of files, review-with-capture
 * Table 1: '… counters from: workload.ya' at 160 bytes) */
static void kv_rowf(struct dtable *T, const char *k, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	char *v = n >= 0 ? malloc((size_t)n + 1) : NULL;
	if (!v) {
		kv_row(T, k, "out of memory");
		return;
	}
	va_start(ap, fmt);
	vsnprintf(v, (size_t)n + 1, fmt, ap);
	va_end(ap);
	kv_row(T, k, v);
	free(v);
}

static void build_conditions(struct dtable *T, const struct rdata *rd, const struct figopts *o)
{
	(void)o;
	static const char *const h[] = { "condition", "value" };
	t_cols(T, 2, h, NULL);
	const struct results_header *hd = &rd->res->header;
	const struct gpu_info *g = &hd->gpu;
	char b[160], b1[32];
	kv_row(T, "GPU", g->name);
	snprintf(b, sizeof(b), "%s, compute capability %d.%d", g->chip ? g->chip : "?", g->hw.cc_major, g->hw.cc_minor);
	kv_row(T, "chip", b);
	snprintf(b, sizeof(b), "%d", g->hw.sm_count);
	kv_row(T, "SMs", g->hw.sm_count ? b : NULL);
	kv_row(T, "L2 cache", g->hw.l2_bytes ? fmt_bytes((double)g->hw.l2_bytes, b1, sizeof(b1)) : NULL);
	kv_row(T, "HBM", g->hw.hbm_bytes ? fmt_bytes((double)g->hw.hbm_bytes, b1, sizeof(b1)) : NULL);
	snprintf(b, sizeof(b), "SM %d MHz, memory %d MHz, %d-bit bus", g->hw.sm_clock_mhz, g->hw.mem_clock_mhz, g->hw.mem_bus_bits);
	kv_row(T, "clocks (maximum)", g->hw.sm_clock_mhz ? b : NULL);
	snprintf(b, sizeof(b), "%.0f GB/s theoretical; %s measured device-to-device copy", g->peak_hbm_gbs,
		 g->copy_gbs > 0 ? (snprintf(b1, sizeof(b1), "%.0f GB/s", g->copy_gbs), b1) : "not");
	kv_row(T, "HBM bandwidth", b);
	snprintf(b, sizeof(b), "%.0f TFLOP/s measured dense tensor rate", g->tensor_tflops);
	kv_row(T, "tensor peak", g->tensor_tflops > 0 ? b : "not measured");
	/* the header's cupti names itself ("CUPTI API 130001 …"): said once */
	const char *cupti = g->cupti ? g->cupti : "?";
	snprintf(b, sizeof(b), "driver %s, CUDA runtime %s, %s%s", g->driver ? g->driver : "?",
		 g->cuda_runtime ? g->cuda_runtime : "?", strncmp(cupti, "CUPTI", 5) ? "CUPTI " : "", cupti);
	kv_row(T, "software", b);
	kv_row(T, "host", hd->host);
	kv_row(T, "date", rd->dates ? rd->dates : hd->date);
	kv_row(T, "attnprof", hd->tool_version);
	char cmd[1024];
	kv_row(T, "command", hd->command_line ? command_text(hd->command_line, cmd, sizeof cmd) : NULL);
	if (hd->spec_name)
		kv_rowf(T, "spec", "%s (%s)", hd->spec_name, hd->spec_path ? hd->spec_path : "?");
	else
		kv_row(T, "spec", NULL);
	kv_rowf(T, "records", "%zu in %s", rd->res->nrecords, rd->path);
	if (hd->notes)
		kv_row(T, "notes", hd->notes);
}

/* Under a series' row, one row per gradient its backward records checked
 * (none for records from before per-gradient errors): runs, within bound,
 * the worst rel. L2, and the max |err| of the record nearest its bound
 * beside that bound (it scales with each record's largest |reference|).
 * Returns the rows added. */
static int correctness_grad_rows(struct dtable *T, const struct rdata *rd, const char *key)
{
	int added = 0;
	char kk[SERIES_KEY];
	for (int g = 0; g < RECORD_GRADS; g++) {
		int checked = 0, ok = 0;
		double rl2 = 0, trl2 = 0, mae = 0, tmae = 0, near = -1;
		for (size_t i = 0; i < rd->res->nrecords; i++) {
			const struct record *r = &rd->res->records[i];
			const struct grad_error *e = &r->grad[g];
			if (!e->checked || strcmp(record_series(r, kk, sizeof(kk)), key))
				continue;
			checked++;
			ok += e->correct;
			if (isfinite(e->rel_l2_err) && e->rel_l2_err >= rl2) {
				rl2 = e->rel_l2_err;
				trl2 = e->tol_rel_l2;
			}
			const double ratio = e->tol_max_abs > 0 ? e->max_abs_err / e->tol_max_abs : INFINITY;
			if (!(ratio <= near)) { /* NaN and the first record take it */
				near = ratio;
				mae = e->max_abs_err;
				tmae = e->tol_max_abs;
			}
		}
		if (!checked)
			continue;
		char (*row)[TCELL] = t_row(T);
		if (!row)
			return added;
		char label[TCELL];
		t_set(row, 0, "%s %s", series_label(key, label, sizeof(label)), record_grad_names[g]);
		t_set(row, 1, "%d", checked);
		t_set(row, 2, "%d of %d", ok, checked);
		t_set(row, 3, "%.2e", mae);
		t_set(row, 4, "%.2g", tmae);
		t_set(row, 5, "%.2e", rl2);
		t_set(row, 6, "%.2g", trl2);
		t_set(row, 7, "–");
		if (ok < checked)
			T->bad[T->nrows - 1] = 1;
		added++;
	}
	return added;
}

static void build_correctness(struct dtable *T, const struct rdata *rd, const struct figopts *o)
{
	(void)o;
	static const char *const h[] = { "variant", "runs checked", "within tolerance", "worst max |err|", "tolerance",
					 "worst rel. L2", "tolerance", "rows/run" };
	static const int right[] = { 0, 1, 1, 1, 1, 1, 1, 1 };
	t_cols(T, 8, h, right);
	struct rsel any;
	rsel_any(&any);
	char keys[24][SERIES_KEY];
	size_t ns = rdata_series(rd, &any, SERIES_ALL, keys, 24);
	int failures = 0, unchecked = 0, grads = 0;
	for (size_t k = 0; k < ns; k++) {
		int checked = 0, ok = 0, rows = 0;
		double mae = 0, rl2 = 0, tmae = 0, trl2 = 0;
		char kk[SERIES_KEY];
		for (size_t i = 0; i < rd->res->nrecords; i++) {
			const struct record *r = &rd->res->records[i];
			if (strcmp(record_series(r, kk, sizeof(kk)), keys[k]))
				continue;
			if (!r->checked) {
				unchecked++;
				continue;
			}
			checked++;
			ok += r->correct;
			if (isfinite(r->max_abs_err)) mae = fmax(mae, r->max_abs_err);
			if (isfinite(r->rel_l2_err)) rl2 = fmax(rl2, r->rel_l2_err);
			tmae = r->tol_max_abs;
			trl2 = r->tol_rel_l2;
			rows = r->rows_checked;
		}
		char (*row)[TCELL] = t_row(T);
		if (!row)
			return;
		series_label(keys[k], row[0], TCELL);
		t_set(row, 1, "%d", checked);
		if (!checked) {
			t_set(row, 2, "not checked");
			continue;
		}
		t_set(row, 2, "%d of %d", ok, checked);
		t_set(row, 3, "%.2e", mae);
		t_set(row, 4, "%.2g", tmae);
		t_set(row, 5, "%.2e", rl2);
		t_set(row, 6, "%.2g", trl2);
		t_set(row, 7, "%d", rows);
		if (ok < checked) {
			T->bad[T->nrows - 1] = 1;
			failures += checked - ok;
		}
		grads += correctness_grad_rows(T, rd, keys[k]);
	}
	snprintf(T->note, sizeof(T->note), "O compared with an fp64 CPU reference on fresh seeded inputs (rows sampled for large N; each record's seed is in its results file). "
		 "%d run%s outside tolerance%s; %d record%s not checked (reference series are not).", failures,
		 failures == 1 ? "" : "s", failures ? " — reported as failing, not dropped" : "", unchecked, unchecked == 1 ? "" : "s");
	if (grads) { /* the bounds from the check itself, so the note cannot drift from it */
		double r16, f16, r8, f8;
		grad_tolerance(DTYPE_FP16, &r16, &f16);
		grad_tolerance(DTYPE_BF16, &r8, &f8);
		size_t n = strlen(T->note);
		snprintf(T->note + n, sizeof(T->note) - n,
			 " Rows dQ, dK, dV: each gradient of the backward records on its own (the series row keeps the worst of them). "
			 "Each is held to rel. L2 ≤ %.0e (fp16) or %.0e (bf16) over its checked elements, and max |err| ≤ %.0e (fp16) or "
			 "%.0e (bf16) × the tensor's largest |reference|, so its bound differs per record: the row shows the record "
			 "nearest its bound. Why these: P and dS are rounded to the input type for the tensor cores (2⁻¹¹ or 2⁻⁸ "
			 "relative per rounding, as in FA2), %s also rounds S and dP in HBM, and dS = P ∘ (dP − D) loses "
			 "relative accuracy where dP ≈ D, so single elements stray more than the norm (src/grad_check.h).",
			 r16, r8, f16, f8, variant_role(DOC_CONVENTIONAL));
	}
}

static void build_model(struct dtable *T, const struct rdata *rd, const struct figopts *o)
{
	static const char *const h[] = { "variant", "N", "HBM measured", "HBM model min", "measured / model",
					 "peak memory", "descriptor buffers" };
	static const int right[] = { 0, 1, 1, 1, 1, 1, 1 };
	t_cols(T, 7, h, right);
	static const char *const qs[] = { "hbm_bytes", "hbm_model", "hbm_vs_model", "peak_bytes", "footprint" };
	for (int j = 0; j < 5; j++)
		table_quantity_col(T, 2 + j, qs[j], NULL);
	struct rsel s;
	fig_sel(rd, o, &s);
	s.n = o->sel.n;
	char keys[16][SERIES_KEY];
	size_t ns = rdata_series(rd, &s, SERIES_MAIN, keys, 16);
	int nv[32];
	for (size_t k = 0; k < ns; k++) {
		if (strchr(keys[k], ':'))
			continue;
		size_t nn = rdata_values(rd, keys[k], &s, RF_N, nv, 32);
		for (size_t i = 0; i < nn; i++) {
			struct rsel t = s;
			t.n = nv[i];
			const struct record *r = rdata_find(rd, keys[k], &t);
			char (*row)[TCELL] = t_row(T);
			if (!row)
				return;
			T->rec[T->nrows - 1][0] = r;
			t_set(row, 0, "%s", keys[k]);
			t_set(row, 1, "%d", nv[i]);
			for (int j = 0; j < 5; j++)
				q_text(rd, r, qs[j], NULL, NULL, row[2 + j], TCELL);
		}
	}
	char gap[600], d[96], l2[32];
	rdata_gap(rd, gap, sizeof(gap));
	fmt_bytes((double)rd->res->header.gpu.hw.l2_bytes, l2, sizeof(l2));
	snprintf(T->note, sizeof(T->note), "%s. Measured HBM = DRAM bytes read + written (CUPTI). Below the model: writes still "
		 "resident in the %s L2 when a kernel ends are not counted as DRAM writes. Above it: re-reads of K and V that "
		 "miss in L2; when the L2 absorbs them (as it does at these sizes) they cost L2 bytes, not DRAM bytes.%s%s",
		 rsel_describe(&s, d, sizeof(d)), rd->res->header.gpu.hw.l2_bytes ? l2 : "L2", gap[0] ? " " : "", gap);
}

/* Every series (variant, reference) under o's conditions, at most 16. */
static size_t focus_series(const struct rdata *rd, const struct figopts *o, struct rsel *s, char keys[][SERIES_KEY])
{
	fig_sel(rd, o, s);
	return rdata_series(rd, s, SERIES_ALL, keys, 16);
}

static void build_memory(struct dtable *T, const struct rdata *rd, const struct figopts *o)
{
	static const char *const h[] = { "variant", "allocations", "sum", "peak" };
	static const int right[] = { 0, 0, 1, 1 };
	t_cols(T, 4, h, right);
	table_quantity_col(T, 2, "alloc_sum", NULL);
	table_quantity_col(T, 3, "peak_bytes", NULL);
	struct rsel s;
	char keys[16][SERIES_KEY];
	size_t ns = focus_series(rd, o, &s, keys);
	int unrecorded = 0;
	for (size_t k = 0; k < ns; k++) {
		const struct record *r = rdata_find(rd, keys[k], &s);
		if (!r)
			continue;
		char (*row)[TCELL] = t_row(T);
		if (!row)
			return;
		T->rec[T->nrows - 1][0] = r;
		series_label(keys[k], row[0], TCELL);
		size_t used = 0;
		for (size_t i = 0; i < r->allocs.n; i++) {
			char b[32];
			int w = snprintf(row[1] + used, TCELL - used, "%s%s %s", i ? ", " : "", r->allocs.items[i].name,
					 fmt_bytes(r->allocs.items[i].value, b, sizeof(b)));
			if (w > 0 && (size_t)w < TCELL - used)
				used += (size_t)w;
		}
		if (!r->allocs.n) {
			unrecorded++;
			t_set(row, 1, "not recorded");
		}
		q_text(rd, r, "alloc_sum", NULL, NULL, row[2], TCELL); /* nothing recorded: –, not 0 B */
		q_text(rd, r, "peak_bytes", NULL, NULL, row[3], TCELL);
	}
	char d[96];
	snprintf(T->note, sizeof(T->note), "%s. Every device allocation a run makes, by name: a variant that stores S and P shows them here%s.",
		 rsel_describe(&s, d, sizeof(d)), unrecorded ? "; – where a run recorded no allocations (a reference "
		 "series records only its peak)" : "");
}

static void build_variants(struct dtable *T, const struct rdata *rd, const struct figopts *o)
{
	(void)o;
	static const char *const h[] = { "variant", "grid", "warps", "rescale", "in HBM" };
	t_cols(T, 5, h, NULL);
	struct rsel any;
	rsel_any(&any);
	char keys[24][SERIES_KEY];
	size_t ns = rdata_series(rd, &any, SERIES_ALL, keys, 24);
	for (size_t k = 0; k < ns; k++) {
		const struct variant_desc *v = variant_find(keys[k]);
		if (!v)
			continue;
		char (*row)[TCELL] = t_row(T);
		if (!row)
			return;
		t_set(row, 0, "%s", v->name);
		t_set(row, 1, "%s", v->grid_text);
		t_set(row, 2, "%s", v->warps == WARPS_SPLIT_K ? "split-K" : v->warps == WARPS_SPLIT_Q ? "split-Q" :
		      v->warps == WARPS_ROWS ? "rows" : "library");
		t_set(row, 3, "%s", v->rescale == RESCALE_EVERY_STEP ? "every step" : v->rescale == RESCALE_ONCE ? "once" : "–");
		size_t used = 0;
		for (size_t i = 0; i < v->nbuffers; i++) {
			int w = snprintf(row[4] + used, TCELL - used, "%s%s", i ? ", " : "", v->buffers[i].label);
			if (w > 0 && (size_t)w < TCELL - used)
				used += (size_t)w;
		}
	}
}

/* Distinct kernels whose shortened names are one text ("hopper::hopper_fwd_kernel<…>" for
 * four template instances): each gets its place among them, "(1)", "(2)", so that a row and
 * the note's full name can be told apart. */
struct kshort { const char *name; char shortn[TCELL]; int nth, of; };

static void kshort_add(struct kshort *ks, size_t *n, size_t cap, const char *name)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp(ks[i].name, name))
			return;
	if (*n >= cap)
		return;
	struct kshort *k = &ks[(*n)++];
	k->name = name;
	kernel_short_name(name, k->shortn, sizeof(k->shortn));
	k->nth = 1;
	k->of = 1;
	for (size_t i = 0; i + 1 < *n; i++)
		if (!strcmp(ks[i].shortn, k->shortn)) {
			k->nth++;
			ks[i].of++;
			k->of = ks[i].of;
		}
	for (size_t i = 0; i + 1 < *n; i++)
		if (!strcmp(ks[i].shortn, k->shortn))
			ks[i].of = k->of;
}

/* The row's text for kernel name: its short name, numbered where another kernel shares it;
 * 1 when it was shortened (as kernel_short_name). */
static int kshort_text(const struct kshort *ks, size_t n, const char *name, char *out, size_t len)
{
	int shortened = kernel_short_name(name, out, len);
	for (size_t i = 0; i < n; i++)
		if (!strcmp(ks[i].name, name) && ks[i].of > 1) {
			size_t u = strlen(out);
			snprintf(out + u, len > u ? len - u : 0, " (%d)", ks[i].nth);
		}
	return shortened;
}

static void build_launches(struct dtable *T, const struct rdata *rd, const struct figopts *o)
{
	static const char *const h[] = { "variant", "kernel", "grid", "block", "regs", "smem", "occupancy", "limiter" };
	static const int right[] = { 0, 0, 1, 1, 1, 1, 1, 0 };
	t_cols(T, 8, h, right);
	struct rsel s;
	char keys[16][SERIES_KEY];
	size_t ns = focus_series(rd, o, &s, keys);
	int missing = 0;
	char full[1000] = "";
	struct kshort ks[64];
	size_t nks = 0;
	for (size_t k = 0; k < ns; k++) {
		const struct record *r = rdata_find(rd, keys[k], &s);
		for (size_t i = 0; r && !strchr(keys[k], ':') && i < r->nlaunches; i++)
			kshort_add(ks, &nks, sizeof ks / sizeof ks[0], r->launches[i].name ? r->launches[i].name : "?");
	}
	for (size_t k = 0; k < ns; k++) {
		const struct record *r = rdata_find(rd, keys[k], &s);
		if (!r || strchr(keys[k], ':'))
			continue;
		if (!r->nlaunches)
			missing++;
		for (size_t i = 0; i < r->nlaunches; i++) {
			const struct launch *l = &r->launches[i];
			char (*row)[TCELL] = t_row(T);
			char b[32];
			if (!row)
				return;
			t_set(row, 0, "%s", i ? "" : keys[k]);
			char shortn[TCELL];
			if (kshort_text(ks, nks, l->name ? l->name : "?", shortn, sizeof(shortn)) &&
			    !strstr(full, l->name) && strlen(full) + strlen(l->name) + strlen(shortn) + 8 < sizeof(full)) {
				size_t u = strlen(full);
				if (snprintf(full + u, sizeof(full) - u, "%s%s = %s", u ? "; " : "", shortn, l->name) < 0)
					full[u] = '\0';
			}
			t_set(row, 1, "%s", shortn);
			t_set(row, 2, "%d×%d×%d", l->grid[0], l->grid[1], l->grid[2]);
			t_set(row, 3, "%d", l->block[0] * (l->block[1] ? l->block[1] : 1) * (l->block[2] ? l->block[2] : 1));
			t_set(row, 4, "%d", l->registers);
			t_set(row, 5, "%s", fmt_bytes(l->static_smem + l->dynamic_smem, b, sizeof(b)));
			t_set(row, 6, "%.1f %%", l->theoretical_occupancy * 100);
			t_set(row, 7, "%s", l->occupancy_limiter ? l->occupancy_limiter : "–");
		}
	}
	char d[96];
	snprintf(T->note, sizeof(T->note), "%s. Theoretical occupancy from the CUDA occupancy API.%s%s%s%s",
		 rsel_describe(&s, d, sizeof(d)), missing ? " Variants without rows were recorded without kernel records." : "",
		 full[0] ? " Kernel names shortened; in full: " : "", full, full[0] ? "." : "");
}

/* Tensor-pipe use of every series at the focus (not measured: said so). */
static void build_tensor(struct dtable *T, const struct rdata *rd, const struct figopts *o)
{
	static const char *const h[] = { "variant", "TFLOP/s", "of the tensor rate", "of the data sheet", "tensor pipe active" };
	static const int right[] = { 0, 1, 1, 1, 1 };
	static const char *const q[] = { "tflops", "tensor_peak_pct", "tensor_datasheet_pct", "tensor_active" };
	t_cols(T, 5, h, right);
	struct rsel s;
	char keys[16][SERIES_KEY];
	size_t ns = focus_series(rd, o, &s, keys);
	for (size_t k = 0; k < ns; k++) {
		const struct record *r = rdata_find(rd, keys[k], &s);
		char (*row)[TCELL];
		if (!r || !(row = t_row(T)))
			continue;
		char lab[SERIES_KEY];
		t_set(row, 0, "%s", series_label(keys[k], lab, sizeof(lab)));
		for (int c = 0; c < 4; c++) {
			double v;
			enum qunit u;
			char why[200], b[48];
			if (rdata_quantity(rd, r, q[c], NULL, &v, &u, why, sizeof(why)))
				t_set(row, c + 1, "–");
			else
				t_set(row, c + 1, "%s", (fmt_quantity(v, u, NULL, b, sizeof(b)), b));
		}
	}
	const struct gpu_info *g = &rd->res->header.gpu;
	char d[96], rate[64] = "not measured", sheet[200] = "not known for this GPU";
	if (g->tensor_tflops > 0)
		snprintf(rate, sizeof(rate), "%.0f TFLOP/s", g->tensor_tflops);
	const char *src = NULL;
	const double peak = datasheet_tensor_tflops(g->name, &src);
	if (peak > 0)
		snprintf(sheet, sizeof(sheet), "%.1f TFLOP/s, %s", peak, src);
	snprintf(T->note, sizeof(T->note), "%s. TFLOP/s by the FlashAttention convention; the tensor rate is the measured "
		 "dense fp16 GEMM rate (%s); the data sheet's is the vendor's dense fp16 peak (%s), not measured; tensor "
		 "pipe active = " M_TENSOR_ACTIVE "; – = not measured.",
		 rsel_describe(&s, d, sizeof(d)), rate, sheet);
}

/* Nsight Compute's first section, per variant: how close the longest kernel
 * runs to the two ceilings that bound attention, each measured in the run
 * (the copy bandwidth, the dense GEMM rate) and named in the note */
static void build_sol(struct dtable *T, const struct rdata *rd, const struct figopts *o)
{
	/* the longest kernel's own roof (memory for a kernel that issues no
	 * MMA, the tensor pipe of its path for one that does), its shared
	 * wavefronts against the shared-memory roof, then the call's ceiling */
	static const char *const h[] = { "variant", "longest kernel (its roof)", "time", "DRAM GB/s", "of copy",
					 "shared of roof", "tensor pipe", "call of GEMM rate" };
	/* with the mma.sync rate measured, each row's own ceiling: its longest
	 * kernel's path (the descriptor's), mma.sync's rate or the GEMM's (wgmma) */
	static const char *const hp[] = { "variant", "longest kernel (its roof)", "time", "DRAM GB/s", "of copy",
					  "shared of roof", "tensor pipe", "ceiling (path)", "call of it" };
	static const int right[] = { 0, 0, 1, 1, 1, 1, 1, 1, 1 };
	enum { C_TIME = 2, C_GBS, C_COPY, C_SMEM, C_TENS, C_CEIL, C_OFIT };
	const struct gpu_info *g = &rd->res->header.gpu;
	const int paths = g->ceil.mma_sync_tflops > 0;
	t_cols(T, paths ? 9 : 8, paths ? hp : h, right);
	struct rsel s;
	char keys[16][SERIES_KEY];
	size_t ns = focus_series(rd, o, &s, keys);
	for (size_t k = 0; k < ns; k++) {
		const struct record *r = rdata_find(rd, keys[k], &s);
		const struct launch *ml = r ? record_main_launch(r) : NULL;
		char (*row)[TCELL];
		if (!ml || !(row = t_row(T)))
			continue;
		char lab[SERIES_KEY], kn[34]; /* cut short ("…"): the table has nine columns to fit */
		t_set(row, 0, "%s", series_label(keys[k], lab, sizeof(lab)));
		kernel_short_name(ml->name ? ml->name : "?", kn, sizeof(kn));
		const double *ns_t = kvlist_get(&ml->metrics, M_DURATION), *rd_b = kvlist_get(&ml->metrics, M_DRAM_READ),
			     *wr_b = kvlist_get(&ml->metrics, M_DRAM_WRITE), *tens = kvlist_get(&ml->metrics, M_TENSOR_ACTIVE);
		const double sec = ns_t && *ns_t > 0 ? *ns_t * 1e-9 : 0;
		const double gbs = sec > 0 && rd_b && wr_b ? (*rd_b + *wr_b) / sec / 1e9 : NAN;
		enum tensor_path mp = PATH_NONE;
		const int mma = launch_tensor_path(r, ml, &mp);
		t_set(row, 1, "%s (%s)", kn, mma ? "tensor" : "memory");
		t_set(row, C_TIME, sec > 0 ? "%.3f ms" : "–", sec * 1e3);
		t_set(row, C_GBS, usable(gbs) ? "%.0f" : "–", gbs);
		t_set(row, C_COPY, usable(gbs) && g->copy_gbs > 0 ? "%.0f %%" : "–", 100 * gbs / g->copy_gbs);
		/* shared-memory wavefronts per second against the roof's: the
		 * ceiling's conflict-free 16-byte loads move 128 B a wavefront */
		const double *ldw = kvlist_get(&ml->metrics, M_SMEM_LD_WF), *stw = kvlist_get(&ml->metrics, M_SMEM_ST_WF),
			     *gmw = kvlist_get(&ml->metrics, M_SMEM_GMMA_WF);
		const double wf = ldw && stw ? *ldw + *stw + (gmw ? *gmw : 0) : NAN;
		if (usable(sec) && isfinite(wf) && g->ceil.smem_gbs > 0 && !(record_smem_beyond_lsu(r) && !gmw))
			t_set(row, C_SMEM, "%.0f %%", 100 * wf * 128 / sec / 1e9 / g->ceil.smem_gbs);
		else
			t_set(row, C_SMEM, "%s", isfinite(wf) && g->ceil.smem_gbs > 0 ? "not visible" : "–");
		/* a kernel that issues no MMA has no tensor-pipe figure */
		t_set(row, C_TENS, mma && tens && usable(*tens) ? "%.0f %%" : "–", tens ? *tens : 0);
		double v;
		enum qunit u;
		char why[200], b[48];
		if (paths) {
			/* the longest tensor-core kernel's path: the call's matmuls run there */
			enum tensor_path pt = PATH_NONE, pk;
			double tmax = -1;
			for (size_t i = 0; i < r->nlaunches; i++) {
				const double *d_ns = kvlist_get(&r->launches[i].metrics, M_DURATION);
				if (launch_tensor_path(r, &r->launches[i], &pk) && d_ns && *d_ns > tmax)
					tmax = *d_ns, pt = pk;
			}
			const double ceil = pt == PATH_MMA_SYNC ? g->ceil.mma_sync_tflops
					  : pt == PATH_NONE ? 0 : g->tensor_tflops;
			const char *pn = pt == PATH_LIBRARY && g->hw.cc_major == 9 ? "wgmma (cuBLAS)" : tensor_path_name(pt);
			if (ceil > 0)
				t_set(row, C_CEIL, "%s %.0f", pn, ceil);
			else
				t_set(row, C_CEIL, "%s", pt == PATH_NONE ? "–" : pn);
			if (ceil > 0 && !rdata_quantity(rd, r, "tflops", NULL, &v, &u, why, sizeof(why)))
				t_set(row, C_OFIT, "%.0f %%", 100 * v / ceil);
			else
				t_set(row, C_OFIT, "–");
			continue;
		}
		if (rdata_quantity(rd, r, "tensor_peak_pct", NULL, &v, &u, why, sizeof(why)))
			t_set(row, C_CEIL, "–");
		else
			t_set(row, C_CEIL, "%s", (fmt_quantity(v, u, NULL, b, sizeof(b)), b));
	}
	char d[96], own[400], sbw[64] = "not measured in this run: –";
	if (g->ceil.smem_gbs > 0)
		snprintf(sbw, sizeof sbw, "%.0f GB/s", g->ceil.smem_gbs);
	snprintf(own, sizeof own, "its roof = memory for a kernel that issues no MMA (its share: of copy), else "
		 "tensor; shared of roof = its shared-memory wavefronts (wgmma's operand reads where counted) × 128 B "
		 "/ its duration, over the shared-memory load bandwidth measured by kernels/ceilings.cu (%s; not "
		 "visible: wgmma/TMA traffic not counted)", sbw);
	if (paths) {
		snprintf(T->note, sizeof(T->note), "%s. Per variant, the kernel of the longest time (its own counters, "
			 "taken under profiling): %s; DRAM GB/s = its DRAM bytes read + written / its duration; of copy = that / "
			 "the device-to-device copy bandwidth measured in the run (%.0f GB/s); tensor pipe = " M_TENSOR_ACTIVE
			 ", – for a kernel that issues no MMA; ceiling = the dense fp16 rate of the instruction path its tensor-core kernels take (the variant's "
			 "descriptor): mma.sync's rate measured by kernels/ceilings.cu (%.0f TFLOP/s), wgmma's by cuBLAS's "
			 "GEMM in the run (%.0f TFLOP/s); call of it = the call's TFLOP/s (FlashAttention convention) / that "
			 "ceiling; – = not measured or no tensor-core kernel.",
			 rsel_describe(&s, d, sizeof(d)), own, g->copy_gbs, g->ceil.mma_sync_tflops, g->tensor_tflops);
		return;
	}
	snprintf(T->note, sizeof(T->note), "%s. Per variant, the kernel of the longest time (its own counters, taken "
		 "under profiling): %s; DRAM GB/s = its DRAM bytes read + written / its duration; of copy = that / the "
		 "device-to-device copy bandwidth measured in the run (%.0f GB/s; the data sheet's %.0f GB/s is not "
		 "reached by a copy); tensor pipe = " M_TENSOR_ACTIVE " (HMMA and HGMMA alike), – for a kernel that issues "
		 "no MMA; call of GEMM rate = the "
		 "call's TFLOP/s (all its kernels, FlashAttention convention) / the dense fp16 GEMM rate measured in the "
		 "run (%.0f TFLOP/s, cuBLAS's wgmma kernels); an mma.sync kernel's own ceiling was not measured apart "
		 "from it; – = not measured.",
		 rsel_describe(&s, d, sizeof(d)), own, g->copy_gbs, g->peak_hbm_gbs, g->tensor_tflops);
}

/* The reasons the stalls table gives a column, in this order (the figure
 * draws all of them); the largest of the others is named in the last. */
static const char *const stall_cols[] = { "selected", "math_pipe_throttle", "long_scoreboard", "short_scoreboard",
					  "mio_throttle", "barrier", "wait" };
#define NSTALL_COLS (sizeof stall_cols / sizeof stall_cols[0])
/* a row whose reasons add up to less is short of a state: the note says which reasons its record lacks */
#define STALL_SUM_SHORT 99.0

static void build_stalls(struct dtable *T, const struct rdata *rd, const struct figopts *o)
{
	const char *h[2 + NSTALL_COLS + 2];
	int right[2 + NSTALL_COLS + 2];
	h[0] = "kernel";
	h[1] = "tensor pipe";
	right[0] = 0;
	right[1] = 1;
	for (size_t i = 0; i < NSTALL_COLS; i++)
		for (size_t k = 0; k < metric_stall_reason_count; k++)
			if (!strcmp(metric_stall_reasons[k].name, stall_cols[i])) {
				h[2 + i] = metric_stall_reasons[k].label;
				right[2 + i] = 1;
			}
	h[2 + NSTALL_COLS] = "largest other";
	right[2 + NSTALL_COLS] = 0;
	h[3 + NSTALL_COLS] = "sum";
	right[3 + NSTALL_COLS] = 1;
	t_cols(T, (int)(4 + NSTALL_COLS), h, right);
	/* the reasons of the set that some row's record lacks (recorded before
	 * the set had them), and the rows short of 100 % */
	int lacks[64] = { 0 };
	size_t short_rows = 0, rows = 0;
	struct rsel s;
	fig_sel(rd, o, &s);
	for (size_t p = 0; p < PASS_COUNT; p++) {
		if (o->sel.pass != RSEL_PASS_UNSET && o->sel.pass != (enum pass)p)
			continue;
		s.pass = (enum pass)p;
		/* every kernel with the counters (a table past TROWS rows says so) */
		const size_t all = rdata_metric_records(rd, &s, M_WARPS_ACTIVE, NULL, NULL, 0);
		char (*keys)[SERIES_KEY] = malloc((all + 1) * sizeof(*keys));
		const struct record **recs = malloc((all + 1) * sizeof(*recs));
		size_t n = keys && recs ? rdata_metric_records(rd, &s, M_WARPS_ACTIVE, keys, recs, all) : 0;
		for (size_t i = 0; i < n; i++) {
			char (*row)[TCELL] = t_row(T);
			if (!row)
				break;
			char lab[SERIES_KEY];
			t_set(row, 0, "%s%s%s", series_label(keys[i], lab, sizeof lab), p ? " " : "", p ? pass_names[p] : "");
			q_text(rd, recs[i], "tensor_active", NULL, NULL, row[1], TCELL);
			for (size_t c = 0; c < NSTALL_COLS; c++)
				q_text(rd, recs[i], "stall_pct", stall_cols[c], NULL, row[2 + c], TCELL);
			double best = -1, sum = 0;
			int counted = 0, row_lacks[64] = { 0 };
			const struct stall_reason *top = NULL;
			for (size_t k = 0; k < metric_stall_reason_count; k++) {
				size_t c;
				for (c = 0; c < NSTALL_COLS && strcmp(stall_cols[c], metric_stall_reasons[k].name); c++)
					;
				double v;
				enum qunit u;
				char why[160];
				if (rdata_quantity(rd, recs[i], "stall_pct", metric_stall_reasons[k].name, &v, &u, why, sizeof why)) {
					if (k < sizeof row_lacks / sizeof row_lacks[0])
						row_lacks[k] = 1;
					continue;
				}
				sum += v;
				counted++;
				if (c < NSTALL_COLS || !(v > best))
					continue;
				best = v;
				top = &metric_stall_reasons[k];
			}
			t_set(row, 2 + NSTALL_COLS, top ? "%s %.0f %%" : "–", top ? top->label : "", best);
			/* what the recorded reasons add up to: 100 % only when every
			 * state the warps were in is counted */
			t_set(row, 3 + NSTALL_COLS, counted ? "%.1f %%" : "–", sum);
			rows++;
			if (counted && sum < STALL_SUM_SHORT) {
				short_rows++;
				for (size_t k = 0; k < sizeof lacks / sizeof lacks[0]; k++)
					lacks[k] |= row_lacks[k];
			}
		}
		free(keys);
		free(recs);
	}
	/* which reasons the short rows lack, by name */
	char lack[400] = "";
	for (size_t k = 0; k < metric_stall_reason_count && k < sizeof lacks / sizeof lacks[0]; k++)
		if (lacks[k])
			snprintf(lack + strlen(lack), sizeof lack - strlen(lack), "%s%s", lack[0] ? ", " : "",
				 metric_stall_reasons[k].label);
	char shortfall[600] = "";
	if (short_rows)
		snprintf(shortfall, sizeof shortfall, " %zu of the %zu rows add up to less than %.0f %%: %s%s%s.", short_rows,
			 rows, STALL_SUM_SHORT, lack[0] ? "their records lack the reason" : "a state no recorded reason counts",
			 lack[0] ? (strchr(lack, ',') ? "s " : " ") : "", lack);
	snprintf(T->note, sizeof(T->note), "Warp-cycles of each reason over the active warp-cycles (" M_WARPS_ACTIVE
		 "), summed over the call's kernels, as Nsight Compute's warp-state statistics count them: every active "
		 "warp is in one state each cycle, so a row adds up to 100 %% when every reason is counted; sum = what "
		 "the row's recorded reasons add up to.%s Selected = issuing an instruction. Long "
		 "scoreboard waits on global or local memory (L1TEX), short scoreboard on shared memory and MUFU results, "
		 "MIO throttle on room in the shared-memory/MUFU queue, math-pipe throttle on a busy execution pipe "
		 "(tensor, FMA), barrier on the other warps of the block. Tensor pipe = " M_TENSOR_ACTIVE
		 " where the record has it (another metric set); – = not measured.", shortfall);
}

static void build_dq_traffic(struct dtable *T, const struct rdata *rd, const struct figopts *o)
{
	(void)o;
	static const char *const h[] = { "variant", "N", "d", "causal", "tile pairs", "model: Br·d fp32 per pair",
					 "measured (L2 reductions)", "measured / model" };
	static const int right[] = { 0, 1, 1, 0, 1, 1, 1, 1 };
	t_cols(T, 8, h, right);
	table_quantity_col(T, 5, "dq_red_model", NULL);
	table_quantity_col(T, 6, "dq_red_bytes", NULL);
	table_quantity_col(T, 7, "dq_red_ratio", NULL);
	for (size_t i = 0; i < rd->res->nrecords; i++) {
		const struct record *r = &rd->res->records[i];
		if (record_captured(r) || r->error || r->shape.pass == PASS_FWD || !record_metric(r, M_L2_RED_SECT))
			continue;
		char (*row)[TCELL] = t_row(T);
		if (!row)
			return;
		T->rec[T->nrows - 1][0] = r;
		char kk[SERIES_KEY];
		series_label(record_series(r, kk, sizeof kk), row[0], TCELL);
		if (r->shape.pass != PASS_BWD)
			strncat(row[0], " (fwd+bwd)", TCELL - strlen(row[0]) - 1);
		t_set(row, 1, "%d", r->shape.seqlen_kv);
		t_set(row, 2, "%d", r->shape.head_dim);
		t_set(row, 3, "%s", r->shape.causal ? "yes" : "no");
		const double *tp = kvlist_get(&r->model, "tile_pairs");
		if (tp && *tp > 0)
			q_text(rd, r, "model", "tile_pairs", "count", row[4], TCELL);
		else
			t_set(row, 4, "–"); /* no flash loop (cuBLAS) */
		q_text(rd, r, "dq_red_model", NULL, NULL, row[5], TCELL);
		q_text(rd, r, "dq_red_bytes", NULL, NULL, row[6], TCELL);
		q_text(rd, r, "dq_red_ratio", NULL, NULL, row[7], TCELL);
	}
	snprintf(T->note, sizeof(T->note), "%s's backward adds each tile pair's dQ_i (Br rows × d, fp32) into the "
		 "dQ accumulator by reductions resolved in the L2 (kernels/flash_bwd.cu): the model counts Br·d·4 bytes per "
		 "(Q block, K/V block) pair its loop computes; measured = " M_L2_RED_SECT " × %d bytes over the pass's "
		 "kernels. A kernel without reductions (%s's cuBLAS GEMMs) has no model row (–).", variant_role(DOC_SUBJECT),
		 M_L2_SECTOR_BYTES, variant_role(DOC_CONVENTIONAL));
}

/* A median this far above the fastest launch: the launches did not all run
 * alike (two modes, a slow stretch), and the median may speak of the slow
 * ones.  Quiet timings here sit within 1-2 % (docs/benchmarks.md). */
#define SPREAD_FLAG 1.03

static double spread_of(const struct record *r) { return r->time_ms / r->time_ms_min; }

int record_spread_flagged(const struct record *r)
{
	return !record_captured(r) && !r->error && r->time_ms > 0 && r->time_ms_min > 0 && spread_of(r) > SPREAD_FLAG;
}

/* At most this many rows, the widest spreads first: a page of them. */
#define SPREAD_ROWS 18

/* Widest first; equal spreads by series and shape, so the rows do not
 * depend on the order of the results files. */
static int wider_first(const void *a, const void *b)
{
	const struct record *x = *(const struct record *const *)a, *y = *(const struct record *const *)b;
	const double sx = spread_of(x), sy = spread_of(y);
	if (sx != sy)
		return (sx < sy) - (sx > sy);
	char kx[SERIES_KEY], ky[SERIES_KEY];
	int c = strcmp(record_series(x, kx, sizeof(kx)), record_series(y, ky, sizeof(ky)));
	if (!c) c = strcmp(record_pass(x), record_pass(y)); /* by name: bwd, fwd, fwd+bwd */
	const int vx[] = { x->shape.head_dim, x->shape.causal, x->shape.seqlen_kv, x->shape.seqlen_q, x->shape.batch, x->shape.heads };
	const int vy[] = { y->shape.head_dim, y->shape.causal, y->shape.seqlen_kv, y->shape.seqlen_q, y->shape.batch, y->shape.heads };
	for (int i = 0; !c && i < 6; i++)
		c = (vx[i] > vy[i]) - (vx[i] < vy[i]);
	return c;
}

static void build_spread(struct dtable *T, const struct rdata *rd, const struct figopts *o)
{
	(void)o;
	static const char *const h[] = { "variant", "pass", "d", "mask", "N", "B × H", "median ms", "fastest ms", "slowest ms",
					 "median / fastest", "SM clock MHz" };
	static const int right[] = { 0, 0, 1, 0, 1, 1, 1, 1, 1, 1, 1 };
	const struct record **flagged = calloc(rd->res->nrecords + 1, sizeof(*flagged));
	if (!flagged) {
		t_cols(T, 10, h, right);
		snprintf(T->note, sizeof(T->note), "out of memory listing the records");
		return;
	}
	size_t nf = 0, timed = 0;
	for (size_t i = 0; i < rd->res->nrecords; i++) {
		const struct record *r = &rd->res->records[i];
		timed += !record_captured(r) && r->time_ms > 0;
		if (record_spread_flagged(r))
			flagged[nf++] = r;
	}
	qsort(flagged, nf, sizeof(*flagged), wider_first);
	int probed = 0; /* the clock column only where a row shown has one */
	for (size_t k = 0; k < nf && k < SPREAD_ROWS; k++)
		probed |= flagged[k]->sm_clock_mhz > 0;
	t_cols(T, probed ? 11 : 10, h, right);
	for (size_t k = 0; k < nf && k < SPREAD_ROWS; k++) {
		const struct record *r = flagged[k];
		char (*row)[TCELL] = t_row(T);
		if (!row)
			break;
		char key[SERIES_KEY], lab[SERIES_KEY];
		t_set(row, 0, "%s", series_label(record_series(r, key, sizeof(key)), lab, sizeof(lab)));
		t_set(row, 1, "%s", record_pass(r));
		t_set(row, 2, "%d", r->shape.head_dim);
		t_set(row, 3, "%s", r->shape.causal ? "causal" : "–");
		t_set(row, 4, "%d", r->shape.seqlen_kv);
		t_set(row, 5, "%d × %d", r->shape.batch, r->shape.heads);
		t_set(row, 6, "%.3f", r->time_ms);
		t_set(row, 7, "%.3f", r->time_ms_min);
		t_set(row, 8, "%.3f", r->time_ms_max);
		t_set(row, 9, "%.3f", spread_of(r));
		if (probed && r->sm_clock_mhz > 0) /* lowest – median of the timed launches */
			t_set(row, 10, "%.0f–%.0f", r->sm_clock_mhz_min, r->sm_clock_mhz);
		else if (probed)
			t_set(row, 10, "–");
	}
	char shown[64] = "";
	if (nf > (size_t)T->nrows)
		snprintf(shown, sizeof(shown), "; the %d widest are shown", T->nrows);
	snprintf(T->note, sizeof(T->note), "%zu of %zu timed records have a median more than %.0f %% above their fastest launch%s%s%s.",
		 nf, timed, (SPREAD_FLAG - 1) * 100, shown,
		 probed ? "; SM clock: the lowest and the median probed before the timed launches (– where not probed)" : "",
		 rd->synthetic ? "; SYNTHETIC FIXTURE VALUES" : "");
	free(flagged);
}

/* The N from which a ladder's clocks are counted as the long-sequence
 * half (the options' N, else 8192: the FA2 sweep's upper half, where the
 * Hopper rungs met the power cap). */
#define CLOCK_SPLIT_N 8192

/* ladder-clocks: per rung of the options' ladder, the median SM clock
 * probed before each record's timed launches, lowest and highest over its
 * records below the split N and from it on (every N and mask the ladder-n
 * figure draws, the same records: ablation_rungs at each N). */
static void build_ladder_clocks(struct dtable *T, const struct rdata *rd, const struct figopts *o)
{
	const int split = o->sel.n > 0 ? o->sel.n : CLOCK_SPLIT_N;
	char k[8];
	if (split % 1024 == 0)
		snprintf(k, sizeof k, "%dk", split / 1024 % 10000);
	else
		snprintf(k, sizeof k, "%d", split % 1000000);
	T->ncols = 7;
	snprintf(T->head[0], sizeof T->head[0], "rung");
	snprintf(T->head[1], sizeof T->head[0], "records");
	snprintf(T->head[2], sizeof T->head[0], "under %s: lowest MHz", k);
	snprintf(T->head[3], sizeof T->head[0], "under %s: highest MHz", k);
	snprintf(T->head[4], sizeof T->head[0], "from %s: lowest MHz", k);
	snprintf(T->head[5], sizeof T->head[0], "from %s: highest MHz", k);
	snprintf(T->head[6], sizeof T->head[0], "lowest from %s ÷ under %s", k, k);
	for (int c = 1; c < 7; c++)
		T->right[c] = 1;
	const struct variant_desc *top = ablation_top(o);
	const struct variant_desc *chain[ABLATION_MAX_RUNGS];
	size_t nchain = variant_ladder(top, chain, ABLATION_MAX_RUNGS, NULL, 0, NULL);
	struct rsel base;
	fig_prefill_sel(rd, o, &base);
	base.d = o->sel.d;
	int nv[32];
	size_t nn = top ? rdata_values(rd, top->name, &base, RF_N, nv, 32) : 0;
	for (size_t c = 0; c < nchain; c++) {
		double lo[2] = { 1e300, 1e300 }, hi[2] = { 0, 0 };
		const struct record *low[2] = { NULL, NULL };
		int n = 0, clocked = 0;
		for (size_t i = 0; i < nn; i++)
			for (int causal = 0; causal < 2; causal++) {
				if (o->sel.causal >= 0 && causal != !!o->sel.causal)
					continue;
				struct rsel s = base;
				s.n = nv[i];
				s.causal = causal;
				struct rung g[ABLATION_MAX_RUNGS];
				size_t ng = ablation_rungs(rd, o, &s, g, ABLATION_MAX_RUNGS);
				for (size_t j = 0; j < ng; j++) {
					const struct record *r = g[j].r;
					if (!g[j].ladder || g[j].v != chain[c] || r->error)
						continue;
					n++;
					if (!(r->sm_clock_mhz > 0))
						continue;
					clocked++;
					const int h = nv[i] >= split;
					if (r->sm_clock_mhz < lo[h]) {
						lo[h] = r->sm_clock_mhz;
						low[h] = r;
					}
					hi[h] = fmax(hi[h], r->sm_clock_mhz);
				}
			}
		if (!n)
			continue;
		char (*row)[TCELL] = t_row(T);
		if (!row)
			return;
		/* a quoted cell claims the records of the two lowest clocks */
		T->rec[T->nrows - 1][0] = low[1];
		T->rec[T->nrows - 1][1] = low[0];
		t_set(row, 0, "%s", chain[c]->name);
		t_set(row, 1, "%d of %d", clocked, n);
		for (int h = 0; h < 2; h++) {
			if (low[h]) {
				t_set(row, 2 + 2 * h, "%.0f", lo[h]);
				t_set(row, 3 + 2 * h, "%.0f", hi[h]);
			} else {
				t_set(row, 2 + 2 * h, "–");
				t_set(row, 3 + 2 * h, "–");
			}
		}
		if (low[0] && low[1])
			t_set(row, 6, "%.2f", lo[1] / lo[0]);
		else
			t_set(row, 6, "–");
	}
	char d[160];
	snprintf(T->note, sizeof T->note,
		 "%s, both masks. The median SM clock probed before each record's timed launches (timing.sm_clock_mhz), "
		 "its lowest and highest over the rung's records below N = %d and from it on, every rung at each N from one "
		 "results file; records: those with a probed clock of those drawn; – where none has one.",
		 rsel_describe(&base, d, sizeof d), split);
}

static void build_ablation(struct dtable *T, const struct rdata *rd, const struct figopts *o)
{
	static const char *const h[] = { "rung", "change", "median ms", "spread", "TFLOP/s", "step",
					 "step ÷ spread", "evidence (before → after)" };
	static const int right[] = { 0, 0, 1, 1, 1, 1, 1, 0 };
	t_cols(T, 8, h, right);
	struct rsel s;
	ablation_sel(rd, o, &s);
	struct rung g[8];
	size_t n = ablation_rungs(rd, o, &s, g, 8);
	int spread = 0;
	for (size_t i = 0; i < n; i++) {
		char (*row)[TCELL] = t_row(T);
		if (!row)
			return;
		t_set(row, 0, "%s", g[i].v->name);
		T->rec[T->nrows - 1][0] = g[i].r;
		T->rec[T->nrows - 1][1] = g[i].prev;
		if (g[i].change)
			t_set(row, 1, "+ %s", g[i].change);
		else
			t_set(row, 1, g[i].base ? "baseline (%s)" : "%s", g[i].base ? g[i].v->name : "");
		q_text(rd, g[i].r, "time_ms", NULL, "%.3f", row[2], TCELL);
		double lo, hi;
		int runs = rdata_runs(rd, g[i].r, &lo, &hi);
		if (runs > 1) {
			t_set(row, 3, "%.1f %% (%d runs)", (hi - lo) / lo * 100, runs);
			spread = 1;
		} else {
			t_set(row, 3, "1 run");
		}
		q_text(rd, g[i].r, "tflops", NULL, "%.0f", row[4], TCELL);
		if (g[i].prev) {
			char b[48];
			q_text(rd, g[i].prev, "time_ms", NULL, "%.3f", b, sizeof(b));
			double a, bb;
			enum qunit qu;
			char why[120];
			if (!rdata_quantity(rd, g[i].r, "time_ms", NULL, &a, &qu, why, sizeof(why)) &&
			    !rdata_quantity(rd, g[i].prev, "time_ms", NULL, &bb, &qu, why, sizeof(why)) && a > 0) {
				/* how many spreads the step is: the larger spread of the two rungs;
				 * a step no larger than it is no difference */
				double sp;
				if (rdata_step_within_spread(rd, g[i].r, g[i].prev, &sp))
					t_set(row, 5, "×%.2f%s%s, equal within spread", bb / a, g[i].ladder ? "" : " vs ",
					      g[i].ladder ? "" : ablation_base(o));
				else
					t_set(row, 5, "×%.2f%s%s", bb / a, g[i].ladder ? "" : " vs ", g[i].ladder ? "" : ablation_base(o));
				if (sp > 0)
					t_set(row, 6, "%.1f", fabs(bb / a - 1) / sp);
				else
					t_set(row, 6, "–");
			}
		}
		char e1[300], e2[300];
		ablation_evidence(rd, &g[i], e1, sizeof(e1), e2, sizeof(e2));
		t_set(row, 7, "%s%s%s", e1, e1[0] && e2[0] ? "; " : "", e2);
	}
	if (n && ablation_top(o)) { /* which ladder, at which shape: a document has several (flash1 → flash2 at two shapes, the Hopper rungs) */
		const struct attn_shape *sh = &g[0].r->shape;
		snprintf(T->title, sizeof(T->title), "The %s → %s ladder at B=%d, H=%d, N=%d, d=%d, step by step",
			 ablation_base(o), ablation_top(o)->name, sh->batch, sh->heads, sh->seqlen_kv, sh->head_dim);
	}
	char d[120], layout[200];
	/* "single changes below" only where the table has some (the Hopper ladder has none) */
	int singles = 0;
	for (size_t i = 0; i < n; i++)
		singles += !g[i].ladder && !g[i].base;
	if (singles)
		snprintf(layout, sizeof(layout), "Ladder rungs above, single changes applied to %s below; step = time of the "
			 "rung before (or of %s) / this time.", ablation_base(o), ablation_base(o));
	else
		snprintf(layout, sizeof(layout), "step = time of the rung before / this time.");
	snprintf(T->note, sizeof(T->note), "%s. %s %s", rsel_describe(&s, d, sizeof(d)), layout,
		 spread ? "Every rung from one results file. Spread = (slowest - fastest) / fastest median over the runs of that "
			  "configuration (every results file that measured it and the repeat runs); step ÷ spread = |step - 1| / "
			  "the larger spread of the two rungs (below 1: the step is within the spread)."
			: "Every rung from one results file. One run per rung: no run-to-run spread (give a second run with --repeat).");
}

static void build_decode(struct dtable *T, const struct rdata *rd, const struct figopts *o)
{
	(void)o;
	static const char *const h[] = { "variant", "B", "H / Hkv", "KV length", "median ms", "HBM GB/s", "of copy",
					 "SMs busy", "TFLOP/s", "speed-up" };
	static const int right[] = { 0, 1, 1, 1, 1, 1, 1, 1, 1, 1 };
	t_cols(T, 10, h, right);
	table_quantity_col(T, 5, "bandwidth", NULL);
	int prefill_rows = 0, dh = -1, dd = -1;
	for (size_t i = 0; i < rd->res->nrecords && dh < 0; i++)
		if (rd->res->records[i].shape.phase == PHASE_DECODE) {
			dh = rd->res->records[i].shape.heads;
			dd = rd->res->records[i].shape.head_dim;
		}
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < rd->res->nrecords; i++) {
			const struct record *r = &rd->res->records[i];
			int decode = r->shape.phase == PHASE_DECODE;
			if (pass == 0 && !decode)
				continue;
			/* prefill contrast: records at a decode file's shapes (same heads) */
			if (pass == 1 && (decode || !r->variant || strcmp(r->variant, variant_role(DOC_SUBJECT)) || r->shape.batch != 1 ||
					  r->shape.heads != dh || r->shape.head_dim != dd))
				continue;
			char (*row)[TCELL] = t_row(T);
			if (!row)
				return;
			T->rec[T->nrows - 1][0] = r;
			t_set(row, 0, "%s%s", r->variant, decode ? "" : " (prefill)");
			prefill_rows += !decode;
			t_set(row, 1, "%d", r->shape.batch);
			t_set(row, 2, "%d / %d", r->shape.heads, r->shape.kv_heads);
			t_set(row, 3, "%d", r->shape.seqlen_kv);
			q_text(rd, r, "time_ms", NULL, "%.3f", row[4], TCELL);
			q_text(rd, r, "bandwidth", NULL, "%.0f", row[5], TCELL);
			q_text(rd, r, "sms_busy", NULL, NULL, row[7], TCELL);
			q_text(rd, r, "tflops", NULL, "%.1f", row[8], TCELL);
			if (decode && !strcmp(r->variant, variant_role(DOC_DECODE_SUBJECT)))
				q_text(rd, r, "speedup_vs", variant_role(DOC_DECODE_BASELINE), NULL, row[9], TCELL);
			if (r->error || (r->checked && !r->correct))
				T->bad[T->nrows - 1] = 1;
		}
	}
	/* each row against the probe of its own run: the read-only stream where that run
	 * measured it (decode reads the cache, so a copy, which also writes, is no roof),
	 * else the copy bandwidth; the note lists each run's */
	int any_read = 0, all_read = 1;
	for (int i = 0; i < T->nrows; i++) {
		int read = rdata_run_probe(rd, T->rec[i][0], 1) > 0;
		any_read |= read;
		all_read &= read;
	}
	snprintf(T->head[6], sizeof(T->head[6]), "%s", any_read ? "of read roof" : "of copy");
	if (all_read || !any_read) /* a mixed column is of two quantities, each cell says which */
		table_quantity_col(T, 6, any_read ? "read_pct" : "copy_pct", NULL);
	char runs[400] = "";
	int seen[RINPUTS_MAX] = { 0 };
	for (int i = 0; i < T->nrows; i++) {
		const struct record *r = T->rec[i][0];
		int read = rdata_run_probe(rd, r, 1) > 0;
		q_text(rd, r, read ? "read_pct" : "copy_pct", NULL, "%.0f", T->cell[i][6], TCELL);
		if (strcmp(T->cell[i][6], "–"))
			strncat(T->cell[i][6], any_read && !read ? " % of copy" : " %", TCELL - strlen(T->cell[i][6]) - 1);
		int run = rdata_origin(rd, r);
		if (run < 0 || run >= RINPUTS_MAX || seen[run]++)
			continue;
		double cp = rdata_run_probe(rd, r, 0), rp = rdata_run_probe(rd, r, 1);
		size_t l = strlen(runs);
		char v[64];
		if (rp > 0)
			snprintf(v, sizeof(v), "read %.0f GB/s, copy %.0f GB/s", rp, cp);
		else if (cp > 0)
			snprintf(v, sizeof(v), any_read ? "copy %.0f GB/s" : "%.0f GB/s", cp);
		else
			snprintf(v, sizeof(v), "no probe");
		snprintf(runs + l, sizeof(runs) - l, "%s%s: %s", l ? "; " : "", rdata_record_file(rd, r), v);
	}
	const struct gpu_info *g = &rd->res->header.gpu;
	const char *base = variant_role(DOC_DECODE_BASELINE);
	snprintf(T->note, sizeof(T->note), "Query length 1 per sequence (decode) against a KV cache; HBM GB/s = DRAM bytes read + "
		 "written / median time; %s measured in the record's own run (%s%s); SMs busy = blocks of the "
		 "longest kernel, at most %d; speed-up = %s time / %s time at the same shape (– where %s was not run, e.g. "
		 "Hkv < H).%s%s%s",
		 any_read ? "of read roof = that / the read-only stream (where its run measured none: % of copy, the "
			    "device-to-device copy)" : "of copy = that / the device-to-device copy bandwidth",
		 runs, any_read ? "" : "; a copy itself reads and writes", g->hw.sm_count, base,
		 variant_role(DOC_DECODE_SUBJECT), base, prefill_rows ? " Rows marked (prefill): " : "",
		 prefill_rows ? variant_role(DOC_SUBJECT) : "", prefill_rows ? " on the full prompt at batch 1, for contrast." : "");
}

/* The table kinds: each row its name, what it shows, its caption's first
 * sentence and its builder, so that a new kind is one row and one function.
 * The order is that of --help and --list. */
const struct table_info table_kinds[] = {
	{ "speedup", "time per variant and the speed-ups of {subject}, per (d, causal, N)", "Time per variant and {subject}'s speed-ups", build_speedup },
	{ "conditions", "the GPU, clocks, software and run of the results file", "Conditions of the measurements", build_conditions },
	{ "correctness", "errors against the fp64 reference with their tolerances, per variant", "Correctness against the fp64 reference", build_correctness },
	{ "model", "measured HBM bytes and peak memory against the model, per variant and N", "Measured against the model", build_model },
	{ "memory", "allocations and peak device memory per variant at the focus", "Allocations and peak memory", build_memory },
	{ "variants", "the descriptors: grid, warps, rescale, buffers in HBM", "The variants' descriptors", build_variants },
	{ "launches", "kernel launches at the focus: grid, block, registers, shared memory, occupancy", "Kernel launches", build_launches },
	{ "ablation", "the ablation ladder: time, run-to-run spread, step speed-up and the counters that evidence each step", "The ablation ladder, step by step", build_ablation },
	{ "decode", "every decode record (and the prefill contrast): time, HBM bandwidth against the measured copy, SMs busy", "Decode against prefill, record by record", build_decode },
	{ "decode-paged", "split-KV decode shape by shape: contiguous against paged caches, ragged against equal batches, GQA and query lengths, cache bytes over time against the read-only stream and the data sheet, the page table's bytes and time", "Decode with paged caches and ragged batches, shape by shape", build_decode_paged },
	{ "capture-calls", "the attention calls captured in a program: per implementation, phase, pass and shape, with the verdict", "The attention calls found", capture_table_calls },
	{ "capture-compare", "captured forward calls beside attnprof's {conventional} and {subject} at the same shapes", "Captured implementations beside attnprof's references", capture_table_compare },
	{ "capture-missing", "the captured shapes without reference records, and the spec that records them", "References missing at the captured shapes", capture_table_missing },
	{ "tensor", "every prefill series at the focus: TFLOP/s, the share of the measured tensor rate, tensor-pipe activity", "Tensor-pipe use per variant", build_tensor },
	{ "spread", "the timed records whose median is more than 3 % above their fastest launch: median, fastest, slowest, the probed SM clock", "Timed records with a wide spread", build_spread },
	{ "sol", "speed of light of each variant's longest kernel at the focus: its share of the measured DRAM bandwidth and the tensor pipe's activity, the call's share of the measured tensor rate", "Speed of light per variant", build_sol },
	{ "stalls", "the warp states per kernel at the focus: issuing, and the share of active warp-cycles stalled for each main reason", "Warp states per kernel", build_stalls },
	{ "ladder-clocks", "per rung of a ladder (variant: its top), the probed SM clock of its records below N = 8k and from it on: where the power cap lowered it", "SM clocks of the ladder's rungs below and above N = 8k", build_ladder_clocks },
	{ "dq-traffic", "the backward's dQ reductions in the L2: the model's Br·d fp32 per tile pair against the reduction sectors measured", "dQ reduction traffic of the backward", build_dq_traffic },
};
const size_t table_kind_count = sizeof table_kinds / sizeof table_kinds[0];

int table_find(const char *name)
{
	for (size_t i = 0; i < table_kind_count; i++)
		if (!strcmp(table_kinds[i].name, name))
			return (int)i;
	return -1;
}

const char *table_nearest(const char *name)
{
	const char *names[sizeof table_kinds / sizeof table_kinds[0]];
	for (size_t i = 0; i < table_kind_count; i++)
		names[i] = table_kinds[i].name;
	return nearest_word(name, names, table_kind_count);
}

static const struct table_info *table_kind(int kind)
{
	return kind >= 0 && (size_t)kind < table_kind_count ? &table_kinds[kind] : NULL;
}

void table_title(const struct rdata *rd, int kind, const struct dtable *T, char *buf, size_t len)
{
	(void)rd;
	if (T && T->title[0]) {
		snprintf(buf, len, "%s", T->title);
		return;
	}
	const struct table_info *k = table_kind(kind);
	variant_role_text(k ? k->title : "table", buf, len);
}

void table_quantity_col(struct dtable *T, int col, const char *q, const char *arg)
{
	if (col >= 0 && col < TCOLS) {
		T->qty[col] = q;
		T->qarg[col] = arg;
	}
}

/* Whether each named row's record has each quantity column's quantity: asked of the
 * records, not read from the cells, so that a cell printing a number for a quantity
 * its record lacks is a finding of the linter (lint.c rule_unmeasured_zero). */
static void table_provenance(struct dtable *T, const struct rdata *rd)
{
	for (int i = 0; i < T->nrows; i++) {
		const struct record *r = T->rec[i][0];
		if (!r)
			continue;
		record_key(r, T->rowkey[i], sizeof(T->rowkey[i]));
		for (int j = 0; j < T->ncols; j++) {
			if (!T->qty[j])
				continue;
			double v;
			enum qunit u;
			char why[200];
			int rc = rdata_quantity(rd, r, T->qty[j], T->qarg[j], &v, &u, why, sizeof(why));
			T->meas[i][j] = !rc && isfinite(v) ? 1 : -1;
		}
	}
}

struct dtable *table_build(const struct rdata *rd, int kind, const struct figopts *o)
{
	struct dtable *T = calloc(1, sizeof(*T));
	if (!T) {
		error("out of memory building a table");
		return NULL;
	}
	T->kind = kind;
	const struct table_info *k = table_kind(kind);
	char ctx[64];
	const char *was = rd->trace ? rd->trace->context : NULL;
	if (rd->trace) {
		snprintf(ctx, sizeof(ctx), "table %s", k ? k->name : "?");
		rd->trace->context = ctx;
	}
	if (k)
		k->build(T, rd, o);
	if (rd->trace)
		rd->trace->context = was;
	table_provenance(T, rd);
	if (T->rows_cut) { /* no silent cap: the note and docmodel's warning say it */
		size_t l = strlen(T->note);
		snprintf(T->note + l, sizeof(T->note) - l, "%sOnly the first %d rows are shown: a table holds at most %d.",
			 l ? " " : "", TROWS, TROWS);
	}
	return T;
}

void table_free(struct dtable *t) { free(t); }
