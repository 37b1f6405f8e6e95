/* graphs.c: attention calls inside CUDA graphs (graphs.h). */
#include "capture/graphs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture/merge.h"
#include "capture/range_name.h"
#include "util/error.h"

/* Grow an array of n elements to hold one more. */
static int grow(void **v, size_t *alloc, size_t n, size_t size)
{
	if (n < *alloc)
		return 0;
	size_t na = *alloc ? 2 * *alloc : 16;
	void *p = realloc(*v, na * size);
	if (!p)
		return error("out of memory");
	*v = p, *alloc = na;
	return 0;
}
#define GROW(arr, n, a) grow((void **)&(arr), &(a), (n), sizeof *(arr))

void graphs_init(struct graphs *g) { memset(g, 0, sizeof *g); }

void graphs_release(struct graphs *g)
{
	for (size_t i = 0; i < g->nsite; i++)
		free(g->site[i].range);
	for (size_t i = 0; i < g->nkern; i++)
		free(g->kern[i].name);
	free(g->site), free(g->node), free(g->exec), free(g->launch), free(g->kern);
	graphs_init(g);
}

long graphs_site_open(const struct graphs *g, long thread)
{
	for (size_t i = g->nsite; i-- > 0;)
		if (g->site[i].open && g->site[i].thread == thread)
			return (long)i;
	return -1;
}

long graphs_site_begin(struct graphs *g, const char *range, long call, long thread)
{
	if (graphs_site_open(g, thread) >= 0 || GROW(g->site, g->nsite, g->asite))
		return -1;
	struct graph_site *s = &g->site[g->nsite];
	memset(s, 0, sizeof *s);
	if (!(s->range = strdup(range ? range : "")))
		return error("out of memory");
	s->call = call, s->thread = thread, s->open = 1;
	return (long)g->nsite++;
}

void graphs_site_end(struct graphs *g, long thread)
{
	long i = graphs_site_open(g, thread);
	if (i >= 0)
		g->site[i].open = 0;
}

#define NO_SITE ((size_t)-1) /* a node kept but no site's */

static struct gnode *find_node(const struct graphs *g, uint64_t node)
{
	for (size_t i = g->nnode; i-- > 0;)
		if (g->node[i].node == node)
			return &g->node[i];
	return NULL;
}

static int add_node(struct graphs *g, uint32_t graph, uint64_t node, uint64_t root, size_t site, int type)
{
	if (GROW(g->node, g->nnode, g->anode))
		return -1;
	g->node[g->nnode++] = (struct gnode){ node, root, graph, site, type };
	return 0;
}

int graphs_node_created(struct graphs *g, uint32_t graph, uint64_t node, int type, long thread)
{
	long s = graphs_site_open(g, thread);
	if (s < 0)
		return 0; /* not attention: its kernels count as the others' */
	if (find_node(g, node)) {
		g->repeated_nodes++; /* a second callback for one node: it is one node */
		return 0;
	}
	struct graph_site *site = &g->site[s];
	if (site->graph && site->graph != graph) {
		/* a capture on another stream of this thread, inside the call:
		 * its nodes are not the call's graph's (kept as no site's, as
		 * a copy that an instantiation or cuGraphClone inside the call
		 * makes is created before GRAPHNODE_CLONED says whose it is) */
		g->foreign_nodes++;
		return add_node(g, graph, node, node, NO_SITE, type);
	}
	site->graph = graph;
	if (type == GRAPHS_NODE_KERNEL)
		site->nodes++;
	else
		site->other_nodes++;
	return add_node(g, graph, node, node, (size_t)s, type);
}

int graphs_node_cloned(struct graphs *g, uint32_t graph, uint64_t node, uint64_t original)
{
	const struct gnode *o = find_node(g, original);
	if (!o || o->site == NO_SITE)
		return 0;
	const struct gnode copy = *o; /* add_node may move the array */
	struct gnode *n = find_node(g, node);
	if (n) {
		if (n->site == NO_SITE) { /* created inside the call, a copy of one of its nodes: the call's */
			n->site = copy.site, n->root = copy.root, n->type = copy.type;
			g->foreign_nodes--;
		}
		return 0;
	}
	return add_node(g, graph, node, copy.root, copy.site, copy.type);
}

static struct gexec *find_exec(const struct graphs *g, uint32_t exec)
{
	for (size_t i = g->nexec; i-- > 0;)
		if (g->exec[i].exec == exec)
			return &g->exec[i];
	return NULL;
}

int graphs_exec_created(struct graphs *g, uint32_t exec, uint32_t graph)
{
	if (GROW(g->exec, g->nexec, g->aexec))
		return -1;
	g->exec[g->nexec++] = (struct gexec){ exec, graph, 1 };
	return 0;
}

void graphs_exec_updated(struct graphs *g, uint32_t exec)
{
	struct gexec *e = find_exec(g, exec);
	if (e) {
		e->version++;
		g->updates++;
	}
}

int graphs_launch(struct graphs *g, uint32_t exec, uint32_t correlation, uint64_t stream, long thread)
{
	const struct gexec *e = find_exec(g, exec);
	if (GROW(g->launch, g->nlaunch, g->alaunch))
		return -1;
	g->launch[g->nlaunch++] = (struct glaunch){ correlation, exec, e ? e->version : 1, stream, thread };
	return 0;
}

static const struct glaunch *find_launch(const struct graphs *g, uint32_t correlation)
{
	for (size_t i = g->nlaunch; i-- > 0;)
		if (g->launch[i].correlation == correlation)
			return &g->launch[i];
	return NULL;
}

int graphs_kernel(struct graphs *g, uint64_t node, uint32_t correlation, uint64_t start_ns, uint64_t end_ns,
		  const char *name, const int grid[3], const int block[3], int registers, int static_smem,
		  int dynamic_smem)
{
	const struct gnode *n = find_node(g, node);
	if (!n || n->site == NO_SITE) {
		g->unknown_nodes++;
		return 0;
	}
	if (GROW(g->kern, g->nkern, g->akern))
		return -1;
	const struct glaunch *l = find_launch(g, correlation);
	struct graph_kernel *k = &g->kern[g->nkern];
	memset(k, 0, sizeof *k);
	k->site = n->site, k->node = node, k->root = n->root, k->correlation = correlation;
	k->exec = l ? l->exec : 0, k->version = l ? l->version : 0;
	k->start_ns = start_ns, k->end_ns = end_ns > start_ns ? end_ns : start_ns;
	if (!(k->name = strdup(name ? name : "?")))
		return error("out of memory");
	memcpy(k->grid, grid, sizeof k->grid);
	memcpy(k->block, block, sizeof k->block);
	k->registers = registers, k->static_smem = static_smem, k->dynamic_smem = dynamic_smem;
	g->nkern++;
	return 0;
}

/* One replay of a site: its kernels' summed time and how many of the
 * site's nodes ran in it. */
struct replay {
	uint32_t correlation;
	uint64_t first_ns;
	double ms;
	size_t kernels;        /* distinct nodes (a clone counted as its original) */
	size_t first;          /* index of its first kernel in g->kern */
};

static int by_first(const void *a, const void *b)
{
	const struct replay *x = a, *y = b;
	return x->first_ns < y->first_ns ? -1 : x->first_ns > y->first_ns;
}
static int by_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* Kernel indices sorted by site, executable graph, version (a group: one
 * record), then by launch and node within the group, then by arrival. */
static int by_group(const void *a, const void *b, void *arg)
{
	const struct graphs *g = arg;
	const struct graph_kernel *x = &g->kern[*(const size_t *)a], *y = &g->kern[*(const size_t *)b];
#define KEY(f) if (x->f != y->f) return x->f < y->f ? -1 : 1
	KEY(site);
	KEY(exec);
	KEY(version);
	KEY(correlation);
	KEY(root);
#undef KEY
	return *(const size_t *)a < *(const size_t *)b ? -1 : *(const size_t *)a > *(const size_t *)b;
}
static int by_root(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}
static int same_group(const struct graph_kernel *x, const struct graph_kernel *y)
{
	return x->site == y->site && x->exec == y->exec && x->version == y->version;
}

/* The replays of one group (idx[0..n), sorted by_group), in time order;
 * *expect: the distinct nodes that ran in any of them (roots scratch). */
static size_t group_replays(const struct graphs *g, const size_t *idx, size_t n, struct replay *r, uint64_t *roots,
			    size_t *expect)
{
	size_t nr = 0, nroot = 0;
	for (size_t i = 0; i < n; i++) {
		const struct graph_kernel *k = &g->kern[idx[i]];
		const struct graph_kernel *prev = i ? &g->kern[idx[i - 1]] : NULL;
		if (!prev || prev->correlation != k->correlation)
			r[nr++] = (struct replay){ k->correlation, k->start_ns, 0, 0, idx[i] };
		else if (prev->root == k->root)
			continue; /* one node's kernel twice in a replay: counted once */
		struct replay *p = &r[nr - 1];
		p->ms += (double)(k->end_ns - k->start_ns) * 1e-6;
		p->kernels++;
		if (k->start_ns < p->first_ns)
			p->first_ns = k->start_ns;
		if (idx[i] < p->first)
			p->first = idx[i];
		roots[nroot++] = k->root;
	}
	qsort(roots, nroot, sizeof *roots, by_root);
	*expect = 0;
	for (size_t i = 0; i < nroot; i++)
		*expect += !i || roots[i] != roots[i - 1];
	qsort(r, nr, sizeof *r, by_first);
	return nr;
}

static int add_record(const struct graph_site *site, const struct graphs *g, const struct replay *rep, size_t nrep,
		      size_t expect, size_t complete, const double *ms, size_t nms, const char *origin, struct results *out)
{
	struct call_id id;
	char problem[200];
	int prc = range_parse(site->range, &id, problem, sizeof problem);
	struct record rec;
	record_init(&rec);
	rec.source = strdup("capture");
	rec.variant = strdup(id.impl[0] ? id.impl : "unknown");
	call_shape(&id, &rec.shape);
	rec.pass_given = 1;
	rec.metrics_status = METRICS_NOT_REQUESTED;
	/* the kernels of the first complete replay (the first, when none is) */
	const struct replay *r0 = &rep[0];
	for (size_t i = 0; i < nrep; i++)
		if (rep[i].kernels == expect) {
			r0 = &rep[i];
			break;
		}
	rec.launches = calloc(r0->kernels ? r0->kernels : 1, sizeof *rec.launches);
	struct capture_info *c = calloc(1, sizeof *c);
	rec.capture = c;
	if (!rec.source || !rec.variant || !rec.launches || !c) {
		record_release(&rec);
		return error("out of memory");
	}
	for (size_t i = r0->first; i < g->nkern && rec.nlaunches < r0->kernels; i++) {
		const struct graph_kernel *k = &g->kern[i];
		if (k->site != (size_t)(site - g->site) || k->correlation != r0->correlation)
			continue;
		int again = 0; /* a node's kernel already listed */
		for (size_t j = r0->first; j < i && !again; j++)
			again = g->kern[j].site == k->site && g->kern[j].correlation == k->correlation &&
				g->kern[j].root == k->root;
		if (again)
			continue;
		struct launch *l = &rec.launches[rec.nlaunches++];
		l->name = strdup(k->name);
		memcpy(l->grid, k->grid, sizeof l->grid);
		memcpy(l->block, k->block, sizeof l->block);
		l->registers = k->registers, l->static_smem = k->static_smem, l->dynamic_smem = k->dynamic_smem;
		l->duration_ns = (double)(k->end_ns - k->start_ns);
	}
	double *sorted = malloc((nms ? nms : 1) * sizeof *sorted);
	if (!sorted) {
		record_release(&rec);
		return error("out of memory");
	}
	memcpy(sorted, ms, nms * sizeof *sorted);
	qsort(sorted, nms, sizeof *sorted, by_double);
	if (nms) {
		rec.time_ms = nms % 2 ? sorted[nms / 2] : 0.5 * (sorted[nms / 2 - 1] + sorted[nms / 2]);
		rec.time_ms_min = sorted[0];
		rec.time_ms_max = sorted[nms - 1];
		rec.repetitions = (int)nms;
	}
	free(sorted);
	c->range = strdup(site->range);
	c->problem = prc > 0 ? strdup(problem) : NULL;
	c->origin = strdup(origin);
	c->call = id.call >= 0 ? (int)id.call : (int)site->call;
	c->shape_known = id.shape_known;
	c->kernel_ms = rec.time_ms;
	c->time_source = strdup("graph-replays");
	c->l2_write_bytes = c->dram_write_bytes = c->footprint_bytes = -1;
	c->nn_matrices = -1;
	c->alloc_bytes = -1;
	c->density = id.density;
	c->mask = id.mask[0] ? strdup(id.mask) : NULL;
	c->graph_replays = (int)complete;
	c->graph_replays_incomplete = (int)(nrep - complete);
	if (results_add(out, &rec)) {
		record_release(&rec);
		return -1;
	}
	return 0;
}

/* One group's record (and its replays' with per_replay). */
static long group_records(const struct graphs *g, const size_t *idx, size_t n, struct replay *rep, uint64_t *roots,
			  double *ms, int per_replay, long *incomplete, struct results *out)
{
	const struct graph_site *site = &g->site[g->kern[idx[0]].site];
	size_t expect = 0, nms = 0;
	size_t nr = group_replays(g, idx, n, rep, roots, &expect);
	for (size_t r = 0; r < nr; r++)
		if (rep[r].kernels == expect)
			ms[nms++] = rep[r].ms;
	*incomplete += (long)(nr - nms);
	if (add_record(site, g, rep, nr, expect, nms, ms, nms, "graph-replay", out))
		return -1;
	long added = 1;
	for (size_t r = 0; per_replay && r < nr; r++) {
		if (rep[r].kernels != expect)
			continue;
		if (add_record(site, g, &rep[r], 1, expect, 1, &rep[r].ms, 1, "graph-replay-one", out))
			return -1;
		added++;
	}
	return added;
}

/* A group's place: its site, then its first kernel's arrival. */
struct group { size_t site, first, start, n; };
static int by_site_first(const void *a, const void *b)
{
	const struct group *x = a, *y = b;
	if (x->site != y->site)
		return x->site < y->site ? -1 : 1;
	return x->first < y->first ? -1 : x->first > y->first;
}

long graphs_records(const struct graphs *g, struct results *out, int per_replay)
{
	size_t n = g->nkern ? g->nkern : 1;
	size_t *idx = malloc(n * sizeof *idx);
	struct replay *rep = malloc(n * sizeof *rep);
	uint64_t *roots = malloc((n > g->nnode ? n : g->nnode + 1) * sizeof *roots);
	double *ms = malloc(n * sizeof *ms);
	struct group *grp = malloc(n * sizeof *grp);
	if (!idx || !rep || !roots || !ms || !grp) {
		free(idx), free(rep), free(roots), free(ms), free(grp);
		return error("out of memory");
	}
	for (size_t i = 0; i < g->nkern; i++)
		idx[i] = i;
	qsort_r(idx, g->nkern, sizeof *idx, by_group, (void *)g);
	size_t ngrp = 0;
	for (size_t i = 0; i < g->nkern; i++) {
		if (i && same_group(&g->kern[idx[i]], &g->kern[idx[i - 1]])) {
			grp[ngrp - 1].n++;
			if (idx[i] < grp[ngrp - 1].first)
				grp[ngrp - 1].first = idx[i];
			continue;
		}
		grp[ngrp++] = (struct group){ g->kern[idx[i]].site, idx[i], i, 1 };
	}
	qsort(grp, ngrp, sizeof *grp, by_site_first);
	long added = 0, incomplete = 0;
	for (size_t i = 0; i < ngrp; i++) {
		long a = group_records(g, idx + grp[i].start, grp[i].n, rep, roots, ms, per_replay, &incomplete, out);
		if (a < 0) {
			added = -1;
			break;
		}
		added += a;
	}
	/* nodes of the sites that ran no kernel in any replay, sites none of whose nodes ran */
	long idle = 0, idle_kernel = 0, silent = 0;
	if (added >= 0) {
		size_t nroot = 0;
		for (size_t i = 0; i < g->nkern; i++)
			roots[nroot++] = g->kern[i].root;
		qsort(roots, nroot, sizeof *roots, by_root);
		for (size_t i = 0; i < g->nnode; i++) {
			const struct gnode *d = &g->node[i];
			if (d->site == NO_SITE || d->root != d->node || bsearch(&d->root, roots, nroot, sizeof *roots, by_root))
				continue;
			idle++;
			idle_kernel += d->type == GRAPHS_NODE_KERNEL;
		}
		for (size_t s = 0; s < g->nsite; s++) {
			int ran = 0;
			for (size_t i = 0; i < ngrp && !ran; i++)
				ran = grp[i].site == s;
			silent += !ran && g->site[s].nodes + g->site[s].other_nodes > 0;
		}
	}
	free(idx), free(rep), free(roots), free(ms), free(grp);
	if (added < 0)
		return -1;
	char line[400];
	if (incomplete) {
		snprintf(line, sizeof line, "%ld replay(s) of in-graph calls missed some of the call's kernels (activity "
			 "records dropped) and were left out of their times", incomplete);
		results_note(out, line);
	}
	if (idle) {
		snprintf(line, sizeof line, "%ld node(s) created during in-graph calls' captures ran no kernel in any replay "
			 "(%ld with a kernel's type): a replay is complete with every node of its call that ran in any replay",
			 idle, idle_kernel);
		results_note(out, line);
	}
	if (silent) {
		snprintf(line, sizeof line, "%ld in-graph call(s) had graph nodes but no kernel of theirs in any replay (never "
			 "launched, or their activity records were not delivered): no record", silent);
		results_note(out, line);
	}
	if (g->repeated_nodes) {
		snprintf(line, sizeof line, "%ld repeated node-creation callback(s) for nodes already seen were counted once",
			 g->repeated_nodes);
		results_note(out, line);
	}
	if (g->foreign_nodes) {
		snprintf(line, sizeof line, "%ld graph node(s) added to another graph while an in-graph call was open on "
			 "the same thread (two captures at once) were not attributed to the call", g->foreign_nodes);
		results_note(out, line);
	}
	if (g->updates) {
		snprintf(line, sizeof line, "%ld update(s) of executable graphs between replays: an in-graph call's "
			 "replays after an update are a call of their own (its kernels may have changed)", g->updates);
		results_note(out, line);
	}
	return added;
}
