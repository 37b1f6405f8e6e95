/* results.c: the results file — in memory, written atomically, read back
 * with recovery of cut files.  Format: docs/results-format.md. */
#include "results.h"
#include "shard.h"
#include "metric_sets.h"
#include "variants.h"
#include "util/error.h"
#include "util/file.h"
#include "util/yamlout.h"
#include "util/yamltree.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- kvlist ------------------------------------------------------------ */

void kvlist_init(struct kvlist *l) { memset(l, 0, sizeof(*l)); }

void kvlist_release(struct kvlist *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->items[i].name);
	free(l->items);
	free(l->index);
	kvlist_init(l);
}

static size_t kv_hash(const char *s)
{
	size_t h = 1469598103934665603ULL;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

/* the slot of name in the index: where it is, or the empty slot it would take */
static size_t kv_slot(const struct kvlist *l, const char *name)
{
	size_t mask = l->index_cap - 1, i = kv_hash(name) & mask;
	while (l->index[i] && strcmp(l->items[l->index[i] - 1].name, name))
		i = (i + 1) & mask;
	return i;
}

/* (Re)build the index at twice the items' capacity: at most half full. */
static int kv_reindex(struct kvlist *l)
{
	size_t cap = 64;
	while (cap < 2 * l->alloc)
		cap *= 2;
	size_t *ix = calloc(cap, sizeof(*ix));
	if (!ix)
		return error("out of memory");
	free(l->index);
	l->index = ix;
	l->index_cap = cap;
	for (size_t k = 0; k < l->n; k++)
		l->index[kv_slot(l, l->items[k].name)] = k + 1;
	return 0;
}

static struct kv *kvlist_find(const struct kvlist *l, const char *name)
{
	if (l->index) {
		size_t i = l->index[kv_slot(l, name)];
		return i ? &l->items[i - 1] : NULL;
	}
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->items[i].name, name))
			return &l->items[i];
	return NULL;
}

int kvlist_set(struct kvlist *l, const char *name, double value)
{
	struct kv *kv = kvlist_find(l, name);
	if (kv) {
		kv->value = value;
		return 0;
	}
	if (l->n == l->alloc) {
		size_t cap = l->alloc ? 2 * l->alloc : 8;
		struct kv *p = realloc(l->items, cap * sizeof(*p));
		if (!p)
			return error("out of memory");
		l->items = p;
		l->alloc = cap;
	}
	char *copy = strdup(name);
	if (!copy)
		return error("out of memory");
	l->items[l->n].name = copy;
	l->items[l->n].value = value;
	l->n++;
	if (l->n >= KVLIST_INDEX_MIN && (!l->index || 2 * l->n > l->index_cap)) {
		if (kv_reindex(l)) {
			free(copy);
			l->n--;
			return -1;
		}
	} else if (l->index) {
		l->index[kv_slot(l, name)] = l->n;
	}
	return 0;
}

const double *kvlist_get(const struct kvlist *l, const char *name)
{
	struct kv *kv = kvlist_find(l, name);
	return kv ? &kv->value : NULL;
}

/* ---- lifetime -------------------------------------------------------- */

void gpu_info_release(struct gpu_info *g)
{
	free(g->name); free(g->chip); free(g->driver); free(g->cuda_runtime); free(g->cupti);
	free(g->ceil.method);
	memset(g, 0, sizeof(*g));
}

int gpu_ceilings_measured(const struct gpu_ceilings *c)
{
	return c->mma_sync_tflops > 0 || c->l2_gbs > 0 || c->smem_gbs > 0 || c->hbm_read_gbs > 0;
}

int gpu_ceilings_vet(struct gpu_info *g, char *why, size_t len)
{
	struct gpu_ceilings *c = &g->ceil;
	const double smem_bound = 128.0 * g->hw.sm_count * g->hw.sm_clock_mhz * 1e6 / 1e9;
	size_t at = 0;
	int dropped = 0;
	if (len)
		why[0] = '\0';
	if (c->l2_gbs > 0 && g->copy_gbs > 0 && c->l2_gbs <= g->copy_gbs) {
		at += (size_t)snprintf(why + at, at < len ? len - at : 0,
				       "the L2 kernel read %.0f GB/s, no more than the HBM copy's %.0f: no L2 ceiling",
				       c->l2_gbs, g->copy_gbs);
		c->l2_gbs = 0;
		c->l2_buf_bytes = 0;
		dropped++;
	}
	if (c->smem_gbs > 0 && ((smem_bound > 0 && c->smem_gbs > 1.02 * smem_bound) || c->smem_gbs <= c->l2_gbs ||
				c->smem_gbs <= g->copy_gbs)) {
		at += (size_t)snprintf(why + at, at < len ? len - at : 0,
				       "%sthe shared-memory kernel read %.0f GB/s against a bound of %.0f: no shared-memory ceiling",
				       at ? "; " : "", c->smem_gbs, smem_bound);
		c->smem_gbs = 0;
		dropped++;
	}
	if (c->hbm_read_gbs > 0 && ((g->peak_hbm_gbs > 0 && c->hbm_read_gbs > 1.02 * g->peak_hbm_gbs) ||
				    (c->l2_gbs > 0 && c->hbm_read_gbs >= c->l2_gbs))) {
		at += (size_t)snprintf(why + at, at < len ? len - at : 0,
				       "%sthe HBM-read kernel read %.0f GB/s against a data sheet of %.0f: no HBM-read ceiling",
				       at ? "; " : "", c->hbm_read_gbs, g->peak_hbm_gbs);
		c->hbm_read_gbs = 0;
		dropped++;
	}
	return dropped;
}

void launch_release(struct launch *l)
{
	free(l->name);
	free(l->occupancy_limiter);
	kvlist_release(&l->metrics);
	memset(l, 0, sizeof(*l));
}

void record_init(struct record *rec)
{
	memset(rec, 0, sizeof(*rec));
	rec->l2_flushed = -1; /* not said: files recorded before the key existed */
}

void record_release(struct record *rec)
{
	free(rec->source); free(rec->variant);
	kvlist_release(&rec->allocs);
	free(rec->metrics_reason); free(rec->metric_set); free(rec->replay);
	for (size_t i = 0; i < rec->nlaunches; i++)
		launch_release(&rec->launches[i]);
	free(rec->launches);
	kvlist_release(&rec->totals);
	kvlist_release(&rec->model);
	free(rec->error);
	if (rec->capture) {
		capture_info_release(rec->capture);
		free(rec->capture);
	}
	record_init(rec);
}

void capture_info_release(struct capture_info *c)
{
	free(c->range); free(c->origin); free(c->family); free(c->problem);
	free(c->time_source); free(c->verdict_rule); free(c->mask); free(c->group_rule); free(c->shape_inferred);
	free(c->shape_rule); free(c->check_skipped);
	memset(c, 0, sizeof *c);
}

const char *record_pass(const struct record *rec)
{
	return pass_name(rec->shape.pass);
}

double record_spread_ms(const struct record *rec)
{
	if (rec->error || !isfinite(rec->time_ms_min) || !isfinite(rec->time_ms_max) || !(rec->time_ms_min > 0) ||
	    rec->time_ms_max < rec->time_ms_min)
		return NAN;
	return rec->time_ms_max - rec->time_ms_min;
}

static int timed_once(const struct record *r)
{
	return r->repetitions < 2 && r->time_ms_max == r->time_ms_min;
}

int record_times_differ(const struct record *a, const struct record *b)
{
	double sa = record_spread_ms(a), sb = record_spread_ms(b);
	if (isnan(sa) || isnan(sb) || !(a->time_ms > 0) || !(b->time_ms > 0))
		return 2;
	/* one time, not repeated (a captured backward, timed by its kernels under
	 * profiling): its min = max is no spread to judge a difference by */
	if (timed_once(a) || timed_once(b))
		return 2;
	double d = b->time_ms - a->time_ms;
	if (fabs(d) > sa && fabs(d) > sb)
		return d > 0 ? 1 : -1;
	return 0;
}

void results_init(struct results *r) { memset(r, 0, sizeof(*r)); }

void workload_list_release(struct workload_list *w)
{
	for (size_t i = 0; i < w->nnames; i++)
		free(w->names[i]);
	free(w->names);
	free(w->streams);
	free(w->k);
	free(w->name_slots);
	memset(w, 0, sizeof(*w));
}

void results_release(struct results *r)
{
	struct results_header *h = &r->header;
	free(h->tool_version); free(h->date); free(h->host); free(h->command_line);
	gpu_info_release(&h->gpu);
	free(h->spec_name); free(h->spec_path); free(h->spec_text); free(h->notes); free(h->shard);
	free(h->program_exit);
	workload_list_release(&h->workload);
	free(r->cut_where);
	for (size_t i = 0; i < r->nrecords; i++)
		record_release(&r->records[i]);
	free(r->records);
	kvlist_release(&r->keys);
	results_init(r);
}

int results_add(struct results *r, struct record *rec)
{
	if (r->nrecords == r->alloc) {
		size_t cap = r->alloc ? 2 * r->alloc : 16;
		struct record *p = realloc(r->records, cap * sizeof(*p));
		if (!p)
			return error("out of memory");
		r->records = p;
		r->alloc = cap;
	}
	r->records[r->nrecords++] = *rec;
	record_init(rec);
	return 0;
}

/* A name in a key as itself, or, when it holds the separator '/' or '%',
 * as "%LEN:name": (lib, v/w) and (lib/v, w) are two keys ("lib/%3:v/w/…",
 * "%5:lib/v/w/…"), every other key as it always was. */
static const char *key_name(const char *s, char *buf, size_t len)
{
	if (!s)
		return "?";
	if (!strpbrk(s, "/%"))
		return s;
	snprintf(buf, len, "%%%zu:%s", strlen(s), s);
	return buf;
}

void record_key(const struct record *rec, char *buf, size_t len)
{
	const struct attn_shape *s = &rec->shape;
	char sb[MAX_SERIES_NAME + 16], vb[MAX_SERIES_NAME + 16];
	int n = snprintf(buf, len, "%s/%s/%s/%s/B%d/H%d/Hkv%d/Nq%d/Nkv%d/d%d/c%d",
			 key_name(rec->source, sb, sizeof(sb)), key_name(rec->variant, vb, sizeof(vb)),
			 phase_name(s->phase), dtype_name(s->dtype), s->batch, s->heads, s->kv_heads,
			 s->seqlen_q, s->seqlen_kv, s->head_dim, s->causal);
	/* keys of forward records stay as they were before the pass existed */
	if (s->pass != PASS_FWD && n >= 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, "/%s", record_pass(rec));
	/* a paged or ragged KV cache is its own config (others' keys as before) */
	if ((s->kv_layout || s->kv_dist) && n >= 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, "/%s%d/%s%u", kv_layout_names[s->kv_layout == KV_PAGED],
			      s->page_size, kv_dist_names[s->kv_dist < KV_DIST_COUNT ? s->kv_dist : 0], s->kv_seed);
	/* captured calls of one shape are different calls */
	if (rec->capture && n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, "/pid%d/call%d", rec->capture->pid, rec->capture->call);
}

/* Index records[nkeyed..nrecords) by key, the first record of a key kept
 * (as a search from the start finds it).  0, or -1 out of memory. */
static int index_keys(struct results *r)
{
	char k[256];
	if (r->nkeyed > r->nrecords) { /* records went away: start again */
		kvlist_release(&r->keys);
		r->nkeyed = 0;
	}
	for (; r->nkeyed < r->nrecords; r->nkeyed++) {
		record_key(&r->records[r->nkeyed], k, sizeof(k));
		if (!kvlist_get(&r->keys, k) && kvlist_set(&r->keys, k, (double)r->nkeyed))
			return -1;
	}
	return 0;
}

long results_find(struct results *r, const char *key)
{
	/* through the key index: merging n records searched n records each, a
	 * key formatted every time (a 4 000-record report spent seconds there) */
	char k[256];
	for (int again = 0; again < 2; again++) {
		if (index_keys(r))
			break;
		const double *at = kvlist_get(&r->keys, key);
		if (!at)
			return -1;
		size_t i = (size_t)*at;
		if (i < r->nrecords) {
			record_key(&r->records[i], k, sizeof(k));
			if (!strcmp(k, key))
				return (long)i;
		}
		/* the records moved since they were indexed: index them again */
		kvlist_release(&r->keys);
		r->nkeyed = 0;
	}
	for (size_t i = 0; i < r->nrecords; i++) { /* out of memory for the index */
		record_key(&r->records[i], k, sizeof(k));
		if (!strcmp(k, key))
			return (long)i;
	}
	return -1;
}

const char *record_describe(const struct record *rec, char *buf, size_t len)
{
	const struct attn_shape *s = &rec->shape;
	if (s->phase == PHASE_DECODE)
		snprintf(buf, len, "%s %s decode B=%d H=%d Hkv=%d q=%d kv=%d d=%d%s",
			 rec->variant, dtype_name(s->dtype), s->batch, s->heads, s->kv_heads,
			 s->seqlen_q, s->seqlen_kv, s->head_dim, s->causal ? " causal" : "");
	else
		snprintf(buf, len, "%s%s%s %s B=%d H=%d N=%d d=%d%s", rec->variant,
			 s->pass != PASS_FWD ? " " : "", s->pass != PASS_FWD ? pass_name(s->pass) : "",
			 dtype_name(s->dtype), s->batch, s->heads, s->seqlen_q, s->head_dim,
			 s->causal ? " causal" : "");
	return buf;
}

/* ---- sums over launches ---------------------------------------------- */

/* The launches' durations added up (0: none recorded). */
static double launches_time(const struct record *rec)
{
	double total = 0;
	for (size_t i = 0; i < rec->nlaunches; i++) {
		const double *t = kvlist_get(&rec->launches[i].metrics, M_DURATION);
		total += t ? *t : 0;
	}
	return total;
}

/* Metric name over rec's launches by its row's aggregation, total_time the
 * launches' (launches_time); 0, or -1 when no launch has it.  A NaN a
 * launch holds stays in the total, whatever the aggregation: it is then not known. */
static int combine_launches(const struct record *rec, const char *name, double total_time, double *out)
{
	enum metric_agg agg = metric_info(name).agg;
	double acc = 0;
	int seen = 0;
	for (size_t i = 0; i < rec->nlaunches; i++) {
		const struct kvlist *m = &rec->launches[i].metrics;
		const double *v = kvlist_get(m, name);
		if (!v)
			continue;
		switch (agg) {
		case METRIC_SUM: acc += *v; break;
		case METRIC_WEIGHTED_AVG: {
			/* without durations, the launches weigh the same */
			const double *t = kvlist_get(m, M_DURATION);
			acc += *v * (total_time > 0 ? (t ? *t : 0) / total_time : 1.0 / (double)rec->nlaunches);
			break;
		}
		case METRIC_MAX: if (!seen || isnan(*v) || (!isnan(acc) && *v > acc)) acc = *v; break;
		case METRIC_MIN: if (!seen || isnan(*v) || (!isnan(acc) && *v < acc)) acc = *v; break;
		}
		seen = 1;
	}
	*out = acc;
	return seen ? 0 : -1;
}

int record_launches_metric(const struct record *rec, const char *name, double *out)
{
	return combine_launches(rec, name, launches_time(rec), out);
}

int results_sum_launches(struct record *rec)
{
	kvlist_release(&rec->totals);
	double total_time = launches_time(rec), v;
	/* in the order the names first appear */
	for (size_t i = 0; i < rec->nlaunches; i++) {
		const struct kvlist *m = &rec->launches[i].metrics;
		for (size_t j = 0; j < m->n; j++) {
			const char *name = m->items[j].name;
			if (kvlist_get(&rec->totals, name))
				continue;
			if (combine_launches(rec, name, total_time, &v) || kvlist_set(&rec->totals, name, v))
				return -1;
		}
	}
	return 0;
}

const double *record_metric(const struct record *rec, const char *name)
{
	return kvlist_get(&rec->totals, name);
}

/* ---- the results schema: one table per section, read and written by it -- */

/* F_ENUM: an enum of kernels/variants.h, read from and written as its word */
enum ftype { F_STR, F_INT, F_U64, F_DBL, F_BOOL, F_ENUM };
struct words {
	const char *const *names; /* the enum's words, in its order */
	int n;
	const char *expect;       /* the words a file may give, for the error */
};
struct field {
	const char *key;
	enum ftype type;
	size_t offset;
	int required;
	long long lo, hi; /* F_INT: the range (both 0: any int) */
	int when_set;     /* written only when not zero (a quantity older files lack) */
	const struct words *words; /* F_ENUM */
	int unknown_minus1; /* F_DBL: -1 means "not measured"; any other negative is refused */
};
#define OFF(s, m) offsetof(s, m)
/* F_ENUM fields are read and written through an int */
_Static_assert(sizeof(enum dtype) == sizeof(int) && sizeof(enum phase) == sizeof(int) &&
	       sizeof(enum pass) == sizeof(int), "an enum is not an int");
/* phase "unknown" is read, then allowed only for a captured call of unknown shape (read_record) */
static const struct words phase_words = { phase_names, PHASE_COUNT, "prefill or decode" };
static const struct words dtype_words = { dtype_names, DTYPE_COUNT, "fp16, bf16, fp32 or unknown" };
static const struct words pass_words = { pass_names, PASS_COUNT, "fwd, bwd or fwd+bwd" };
static const struct words kv_layout_words = { kv_layout_names, KV_LAYOUT_COUNT, "contiguous or paged" };
static const struct words kv_dist_words = { kv_dist_names, KV_DIST_COUNT, "equal, uniform or long-tail" };
static const char *enum_word(const struct field *f, const char *p)
{
	int k = *(const int *)p;
	return k >= 0 && k < f->words->n ? f->words->names[k] : "?";
}

/* A record's top level, in the written order: pass (RECORD_PASS) only when
 * the record has one; error (the last) after every section.  Shapes from
 * 0: a captured call of unknown shape has zeros (read_record checks). */
static const struct field record_fields[] = {
	{ "source", F_STR, OFF(struct record, source), 1 },
	{ "variant", F_STR, OFF(struct record, variant), 1 },
	{ "phase", F_ENUM, OFF(struct record, shape.phase), 1, .words = &phase_words },
	{ "dtype", F_ENUM, OFF(struct record, shape.dtype), 1, .words = &dtype_words },
	{ "pass", F_ENUM, OFF(struct record, shape.pass), 0, .words = &pass_words },
	{ "batch", F_INT, OFF(struct record, shape.batch), 1, 0, MAX_BATCH },
	{ "heads", F_INT, OFF(struct record, shape.heads), 1, 0, MAX_HEADS },
	{ "kv_heads", F_INT, OFF(struct record, shape.kv_heads), 0, 0, MAX_HEADS },
	{ "seqlen_q", F_INT, OFF(struct record, shape.seqlen_q), 1, 0, MAX_SEQLEN },
	{ "seqlen_kv", F_INT, OFF(struct record, shape.seqlen_kv), 1, 0, MAX_SEQLEN },
	{ "head_dim", F_INT, OFF(struct record, shape.head_dim), 1, 0, MAX_HEAD_DIM },
	{ "causal", F_BOOL, OFF(struct record, shape.causal), 1 },
	/* decode's KV cache (kernels/paged.h): written only for a paged or ragged one */
	{ "kv_layout", F_ENUM, OFF(struct record, shape.kv_layout), 0, .words = &kv_layout_words, .when_set = 1 },
	{ "page_size", F_INT, OFF(struct record, shape.page_size), 0, 0, 1 << 20, .when_set = 1 },
	{ "kv_dist", F_ENUM, OFF(struct record, shape.kv_dist), 0, .words = &kv_dist_words, .when_set = 1 },
	{ "kv_seed", F_INT, OFF(struct record, shape.kv_seed), 0, 0, 0x7fffffff, .when_set = 1 },
	{ "error", F_STR, OFF(struct record, error), 0 },
};
#define N_RECORD_FIELDS (sizeof record_fields / sizeof record_fields[0])
enum { RECORD_PASS = 4, RECORD_ERROR = N_RECORD_FIELDS - 1 };

/* header.gpu (and cc, written between chip and sm_count) */
static const struct field gpu_fields[] = {
	{ "name", F_STR, OFF(struct gpu_info, name), 0 },
	{ "chip", F_STR, OFF(struct gpu_info, chip), 0 },
	{ "sm_count", F_INT, OFF(struct gpu_info, hw.sm_count), 0, 0, MAX_SMS },
	{ "l2_bytes", F_U64, OFF(struct gpu_info, hw.l2_bytes), 0 },
	{ "hbm_bytes", F_U64, OFF(struct gpu_info, hw.hbm_bytes), 0 },
	{ "sm_clock_mhz", F_INT, OFF(struct gpu_info, hw.sm_clock_mhz), 0, 0, 100000 },
	{ "mem_clock_mhz", F_INT, OFF(struct gpu_info, hw.mem_clock_mhz), 0, 0, 100000 },
	{ "mem_bus_bits", F_INT, OFF(struct gpu_info, hw.mem_bus_bits), 0, 0, 65536 },
	{ "peak_hbm_gbs", F_DBL, OFF(struct gpu_info, peak_hbm_gbs), 0 },
	{ "copy_gbs", F_DBL, OFF(struct gpu_info, copy_gbs), 0 },
	{ "tensor_tflops", F_DBL, OFF(struct gpu_info, tensor_tflops), 0 },
	{ "smem_per_sm", F_U64, OFF(struct gpu_info, hw.smem_per_sm), 0, 0, 0, 1 },
	{ "driver", F_STR, OFF(struct gpu_info, driver), 0 },
	{ "cuda_runtime", F_STR, OFF(struct gpu_info, cuda_runtime), 0 },
	{ "cupti", F_STR, OFF(struct gpu_info, cupti), 0 },
};
#define N_GPU_FIELDS (sizeof gpu_fields / sizeof gpu_fields[0])

/* header.gpu.ceilings, the last key of gpu, written only when measured */
static const struct field ceiling_fields[] = {
	{ "mma_sync_tflops", F_DBL, OFF(struct gpu_ceilings, mma_sync_tflops), 0, 0, 0, 1 },
	{ "l2_gbs", F_DBL, OFF(struct gpu_ceilings, l2_gbs), 0, 0, 0, 1 },
	{ "smem_gbs", F_DBL, OFF(struct gpu_ceilings, smem_gbs), 0, 0, 0, 1 },
	{ "hbm_read_gbs", F_DBL, OFF(struct gpu_ceilings, hbm_read_gbs), 0, 0, 0, 1 },
	{ "l2_buf_bytes", F_U64, OFF(struct gpu_ceilings, l2_buf_bytes), 0, 0, 0, 1 },
	{ "method", F_STR, OFF(struct gpu_ceilings, method), 0, 0, 0, 1 },
};
#define N_CEILING_FIELDS (sizeof ceiling_fields / sizeof ceiling_fields[0])

/* header (gpu and spec, written between command_line and notes) */
static const struct field header_fields[] = {
	{ "tool_version", F_STR, OFF(struct results_header, tool_version), 0 },
	{ "date", F_STR, OFF(struct results_header, date), 0 },
	{ "host", F_STR, OFF(struct results_header, host), 0 },
	{ "command_line", F_STR, OFF(struct results_header, command_line), 0 },
	{ "shard", F_STR, OFF(struct results_header, shard), 0, 0, 0, 1 },
	{ "program_exit", F_STR, OFF(struct results_header, program_exit), 0, 0, 0, 1 },
	{ "program_ran_to_end", F_BOOL, OFF(struct results_header, program_ran_to_end), 0, 0, 0, 1 },
	{ "gpu_kernels", F_U64, OFF(struct results_header, gpu_kernels), 0, 0, 0, 1 },
	{ "gpu_kernel_ms", F_DBL, OFF(struct results_header, gpu_kernel_ms), 0, 0, 0, 1 },
	{ "attention_kernels", F_U64, OFF(struct results_header, attention_kernels), 0, 0, 0, 1 },
	{ "attention_kernel_ms", F_DBL, OFF(struct results_header, attention_kernel_ms), 0, 0, 0, 1 },
	{ "attention_share", F_DBL, OFF(struct results_header, attention_share), 0, 0, 0, 1 },
	{ "amdahl_2x", F_DBL, OFF(struct results_header, amdahl_2x), 0, 0, 0, 1 },
	{ "notes", F_STR, OFF(struct results_header, notes), 0 },
};
#define N_HEADER_FIELDS (sizeof header_fields / sizeof header_fields[0])
enum { HEADER_NOTES = N_HEADER_FIELDS - 1 };

/* header.workload (after notes, only when kept): the bounds, then names, streams, kernels */
static const struct field workload_fields[] = {
	{ "per_stream", F_U64, OFF(struct workload_list, per_stream), 1 },
	{ "most", F_U64, OFF(struct workload_list, most), 1 },
	{ "dropped", F_U64, OFF(struct workload_list, dropped), 1 },
};
#define N_WORKLOAD_FIELDS (sizeof workload_fields / sizeof workload_fields[0])
/* a kernel is one line of these, in this order: "0 1 5200 15320 128 1 1 256 1 1 0" */
#define WORKLOAD_COLUMNS "name stream start_ns dur_ns grid_x grid_y grid_z block_x block_y block_z attention"

/* header.spec (text, the last, written as a literal block) */
static const struct field spec_fields[] = {
	{ "name", F_STR, OFF(struct results_header, spec_name), 0 },
	{ "path", F_STR, OFF(struct results_header, spec_path), 0 },
	{ "text", F_STR, OFF(struct results_header, spec_text), 0 },
};
#define N_SPEC_FIELDS (sizeof spec_fields / sizeof spec_fields[0])
enum { SPEC_TEXT = N_SPEC_FIELDS - 1 };

/* a launch (and grid, block after name; metrics last) */
static const struct field launch_fields[] = {
	{ "name", F_STR, OFF(struct launch, name), 0 },
	{ "registers", F_INT, OFF(struct launch, registers), 0, 0, 65536 },
	{ "static_smem", F_INT, OFF(struct launch, static_smem), 0, 0, 1 << 24 },
	{ "dynamic_smem", F_INT, OFF(struct launch, dynamic_smem), 0, 0, 1 << 24 },
	{ "theoretical_occupancy", F_DBL, OFF(struct launch, theoretical_occupancy), 0 },
	{ "occupancy_limiter", F_STR, OFF(struct launch, occupancy_limiter), 0 },
};
#define N_LAUNCH_FIELDS (sizeof launch_fields / sizeof launch_fields[0])

/* a captured call (struct capture_info) */
static const struct field capture_fields[] = {
	{ "range", F_STR, OFF(struct capture_info, range), 0 },
	{ "origin", F_STR, OFF(struct capture_info, origin), 0 },
	{ "family", F_STR, OFF(struct capture_info, family), 0 },
	{ "problem", F_STR, OFF(struct capture_info, problem), 0 },
	{ "call", F_INT, OFF(struct capture_info, call), 1 },
	{ "pid", F_INT, OFF(struct capture_info, pid), 0 },
	{ "shape_known", F_BOOL, OFF(struct capture_info, shape_known), 1 },
	{ "kernel_ms", F_DBL, OFF(struct capture_info, kernel_ms), 0 },
	{ "time_source", F_STR, OFF(struct capture_info, time_source), 0 },
	{ "l2_write_bytes", F_DBL, OFF(struct capture_info, l2_write_bytes), 0, 0, 0, 0, NULL, 1 },
	{ "dram_write_bytes", F_DBL, OFF(struct capture_info, dram_write_bytes), 0, 0, 0, 0, NULL, 1 },
	{ "nn_bytes", F_DBL, OFF(struct capture_info, nn_bytes), 0 },
	{ "output_bytes", F_DBL, OFF(struct capture_info, output_bytes), 0 },
	{ "footprint_bytes", F_DBL, OFF(struct capture_info, footprint_bytes), 0, 0, 0, 0, NULL, 1 },
	{ "nn_matrices", F_INT, OFF(struct capture_info, nn_matrices), 0 },
	{ "verdict_rule", F_STR, OFF(struct capture_info, verdict_rule), 0 },
	{ "graph_launches", F_INT, OFF(struct capture_info, graph_launches), 0 },
	{ "alloc_bytes", F_DBL, OFF(struct capture_info, alloc_bytes), 0, 0, 0, 0, NULL, 1 },
	{ "counter_window", F_BOOL, OFF(struct capture_info, counter_window), 0 },
	{ "density", F_DBL, OFF(struct capture_info, density), 0, 0, 0, 1 },
	{ "mask", F_STR, OFF(struct capture_info, mask), 0, 0, 0, 1 },
	{ "tid", F_INT, OFF(struct capture_info, tid), 0, 0, 0, 1 },
	{ "stream", F_U64, OFF(struct capture_info, stream), 0, 0, 0, 1 },
	{ "launch", F_U64, OFF(struct capture_info, launch), 0, 0, 0, 1 },
	{ "group_rule", F_STR, OFF(struct capture_info, group_rule), 0, 0, 0, 1 },
	{ "shape_inferred", F_STR, OFF(struct capture_info, shape_inferred), 0, 0, 0, 1 },
	{ "shape_rule", F_STR, OFF(struct capture_info, shape_rule), 0, 0, 0, 1 },
	{ "check_skipped", F_STR, OFF(struct capture_info, check_skipped), 0, 0, 0, 1 },
	{ "graph_replays", F_INT, OFF(struct capture_info, graph_replays), 0, 0, 1000000000, 1 },
	{ "graph_replays_incomplete", F_INT, OFF(struct capture_info, graph_replays_incomplete), 0, 0, 1000000000, 1 },
};
#define N_CAPTURE_FIELDS (sizeof capture_fields / sizeof capture_fields[0])

/* record.timing */
static const struct field timing_fields[] = {
	{ "repetitions", F_INT, OFF(struct record, repetitions), 0, 0, 100000000 },
	{ "warmup", F_INT, OFF(struct record, warmup), 0, 0, 100000000 },
	{ "time_ms", F_DBL, OFF(struct record, time_ms), 0 },
	{ "time_ms_min", F_DBL, OFF(struct record, time_ms_min), 0 },
	{ "time_ms_max", F_DBL, OFF(struct record, time_ms_max), 0 },
	{ "tflops", F_DBL, OFF(struct record, tflops), 0 },
	{ "sm_clock_mhz", F_DBL, OFF(struct record, sm_clock_mhz), 0, 0, 0, 1 },
	{ "sm_clock_mhz_min", F_DBL, OFF(struct record, sm_clock_mhz_min), 0, 0, 0, 1 },
	{ "settle_ms", F_DBL, OFF(struct record, settle_ms), 0, 0, 0, 1 },
};
#define N_TIMING_FIELDS (sizeof timing_fields / sizeof timing_fields[0])

/* record.correctness */
static const struct field correctness_fields[] = {
	{ "checked", F_BOOL, OFF(struct record, checked), 0 },
	{ "correct", F_BOOL, OFF(struct record, correct), 0 },
	{ "max_abs_err", F_DBL, OFF(struct record, max_abs_err), 0 },
	{ "rel_l2_err", F_DBL, OFF(struct record, rel_l2_err), 0 },
	{ "tol_max_abs", F_DBL, OFF(struct record, tol_max_abs), 0 },
	{ "tol_rel_l2", F_DBL, OFF(struct record, tol_rel_l2), 0 },
	{ "seed", F_U64, OFF(struct record, seed), 0 },
	{ "rows_checked", F_INT, OFF(struct record, rows_checked), 0, 0, 2147483647 },
};
#define N_CORRECTNESS_FIELDS (sizeof correctness_fields / sizeof correctness_fields[0])

/* record.correctness.gradients.<dQ|dK|dV>: written for the gradients checked */
const char *const record_grad_names[RECORD_GRADS] = { "dQ", "dK", "dV" };
static const struct field grad_fields[] = {
	{ "correct", F_BOOL, OFF(struct grad_error, correct), 1 },
	{ "max_abs_err", F_DBL, OFF(struct grad_error, max_abs_err), 1 },
	{ "rel_l2_err", F_DBL, OFF(struct grad_error, rel_l2_err), 1 },
	{ "tol_max_abs", F_DBL, OFF(struct grad_error, tol_max_abs), 1 },
	{ "tol_rel_l2", F_DBL, OFF(struct grad_error, tol_rel_l2), 1 },
};
#define N_GRAD_FIELDS (sizeof grad_fields / sizeof grad_fields[0])

/* record.memory (and allocs) */
static const struct field memory_fields[] = {
	{ "peak_bytes", F_U64, OFF(struct record, peak_bytes), 0 },
};
#define N_MEMORY_FIELDS (sizeof memory_fields / sizeof memory_fields[0])

/* The sections whose scalars record_scalar reads; "capture" reads the
 * record's capture_info (missing on records that are not captured calls). */
static const struct {
	const char *name;
	const struct field *f;
	size_t n;
	int in_capture;
} record_sections[] = {
	{ "", record_fields, N_RECORD_FIELDS, 0 },
	{ "timing", timing_fields, N_TIMING_FIELDS, 0 },
	{ "memory", memory_fields, N_MEMORY_FIELDS, 0 },
	{ "correctness", correctness_fields, N_CORRECTNESS_FIELDS, 0 },
	{ "capture", capture_fields, N_CAPTURE_FIELDS, 1 },
};

enum scalar_kind record_scalar(const struct record *r, const char *section, const char *key,
				    const char **s, double *v)
{
	for (size_t i = 0; i < sizeof record_sections / sizeof record_sections[0]; i++) {
		if (strcmp(record_sections[i].name, section))
			continue;
		for (size_t k = 0; k < record_sections[i].n; k++) {
			const struct field *f = &record_sections[i].f[k];
			if (strcmp(f->key, key))
				continue;
			if (record_sections[i].in_capture && !r->capture) {
				*s = NULL;
				*v = NAN;
				return f->type == F_STR || f->type == F_ENUM ? SCALAR_STR : f->type == F_BOOL ? SCALAR_BOOL : SCALAR_NUM;
			}
			const char *p = record_sections[i].in_capture ? (const char *)r->capture + f->offset
								      : (const char *)r + f->offset;
			switch (f->type) {
			case F_STR: *s = *(char *const *)p; return SCALAR_STR;
			/* a field written only when set is missing when it is not (0) */
			case F_INT: *v = f->when_set && !*(const int *)p ? NAN : *(const int *)p; return SCALAR_NUM;
			case F_U64: *v = (double)*(const uint64_t *)p; return SCALAR_NUM;
			case F_DBL: /* a quantity written only when measured is missing (NaN) when 0 */
				*v = f->when_set && *(const double *)p == 0 ? NAN : *(const double *)p;
				return SCALAR_NUM;
			case F_BOOL: *v = *(const int *)p; return SCALAR_BOOL;
			case F_ENUM: *s = f->when_set && !*(const int *)p ? NULL : enum_word(f, p); return SCALAR_STR;
			}
		}
	}
	return SCALAR_NONE;
}

/* ---- writing ----------------------------------------------------------- */

static void kv_str(struct yamlout *y, const char *k, const char *v) { yo_plain(y, k); yo_str(y, v); }
static void kv_int(struct yamlout *y, const char *k, long long v) { yo_plain(y, k); yo_int(y, v); }
static void kv_u64(struct yamlout *y, const char *k, uint64_t v) { yo_plain(y, k); yo_u64(y, v); }
static void kv_dbl(struct yamlout *y, const char *k, double v) { yo_plain(y, k); yo_double(y, v); }
static void kv_bool(struct yamlout *y, const char *k, int v) { yo_plain(y, k); yo_bool(y, v); }

/* The fields of a table from base, in the table's order. */
static void write_fields(struct yamlout *y, const struct field *f, size_t nf, const void *base)
{
	for (size_t i = 0; i < nf; i++) {
		const char *p = (const char *)base + f[i].offset;
		if (f[i].when_set && f[i].type == F_DBL && *(const double *)p == 0)
			continue;
		if (f[i].when_set && f[i].type == F_STR && !*(char *const *)p)
			continue;
		if (f[i].when_set && (((f[i].type == F_INT || f[i].type == F_ENUM) && !*(const int *)p) ||
				      (f[i].type == F_U64 && !*(const uint64_t *)p)))
			continue;
		switch (f[i].type) {
		case F_STR: kv_str(y, f[i].key, *(char *const *)p); break;
		case F_INT: kv_int(y, f[i].key, *(const int *)p); break;
		case F_U64: kv_u64(y, f[i].key, *(const uint64_t *)p); break;
		case F_DBL: kv_dbl(y, f[i].key, *(const double *)p); break;
		case F_BOOL: kv_bool(y, f[i].key, *(const int *)p); break;
		case F_ENUM: kv_str(y, f[i].key, enum_word(f + i, p)); break;
		}
	}
}

static void write_kvlist(struct yamlout *y, const char *key, const struct kvlist *l, int flow)
{
	yo_plain(y, key);
	yo_map(y, flow);
	for (size_t i = 0; i < l->n; i++) {
		yo_str(y, l->items[i].name);
		yo_double(y, l->items[i].value);
	}
	yo_map_end(y);
}

static const char *const status_names[] = { "not-requested", "ok", "unavailable" };

static void write_gpu(struct yamlout *y, const struct gpu_info *g)
{
	char cc[16];
	yo_plain(y, "gpu");
	yo_map(y, 0);
	write_fields(y, gpu_fields, 2, g); /* name, chip */
	snprintf(cc, sizeof(cc), "%d.%d", g->hw.cc_major, g->hw.cc_minor);
	kv_str(y, "cc", cc);
	write_fields(y, gpu_fields + 2, N_GPU_FIELDS - 2, g);
	if (gpu_ceilings_measured(&g->ceil)) {
		yo_plain(y, "ceilings");
		yo_map(y, 0);
		write_fields(y, ceiling_fields, N_CEILING_FIELDS, &g->ceil);
		yo_map_end(y);
	}
	yo_map_end(y);
}

static void write_capture(struct yamlout *y, const struct capture_info *c)
{
	yo_plain(y, "capture");
	yo_map(y, 0);
	write_fields(y, capture_fields, N_CAPTURE_FIELDS, c);
	yo_map_end(y);
}

/* Only the gradients checked, and nothing for a record without them (a
 * forward, a file from before the fields): such files read and write as before. */
static void write_grads(struct yamlout *y, const struct record *r)
{
	int any = 0;
	for (int g = 0; g < RECORD_GRADS; g++)
		any |= r->grad[g].checked;
	if (!any)
		return;
	yo_plain(y, "gradients");
	yo_map(y, 1);
	for (int g = 0; g < RECORD_GRADS; g++) {
		if (!r->grad[g].checked)
			continue;
		yo_plain(y, record_grad_names[g]);
		yo_map(y, 1);
		write_fields(y, grad_fields, N_GRAD_FIELDS, &r->grad[g]);
		yo_map_end(y);
	}
	yo_map_end(y);
}

static void write_record(struct yamlout *y, const struct record *r, size_t place)
{
	yo_map(y, 0);
	write_fields(y, record_fields, RECORD_PASS, r);
	if (r->pass_given) /* files before the backward have none, and read as fwd */
		write_fields(y, record_fields + RECORD_PASS, 1, r);
	write_fields(y, record_fields + RECORD_PASS + 1, RECORD_ERROR - RECORD_PASS - 1, r);

	yo_plain(y, "timing");
	yo_map(y, 1);
	write_fields(y, timing_fields, N_TIMING_FIELDS, r);
	yo_map_end(y);

	yo_plain(y, "memory");
	yo_map(y, 0);
	write_fields(y, memory_fields, N_MEMORY_FIELDS, r);
	write_kvlist(y, "allocs", &r->allocs, 1);
	yo_map_end(y);

	yo_plain(y, "correctness");
	yo_map(y, 1);
	write_fields(y, correctness_fields, N_CORRECTNESS_FIELDS, r);
	write_grads(y, r);
	yo_map_end(y);

	yo_plain(y, "metrics");
	yo_map(y, 0);
	kv_str(y, "status", status_names[r->metrics_status]);
	kv_str(y, "reason", r->metrics_reason);
	kv_str(y, "set", r->metric_set);
	kv_str(y, "replay", r->replay);
	if (r->l2_flushed >= 0) /* a re-written old file does not claim what it never said */
		kv_bool(y, "l2_flushed", r->l2_flushed);
	write_kvlist(y, "totals", &r->totals, 0);
	yo_plain(y, "launches");
	yo_seq(y, 0);
	for (size_t i = 0; i < r->nlaunches; i++) {
		const struct launch *l = &r->launches[i];
		yo_map(y, 0);
		write_fields(y, launch_fields, 1, l); /* name */
		yo_plain(y, "grid");
		yo_seq(y, 1);
		for (int k = 0; k < 3; k++) yo_int(y, l->grid[k]);
		yo_seq_end(y);
		yo_plain(y, "block");
		yo_seq(y, 1);
		for (int k = 0; k < 3; k++) yo_int(y, l->block[k]);
		yo_seq_end(y);
		write_fields(y, launch_fields + 1, N_LAUNCH_FIELDS - 1, l);
		write_kvlist(y, "metrics", &l->metrics, 0);
		yo_map_end(y);
	}
	yo_seq_end(y);
	yo_map_end(y);

	write_kvlist(y, "model", &r->model, 0);
	if (r->capture)
		write_capture(y, r->capture);
	write_fields(y, record_fields + RECORD_ERROR, 1, r);
	kv_u64(y, "end", place); /* last: a record without it was cut */
	yo_map_end(y);
}

/* header.workload: the kernels of record --workload on, one line each, their
 * starts from the earliest (t0_ns); nothing when none were kept */
static void write_workload(struct yamlout *y, const struct workload_list *w)
{
	if (!w->n && !w->dropped)
		return;
	uint64_t t0 = UINT64_MAX;
	for (size_t i = 0; i < w->n; i++)
		if (w->k[i].start_ns < t0)
			t0 = w->k[i].start_ns;
	if (!w->n)
		t0 = 0;
	yo_plain(y, "workload");
	yo_map(y, 0);
	write_fields(y, workload_fields, N_WORKLOAD_FIELDS, w);
	kv_u64(y, "t0_ns", t0);
	kv_str(y, "columns", WORKLOAD_COLUMNS);
	yo_plain(y, "names");
	yo_seq(y, 0);
	for (size_t i = 0; i < w->nnames; i++)
		yo_str(y, w->names[i]);
	yo_seq_end(y);
	yo_plain(y, "streams");
	yo_seq(y, 1);
	for (size_t i = 0; i < w->nstreams; i++) {
		yo_seq(y, 1);
		yo_int(y, w->streams[i].pid);
		yo_u64(y, w->streams[i].id);
		yo_seq_end(y);
	}
	yo_seq_end(y);
	yo_plain(y, "kernels");
	yo_seq(y, 0);
	for (size_t i = 0; i < w->n; i++) {
		const struct workload_kernel *k = &w->k[i];
		char line[200];
		snprintf(line, sizeof line, "%u %u %llu %llu %d %d %d %d %d %d %d", k->name, k->stream,
			 (unsigned long long)(k->start_ns - t0), (unsigned long long)k->dur_ns, k->grid[0], k->grid[1],
			 k->grid[2], k->block[0], k->block[1], k->block[2], k->attention);
		yo_plain(y, line);
	}
	yo_seq_end(y);
	yo_map_end(y);
}

int results_write(const struct results *r, FILE *f)
{
	struct yamlout y;
	const struct results_header *h = &r->header;
	if (yamlout_open(&y, f))
		return error("cannot start the YAML writer");
	yo_map(&y, 0);
	kv_str(&y, "format", RESULTS_FORMAT);
	yo_plain(&y, "header");
	yo_map(&y, 0);
	write_fields(&y, header_fields, HEADER_NOTES, h);
	write_gpu(&y, &h->gpu);
	yo_plain(&y, "spec");
	yo_map(&y, 0);
	write_fields(&y, spec_fields, SPEC_TEXT, h);
	yo_plain(&y, spec_fields[SPEC_TEXT].key);
	yo_literal(&y, h->spec_text);
	yo_map_end(&y);
	write_fields(&y, header_fields + HEADER_NOTES, 1, h);
	write_workload(&y, &h->workload);
	yo_map_end(&y);
	yo_plain(&y, "records");
	yo_seq(&y, 0);
	for (size_t i = 0; i < r->nrecords; i++)
		write_record(&y, &r->records[i], i + 1);
	yo_seq_end(&y);
	/* the end marker: a file without it was cut (docs/results-format.md) */
	yo_plain(&y, "end");
	yo_map(&y, 1);
	kv_u64(&y, "records", r->nrecords);
	yo_map_end(&y);
	yo_map_end(&y);
	if (yamlout_finish(&y)) {
		if (!errno)
			errno = EIO;
		return -1; /* the caller names the file */
	}
	return 0;
}

int results_save(const struct results *r, const char *path)
{
	struct outfile o;
	/* the results file record --resume continues is its own input */
	if (outfile_open(&o, path, "results file"))
		return -1;
	errno = 0;
	if (results_write(r, o.f)) {
		int e = errno ? errno : EIO;
		outfile_abort(&o);
		return error("cannot write '%s': %s", path, strerror(e));
	}
	return outfile_commit(&o);
}

/* ---- reading ----------------------------------------------------------- */

/* Fields of a mapping, read by table so every section checks keys alike. */

static int is_null(const struct ynode *n)
{
	return n && n->kind == Y_SCALAR && !n->quoted &&
	       (!strcmp(n->scalar, "~") || !strcmp(n->scalar, "null") || !n->scalar[0]);
}

static int unknown_key(const struct ytree *t, const struct ynode *key,
		       const char *const *valid, size_t nvalid, const char *section)
{
	char where[256];
	const char *near = nearest_word(key->scalar, valid, nvalid);
	if (near)
		return error("%s: unknown key '%s' in %s: did you mean '%s'?",
			     ynode_where(t, key, where, sizeof(where)), key->scalar, section, near);
	return error("%s: unknown key '%s' in %s", ynode_where(t, key, where, sizeof(where)),
		     key->scalar, section);
}

static int read_fields(const struct ytree *t, const struct ynode *map,
		       const struct field *f, size_t nf, void *base, const char *section,
		       const char *const *extra, size_t nextra)
{
	char where[256];
	const char *valid[48];
	size_t nvalid = 0;
	if (!map || map->kind != Y_MAP)
		return error("%s: %s must be a mapping", ynode_where(t, map, where, sizeof(where)), section);
	for (size_t i = 0; i < nf && nvalid < 48; i++)
		valid[nvalid++] = f[i].key;
	for (size_t i = 0; i < nextra && nvalid < 48; i++)
		valid[nvalid++] = extra[i];
	for (size_t k = 0; k < map->n; k++) {
		const char *key = map->keys[k]->scalar;
		size_t i;
		for (i = 0; i < nvalid; i++)
			if (!strcmp(valid[i], key))
				break;
		if (i == nvalid)
			return unknown_key(t, map->keys[k], valid, nvalid, section);
	}
	for (size_t i = 0; i < nf; i++) {
		const struct ynode *n = ynode_get(map, f[i].key);
		char *p = (char *)base + f[i].offset;
		char what[128];
		snprintf(what, sizeof(what), "%s.%s", section, f[i].key);
		if (!n || is_null(n)) {
			if (f[i].required)
				return error("%s: %s is missing: every record needs it",
					     ynode_where(t, map, where, sizeof(where)), what);
			if (f[i].type == F_DBL && n)
				*(double *)p = NAN;
			continue;
		}
		long long iv;
		double dv;
		int bv;
		const char *sv;
		switch (f[i].type) {
		case F_STR:
			if (ynode_string(t, n, what, &sv))
				return -1;
			free(*(char **)p);
			if (!(*(char **)p = strdup(sv)))
				return error("out of memory");
			break;
		case F_INT:
			if (ynode_int(t, n, what, &iv))
				return -1;
			if (f[i].lo || f[i].hi ? iv < f[i].lo || iv > f[i].hi : iv < -2147483647LL || iv > 2147483647LL)
				return error("%s: %s = %lld is out of range (%lld to %lld)", ynode_where(t, n, where, sizeof(where)),
					     what, iv, f[i].lo || f[i].hi ? f[i].lo : -2147483647LL,
					     f[i].lo || f[i].hi ? f[i].hi : 2147483647LL);
			*(int *)p = (int)iv;
			break;
		case F_U64: {
			unsigned long long uv;
			if (ynode_u64(t, n, what, &uv))
				return -1;
			*(uint64_t *)p = (uint64_t)uv;
			break;
		}
		case F_DBL:
			if (ynode_double(t, n, what, &dv))
				return -1;
			/* times, rates, byte counts, errors: a measurement is finite and not negative
			 * (.nan is how a value not measured is written, as ~ is: read as missing) */
			if (isinf(dv) || (dv < 0 && !(f[i].unknown_minus1 && dv == -1)))
				return error("%s: %s = %s is impossible: it must be a finite number%s (.nan or ~: not measured)",
					     ynode_where(t, n, where, sizeof(where)), what, n->scalar,
					     f[i].unknown_minus1 ? ", 0 or more, or -1" : ", 0 or more");
			*(double *)p = dv;
			break;
		case F_BOOL:
			if (ynode_bool(t, n, what, &bv))
				return -1;
			*(int *)p = bv;
			break;
		case F_ENUM: {
			const struct words *w = f[i].words;
			int k = 0;
			if (ynode_string(t, n, what, &sv))
				return -1;
			while (k < w->n && strcmp(sv, w->names[k]))
				k++;
			if (k == w->n)
				return error("%s: %s must be %s, not '%s'", ynode_where(t, n, where, sizeof(where)),
					     what, w->expect, sv);
			*(int *)p = k;
			break;
		}
		}
	}
	return 0;
}

static int read_kvlist(const struct ytree *t, const struct ynode *map, struct kvlist *l,
		       const char *section)
{
	char where[256], what[256];
	if (!map || is_null(map))
		return 0;
	if (map->kind != Y_MAP)
		return error("%s: %s must be a mapping of names to numbers",
			     ynode_where(t, map, where, sizeof(where)), section);
	for (size_t i = 0; i < map->n; i++) {
		double v;
		snprintf(what, sizeof(what), "%s.%s", section, map->keys[i]->scalar);
		if (is_null(map->items[i]))
			v = NAN;
		else if (ynode_double(t, map->items[i], what, &v))
			return -1;
		/* counters and byte counts (the model's values are attnprof's own arithmetic) */
		if (strcmp(section, "model") && (isinf(v) || v < 0))
			return error("%s: %s = %s is impossible: a counter or byte count is a finite number, 0 or more",
				     ynode_where(t, map->items[i], where, sizeof(where)), what, map->items[i]->scalar);
		if (kvlist_set(l, map->keys[i]->scalar, v))
			return -1;
	}
	return 0;
}

static int read_int3(const struct ytree *t, const struct ynode *n, int out[3], const char *what, int grid)
{
	char where[256];
	if (!n || is_null(n))
		return 0;
	if (n->kind != Y_SEQ || n->n != 3)
		return error("%s: %s must be a list of three numbers [x, y, z]",
			     ynode_where(t, n, where, sizeof(where)), what);
	/* CUDA's limits: a launch beyond them never ran */
	const long long max[3] = { grid ? MAX_GRID_X : MAX_BLOCK, grid ? MAX_GRID_YZ : MAX_BLOCK, grid ? MAX_GRID_YZ : 64 };
	long long threads = 1;
	for (int i = 0; i < 3; i++) {
		long long v;
		if (ynode_int(t, n->items[i], what, &v))
			return -1;
		if (v < 0 || v > max[i])
			return error("%s: %s[%d] = %lld is out of range (0 to %lld)",
				     ynode_where(t, n->items[i], where, sizeof(where)), what, i, v, max[i]);
		out[i] = (int)v;
		threads *= v;
	}
	if (!grid && threads > MAX_BLOCK)
		return error("%s: %s has %lld threads, more than %d", ynode_where(t, n, where, sizeof(where)), what,
			     threads, MAX_BLOCK);
	return 0;
}


static int read_gpu(const struct ytree *t, const struct ynode *n, struct gpu_info *g)
{
	static const char *const extra[] = { "cc", "ceilings" };
	if (!n || is_null(n))
		return 0;
	if (read_fields(t, n, gpu_fields, N_GPU_FIELDS, g, "header.gpu", extra, 2))
		return -1;
	const struct ynode *ce = ynode_get(n, "ceilings");
	if (ce && !is_null(ce) &&
	    read_fields(t, ce, ceiling_fields, N_CEILING_FIELDS, &g->ceil, "header.gpu.ceilings", NULL, 0))
		return -1;
	const struct ynode *cc = ynode_get(n, "cc");
	if (cc && cc->kind == Y_SCALAR)
		sscanf(cc->scalar, "%d.%d", &g->hw.cc_major, &g->hw.cc_minor);
	return 0;
}

static int digits(const char *s, int n, int *v)
{
	*v = 0;
	for (int i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		*v = *v * 10 + (s[i] - '0');
	}
	return 0;
}

int results_date(const char *s, double *utc)
{
	int y, mo, d, h, mi, sec, oh = 0, om = 0;
	if (!s || strlen(s) < 20 || digits(s, 4, &y) || s[4] != '-' || digits(s + 5, 2, &mo) || s[7] != '-' ||
	    digits(s + 8, 2, &d) || (s[10] != 'T' && s[10] != 't' && s[10] != ' ') || digits(s + 11, 2, &h) ||
	    s[13] != ':' || digits(s + 14, 2, &mi) || s[16] != ':' || digits(s + 17, 2, &sec))
		return -1;
	const char *p = s + 19;
	double frac = 0, scale = 0.1;
	if (*p == '.') {
		if (p[1] < '0' || p[1] > '9')
			return -1;
		for (p++; *p >= '0' && *p <= '9'; p++, scale /= 10)
			frac += (*p - '0') * scale;
	}
	int sign = 0;
	if (*p == 'Z' || *p == 'z')
		p++;
	else if ((*p == '+' || *p == '-') && !digits(p + 1, 2, &oh) && p[3] == ':' && !digits(p + 4, 2, &om)) {
		sign = *p == '-' ? -1 : 1;
		p += 6;
	} else
		return -1;
	static const int mdays[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
	if (*p || mo < 1 || mo > 12 || d < 1 || d > mdays[mo - 1] + (mo == 2 && leap) || h > 23 || mi > 59 ||
	    sec > 60 || oh > 23 || om > 59)
		return -1;
	/* days since 1970-01-01 of the civil date (H. Hinnant's days_from_civil) */
	int yy = y - (mo <= 2);
	int era = yy / 400, yoe = yy - era * 400;
	int doy = (153 * (mo + (mo > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	long days = (long)era * 146097 + yoe * 365 + yoe / 4 - yoe / 100 + doy - 719468;
	*utc = (double)days * 86400 + h * 3600 + mi * 60 + sec + frac - sign * (oh * 3600 + om * 60);
	return 0;
}

/* One kernel line of header.workload.kernels: 11 whole numbers, each held
 * to its range (a name and a stream of the tables, CUDA's grid and block
 * limits, attention 0 or 1); an error names the number's own column. */
static int read_workload_kernel(const struct ytree *t, const struct ynode *n, size_t i, const struct workload_list *w,
				uint64_t t0, struct workload_kernel *k)
{
	char what[80];
	snprintf(what, sizeof what, "header.workload.kernels[%zu]", i);
	if (!n || n->kind != Y_SCALAR || n->quoted)
		return error("%s:%d:%d: %s must be one line of 11 whole numbers (" WORKLOAD_COLUMNS ")",
			     t->filename ? t->filename : "<input>", n ? n->line : 0, n ? n->col : 0, what);
	static const char *const col[] = { "name", "stream", "start_ns", "dur_ns", "grid_x", "grid_y", "grid_z",
					   "block_x", "block_y", "block_z", "attention" };
	const unsigned long long max[11] = { w->nnames ? w->nnames - 1 : 0, w->nstreams ? w->nstreams - 1 : 0,
					     UINT64_MAX - t0, UINT64_MAX, MAX_GRID_X, MAX_GRID_YZ, MAX_GRID_YZ,
					     MAX_BLOCK, MAX_BLOCK, 64, 1 };
	unsigned long long v[11];
	const char *p = n->scalar;
	for (int c = 0; c < 11; c++) {
		while (*p == ' ')
			p++;
		const int at = n->col + (int)(p - n->scalar);
		char *end;
		errno = 0;
		v[c] = *p >= '0' && *p <= '9' ? strtoull(p, &end, 10) : 0;
		if (!(*p >= '0' && *p <= '9') || errno || (*end && *end != ' '))
			return error("%s:%d:%d: %s has no whole number for %s (column %d of " WORKLOAD_COLUMNS ")",
				     t->filename ? t->filename : "<input>", n->line, at, what, col[c], c + 1);
		if (v[c] > max[c] || ((c == 0 && !w->nnames) || (c == 1 && !w->nstreams)))
			return error("%s:%d:%d: %s.%s = %llu is impossible: %s", t->filename ? t->filename : "<input>",
				     n->line, at, what, col[c], v[c],
				     c == 0 ? "there is no such entry in header.workload.names"
				     : c == 1 ? "there is no such entry in header.workload.streams"
				     : c == 10 ? "it is 1 (a kernel of an attention call) or 0"
				     : c >= 4 ? "beyond CUDA's grid and block limits"
					      : "past the largest GPU timestamp");
		p = end;
	}
	while (*p == ' ')
		p++;
	if (*p)
		return error("%s:%d:%d: %s has more than 11 numbers (" WORKLOAD_COLUMNS ")",
			     t->filename ? t->filename : "<input>", n->line, n->col + (int)(p - n->scalar), what);
	if (v[7] * v[8] * v[9] > MAX_BLOCK)
		return error("%s:%d:%d: %s has a block of %llu threads, more than %d", t->filename ? t->filename : "<input>",
			     n->line, n->col, what, v[7] * v[8] * v[9], MAX_BLOCK);
	k->name = (uint32_t)v[0], k->stream = (uint32_t)v[1];
	k->start_ns = t0 + v[2], k->dur_ns = v[3];
	for (int c = 0; c < 3; c++)
		k->grid[c] = (int)v[4 + c], k->block[c] = (int)v[7 + c];
	k->attention = (int)v[10];
	return 0;
}

/* header.workload (docs/results-format.md, "The workload's kernels"): the
 * list is whole (kept + dropped = gpu_kernels), each stream within
 * per_stream, all within most. */
static int read_workload(const struct ytree *t, const struct ynode *n, struct results_header *h)
{
	static const char *const extra[] = { "t0_ns", "columns", "names", "streams", "kernels" };
	struct workload_list *w = &h->workload;
	char where[256];
	if (!n || is_null(n))
		return 0;
	if (read_fields(t, n, workload_fields, N_WORKLOAD_FIELDS, w, "header.workload", extra, 5))
		return -1;
	if (!w->per_stream || !w->most)
		return error("%s: header.workload.%s = 0 is impossible: a list is kept under bounds of 1 or more",
			     ynode_where(t, ynode_get(n, w->per_stream ? "most" : "per_stream"), where, sizeof where),
			     w->per_stream ? "most" : "per_stream");
	const struct ynode *cols = ynode_get(n, "columns"), *t0n = ynode_get(n, "t0_ns");
	const char *cs = NULL;
	unsigned long long t0 = 0;
	if (!cols || ynode_string(t, cols, "header.workload.columns", &cs))
		return cols ? -1 : error("%s: header.workload.columns is missing", ynode_where(t, n, where, sizeof where));
	if (strcmp(cs, WORKLOAD_COLUMNS))
		return error("%s: header.workload.columns must be '" WORKLOAD_COLUMNS "' (this attnprof's layout), not '%s'",
			     ynode_where(t, cols, where, sizeof where), cs);
	if (!t0n || ynode_u64(t, t0n, "header.workload.t0_ns", &t0))
		return t0n ? -1 : error("%s: header.workload.t0_ns is missing", ynode_where(t, n, where, sizeof where));
	const struct ynode *names = ynode_get(n, "names"), *streams = ynode_get(n, "streams"),
			   *kernels = ynode_get(n, "kernels");
	const char *const part[] = { "names", "streams", "kernels" };
	const struct ynode *parts[] = { names, streams, kernels };
	for (int i = 0; i < 3; i++)
		if (!parts[i] || parts[i]->kind != Y_SEQ)
			return error("%s: header.workload.%s must be a list", ynode_where(t, parts[i] ? parts[i] : n, where,
										 sizeof where), part[i]);
	if (names->n && !(w->names = calloc(names->n, sizeof *w->names)))
		return error("out of memory");
	for (size_t i = 0; i < names->n; i++) {
		const char *sv;
		if (ynode_string(t, names->items[i], "header.workload.names[]", &sv))
			return -1;
		if (!(w->names[w->nnames++] = strdup(sv)))
			return error("out of memory");
	}
	if (streams->n && !(w->streams = calloc(streams->n, sizeof *w->streams)))
		return error("out of memory");
	for (size_t i = 0; i < streams->n; i++) {
		const struct ynode *s = streams->items[i];
		long long pid, id;
		if (s->kind != Y_SEQ || s->n != 2)
			return error("%s: header.workload.streams[%zu] must be [pid, stream id]",
				     ynode_where(t, s, where, sizeof where), i);
		if (ynode_int(t, s->items[0], "header.workload.streams[].pid", &pid) ||
		    ynode_int(t, s->items[1], "header.workload.streams[].id", &id))
			return -1;
		if (pid < 0 || pid > 0x7fffffff || id < 0 || id > 0xffffffffLL)
			return error("%s: header.workload.streams[%zu] = [%lld, %lld] is out of range (a pid 0 to 2^31-1, "
				     "a stream id 0 to 2^32-1)", ynode_where(t, s, where, sizeof where), i, pid, id);
		w->streams[w->nstreams++] = (struct workload_stream){ (int)pid, (uint32_t)id, 0 };
	}
	if (kernels->n > w->most)
		return error("%s: header.workload.kernels holds %zu kernels, more than its bound most = %llu",
			     ynode_where(t, kernels, where, sizeof where), kernels->n, (unsigned long long)w->most);
	if (kernels->n && !(w->k = calloc(kernels->n, sizeof *w->k)))
		return error("out of memory");
	w->cap = kernels->n;
	uint64_t att = 0;
	for (size_t i = 0; i < kernels->n; i++) {
		struct workload_kernel *k = &w->k[i];
		if (read_workload_kernel(t, kernels->items[i], i, w, t0, k))
			return -1;
		w->n++;
		att += (uint64_t)k->attention;
		if (++w->streams[k->stream].kept > w->per_stream)
			return error("%s: header.workload.kernels[%zu] is kernel %llu of stream %u, past its bound "
				     "per_stream = %llu", ynode_where(t, kernels->items[i], where, sizeof where), i,
				     (unsigned long long)w->streams[k->stream].kept, k->stream,
				     (unsigned long long)w->per_stream);
	}
	/* every kernel counted is kept or said dropped: never silently lost */
	if (w->n + w->dropped != h->gpu_kernels)
		return error("%s: header.workload keeps %zu kernels and says %llu dropped, but header.gpu_kernels "
			     "counted %llu: the list must account for every kernel counted", ynode_where(t, n, where, sizeof where),
			     w->n, (unsigned long long)w->dropped, (unsigned long long)h->gpu_kernels);
	if (att > h->attention_kernels)
		return error("%s: header.workload keeps %llu kernels of attention calls, more than "
			     "header.attention_kernels = %llu", ynode_where(t, n, where, sizeof where),
			     (unsigned long long)att, (unsigned long long)h->attention_kernels);
	return 0;
}

static int read_header(const struct ytree *t, const struct ynode *n, struct results_header *h)
{
	static const char *const extra[] = { "gpu", "spec", "workload" };
	if (read_fields(t, n, header_fields, N_HEADER_FIELDS, h, "header", extra, 3))
		return -1;
	if (read_workload(t, ynode_get(n, "workload"), h))
		return -1;
	if (read_gpu(t, ynode_get(n, "gpu"), &h->gpu))
		return -1;
	/* an instant, so newest-wins compares instants (merge, report of several files) */
	h->date_known = 0;
	if (h->date) {
		char where[256];
		if (results_date(h->date, &h->date_utc))
			return error("%s: header.date must be an RFC 3339 date and time with 'Z' or an offset "
				     "(2026-12-02T02:14:50Z, 2026-12-02T10:00:00+09:00), not '%s'",
				     ynode_where(t, ynode_get(n, "date"), where, sizeof(where)), h->date);
		h->date_known = 1;
	}
	/* "K/N", 1 <= K <= N: merge reads it to know what the file should hold */
	if (h->shard) {
		char where[256];
		int k, cnt, quiet = error_quiet(1);
		int bad = shard_parse("header.shard", h->shard, &k, &cnt);
		error_quiet(quiet);
		if (bad)
			return error("%s: header.shard must be K/N, part K of N counted from 1, 1 <= K <= N <= %d (as "
				     "'record --shard' writes it), not '%s'", ynode_where(t, ynode_get(n, "shard"), where, sizeof(where)),
				     SHARD_MAX, h->shard);
	}
	const struct ynode *spec = ynode_get(n, "spec");
	if (spec && !is_null(spec) && read_fields(t, spec, spec_fields, N_SPEC_FIELDS, h, "header.spec", NULL, 0))
		return -1;
	return 0;
}

static int read_launch(const struct ytree *t, const struct ynode *n, struct launch *l)
{
	static const char *const extra[] = { "grid", "block", "metrics" };
	if (read_fields(t, n, launch_fields, N_LAUNCH_FIELDS, l, "launch", extra, 3) ||
	    read_int3(t, ynode_get(n, "grid"), l->grid, "launch.grid", 1) ||
	    read_int3(t, ynode_get(n, "block"), l->block, "launch.block", 0) ||
	    read_kvlist(t, ynode_get(n, "metrics"), &l->metrics, "launch.metrics"))
		return -1;
	return 0;
}

static int read_metrics(const struct ytree *t, const struct ynode *n, struct record *r)
{
	static const struct field f[] = {
		{ "reason", F_STR, OFF(struct record, metrics_reason), 0 },
		{ "set", F_STR, OFF(struct record, metric_set), 0 },
		{ "replay", F_STR, OFF(struct record, replay), 0 },
		{ "l2_flushed", F_BOOL, OFF(struct record, l2_flushed), 0 },
	};
	static const char *const extra[] = { "status", "totals", "launches" };
	char where[256];
	if (!n || is_null(n))
		return 0;
	if (read_fields(t, n, f, sizeof(f) / sizeof(f[0]), r, "metrics", extra, 3))
		return -1;
	if (r->replay && strcmp(r->replay, "kernel") && strcmp(r->replay, "user") && strcmp(r->replay, "application"))
		return error("%s: metrics.replay must be kernel, user or application, not '%s'",
			     ynode_where(t, ynode_get(n, "replay"), where, sizeof(where)), r->replay);
	const struct ynode *st = ynode_get(n, "status");
	if (st) {
		const char *s;
		if (ynode_string(t, st, "metrics.status", &s))
			return -1;
		size_t i;
		for (i = 0; i < 3; i++)
			if (!strcmp(s, status_names[i]))
				break;
		if (i == 3)
			return error("%s: metrics.status must be ok, unavailable or not-requested, not '%s'",
				     ynode_where(t, st, where, sizeof(where)), s);
		r->metrics_status = (enum metrics_status)i;
	}
	if (read_kvlist(t, ynode_get(n, "totals"), &r->totals, "metrics.totals"))
		return -1;
	const struct ynode *ls = ynode_get(n, "launches");
	if (ls && !is_null(ls)) {
		if (ls->kind != Y_SEQ)
			return error("%s: metrics.launches must be a list", ynode_where(t, ls, where, sizeof(where)));
		r->launches = calloc(ls->n ? ls->n : 1, sizeof(*r->launches));
		if (!r->launches)
			return error("out of memory");
		for (size_t i = 0; i < ls->n; i++) {
			r->nlaunches = i + 1;
			if (read_launch(t, ls->items[i], &r->launches[i]))
				return -1;
		}
	}
	return 0;
}

static int read_capture(const struct ytree *t, const struct ynode *n, struct record *r)
{
	if (!(r->capture = calloc(1, sizeof *r->capture)))
		return error("out of memory");
	r->capture->nn_matrices = -1;
	r->capture->l2_write_bytes = r->capture->dram_write_bytes = r->capture->footprint_bytes = -1;
	r->capture->alloc_bytes = -1;
	return read_fields(t, n, capture_fields, N_CAPTURE_FIELDS, r->capture, "capture", NULL, 0);
}

/* correctness.gradients: a mapping of dQ, dK, dV (any of them) to their errors */
static int read_grads(const struct ytree *t, const struct ynode *n, struct record *r)
{
	char where[256], what[64];
	if (!n || is_null(n))
		return 0;
	if (n->kind != Y_MAP)
		return error("%s: correctness.gradients must be a mapping of dQ, dK, dV to their errors",
			     ynode_where(t, n, where, sizeof(where)));
	for (size_t k = 0; k < n->n; k++) {
		int g;
		for (g = 0; g < RECORD_GRADS; g++)
			if (!strcmp(n->keys[k]->scalar, record_grad_names[g]))
				break;
		if (g == RECORD_GRADS)
			return unknown_key(t, n->keys[k], record_grad_names, RECORD_GRADS, "correctness.gradients");
		snprintf(what, sizeof(what), "correctness.gradients.%s", record_grad_names[g]);
		if (read_fields(t, n->items[k], grad_fields, N_GRAD_FIELDS, &r->grad[g], what, NULL, 0))
			return -1;
		r->grad[g].checked = 1;
	}
	return 0;
}

static int read_record(const struct ytree *t, const struct ynode *n, struct record *r)
{
	static const char *const extra[] = { "timing", "memory", "correctness", "metrics", "model", "capture", "end" };
	static const char *const mem_extra[] = { "allocs" };
	static const char *const grads_extra[] = { "gradients" };
	char where[256];

	if (read_fields(t, n, record_fields, N_RECORD_FIELDS, r, "record", extra, 7))
		return -1;
	const struct ynode *pass = ynode_get(n, "pass");
	r->pass_given = pass && !is_null(pass);
	size_t name_len = strlen(r->variant) + (strcmp(r->source, "attnprof") ? strlen(r->source) + 1 : 0);
	if (name_len > MAX_SERIES_NAME)
		return error("%s: record.variant is %zu bytes with its source '%.40s': a series name takes at most %d "
			     "(a longer one would be cut and could merge with another series); shorten the implementation's name",
			     ynode_where(t, ynode_get(n, "variant"), where, sizeof(where)), name_len, r->source, MAX_SERIES_NAME);
	const struct ynode *cap = ynode_get(n, "capture");
	if (cap && !is_null(cap) && read_capture(t, cap, r))
		return -1;
	/* a captured call whose range gave no shape keeps zeros and phase "unknown" */
	int unknown_shape = r->capture && !r->capture->shape_known;
	struct attn_shape *sh = &r->shape;
	if (sh->phase == PHASE_UNKNOWN && !unknown_shape)
		return error("%s: record.phase must be %s, not '%s'", ynode_where(t, ynode_get(n, "phase"), where, sizeof(where)),
			     phase_words.expect, phase_name(sh->phase));
	if (!unknown_shape && (sh->batch < 1 || sh->heads < 1 || sh->seqlen_q < 1 || sh->seqlen_kv < 1 || sh->head_dim < 1))
		return error("%s: record shape must be positive (batch %d, heads %d, seqlen_q %d, seqlen_kv %d, head_dim %d)",
			     ynode_where(t, n, where, sizeof(where)), sh->batch, sh->heads, sh->seqlen_q,
			     sh->seqlen_kv, sh->head_dim);
	/* a file's missing kv_heads becomes H here, once (range_parse and the spec give their own) */
	sh->kv_heads = kv_heads_or_heads(sh->kv_heads, sh->heads);
	const struct ynode *s;
	if ((s = ynode_get(n, "timing")) && !is_null(s) &&
	    read_fields(t, s, timing_fields, N_TIMING_FIELDS, r, "timing", NULL, 0))
		return -1;
	if (s && r->time_ms_max < r->time_ms_min) /* NaN (not given) compares false */
		return error("%s: timing.time_ms_max = %g is below timing.time_ms_min = %g: impossible",
			     ynode_where(t, ynode_get(s, "time_ms_max"), where, sizeof(where)), r->time_ms_max, r->time_ms_min);
	/* the median of the timed launches lies between the fastest and the slowest (NaN: not given) */
	if (s && r->time_ms > 0 && (r->time_ms < r->time_ms_min || r->time_ms > r->time_ms_max))
		return error("%s: timing.time_ms = %g, the median, is outside timing.time_ms_min = %g .. time_ms_max = %g: "
			     "impossible",
			     ynode_where(t, ynode_get(s, "time_ms"), where, sizeof(where)), r->time_ms, r->time_ms_min,
			     r->time_ms_max);
	if ((s = ynode_get(n, "correctness")) && !is_null(s) &&
	    (read_fields(t, s, correctness_fields, N_CORRECTNESS_FIELDS, r, "correctness", grads_extra, 1) ||
	     read_grads(t, ynode_get(s, "gradients"), r)))
		return -1;
	if (s && r->checked && r->correct && r->rel_l2_err > 1)
		return error("%s: correctness.rel_l2_err = %g beside correct: true is impossible (an error above 1 is "
			     "larger than the reference itself)",
			     ynode_where(t, ynode_get(s, "rel_l2_err"), where, sizeof(where)), r->rel_l2_err);
	if ((s = ynode_get(n, "memory")) && !is_null(s) &&
	    (read_fields(t, s, memory_fields, N_MEMORY_FIELDS, r, "memory", mem_extra, 1) ||
	     read_kvlist(t, ynode_get(s, "allocs"), &r->allocs, "memory.allocs")))
		return -1;
	if (read_metrics(t, ynode_get(n, "metrics"), r))
		return -1;
	if (read_kvlist(t, ynode_get(n, "model"), &r->model, "model"))
		return -1;
	/* Files written by other software may give launches without totals. */
	if (r->nlaunches && !r->totals.n && results_sum_launches(r))
		return -1;
	return 0;
}

/* True when offset lies on the last two lines of text (where a cut stops the parser). */
static int stop_on_last_lines(const char *text, size_t len, size_t offset)
{
	int newlines = 0;
	for (size_t i = offset; i < len; i++)
		newlines += text[i] == '\n';
	return newlines <= 1;
}

/* Format 2: a record is whole when its last key is `end: K`, K its place
 * (1-based) in the file. */
static int record_whole(const struct ynode *item, size_t k)
{
	if (item->kind != Y_MAP || !item->n || strcmp(item->keys[item->n - 1]->scalar, "end"))
		return 0;
	const struct ynode *v = item->items[item->n - 1];
	char want[32];
	snprintf(want, sizeof(want), "%zu", k);
	return v && v->kind == Y_SCALAR && !strcmp(v->scalar, want);
}

struct keyed {
	char key[256];
	size_t i;
};

static int keyed_cmp(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;
	int c = strcmp(x->key, y->key);
	return c ? c : x->i < y->i ? -1 : x->i > y->i;
}

/* Two records of one config in one file (a hand merge, a resume after the
 * file was edited): readers take the first; a note says so.  Sorted: n log n. */
static void note_duplicate_records(const struct results *r, const char *filename)
{
	if (r->nrecords < 2)
		return;
	struct keyed *k = malloc(r->nrecords * sizeof(*k));
	if (!k)
		return; /* only a note is lost */
	for (size_t i = 0; i < r->nrecords; i++) {
		record_key(&r->records[i], k[i].key, sizeof(k[i].key));
		k[i].i = i;
	}
	qsort(k, r->nrecords, sizeof(*k), keyed_cmp);
	size_t dups = 0, first = 0, second = 0;
	for (size_t i = 1; i < r->nrecords; i++)
		if (!strcmp(k[i].key, k[i - 1].key) && !dups++) {
			first = k[i - 1].i;
			second = k[i].i;
		}
	if (dups)
		note("%s has %zu record%s of a config an earlier record already has (first: records %zu and %zu, "
		     "variant '%s'): a figure or a value takes the earlier one", filename, dups, dups == 1 ? "" : "s",
		     first + 1, second + 1, r->records[first].variant);
	free(k);
}

int results_parse(struct results *r, const char *text, size_t len,
		  const char *filename, int *cut)
{
	struct ytree t;
	char where[256], why[320] = "";
	int rc = -1;
	if (cut)
		*cut = 0;
	results_init(r);
	int parsed = ytree_parse(&t, text, len, filename, &ytree_results_limits, 1);
	const struct ynode *root = t.root;
	/* Only a syntax stop at the very end is a cut; anything else is a bad file. */
	if (parsed && (!root || t.refused || !stop_on_last_lines(text, len, t.problem_offset))) {
		error("%s", t.problem);
		ytree_release(&t);
		return -1;
	}
	if (!root || root->kind != Y_MAP) {
		error("%s: not an attnprof results file (expected a mapping with format, header, records)",
		      filename);
		goto out;
	}
	static const char *const top[] = { "format", "header", "records", "end" };
	for (size_t k = 0; k < root->n; k++) {
		const char *key = root->keys[k]->scalar;
		if (strcmp(key, top[0]) && strcmp(key, top[1]) && strcmp(key, top[2]) && strcmp(key, top[3])) {
			unknown_key(&t, root->keys[k], top, 4, "the results file");
			goto out;
		}
	}
	const struct ynode *fmt = ynode_get(root, "format");
	if (!fmt || fmt->kind != Y_SCALAR) {
		error("%s: no 'format: %s' line: not an attnprof results file%s",
		      filename, RESULTS_FORMAT, parsed ? " (or it was cut before it)" : "");
		goto out;
	}
	int version = !strcmp(fmt->scalar, RESULTS_FORMAT) ? 2 : !strcmp(fmt->scalar, RESULTS_FORMAT_1) ? 1 : 0;
	if (!version) {
		error("%s: format '%s' is not supported (this attnprof reads %s and %s)",
		      ynode_where(&t, fmt, where, sizeof(where)), fmt->scalar, RESULTS_FORMAT, RESULTS_FORMAT_1);
		goto out;
	}
	r->format = version;
	const struct ynode *hdr = ynode_get(root, "header"), *recs = ynode_get(root, "records"),
			  *end = ynode_get(root, "end");
	if (version == 2 && !recs && !end) {
		error("%s: cut short inside its header (no records, no end marker): nothing can be read from it",
		      filename);
		goto out;
	}
	if (!hdr || (parsed && !hdr->complete)) {
		error("%s: the header is missing or cut%s%s", filename,
		      parsed ? ": " : "", parsed ? t.problem : "");
		goto out;
	}
	if (read_header(&t, hdr, &r->header))
		goto out;
	/* format 2 ends with `end: {records: N}`: without it the file is cut */
	long long nend = -1;
	if (version == 2 && end) {
		const struct ynode *n = ynode_get(end, "records");
		int old = error_quiet(1);
		if (end->kind != Y_MAP || end->n != 1 || !n || ynode_int(&t, n, "end.records", &nend))
			nend = -1;
		error_quiet(old);
	}
	size_t nrecs = recs && !is_null(recs) ? recs->n : 0;
	if (recs && !is_null(recs) && recs->kind != Y_SEQ) {
		error("%s: records must be a list", ynode_where(&t, recs, where, sizeof(where)));
		goto out;
	}
	for (size_t i = 0; i < nrecs; i++) {
		struct record rec;
		const struct ynode *item = recs->items[i];
		int last = i == nrecs - 1;
		/*
		 * A cut file ends in a record that is not whole.  Format 2: its
		 * mapping does not end with `end: K`.  Format 1 (no marker):
		 * its mapping never closed (syntax stop), or it closed at end of
		 * input without the `error` key attnprof writes last, or it
		 * lacks a required key.  Drop that one record, keep the rest.
		 */
		if (version == 2 && !record_whole(item, i + 1)) {
			if (!last || end) {
				error("%s: record %zu does not end with 'end: %zu' though the file goes on: not written "
				      "by attnprof (or edited by hand)", ynode_where(&t, item, where, sizeof(where)), i + 1,
				      i + 1);
				goto out;
			}
			snprintf(why, sizeof(why), "record %zu, at line %d, is incomplete", i + 1, item->line);
			break;
		}
		/* (attnprof writes `error: ~`; an empty value is a cut after the colon) */
		const struct ynode *err = item->kind == Y_MAP ? ynode_get(item, "error") : NULL;
		if (version == 1 && last &&
		    (!item->complete || item->kind != Y_MAP ||
		     (r->header.tool_version && (!err || (err->kind == Y_SCALAR && !err->quoted && !err->scalar[0]))))) {
			snprintf(why, sizeof(why), "its last record is incomplete");
			break;
		}
		record_init(&rec);
		int old = error_quiet(last && version == 1);
		if (old)
			error_quiet(old); /* a caller's quiet stays quiet */
		int bad = read_record(&t, item, &rec);
		error_quiet(old);
		if (bad && last && version == 1 && strstr(error_last(), "is missing")) {
			record_release(&rec);
			snprintf(why, sizeof(why), "its last record is incomplete");
			break;
		}
		if (bad) {
			if (last && version == 1)
				error("%s", error_last());
			record_release(&rec);
			goto out;
		}
		if (results_add(r, &rec))
			goto out;
	}
	if (version == 2 && end && nend != (long long)nrecs) {
		/* every writer ends the file with a newline: without it, or with
		 * 'end:' and nothing after it, the end marker itself was cut
		 * ('records: 97' -> 'records: 9') */
		if ((parsed || is_null(end) || (len && text[len - 1] != '\n')) && !why[0]) {
			snprintf(why, sizeof(why), "inside its end marker, after record %zu", nrecs);
		} else {
			error("%s: the end marker must be 'end: {records: %zu}', the number of records above it",
			      ynode_where(&t, end, where, sizeof(where)), nrecs);
			goto out;
		}
	}
	if (version == 2 && !end && !why[0])
		snprintf(why, sizeof(why), "no end marker after record %zu: the records after it, if any, are lost", nrecs);
	if (parsed && !why[0])
		snprintf(why, sizeof(why), "%.300s", t.problem);
	note_duplicate_records(r, filename);
	if (why[0]) {
		warning("%s is cut short (%s): kept its %zu complete record%s",
			filename, why, r->nrecords, r->nrecords == 1 ? "" : "s");
		if (cut)
			*cut = 1;
		free(r->cut_where);
		if (!(r->cut_where = strdup(why))) {
			error("out of memory reading '%s'", filename);
			goto out;
		}
	}
	rc = 0;
out:
	ytree_release(&t);
	if (rc)
		results_release(r);
	return rc;
}

int results_load(struct results *r, const char *path, int *cut)
{
	char *buf;
	size_t len;
	results_init(r);
	/* One byte over the parser's limit, so it reports the size itself. */
	if (read_whole_file(path, ytree_results_limits.max_bytes, "results file", &buf, &len))
		return -1;
	int rc = results_parse(r, buf, len, path, cut);
	free(buf);
	return rc;
}
