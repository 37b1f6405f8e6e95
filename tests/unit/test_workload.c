/* Attention's share of a program's GPU time and the Amdahl bound of a
 * faster attention (capture/workload.h), through a results file. */
#include <unistd.h>

#include "check.h"
#include "capture/merge.h"
#include "capture/workload.h"

static void test_amdahl(void)
{
	/* the example: attention at 30 % of the step, 2x faster: at most 1.18x */
	CHECK_NEAR(workload_amdahl(0.3, 2), 1 / 0.85, 1e-12);
	CHECK_NEAR(workload_amdahl(0.3, 0), 1 / 0.7, 1e-12);
	CHECK_NEAR(workload_amdahl(0, 2), 1.0, 1e-12);
	CHECK_NEAR(workload_amdahl(1, 2), 2.0, 1e-12);
	CHECK(isinf(workload_amdahl(1, 0)));
	CHECK(isnan(workload_amdahl(1.5, 2)));
	CHECK(isnan(workload_amdahl(NAN, 2)));
}

static void test_tally_merge_settle(void)
{
	struct results a, b;
	results_init(&a);
	results_init(&b);
	char line[600];
	workload_settle(&a.header, line, sizeof line);
	CHECK_STR(line, ""); /* nothing counted: nothing said, nothing stored */
	CHECK_NEAR(workload_share(&a.header), -1, 0);
	workload_add(&a.header, 3e6, 1);  /* 3 ms of attention */
	workload_add(&a.header, 5e6, 0);  /* 5 ms of GEMMs */
	workload_add(&a.header, -1, 1);   /* a record without an end: not counted */
	workload_add(&b.header, 2e6, 0);  /* another process: 2 ms */
	workload_merge(&a.header, &b.header);
	CHECK_INT(a.header.gpu_kernels, 3);
	CHECK_INT(a.header.attention_kernels, 1);
	CHECK_NEAR(workload_share(&a.header), 0.3, 1e-12);
	workload_settle(&a.header, line, sizeof line);
	CHECK_NEAR(a.header.attention_share, 0.3, 1e-12);
	CHECK_NEAR(a.header.amdahl_2x, 1 / 0.85, 1e-12);
	CHECK(strstr(line, "3 kernels ran for 10.000 ms of GPU time, 1 of them attention's for 3.000 ms (30.0 %)"));
	CHECK(strstr(line, "at most 1.18× faster, an attention that took no time 1.43×"));

	/* through a results file; a file without the fields reads them as 0 */
	char path[] = "/tmp/attnprof-workloadXXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	close(fd);
	CHECK_INT(results_save(&a, path), 0);
	struct results back;
	int cut = 0;
	results_init(&back);
	CHECK_INT(results_load(&back, path, &cut), 0);
	CHECK_INT(back.header.gpu_kernels, 3);
	CHECK_NEAR(back.header.gpu_kernel_ms, 10.0, 1e-12);
	CHECK_NEAR(back.header.attention_kernel_ms, 3.0, 1e-12);
	CHECK_NEAR(back.header.amdahl_2x, 1 / 0.85, 1e-12);
	results_release(&back);
	CHECK_INT(results_save(&b, path), 0);
	results_init(&back);
	b.header.gpu_kernels = 0, b.header.gpu_kernel_ms = 0;
	CHECK_INT(results_save(&b, path), 0);
	CHECK_INT(results_load(&back, path, &cut), 0);
	CHECK_INT(back.header.gpu_kernels, 0);
	CHECK_NEAR(back.header.attention_share, 0, 0);
	results_release(&back);
	unlink(path);
	results_release(&a);
	results_release(&b);
}

static void test_parts_add_up(void)
{
	/* record's merge of two processes' parts sums their tallies */
	char dir[] = "/tmp/attnprof-wl-partsXXXXXX", p1[200], p2[200];
	CHECK(mkdtemp(dir) != NULL);
	snprintf(p1, sizeof p1, "%s/part-11.yaml", dir);
	snprintf(p2, sizeof p2, "%s/part-12.yaml", dir);
	struct results a;
	results_init(&a);
	workload_add(&a.header, 1e6, 1);
	CHECK_INT(results_save(&a, p1), 0);
	workload_add(&a.header, 4e6, 0);
	CHECK_INT(results_save(&a, p2), 0);
	results_release(&a);
	struct results out;
	struct merge_summary sum;
	results_init(&out);
	CHECK_INT(merge_parts(dir, &out, &sum), 0);
	CHECK_INT(sum.parts, 2);
	CHECK_INT(out.header.gpu_kernels, 3);
	CHECK_INT(out.header.attention_kernels, 2);
	CHECK_NEAR(out.header.gpu_kernel_ms, 6.0, 1e-12);
	CHECK_NEAR(workload_share(&out.header), 2.0 / 6.0, 1e-12);
	results_release(&out);
	unlink(p1), unlink(p2);
	rmdir(dir);
}

TESTS(test_amdahl, test_tally_merge_settle, test_parts_add_up)
