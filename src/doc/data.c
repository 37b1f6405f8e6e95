/* data.c: record selection, series and quantities; see data.h. */
#include "doc/data.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture/family.h"
#include "capture/verdict.h"
#include "loop_steps.h"
#include "doc/datasheet.h"
#include "metric_sets.h"
#include "model.h"
#include "doc/geom.h"
#include "doc/wsched.h"
#include "util/error.h"
#include "util/yamltree.h"

void rsel_any(struct rsel *s)
{
	s->n = s->nq = s->d = s->causal = s->batch = s->heads = s->kv_heads = -1;
	s->tokens = -1;
	s->hidden = -1;
	s->dtype = RSEL_DTYPE_ANY;
	s->phase = RSEL_PHASE_ANY;
	s->pass = RSEL_PASS_UNSET;
}

enum pass rsel_pass(const struct rsel *s)
{
	return s->pass == RSEL_PASS_UNSET ? PASS_FWD : s->pass;
}

int rsel_match(const struct rsel *s, const struct record *r)
{
	return (s->n < 0 || r->shape.seqlen_kv == s->n) &&
	       (s->nq < 0 || r->shape.seqlen_q == s->nq) &&
	       (s->d < 0 || r->shape.head_dim == s->d) &&
	       (s->causal < 0 || !!r->shape.causal == !!s->causal) &&
	       (s->batch < 0 || r->shape.batch == s->batch) &&
	       (s->heads < 0 || r->shape.heads == s->heads) &&
	       (s->kv_heads < 0 || r->shape.kv_heads == s->kv_heads) &&
	       (s->tokens < 0 || (long long)r->shape.batch * r->shape.seqlen_kv == s->tokens) &&
	       (s->hidden < 0 || r->shape.heads * r->shape.head_dim == s->hidden) &&
	       (s->dtype == RSEL_DTYPE_ANY || r->shape.dtype == s->dtype) &&
	       (s->phase == RSEL_PHASE_ANY || r->shape.phase == s->phase) &&
	       r->shape.pass == rsel_pass(s);
}

const char *rsel_describe(const struct rsel *s, char *buf, size_t len)
{
	size_t u = 0;
	buf[0] = '\0';
#define ADD(...) do { int w_ = snprintf(buf + u, len - u, __VA_ARGS__); \
	if (w_ > 0 && (size_t)w_ < len - u) u += (size_t)w_; } while (0)
	if (s->phase != RSEL_PHASE_ANY) ADD("%s%s", u ? ", " : "", phase_name(s->phase));
	if (rsel_pass(s) != PASS_FWD) ADD("%s%s", u ? ", " : "", pass_name(s->pass));
	if (s->batch >= 0) ADD("%sB=%d", u ? ", " : "", s->batch);
	if (s->heads >= 0) ADD("%sH=%d", u ? ", " : "", s->heads);
	if (s->kv_heads >= 0) ADD("%sHkv=%d", u ? ", " : "", s->kv_heads);
	if (s->tokens >= 0) ADD("%sB·N=%lld", u ? ", " : "", s->tokens);
	if (s->hidden >= 0) ADD("%sH·d=%d", u ? ", " : "", s->hidden);
	if (s->nq >= 0) ADD("%sNq=%d", u ? ", " : "", s->nq);
	if (s->n >= 0) ADD("%sN=%d", u ? ", " : "", s->n);
	if (s->d >= 0) ADD("%sd=%d", u ? ", " : "", s->d);
	if (s->causal >= 0) ADD("%s%s", u ? ", " : "", s->causal ? "causal" : "non-causal");
	if (s->dtype != RSEL_DTYPE_ANY) ADD("%s%s", u ? ", " : "", dtype_name(s->dtype));
#undef ADD
	return buf;
}

int usable(double v) { return isfinite(v) && v > 0; }

void records_by_kv_len(const struct record **r, int n)
{
	for (int a = 0; a < n; a++)
		for (int b = a + 1; b < n; b++)
			if (r[b]->shape.seqlen_kv < r[a]->shape.seqlen_kv) {
				const struct record *t = r[a];
				r[a] = r[b];
				r[b] = t;
			}
}

double record_metric_or_nan(const struct record *rec, const char *name)
{
	const double *v = record_metric(rec, name);
	if (v && isfinite(*v))
		return *v;
	/* totals absent but launches present: combine them as the totals would */
	double c;
	return !record_launches_metric(rec, name, &c) && isfinite(c) ? c : NAN;
}

double record_beyond_inputs(const struct record *r)
{
	/* a captured call: its footprint, else its peak; -1 (drawn "–") where the helper measured neither */
	if (r->capture)
		return r->capture->footprint_bytes >= 0 ? r->capture->footprint_bytes
		       : r->peak_bytes > 0 ? (double)r->peak_bytes : -1;
	const double *q = kvlist_get(&r->allocs, "Q"), *k = kvlist_get(&r->allocs, "K"), *v = kvlist_get(&r->allocs, "V");
	if (!q || !k || !v || !r->peak_bytes)
		return -1;
	return (double)r->peak_bytes - *q - *k - *v;
}

double record_hbm_bytes(const struct record *rec)
{
	double r = record_metric_or_nan(rec, M_DRAM_READ), w = record_metric_or_nan(rec, M_DRAM_WRITE);
	if (!isfinite(r) || !isfinite(w))
		return -1;
	return r + w;
}

/* The shape family (B·N, H·d) and dtype of most prefill records: the sweep a
 * document is about (fa2-paper's 16k tokens, H·d = 2048), so that a value
 * stated by N, d and mask names one record; ties go to more tokens. */
static void focus_family(struct rdata *rd)
{
	struct fam { long long tokens; int hidden, count; } f[64];
	size_t nf = 0;
	for (size_t i = 0; i < rd->res->nrecords; i++) {
		const struct record *r = &rd->res->records[i];
		if (record_captured(r) || r->shape.phase != PHASE_PREFILL)
			continue;
		long long t = (long long)r->shape.batch * r->shape.seqlen_kv;
		int h = r->shape.heads * r->shape.head_dim;
		size_t j;
		for (j = 0; j < nf && (f[j].tokens != t || f[j].hidden != h); j++)
			;
		if (j == nf) {
			if (nf == sizeof(f) / sizeof(*f))
				continue;
			f[nf++] = (struct fam){ t, h, 0 };
		}
		f[j].count++;
	}
	size_t best = 0;
	for (size_t j = 1; j < nf; j++)
		if (f[j].count > f[best].count || (f[j].count == f[best].count &&
		    (f[j].tokens > f[best].tokens || (f[j].tokens == f[best].tokens && f[j].hidden > f[best].hidden))))
			best = j;
	if (nf) {
		rd->focus.tokens = f[best].tokens;
		rd->focus.hidden = f[best].hidden;
	}
	/* and the dtype of most prefill records (fp16 before bf16 on a tie) */
	int n16 = 0, n_bf = 0;
	for (size_t i = 0; i < rd->res->nrecords; i++) {
		const struct record *r = &rd->res->records[i];
		if (record_captured(r) || r->shape.phase != PHASE_PREFILL)
			continue;
		n16 += r->shape.dtype == DTYPE_FP16;
		n_bf += r->shape.dtype == DTYPE_BF16;
	}
	if (n16 || n_bf)
		rd->focus.dtype = n_bf > n16 ? DTYPE_BF16 : DTYPE_FP16;
}

void rdata_init(struct rdata *rd, const struct results *res, const char *path)
{
	memset(rd, 0, sizeof(*rd));
	rd->res = res;
	rd->path = path;
	const char *notes = res->header.notes;
	rd->synthetic = notes && (strstr(notes, "synthetic") || strstr(notes, "not a measurement"));
	for (size_t i = 0; i < res->nrecords; i++) {
		const struct record *r = &res->records[i];
		if (r->source && strcmp(r->source, "attnprof"))
			continue;
		if (r->metrics_status == METRICS_OK && (r->totals.n || r->nlaunches))
			rd->with_metrics++;
		else {
			rd->without_metrics++;
			if (!rd->metrics_reason && r->metrics_reason)
				rd->metrics_reason = r->metrics_reason;
		}
	}
	rsel_any(&rd->focus);
	rd->focus.phase = PHASE_PREFILL;
	focus_family(rd);
	struct rsel pre;
	rsel_any(&pre);
	pre.phase = PHASE_PREFILL;
	pre.tokens = rd->focus.tokens;
	pre.hidden = rd->focus.hidden;
	int vals[64];
	size_t nd = rdata_values(rd, NULL, &pre, RF_D, vals, 64);
	rd->focus.d = nd ? vals[nd - 1] : -1;
	for (size_t i = 0; i < nd; i++)
		if (vals[i] == 128)
			rd->focus.d = 128;
	pre.d = rd->focus.d;
	size_t nc = rdata_values(rd, NULL, &pre, RF_CAUSAL, vals, 64);
	rd->focus.causal = nc ? vals[0] : 0;
	pre.causal = rd->focus.causal;
	size_t nn = rdata_values(rd, NULL, &pre, RF_N, vals, 64);
	rd->focus.n = -1;
	double best = 1e300;
	for (size_t i = 0; i < nn; i++) {
		double dist = fabs(log((double)vals[i] / 4096.0));
		if (dist < best - 1e-9) {
			best = dist;
			rd->focus.n = vals[i];
		}
	}
}

const char *record_series(const struct record *rec, char *buf, size_t len)
{
	if (!rec->source || !strcmp(rec->source, "attnprof"))
		snprintf(buf, len, "%s", rec->variant ? rec->variant : "?");
	else
		snprintf(buf, len, "%s:%s", rec->source, rec->variant ? rec->variant : "?");
	return buf;
}

int rdata_resolve(const struct rdata *rd, const char *name, char *key, size_t len)
{
	char k[SERIES_KEY];
	int alias = !strcmp(name, "sdpa") || !strcmp(name, "reference") || !strcmp(name, "ref");
	for (size_t i = 0; i < rd->res->nrecords; i++) {
		const struct record *r = &rd->res->records[i];
		record_series(r, k, sizeof(k));
		int ref = r->source && strcmp(r->source, "attnprof") && !record_captured(r);
		if (!strcmp(k, name) || (alias && ref && (!strcmp(name, "reference") || !strcmp(name, "ref") ||
							  strstr(r->source, "sdpa")))) {
			snprintf(key, len, "%s", k);
			return 0;
		}
	}
	if (variant_find(name) || strchr(name, ':')) {
		snprintf(key, len, "%s", name);
		return 0;
	}
	if (alias) { /* no reference series measured: valid name, no records */
		snprintf(key, len, "pytorch-sdpa:FLASH_ATTENTION");
		return 0;
	}
	return -1;
}

size_t rdata_metric_records(const struct rdata *rd, const struct rsel *sel, const char *metric,
			    char keys[][SERIES_KEY], const struct record **recs, size_t max)
{
	const size_t nr = rd->res->nrecords;
	if (!keys) { /* count them all: rows are distinct series, each from a record (twice over at most) */
		char (*kk)[SERIES_KEY] = malloc((2 * nr + 1) * sizeof(*kk));
		const struct record **rr = malloc((2 * nr + 1) * sizeof(*rr));
		size_t n = kk && rr ? rdata_metric_records(rd, sel, metric, kk, rr, 2 * nr + 1) : 0;
		free(kk);
		free(rr);
		return n;
	}
	/* every series of sel (at most one per record), so none is left unlooked-at */
	char (*k)[SERIES_KEY] = malloc((nr + 1) * sizeof(*k));
	size_t n = 0, ns = k ? rdata_series(rd, sel, SERIES_ALL, k, nr + 1) : 0;
	for (size_t i = 0; i < ns && n < max; i++) {
		const struct record *r = rdata_find(rd, k[i], sel);
		if (r && !r->error && record_metric(r, metric)) {
			memcpy(keys[n], k[i], SERIES_KEY);
			recs[n++] = r;
		}
	}
	free(k);
	for (size_t i = 0; i < nr && n < max; i++) {
		const struct record *r = &rd->res->records[i];
		char key[SERIES_KEY];
		if (!record_captured(r) || r->error || !rsel_match(sel, r) || !record_metric(r, metric))
			continue;
		record_series(r, key, sizeof key);
		size_t j;
		for (j = 0; j < n && strcmp(keys[j], key); j++)
			;
		if (j < n)
			continue;
		memcpy(keys[n], key, SERIES_KEY);
		recs[n++] = r;
	}
	return n;
}

const char *series_label(const char *key, char *buf, size_t len)
{
	const char *colon = strchr(key, ':');
	if (!colon)
		snprintf(buf, len, "%s", key);
	else if (!strncmp(key, "pytorch-sdpa:", 13))
		snprintf(buf, len, "SDPA %s", colon + 1);
	else
		snprintf(buf, len, "%.*s %s", (int)(colon - key), key, colon + 1);
	return buf;
}

/* The records a lookup of series key reads: the key's own (rd->by_series),
 * else every record (*pos NULL); record i of the set is
 * res->records[pos ? pos[i] : i]. */
static size_t lookup_set(const struct rdata *rd, const char *key, const size_t **pos)
{
	size_t n;
	if (rd->by_series && key) {
		*pos = series_index_get(rd->by_series, key, &n);
		return n;
	}
	*pos = NULL;
	return rd->res->nrecords;
}

const struct record *rdata_find_any(const struct rdata *rd, const char *key, const struct rsel *sel)
{
	const struct record *failed = NULL;
	char k[SERIES_KEY];
	const size_t *pos;
	size_t n = lookup_set(rd, key, &pos);
	for (size_t i = 0; i < n; i++) {
		const struct record *r = &rd->res->records[pos ? pos[i] : i];
		if (!rsel_match(sel, r) || strcmp(record_series(r, k, sizeof(k)), key))
			continue;
		if (!r->error)
			return r;
		if (!failed)
			failed = r;
	}
	return failed;
}

/* the header's SM count, or the H200's when the file has none: see data.h */
int rdata_sm_count(const struct rdata *rd)
{
	return sm_count_or_default(rd->res->header.gpu.hw.sm_count);
}

/* which file a record came from (inputs.c merged several): see data.h */
int rdata_origin(const struct rdata *rd, const struct record *rec)
{
	const struct results *sets[2] = { rd->res, rd->others };
	const int *orig[2] = { rd->origin, rd->others_origin };
	for (int k = 0; k < 2; k++)
		if (sets[k] && orig[k] && rec >= sets[k]->records && rec < sets[k]->records + sets[k]->nrecords)
			return orig[k][rec - sets[k]->records];
	return 0;
}

double rdata_run_probe(const struct rdata *rd, const struct record *rec, int read)
{
	const double *v = read ? rd->run_read_gbs : rd->run_copy_gbs;
	int run = rdata_origin(rd, rec);
	if (v && run >= 0 && run < rd->nruns)
		return v[run] > 0 ? v[run] : 0;
	const struct gpu_info *g = &rd->res->header.gpu;
	double x = read ? g->ceil.hbm_read_gbs : g->copy_gbs;
	return x > 0 ? x : 0;
}

const char *rdata_record_file(const struct rdata *rd, const struct record *rec)
{
	int run = rdata_origin(rd, rec);
	if (rd->run_names && run >= 0 && run < rd->nruns)
		return rd->run_names[run];
	const char *sl = strrchr(rd->path, '/');
	return sl ? sl + 1 : rd->path;
}

const struct record *rdata_find_run(const struct rdata *rd, const char *key, const struct rsel *sel, int run)
{
	const struct record *r = rdata_find(rd, key, sel);
	if (!r || rdata_origin(rd, r) == run || !rd->others)
		return r && rdata_origin(rd, r) == run ? r : NULL;
	/* that file's own record of the same configuration */
	char k[256], k2[256];
	record_key(r, k, sizeof(k));
	for (size_t i = 0; i < rd->others->nrecords; i++) {
		const struct record *o = &rd->others->records[i];
		if (rd->others_origin[i] != run)
			continue;
		record_key(o, k2, sizeof(k2));
		if (!strcmp(k, k2))
			return o;
	}
	return NULL;
}

/* Keep r in s unless it is there already. */
static void rrecs_add(struct rrecs *s, const struct record *r)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->r[i] == r)
			return;
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 32;
		const struct record **p = realloc(s->r, cap * sizeof(*p));
		if (!p) {
			s->full = 1;
			return;
		}
		s->r = p;
		s->cap = cap;
	}
	s->r[s->n++] = r;
}

static void trace_line(const struct rdata *rd, const char *what, const char *key, const struct rsel *sel,
		       const struct record *r, const char *also)
{
	struct rtrace *t = rd->trace;
	if (t && r) { /* the run it came from: a page states the days of its records' runs */
		int run = rdata_origin(rd, r);
		if (run >= 0 && run < 32)
			t->runs |= 1u << run;
	}
	if (t && r && t->seen)
		rrecs_add(t->seen, r);
	if (!t || !t->f)
		return;
	char rk[256] = "-";
	if (r)
		record_key(r, rk, sizeof(rk));
	/* the stated selection as fields: -1 is "any" (tests/records-check.py reads these) */
	fprintf((FILE *)t->f, "%s\t%s\t%s\tN=%d Nq=%d d=%d causal=%d B=%d H=%d Hkv=%d BN=%lld Hd=%d dtype=%s phase=%s pass=%s"
		"\t%s\t%s\t%s\n", what, t->context ? t->context : "-", key, sel->n, sel->nq, sel->d, sel->causal,
		sel->batch, sel->heads, sel->kv_heads, sel->tokens, sel->hidden,
		sel->dtype == RSEL_DTYPE_ANY ? "-" : dtype_name(sel->dtype),
		sel->phase == RSEL_PHASE_ANY ? "-" : phase_name(sel->phase), pass_name(rsel_pass(sel)), rk,
		r ? rdata_record_file(rd, r) : "-", also ? also : "-");
}

void rdata_trace_record(const struct rdata *rd, const char *what, const char *key, const struct rsel *sel,
			const struct record *rec)
{
	trace_line(rd, what, key, sel, rec, NULL);
}

/* Two calls of a captured program with one problem identity (record_key
 * tells them apart by process and call only). */
static int same_problem(const struct record *a, const struct record *b)
{
#define SAME_STR(f) (!strcmp(a->f ? a->f : "", b->f ? b->f : ""))
	return SAME_STR(source) && SAME_STR(variant) && a->shape.phase == b->shape.phase && a->shape.dtype == b->shape.dtype &&
	       a->shape.pass == b->shape.pass && a->shape.batch == b->shape.batch && a->shape.heads == b->shape.heads &&
	       a->shape.kv_heads == b->shape.kv_heads && a->shape.seqlen_q == b->shape.seqlen_q &&
	       a->shape.seqlen_kv == b->shape.seqlen_kv && a->shape.head_dim == b->shape.head_dim && !!a->shape.causal == !!b->shape.causal;
#undef SAME_STR
}

const struct record *rdata_find(const struct rdata *rd, const char *key, const struct rsel *sel)
{
	const struct record *pick = NULL, *other = NULL;
	char k[SERIES_KEY];
	/* res holds one record per identity (inputs.c merged duplicates), so a
	 * second match is a second identity: the selection names no one record */
	const size_t *pos;
	size_t n = lookup_set(rd, key, &pos);
	for (size_t i = 0; i < n && !other; i++) {
		const struct record *r = &rd->res->records[pos ? pos[i] : i];
		if (!rsel_match(sel, r) || strcmp(record_series(r, k, sizeof(k)), key))
			continue;
		if (!pick)
			pick = r;
		else if (record_captured(r) && record_captured(pick) && same_problem(pick, r))
			pick = r; /* a program's calls of one identity: its last call, as capreview.h groups them */
		else
			other = r;
	}
	struct rtrace *t = rd->trace;
	if (other) {
		char a[256], b[256];
		record_key(pick, a, sizeof(a));
		record_key(other, b, sizeof(b));
		if (t) {
			if (!t->ambiguous++) {
				char sd[160];
				int w = snprintf(t->first_ambiguous, sizeof(t->first_ambiguous), "%.60s at %.120s%s%.40s: ",
						 key, rsel_describe(sel, sd, sizeof(sd)), t->context ? " in " : "",
						 t->context ? t->context : "");
				if (w > 0 && (size_t)w < sizeof(t->first_ambiguous))
					snprintf(t->first_ambiguous + w, sizeof(t->first_ambiguous) - (size_t)w, "%.70s and %.70s", a, b);
			}
		}
		trace_line(rd, "ambiguous", key, sel, NULL, b);
		return NULL;
	}
	if (t) {
		if (pick)
			t->found++;
		else
			t->missing++;
	}
	trace_line(rd, pick ? "found" : "missing", key, sel, pick, NULL);
	return pick;
}

void rsel_family(struct rsel *s, const struct rdata *rd)
{
	if (s->phase != RSEL_PHASE_ANY && s->phase != PHASE_PREFILL)
		return;
	if (s->batch < 0 && s->tokens < 0)
		s->tokens = rd->focus.tokens;
	if (s->heads < 0 && s->hidden < 0)
		s->hidden = rd->focus.hidden;
	if (s->dtype == RSEL_DTYPE_ANY)
		s->dtype = rd->focus.dtype;
}

static int table_index(const char *key)
{
	for (size_t i = 0; i < variant_count; i++)
		if (!strcmp(variant_table[i]->name, key))
			return (int)i;
	return strchr(key, ':') ? 1000 : 500;
}

int record_captured(const struct record *r)
{
	return r->source && !strcmp(r->source, "capture");
}

void records_resolve(struct results *res, double l2_bytes)
{
	for (size_t i = 0; i < res->nrecords; i++) {
		struct record *r = &res->records[i];
		r->desc = r->variant && (!r->source || !strcmp(r->source, "attnprof")) ? variant_find(r->variant) : NULL;
		r->verdict_matrices = verdict_matrices(r, l2_bytes, &r->verdict_rule);
		r->verdict_elem_bytes = verdict_matrix_elem_bytes(r);
		r->verdict_nn_bytes = verdict_nn_bytes(r);
		r->resolved = 1;
	}
}

const char *record_verdict_of(const struct record *rec, const char *matrix)
{
	return verdict_state(rec->verdict_matrices, rec->shape.pass, matrix);
}

static int series_in(const char *key, const struct record *r, enum series_filter f)
{
	if (record_captured(r))
		return 0; /* captured calls are implementations (capreview.h), not series of the sweep's charts */
	const struct variant_desc *v = strchr(key, ':') ? NULL : variant_find(key);
	int decode = r->shape.phase == PHASE_DECODE;
	switch (f) {
	case SERIES_MAIN:
		if (decode)
			return 0;
		/* the ablation's intermediate rungs have their own chart */
		return !(v && v->ladder_only);
	case SERIES_LADDER:
		return !decode && v && variant_on_ladder(v);
	case SERIES_DECODE:
		return decode;
	default:
		return 1;
	}
}

size_t rdata_series(const struct rdata *rd, const struct rsel *sel, enum series_filter f,
		    char keys[][SERIES_KEY], size_t max)
{
	size_t n = 0;
	char k[SERIES_KEY];
	for (size_t i = 0; i < rd->res->nrecords; i++) {
		const struct record *r = &rd->res->records[i];
		if (!rsel_match(sel, r))
			continue;
		record_series(r, k, sizeof(k));
		if (!series_in(k, r, f))
			continue;
		size_t j;
		for (j = 0; j < n; j++)
			if (!strcmp(keys[j], k))
				break;
		if (j < n || n == max)
			continue;
		/* insertion in table order, stable for equal ranks */
		size_t at = n;
		while (at > 0 && table_index(keys[at - 1]) > table_index(k)) {
			memcpy(keys[at], keys[at - 1], SERIES_KEY);
			at--;
		}
		snprintf(keys[at], SERIES_KEY, "%s", k);
		n++;
	}
	return n;
}

int record_field(const struct record *r, enum rfield f)
{
	switch (f) {
	case RF_N: return r->shape.seqlen_kv;
	case RF_NQ: return r->shape.seqlen_q;
	case RF_D: return r->shape.head_dim;
	case RF_CAUSAL: return !!r->shape.causal;
	case RF_BATCH: return r->shape.batch;
	case RF_HEADS: return r->shape.heads;
	case RF_HKV: return r->shape.kv_heads;
	}
	return 0;
}

size_t rdata_values(const struct rdata *rd, const char *key, const struct rsel *sel,
		    enum rfield f, int *out, size_t max)
{
	size_t n = 0;
	char k[SERIES_KEY];
	const size_t *pos;
	size_t nset = lookup_set(rd, key, &pos);
	for (size_t i = 0; i < nset; i++) {
		const struct record *r = &rd->res->records[pos ? pos[i] : i];
		if (!rsel_match(sel, r) || (key ? strcmp(record_series(r, k, sizeof(k)), key) : record_captured(r)))
			continue;
		int v = record_field(r, f);
		size_t j;
		for (j = 0; j < n && out[j] < v; j++)
			;
		if ((j < n && out[j] == v) || n == max)
			continue;
		memmove(out + j + 1, out + j, (n - j) * sizeof(*out));
		out[j] = v;
		n++;
	}
	return n;
}

int launch_tensor_path(const struct record *r, const struct launch *l, enum tensor_path *path)
{
	*path = PATH_NONE;
	if (record_captured(r)) {
		const struct family_rule *f = l->name ? family_of_kernel(l->name) : NULL;
		return f && (!strcmp(f->role, "fused") || !strcmp(f->role, "gemm"));
	}
	const struct variant_desc *v = r->desc;
	if (!v)
		return 0;
	const struct kernel_desc *k = variant_launch_kernel(v, r->shape.pass, l->name);
	*path = k ? k->path : PATH_NONE;
	return *path != PATH_NONE;
}

int record_smem_beyond_lsu(const struct record *r)
{
	static const char *const seen[] = { M_TENSOR_GMMA, M_SMEM_GMMA_WF, M_SMEM_TMA_BYTES };
	for (size_t k = 0; k < sizeof seen / sizeof seen[0]; k++) {
		const double v = record_metric_or_nan(r, seen[k]);
		if (v > 0)
			return 1;
	}
	for (size_t i = 0; i < r->nlaunches; i++) {
		enum tensor_path p;
		if (launch_tensor_path(r, &r->launches[i], &p) && p == PATH_WGMMA)
			return 1;
	}
	return 0;
}

const struct launch *record_main_launch(const struct record *rec)
{
	const struct launch *best = NULL;
	double bt = -1;
	for (size_t i = 0; i < rec->nlaunches; i++) {
		const double *t = kvlist_get(&rec->launches[i].metrics, M_DURATION);
		double v = t && isfinite(*t) ? *t : 0;
		if (!best || v > bt) {
			best = &rec->launches[i];
			bt = v;
		}
	}
	return best;
}

/* ---- quantities --------------------------------------------------------- */

/* One evaluation of a quantity: what its row's function reads and writes.
 * A function returns Q_CHECK with *out set when the common test decides
 * (a value must be finite, a time or a rate positive), else its own
 * result: 0 with *out set, 1 with why saying what is missing. */
struct qcall {
	const struct rdata *rd;
	const struct record *rec;
	const struct qinfo *qi;
	const char *arg;          /* the argument (".S", ".flash1"), or NULL */
	double *out;
	enum qunit *unit;         /* the row's, unless the function says otherwise */
	char *why;
	size_t whylen;
	int sm;                   /* rdata_sm_count */
	const struct launch *ml;  /* the record's longest kernel, or NULL */
};
#define Q_CHECK 2

#define MISSING(...) do { snprintf(why, whylen, __VA_ARGS__); return 1; } while (0)
#define QMISSING(c, ...) do { snprintf((c)->why, (c)->whylen, __VA_ARGS__); return 1; } while (0)

static int metric_q(const struct rdata *rd, const struct record *rec, const char *m,
		    double *out, char *why, size_t whylen)
{
	double v = record_metric_or_nan(rec, m);
	if (isfinite(v)) {
		*out = v;
		return 0;
	}
	(void)rd;
	if (rec->metrics_status == METRICS_UNAVAILABLE)
		MISSING("no hardware counters (%s)", rec->metrics_reason ? rec->metrics_reason : "unavailable");
	if (rec->metrics_status == METRICS_NOT_REQUESTED)
		MISSING("recorded without hardware counters (metric set none)");
	MISSING("metric %s was not recorded (metric set %s)", m, rec->metric_set ? rec->metric_set : "?");
}

static void tiling_of(const struct record *rec, int sm_count, struct tiling *t, const struct variant_desc **vp)
{
	const struct variant_desc *v = rec->desc;
	memset(t, 0, sizeof(*t));
	if (v)
		v->tiling(&rec->shape, sm_count, t); /* the tiling assumes an H200 where sm_count is 0 */
	*vp = v;
}

const struct record *rdata_other(const struct rdata *rd, const struct record *rec, const char *name, char *why,
				 size_t whylen)
{
	char key[SERIES_KEY];
	if (rdata_resolve(rd, name, key, sizeof(key))) {
		snprintf(why, whylen, "'%s' is not a variant", name);
		return NULL;
	}
	struct rsel s;
	rsel_any(&s);
	s.n = rec->shape.seqlen_kv; s.nq = rec->shape.seqlen_q; s.d = rec->shape.head_dim; s.causal = rec->shape.causal;
	s.batch = rec->shape.batch; s.heads = rec->shape.heads; s.dtype = rec->shape.dtype;
	s.phase = rec->shape.phase;
	s.kv_heads = rec->shape.kv_heads;
	s.pass = rec->shape.pass; /* a backward against the other's backward */
	const struct record *o = rdata_find(rd, key, &s);
	if (!o) {
		char d[128];
		snprintf(why, whylen, "no %s record at %s", key, rsel_describe(&s, d, sizeof(d)));
	}
	return o;
}

/* Another quantity of the same record, into v; its unit into *c->unit. */
static int q_of(struct qcall *c, const char *name, double *v)
{
	return rdata_quantity(c->rd, c->rec, name, NULL, v, c->unit, c->why, c->whylen);
}

static int is_q(const struct qcall *c, const char *name) { return !strcmp(c->qi->name, name); }

/* The rows' functions, in table order. */

static int q_value(struct qcall *c, double v) { *c->out = v; return Q_CHECK; }
static int q_time_ms(struct qcall *c) { return q_value(c, c->rec->time_ms); }
static int q_time_ms_min(struct qcall *c) { return q_value(c, c->rec->time_ms_min); }
static int q_time_ms_max(struct qcall *c) { return q_value(c, c->rec->time_ms_max); }

/* sm_clock_mhz, sm_clock_mhz_min, settle_ms: the timing block's own names */
static int q_timing(struct qcall *c)
{
	const char *s;
	double v = NAN;
	record_scalar(c->rec, "timing", c->qi->name, &s, &v); /* NaN where not measured */
	if (!usable(v))
		QMISSING(c, "%s: not measured for this record (the clock probe and settling date from 2026-12-01)", c->qi->name);
	return q_value(c, v);
}

/* launches: the timed launches a record's median is taken over (a captured
 * call timed by its kernels' durations has none) */
static int q_launches(struct qcall *c)
{
	if (!(c->rec->repetitions > 0) || !(c->rec->time_ms > 0))
		QMISSING(c, "launches: no timed launches in this record");
	return q_value(c, (double)c->rec->repetitions);
}

static int q_tflops(struct qcall *c)
{
	double v = c->rec->tflops;
	if (!usable(v) && usable(c->rec->time_ms)) {
		v = attn_flops(&c->rec->shape) / (c->rec->time_ms * 1e-3) / 1e12;
	}
	return q_value(c, v);
}

static int q_flops(struct qcall *c)
{
	const double *m = kvlist_get(&c->rec->model, "flops");
	if (m && usable(*m))
		return q_value(c, *m);
	/* a block mask (FlexAttention): the blocks computed */
	const double density = c->rec->capture && c->rec->capture->density > 0 ? c->rec->capture->density : 1;
	return q_value(c, density * attn_flops(&c->rec->shape));
}

static int q_peak_bytes(struct qcall *c)
{
	return q_value(c, c->rec->peak_bytes ? (double)c->rec->peak_bytes : NAN);
}

static int q_footprint(struct qcall *c)
{
	const struct record *rec = c->rec;
	const struct variant_desc *vd = rec->desc;
	if (!vd)
		QMISSING(c, "no descriptor for '%s'", rec->variant);
	return q_value(c, (double)variant_footprint(vd, &rec->shape, c->sm));
}

static int q_alloc(struct qcall *c)
{
	const double *a = kvlist_get(&c->rec->allocs, c->arg);
	if (!a)
		QMISSING(c, "no allocation '%s' in the record", c->arg);
	return q_value(c, *a);
}

static int q_alloc_sum(struct qcall *c)
{
	const struct kvlist *a = &c->rec->allocs;
	if (!a->n)
		QMISSING(c, "the run recorded no allocations (a reference series records only its peak)");
	double sum = 0;
	for (size_t i = 0; i < a->n; i++)
		sum += a->items[i].value;
	return q_value(c, sum);
}

static int q_beyond_inputs(struct qcall *c)
{
	double v = record_beyond_inputs(c->rec);
	if (v < 0)
		QMISSING(c, "%s", c->rec->capture ? "the call's footprint and peak were not measured"
						  : "no peak, or no Q, K and V allocations, recorded");
	return q_value(c, v);
}

/* the row's counter, as recorded (hbm_read, l2_bytes, occupancy, …) */
static int q_metric(struct qcall *c)
{
	return metric_q(c->rd, c->rec, c->qi->of, c->out, c->why, c->whylen);
}

static int q_metric_sum(struct qcall *c, const char *a, const char *b, double *v)
{
	double x, y;
	int rc = metric_q(c->rd, c->rec, a, &x, c->why, c->whylen);
	if (!rc)
		rc = metric_q(c->rd, c->rec, b, &y, c->why, c->whylen);
	if (!rc)
		*v = x + y;
	return rc;
}

static int q_hbm_bytes(struct qcall *c)
{
	double v;
	int rc = q_metric_sum(c, M_DRAM_READ, M_DRAM_WRITE, &v);
	return rc ? rc : q_value(c, v);
}

static int q_per_step(struct qcall *c) /* hbm_per_step, l2_per_step */
{
	double b;
	int rc = q_of(c, is_q(c, "hbm_per_step") ? "hbm_bytes" : "l2_bytes", &b);
	*c->unit = U_BYTES;
	if (rc)
		return rc;
	const double *n = kvlist_get(&c->rec->model, "tile_pairs");
	if (!n || !(*n > 0))
		QMISSING(c, "no model tile_pairs in the record");
	return q_value(c, b / *n);
}

static int q_tiles_per_step(struct qcall *c)
{
	struct tiling t;
	const struct variant_desc *vd;
	struct loop_plan p;
	tiling_of(c->rec, c->sm, &t, &vd);
	if (loop_plan_init(&p, vd, &c->rec->shape, &t))
		QMISSING(c, "'%s' at this shape has no non-causal flash loop of steps (src/loop_steps.h)", c->rec->variant);
	return q_value(c, p.total_bytes / (p.blocks * (double)p.steps));
}

static int q_hbm_model(struct qcall *c)
{
	const double *m = kvlist_get(&c->rec->model, "hbm_bytes_min");
	if (!m)
		QMISSING(c, "no model hbm_bytes_min in the record");
	return q_value(c, *m);
}

static int q_hbm_vs_model(struct qcall *c)
{
	double v;
	int rc = q_metric_sum(c, M_DRAM_READ, M_DRAM_WRITE, &v);
	if (rc)
		return rc;
	const double *m = kvlist_get(&c->rec->model, "hbm_bytes_min");
	if (!m || !usable(*m))
		QMISSING(c, "no model hbm_bytes_min in the record");
	return q_value(c, v / *m);
}

static int q_bandwidth(struct qcall *c)
{
	double v;
	int rc = q_metric_sum(c, M_DRAM_READ, M_DRAM_WRITE, &v);
	if (rc)
		return rc;
	if (!usable(c->rec->time_ms))
		QMISSING(c, "no time");
	return q_value(c, v / (c->rec->time_ms * 1e-3) / 1e9);
}

static int q_intensity(struct qcall *c)
{
	double v, f;
	enum qunit u;
	int rc = q_metric_sum(c, M_DRAM_READ, M_DRAM_WRITE, &v);
	if (rc)
		return rc;
	rdata_quantity(c->rd, c->rec, "flops", NULL, &f, &u, c->why, c->whylen);
	return q_value(c, v > 0 ? f / v : NAN);
}

/* quantity as a percentage of ref (a rate of the header), or why there is no ref */
static int q_percent_of(struct qcall *c, const char *quantity, double ref, const char *no_ref)
{
	double x;
	int rc = q_of(c, quantity, &x);
	*c->unit = U_PCT;
	if (rc)
		return rc;
	if (!(ref > 0))
		QMISSING(c, "%s", no_ref);
	return q_value(c, x / ref * 100);
}

/* copy_pct, read_pct, peak_hbm_pct: bandwidth over the copy or read-only stream measured in
 * the record's own run (its results file's header, not another run's), or the data sheet */
static int q_bandwidth_pct(struct qcall *c)
{
	const struct gpu_info *g = &c->rd->res->header.gpu;
	if (is_q(c, "copy_pct"))
		return q_percent_of(c, "bandwidth", rdata_run_probe(c->rd, c->rec, 0),
				    "its run measured no copy bandwidth (gpu.copy_gbs of its results file)");
	if (is_q(c, "read_pct"))
		return q_percent_of(c, "bandwidth", rdata_run_probe(c->rd, c->rec, 1),
				    "its run measured no read-only stream (gpu.ceilings.hbm_read_gbs of its results file)");
	return q_percent_of(c, "bandwidth", g->peak_hbm_gbs, "the header has no data-sheet bandwidth (gpu.peak_hbm_gbs)");
}

/* copy_gbs, read_gbs: the probe itself, of the record's own run */
static int q_run_probe(struct qcall *c)
{
	int read = is_q(c, "read_gbs");
	double v = rdata_run_probe(c->rd, c->rec, read);
	if (!(v > 0))
		QMISSING(c, "%s", read ? "its run measured no read-only stream (gpu.ceilings.hbm_read_gbs of its results file)"
				       : "its run measured no copy bandwidth (gpu.copy_gbs of its results file)");
	return q_value(c, v);
}

static int q_sms_busy(struct qcall *c) /* sms_busy, sms_busy_pct */
{
	double b;
	int rc = q_of(c, "blocks", &b);
	*c->unit = c->qi->unit;
	if (rc)
		return rc;
	double v = b < c->sm ? b : c->sm;
	return q_value(c, is_q(c, "sms_busy_pct") ? v / c->sm * 100 : v);
}

static int q_fp32_inst(struct qcall *c)
{
	double a, b, f;
	int rc = metric_q(c->rd, c->rec, M_FADD, &a, c->why, c->whylen);
	if (!rc) rc = metric_q(c->rd, c->rec, M_FMUL, &b, c->why, c->whylen);
	if (!rc) rc = metric_q(c->rd, c->rec, M_FFMA, &f, c->why, c->whylen);
	return rc ? rc : q_value(c, a + b + f);
}

static int q_spread(struct qcall *c) /* spread, runs */
{
	double lo, hi, v;
	int runs = rdata_runs(c->rd, c->rec, &lo, &hi);
	if (is_q(c, "runs"))
		v = runs;
	else if (runs < 2)
		QMISSING(c, "no repeat run of this configuration (give one with --repeat)");
	else
		v = (hi - lo) / lo * 100;
	*c->out = v;
	return 0;
}

static int q_bank_conflicts(struct qcall *c)
{
	double v;
	int rc = q_metric_sum(c, M_SMEM_LD_CONF, M_SMEM_ST_CONF, &v);
	return rc ? rc : q_value(c, v);
}

/* tensor_peak_pct, tensor_datasheet_pct: TFLOP/s over the measured dense rate, or the data sheet's peak */
static int q_tensor_pct(struct qcall *c)
{
	const struct gpu_info *g = &c->rd->res->header.gpu;
	if (is_q(c, "tensor_peak_pct"))
		return q_percent_of(c, "tflops", g->tensor_tflops,
				    "the header has no measured tensor rate (gpu.tensor_tflops)");
	return q_percent_of(c, "tflops", datasheet_tensor_tflops(g->name, NULL),
			    "no data-sheet tensor peak is known for this GPU (src/doc/datasheet.c)");
}

/* occupancy_theoretical, registers, smem_per_block: the longest kernel's launch record */
static int q_launch(struct qcall *c)
{
	const struct launch *ml = c->ml;
	if (!ml)
		QMISSING(c, "no kernel launches recorded (%s)",
			 c->rec->metrics_reason ? c->rec->metrics_reason : "no Activity records");
	return q_value(c, is_q(c, "registers") ? ml->registers
			: is_q(c, "smem_per_block") ? ml->static_smem + ml->dynamic_smem
			: ml->theoretical_occupancy * 100);
}

/* blocks, waves, idle_sms: from the longest kernel's launch, else the record's model */
static int q_waves(struct qcall *c)
{
	const char *q = c->qi->name;
	const double *m = kvlist_get(&c->rec->model, is_q(c, "idle_sms") ? "idle_sms_last_wave" : q);
	double v = NAN;
	if (c->ml) {
		const struct launch *ml = c->ml;
		long long blocks = (long long)ml->grid[0] * ml->grid[1] * ml->grid[2];
		int warps = (ml->block[0] * ml->block[1] * ml->block[2] + 31) / 32;
		int per = blocks_per_sm_from_occupancy(ml->theoretical_occupancy, warps, 64);
		struct wave_plan wp;
		if (!wave_plan(&wp, blocks, c->sm, per))
			v = is_q(c, "blocks") ? (double)blocks : is_q(c, "waves") ? wp.waves_exact : wp.idle_sms_last;
	}
	if (!isfinite(v) && m)
		v = *m;
	if (!isfinite(v))
		QMISSING(c, "no launch or model data for %s", q);
	return q_value(c, v);
}

/* max_abs_err … correct: the comparison with the reference */
static int q_check(struct qcall *c)
{
	const struct record *rec = c->rec;
	if (!rec->checked)
		QMISSING(c, "not checked against the reference");
	double v = is_q(c, "max_abs_err") ? rec->max_abs_err : is_q(c, "rel_l2_err") ? rec->rel_l2_err
		 : is_q(c, "tol_max_abs") ? rec->tol_max_abs : is_q(c, "tol_rel_l2") ? rec->tol_rel_l2
		 : is_q(c, "rows_checked") ? rec->rows_checked : rec->correct;
	*c->out = v;
	return isfinite(v) ? 0 : (snprintf(c->why, c->whylen, "%s not recorded", c->qi->name), 1);
}

/* grad_*.dQ|dK|dV: one gradient's own comparison (correctness.gradients) */
static int q_grad(struct qcall *c)
{
	int g;
	for (g = 0; g < RECORD_GRADS; g++)
		if (!strcmp(c->arg, record_grad_names[g]))
			break;
	if (g == RECORD_GRADS)
		QMISSING(c, "'%s' is not a gradient (dQ, dK or dV)", c->arg);
	const struct grad_error *e = &c->rec->grad[g];
	if (!e->checked)
		QMISSING(c, "%s was not checked on its own in this record (a forward, or recorded before per-gradient errors)", c->arg);
	return q_value(c, is_q(c, "grad_max_abs_err") ? e->max_abs_err : is_q(c, "grad_rel_l2_err") ? e->rel_l2_err
			  : is_q(c, "grad_tol_max_abs") ? e->tol_max_abs : e->tol_rel_l2);
}

/* stall_pct.REASON: warp-cycles stalled for it over warp-cycles active, in % */
static int q_stall(struct qcall *c)
{
	char m[160];
	size_t i;
	for (i = 0; i < metric_stall_reason_count; i++)
		if (!strcmp(c->arg, metric_stall_reasons[i].name))
			break;
	if (i == metric_stall_reason_count)
		QMISSING(c, "'%s' is not a stall reason of the stalls set (docs/metrics.md lists them)", c->arg);
	snprintf(m, sizeof m, M_STALL("%s"), c->arg);
	double stalled, active;
	if (metric_q(c->rd, c->rec, m, &stalled, c->why, c->whylen) ||
	    metric_q(c->rd, c->rec, M_WARPS_ACTIVE, &active, c->why, c->whylen))
		return 1;
	if (!(active > 0))
		QMISSING(c, "no active warp-cycles recorded");
	return q_value(c, 100 * stalled / active);
}

/* stall_top_pct: the largest share of a reason that stalls (all but "selected", which issues) */
static int q_stall_top(struct qcall *c)
{
	double best = NAN;
	for (size_t i = 0; i < metric_stall_reason_count; i++) {
		double v;
		enum qunit u;
		if (!strcmp(metric_stall_reasons[i].name, "selected") ||
		    rdata_quantity(c->rd, c->rec, "stall_pct", metric_stall_reasons[i].name, &v, &u, c->why, c->whylen))
			continue;
		best = isfinite(best) && best >= v ? best : v;
	}
	if (!isfinite(best))
		QMISSING(c, "no stall reasons recorded (the stalls set)");
	return q_value(c, best);
}

/* dq_red_bytes, dq_red_model, dq_red_ratio: the backward's dQ reductions
 * in the L2, counted (sectors) and predicted (Br·d fp32 per tile pair) */
static int q_dq_red(struct qcall *c)
{
	double measured = NAN, predicted = NAN;
	if (!is_q(c, "dq_red_model")) {
		double sect;
		if (metric_q(c->rd, c->rec, M_L2_RED_SECT, &sect, c->why, c->whylen))
			return 1;
		measured = sect * M_L2_SECTOR_BYTES;
	}
	if (!is_q(c, "dq_red_bytes")) {
		const struct variant_desc *v;
		struct attn_shape s;
		struct gpu_model g;
		struct model m;
		int quiet = error_quiet(1);
		int bad = model_shape_of_record(c->rec, &v, &s);
		if (!bad) {
			gpu_model_from_info(&g, &c->rd->res->header.gpu);
			bad = model_predict(v, &s, &g, &m);
		}
		error_quiet(quiet);
		if (bad || !(m.dq_reduce_bytes > 0))
			QMISSING(c, "no dQ reduction in the model of '%s' %s", c->rec->variant, record_pass(c->rec));
		predicted = m.dq_reduce_bytes;
	}
	return q_value(c, is_q(c, "dq_red_bytes") ? measured : is_q(c, "dq_red_model") ? predicted : measured / predicted);
}

static int q_N(struct qcall *c) { return q_value(c, c->rec->shape.seqlen_kv); }
static int q_Nq(struct qcall *c) { return q_value(c, c->rec->shape.seqlen_q); }
static int q_d(struct qcall *c) { return q_value(c, c->rec->shape.head_dim); }
static int q_B(struct qcall *c) { return q_value(c, c->rec->shape.batch); }
static int q_H(struct qcall *c) { return q_value(c, c->rec->shape.heads); }

/* Br, Bc, warps, splits: the descriptor's tiling at the record's shape */
static int q_tiling(struct qcall *c)
{
	struct tiling t;
	const struct variant_desc *vd;
	tiling_of(c->rec, c->sm, &t, &vd);
	if (!vd)
		QMISSING(c, "no descriptor for '%s'", c->rec->variant);
	return q_value(c, is_q(c, "Br") ? t.block_m : is_q(c, "Bc") ? t.block_n : is_q(c, "warps") ? t.warps : t.splits);
}

/* regs_producer … stage_bytes: a warp-specialised descriptor's CTA (doc/wsched.h) */
static int q_ws(struct qcall *c)
{
	const struct variant_desc *v = c->rec->desc;
	struct ws_partition p;
	if (!v || ws_partition_of(v, &c->rec->shape, c->sm, &p))
		QMISSING(c, "'%s' is not warp-specialised (its descriptor has no ws trait)", c->rec->variant);
	if ((is_q(c, "regs_producer") || is_q(c, "producer_threads")) && !p.producers)
		QMISSING(c, "'%s' has no producer warpgroup", c->rec->variant);
	return q_value(c, is_q(c, "regs_producer") ? p.regs_producer : is_q(c, "regs_consumer") ? p.regs_consumer
			: is_q(c, "producer_threads") ? p.producers * p.warpgroup_threads
			: is_q(c, "consumer_rows") ? p.rows_per_consumer : is_q(c, "stages") ? p.stages
			: (double)p.tile_bytes);
}

/* speedup_vs … hbm_ratio_vs: this record's row quantity against the other series' */
static int q_versus(struct qcall *c)
{
	const char *q = c->qi->name, *sub = c->qi->of;
	const struct record *o = rdata_other(c->rd, c->rec, c->arg, c->why, c->whylen);
	if (!o)
		return 1;
	if (o->error)
		QMISSING(c, "the %s run failed: %s", c->arg, o->error);
	double a, b, v;
	enum qunit u;
	int rc = rdata_quantity(c->rd, c->rec, sub, NULL, &a, &u, c->why, c->whylen);
	if (!rc)
		rc = rdata_quantity(c->rd, o, sub, NULL, &b, &u, c->why, c->whylen);
	if (rc)
		return rc;
	if (!strcmp(q, "speedup_vs")) v = a > 0 ? b / a : NAN;
	else if (!strcmp(q, "tflops_vs")) v = b > 0 ? a / b : NAN;
	else if (!strcmp(q, "hbm_ratio_vs")) v = a > 0 ? b / a : NAN;
	else v = b - a;
	*c->out = v;
	return isfinite(v) ? 0 : (snprintf(c->why, c->whylen, "%s is undefined here", q), 1);
}

static int q_model(struct qcall *c)
{
	const char *arg = c->arg;
	const double *m = kvlist_get(&c->rec->model, arg);
	if (!m)
		QMISSING(c, "no model.%s in the record", arg);
	*c->unit = strstr(arg, "bytes") ? U_BYTES : strstr(arg, "_ms") ? U_MS : !strncmp(arg, "flops", 5) ? U_FLOPS : U_NUM;
	return q_value(c, *m);
}

enum qunit metric_qunit(const char *metric)
{
	/* bytes and shares have formats of their own; any other unit (ns, Hz,
	 * cycles) prints as a count, the template naming the unit */
	enum metric_unit mu = metric_info(metric).unit;
	return mu == MU_BYTES ? U_BYTES : mu == MU_PCT ? U_PCT : U_COUNT;
}

static int q_raw_metric(struct qcall *c)
{
	double v = NAN;
	int rc = metric_q(c->rd, c->rec, c->arg, &v, c->why, c->whylen);
	if (rc)
		return rc;
	*c->unit = metric_qunit(c->arg);
	return q_value(c, v);
}

/* What a template may draw: every quantity with its unit, its argument,
 * what it is and the function that finds it (errors and docs list the names
 * from here). */
const struct qinfo quantity_table[] = {
	{ "time_ms", U_MS, 0, "median time (CUDA events)", q_time_ms },
	{ "time_ms_min", U_MS, 0, "fastest repetition", q_time_ms_min },
	{ "time_ms_max", U_MS, 0, "slowest repetition", q_time_ms_max },
	{ "launches", U_INT, 0, "timed launches the median is taken over (repetitions)", q_launches },
	{ "sm_clock_mhz", U_MHZ, 0, "SM clock probed before each timed launch, median", q_timing },
	{ "sm_clock_mhz_min", U_MHZ, 0, "SM clock probed before each timed launch, lowest", q_timing },
	{ "settle_ms", U_MS, 0, "untimed running before the warm-up until the SM clock settled (timing.settle_ms)", q_timing },
	{ "tflops", U_TFLOPS, 0, "forward TFLOP/s (FlashAttention convention)", q_tflops },
	{ "flops", U_FLOPS, 0, "forward FLOPs 4·B·H·Nq·Nkv·d (halved when causal)", q_flops },
	{ "peak_bytes", U_BYTES, 0, "peak device memory of the run", q_peak_bytes },
	{ "footprint", U_BYTES, 0, "the descriptor's buffers at this shape", q_footprint },
	{ "alloc", U_BYTES, 2, "bytes of one allocation: alloc.S", q_alloc },
	{ "alloc_sum", U_BYTES, 0, "bytes of every allocation the run recorded", q_alloc_sum },
	{ "beyond_inputs", U_BYTES, 0, "device memory beyond Q, K, V: a captured call's footprint (else its peak), "
	  "attnprof's peak minus its Q, K, V allocations", q_beyond_inputs },
	{ "hbm_read", U_BYTES, 0, "DRAM bytes read (" M_DRAM_READ ")", q_metric, M_DRAM_READ },
	{ "hbm_write", U_BYTES, 0, "DRAM bytes written (" M_DRAM_WRITE ")", q_metric, M_DRAM_WRITE },
	{ "hbm_bytes", U_BYTES, 0, "DRAM bytes read + written", q_hbm_bytes },
	{ "l2_bytes", U_BYTES, 0, "L2 traffic (" M_L2_BYTES ")", q_metric, M_L2_BYTES },
	{ "hbm_per_step", U_BYTES, 0, "DRAM bytes read + written per (Q block, K/V block) step: hbm_bytes / model tile_pairs", q_per_step },
	{ "l2_per_step", U_BYTES, 0, "L2 traffic per (Q block, K/V block) step: l2_bytes / model tile_pairs", q_per_step },
	{ "tiles_per_step", U_BYTES, 0, "bytes of the tiles a (Q block, K/V block) step reads and writes, averaged over the non-causal loop (src/loop_steps.h)", q_tiles_per_step },
	{ "hbm_model", U_BYTES, 0, "HBM bytes of the no-cache model (inputs read once, outputs written once, the loop order's round trips; nothing served by the L2)", q_hbm_model },
	{ "hbm_vs_model", U_RATIO, 0, "measured HBM bytes / the no-cache model's", q_hbm_vs_model },
	{ "bandwidth", U_GBS, 0, "HBM bytes / median time", q_bandwidth },
	{ "intensity", U_FLOP_PER_BYTE, 0, "FLOPs per HBM byte (measured)", q_intensity },
	{ "copy_pct", U_PCT, 0, "achieved HBM bandwidth / the device-to-device copy bandwidth measured in the record's own run", q_bandwidth_pct },
	{ "copy_gbs", U_GBS, 0, "the device-to-device copy bandwidth measured in the record's own run (its file's gpu.copy_gbs)", q_run_probe },
	{ "read_pct", U_PCT, 0, "achieved HBM bandwidth / the read-only stream measured in the record's own run", q_bandwidth_pct },
	{ "read_gbs", U_GBS, 0, "the read-only stream measured in the record's own run (its file's gpu.ceilings.hbm_read_gbs)", q_run_probe },
	{ "peak_hbm_pct", U_PCT, 0, "achieved HBM bandwidth / the data-sheet bandwidth (gpu.peak_hbm_gbs: memory clock x bus width)", q_bandwidth_pct },
	{ "sms_busy", U_INT, 0, "SMs given a block by the longest kernel (at most the SM count)", q_sms_busy },
	{ "sms_busy_pct", U_PCT, 0, "SMs busy / the SM count", q_sms_busy },
	{ "xu_inst", U_COUNT, 0, "MUFU (XU pipe) warp instructions: exp2, rcp (" M_MUFU ")", q_metric, M_MUFU },
	{ "fp32_inst", U_COUNT, 0, "non-matmul FP32 thread instructions: FADD + FMUL + FFMA", q_fp32_inst },
	{ "barrier_stalls", U_COUNT, 0, "warp cycles stalled at a barrier (" M_BARRIERS ")", q_metric, M_BARRIERS },
	{ "spread", U_PCT, 0, "run-to-run spread of the median time over this run and its repeats: (slowest - fastest) / fastest", q_spread },
	{ "runs", U_INT, 0, "runs of this configuration: this record and its repeats (--repeat)", q_spread },
	{ "smem_ld_wavefronts", U_COUNT, 0, "shared-memory load wavefronts", q_metric, M_SMEM_LD_WF },
	{ "smem_st_wavefronts", U_COUNT, 0, "shared-memory store wavefronts", q_metric, M_SMEM_ST_WF },
	{ "smem_ld_conflicts", U_COUNT, 0, "shared-memory load bank conflicts", q_metric, M_SMEM_LD_CONF },
	{ "smem_st_conflicts", U_COUNT, 0, "shared-memory store bank conflicts", q_metric, M_SMEM_ST_CONF },
	{ "smem_gmma_wavefronts", U_COUNT, 0, "shared-memory wavefronts of wgmma operand reads (" M_SMEM_GMMA_WF ")", q_metric, M_SMEM_GMMA_WF },
	{ "bank_conflicts", U_COUNT, 0, "load + store bank conflicts", q_bank_conflicts },
	{ "occupancy", U_PCT, 0, "achieved occupancy (active warps / maximum)", q_metric, M_OCC_ACHIEVED },
	{ "occupancy_theoretical", U_PCT, 0, "theoretical occupancy of the longest kernel", q_launch },
	{ "tensor_active", U_PCT, 0, "tensor pipe active", q_metric, M_TENSOR_ACTIVE },
	{ "tensor_peak_pct", U_PCT, 0, "TFLOP/s / the measured dense tensor rate (gpu.tensor_tflops)", q_tensor_pct },
	{ "tensor_datasheet_pct", U_PCT, 0, "TFLOP/s / the data sheet's dense fp16 tensor peak of this GPU (gpu.tensor_datasheet)", q_tensor_pct },
	{ "registers", U_INT, 0, "registers per thread of the longest kernel", q_launch },
	{ "smem_per_block", U_BYTES, 0, "shared memory per block of the longest kernel", q_launch },
	{ "blocks", U_INT, 0, "thread blocks of the longest kernel", q_waves },
	{ "waves", U_NUM, 0, "waves of the longest kernel over the SMs", q_waves },
	{ "idle_sms", U_INT, 0, "SMs idle in the last wave", q_waves },
	{ "max_abs_err", U_NUM, 0, "largest |O - O_ref|", q_check },
	{ "rel_l2_err", U_NUM, 0, "‖O - O_ref‖₂ / ‖O_ref‖₂", q_check },
	{ "tol_max_abs", U_NUM, 0, "tolerance of max_abs_err", q_check },
	{ "tol_rel_l2", U_NUM, 0, "tolerance of rel_l2_err", q_check },
	{ "rows_checked", U_INT, 0, "query rows compared with the reference", q_check },
	{ "correct", U_INT, 0, "1 if within tolerance", q_check },
	{ "grad_max_abs_err", U_NUM, 2, "one gradient's largest |error|: grad_max_abs_err.dQ (dK, dV)", q_grad },
	{ "grad_rel_l2_err", U_NUM, 2, "one gradient's ‖error‖₂ / ‖reference‖₂: grad_rel_l2_err.dK", q_grad },
	{ "grad_tol_max_abs", U_NUM, 2, "one gradient's bound on its largest |error| (a fraction of its largest |reference|)", q_grad },
	{ "grad_tol_rel_l2", U_NUM, 2, "one gradient's bound on its rel. L2 error", q_grad },
	{ "l1_bytes", U_BYTES, 0, "L1/TEX traffic, shared memory included (" M_L1_BYTES ")", q_metric, M_L1_BYTES },
	{ "l1_hit", U_PCT, 0, "L1/TEX sector hit rate (" M_L1_HIT ")", q_metric, M_L1_HIT },
	{ "l2_hit", U_PCT, 0, "L2 sector hit rate (" M_L2_HIT ")", q_metric, M_L2_HIT },
	{ "smem_wavefronts", U_COUNT, 0, "shared-memory wavefronts of the LSU pipe, loads and stores (" M_SMEM_WF ")", q_metric, M_SMEM_WF },
	{ "stall_pct", U_PCT, 2, "warp-cycles stalled for a reason over warp-cycles active: stall_pct.long_scoreboard", q_stall },
	{ "stall_top_pct", U_PCT, 0, "the largest share of active warp-cycles one stall reason holds (issuing, 'selected', left out)", q_stall_top },
	{ "dq_red_bytes", U_BYTES, 0, "bytes reduced in the L2 (" M_L2_RED_SECT " × 32): the flash backward's dQ accumulation", q_dq_red },
	{ "dq_red_model", U_BYTES, 0, "the model's dQ reduction bytes: Br·d fp32 per (Q block, K/V block) pair (kernels/flash_bwd.cu)", q_dq_red },
	{ "dq_red_ratio", U_RATIO, 0, "dq_red_bytes / dq_red_model", q_dq_red },
	{ "N", U_INT, 0, "sequence length (KV length for decode)", q_N, NULL, 1 },
	{ "Nq", U_INT, 0, "query length", q_Nq, NULL, 1 },
	{ "d", U_INT, 0, "head dimension", q_d, NULL, 1 },
	{ "B", U_INT, 0, "batch", q_B, NULL, 1 },
	{ "H", U_INT, 0, "heads", q_H, NULL, 1 },
	{ "Br", U_INT, 0, "query rows per tile (descriptor)", q_tiling },
	{ "Bc", U_INT, 0, "key rows per tile (descriptor)", q_tiling },
	{ "warps", U_INT, 0, "warps per block (descriptor)", q_tiling },
	{ "splits", U_INT, 0, "KV splits (descriptor)", q_tiling },
	{ "regs_producer", U_INT, 0, "registers per thread of the producer warpgroup after setmaxnreg (descriptor)", q_ws },
	{ "regs_consumer", U_INT, 0, "registers per thread of a consumer warpgroup (after setmaxnreg where the rung re-splits; descriptor)", q_ws },
	{ "producer_threads", U_INT, 0, "threads of the producer warpgroup (descriptor)", q_ws },
	{ "consumer_rows", U_INT, 0, "query rows of one consumer warpgroup (descriptor)", q_ws },
	{ "stages", U_INT, 0, "stages of the K/V ring in shared memory (descriptor)", q_ws },
	{ "stage_bytes", U_BYTES, 0, "bytes of one K (or V) stage of the ring (descriptor)", q_ws },
	{ "speedup_vs", U_RATIO, 1, "time of the other series / time of this one", q_versus, "time_ms" },
	{ "tflops_vs", U_RATIO, 1, "TFLOP/s of this series / the other's", q_versus, "tflops" },
	{ "saved_vs", U_BYTES, 1, "footprint of the other series - this one's (descriptor)", q_versus, "footprint" },
	{ "peak_saved_vs", U_BYTES, 1, "peak memory of the other series - this one's (measured)", q_versus, "peak_bytes" },
	{ "hbm_saved_vs", U_BYTES, 1, "HBM bytes of the other series - this one's (measured)", q_versus, "hbm_bytes" },
	{ "hbm_ratio_vs", U_RATIO, 1, "HBM bytes of the other series / this one's", q_versus, "hbm_bytes" },
	{ "model", U_NUM, 2, "a model quantity: model.flops", q_model },
	{ "metric", U_NUM, 2, "a raw CUPTI metric: metric.dram__bytes_read.sum", q_raw_metric },
};
const size_t quantity_count = sizeof(quantity_table) / sizeof(quantity_table[0]);

const struct qinfo *quantity_find(const char *name)
{
	for (size_t i = 0; i < quantity_count; i++)
		if (!strcmp(quantity_table[i].name, name))
			return &quantity_table[i];
	return NULL;
}

int rdata_quantity(const struct rdata *rd, const struct record *rec, const char *q,
		   const char *arg, double *out, enum qunit *unit, char *why, size_t whylen)
{
	const struct qinfo *qi = quantity_find(q);
	if (!qi) {
		const char **names = calloc(quantity_count, sizeof *names);
		for (size_t i = 0; names && i < quantity_count; i++)
			names[i] = quantity_table[i].name;
		const char *near = names ? nearest_word(q, names, quantity_count) : NULL;
		free(names);
		snprintf(why, whylen, "unknown quantity '%s'%s%s%s", q, near ? ": did you mean '" : "",
			 near ? near : "", near ? "'?" : " (docs/templates.md lists them)");
		return -1;
	}
	if (qi->arg && (!arg || !*arg)) {
		snprintf(why, whylen, "'%s' needs an argument: %s.<%s>", q, q, qi->arg == 1 ? "variant" : "name");
		return -1;
	}
	if (!qi->arg && arg) {
		snprintf(why, whylen, "'%s' takes no argument (got '.%s')", q, arg);
		return -1;
	}
	*unit = qi->unit;
	*out = NAN;
	if (rec->error && !qi->of_shape)
		MISSING("the run failed: %s", rec->error);
	struct qcall c = { .rd = rd, .rec = rec, .qi = qi, .arg = arg, .out = out, .unit = unit,
			   .why = why, .whylen = whylen, .sm = rdata_sm_count(rd), .ml = record_main_launch(rec) };
	int rc = qi->value(&c);
	if (rc != Q_CHECK)
		return rc;
	if (!isfinite(*out) || ((*unit == U_MS || *unit == U_TFLOPS) && !(*out > 0))) {
		*out = NAN;
		MISSING("%s was not recorded", q);
	}
	return 0;
}

int fmt_quantity(double v, enum qunit u, const char *spec, char *buf, size_t len)
{
	char num[48];
	if (spec && *spec) {
		if (spec[0] == '%') {
			/* one floating conversion, nothing else: the format is user text */
			/* flags, a width up to 40 and a precision up to 12: a
			 * format is user text, and %.999999999f takes a minute */
			const char *p = spec + 1;
			while (*p && strchr("+- #0", *p))
				p++;
			char *e;
			long width = strtol(p, &e, 10), prec = 0;
			if (e - p > 2 || width > 40)
				return -1;
			p = e;
			if (*p == '.') {
				prec = strtol(++p, &e, 10);
				if (e - p > 2 || prec > 12 || *p == '-' || *p == '+')
					return -1;
				p = e;
			}
			if (!*p || !strchr("fegFEG", *p) || p[1])
				return -1;
			snprintf(buf, len, spec, v);
			return 0;
		}
		if (!strcmp(spec, "bytes")) u = U_BYTES;
		else if (!strcmp(spec, "count")) u = U_COUNT;
		else if (!strcmp(spec, "x")) u = U_RATIO;
		else if (!strcmp(spec, "pct")) u = U_PCT;
		else if (!strcmp(spec, "int")) u = U_INT;
		else if (!strcmp(spec, "num")) u = U_NUM;
		else if (!strcmp(spec, "seqlen")) {
			fmt_seqlen(v, buf, len);
			return 0;
		} else
			return -1;
	}
	switch (u) {
	case U_BYTES: fmt_bytes(v, buf, len); break;
	case U_MS: snprintf(buf, len, "%s ms", fmt_sig(v, 3, num, sizeof(num))); break;
	case U_TFLOPS: snprintf(buf, len, "%s TFLOP/s", v >= 100 ? (snprintf(num, sizeof(num), "%.0f", v), num)
							      : fmt_sig(v, 3, num, sizeof(num))); break;
	case U_RATIO: snprintf(buf, len, "%s×", v >= 100 ? (snprintf(num, sizeof(num), "%.0f", v), num)
						   : v >= 10 ? (snprintf(num, sizeof(num), "%.1f", v), num)
						   : (snprintf(num, sizeof(num), "%.2f", v), num)); break;
	case U_PCT: snprintf(buf, len, "%.1f %%", v); break;
	case U_COUNT: fmt_count(v, buf, len); break;
	case U_GBS: snprintf(buf, len, "%.0f GB/s", v); break;
	case U_FLOP_PER_BYTE: snprintf(buf, len, "%s FLOP/B", fmt_sig(v, 3, num, sizeof(num))); break;
	case U_INT: snprintf(buf, len, "%.0f", v); break;
	case U_FLOPS: snprintf(buf, len, "%s FLOP", fmt_count(v, num, sizeof(num))); break;
	case U_MHZ: snprintf(buf, len, "%.0f MHz", v); break;
	default: fmt_sig(v, 3, buf, len); break;
	}
	return 0;
}

/* ---- captions ------------------------------------------------------------ */

const char *rdata_conditions(const struct rdata *rd, const struct record *const *recs, size_t n,
			     char *buf, size_t len)
{
	const struct gpu_info *g = &rd->res->header.gpu;
	size_t u = 0;
	buf[0] = '\0';
#define ADD(...) do { int w_ = snprintf(buf + u, len - u, __VA_ARGS__); \
	if (w_ > 0 && (size_t)w_ < len - u) u += (size_t)w_; } while (0)
	ADD("%s", g->name ? g->name : "unknown GPU");
	if (g->hw.sm_count) ADD(" (%d SMs", g->hw.sm_count);
	if (g->hw.sm_clock_mhz) ADD(", SM %d MHz", g->hw.sm_clock_mhz);
	if (g->hw.mem_clock_mhz) ADD(", memory %d MHz", g->hw.mem_clock_mhz);
	if (g->hw.sm_count) ADD(")");
	if (n) {
		int same_dt = 1, same_b = 1, same_bn = 1, same_h = 1, same_hd = 1, same_d = 1, same_c = 1;
		const struct record *r0 = recs[0];
		for (size_t i = 1; i < n; i++) {
			const struct record *r = recs[i];
			same_dt &= r->shape.dtype == r0->shape.dtype;
			same_b &= r->shape.batch == r0->shape.batch;
			same_bn &= (long long)r->shape.batch * r->shape.seqlen_kv == (long long)r0->shape.batch * r0->shape.seqlen_kv;
			same_h &= r->shape.heads == r0->shape.heads;
			same_hd &= r->shape.heads * r->shape.head_dim == r0->shape.heads * r0->shape.head_dim;
			same_d &= r->shape.head_dim == r0->shape.head_dim;
			same_c &= !!r->shape.causal == !!r0->shape.causal;
		}
		char t[32];
		ADD(" · %s", same_dt ? dtype_name(r0->shape.dtype) : "mixed dtypes");
		if (same_b) ADD(" · B=%d", r0->shape.batch);
		else if (same_bn) ADD(" · B·N = %s", fmt_seqlen((double)r0->shape.batch * r0->shape.seqlen_kv, t, sizeof(t)));
		if (same_h) ADD(" · H=%d", r0->shape.heads);
		else if (same_hd) ADD(" · H·d = %d", r0->shape.heads * r0->shape.head_dim);
		int same_n = 1;
		for (size_t i = 1; i < n; i++)
			same_n &= recs[i]->shape.seqlen_kv == r0->shape.seqlen_kv;
		if (same_n) ADD(" · N=%d", r0->shape.seqlen_kv);
		if (r0->shape.phase == PHASE_DECODE) ADD(" · query length %d", r0->shape.seqlen_q);
		if (same_d) ADD(" · d=%d", r0->shape.head_dim);
		if (same_c) ADD(" · %s", r0->shape.causal ? "causal" : "non-causal");
		/* the repetitions of the records drawn, not of the first alone */
		int rlo = 0, rhi = 0;
		for (size_t i = 0; i < n; i++) {
			int k = recs[i]->repetitions;
			if (k > 0 && (!rlo || k < rlo)) rlo = k;
			if (k > rhi) rhi = k;
		}
		if (rlo && rlo == rhi) ADD(" · median of %d runs", rlo);
		else if (rlo) ADD(" · median of %d to %d runs", rlo, rhi);
	}
	if (g->driver) ADD(" · driver %s", g->driver);
	if (g->cuda_runtime) ADD(", CUDA %s", g->cuda_runtime);
	if (rd->synthetic) ADD(" · SYNTHETIC FIXTURE, NOT MEASURED");
#undef ADD
	return buf;
}

const char *rdata_gap(const struct rdata *rd, char *buf, size_t len)
{
	buf[0] = '\0';
	if (!rd->without_metrics)
		return buf;
	snprintf(buf, len, "%d of %d attnprof records in %s have no hardware counters%s%s%s: "
		 "the charts and tables that need them say so; to fill the gap, re-run "
		 "'attnprof record' with 'metrics: default' on a GPU whose counters are readable "
		 "('attnprof info' tells)",
		 rd->without_metrics, rd->without_metrics + rd->with_metrics, rd->path,
		 rd->metrics_reason ? " (" : "", rd->metrics_reason ? rd->metrics_reason : "",
		 rd->metrics_reason ? ")" : "");
	return buf;
}

int rdata_step_within_spread(const struct rdata *rd, const struct record *a, const struct record *b, double *spread)
{
	double l1, h1, l2, h2;
	const int r1 = rdata_runs(rd, a, &l1, &h1), r2 = rdata_runs(rd, b, &l2, &h2);
	const double sp = fmax(r1 > 1 ? (h1 - l1) / l1 : 0, r2 > 1 ? (h2 - l2) / l2 : 0);
	if (spread)
		*spread = sp;
	return sp > 0 && usable(a->time_ms) && usable(b->time_ms) && fabs(b->time_ms / a->time_ms - 1) <= sp;
}

int rdata_runs(const struct rdata *rd, const struct record *rec, double *tmin, double *tmax)
{
	int runs = 0;
	*tmin = 1e300;
	*tmax = 0;
	if (usable(rec->time_ms)) {
		*tmin = *tmax = rec->time_ms;
		runs = 1;
	}
	if (!runs)
		return runs;
	char key[256], k[256];
	record_key(rec, key, sizeof(key));
	/* the other files' records of this key (rec may be one of them), then the repeats */
	const struct results *sets[3] = { rd->res, rd->others, rd->repeats };
	for (int s = 0; s < 3; s++) {
		if (!sets[s] || (s == 0 && !rd->others))
			continue;
		for (size_t i = 0; i < sets[s]->nrecords; i++) {
			const struct record *r = &sets[s]->records[i];
			if (r == rec || r->error || !usable(r->time_ms))
				continue;
			record_key(r, k, sizeof(k));
			if (strcmp(k, key))
				continue;
			if (r->time_ms < *tmin) *tmin = r->time_ms;
			if (r->time_ms > *tmax) *tmax = r->time_ms;
			runs++;
		}
	}
	return runs;
}
