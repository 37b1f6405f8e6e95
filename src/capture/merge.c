/* merge.c: merge the injection library's parts (merge.h). */
#include "capture/merge.h"
#include "capture/workload.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>

#include "util/error.h"

int results_note(struct results *r, const char *text)
{
	char **n = &r->header.notes;
	size_t old = *n ? strlen(*n) : 0;
	char *p = realloc(*n, old + strlen(text) + 2);
	if (!p)
		return error("out of memory");
	if (old)
		p[old++] = '\n';
	strcpy(p + old, text);
	*n = p;
	return 0;
}

static int part_pid(const char *name, long *pid)
{
	char *end;
	if (strncmp(name, "part-", 5))
		return -1;
	*pid = strtol(name + 5, &end, 10);
	return strcmp(end, ".yaml") || *pid <= 0 ? -1 : 0;
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;
	return (x > y) - (x < y);
}

int merge_parts(const char *dir, struct results *out, struct merge_summary *sum)
{
	memset(sum, 0, sizeof *sum);
	DIR *d = opendir(dir);
	if (!d)
		return error("cannot read the capture folder '%s': %s", dir, strerror(errno));
	long *pids = NULL;
	size_t n = 0, cap = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		long pid;
		if (part_pid(e->d_name, &pid))
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 16;
			long *p = realloc(pids, cap * sizeof *p);
			if (!p) {
				free(pids);
				closedir(d);
				return error("out of memory");
			}
			pids = p;
		}
		pids[n++] = pid;
	}
	closedir(d);
	if (n) /* qsort(NULL, 0, ...) is undefined (UBSan, make SAN=1 test) */
		qsort(pids, n, sizeof *pids, cmp_long);
	int rc = 0;
	for (size_t i = 0; i < n && !rc; i++) {
		char path[4200], note[600];
		snprintf(path, sizeof path, "%s/part-%ld.yaml", dir, pids[i]);
		struct results part;
		results_init(&part);
		int cut = 0;
		int q = error_quiet(1);
		int bad = results_load(&part, path, &cut);
		error_quiet(q);
		sum->parts++;
		if (bad) {
			sum->bad_parts++;
			snprintf(note, sizeof note, "process %ld: its capture could not be read (%s)", pids[i], error_last());
			rc = results_note(out, note);
			results_release(&part);
			continue;
		}
		if (cut) {
			snprintf(note, sizeof note, "process %ld: its capture was cut short (killed while writing?): complete calls kept",
				 pids[i]);
			rc = results_note(out, note);
		}
		if (part.header.program_exit) {
			sum->exits_inside++;
			snprintf(note, sizeof note, "process %ld %.500s: it did not run to its end", pids[i],
				 part.header.program_exit);
			rc = rc ? rc : results_note(out, note);
		}
		/* every kernel's time and the kept kernels (--workload on); out of memory the
		 * kernels not kept are counted in header.workload.dropped, so none is lost silently */
		(void)workload_merge(&out->header, &part.header);
		if (!rc && part.header.notes) {
			snprintf(note, sizeof note, "process %ld: %.500s", pids[i], part.header.notes);
			rc = results_note(out, note);
		}
		for (size_t k = 0; k < part.nrecords && !rc; k++) {
			struct record *r = &part.records[k];
			if (r->capture && !r->capture->shape_known)
				sum->unparsed++;
			if (r->error)
				sum->failed++;
			rc = results_add(out, r);
			sum->calls++;
		}
		results_release(&part);
	}
	free(pids);
	return rc;
}

/* The first way records a and b of two runs differ, into why (empty: none). */
static void replay_difference(const struct record *a, const struct record *b, size_t i, char *why, size_t len)
{
	why[0] = '\0';
	const int ca = a->capture ? a->capture->call : -1, cb = b->capture ? b->capture->call : -1;
	if (ca != cb || a->shape.pass != b->shape.pass || strcmp(a->variant ? a->variant : "", b->variant ? b->variant : ""))
		snprintf(why, len, "record %zu is call %d (%s %s) in the first run and call %d (%s %s) in this one", i + 1, ca,
			 a->variant ? a->variant : "?", record_pass(a), cb, b->variant ? b->variant : "?", record_pass(b));
	else if (a->nlaunches != b->nlaunches)
		snprintf(why, len, "call %d (%s %s) ran %zu kernels in the first run and %zu in this one", ca,
			 a->variant ? a->variant : "?", record_pass(a), a->nlaunches, b->nlaunches);
	else
		for (size_t k = 0; k < a->nlaunches; k++) {
			const char *na = a->launches[k].name ? a->launches[k].name : "", *nb = b->launches[k].name ? b->launches[k].name : "";
			if (strcmp(na, nb)) {
				snprintf(why, len, "kernel %zu of call %d is '%.80s' in the first run and '%.80s' in this one", k + 1, ca, na, nb);
				return;
			}
		}
}

int merge_replay_run(struct results *base, const struct results *run)
{
	char why[400] = "";
	if (base->nrecords != run->nrecords)
		snprintf(why, sizeof why, "the first run captured %zu calls and this one %zu", base->nrecords, run->nrecords);
	for (size_t i = 0; !why[0] && i < base->nrecords; i++)
		replay_difference(&base->records[i], &run->records[i], i, why, sizeof why);
	if (why[0])
		return error("application replay: %s: the program did not repeat itself; use --replay kernel", why);
	for (size_t i = 0; i < base->nrecords; i++) {
		struct record *r = &base->records[i];
		for (size_t k = 0; k < r->nlaunches; k++) {
			const struct kvlist *m = &run->records[i].launches[k].metrics;
			for (size_t j = 0; j < m->n; j++)
				if (kvlist_set(&r->launches[k].metrics, m->items[j].name, m->items[j].value))
					return error("out of memory");
		}
		if (r->nlaunches && results_sum_launches(r))
			return error("out of memory");
	}
	return 0;
}
