/* test_cupti_sets.c: metric sets as data and metric-name syntax (no GPU, no CUPTI). */
#include "check.h"

#include <ctype.h>
#include <string.h>

#include "metric_sets.h"

/* 1 if name looks like a CUPTI metric name ("dram__bytes_read.sum"): unit
 * "__" counter, then optional ".rollup" and ".submetric" parts, lower-case
 * letters, digits and '_' only (what Perfworks names use).  A typo in a
 * built-in set would otherwise show only on a GPU. */
static int metric_name_wellformed(const char *name)
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

static void test_builtin_sets(void)
{
	const struct metric_set *none = metric_set_find("none");
	CHECK(none && none->nmetrics == 0);
	const struct metric_set *def = metric_set_find("default");
	CHECK(def && def->nmetrics >= 10);
	const struct metric_set *full = metric_set_find("full");
	CHECK(full && full->nmetrics > def->nmetrics);
	CHECK(metric_set_find("nope") == NULL);
	/* the memory workload and warp states (issue 31), and every set in the names list */
	const struct metric_set *wl = metric_set_find("workload"), *st = metric_set_find("stalls");
	CHECK(wl && wl->nmetrics == 13 && st && st->nmetrics == 21); /* workload: 8 + the L2 reduction and atomic sectors + wgmma and TMA shared-memory traffic + wgmma instructions; stalls: 19 reasons (gmma among them) + active warps + duration */
	for (size_t i = 0; i < metric_sets_builtin_count; i++)
		CHECK(strstr(metric_set_names(), metric_sets_builtin[i].name) != NULL);
	/* every built-in name is well-formed, and full contains all of default */
	for (size_t i = 0; i < metric_sets_builtin_count; i++)
		for (size_t j = 0; j < metric_sets_builtin[i].nmetrics; j++)
			CHECK(metric_name_wellformed(metric_sets_builtin[i].metrics[j]));
	for (size_t j = 0; j < def->nmetrics; j++) {
		int found = 0;
		for (size_t k = 0; k < full->nmetrics; k++)
			found |= !strcmp(def->metrics[j], full->metrics[k]);
		CHECK(found);
	}
}

static void test_wellformed(void)
{
	CHECK(metric_name_wellformed("dram__bytes_read.sum"));
	CHECK(metric_name_wellformed("sm__warps_active.avg.pct_of_peak_sustained_active"));
	CHECK(metric_name_wellformed("sm__cycles_active.avg"));
	CHECK(metric_name_wellformed("smsp__inst_executed"));
	CHECK(!metric_name_wellformed("dram_bytes_read.sum"));   /* no unit separator */
	CHECK(!metric_name_wellformed("__bytes.sum"));
	CHECK(!metric_name_wellformed("dram__"));
	CHECK(!metric_name_wellformed("dram__bytes..sum"));
	CHECK(!metric_name_wellformed("dram__bytes.sum."));
	CHECK(!metric_name_wellformed("DRAM__bytes.sum"));
	CHECK(!metric_name_wellformed("dram__bytes read.sum"));
	CHECK(!metric_name_wellformed("a.b__c"));
	CHECK(!metric_name_wellformed(""));
}

TESTS(test_builtin_sets, test_wellformed)
