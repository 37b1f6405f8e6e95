/* cmd_record.c: 'attnprof record SPEC' — run a sweep on the GPU and write
 * a results file (src/gpu/harness.c does the work). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "commands.h"
#include "metric_sets.h"
#include "spec.h"
#include "util/error.h"
#if ATTNPROF_HAVE_CUDA
#include "gpu/harness.h"
#endif

static void usage(FILE *f)
{
	fprintf(f,
		"usage: attnprof record SPEC [-o RESULTS] [--resume | --force] [--metrics SET]\n"
		"                       [--replay MODE] [--profile-batch N] [--reps N] [--warmup N]\n"
		"                       [--copy-probe GIB] [--progress]\n"
		"\n"
		"Run every config of an experiment spec on the GPU: check O against an\n"
		"fp64 CPU reference on fresh seeded inputs, time it with CUDA events,\n"
		"capture per-kernel hardware counters with CUPTI, add the model's\n"
		"predictions, and append one record per config to the results file.\n"
		"The file is rewritten atomically after every record: an interrupted\n"
		"sweep keeps what it finished, and --resume skips it next time.\n"
		"\n"
		"  -o, --output FILE   results file (default experiments/results/<spec name>.yaml,\n"
		"                      or ./<spec name>.yaml when that folder does not exist)\n"
		"      --resume        keep the records already in FILE and run only the rest\n"
		"      --force         overwrite FILE\n"
		"      --metrics SET   override the spec's metric set: none, memory, default, full\n"
		"      --replay MODE   how counter passes are taken (override the spec's replay):\n"
		"                      auto (default): user replay with the L2 flushed before each\n"
		"                      kernel, as Nsight Compute does; kernel replay for a variant\n"
		"                      that writes its inputs.  kernel: CUPTI replays each kernel\n"
		"                      and restores memory (slower; DRAM writes include dirty L2\n"
		"                      lines).  user: user replay for every variant\n"
		"      --profile-batch N  profile up to N configs (1-8, default 8) in one CUPTI call;\n"
		"                      each config is timed before, alone (docs/metrics.md)\n"
		"      --reps N        override the spec's repetitions\n"
		"      --warmup N      override the spec's warm-up launches\n"
		"      --copy-probe G  measure device-to-device copy bandwidth with G GiB (default 2; 0 = skip)\n"
		"      --progress      a line per config on stderr even when it is not a terminal\n"
		"\n"
		"variants:\n");
	for (size_t i = 0; i < variant_count; i++)
		fprintf(f, "  %-26s %s\n", variant_table[i]->name, variant_table[i]->summary);
	fprintf(f,
		"\n"
		"exit status: 0 all configs ran and were correct; 1 a run failed or was wrong\n"
		"(recorded as such); 2 bad spec or options; 3 no GPU, or counters unavailable\n"
		"(timing and correctness still recorded).\n");
}

static char *join_args(int argc, char **argv)
{
	size_t len = 16;
	for (int i = 0; i < argc; i++)
		len += strlen(argv[i]) + 1;
	char *s = malloc(len);
	if (!s)
		return NULL;
	strcpy(s, "attnprof");
	for (int i = 0; i < argc; i++) {
		strcat(s, " ");
		strcat(s, argv[i]);
	}
	return s;
}

int cmd_record(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "resume", no_argument, NULL, 'r' },
		{ "force", no_argument, NULL, 'f' },
		{ "metrics", required_argument, NULL, 'm' },
		{ "replay", required_argument, NULL, 'R' },
		{ "profile-batch", required_argument, NULL, 'b' },
		{ "reps", required_argument, NULL, 'n' },
		{ "warmup", required_argument, NULL, 'w' },
		{ "copy-probe", required_argument, NULL, 'c' },
		{ "progress", no_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *out = NULL, *metrics = NULL, *replay = NULL;
	int resume = 0, force = 0, reps = 0, warmup = -1, progress = 0, batch = 0, c;
	double probe = 2.0;
	char *end;
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'o': out = optarg; break;
		case 'r': resume = 1; break;
		case 'f': force = 1; break;
		case 'm': metrics = optarg; break;
		case 'R': replay = optarg; break;
		case 'p': progress = 1; break;
		case 'n':
			reps = (int)strtol(optarg, &end, 10);
			if (*end || reps < 1 || reps > 100000) {
				error("--reps '%s' must be a whole number from 1 to 100000", optarg);
				return EXIT_BAD_INPUT;
			}
			break;
		case 'b':
			batch = (int)strtol(optarg, &end, 10);
			if (*end || batch < 1 || batch > 8) {
				error("--profile-batch '%s' must be a whole number from 1 to 8", optarg);
				return EXIT_BAD_INPUT;
			}
			break;
		case 'w':
			warmup = (int)strtol(optarg, &end, 10);
			if (*end || warmup < 0 || warmup > 10000) {
				error("--warmup '%s' must be a whole number from 0 to 10000", optarg);
				return EXIT_BAD_INPUT;
			}
			break;
		case 'c':
			probe = strtod(optarg, &end);
			if (*end || probe < 0 || probe > 64) {
				error("--copy-probe '%s' must be a number of GiB from 0 to 64", optarg);
				return EXIT_BAD_INPUT;
			}
			break;
		case 'h': usage(stdout); return EXIT_OK;
		default: usage(stderr); return EXIT_BAD_INPUT;
		}
	}
	if (resume && force) {
		error("--resume and --force contradict each other: keep the records, or overwrite them");
		return EXIT_BAD_INPUT;
	}
	struct spec s;
	if (command_load_spec(argc, argv, optind, "record", &s))
		return EXIT_BAD_INPUT;
	if (replay && replay_mode_parse(replay, &s.replay)) {
		error("--replay '%s' must be auto, kernel or user", replay);
		spec_release(&s);
		return EXIT_BAD_INPUT;
	}
	if (reps)
		s.repetitions = reps;
	if (warmup >= 0)
		s.warmup = warmup;
	if (metrics) {
		const struct metric_set *ms = metric_set_find(metrics);
		if (!ms) {
			error("unknown metric set '%s' for --metrics: use none, memory, default or full", metrics);
			spec_release(&s);
			return EXIT_BAD_INPUT;
		}
		if (spec_use_metric_set(&s, ms)) {
			spec_release(&s);
			return EXIT_FAILURE_RUN;
		}
	}
	/* an override: the replay mode against the variants and the metric set,
	 * both final now (the spec's own pair was checked when it was loaded) */
	if ((replay || metrics) && spec_check_replay(&s, replay ? "--replay" : "--metrics")) {
		spec_release(&s);
		return EXIT_BAD_INPUT;
	}
#if ATTNPROF_HAVE_CUDA
	char def[512];
	struct stat st;
	if (!out) {
		if (!stat("experiments/results", &st) && S_ISDIR(st.st_mode))
			snprintf(def, sizeof(def), "experiments/results/%s.yaml", s.name);
		else
			snprintf(def, sizeof(def), "%s.yaml", s.name);
		out = def;
	}
	char *cmdline = join_args(argc, argv);
	struct harness_opts o = {
		.out_path = out, .command_line = cmdline, .resume = resume, .force = force,
		.progress = progress, .copy_bytes_gib = probe, .profile_batch = batch,
	};
	int rc = harness_record(&s, &o);
	free(cmdline);
	spec_release(&s);
	return rc;
#else
	(void)out; (void)progress; (void)probe; (void)batch; (void)join_args;
	spec_release(&s);
	return built_without_gpu("record");
#endif
}
