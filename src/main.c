/* main.c: the command table and the program's entry point.
 *
 * attnprof records what attention kernels do on a GPU (record) and turns the
 * records into documents (report, figure).  Every subcommand has its own
 * file; this one only dispatches.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "util/error.h"

struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
};

static const struct command commands[] = {
	{ "record", cmd_record, "run a spec's sweep on the GPU and write a results file" },
	{ "report", cmd_report, "render a document (review, patent, slides) from results" },
	{ "figure", cmd_figure, "render one figure from results as SVG, PNG or PDF" },
	{ "check",  cmd_check,  "validate a spec and print its sweep with predicted device memory" },
	{ "info",   cmd_info,   "show the GPU, driver, CUDA and CUPTI, and whether counters are readable" },
	{ "export", cmd_export, "flatten results to CSV or JSON for spreadsheets and pandas" },
	{ "model",  cmd_model,  "print the analytic model's predictions for a spec (no GPU)" },
	{ "merge",  cmd_merge,  "join the shards of a sweep (record --shard K/N) into one results file" },
	{ "diff",   cmd_diff,   "compare two results files: time base -> new per config, beyond the spread" },
	{ "lint",   cmd_lint,   "check rendered documents: collisions, type sizes, margins, empty figures" },
};
#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static void usage(FILE *f)
{
	fprintf(f,
		"usage: attnprof <command> [options]\n"
		"\n"
		"Profile attention implementations on NVIDIA GPUs and turn the\n"
		"measurements into review reports, patent figure sheets and slides.\n"
		"\n"
		"commands:\n");
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].summary);
	fprintf(f,
		"\n"
		"'attnprof <command> --help' describes a command.\n"
		"\n"
		"exit status: 0 success, 1 runtime failure, 2 bad input or usage,\n"
		"3 no GPU / GPU half not built / hardware counters unavailable.\n"
		"\n"
		"built with: GPU half %s, renderer %s\n",
		ATTNPROF_HAVE_CUDA ? "yes" : "no (make CUDA=1)",
		ATTNPROF_HAVE_RENDER ? "yes" : "no (make RENDER=1)");
}

/* What a command printed reached its destination: 'check > /dev/full'
 * fails instead of exiting 0 with the table lost. */
static int stdout_flushed(int rc)
{
	if ((fflush(stdout) || ferror(stdout)) && rc == EXIT_OK) {
		error("cannot write to standard output: %s", strerror(errno ? errno : EIO));
		return EXIT_FAILURE_RUN;
	}
	return rc;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return EXIT_BAD_INPUT;
	}
	const char *cmd = argv[1];
	if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
		if (argc > 2 && strcmp(cmd, "help") == 0) {
			char *sub[] = { argv[2], (char *)"--help", NULL };
			for (size_t i = 0; i < NCOMMANDS; i++)
				if (!strcmp(commands[i].name, argv[2]))
					return commands[i].run(2, sub);
		}
		usage(stdout);
		return EXIT_OK;
	}
	if (!strcmp(cmd, "--version") || !strcmp(cmd, "-V")) {
		printf("attnprof %s (GPU half: %s, renderer: %s)\n", ATTNPROF_VERSION,
		       ATTNPROF_HAVE_CUDA ? "yes" : "no", ATTNPROF_HAVE_RENDER ? "yes" : "no");
		return EXIT_OK;
	}
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (!strcmp(commands[i].name, cmd))
			return stdout_flushed(commands[i].run(argc - 1, argv + 1));

	const char *names[NCOMMANDS];
	for (size_t i = 0; i < NCOMMANDS; i++)
		names[i] = commands[i].name;
	extern const char *nearest_word(const char *, const char *const *, size_t);
	const char *near = nearest_word(cmd, names, NCOMMANDS);
	if (near)
		error("unknown command '%s': did you mean '%s'?", cmd, near);
	else
		error("unknown command '%s': see 'attnprof --help'", cmd);
	return EXIT_BAD_INPUT;
}
