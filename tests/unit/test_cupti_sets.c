/* test_cupti_sets.c: metric sets as data and selection parsing (no GPU, no CUPTI). */
#include "check.h"

#include "metric_sets.h"
#include "util/error.h"

static void test_builtin_sets(void)
{
	const struct metric_set *none = metric_set_find("none");
	CHECK(none && none->nmetrics == 0);
	const struct metric_set *def = metric_set_find("default");
	CHECK(def && def->nmetrics >= 10);
	const struct metric_set *full = metric_set_find("full");
	CHECK(full && full->nmetrics > def->nmetrics);
	CHECK(metric_set_find("nope") == NULL);
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

static void test_parse_set_name(void)
{
	struct metric_list l;
	metric_list_init(&l);
	CHECK_INT(metric_selection_parse("default", NULL, 0, &l), 0);
	CHECK_INT(l.n, metric_set_find("default")->nmetrics);
	CHECK_STR(l.names[0], M_DRAM_READ);
	metric_list_release(&l);
	CHECK_INT(l.n, 0);
}

static void test_parse_mixed_and_dedup(void)
{
	struct metric_list l;
	metric_list_init(&l);
	CHECK_INT(metric_selection_parse(" memory,  smsp__inst_executed.sum ,dram__bytes_read.sum\tgpu__time_duration.sum",
					 NULL, 0, &l), 0);
	/* memory (5) + inst_executed; the two repeats are dropped, order kept */
	CHECK_INT(l.n, metric_set_find("memory")->nmetrics + 1);
	CHECK_STR(l.names[0], M_DRAM_READ);
	CHECK_STR(l.names[l.n - 1], "smsp__inst_executed.sum");
	metric_list_release(&l);
}

static void test_parse_user_sets(void)
{
	static const char *const mine[] = { M_SMEM_LD_WF, M_SMEM_ST_WF };
	const struct metric_set user[] = { { "smem", "shared only", mine, 2 } };
	struct metric_list l;
	metric_list_init(&l);
	CHECK_INT(metric_selection_parse("smem, memory", user, 1, &l), 0);
	CHECK_INT(l.n, 2 + metric_set_find("memory")->nmetrics);
	CHECK_STR(l.names[0], M_SMEM_LD_WF);
	metric_list_release(&l);
}

static void test_parse_errors(void)
{
	struct metric_list l;
	metric_list_init(&l);
	error_quiet(1);
	CHECK_INT(metric_selection_parse("defualt", NULL, 0, &l), -1);
	CHECK_CONTAINS(error_last(), "'defualt'");
	CHECK_CONTAINS(error_last(), "default");  /* lists the sets */
	CHECK_INT(metric_selection_parse("", NULL, 0, &l), -1);
	CHECK_CONTAINS(error_last(), "empty");
	CHECK_INT(metric_selection_parse(" , ", NULL, 0, &l), -1);
	CHECK_INT(metric_selection_parse(NULL, NULL, 0, &l), -1);
	CHECK_INT(metric_selection_parse("dram__bytes_read.sum, Bad__Name", NULL, 0, &l), -1);
	CHECK_CONTAINS(error_last(), "Bad__Name");
	metric_list_release(&l);
	/* more than METRIC_LIST_MAX distinct names */
	char text[8192] = "";
	for (int i = 0; i < METRIC_LIST_MAX + 1; i++) {
		char one[64];
		snprintf(one, sizeof one, "x__m%d.sum,", i);
		strcat(text, one);
	}
	CHECK_INT(metric_selection_parse(text, NULL, 0, &l), -1);
	CHECK_CONTAINS(error_last(), "more than");
	error_quiet(0);
	metric_list_release(&l);
}

TESTS(test_builtin_sets, test_wellformed, test_parse_set_name, test_parse_mixed_and_dedup,
      test_parse_user_sets, test_parse_errors)
