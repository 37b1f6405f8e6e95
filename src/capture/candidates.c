/* candidates.c: kernels nobody named (candidates.h). */
#include "capture/candidates.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture/family.h"
#include "capture/merge.h"
#include "capture/shapeinfer.h"
#include "util/error.h"

/* Words attention kernels are named with (matched in any case).  A
 * kernel of one of them that a family rule knows is not a candidate: the
 * rule says what it is. */
static const char *const patterns[] = { "attention", "attn", "fmha", "mha", "flash", "sdpa", "paged", "decode", "splitkv" };

static int has_word(const char *name, const char *w)
{
	size_t n = strlen(w);
	for (const char *p = name; *p; p++)
		if (!strncasecmp(p, w, n))
			return 1;
	return 0;
}

const char *candidate_pattern(const char *name, int scan)
{
	if (!name)
		return NULL;
	const char *pass;
	const struct family_rule *sr = family_scan(name, &pass);
	if (sr)
		return scan ? NULL : sr->family; /* the scan takes it, or would */
	if (family_of_kernel(name))
		return NULL;
	for (size_t i = 0; i < sizeof patterns / sizeof patterns[0]; i++)
		if (has_word(name, patterns[i]))
			return patterns[i];
	return NULL;
}

void candidates_init(struct candidates *c) { memset(c, 0, sizeof *c); }

void candidates_release(struct candidates *c)
{
	for (size_t i = 0; i < c->n; i++) {
		free(c->v[i].name);
		free(c->v[i].demangled);
		free(c->v[i].pattern);
	}
	free(c->v);
	candidates_init(c);
}

int candidates_add(struct candidates *c, const char *name, const char *demangled, const char *pattern,
		   const int grid[3], const int block[3], long launches, long captured, long other_grids)
{
	struct candidate *k = NULL;
	for (size_t i = 0; i < c->n && !k; i++)
		if (!strcmp(c->v[i].name, name))
			k = &c->v[i];
	if (!k) {
		if (c->n == c->alloc) {
			size_t na = c->alloc ? 2 * c->alloc : 8;
			struct candidate *v = realloc(c->v, na * sizeof *v);
			if (!v)
				return error("out of memory");
			c->v = v, c->alloc = na;
		}
		k = &c->v[c->n];
		memset(k, 0, sizeof *k);
		k->name = strdup(name);
		k->demangled = demangled && *demangled ? strdup(demangled) : NULL;
		k->pattern = strdup(pattern ? pattern : "?");
		if (!k->name || !k->pattern) {
			free(k->name), free(k->demangled), free(k->pattern);
			return error("out of memory");
		}
		memcpy(k->grid, grid, sizeof k->grid);
		memcpy(k->block, block, sizeof k->block);
		c->n++;
		k->other_grids = other_grids;
	} else if (memcmp(k->grid, grid, sizeof k->grid) || memcmp(k->block, block, sizeof k->block))
		k->other_grids += launches; /* all of them: another first grid */
	else
		k->other_grids += other_grids;
	k->launches += launches;
	k->captured += captured;
	return 0;
}

int candidates_write(const struct candidates *c, const char *path)
{
	char tmp[4200];
	snprintf(tmp, sizeof tmp, "%s.tmp.%d", path, (int)getpid());
	FILE *f = fopen(tmp, "w");
	if (!f)
		return error("cannot write '%s': %s", tmp, strerror(errno));
	for (size_t i = 0; i < c->n; i++) {
		const struct candidate *k = &c->v[i];
		fprintf(f, "%ld\t%ld\t%ld\t%d\t%d\t%d\t%d\t%d\t%d\t%s\t%s\t%s\n", k->launches, k->captured, k->other_grids,
			k->grid[0], k->grid[1], k->grid[2], k->block[0], k->block[1], k->block[2], k->pattern, k->name,
			k->demangled ? k->demangled : "");
	}
	if (fclose(f) || rename(tmp, path)) {
		unlink(tmp);
		return error("cannot write '%s': %s", path, strerror(errno));
	}
	return 0;
}

/* The next tab-separated field of line (cut in place), or NULL. */
static char *field(char **p)
{
	if (!*p)
		return NULL;
	char *s = *p, *t = strchr(s, '\t');
	if (t)
		*t = '\0', *p = t + 1;
	else
		*p = NULL;
	return s;
}

int candidates_read(struct candidates *c, const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return error("cannot open '%s': %s", path, strerror(errno));
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int rc = 0;
	for (long no = 1; !rc && (len = getline(&line, &cap, f)) > 0; no++) {
		if (line[len - 1] == '\n')
			line[--len] = '\0';
		char *p = line, *fs[12];
		int nf = 0;
		while (nf < 12 && (fs[nf] = field(&p)) != NULL)
			nf++;
		long v[9];
		int ok = nf == 12 && !p;
		for (int i = 0; ok && i < 9; i++) {
			char *e;
			errno = 0;
			v[i] = strtol(fs[i], &e, 10);
			ok = *fs[i] && !*e && !errno && v[i] >= 0 && (i >= 3 || v[i] <= (1L << 40)) && (i < 3 || v[i] <= 1L << 31);
		}
		ok = ok && *fs[9] && *fs[10] && v[1] <= v[0] && v[2] <= v[0];
		if (!ok) {
			rc = error("%s:%ld: not a candidates line (launches, captured, other grids, grid x y z, block x y z, "
				   "pattern, name, demangled name, tab-separated)", path, no);
			break;
		}
		const int grid[3] = { (int)v[3], (int)v[4], (int)v[5] }, block[3] = { (int)v[6], (int)v[7], (int)v[8] };
		rc = candidates_add(c, fs[10], fs[11], fs[9], grid, block, v[0], v[1], v[2]);
	}
	free(line);
	fclose(f);
	return rc;
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int candidates_read_dir(struct candidates *c, const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return error("cannot read the folder '%s': %s", dir, strerror(errno));
	char **names = NULL;
	size_t n = 0, alloc = 0;
	int rc = 0;
	for (struct dirent *e; !rc && (e = readdir(d));) {
		size_t l = strlen(e->d_name);
		if (strncmp(e->d_name, "candidates-", 11) || l < 15 || strcmp(e->d_name + l - 4, ".tsv"))
			continue;
		if (n == alloc) {
			alloc = alloc ? 2 * alloc : 8;
			char **nn = realloc(names, alloc * sizeof *nn);
			if (!nn) {
				rc = error("out of memory");
				break;
			}
			names = nn;
		}
		if (!(names[n] = strdup(e->d_name)))
			rc = error("out of memory");
		else
			n++;
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof *names, by_name);
	for (size_t i = 0; i < n; i++) {
		char path[8192];
		snprintf(path, sizeof path, "%s/%s", dir, names[i]);
		if (!rc)
			rc = candidates_read(c, path);
		free(names[i]);
	}
	free(names);
	return rc;
}

void candidate_base_name(const struct candidate *k, char *buf, size_t len)
{
	const char *s = k->demangled ? k->demangled : k->name;
	/* the identifier that ends right before the first '<' or '(' (a
	 * demangled C++ name), else the whole of a plain one */
	const char *end = s + strcspn(s, "<(");
	const char *b = end;
	while (b > s && (isalnum((unsigned char)b[-1]) || b[-1] == '_'))
		b--;
	size_t n = (size_t)(end - b);
	if (!n) { /* nothing before the list: the first identifier */
		b = s;
		while (*b && !(isalnum((unsigned char)*b) || *b == '_'))
			b++;
		for (n = 0; b[n] && (isalnum((unsigned char)b[n]) || b[n] == '_');)
			n++;
	}
	if (n >= len)
		n = len - 1;
	memcpy(buf, b, n);
	buf[n] = '\0';
}

void candidate_command(const struct candidate *k, const char *cmd, char *buf, size_t len, int *inferred)
{
	char base[64];
	candidate_base_name(k, base, sizeof base);
	struct launch l = { .name = k->name };
	memcpy(l.grid, k->grid, sizeof l.grid);
	memcpy(l.block, k->block, sizeof l.block);
	struct record rec = { .launches = &l, .nlaunches = 1 };
	struct inferred_shape is;
	char shape[200] = "";
	size_t u = 0;
	*inferred = 0;
	if (shape_infer(&rec, &is)) {
		/* only what the grid fixes to one value: a range (Nq=961..1024) is no --shape */
		*inferred = 1;
		if (is.batch) u += (size_t)snprintf(shape + u, sizeof shape - u, " B=%d", is.batch);
		if (is.heads) u += (size_t)snprintf(shape + u, sizeof shape - u, " H=%d", is.heads);
		if (is.nq_min && is.nq_min == is.nq_max) u += (size_t)snprintf(shape + u, sizeof shape - u, " Nq=%d", is.nq_min);
		if (is.d_max && is.d_min == is.d_max) u += (size_t)snprintf(shape + u, sizeof shape - u, " d=%d", is.d_max);
		if (is.causal >= 0) u += (size_t)snprintf(shape + u, sizeof shape - u, " causal=%d", is.causal);
		if (is.dtype != DTYPE_UNKNOWN) snprintf(shape + u, sizeof shape - u, " dtype=%s", dtype_name(is.dtype));
	}
	snprintf(buf, len, "attnprof record --kernel-regex '%s' --shape 'impl=%s pass=%s%s' -- %s", base, base,
		 family_kernel_pass(k->demangled ? k->demangled : k->name), shape, cmd ? cmd : "CMD");
}

size_t candidates_report(const struct candidates *c, const char *cmd, struct results *res)
{
	size_t listed = 0;
	for (size_t i = 0; i < c->n; i++) {
		const struct candidate *k = &c->v[i];
		if (k->captured >= k->launches)
			continue;
		char base[64], command[1200], line[2000], grids[64] = "";
		int inferred;
		candidate_base_name(k, base, sizeof base);
		candidate_command(k, cmd, command, sizeof command, &inferred);
		if (k->other_grids)
			snprintf(grids, sizeof grids, " (%ld launch%s with other grids)", k->other_grids,
				 k->other_grids == 1 ? "" : "es");
		snprintf(line, sizeof line,
			 "candidate attention kernel '%s' (its name holds '%s'): %ld launch%s outside every attention range, "
			 "%ld not captured, grid (%d, %d, %d) block (%d, %d, %d)%s; to capture them: %s%s",
			 base, k->pattern, k->launches, k->launches == 1 ? "" : "es", k->launches - k->captured, k->grid[0],
			 k->grid[1], k->grid[2], k->block[0], k->block[1], k->block[2], grids, command,
			 inferred ? " (B, H, Nq, d as its grid tells; add what is missing of B= H= Nq= Nkv= d=)"
				  : " (add B= H= Nq= Nkv= d= for its FLOPs and verdict)");
		note("%s", line);
		if (res)
			results_note(res, line);
		listed++;
	}
	return listed;
}
