/* cmd_merge.c: 'attnprof merge A.yaml B.yaml ... -o ALL.yaml' — join the
 * shards of a sweep (record --shard K/N, one a GPU or a Slurm task) into
 * one results file; src/results_merge.c does the work. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "commands.h"
#include "results_merge.h"
#include "util/error.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: attnprof merge RESULTS... -o OUT.yaml [--primary FILE] [--allow-mixed] [--allow-partial] [--progress | --quiet]\n"
		"\n"
		"Join results files, typically the shards of one sweep ('record SPEC --shard K/N'),\n"
		"into one.  Every record is kept whole, with its own timing, clocks, counters\n"
		"and correctness; the merged file holds them in the sweep's order, so the\n"
		"order of the files on the command line does not change its bytes, and it\n"
		"renders as a single run of the same records would.\n"
		"\n"
		"Two records of one identity (source, variant, phase, pass, dtype, B, H, Hkv,\n"
		"Nq, Nkv, d, causal): the newer wins — by the recording date of its file's\n"
		"header, equal dates by the file named later in sorted path order — or the\n"
		"one from --primary FILE.  Each superseded record is named on stderr.  A\n"
		"shard that lacks configs of its part (an interrupted run) and a part that\n"
		"no file holds are named with what is missing.\n"
		"\n"
		"  -o, --output FILE  the merged results file (written atomically; not one of the inputs)\n"
		"      --primary FILE its records win every duplicate (FILE is one of the inputs)\n"
		"      --allow-mixed  merge files of different specs, GPUs, drivers or attnprof\n"
		"                     versions (refused otherwise); the header is the earliest\n"
		"                     file's and its notes list every file's conditions\n"
		"      --allow-partial merge the complete records of an input cut short (refused\n"
		"                     otherwise); the merged header's notes name the input and the cut\n"
		"      --progress     say each file as it is read on stderr, even when it is not a\n"
		"                     terminal (on a terminal it is said anyway)\n"
		"      --quiet        no step said, not even on a terminal, and no line per\n"
		"                     superseded record (the summary line stays)\n"
		"\n"
		"exit status: 0 merged; 1 the output could not be written; 2 a file is\n"
		"unreadable, or the files differ in spec, GPU, driver or version (the\n"
		"message names both files and the field).\n");
}

static int same_file(const char *a, const char *b)
{
	struct stat sa, sb;
	return !stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

int cmd_merge(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "primary", required_argument, NULL, 'p' },
		{ "allow-mixed", no_argument, NULL, 'm' },
		{ "allow-partial", no_argument, NULL, 'a' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "progress", no_argument, NULL, 'P' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct merge_opts mo = { 0 };
	const char *out = NULL;
	int c, force = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:qh", opts, NULL)) != -1) {
		switch (c) {
		case 'o': out = optarg; break;
		case 'p': mo.primary = optarg; break;
		case 'm': mo.allow_mixed = 1; break;
		case 'a': mo.allow_partial = 1; break;
		case 'q': mo.quiet = 1; break;
		case 'P': force = 1; break;
		case 'h': usage(stdout); return EXIT_OK;
		default: usage(stderr); return EXIT_BAD_INPUT;
		}
	}
	if (optind >= argc) {
		error("merge needs the results files to join, e.g. 'attnprof merge r.shard-*-of-8.yaml -o r.yaml'");
		return EXIT_BAD_INPUT;
	}
	if (!out) {
		error("merge needs -o FILE: where to write the merged results");
		return EXIT_BAD_INPUT;
	}
	for (int i = optind; i < argc; i++)
		if (same_file(out, argv[i]) || !strcmp(out, argv[i])) {
			error("-o '%s' is one of the files to merge: write the merged file elsewhere", out);
			return EXIT_BAD_INPUT;
		}
	struct progress pr;
	progress_init(&pr, force, mo.quiet);
	mo.progress = &pr;
	return results_merge_files((const char *const *)argv + optind, (size_t)(argc - optind), &mo, out);
}
