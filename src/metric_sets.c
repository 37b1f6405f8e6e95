/* metric_sets.c: the built-in metric sets and selection parsing; see metric_sets.h.
 *
 * Pass costs on GH100 (cuptiProfilerHostGetNumOfPasses, CUPTI 13.0):
 * memory 1, default 2 (the bank-conflict counters need the second pass),
 * full 4.  docs/metrics.md has the table.
 */
#include "metric_sets.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"

static const char *const set_memory[] = {
	M_DRAM_READ, M_DRAM_WRITE, M_L2_BYTES, M_DURATION, M_SM_CLOCK,
};

static const char *const set_default[] = {
	M_DRAM_READ, M_DRAM_WRITE, M_L2_BYTES,
	M_SMEM_LD_WF, M_SMEM_ST_WF, M_SMEM_LD_CONF, M_SMEM_ST_CONF,
	M_LDSM, M_OCC_ACHIEVED, M_TENSOR_ACTIVE,
	M_DURATION, M_SM_CLOCK,
};

static const char *const set_full[] = {
	M_DRAM_READ, M_DRAM_WRITE, M_L2_BYTES, M_L2_READ_SECT, M_L2_WRITE_SECT,
	M_SMEM_LD_WF, M_SMEM_ST_WF, M_SMEM_LD_CONF, M_SMEM_ST_CONF, M_SMEM_GMMA_WF,
	M_LDSM, M_LDGSTS, M_OCC_ACHIEVED, M_TENSOR_ACTIVE,
	M_FADD, M_FMUL, M_FFMA, M_MUFU, M_TENSOR_INST, M_TENSOR_HMMA, M_TENSOR_GMMA,
	M_INST_EXECUTED, M_BARRIERS,
	M_DURATION, M_SM_CLOCK,
};

/* record -- CMD: the store-or-not verdict (L2 writes from the SMs), DRAM,
 * shared memory, occupancy, tensor pipe and time: the seven metrics the
 * ncu comparison of docs/capture.md profiles */
static const char *const set_capture[] = {
	M_DRAM_READ, M_DRAM_WRITE, M_L2_WRITE_SECT, M_SMEM_LD_WF, M_OCC_ACHIEVED, M_TENSOR_ACTIVE, M_DURATION,
};

#define SET(n, about, arr) { n, about, arr, sizeof(arr) / sizeof(arr[0]) }
const struct metric_set metric_sets_builtin[] = {
	{ "none", "no hardware counters: time and verify only", NULL, 0 },
	SET("memory", "HBM and L2 bytes, duration and clock (1 pass on GH100)", set_memory),
	SET("default", "HBM, L2, shared-memory wavefronts and conflicts, ldmatrix, occupancy, tensor pipe, duration, clock (2 passes on GH100)", set_default),
	SET("capture", "record -- CMD's default: HBM read/write, L2 write sectors (the stored-or-not verdict), shared-memory load wavefronts, occupancy, tensor pipe, duration", set_capture),
	SET("full", "default plus instruction mix (FP32 add/mul/fma, MUFU, tensor HMMA/HGMMA), barrier stalls, L2 sectors, ldgsts (4 passes on GH100)", set_full),
};
const size_t metric_sets_builtin_count = sizeof(metric_sets_builtin) / sizeof(metric_sets_builtin[0]);

const struct metric_set *metric_set_find(const char *name)
{
	for (size_t i = 0; i < metric_sets_builtin_count; i++)
		if (!strcmp(metric_sets_builtin[i].name, name))
			return &metric_sets_builtin[i];
	return NULL;
}

void metric_list_init(struct metric_list *l)
{
	memset(l, 0, sizeof *l);
}

void metric_list_release(struct metric_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->names[i]);
	metric_list_init(l);
}

/* unit "__" counter, then optional ".rollup" and ".submetric" parts:
 * lower-case letters, digits and '_' only (what Perfworks names use). */
int metric_name_wellformed(const char *name)
{
	const char *sep = strstr(name, "__");
	if (!sep || sep == name || !sep[2])
		return 0;
	int dots = 0;
	char prev = '.';
	for (const char *p = name; *p; p++) {
		char c = *p;
		if (c == '.') {
			if (prev == '.' || p < sep || ++dots > 3)
				return 0;
		} else if (!(islower((unsigned char)c) || isdigit((unsigned char)c) || c == '_')) {
			return 0;
		}
		prev = c;
	}
	return prev != '.';
}

int metric_needs_kernel_replay(const char *name)
{
	return name && !strncmp(name, "smsp__sass_", 11);
}

int metric_list_add(struct metric_list *l, const char *name)
{
	if (!metric_name_wellformed(name))
		return error("'%s' is not a metric name (expected unit__counter.rollup, e.g. '%s')",
			     name, M_DRAM_READ);
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->names[i], name))
			return 0;
	if (l->n >= METRIC_LIST_MAX)
		return error("more than %d metrics selected (at '%s'): split the selection into sets",
			     METRIC_LIST_MAX, name);
	char *copy = strdup(name);
	if (!copy)
		return error("out of memory");
	l->names[l->n++] = copy;
	return 0;
}

static const struct metric_set *find_set(const char *name, const struct metric_set *user,
					 size_t nuser)
{
	const struct metric_set *s = metric_set_find(name);
	for (size_t i = 0; !s && i < nuser; i++)
		if (!strcmp(user[i].name, name))
			s = &user[i];
	return s;
}

static int add_item(const char *item, const struct metric_set *user, size_t nuser,
		    struct metric_list *l)
{
	const struct metric_set *s = find_set(item, user, nuser);
	if (s) {
		for (size_t i = 0; i < s->nmetrics; i++)
			if (metric_list_add(l, s->metrics[i]))
				return -1;
		return 0;
	}
	if (metric_name_wellformed(item))
		return metric_list_add(l, item);

	char sets[512];
	size_t off = 0;
	sets[0] = '\0';
	for (size_t i = 0; i < metric_sets_builtin_count + nuser && off < sizeof sets; i++) {
		const char *n = i < metric_sets_builtin_count ? metric_sets_builtin[i].name
							      : user[i - metric_sets_builtin_count].name;
		int w = snprintf(sets + off, sizeof sets - off, "%s%s", off ? ", " : "", n);
		if (w < 0)
			break;
		off += (size_t)w;
	}
	return error("unknown metric set or bad metric name '%s' (sets: %s; a metric is unit__counter.rollup, e.g. '%s')",
		     item, sets, M_DRAM_READ);
}

int metric_selection_parse(const char *text, const struct metric_set *user,
			   size_t nuser, struct metric_list *l)
{
	if (!text)
		return error("empty metric selection: name a set (e.g. 'default') or metrics");
	size_t added = 0;
	const char *p = text;
	while (*p) {
		while (*p == ',' || isspace((unsigned char)*p))
			p++;
		const char *start = p;
		while (*p && *p != ',' && !isspace((unsigned char)*p))
			p++;
		size_t len = (size_t)(p - start);
		if (!len)
			continue;
		char item[256];
		if (len >= sizeof item)
			return error("metric name '%.40s…' is too long", start);
		memcpy(item, start, len);
		item[len] = '\0';
		if (add_item(item, user, nuser, l))
			return -1;
		added++;
	}
	if (!added)
		return error("empty metric selection: name a set (e.g. 'default') or metrics");
	return 0;
}
