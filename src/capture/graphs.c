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

static struct gnode *find_node(const struct graphs *g, uint64_t node)
{
	for (size_t i = g->nnode; i-- > 0;)
		if (g->node[i].node == node)
			return &g->node[i];
	return NULL;
}

static int add_node(struct graphs *g, uint32_t graph, uint64_t node, size_t site, int kernel)
{
	if (GROW(g->node, g->nnode, g->anode))
		return -1;
	g->node[g->nnode++] = (struct gnode){ node, graph, site, kernel };
	return 0;
}

int graphs_node_created(struct graphs *g, uint32_t graph, uint64_t node, int kernel, long thread)
{
	long s = graphs_site_open(g, thread);
	if (s < 0)
		return 0; /* not attention: its kernels count as the others' */
	struct graph_site *site = &g->site[s];
	if (site->graph && site->graph != graph) {
		/* a capture on another stream of this thread, inside the call:
		 * its nodes are not the call's graph's */
		g->foreign_nodes++;
		return 0;
	}
	site->graph = graph;
	site->nodes += kernel != 0;
	return add_node(g, graph, node, (size_t)s, kernel);
}

int graphs_node_cloned(struct graphs *g, uint32_t graph, uint64_t node, uint64_t original)
{
	const struct gnode *o = find_node(g, original);
	if (!o)
		return 0;
	return add_node(g, graph, node, o->site, o->kernel);
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
	if (!n) {
		g->unknown_nodes++;
		return 0;
	}
	if (GROW(g->kern, g->nkern, g->akern))
		return -1;
	const struct glaunch *l = find_launch(g, correlation);
	struct graph_kernel *k = &g->kern[g->nkern];
	memset(k, 0, sizeof *k);
	k->site = n->site, k->node = node, k->correlation = correlation;
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

/* One replay of a site: its kernels' summed time and how many ran. */
struct replay {
	uint32_t correlation;
	uint64_t first_ns;
	double ms;
	size_t kernels;
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

/* The replays of site s in executable graph exec at version v, in time order. */
static size_t site_replays(const struct graphs *g, size_t s, uint32_t exec, int v, struct replay *r)
{
	size_t n = 0;
	for (size_t i = 0; i < g->nkern; i++) {
		const struct graph_kernel *k = &g->kern[i];
		if (k->site != s || k->exec != exec || k->version != v)
			continue;
		size_t j = 0;
		while (j < n && r[j].correlation != k->correlation)
			j++;
		if (j == n)
			r[n++] = (struct replay){ k->correlation, k->start_ns, 0, 0, i };
		r[j].ms += (double)(k->end_ns - k->start_ns) * 1e-6;
		r[j].kernels++;
		if (k->start_ns < r[j].first_ns)
			r[j].first_ns = k->start_ns;
	}
	qsort(r, n, sizeof *r, by_first);
	return n;
}

static int add_record(const struct graph_site *site, const struct graphs *g, const struct replay *rep, size_t nrep,
		      size_t complete, const double *ms, size_t nms, const char *origin, struct results *out)
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
		if (rep[i].kernels == site->nodes) {
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

long graphs_records(const struct graphs *g, struct results *out, int per_replay)
{
	long added = 0;
	struct replay *rep = malloc((g->nkern ? g->nkern : 1) * sizeof *rep);
	double *ms = malloc((g->nkern ? g->nkern : 1) * sizeof *ms);
	if (!rep || !ms) {
		free(rep), free(ms);
		return error("out of memory");
	}
	long incomplete = 0;
	for (size_t s = 0; s < g->nsite; s++) {
		/* each (executable graph, version) its kernels ran in, in the order first seen */
		for (size_t i = 0; i < g->nkern; i++) {
			const struct graph_kernel *k = &g->kern[i];
			int first = k->site == s;
			for (size_t j = 0; first && j < i; j++)
				first = !(g->kern[j].site == s && g->kern[j].exec == k->exec && g->kern[j].version == k->version);
			if (!first)
				continue;
			size_t n = site_replays(g, s, k->exec, k->version, rep), nms = 0;
			for (size_t r = 0; r < n; r++)
				if (rep[r].kernels == g->site[s].nodes)
					ms[nms++] = rep[r].ms;
			incomplete += (long)(n - nms);
			if (add_record(&g->site[s], g, rep, n, nms, ms, nms, "graph-replay", out)) {
				free(rep), free(ms);
				return -1;
			}
			added++;
			for (size_t r = 0; per_replay && r < n; r++) {
				if (rep[r].kernels != g->site[s].nodes)
					continue;
				if (add_record(&g->site[s], g, &rep[r], 1, 1, &rep[r].ms, 1, "graph-replay-one", out)) {
					free(rep), free(ms);
					return -1;
				}
				added++;
			}
		}
	}
	free(rep), free(ms);
	char line[400];
	if (incomplete) {
		snprintf(line, sizeof line, "%ld replay(s) of in-graph calls missed some of the call's kernels (activity "
			 "records dropped) and were left out of their times", incomplete);
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
