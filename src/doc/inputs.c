/* inputs.c: several results files as one document's data; see data.h.
 *
 * The files are taken in the order they were recorded (header date, then
 * name), whatever order the command line gives: the same files make the
 * same document.  A record whose identity (record_key) is already present
 * is another run of that configuration: the newer record is drawn (its
 * timing, memory and correctness) unless the older one's file is named by
 * --primary; counters the drawn one lacks are filled from the other (the
 * same configuration recorded with a larger metric set, e.g. ablation's
 * `full` beside fa2-paper's `default`); the other is kept with its file for
 * the spread and for figures that draw from one run (the ablation ladder),
 * and stderr lists what was superseded.  The conditions are the header of
 * the file most drawn records come from, with measured ceilings it lacks
 * (copy bandwidth, tensor rate) from the newest file that has them; the
 * dates are those of every file a record is drawn from.
 * Files given with --repeat are second runs of the same specs: their
 * records are never drawn, they only give the run-to-run spread.
 */
#include "doc/data.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "capture/workload.h"
#include "doc/globals.h"
#include "results_merge.h"
#include "util/error.h"

static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');
	return s ? s + 1 : p;
}

static void files_add(struct rinputs *in, const char *path, const char *sep)
{
	size_t u = strlen(in->files);
	snprintf(in->files + u, sizeof(in->files) - u, "%s%s", u ? sep : "", base_name(path));
}

static char *dup_or_null(const char *s) { return s ? strdup(s) : NULL; }

/* What ran, from a capture file's header (its command, date, host, notes). */
static int program_copy(struct results_header *dst, const struct results_header *src)
{
	memset(dst, 0, sizeof(*dst));
	dst->date = dup_or_null(src->date);
	dst->host = dup_or_null(src->host);
	dst->command_line = dup_or_null(src->command_line);
	dst->spec_text = dup_or_null(src->spec_text);
	dst->notes = dup_or_null(src->notes);
	/* the whole workload (workload-share, {program.attention_share}): its tallies and kept kernels */
	dst->gpu_kernels = src->gpu_kernels, dst->attention_kernels = src->attention_kernels;
	dst->gpu_kernel_ms = src->gpu_kernel_ms, dst->attention_kernel_ms = src->attention_kernel_ms;
	dst->attention_share = src->attention_share, dst->amdahl_2x = src->amdahl_2x;
	return workload_list_copy(&dst->workload, &src->workload);
}

static void program_release(struct results_header *h)
{
	free(h->date);
	free(h->host);
	free(h->command_line);
	free(h->spec_text);
	free(h->notes);
	workload_list_release(&h->workload);
	memset(h, 0, sizeof(*h));
}

static int fill_counters(struct record *keep, const struct record *dup)
{
	int added = 0;
	for (size_t i = 0; i < dup->totals.n; i++) {
		const struct kv *m = &dup->totals.items[i];
		if (!kvlist_get(&keep->totals, m->name) && !record_metric(keep, m->name)) {
			if (kvlist_set(&keep->totals, m->name, m->value))
				return -1;
			added++;
		}
	}
	if (added && keep->metrics_status != METRICS_OK && dup->metrics_status == METRICS_OK)
		keep->metrics_status = METRICS_OK;
	return added;
}

/* Which file comes first: the earlier recording, then the name. */
struct loaded {
	struct results r;
	const char *path;
	uint64_t print; /* run_print */
};

static int by_recording(const void *a, const void *b)
{
	const struct loaded *p = a, *q = b;
	/* the instants (results_supersedes' order: no date first) */
	int c = -results_supersedes(&q->r.header, "", &p->r.header, "");
	if (c)
		return c;
	c = strcmp(base_name(p->path), base_name(q->path));
	return c ? c : strcmp(p->path, q->path);
}

static int push_origin(int **arr, size_t n, int v)
{
	int *p = realloc(*arr, (n + 1) * sizeof(int));
	if (!p)
		return error("out of memory merging results files");
	p[n] = v;
	*arr = p;
	return 0;
}

/* The same file given twice would read as a second run of every record:
 * one file by device and inode, so a hard link or a symbolic link counts. */
static int same_file(const char *a, const char *b)
{
	struct stat sa, sb;
	return !stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		h = (h ^ ((const unsigned char *)p)[i]) * 0x100000001b3ull;
	return h;
}

static uint64_t fnv_str(uint64_t h, const char *s) { return fnv(h, s ? s : "", s ? strlen(s) + 1 : 0); }

/* What makes two files one recording (FNV-1a): every record's identity,
 * times and error, whatever the header says (a copy with another date is
 * still the same measurements); a file with no timed record adds its
 * header's date, host and command line.  A copy of a file, or a merge of
 * it alone, has the same print; another run has other times. */
static uint64_t run_print(const struct results *r, int with_header)
{
	uint64_t h = 0xcbf29ce484222325ull;
	int timed = 0;
	h = fnv(h, &r->nrecords, sizeof(r->nrecords));
	for (size_t i = 0; i < r->nrecords; i++) {
		const struct record *rec = &r->records[i];
		char key[256];
		record_key(rec, key, sizeof(key));
		const double t[3] = { rec->time_ms, rec->time_ms_min, rec->time_ms_max };
		h = fnv(fnv_str(fnv_str(h, key), rec->error), t, sizeof(t));
		timed |= rec->time_ms > 0;
	}
	if (!timed || with_header) /* results files: a re-dated copy is another file's records (newest wins) */
		h = fnv_str(fnv_str(fnv_str(fnv_str(h, r->header.date), r->header.host), r->header.command_line),
			    r->header.gpu.name);
	return h;
}

/* -1 said when b (read as rb, print pb) is a copy of a's recording. */
static int same_run(const char *a, uint64_t pa, const char *b, const struct results *rb, uint64_t pb,
		    const char *what)
{
	if (pa != pb)
		return 0;
	return error("'%s' holds the same recording as '%s' (the same %zu records, every time equal): %s", b, a,
		     rb->nrecords, what);
}

static int is_primary(const char *path, const char *primary)
{
	return primary && (same_file(path, primary) || !strcmp(base_name(path), base_name(primary)));
}

/* "2026-12-01" of a header date, or "undated". */
static void day_of(const char *date, char *out, size_t len)
{
	if (date && strlen(date) >= 10)
		snprintf(out, len, "%.10s", date);
	else
		snprintf(out, len, "undated");
}

/* The recording dates of the files whose records are drawn (drawn[f]: how
 * many of file f's), into in->dates:
 * the one date as recorded, or "2026-11-29 (decode.yaml), 2026-12-01 (fa2-paper.yaml)". */
static void drawn_dates(struct rinputs *in, const struct loaded *L, size_t nl, const int *drawn)
{
	char days[RINPUTS_MAX][16];
	size_t nd = 0, u = 0, nfiles = 0;
	const char *only = NULL;
	for (size_t f = 0; f < nl; f++) {
		if (!drawn[f])
			continue;
		nfiles++;
		only = L[f].r.header.date;
		char d[16];
		day_of(L[f].r.header.date, d, sizeof(d));
		size_t j;
		for (j = 0; j < nd && strcmp(days[j], d); j++)
			;
		if (j == nd)
			snprintf(days[nd++], sizeof(days[0]), "%s", d);
	}
	in->ndates = (int)nd;
	size_t v = 0;
	for (size_t j = 0; j < nd; j++) {
		int w = snprintf(in->days + v, sizeof(in->days) - v, "%s%s", j == 0 ? "" : j + 1 == nd ? " and " : ", ",
				 days[j]);
		if (w > 0 && (size_t)w < sizeof(in->days) - v)
			v += (size_t)w;
	}
	if (nd <= 1) {
		snprintf(in->dates, sizeof(in->dates), "%s", nfiles == 1 && only ? only : nd ? days[0] : "undated");
		return;
	}
	for (size_t j = 0; j < nd; j++) {
		int w = snprintf(in->dates + u, sizeof(in->dates) - u, "%s%s (", j ? "; " : "", days[j]);
		if (w < 0 || (size_t)w >= sizeof(in->dates) - u)
			return;
		u += (size_t)w;
		int first = 1;
		for (size_t f = 0; f < nl; f++) {
			char d[16];
			day_of(L[f].r.header.date, d, sizeof(d));
			if (!drawn[f] || strcmp(d, days[j]))
				continue;
			w = snprintf(in->dates + u, sizeof(in->dates) - u, "%s%s", first ? "" : ", ", base_name(L[f].path));
			if (w < 0 || (size_t)w >= sizeof(in->dates) - u)
				return;
			u += (size_t)w;
			first = 0;
		}
		w = snprintf(in->dates + u, sizeof(in->dates) - u, ")");
		if (w > 0 && (size_t)w < sizeof(in->dates) - u)
			u += (size_t)w;
	}
}

/* One record of file f into the merge: a new identity is drawn; the same
 * identity again in its own file is another run of it; in another file
 * the newer file's record is drawn unless the other is --primary's, and
 * the one not drawn is another run.  superseded[old][new] counts. */
static int merge_record(struct rinputs *in, const struct loaded *L, size_t f, struct record *rec, const char *primary,
			int superseded[RINPUTS_MAX][RINPUTS_MAX])
{
	char key[256];
	record_key(rec, key, sizeof(key));
	long at = results_find(&in->res, key);
	if (at < 0) {
		size_t k = in->res.nrecords;
		return results_add(&in->res, rec) || push_origin(&in->origin, k, (int)f) ? -1 : 0;
	}
	int old = in->origin[at], newer_wins = 0;
	/* a configuration again in its own file (a program's repeated calls, a
	 * spec's repeated row): the first is drawn (the loader's note says so);
	 * from another file, the record of the newer file is drawn
	 * (results_supersedes, the rule merge follows too), unless the other's
	 * file is --primary */
	if (old != (int)f) {
		in->duplicates++;
		newer_wins = is_primary(L[f].path, primary) ||
			     (!is_primary(L[old].path, primary) &&
			      results_supersedes(&L[f].r.header, L[f].path, &L[old].r.header, L[old].path) > 0);
		superseded[newer_wins ? old : (int)f][newer_wins ? (int)f : old]++;
	}
	struct record *keep = &in->res.records[at], *dup = rec;
	if (newer_wins) {
		struct record was = *keep;
		*keep = *dup;
		record_init(dup);
		*dup = was;
		in->origin[at] = (int)f;
	}
	if (fill_counters(keep, dup) > 0)
		in->filled++;
	/* the one not drawn: another run of the configuration */
	size_t k = in->others.nrecords;
	return results_add(&in->others, dup) || push_origin(&in->others_origin, k, newer_wins ? old : (int)f) ? -1 : 0;
}

/* After the merge: the dates of the files records are drawn from, the
 * conditions (the header of the file most drawn records come from, with
 * the measured ceilings it lacks from the newest file that has them), and
 * what was superseded by which file, said once per pair of files. */
static void merge_conditions(struct rinputs *in, struct loaded *L, size_t nl, int superseded[RINPUTS_MAX][RINPUTS_MAX])
{
	/* records drawn from each file: the dates shown, and the conditions
	 * (the header of the file most drawn records come from) */
	int drawn[RINPUTS_MAX] = { 0 }, best = 0;
	for (size_t i = 0; i < in->res.nrecords; i++)
		drawn[in->origin[i]]++;
	for (size_t f = 1; f < nl; f++)
		if (drawn[f] > drawn[best])
			best = (int)f;
	drawn_dates(in, L, nl, drawn);
	in->res.header = L[best].r.header;
	memset(&L[best].r.header, 0, sizeof(L[best].r.header));
	in->header_file = best;
	/* measured ceilings it lacks, from the newest file that has them */
	struct gpu_info *g = &in->res.header.gpu;
	for (size_t f = nl; f-- > 0;) {
		if (!(g->copy_gbs > 0) && L[f].r.header.gpu.copy_gbs > 0)
			g->copy_gbs = L[f].r.header.gpu.copy_gbs;
		if (!(g->tensor_tflops > 0) && L[f].r.header.gpu.tensor_tflops > 0)
			g->tensor_tflops = L[f].r.header.gpu.tensor_tflops;
		if (!g->hw.smem_per_sm)
			g->hw.smem_per_sm = L[f].r.header.gpu.hw.smem_per_sm;
		/* the microbenchmarks' ceilings as one set, with their method */
		if (!gpu_ceilings_measured(&g->ceil) && gpu_ceilings_measured(&L[f].r.header.gpu.ceil)) {
			free(g->ceil.method);
			g->ceil = L[f].r.header.gpu.ceil;
			L[f].r.header.gpu.ceil.method = NULL;
		}
	}
	/* what was superseded, by which file: said once per pair of files */
	size_t u = 0;
	for (size_t a = 0; a < nl; a++)
		for (size_t b = 0; b < nl; b++) {
			if (!superseded[a][b])
				continue;
			int w = snprintf(in->superseded + u, sizeof(in->superseded) - u, "%s%d record%s of %s by %s's",
					 u ? "; " : "", superseded[a][b], superseded[a][b] == 1 ? "" : "s",
					 base_name(L[a].path), base_name(L[b].path));
			if (w > 0 && (size_t)w < sizeof(in->superseded) - u)
				u += (size_t)w;
		}
}

/* A record's problem identity: its key without a captured call's process
 * and call number (another capture run of the same program has others). */
static void identity_key(const struct record *r, char *key, size_t len)
{
	record_key(r, key, len);
	char *p = r->capture ? strstr(key, "/pid") : NULL;
	if (p)
		*p = '\0';
}

/* The drawn record a counters file's record fills: the one of its key, or
 * for a captured call the last call of its identity (the one drawn). */
static long counters_target(struct rinputs *in, const struct record *rec)
{
	char key[256], k[256];
	if (!rec->capture) {
		record_key(rec, key, sizeof(key));
		return results_find(&in->res, key);
	}
	identity_key(rec, key, sizeof(key));
	long at = -1;
	for (size_t i = 0; i < in->res.nrecords; i++) {
		if (!in->res.records[i].capture)
			continue;
		identity_key(&in->res.records[i], k, sizeof(k));
		if (!strcmp(k, key))
			at = (long)i;
	}
	return at;
}

/* Files given with --counters: the same configurations recorded again
 * with another metric set (experiments/workload.yaml, stalls.yaml).  Their
 * records are never drawn; a drawn record of the same identity takes the
 * counters it lacks from them, and their recording day joins the dates. */
static int add_counters(struct rinputs *in, const char *const *paths, size_t n)
{
	for (size_t f = 0; f < n; f++) {
		struct results r;
		if (results_load(&r, paths[f], NULL))
			return -1;
		const char *a = in->res.header.gpu.name, *b = r.header.gpu.name;
		if (a && b && strcmp(a, b)) {
			error("'%s' was recorded on %s, the documents' records on %s: counters of one GPU only", paths[f], b, a);
			results_release(&r);
			return -1;
		}
		int filled = 0;
		for (size_t i = 0; i < r.nrecords; i++) {
			long at = counters_target(in, &r.records[i]);
			int got = at < 0 ? 0 : fill_counters(&in->res.records[at], &r.records[i]);
			if (got < 0) {
				results_release(&r);
				return error("out of memory taking the counters of '%s'", paths[f]);
			}
			filled += got > 0;
		}
		if (filled) {
			files_add(in, paths[f], in->ncounter_files ? ", " : "; counters from: ");
			in->ncounter_files++;
			in->counter_records += filled;
			char d[16];
			day_of(r.header.date, d, sizeof(d));
			if (d[0] && !strstr(in->days, d)) {
				size_t u = strlen(in->days), v = strlen(in->dates);
				snprintf(in->days + u, sizeof(in->days) - u, "%s%s", u ? " and " : "", d);
				snprintf(in->dates + v, sizeof(in->dates) - v, "%s%s (counters: %s)", v ? "; " : "", d,
					 base_name(paths[f]));
				in->ndates++;
			}
		}
		results_release(&r);
	}
	return 0;
}

int rinputs_load(struct rinputs *in, const char *const *paths, size_t n, const char *const *repeats, size_t nr,
		 const char *primary)
{
	const struct rinputs_args a = { paths, n, repeats, nr, primary, NULL, 0 };
	return rinputs_load_args(in, &a);
}

int rinputs_load_args(struct rinputs *in, const struct rinputs_args *args)
{
	const char *const *paths = args->paths, *const *repeats = args->repeats, *primary = args->primary;
	const size_t n = args->n, nr = args->nr;
	memset(in, 0, sizeof(*in));
	results_init(&in->res);
	results_init(&in->others);
	results_init(&in->repeats);
	if (!n)
		return error("no results file given");
	if (n > RINPUTS_MAX || nr > RINPUTS_MAX)
		return error("at most %d results files and %d repeat files", RINPUTS_MAX, RINPUTS_MAX);
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			if (same_file(paths[i], paths[j]))
				return error("'%s' is given twice: one file is one run; give it once", paths[j]);
	if (primary) {
		size_t i;
		for (i = 0; i < n && !same_file(paths[i], primary) && strcmp(base_name(paths[i]), base_name(primary)); i++)
			;
		if (i == n)
			return error("--primary '%s' is not one of the results files given", primary);
	}
	struct loaded *L = calloc(n, sizeof(*L));
	if (!L)
		return error("out of memory reading results files");
	int rc = 0;
	size_t nl = 0;
	for (; nl < n; nl++) {
		if (results_load(&L[nl].r, paths[nl], NULL)) {
			rc = -1;
			break;
		}
		L[nl].path = paths[nl];
		L[nl].print = run_print(&L[nl].r, 1);
		for (size_t j = 0; j < nl && !rc; j++)
			rc = same_run(L[j].path, L[j].print, paths[nl], &L[nl].r, L[nl].print,
				      "one run given twice (a copy); give it once");
		if (rc) {
			nl++;
			break;
		}
	}
	uint64_t prints[RINPUTS_MAX];
	const char *printed[RINPUTS_MAX];
	for (size_t f = 0; f < nl; f++)
		prints[f] = run_print(&L[f].r, 0), printed[f] = L[f].path;
	if (!rc)
		qsort(L, n, sizeof(*L), by_recording);
	/* records of one GPU only: another GPU's records are not more runs of these */
	for (size_t f = 1; f < nl && !rc; f++) {
		const char *a = L[0].r.header.gpu.name, *b = L[f].r.header.gpu.name;
		if (a && b && strcmp(a, b))
			rc = error("'%s' was recorded on %s, '%s' on %s: a document draws one GPU's records; "
				   "render them separately", L[0].path, a, L[f].path, b);
	}
	int superseded[RINPUTS_MAX][RINPUTS_MAX] = { { 0 } }; /* [old file][new file] */
	for (size_t f = 0; f < nl && !rc; f++) {
		struct results *r = &L[f].r;
		files_add(in, L[f].path, ", ");
		snprintf(in->names[f], sizeof(in->names[f]), "%s", base_name(L[f].path));
		day_of(L[f].r.header.date, in->run_days[f], sizeof(in->run_days[f]));
		in->run_copy_gbs[f] = L[f].r.header.gpu.copy_gbs;
		in->run_read_gbs[f] = L[f].r.header.gpu.ceil.hbm_read_gbs;
		in->nfiles++;
		for (size_t i = 0; i < r->nrecords; i++)
			if (r->records[i].source && !strcmp(r->records[i].source, "capture")) {
				if (program_copy(&in->programs[in->nprograms++], &r->header))
					rc = error("out of memory copying the program of '%s'", L[f].path);
				break;
			}
		for (size_t i = 0; i < r->nrecords && !rc; i++)
			rc = merge_record(in, L, f, &r->records[i], primary, superseded);
	}
	if (!rc)
		merge_conditions(in, L, nl, superseded);
	for (size_t f = 0; f < nl; f++)
		results_release(&L[f].r);
	free(L);
	uint64_t rprints[RINPUTS_MAX];
	for (size_t f = 0; f < nr && !rc; f++) {
		struct results r;
		for (size_t j = 0; j < n + f && !rc; j++) {
			const char *o = j < n ? paths[j] : repeats[j - n];
			if (same_file(o, repeats[f]))
				rc = error("--repeat '%s' is '%s' (the same file): a repeat run is another recording of "
					   "the same specs, not counted twice; give that run's file", repeats[f], o);
		}
		if (rc || results_load(&r, repeats[f], NULL)) {
			rc = -1;
			break;
		}
		rprints[f] = run_print(&r, 0);
		for (size_t j = 0; j < nl + f && !rc; j++)
			rc = same_run(j < nl ? printed[j] : repeats[j - nl], j < nl ? prints[j] : rprints[j - nl],
				      repeats[f], &r, rprints[f],
				      "a copy is not a second run, not counted twice; give another run's file with --repeat");
		if (rc) {
			results_release(&r);
			break;
		}
		files_add(in, repeats[f], in->nrepeat_files ? ", " : "; repeat run: ");
		in->nrepeat_files++;
		for (size_t i = 0; i < r.nrecords && !rc; i++)
			rc = results_add(&in->repeats, &r.records[i]);
		results_release(&r);
	}
	if (!rc)
		rc = add_counters(in, args->counters, args->ncounters);
	if (!rc)
		rc = series_index_build(&in->by_series, &in->res, record_series);
	if (!rc) {
		double l2 = (double)in->res.header.gpu.hw.l2_bytes;
		records_resolve(&in->res, l2);
		records_resolve(&in->others, l2);
		records_resolve(&in->repeats, l2);
	}
	if (rc) {
		rinputs_release(in);
		return -1;
	}
	if (in->duplicates)
		note("%d record%s appear%s in more than one results file: the newer record is drawn%s, the other "
		     "counts as another run (superseded: %s)%s", in->duplicates, in->duplicates == 1 ? "" : "s",
		     in->duplicates == 1 ? "s" : "", primary ? " unless the other is --primary's" : "", in->superseded,
		     in->filled ? "; counters the drawn record lacks are taken from the other" : "");
	if (in->counter_records)
		note("counters of %d drawn record%s taken from %d --counters file%s (their records are never drawn)",
		     in->counter_records, in->counter_records == 1 ? "" : "s", in->ncounter_files,
		     in->ncounter_files == 1 ? "" : "s");
	return 0;
}

void rinputs_release(struct rinputs *in)
{
	results_release(&in->res);
	results_release(&in->others);
	results_release(&in->repeats);
	free(in->origin);
	free(in->others_origin);
	in->origin = in->others_origin = NULL;
	for (int i = 0; i < in->nprograms; i++)
		program_release(&in->programs[i]);
	in->nprograms = 0;
	series_index_release(&in->by_series);
}

void rdata_init_inputs(struct rdata *rd, const struct rinputs *in)
{
	rdata_init(rd, &in->res, in->files);
	rd->repeats = in->repeats.nrecords ? &in->repeats : NULL;
	rd->origin = in->origin;
	rd->others = in->others.nrecords ? &in->others : NULL;
	rd->others_origin = in->others_origin;
	rd->nruns = in->nfiles;
	rd->run_names = in->names;
	rd->run_days = in->run_days;
	rd->run_copy_gbs = in->run_copy_gbs;
	rd->run_read_gbs = in->run_read_gbs;
	rd->program = in->nprograms ? &in->programs[0] : NULL;
	rd->programs = in->programs;
	rd->nprograms = in->nprograms;
	rd->dates = in->dates;
	rd->days = in->days;
	rd->ndates = in->ndates;
	rd->superseded = in->superseded[0] ? in->superseded : NULL;
	rd->by_series = &in->by_series;
}

void rdata_programs_ran(const struct rdata *rd, char *buf, size_t len)
{
	size_t u = 0;
	buf[0] = '\0';
	for (int i = 0; i < rd->nprograms; i++) {
		const struct results_header *p = &rd->programs[i];
		/* the notes' lines (one per thing said) as one sentence */
		char notes[1600] = "not recorded";
		if (p->notes) {
			size_t k = 0;
			for (const char *c = p->notes; *c && k + 3 < sizeof notes; c++) {
				if (*c != '\n') {
					notes[k++] = *c;
					continue;
				}
				while (c[1] == '\n')
					c++;
				if (c[1] && k) {
					notes[k++] = ';';
					notes[k++] = ' ';
				}
			}
			notes[k] = '\0';
		}
		char cmd[1024];
		int w = snprintf(buf + u, len - u, "%sThe program %s ran under %s, recorded %s on %s; how it ended: %s.",
				 u ? " " : "", p->spec_text ? p->spec_text : "(unknown)",
				 p->command_line ? command_text(p->command_line, cmd, sizeof cmd) : "(unknown)", p->date ? p->date : "(no date)",
				 p->host ? p->host : "(no host)", notes);
		if (w < 0 || (size_t)w >= len - u)
			break;
		u += (size_t)w;
	}
}

/* How each origin finds a call (docs/capture.md), for {program.how}. */
static const struct { const char *origin, *how; } capture_origins[] = {
	{ "python-sdpa", "an NVTX range that attnprof's Python helper puts around PyTorch's scaled_dot_product_attention, "
			 "carrying the call's shape" },
	{ "transformers-eager", "an NVTX range around transformers' eager attention (attnprof's Python helper), "
				"carrying the call's shape" },
	{ "python-flex", "an NVTX range around FlexAttention's flex_attention, eager or compiled (attnprof's Python "
			 "helper), carrying the call's shape and its block mask's density" },
	{ "jax-helper", "XLA's own NVTX range of each operation, named through the helper's jax.named_scope around "
			"jax.nn.dot_product_attention, which carries the call's shape" },
	{ "family-scan", "a launch, outside any range, of a kernel the family table names as attention by itself "
			 "(record --scan), the shape unknown or inferred from the grid" },
	{ "kernel-regex", "a launch of a kernel matching record's --kernel-regex, with the shape given by --shape" },
	{ "nvtx", "an NVTX range the program itself names (attnprof: impl=… and the shape)" },
	{ "c-helper", "an NVTX range that attnprof's C header (attnprof_nvtx.h) puts around the program's attention "
		      "call, carrying the call's shape" },
	{ "family-scan-aux", "a launch, outside any range, of an auxiliary kernel of an attention family the scan "
			     "found (record --scan), profiled with its call" },
	{ "name-scan", "a launch, outside any range, of a kernel no family names whose name looks like attention "
		       "(record --scan on: attn, fmha, flash, sdpa …), the family unknown, the shape unknown" },
};

const char *capture_origin_how(const char *origin)
{
	for (size_t k = 0; origin && k < sizeof capture_origins / sizeof capture_origins[0]; k++)
		if (!strcmp(capture_origins[k].origin, origin))
			return capture_origins[k].how;
	return NULL;
}

void rdata_capture_how(const struct rdata *rd, char *buf, size_t len)
{
	const size_t n = sizeof capture_origins / sizeof capture_origins[0];
	int count[sizeof capture_origins / sizeof capture_origins[0] + 1] = { 0 };
	for (size_t i = 0; i < rd->res->nrecords; i++) {
		const struct record *r = &rd->res->records[i];
		if (!record_captured(r) || !r->capture || !r->capture->origin)
			continue;
		size_t k = 0;
		while (k < n && strcmp(capture_origins[k].origin, r->capture->origin))
			k++;
		count[k]++; /* k == n: an origin the table does not know */
	}
	size_t u = 0;
	buf[0] = '\0';
	for (size_t k = 0; k <= n; k++) {
		if (!count[k])
			continue;
		int w = snprintf(buf + u, len - u, "%s%s (%d call%s)", u ? "; " : "",
				 k < n ? capture_origins[k].how : "another way (an origin this version does not describe)",
				 count[k], count[k] == 1 ? "" : "s");
		if (w < 0 || (size_t)w >= len - u)
			break;
		u += (size_t)w;
	}
}
