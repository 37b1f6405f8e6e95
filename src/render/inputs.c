/* inputs.c: several results files as one document's data; see data.h.
 *
 * The files are taken in the order they were recorded (header date, then
 * name), whatever order the command line gives: the same files make the
 * same document.  The header (conditions) is the earliest file's; measured
 * ceilings it lacks (copy bandwidth, tensor rate) are taken from the first
 * later file that has them.  A record whose key (source, variant, phase,
 * dtype, shape) is already present is another run of that configuration:
 * the earlier record is drawn (its timing, memory and correctness),
 * counters it lacks are filled from the later one (same configuration
 * recorded with a larger metric set, e.g. fa2-paper's `default` and
 * ablation's `full`), the later one is kept with its file for the spread
 * and for figures that draw from one run (the ablation ladder), and stderr
 * says so once.
 * Files given with --repeat are second runs of the same specs: their
 * records are never drawn, they only give the run-to-run spread.
 */
#include "render/data.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
static void program_copy(struct results_header *dst, const struct results_header *src)
{
	memset(dst, 0, sizeof(*dst));
	dst->date = dup_or_null(src->date);
	dst->host = dup_or_null(src->host);
	dst->command_line = dup_or_null(src->command_line);
	dst->spec_text = dup_or_null(src->spec_text);
	dst->notes = dup_or_null(src->notes);
}

static void program_release(struct results_header *h)
{
	free(h->date);
	free(h->host);
	free(h->command_line);
	free(h->spec_text);
	free(h->notes);
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
	char date[24];
};

static void date_key(const char *d, char *out, size_t len)
{
	/* "2026-11-29 19:29:42+00:00" and "2026-11-29T19:31:11Z" compare alike */
	snprintf(out, len, "%.19s", d ? d : "~");
	for (char *p = out; *p; p++)
		if (*p == 'T')
			*p = ' ';
}

static int by_recording(const void *a, const void *b)
{
	const struct loaded *p = a, *q = b;
	int c = strcmp(p->date, q->date);
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

int rinputs_load(struct rinputs *in, const char *const *paths, size_t n, const char *const *repeats, size_t nr)
{
	memset(in, 0, sizeof(*in));
	results_init(&in->res);
	results_init(&in->others);
	results_init(&in->repeats);
	if (!n)
		return error("no results file given");
	if (n > RINPUTS_MAX)
		return error("at most %d results files", RINPUTS_MAX);
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
		date_key(L[nl].r.header.date, L[nl].date, sizeof(L[nl].date));
	}
	if (!rc)
		qsort(L, n, sizeof(*L), by_recording);
	char key[256], dupkey[256] = "";
	const char *dupfile = NULL;
	for (size_t f = 0; f < nl && !rc; f++) {
		struct results *r = &L[f].r;
		files_add(in, L[f].path, ", ");
		snprintf(in->names[f], sizeof(in->names[f]), "%s", base_name(L[f].path));
		in->nfiles++;
		for (size_t i = 0; i < r->nrecords && !in->has_program; i++)
			if (r->records[i].source && !strcmp(r->records[i].source, "capture")) {
				program_copy(&in->program, &r->header);
				in->has_program = 1;
			}
		if (f == 0) {
			/* the earliest file's header: the conditions */
			in->res.header = r->header;
			memset(&r->header, 0, sizeof(r->header));
		} else {
			struct gpu_info *g = &in->res.header.gpu;
			if (!(g->copy_gbs > 0) && r->header.gpu.copy_gbs > 0)
				g->copy_gbs = r->header.gpu.copy_gbs;
			if (!(g->tensor_tflops > 0) && r->header.gpu.tensor_tflops > 0)
				g->tensor_tflops = r->header.gpu.tensor_tflops;
		}
		for (size_t i = 0; i < r->nrecords && !rc; i++) {
			record_key(&r->records[i], key, sizeof(key));
			long at = results_find(&in->res, key);
			if (at < 0) {
				size_t k = in->res.nrecords;
				rc = results_add(&in->res, &r->records[i]) || push_origin(&in->origin, k, (int)f);
				continue;
			}
			if (!in->duplicates++) {
				snprintf(dupkey, sizeof(dupkey), "%s", key);
				dupfile = L[f].path;
			}
			int added = fill_counters(&in->res.records[at], &r->records[i]);
			if (added > 0)
				in->filled++;
			/* the same configuration measured again: another run of it */
			size_t k = in->others.nrecords;
			rc = results_add(&in->others, &r->records[i]) || push_origin(&in->others_origin, k, (int)f);
		}
	}
	for (size_t f = 0; f < nl; f++)
		results_release(&L[f].r);
	free(L);
	for (size_t f = 0; f < nr && !rc; f++) {
		struct results r;
		if (results_load(&r, repeats[f], NULL)) {
			rc = -1;
			break;
		}
		files_add(in, repeats[f], in->nrepeat_files ? ", " : "; repeat run: ");
		in->nrepeat_files++;
		for (size_t i = 0; i < r.nrecords && !rc; i++)
			rc = results_add(&in->repeats, &r.records[i]);
		results_release(&r);
	}
	if (rc) {
		rinputs_release(in);
		return -1;
	}
	if (in->duplicates)
		note("%d record%s appear%s in more than one results file (first: %s in %s): the earlier file's "
		     "record is drawn, the later one counts as another run%s", in->duplicates, in->duplicates == 1 ? "" : "s",
		     in->duplicates == 1 ? "s" : "", dupkey, dupfile,
		     in->filled ? "; counters it lacks are taken from the later one" : "");
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
	program_release(&in->program);
	in->has_program = 0;
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
	rd->program = in->has_program ? &in->program : NULL;
}

int rdata_origin(const struct rdata *rd, const struct record *rec)
{
	const struct results *sets[2] = { rd->res, rd->others };
	const int *orig[2] = { rd->origin, rd->others_origin };
	for (int k = 0; k < 2; k++)
		if (sets[k] && orig[k] && rec >= sets[k]->records && rec < sets[k]->records + sets[k]->nrecords)
			return orig[k][rec - sets[k]->records];
	return 0;
}

const char *rdata_record_file(const struct rdata *rd, const struct record *rec)
{
	int run = rdata_origin(rd, rec);
	if (rd->run_names && run >= 0 && run < rd->nruns)
		return rd->run_names[run];
	return base_name(rd->path);
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
