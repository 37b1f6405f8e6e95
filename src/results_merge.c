/* results_merge.c: results files joined into one, duplicates resolved by
 * one rule (results_merge.h; docs/results-format.md, "Merging shards"). */
#include "results_merge.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "shard.h"
#include "spec.h"
#include "util/error.h"

/* ---- the rule ------------------------------------------------------------ */

int results_supersedes(const struct results_header *a, const char *path_a,
		       const struct results_header *b, const char *path_b)
{
	/* instants (the reader parsed them); no date is older than any date */
	int c = a->date_known != b->date_known ? a->date_known - b->date_known
		: !a->date_known ? 0 : (a->date_utc > b->date_utc) - (a->date_utc < b->date_utc);
	if (!c)
		c = strcmp(path_a ? path_a : "", path_b ? path_b : "");
	return c > 0 ? 1 : c < 0 ? -1 : 0;
}

/* ---- the header --------------------------------------------------------- */

static char *dup0(const char *s) { return s ? strdup(s) : NULL; }

static void header_copy(struct results_header *dst, const struct results_header *src)
{
	memset(dst, 0, sizeof(*dst));
	dst->tool_version = dup0(src->tool_version);
	dst->date = dup0(src->date);
	dst->date_utc = src->date_utc;
	dst->date_known = src->date_known;
	dst->host = dup0(src->host);
	dst->command_line = dup0(src->command_line);
	dst->gpu = src->gpu;
	dst->gpu.name = dup0(src->gpu.name);
	dst->gpu.chip = dup0(src->gpu.chip);
	dst->gpu.driver = dup0(src->gpu.driver);
	dst->gpu.cuda_runtime = dup0(src->gpu.cuda_runtime);
	dst->gpu.cupti = dup0(src->gpu.cupti);
	dst->gpu.ceil.method = dup0(src->gpu.ceil.method);
	dst->spec_name = dup0(src->spec_name);
	dst->spec_path = dup0(src->spec_path);
	dst->spec_text = dup0(src->spec_text);
	dst->notes = dup0(src->notes);
	dst->shard = NULL; /* the merged file is no one part */
}

/* "attnprof record s.yaml --shard 1/3 --device 0 -o p.yaml" -> "attnprof
 * record s.yaml -o p.yaml": the command of the sweep the merged parts make */
static void drop_part_options(char *cmd)
{
	static const char *const opts[] = { "--shard", "--device" };
	for (size_t k = 0; cmd && k < 2; k++) {
		size_t l = strlen(opts[k]);
		char *p = cmd;
		while ((p = strstr(p, opts[k]))) {
			int word = (p == cmd || p[-1] == ' ') && (p[l] == ' ' || p[l] == '=');
			if (!word) {
				p += l;
				continue;
			}
			char *end = p + l + 1;                /* past the ' ' or '=' */
			while (*end && *end != ' ')
				end++;                        /* past the value */
			if (p > cmd && p[-1] == ' ')
				p--;                          /* with the space before */
			memmove(p, end, strlen(end) + 1);
		}
	}
}

static int shard_count(const struct results_header *h)
{
	int k = 0, n = 0;
	return h->shard && sscanf(h->shard, "%d/%d", &k, &n) == 2 ? n : 0;
}

static const char *or_none(const char *s) { return s ? s : "(none)"; }

/* The conditions two shards of one sweep share; the first that differs, or
 * NULL.  *va, *vb: the two values, as text. */
static const char *header_differs(const struct results_header *a, const struct results_header *b,
				  const char **va, const char **vb, char nbuf[2][16])
{
#define SAME(x, y) (((x) == NULL && (y) == NULL) || ((x) && (y) && !strcmp((x), (y))))
	if (!SAME(a->spec_name, b->spec_name)) {
		*va = or_none(a->spec_name), *vb = or_none(b->spec_name);
		return "header.spec.name";
	}
	if (!SAME(a->spec_text, b->spec_text)) {
		*va = "one text", *vb = "another";
		return "header.spec.text";
	}
	if (!SAME(a->gpu.name, b->gpu.name)) {
		*va = or_none(a->gpu.name), *vb = or_none(b->gpu.name);
		return "header.gpu.name";
	}
	if (!SAME(a->gpu.driver, b->gpu.driver)) {
		*va = or_none(a->gpu.driver), *vb = or_none(b->gpu.driver);
		return "header.gpu.driver";
	}
	if (!SAME(a->tool_version, b->tool_version)) {
		*va = or_none(a->tool_version), *vb = or_none(b->tool_version);
		return "header.tool_version";
	}
	int na = shard_count(a), nb = shard_count(b);
	if (na && nb && na != nb) {
		snprintf(nbuf[0], 16, "%d parts", na);
		snprintf(nbuf[1], 16, "%d parts", nb);
		*va = nbuf[0], *vb = nbuf[1];
		return "header.shard";
	}
	return NULL;
#undef SAME
}

/* header.notes of a merge of files recorded under different conditions:
 * each file's, so no record's conditions are lost from the file. */
static int note_conditions(struct results_header *h, struct merge_input *in, const size_t *ord, size_t n)
{
	size_t len = (h->notes ? strlen(h->notes) : 0) + 128;
	for (size_t j = 0; j < n; j++) {
		const struct results_header *x = &in[ord[j]].res.header;
		len += strlen(in[ord[j]].path) + 160 + strlen(or_none(x->gpu.name)) + strlen(or_none(x->gpu.driver)) +
		       strlen(or_none(x->tool_version)) + strlen(or_none(x->date)) + strlen(or_none(x->spec_name)) +
		       strlen(or_none(x->shard));
	}
	char *s = malloc(len);
	if (!s)
		return error("out of memory");
	size_t u = (size_t)snprintf(s, len, "%s%smerged with --allow-mixed from files recorded under different "
				    "conditions (the header above is the first's):", h->notes ? h->notes : "",
				    h->notes ? "\n" : "");
	for (size_t j = 0; j < n && u < len; j++) {
		const struct merge_input *m = &in[ord[j]];
		const struct results_header *x = &m->res.header;
		u += (size_t)snprintf(s + u, len - u, "\n%s: spec %s%s%s, %s, driver %s, attnprof %s, recorded %s, %zu records",
				      m->path, or_none(x->spec_name), x->shard ? " shard " : "", x->shard ? x->shard : "",
				      or_none(x->gpu.name), or_none(x->gpu.driver), or_none(x->tool_version),
				      or_none(x->date), m->res.nrecords);
	}
	free(h->notes);
	h->notes = s;
	return 0;
}

/* header.notes of a merge given a cut input (--allow-partial): which, where,
 * so the cut can still be seen in the merged file. */
static int note_cuts(struct results_header *h, const struct merge_input *in, size_t n)
{
	for (size_t j = 0; j < n; j++) {
		if (in[j].res.format == 1 && !in[j].res.cut_where) {
			/* no end marker: a file cut between two records reads as complete */
			warning("%s is format 1 (%s), which marks no end: a cut between two of its records "
				"cannot be seen; the merged file's header.notes says so", in[j].path, RESULTS_FORMAT_1);
			size_t len = (h->notes ? strlen(h->notes) : 0) + strlen(in[j].path) + 200;
			char *s = malloc(len);
			if (!s)
				return error("out of memory");
			snprintf(s, len, "%s%s%s is format 1, which marks no end: its %zu record%s were read whole, but a "
				 "cut between two records cannot be seen", h->notes ? h->notes : "", h->notes ? "\n" : "",
				 in[j].path, in[j].res.nrecords, in[j].res.nrecords == 1 ? "" : "s");
			free(h->notes);
			h->notes = s;
		}
		if (!in[j].res.cut_where)
			continue;
		size_t len = (h->notes ? strlen(h->notes) : 0) + strlen(in[j].path) + strlen(in[j].res.cut_where) + 160;
		char *s = malloc(len);
		if (!s)
			return error("out of memory");
		snprintf(s, len, "%s%smerged with --allow-partial: %s was cut short (%s); its %zu complete record%s "
			 "are here, the rest were never read", h->notes ? h->notes : "", h->notes ? "\n" : "", in[j].path,
			 in[j].res.cut_where, in[j].res.nrecords, in[j].res.nrecords == 1 ? "" : "s");
		free(h->notes);
		h->notes = s;
	}
	return 0;
}

/* ---- records -------------------------------------------------------------- */

struct entry {
	char key[256];
	size_t file;           /* index into in[] */
	size_t rec;            /* index into its records */
	size_t rank;           /* the file's place by the rule: the higher wins */
	size_t pos;            /* place in the sweep (SIZE_MAX: not in it) */
};

/* by identity; then the winner first: the highest-ranked file, in it the
 * earliest record */
static int by_key_winner(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;
	int c = strcmp(x->key, y->key);
	if (c)
		return c;
	if (x->rank != y->rank)
		return x->rank > y->rank ? -1 : 1;
	return x->rec < y->rec ? -1 : x->rec > y->rec;
}

static int by_place(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;
	if (x->pos != y->pos)
		return x->pos < y->pos ? -1 : 1;
	return strcmp(x->key, y->key);
}

struct keypos {
	char key[256];
	size_t pos;
	int part;              /* the shard of the sweep it falls in, for a count */
};

static int by_keypos(const void *a, const void *b)
{
	return strcmp(((const struct keypos *)a)->key, ((const struct keypos *)b)->key);
}

/* The sweep of a file's spec: each config's key, its place and its part of
 * `parts` (0: no split).  NULL (quietly) when the header has no spec text or
 * the text does not parse here. */
static struct keypos *sweep_of(const struct results_header *h, const char *path, int parts, size_t *count)
{
	struct spec s;
	*count = 0;
	if (!h->spec_text)
		return NULL;
	spec_init(&s);
	int old = error_quiet(1);
	int bad = spec_parse(&s, h->spec_text, strlen(h->spec_text), path);
	error_quiet(old);
	int *owner = bad ? NULL : malloc((s.nconfigs ? s.nconfigs : 1) * sizeof(*owner));
	struct keypos *kp = owner ? malloc((s.nconfigs ? s.nconfigs : 1) * sizeof(*kp)) : NULL;
	if (!kp || (parts && shard_assign(&s, parts, owner, NULL))) {
		free(owner);
		free(kp);
		spec_release(&s);
		return NULL;
	}
	for (size_t i = 0; i < s.nconfigs; i++) {
		struct record r;
		record_init(&r);
		config_to_record(&s.configs[i], "attnprof", &r);
		record_key(&r, kp[i].key, sizeof(kp[i].key));
		record_release(&r);
		kp[i].pos = i;
		kp[i].part = parts ? owner[i] : 0;
	}
	*count = s.nconfigs;
	qsort(kp, *count, sizeof(*kp), by_keypos);
	free(owner);
	spec_release(&s);
	return kp;
}

static const struct keypos *keypos_find(const struct keypos *kp, size_t n, const char *key)
{
	struct keypos probe;
	snprintf(probe.key, sizeof(probe.key), "%s", key);
	return kp ? bsearch(&probe, kp, n, sizeof(*kp), by_keypos) : NULL;
}

static int by_entry_key(const void *a, const void *b)
{
	return strcmp(((const struct entry *)a)->key, ((const struct entry *)b)->key);
}

/* The configs the shard files should hold and do not: per file its part's
 * configs it lacks; parts of the split no file holds.  Warnings. */
static size_t name_missing(struct merge_input *in, const size_t *ord, size_t n, const struct entry *e,
			   size_t ne)
{
	size_t missing = 0;
	/* the sweeps, one per distinct (spec text, parts), cached: 200 shards of one spec parse it once */
	const char *cached_text = NULL;
	int cached_parts = 0;
	struct keypos *kp = NULL;
	size_t nkp = 0;
	int whole_split = 1, parts0 = 0;
	const char *spec0 = NULL;
	for (size_t j = 0; j < n; j++) {
		const struct results_header *h = &in[ord[j]].res.header;
		int k = 0, parts = 0;
		if (!h->shard || sscanf(h->shard, "%d/%d", &k, &parts) != 2 || !h->spec_text) {
			whole_split = 0;
			continue;
		}
		if (!parts0) {
			parts0 = parts;
			spec0 = h->spec_text;
		} else if (parts != parts0 || strcmp(spec0, h->spec_text)) {
			whole_split = 0;
		}
		if (!cached_text || parts != cached_parts || strcmp(cached_text, h->spec_text)) {
			free(kp);
			kp = sweep_of(h, in[ord[j]].path, parts, &nkp);
			cached_text = h->spec_text;
			cached_parts = parts;
		}
		if (!kp)
			continue;
		size_t lack = 0, want = 0;
		char first[3][256];
		for (size_t i = 0; i < nkp; i++) {
			if (kp[i].part != k)
				continue;
			want++;
			/* this file's records of the key */
			struct entry probe;
			snprintf(probe.key, sizeof(probe.key), "%s", kp[i].key);
			const struct entry *at = bsearch(&probe, e, ne, sizeof(*e), by_entry_key);
			int found = 0;
			if (at) {
				while (at > e && !strcmp(at[-1].key, kp[i].key))
					at--;
				for (; at < e + ne && !strcmp(at->key, kp[i].key) && !found; at++)
					found = at->file == ord[j];
			}
			if (!found) {
				if (lack < 3)
					snprintf(first[lack], sizeof(first[lack]), "%s", kp[i].key);
				lack++;
			}
		}
		if (lack) {
			missing += lack;
			warning("%s (shard %s of spec '%s') is partial: %zu of its %zu configs %s missing (%s%s%s%s%s%s); "
				"finish it with 'attnprof record %s --shard %s -o %s --resume' and merge again",
				in[ord[j]].path, h->shard, or_none(h->spec_name), lack, want, lack == 1 ? "is" : "are", first[0],
				lack > 1 ? ", " : "", lack > 1 ? first[1] : "", lack > 2 ? ", " : "", lack > 2 ? first[2] : "",
				lack > 3 ? ", ..." : "", h->spec_path ? h->spec_path : "SPEC", h->shard, in[ord[j]].path);
		}
	}
	/* parts of one split that no input holds */
	if (whole_split && parts0 && kp) {
		char *seen = calloc((size_t)parts0 + 1, 1);
		size_t *count = calloc((size_t)parts0 + 1, sizeof(*count));
		if (seen && count) {
			for (size_t j = 0; j < n; j++) {
				int k = 0, p = 0;
				sscanf(in[ord[j]].res.header.shard, "%d/%d", &k, &p);
				if (k >= 1 && k <= parts0)
					seen[k] = 1;
			}
			for (size_t i = 0; i < nkp; i++)
				count[kp[i].part]++;
			for (int k = 1; k <= parts0; k++)
				if (!seen[k]) {
					missing += count[k];
					warning("shard %d/%d of spec '%s' is not among the inputs: its %zu config%s missing; "
						"record it with 'attnprof record %s --shard %d/%d' and merge again",
						k, parts0, or_none(in[ord[0]].res.header.spec_name), count[k],
						count[k] == 1 ? " is" : "s are",
						in[ord[0]].res.header.spec_path ? in[ord[0]].res.header.spec_path : "SPEC", k, parts0);
				}
		}
		free(seen);
		free(count);
	}
	free(kp);
	return missing;
}

static int by_path(const void *a, const void *b, void *ctx)
{
	const struct merge_input *in = ctx;
	return strcmp(in[*(const size_t *)a].path, in[*(const size_t *)b].path);
}

/* the rule's order: the file whose records lose to every other's first */
static int by_rule(const void *a, const void *b, void *ctx)
{
	const struct merge_input *in = ctx, *x = &in[*(const size_t *)a], *y = &in[*(const size_t *)b];
	return results_supersedes(&x->res.header, x->path, &y->res.header, y->path);
}

struct fileid {
	dev_t dev;
	ino_t ino;
	size_t j;
};

static int by_fileid(const void *a, const void *b)
{
	const struct fileid *x = a, *y = b;
	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	if (x->ino != y->ino)
		return x->ino < y->ino ? -1 : 1;
	return x->j < y->j ? -1 : x->j > y->j;
}

static int same_file(const char *a, const char *b)
{
	struct stat sa, sb;
	if (stat(a, &sa) || stat(b, &sb))
		return !strcmp(a, b);
	return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* Each results file once: by name (ord sorted by path), and one file
 * under two names, which would supersede itself.  0, or -1 said. */
static int inputs_distinct(const struct merge_input *in, const size_t *ord, size_t n)
{
	for (size_t j = 1; j < n; j++)
		if (!strcmp(in[ord[j]].path, in[ord[j - 1]].path))
			return error("'%s' is named twice: give each results file once", in[ord[j]].path);
	if (n < 2)
		return 0;
	struct fileid *id = malloc(n * sizeof(*id));
	if (!id)
		return error("out of memory");
	size_t nid = 0;
	for (size_t j = 0; j < n; j++) {
		struct stat st;
		if (!stat(in[j].path, &st)) {
			id[nid].dev = st.st_dev;
			id[nid].ino = st.st_ino;
			id[nid++].j = j;
		}
	}
	qsort(id, nid, sizeof(*id), by_fileid);
	int rc = 0;
	for (size_t k = 1; k < nid && !rc; k++)
		if (id[k].dev == id[k - 1].dev && id[k].ino == id[k - 1].ino)
			rc = error("'%s' and '%s' are one file: give each results file once", in[id[k - 1].j].path,
				   in[id[k].j].path);
	free(id);
	return rc;
}

/* One sweep, one GPU, one driver, one attnprof: headers that differ are
 * refused unless --allow-mixed (*mixed set).  0, or -1 said. */
static int inputs_one_sweep(const struct merge_input *in, const size_t *ord, size_t n, const struct merge_opts *o,
			    int *mixed)
{
	for (size_t j = 1; j < n; j++) {
		const char *va, *vb;
		char nbuf[2][16];
		const char *field = header_differs(&in[ord[0]].res.header, &in[ord[j]].res.header, &va, &vb, nbuf);
		if (!field)
			continue;
		*mixed = 1;
		if (!o->allow_mixed)
			return error("'%s' and '%s' differ in %s ('%s' against '%s'): shards of one sweep share their spec, GPU, "
				     "driver and attnprof version; re-record the odd one out, or merge with --allow-mixed (the "
				     "merged header then lists each file's conditions)",
				     in[ord[0]].path, in[ord[j]].path, field, va, vb);
	}
	return 0;
}

int results_merge(struct merge_input *in, size_t n, const struct merge_opts *o,
		  struct results *out, struct merge_report *rep)
{
	results_init(out);
	memset(rep, 0, sizeof(*rep));
	if (!n)
		return error("merge needs at least one results file");
	size_t *ord = malloc(n * sizeof(*ord)), *rank = malloc(n * sizeof(*rank));
	if (!ord || !rank) {
		free(ord);
		free(rank);
		return error("out of memory");
	}
	int rc = -1;
	struct entry *e = NULL;
	/* by path: the inputs' order on the command line counts for nothing */
	for (size_t j = 0; j < n; j++)
		ord[j] = j;
	qsort_r(ord, n, sizeof(*ord), by_path, in);
	int mixed = 0;
	if (inputs_distinct(in, ord, n) || inputs_one_sweep(in, ord, n, o, &mixed))
		goto out;
	/* the rule's order of the files (oldest first); the primary above all */
	size_t *byrule = malloc(n * sizeof(*byrule));
	if (!byrule) {
		error("out of memory");
		goto out;
	}
	memcpy(byrule, ord, n * sizeof(*ord));
	qsort_r(byrule, n, sizeof(*byrule), by_rule, in);
	for (size_t j = 0; j < n; j++)
		rank[byrule[j]] = j;
	size_t oldest = byrule[0];
	free(byrule);
	if (o->primary) {
		size_t j;
		for (j = 0; j < n && !same_file(in[j].path, o->primary); j++)
			;
		if (j == n) {
			error("--primary '%s' is not one of the files to merge: name it among them too", o->primary);
			goto out;
		}
		rank[j] = n;
	}
	size_t ne = 0;
	for (size_t j = 0; j < n; j++)
		ne += in[j].res.nrecords;
	e = malloc((ne ? ne : 1) * sizeof(*e));
	if (!e) {
		error("out of memory merging %zu records", ne);
		goto out;
	}
	ne = 0;
	for (size_t j = 0; j < n; j++)
		for (size_t i = 0; i < in[j].res.nrecords; i++, ne++) {
			record_key(&in[j].res.records[i], e[ne].key, sizeof(e[ne].key));
			e[ne].file = j;
			e[ne].rec = i;
			e[ne].rank = rank[j];
			e[ne].pos = SIZE_MAX;
		}
	qsort(e, ne, sizeof(*e), by_key_winner);
	rep->missing = name_missing(in, ord, n, e, ne);

	/* each identity's winner; the others superseded, each said */
	size_t nw = 0;
	for (size_t i = 0; i < ne; i++) {
		if (i && !strcmp(e[i].key, e[nw - 1].key)) {
			const struct entry *w = &e[nw - 1];
			const struct merge_input *a = &in[w->file], *b = &in[e[i].file];
			rep->superseded++;
			if (!o->quiet) {
				const char *why = w->file == e[i].file ? "the same file's earlier record"
						  : o->primary && w->rank == n ? "--primary"
						  : results_supersedes(&a->res.header, NULL, &b->res.header, NULL) ? "newer recording"
						  : "same date, later path";
				fprintf(stderr, "attnprof: superseded: %s in %s (record %zu, recorded %s) by %s (record %zu, "
					"recorded %s): %s\n", e[i].key, b->path, e[i].rec + 1, or_none(b->res.header.date),
					a->path, w->rec + 1, or_none(a->res.header.date), why);
			}
			continue;
		}
		e[nw++] = e[i];
	}
	/* the sweep's order (of the earliest recording's spec), then by identity */
	size_t nkp = 0;
	struct keypos *kp = sweep_of(&in[oldest].res.header, in[oldest].path, 0, &nkp);
	for (size_t i = 0; i < nw; i++) {
		const struct keypos *k = keypos_find(kp, nkp, e[i].key);
		if (k)
			e[i].pos = k->pos;
	}
	free(kp);
	qsort(e, nw, sizeof(*e), by_place);

	header_copy(&out->header, &in[oldest].res.header);
	if (in[oldest].res.header.shard)
		drop_part_options(out->header.command_line);
	if (note_cuts(&out->header, in, n))
		goto out;
	if (mixed && note_conditions(&out->header, in, ord, n))
		goto out;
	for (size_t i = 0; i < nw; i++)
		if (results_add(out, &in[e[i].file].res.records[e[i].rec]))
			goto out;
	rep->records = out->nrecords;
	rc = 0;
out:
	if (rc)
		results_release(out);
	free(e);
	free(ord);
	free(rank);
	return rc;
}

int results_merge_files(const char *const *paths, size_t n, const struct merge_opts *o, const char *out_path)
{
	struct merge_input *in = calloc(n ? n : 1, sizeof(*in));
	if (!in)
		return error("out of memory"), EXIT_FAILURE_RUN;
	int rc = EXIT_OK;
	size_t loaded = 0;
	for (; loaded < n; loaded++) {
		in[loaded].path = paths[loaded];
		progress_step(o->progress, "reading file %zu of %zu (%s)", loaded + 1, n, paths[loaded]);
		if (results_load(&in[loaded].res, paths[loaded], &in[loaded].cut)) {
			rc = EXIT_BAD_INPUT;
			break;
		}
	}
	/* a cut input's lost records cannot be seen in a merged file: refused, or said in its header */
	for (size_t j = 0; !rc && j < n; j++)
		if (in[j].res.cut_where && !o->allow_partial) {
			error("%s is cut short (%s): merge refuses a cut input (its lost records would not show in the "
			      "merged file)", in[j].path, in[j].res.cut_where);
			note("finish or re-record it; --allow-partial merges its complete records and says so in the "
			     "merged file's header.notes");
			rc = EXIT_BAD_INPUT;
		}
	struct results out;
	struct merge_report rep;
	results_init(&out);
	progress_clear();
	if (!rc && results_merge(in, n, o, &out, &rep))
		rc = EXIT_BAD_INPUT;
	if (!rc && results_save(&out, out_path))
		rc = EXIT_FAILURE_RUN;
	if (!rc)
		fprintf(stderr, "attnprof: %s: %zu record%s from %zu file%s, %zu superseded, %zu config%s missing\n",
			out_path, rep.records, rep.records == 1 ? "" : "s", n, n == 1 ? "" : "s", rep.superseded,
			rep.missing, rep.missing == 1 ? "" : "s");
	results_release(&out);
	for (size_t j = 0; j < n; j++)
		results_release(&in[j].res);
	free(in);
	return rc;
}
