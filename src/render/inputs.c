/* inputs.c: several results files as one document's data; see data.h.
 *
 * The records of every file are merged in the order given.  The header
 * (conditions) is the first file's; measured ceilings it lacks (copy
 * bandwidth, tensor rate) are taken from the first later file that has
 * them.  A record whose key (source, variant, phase, dtype, shape) is
 * already present is a duplicate: the earlier record is kept (its timing,
 * memory and correctness), counters it lacks are filled from the
 * duplicate (same configuration recorded with a larger metric set, e.g.
 * fa2-paper's `default` and ablation's `full`), and stderr says so once.
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

int rinputs_load(struct rinputs *in, const char *const *paths, size_t n, const char *const *repeats, size_t nr)
{
	memset(in, 0, sizeof(*in));
	results_init(&in->res);
	results_init(&in->repeats);
	if (!n)
		return error("no results file given");
	if (results_load(&in->res, paths[0], NULL))
		return -1;
	files_add(in, paths[0], "");
	char key[256], dupkey[256] = "";
	const char *dupfile = NULL;
	for (size_t f = 1; f < n; f++) {
		struct results r;
		if (results_load(&r, paths[f], NULL)) {
			rinputs_release(in);
			return -1;
		}
		files_add(in, paths[f], ", ");
		struct gpu_info *g = &in->res.header.gpu;
		if (!(g->copy_gbs > 0) && r.header.gpu.copy_gbs > 0)
			g->copy_gbs = r.header.gpu.copy_gbs;
		if (!(g->tensor_tflops > 0) && r.header.gpu.tensor_tflops > 0)
			g->tensor_tflops = r.header.gpu.tensor_tflops;
		for (size_t i = 0; i < r.nrecords; i++) {
			record_key(&r.records[i], key, sizeof(key));
			long at = results_find(&in->res, key);
			if (at < 0) {
				if (results_add(&in->res, &r.records[i])) {
					results_release(&r);
					rinputs_release(in);
					return -1;
				}
				continue;
			}
			if (!in->duplicates++) {
				snprintf(dupkey, sizeof(dupkey), "%s", key);
				dupfile = paths[f];
			}
			int added = fill_counters(&in->res.records[at], &r.records[i]);
			if (added > 0)
				in->filled++;
		}
		results_release(&r);
	}
	for (size_t f = 0; f < nr; f++) {
		struct results r;
		if (results_load(&r, repeats[f], NULL)) {
			rinputs_release(in);
			return -1;
		}
		files_add(in, repeats[f], in->nrepeat_files ? ", " : "; repeat run: ");
		in->nrepeat_files++;
		for (size_t i = 0; i < r.nrecords; i++)
			if (results_add(&in->repeats, &r.records[i])) {
				results_release(&r);
				rinputs_release(in);
				return -1;
			}
		results_release(&r);
	}
	if (in->duplicates)
		note("%d record%s appear%s in more than one results file (first: %s in %s): the first file's "
		     "record is kept%s", in->duplicates, in->duplicates == 1 ? "" : "s", in->duplicates == 1 ? "s" : "",
		     dupkey, dupfile, in->filled ? "; counters it lacks are taken from the later one" : "");
	return 0;
}

void rinputs_release(struct rinputs *in)
{
	results_release(&in->res);
	results_release(&in->repeats);
}

void rdata_init_inputs(struct rdata *rd, const struct rinputs *in)
{
	rdata_init(rd, &in->res, in->files);
	rd->repeats = in->repeats.nrecords ? &in->repeats : NULL;
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
	if (!rd->repeats || !runs)
		return runs;
	char key[256], k[256];
	record_key(rec, key, sizeof(key));
	for (size_t i = 0; i < rd->repeats->nrecords; i++) {
		const struct record *r = &rd->repeats->records[i];
		if (r->error || !usable(r->time_ms))
			continue;
		record_key(r, k, sizeof(k));
		if (strcmp(k, key))
			continue;
		if (r->time_ms < *tmin) *tmin = r->time_ms;
		if (r->time_ms > *tmax) *tmax = r->time_ms;
		runs++;
	}
	return runs;
}
