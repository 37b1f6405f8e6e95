/* Attention's share of a program's GPU time and the Amdahl bound of a
 * faster attention (capture/workload.h), through a results file. */
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "util/error.h"
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


static const int G[3] = { 128, 2, 1 }, B[3] = { 256, 1, 1 };

/* the kept list: names once each, streams by (pid, id), the first
 * per_stream kernels of a stream and most in all, the rest counted dropped */
static void test_keep_bounds(void)
{
	struct results_header h = { 0 };
	h.workload.per_stream = 2, h.workload.most = 3;
	CHECK_INT(workload_keep(&h, 11, 7, "gemm", 1000, 3000, G, B, 0), 0);
	CHECK_INT(workload_keep(&h, 11, 7, "flash_fwd", 3000, 4000, G, B, 1), 0);
	CHECK_INT(workload_keep(&h, 11, 7, "gemm", 5000, 6000, G, B, 0), 0); /* third on stream 7: dropped */
	CHECK_INT(workload_keep(&h, 11, 9, "gemm", 1500, 2500, G, B, 0), 0);
	CHECK_INT(workload_keep(&h, 12, 7, "softmax", 100, 200, G, B, 0), 0); /* fourth in all: dropped */
	CHECK_INT(h.gpu_kernels, 5);               /* every kernel counted, kept or not */
	CHECK_INT(h.attention_kernels, 1);
	CHECK_NEAR(h.gpu_kernel_ms, (2000 + 1000 + 1000 + 1000 + 100) * 1e-6, 1e-12);
	CHECK_INT(h.workload.n, 3);
	CHECK_INT(h.workload.dropped, 2);
	CHECK_INT(h.workload.n + h.workload.dropped, h.gpu_kernels);
	CHECK_INT(h.workload.nnames, 2);           /* gemm, flash_fwd: softmax was never kept */
	CHECK_STR(h.workload.names[h.workload.k[2].name], "gemm");
	CHECK_INT(h.workload.k[0].name, h.workload.k[2].name);
	CHECK_INT(h.workload.nstreams, 3);         /* (11, 7), (11, 9), (12, 7): a stream id is its process's */
	CHECK_INT(h.workload.streams[h.workload.k[2].stream].id, 9);
	CHECK_INT(h.workload.streams[0].kept, 2);
	CHECK_INT(h.workload.streams[2].kept, 0);
	CHECK_INT(h.workload.k[1].attention, 1);
	CHECK_INT(h.workload.k[1].dur_ns, 1000);
	CHECK_INT(h.workload.k[0].grid[1], 2);
	workload_list_release(&h.workload);

	/* the default bounds; many names (the name index rebuilt as it grows) */
	struct results_header m = { 0 };
	char name[32];
	for (int i = 0; i < 300; i++) {
		snprintf(name, sizeof name, "kernel_%d", i % 150);
		CHECK_INT(workload_keep(&m, 5, (uint32_t)(i % 3), name, (uint64_t)i * 10, (uint64_t)i * 10 + 5, G, B, 0), 0);
	}
	CHECK_INT(m.workload.per_stream, WORKLOAD_PER_STREAM);
	CHECK_INT(m.workload.most, WORKLOAD_MOST);
	CHECK_INT(m.workload.n, 300);
	CHECK_INT(m.workload.nnames, 150);
	CHECK_STR(m.workload.names[m.workload.k[299].name], "kernel_149");
	CHECK_INT(m.workload.k[299].name, m.workload.k[149].name);
	struct workload_list copy = { 0 };
	CHECK_INT(workload_list_copy(&copy, &m.workload), 0);
	CHECK_INT(copy.n, 300);
	CHECK_INT(copy.nnames, 150);
	CHECK_STR(copy.names[copy.k[151].name], "kernel_1");
	CHECK_INT(copy.k[151].start_ns, 1510);
	workload_list_release(&copy);
	workload_list_release(&m.workload);
}

/* through a results file: one line a kernel, starts from t0_ns, read back exactly */
static void test_list_file(void)
{
	struct results a;
	results_init(&a);
	const uint64_t t0 = 1765100000123456789ull; /* a GPU timestamp, near 2^60 */
	CHECK_INT(workload_keep(&a.header, 4242, 13, "void gemm<float>(int)", t0 + 500, t0 + 2500, G, B, 0), 0);
	CHECK_INT(workload_keep(&a.header, 4242, 7, "flash_fwd", t0, t0 + 400, G, B, 1), 0);
	a.header.workload.dropped = 1, a.header.gpu_kernels++; /* one more counted, not kept */
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	CHECK_INT(results_write(&a, f), 0);
	fclose(f);
	CHECK_CONTAINS(text, "\n  workload:\n    per_stream: 65536\n    most: 262144\n    dropped: 1\n"
			     "    t0_ns: 1765100000123456789\n");
	CHECK_CONTAINS(text, "    kernels:\n    - 0 0 500 2000 128 2 1 256 1 1 0\n    - 1 1 0 400 128 2 1 256 1 1 1\n");
	CHECK_CONTAINS(text, "    streams: [[4242, 13], [4242, 7]]\n");
	struct results back;
	results_init(&back);
	CHECK_INT(results_parse(&back, text, len, "mem.yaml", NULL), 0);
	const struct workload_list *w = &back.header.workload;
	CHECK_INT(w->n, 2);
	CHECK_INT(w->dropped, 1);
	CHECK_STR(w->names[w->k[0].name], "void gemm<float>(int)");
	CHECK(w->k[0].start_ns == t0 + 500 && w->k[1].start_ns == t0);
	CHECK_INT(w->k[0].dur_ns, 2000);
	CHECK_INT(w->streams[w->k[1].stream].pid, 4242);
	CHECK_INT(w->streams[w->k[1].stream].id, 7);
	CHECK_INT(w->k[1].attention, 1);
	CHECK_INT(w->streams[0].kept, 1);
	results_release(&back);
	free(text);

	/* no list, nothing written: files before it, and --workload off, read and write as they were */
	struct results none;
	results_init(&none);
	workload_add(&none.header, 1e6, 0);
	f = open_memstream(&text, &len);
	CHECK_INT(results_write(&none, f), 0);
	fclose(f);
	CHECK(!strstr(text, "workload"));
	results_init(&back);
	CHECK_INT(results_parse(&back, text, len, "mem.yaml", NULL), 0);
	CHECK_INT(back.header.workload.n, 0);
	CHECK_INT(back.header.gpu_kernels, 1);
	results_release(&back);
	free(text);
	results_release(&none);
	results_release(&a);
}

/* a list that cannot be is refused at its place (the line's number's own column) */
static void test_list_refused(void)
{
	static const char head[] =
		"format: attnprof-results/2\n"
		"header:\n"
		"  gpu_kernels: %s\n"
		"  attention_kernels: 1\n"
		"  workload:\n"
		"    per_stream: %s\n"
		"    most: 10\n"
		"    dropped: 0\n"
		"    t0_ns: 1000\n"
		"    columns: %s\n"
		"    names: [gemm]\n"
		"    streams: [[10, 7]]\n"
		"    kernels:\n"
		"    - 0 0 0 100 1 1 1 32 1 1 1\n"
		"    - %s\n"
		"records: []\n"
		"end: {records: 0}\n";
	static const char cols[] = "name stream start_ns dur_ns grid_x grid_y grid_z block_x block_y block_z attention";
	struct {
		const char *kernels, *per_stream, *second, *columns, *want;
	} cases[] = {
		{ "2", "2", "0 0 200 100 1 1 1 32 1 1 0", cols, NULL },
		{ "2", "2", "1 0 200 100 1 1 1 32 1 1 0", cols,
		  "w.yaml:15:7: header.workload.kernels[1].name = 1 is impossible: there is no such entry in header.workload.names" },
		{ "2", "2", "0 3 200 100 1 1 1 32 1 1 0", cols, "w.yaml:15:9: header.workload.kernels[1].stream = 3 is impossible" },
		{ "2", "2", "0 0 200 100 1 1 1 32 1 1 2", cols, "w.yaml:15:32: header.workload.kernels[1].attention = 2 is impossible" },
		{ "2", "2", "0 0 200 100 1 70000 1 32 1 1 0", cols, "w.yaml:15:21: header.workload.kernels[1].grid_y = 70000 is impossible" },
		{ "2", "2", "0 0 200 100 1 1 1 64 64 1 0", cols, "w.yaml:15:7: header.workload.kernels[1] has a block of 4096 threads" },
		{ "2", "2", "0 0 200 -100 1 1 1 32 1 1 0", cols, "w.yaml:15:15: header.workload.kernels[1] has no whole number for dur_ns" },
		{ "2", "2", "0 0 200 100 1 1 1 32 1 1", cols, "w.yaml:15:31: header.workload.kernels[1] has no whole number for attention" },
		{ "2", "2", "0 0 200 100 1 1 1 32 1 1 0 9", cols, "w.yaml:15:34: header.workload.kernels[1] has more than 11 numbers" },
		{ "3", "2", "0 0 200 100 1 1 1 32 1 1 0", cols,
		  "w.yaml:6:5: header.workload keeps 2 kernels and says 0 dropped, but header.gpu_kernels counted 3" },
		{ "2", "1", "0 0 200 100 1 1 1 32 1 1 0", cols, "w.yaml:15:7: header.workload.kernels[1] is kernel 2 of stream 0, past its bound per_stream = 1" },
		{ "2", "2", "0 0 200 100 1 1 1 32 1 1 1", cols, "header.workload keeps 2 kernels of attention calls, more than header.attention_kernels = 1" },
		{ "2", "2", "0 0 200 100 1 1 1 32 1 1 0", "name start_ns", "w.yaml:10:14: header.workload.columns must be" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char text[2048];
		int len = snprintf(text, sizeof text, head, cases[i].kernels, cases[i].per_stream, cases[i].columns,
				   cases[i].second);
		struct results r;
		results_init(&r);
		int q = error_quiet(1);
		int rc = results_parse(&r, text, (size_t)len, "w.yaml", NULL);
		error_quiet(q);
		if (!cases[i].want)
			CHECK_INT(rc, 0);
		else {
			CHECK_INT(rc, -1);
			CHECK_CONTAINS(error_last(), cases[i].want);
		}
		results_release(&r);
	}
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
	CHECK_INT(workload_keep(&a.header, 11, 7, "flash_fwd", 1000, 1001000, G, B, 1), 0);
	CHECK_INT(results_save(&a, p1), 0);
	CHECK_INT(workload_keep(&a.header, 12, 7, "gemm", 500, 4000500, G, B, 0), 0);
	CHECK_INT(results_save(&a, p2), 0); /* process 12's part: its kernel and the one before */
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
	/* the kept kernels of both parts, each on its process's stream */
	const struct workload_list *w = &out.header.workload;
	CHECK_INT(w->n, 3);
	CHECK_INT(w->n + w->dropped, out.header.gpu_kernels);
	CHECK_INT(w->nstreams, 2);
	CHECK_INT(w->nnames, 2);
	CHECK_INT(w->streams[w->k[2].stream].pid, 12);
	CHECK_STR(w->names[w->k[2].name], "gemm");
	CHECK_INT(w->k[2].start_ns, 500);
	results_release(&out);
	unlink(p1), unlink(p2);
	rmdir(dir);
}

TESTS(test_amdahl, test_tally_merge_settle, test_keep_bounds, test_list_file, test_list_refused, test_parts_add_up)
