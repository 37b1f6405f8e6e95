/* export_trace.c: a results file as Chrome trace-event JSON; see
 * export_trace.h for the layout. */
#include "export_trace.h"
#include "export.h"
#include "util/yamlout.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define PID 1
/* otherData.workload, where the file keeps the program's kernels */
#define WORKLOAD_LAYOUT \
	",\"workload\":\"the program's kernels (header.workload) are in GPU time from the earliest one's start: " \
	"a process for each program process (pid 2 on), its span on track 1, a track per stream, a kernel that " \
	"starts before the one before it on its stream ends on a further track; cat workload, and " \
	"workload,attention for the kernels of attention calls; not aligned with the GPU's calls above, whose " \
	"times a results file does not hold\""

/* a time in ns as the format's microseconds, exactly (3 decimals) */
static void put_us(FILE *f, const char *key, int64_t ns)
{
	fprintf(f, ",\"%s\":%" PRId64 ".%03" PRId64, key, ns / 1000, ns % 1000);
}

static void put_num(FILE *f, const char *key, double v)
{
	char buf[40];
	fprintf(f, ",\"%s\":%s", key, isfinite(v) ? format_double(v, buf, sizeof(buf)) : "null");
}

static void put_str(FILE *f, const char *key, const char *s)
{
	fprintf(f, ",\"%s\":", key);
	if (s)
		json_string(f, s);
	else
		fputs("null", f);
}

static const char *bool_word(int v) { return v ? "true" : "false"; }

/* The streams the records name, in order first seen: tid = index + 1. */
struct streams {
	size_t n;
	uint64_t *h;
};

static uint64_t record_stream(const struct record *rec)
{
	return rec->capture ? rec->capture->stream : 0;
}

static long stream_tid(struct streams *s, uint64_t h, int add)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->h[i] == h)
			return (long)i + 1;
	if (!add)
		return -1;
	uint64_t *p = realloc(s->h, (s->n + 1) * sizeof(*p));
	if (!p)
		return -1;
	s->h = p;
	s->h[s->n++] = h;
	return (long)s->n;
}

/* The record's time in ns: its median, else its kernels' sum (0: none). */
static int64_t launch_ns(const struct launch *l)
{
	const double *v = kvlist_get(&l->metrics, "gpu__time_duration.sum");
	return v && isfinite(*v) && *v > 0 ? (int64_t)llround(*v) : -1;
}

static int64_t kernels_ns(const struct record *rec, int *all)
{
	int64_t sum = 0;
	*all = rec->nlaunches > 0;
	for (size_t i = 0; i < rec->nlaunches; i++) {
		int64_t ns = launch_ns(&rec->launches[i]);
		if (ns < 0)
			*all = 0;
		else
			sum += ns;
	}
	return *all ? sum : 0;
}

static const char *time_source(const struct record *rec, int from_kernels)
{
	if (from_kernels)
		return "kernels";
	if (rec->capture && rec->capture->time_source)
		return rec->capture->time_source;
	return "events";
}

static void call_name(const struct record *rec, char *buf, size_t len)
{
	const struct attn_shape *s = &rec->shape;
	int n = 0;
	if (rec->capture)
		n = snprintf(buf, len, "call %d ", rec->capture->call);
	if (n < 0 || (size_t)n >= len)
		n = 0;
	if (s->batch)
		snprintf(buf + n, len - n, "%s %s %s B=%d H=%d Nq=%d Nkv=%d d=%d%s", rec->variant, record_pass(rec),
			 dtype_name(s->dtype), s->batch, s->heads, s->seqlen_q, s->seqlen_kv, s->head_dim,
			 s->causal ? " causal" : "");
	else
		snprintf(buf + n, len - n, "%s %s (shape unknown)", rec->variant, record_pass(rec));
}

static void call_args(FILE *f, const struct record *rec, int from_kernels)
{
	char key[256];
	record_key(rec, key, sizeof(key));
	const struct attn_shape *s = &rec->shape;
	fputs(",\"args\":{\"identity\":", f);
	json_string(f, key);
	put_str(f, "source", rec->source);
	put_str(f, "variant", rec->variant);
	put_str(f, "phase", phase_name(s->phase));
	put_str(f, "pass", record_pass(rec));
	put_str(f, "dtype", dtype_name(s->dtype));
	fprintf(f, ",\"batch\":%d,\"heads\":%d,\"kv_heads\":%d,\"seqlen_q\":%d,\"seqlen_kv\":%d,\"head_dim\":%d,"
		   "\"causal\":%s",
		s->batch, s->heads, kv_heads_or_heads(s->kv_heads, s->heads), s->seqlen_q, s->seqlen_kv,
		s->head_dim, bool_word(s->causal));
	put_str(f, "time_source", time_source(rec, from_kernels));
	put_num(f, "time_ms", rec->time_ms);
	put_num(f, "time_ms_min", rec->time_ms_min);
	put_num(f, "time_ms_max", rec->time_ms_max);
	put_num(f, "tflops", rec->tflops);
	/* the verdicts: the fp64 check, and for a captured call the
	 * stored-or-not verdict (N x N matrices written beyond the outputs) */
	if (rec->checked)
		fprintf(f, ",\"correct\":%s", bool_word(rec->correct));
	else
		put_str(f, "correct", "not checked");
	if (rec->capture) {
		const struct capture_info *c = rec->capture;
		put_str(f, "range", c->range);
		put_str(f, "origin", c->origin);
		put_str(f, "family", c->family);
		fprintf(f, ",\"nn_matrices\":%d", c->nn_matrices);
		put_str(f, "verdict_rule", c->verdict_rule);
		put_num(f, "kernel_ms", c->kernel_ms);
		if (c->problem)
			put_str(f, "problem", c->problem);
	}
	if (rec->error)
		put_str(f, "error", rec->error);
	fputc('}', f);
}

static void kernel_event(FILE *f, const struct launch *l, long tid, int64_t ts, int64_t dur, int measured)
{
	fputs(",\n{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":", f);
	json_string(f, l->name ? l->name : "(unnamed kernel)");
	fprintf(f, ",\"pid\":%d,\"tid\":%ld", PID, tid);
	put_us(f, "ts", ts);
	put_us(f, "dur", dur);
	fprintf(f, ",\"args\":{\"grid\":[%d,%d,%d],\"block\":[%d,%d,%d],\"registers\":%d,\"static_smem\":%d,"
		   "\"dynamic_smem\":%d",
		l->grid[0], l->grid[1], l->grid[2], l->block[0], l->block[1], l->block[2], l->registers,
		l->static_smem, l->dynamic_smem);
	put_num(f, "theoretical_occupancy", l->theoretical_occupancy);
	put_str(f, "duration", measured ? "gpu__time_duration.sum" : "not measured: the record's time split evenly");
	fputs("}}", f);
}

/* A counter track's values at ts: the named metrics of totals that the
 * record has, each times its scale (ph C; none present: no event). */
struct counter_series {
	const char *label, *metric;
	double scale;
};

static void counter_event(FILE *f, const char *name, const struct counter_series *cs, size_t n,
			  const struct record *rec, int64_t ts, int zero)
{
	int any = 0;
	for (size_t i = 0; i < n; i++) {
		const double *v = kvlist_get(&rec->totals, cs[i].metric);
		if (!v || !isfinite(*v))
			continue;
		if (!any) {
			fprintf(f, ",\n{\"ph\":\"C\",\"name\":\"%s\",\"pid\":%d", name, PID);
			put_us(f, "ts", ts);
			fputs(",\"args\":{", f);
		}
		char buf[40];
		fprintf(f, "%s\"%s\":%s", any ? "," : "", cs[i].label,
			zero ? "0" : format_double(*v * cs[i].scale, buf, sizeof(buf)));
		any = 1;
	}
	if (any)
		fputs("}}", f);
}

static const struct counter_series dram[] = {
	{ "read", "dram__bytes_read.sum", 1 },
	{ "write", "dram__bytes_write.sum", 1 },
};
static const struct counter_series l2[] = {
	{ "total", "lts__t_bytes.sum", 1 },
	{ "read", "lts__t_sectors_op_read.sum", 32 },
	{ "write", "lts__t_sectors_op_write.sum", 32 },
};
static const struct counter_series clock_counted[] = {
	{ "counted", "sm__cycles_elapsed.avg.per_second", 1e-6 },
};

static void counters(FILE *f, const struct record *rec, int64_t ts, int64_t end)
{
	counter_event(f, "DRAM bytes", dram, 2, rec, ts, 0);
	counter_event(f, "L2 bytes", l2, 3, rec, ts, 0);
	int probed = isfinite(rec->sm_clock_mhz) && rec->sm_clock_mhz > 0;
	const double *counted = kvlist_get(&rec->totals, clock_counted[0].metric);
	if (probed || (counted && isfinite(*counted))) {
		fprintf(f, ",\n{\"ph\":\"C\",\"name\":\"SM clock MHz\",\"pid\":%d", PID);
		put_us(f, "ts", ts);
		fputs(",\"args\":{", f);
		char buf[40];
		if (probed)
			fprintf(f, "\"probed\":%s", format_double(rec->sm_clock_mhz, buf, sizeof(buf)));
		if (counted && isfinite(*counted))
			fprintf(f, "%s\"counted\":%s", probed ? "," : "",
				format_double(*counted * clock_counted[0].scale, buf, sizeof(buf)));
		fputs("}}", f);
	}
	/* bytes belong to the call: back to 0 at its end (the clock holds) */
	counter_event(f, "DRAM bytes", dram, 2, rec, end, 1);
	counter_event(f, "L2 bytes", l2, 3, rec, end, 1);
}

static void metadata_pid(FILE *f, int pid, const char *what, long tid, const char *name_key, const char *name, int sort)
{
	fprintf(f, ",\n{\"ph\":\"M\",\"name\":\"%s\",\"pid\":%d", what, pid);
	if (tid >= 0)
		fprintf(f, ",\"tid\":%ld", tid);
	fprintf(f, ",\"args\":{\"%s\":", name_key);
	if (name)
		json_string(f, name);
	else
		fprintf(f, "%d", sort);
	fputs("}}", f);
}

static void metadata(FILE *f, const char *what, long tid, const char *name_key, const char *name, int sort)
{
	metadata_pid(f, PID, what, tid, name_key, name, sort);
}

/* ---- the program's whole workload (header.workload) ---- */

static const struct workload_list *sort_list; /* qsort has no argument: the list being sorted */

/* by stream, start, then place in the file */
static int by_stream_start(const void *pa, const void *pb)
{
	const size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	const struct workload_kernel *x = &sort_list->k[a], *y = &sort_list->k[b];
	if (x->stream != y->stream)
		return x->stream < y->stream ? -1 : 1;
	if (x->start_ns != y->start_ns)
		return x->start_ns < y->start_ns ? -1 : 1;
	return a < b ? -1 : a > b;
}

/* A program process: a process of the trace (pid 2 + its place) with its
 * span as a slice on track 1, its streams on tracks 2.. */
static void program_process(FILE *f, const struct results_header *h, int pid, int os_pid, uint64_t first,
			    uint64_t last, uint64_t kept)
{
	const struct workload_list *w = &h->workload;
	char buf[96];
	snprintf(buf, sizeof buf, "program pid %d: every kernel (record --workload on)", os_pid);
	fprintf(f, ",\n{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%d,\"args\":{\"name\":", pid);
	json_string(f, buf);
	fputs("}}", f);
	metadata_pid(f, pid, "process_sort_index", -1, "sort_index", NULL, pid - 1);
	metadata_pid(f, pid, "thread_name", 1, "name", "program", 0);
	metadata_pid(f, pid, "thread_sort_index", 1, "sort_index", NULL, 0);
	snprintf(buf, sizeof buf, "program pid %d", os_pid);
	fputs(",\n{\"ph\":\"X\",\"cat\":\"program\",\"name\":", f);
	json_string(f, buf);
	fprintf(f, ",\"pid\":%d,\"tid\":1", pid);
	put_us(f, "ts", (int64_t)first);
	put_us(f, "dur", (int64_t)(last - first));
	fprintf(f, ",\"args\":{\"pid\":%d,\"kernels_kept\":%" PRIu64 ",\"gpu_kernels\":%" PRIu64 ",\"dropped\":%" PRIu64
		   ",\"per_stream\":%" PRIu64 ",\"most\":%" PRIu64,
		os_pid, kept, h->gpu_kernels, w->dropped, w->per_stream, w->most);
	put_num(f, "attention_share", h->attention_share);
	fputs("}}", f);
}

/* One trace process per program process; in each a track per stream, its
 * kernels in start order, one that begins before the one before it ends on
 * a further track of the stream (Perfetto draws a track's slices nested or
 * apart, never crossing).  Times are GPU time from the earliest kernel's
 * start (t0).  0, or -1 out of memory. */
static int workload_events(FILE *f, const struct results_header *h)
{
	const struct workload_list *w = &h->workload;
	const size_t n = w->n, ns = w->nstreams;
	size_t *ord = malloc((n + 1) * sizeof *ord), *lane = malloc((n + 1) * sizeof *lane);
	uint64_t *lane_end = malloc((n + 1) * sizeof *lane_end);
	int *proc = malloc((ns + 1) * sizeof *proc), *tids = calloc(ns + 1, sizeof *tids);
	uint64_t *first = malloc((ns + 1) * sizeof *first), *last = calloc(ns + 1, sizeof *last),
		 *kept = calloc(ns + 1, sizeof *kept);
	int rc = -1;
	if (!ord || !lane || !lane_end || !proc || !tids || !first || !last || !kept)
		goto out;
	/* the processes in order first seen among the streams */
	int nproc = 0;
	for (size_t s = 0; s < ns; s++) {
		size_t j = 0;
		while (j < s && w->streams[j].pid != w->streams[s].pid)
			j++;
		proc[s] = j < s ? proc[j] : nproc++;
		first[s] = UINT64_MAX;
	}
	uint64_t t0 = UINT64_MAX;
	for (size_t i = 0; i < n; i++) {
		const struct workload_kernel *k = &w->k[i];
		const int p = proc[k->stream];
		ord[i] = i;
		t0 = k->start_ns < t0 ? k->start_ns : t0;
		first[p] = k->start_ns < first[p] ? k->start_ns : first[p];
		last[p] = k->start_ns + k->dur_ns > last[p] ? k->start_ns + k->dur_ns : last[p];
		kept[p]++;
	}
	for (size_t s = 0; s < ns; s++)
		if (!s || proc[s] > proc[s - 1]) { /* stream s opens its process */
			const int p = proc[s];
			int opens = 1;
			for (size_t j = 0; j < s; j++)
				opens &= proc[j] != p;
			if (opens && kept[p])
				program_process(f, h, 2 + p, w->streams[s].pid, first[p] - t0, last[p] - t0, kept[p]);
		}
	sort_list = w;
	qsort(ord, n, sizeof *ord, by_stream_start);
	char buf[96];
	for (size_t i = 0; i < n;) {
		const uint32_t st = w->k[ord[i]].stream;
		size_t end = i, nlanes = 0;
		for (; end < n && w->k[ord[end]].stream == st; end++) {
			const struct workload_kernel *k = &w->k[ord[end]];
			size_t l = 0;
			while (l < nlanes && lane_end[l] > k->start_ns)
				l++;
			nlanes += l == nlanes;
			lane_end[l] = k->start_ns + k->dur_ns;
			lane[end] = l;
		}
		const int pid = 2 + proc[st];
		const long tid0 = 2 + tids[proc[st]];
		tids[proc[st]] += (int)nlanes;
		for (size_t l = 0; l < nlanes; l++) {
			if (l)
				snprintf(buf, sizeof buf, "stream %u: kernels overlapping the one before (%zu)", w->streams[st].id, l);
			else
				snprintf(buf, sizeof buf, "stream %u", w->streams[st].id);
			metadata_pid(f, pid, "thread_name", tid0 + (long)l, "name", buf, 0);
			metadata_pid(f, pid, "thread_sort_index", tid0 + (long)l, "sort_index", NULL, (int)(tid0 + (long)l));
		}
		for (size_t l = 0; l < nlanes; l++)
			for (size_t j = i; j < end; j++) {
				if (lane[j] != l)
					continue;
				const struct workload_kernel *k = &w->k[ord[j]];
				fprintf(f, ",\n{\"ph\":\"X\",\"cat\":\"%s\",\"name\":", k->attention ? "workload,attention" : "workload");
				json_string(f, w->names[k->name]);
				fprintf(f, ",\"pid\":%d,\"tid\":%ld", pid, tid0 + (long)l);
				put_us(f, "ts", (int64_t)(k->start_ns - t0));
				put_us(f, "dur", (int64_t)k->dur_ns);
				fprintf(f, ",\"args\":{\"grid\":[%d,%d,%d],\"block\":[%d,%d,%d],\"attention\":%s,\"stream\":%u}}",
					k->grid[0], k->grid[1], k->grid[2], k->block[0], k->block[1], k->block[2],
					bool_word(k->attention), w->streams[st].id);
			}
		i = end;
	}
	rc = 0;
out:
	free(ord), free(lane), free(lane_end), free(proc), free(tids), free(first), free(last), free(kept);
	return rc;
}

int export_trace(FILE *f, const struct results *r, const char *source)
{
	struct streams st = { 0, NULL };
	for (size_t i = 0; i < r->nrecords; i++)
		if (stream_tid(&st, record_stream(&r->records[i]), 1) < 0) {
			free(st.h);
			errno = ENOMEM;
			return -1;
		}
	const struct gpu_info *g = &r->header.gpu;
	char buf[512];
	fputs("{\"displayTimeUnit\":\"ms\",\"otherData\":{\"tool\":\"attnprof export --trace\"", f);
	put_str(f, "results", source);
	put_str(f, "date", r->header.date);
	put_str(f, "command_line", r->header.command_line);
	fprintf(f, ",\"layout\":\"a results file holds no absolute times: the records are laid out in file order, "
		   "one after another, %d us apart, each as long as its median time (timing.time_ms; its kernels' "
		   "summed gpu__time_duration.sum where it has none); its kernels follow each other from its start, "
		   "each as long as its gpu__time_duration.sum, scaled down together where they add up to more than "
		   "the record, split evenly where not measured\"%s},\n\"traceEvents\":[\n",
		TRACE_GAP_NS / 1000, r->header.workload.n ? WORKLOAD_LAYOUT : "");
	snprintf(buf, sizeof(buf), "GPU %s (%s)", g->name ? g->name : "(not named)", source);
	fprintf(f, "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%d,\"args\":{\"name\":", PID);
	json_string(f, buf);
	fputs("}}", f);
	metadata(f, "process_sort_index", -1, "sort_index", NULL, 0);
	for (size_t i = 0; i < st.n; i++) {
		if (st.h[i])
			snprintf(buf, sizeof(buf), "stream 0x%" PRIx64, st.h[i]);
		else
			snprintf(buf, sizeof(buf), "%s", r->nrecords && !r->records[0].capture
						 ? "stream (the run's one stream)"
						 : "stream (not recorded: the program's calls in order)");
		metadata(f, "thread_name", (long)i + 1, "name", buf, 0);
		metadata(f, "thread_sort_index", (long)i + 1, "sort_index", NULL, (int)i);
	}

	int64_t cursor = 0;
	for (size_t i = 0; i < r->nrecords; i++) {
		const struct record *rec = &r->records[i];
		long tid = stream_tid(&st, record_stream(rec), 0);
		int all = 0;
		int64_t ksum = kernels_ns(rec, &all);
		int from_kernels = !(isfinite(rec->time_ms) && rec->time_ms > 0);
		int64_t dur = from_kernels ? ksum : (int64_t)llround(rec->time_ms * 1e6);
		char name[512];
		call_name(rec, name, sizeof(name));
		fputs(",\n{\"ph\":\"X\",\"cat\":\"attention\",\"name\":", f);
		json_string(f, name);
		fprintf(f, ",\"pid\":%d,\"tid\":%ld", PID, tid);
		put_us(f, "ts", cursor);
		put_us(f, "dur", dur);
		call_args(f, rec, from_kernels);
		fputc('}', f);
		/* the kernels inside, in launch order */
		int64_t kts = cursor;
		for (size_t k = 0; k < rec->nlaunches; k++) {
			int64_t kd;
			if (all)
				kd = ksum > dur ? (int64_t)((double)launch_ns(&rec->launches[k]) * (double)dur / (double)ksum)
						: launch_ns(&rec->launches[k]);
			else
				kd = dur / (int64_t)rec->nlaunches;
			if (kts + kd > cursor + dur) /* rounding: never past the call's end */
				kd = cursor + dur - kts;
			kernel_event(f, &rec->launches[k], tid, kts, kd, all);
			kts += kd;
		}
		counters(f, rec, cursor, cursor + dur);
		cursor += dur + TRACE_GAP_NS;
	}
	free(st.h);
	if (r->header.workload.n && workload_events(f, &r->header)) {
		errno = ENOMEM;
		return -1;
	}
	fputs("\n]}\n", f);
	return fflush(f) || ferror(f) ? -1 : 0;
}
