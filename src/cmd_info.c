/* cmd_info.c: 'attnprof info' — the GPU, driver, CUDA and CUPTI versions,
 * and whether hardware counters are readable (and how to enable them). */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "metric_sets.h"
#include "util/error.h"
#if ATTNPROF_HAVE_CUDA
#include "gpu/harness.h"
#endif

static void usage(FILE *f)
{
	fprintf(f,
		"usage: attnprof info [--quiet]\n"
		"       attnprof info --metrics SET\n"
		"\n"
		"Show the GPU (name, SMs, memory, L2, clocks), driver, CUDA runtime and\n"
		"CUPTI versions, and whether hardware counters can be read.\n"
		"\n"
		"  --quiet         print nothing; the exit status says it all\n"
		"  --metrics SET   list the CUPTI metric names of a built-in set, one per line,\n"
		"                  after a '#' line saying what the set measures; needs no GPU\n"
		"\n"
		"exit status: 0 GPU present and counters readable; 3 no GPU, GPU half\n"
		"not built, or counters not readable (the output says how to enable them).\n"
		"\n"
		"Counters are restricted to administrators when the NVIDIA driver has\n"
		"RmProfilingAdminOnly=1 (see /proc/driver/nvidia/params).  Run as root,\n"
		"or load the driver with NVreg_RestrictProfilingToAdminUsers=0 (e.g. in\n"
		"/etc/modprobe.d/nvidia-profiling.conf) and reload it.\n");
}

/* 'info --metrics SET': the set's names, for scripts (tools/ncu-*.sh give
 * them to Nsight Compute) and for readers. */
static int list_metric_set(const char *name)
{
	const struct metric_set *ms = metric_set_find(name);
	if (!ms)
		return error("unknown metric set '%s' for --metrics: use one of %s", name, metric_set_names()),
		       EXIT_BAD_INPUT;
	printf("# %s: %zu metric%s: %s\n", ms->name, ms->nmetrics, ms->nmetrics == 1 ? "" : "s", ms->about);
	for (size_t i = 0; i < ms->nmetrics; i++)
		printf("%s\n", ms->metrics[i]);
	return EXIT_OK;
}

int cmd_info(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "quiet", no_argument, NULL, 'q' },
		{ "metrics", required_argument, NULL, 'm' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int quiet = 0, c;
	const char *set = NULL;
	optind = 1;
	while ((c = getopt_long(argc, argv, "qh", opts, NULL)) != -1) {
		switch (c) {
		case 'q': quiet = 1; break;
		case 'm': set = optarg; break;
		case 'h': usage(stdout); return EXIT_OK;
		default: usage(stderr); return EXIT_BAD_INPUT;
		}
	}
	if (optind != argc) {
		error("info takes no arguments");
		return EXIT_BAD_INPUT;
	}
	if (set)
		return list_metric_set(set);
	if (!quiet)
		printf("attnprof: %s (GPU half: %s, renderer: %s)\n", ATTNPROF_VERSION,
		       ATTNPROF_HAVE_CUDA ? "yes" : "no", ATTNPROF_HAVE_RENDER ? "yes" : "no");
#if ATTNPROF_HAVE_CUDA
	return harness_info(quiet);
#else
	if (quiet)
		return EXIT_NO_GPU;
	return built_without_gpu("info");
#endif
}
