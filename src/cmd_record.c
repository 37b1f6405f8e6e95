/* cmd_record.c: 'attnprof record SPEC' — run a sweep on the GPU and write
 * a results file (src/gpu/harness.c does the work). */
#include <errno.h>
#include <getopt.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capture/family.h"
#include "capture/range_name.h"
#include "commands.h"
#include "metric_sets.h"
#include "spec.h"
#include "util/error.h"
#if ATTNPROF_HAVE_CUDA
#include "gpu/harness.h"
#include "gpu/program.h"
#endif

static void usage(FILE *f)
{
	fprintf(f,
		"usage: attnprof record SPEC [-o RESULTS] [--resume | --force] [--metrics SET]\n"
		"                       [--replay MODE] [--profile-batch N] [--reps N] [--warmup N]\n"
		"                       [--copy-probe GIB] [--settle MS] [--progress]\n"
		"       attnprof record [OPTIONS] -o RESULTS -- CMD [ARGS...]\n"
		"       attnprof record --parse-range NAME\n"
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
		"      --settle MS     before timing a config, run it untimed until its SM clock is\n"
		"                      near the maximum or stops rising, at most MS ms (default 2000;\n"
		"                      0 = no): a power-hungry config before it leaves the clock low\n"
		"                      (docs/metrics.md)\n"
		"      --progress      a line per config on stderr even when it is not a terminal\n"
		"\n"
		"With '-- CMD', run an unmodified program instead and profile only its\n"
		"attention calls (NVTX ranges named 'attnprof: impl=... B= H= Nq= Nkv= d= ...';\n"
		"Python programs using torch SDPA or transformers are marked for you, and\n"
		"each forward call is checked against fp64 on sampled rows): their kernels,\n"
		"counters, time, memory and whether S and P were stored (docs/capture.md).\n"
		"Everything else in the program runs unprofiled.\n"
		"\n"
		"  -o, --output FILE   results file (required with CMD)\n"
		"      --force         overwrite FILE\n"
		"      --metrics SET   none, memory, capture (default), default or full; kernel\n"
		"                      replay: the program runs once, CUPTI replays each kernel\n"
		"      --nvtx-include PATTERN  profile only attention ranges whose name matches\n"
		"                      this shell pattern (default 'attnprof:*')\n"
		"      --kernel-regex RE  keep only kernels whose name matches RE (extended regex)\n"
		"      --shape SHAPE   with --kernel-regex, for programs without attention ranges:\n"
		"                      every launch of a matching kernel outside a range is one\n"
		"                      call of this shape, e.g. 'impl=mykernel B=4 H=16 Nq=4096\n"
		"                      Nkv=4096 d=128 causal=0 dtype=fp16 pass=fwd'\n"
		"      --timeout S     stop the program after S seconds (SIGTERM, SIGKILL 5 s later),\n"
		"                      keeping the calls it captured (a hung program loses at most\n"
		"                      its last second)\n"
		"      --cache-control all|none  all (default): flush the L2 before each marked\n"
		"                      call's first kernel, so its DRAM writes are its own (Nsight\n"
		"                      Compute flushes before every kernel); none: leave the\n"
		"                      program's L2 as it is\n"
		"      --window on|off off (default): start and stop the profiler around each\n"
		"                      call (about 30 ms a call), which counts each call alone;\n"
		"                      on (one-pass sets): one profiling window across calls, a\n"
		"                      counter range per kernel, almost no added time, but some\n"
		"                      calls' writes read high (docs/capture.md)\n"
		"      --replay kernel|application  a set of several passes: kernel (default):\n"
		"                      CUPTI replays each kernel of a call, restoring memory;\n"
		"                      application: the program runs once per one-pass group of\n"
		"                      the metrics, which must repeat its calls and kernels\n"
		"      --skip-calls N  leave the first N attention calls unprofiled\n"
		"      --max-calls N   profile at most N calls (default: all)\n"
		"      --no-check      no fp64 check of the calls (Python helper)\n"
		"      --no-time       no unprofiled re-timing of the calls (Python helper)\n"
		"      --keep-parts    keep each process's capture file beside FILE\n"
		"      --families FILE more kernel-name rules for implementation families, tried\n"
		"                      before the built-in ones (docs/capture.md)\n"
		"      --parse-range NAME  say how an attention range's name reads, and stop\n"
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

static int parse_range_cmd(const char *name)
{
	struct call_id id;
	char why[200], back[300];
	int rc = range_parse(name, &id, why, sizeof why);
	if (rc < 0) {
		error("'%s' is not an attention range: its name must start with '" RANGE_PREFIX "'", name);
		return EXIT_BAD_INPUT;
	}
	printf("impl:    %s\n", id.impl);
	if (id.shape_known)
		printf("shape:   B=%d H=%d Hkv=%d Nq=%d Nkv=%d d=%d (%s)\n", id.batch, id.heads, id.kv_heads, id.seqlen_q,
		       id.seqlen_kv, id.head_dim, call_phase(&id));
	else
		printf("shape:   unknown\n");
	printf("causal:  %d\ndtype:   %s\npass:    %s\n", id.causal, id.dtype[0] ? id.dtype : "unknown", id.pass);
	if (id.call >= 0)
		printf("call:    %ld\n", id.call);
	if (id.origin[0])
		printf("origin:  %s\n", id.origin);
	printf("as:      %s\n", range_format(&id, back, sizeof back));
	if (rc > 0) {
		error("the range name breaks the grammar: %s (the call is still captured, with its shape unknown)", why);
		return EXIT_BAD_INPUT;
	}
	return EXIT_OK;
}

/* --shape SHAPE (with --kernel-regex): the calls' range name, checked
 * against the grammar now, before the program runs. */
static int kernel_shape_range(const char *shape, const char *regex, char *buf, size_t len)
{
	if (!*regex) {
		error("--shape needs --kernel-regex RE: the kernels whose launches are calls of that shape");
		return -1;
	}
	regex_t re;
	if (regcomp(&re, regex, REG_EXTENDED | REG_NOSUB)) {
		error("--kernel-regex '%s' is not a valid extended regular expression", regex);
		return -1;
	}
	regfree(&re);
	int n = snprintf(buf, len, RANGE_PREFIX " %s", shape);
	if (n < 0 || (size_t)n >= len) {
		error("--shape '%.40s...' is too long (at most %zu characters)", shape, len - sizeof RANGE_PREFIX - 1);
		return -1;
	}
	struct call_id id;
	char why[200];
	int rc = range_parse(buf, &id, why, sizeof why);
	if (rc > 0 || (rc == 0 && !id.shape_known)) {
		error("--shape '%s': %s; give impl=NAME B= H= Nq= Nkv= d= (and causal=, dtype=, pass=), "
		      "e.g. 'impl=mykernel B=4 H=16 Nq=4096 Nkv=4096 d=128 causal=0 dtype=fp16 pass=fwd'",
		      shape, rc > 0 ? why : "the shape is incomplete");
		return -1;
	}
	return 0;
}

/* The results path, checked before anything runs (a program, a sweep): not
 * a folder, in a folder that exists and can be written. */
static int check_results_path(const char *out)
{
	struct stat st;
	if (!stat(out, &st) && S_ISDIR(st.st_mode))
		return error("cannot write the results to '%s': it is a folder (name a file, e.g. '%s/run.yaml')", out, out);
	char dir[4096];
	snprintf(dir, sizeof dir, "%s", out);
	char *slash = strrchr(dir, '/');
	if (slash)
		*(slash == dir ? slash + 1 : slash) = '\0';
	else
		snprintf(dir, sizeof dir, ".");
	if (stat(dir, &st) || !S_ISDIR(st.st_mode))
		return error("cannot write the results to '%s': the folder '%s' does not exist", out, dir);
	if (access(dir, W_OK))
		return error("cannot write the results to '%s': folder '%s': %s", out, dir, strerror(errno));
	return 0;
}

static int parse_count(const char *opt, const char *arg, long *out)
{
	char *end;
	errno = 0;
	long x = strtol(arg, &end, 10);
	if (*end || errno || x < 0 || x > 1000000000L) {
		error("%s '%s' must be a whole number from 0 to 1000000000", opt, arg);
		return -1;
	}
	*out = x;
	return 0;
}

/* record [OPTIONS] -o FILE -- CMD [ARGS...]: argv[0..argc) are record's
 * options, cmd[0..ncmd) the program. */
/* An option that takes one of two words: *first = 1 for the first, 0 for
 * the second; -1 via error() naming both and what they mean. */
static int parse_choice(const char *opt, const char *arg, const char *a, const char *a_means, const char *b,
			const char *b_means, int *first)
{
	if (!strcmp(arg, a) || !strcmp(arg, b)) {
		*first = !strcmp(arg, a);
		return 0;
	}
	return error("%s '%s': use %s (%s) or %s (%s)", opt, arg, a, a_means, b, b_means);
}

static int record_program(int argc, char **argv, int ncmd, char **cmd)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "force", no_argument, NULL, 'f' },
		{ "metrics", required_argument, NULL, 'm' },
		{ "nvtx-include", required_argument, NULL, 'I' },
		{ "kernel-regex", required_argument, NULL, 'k' },
		{ "shape", required_argument, NULL, 'S' },
		{ "timeout", required_argument, NULL, 't' },
		{ "cache-control", required_argument, NULL, 'c' },
		{ "window", required_argument, NULL, 'w' },
		{ "replay", required_argument, NULL, 'r' },
		{ "skip-calls", required_argument, NULL, 's' },
		{ "max-calls", required_argument, NULL, 'x' },
		{ "no-check", no_argument, NULL, 'C' },
		{ "no-time", no_argument, NULL, 'T' },
		{ "keep-parts", no_argument, NULL, 'K' },
		{ "families", required_argument, NULL, 'F' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *out = NULL, *metrics = "capture", *include = RANGE_PREFIX "*", *regex = "", *shape = NULL;
	long skip = 0, most = -1, timeout = 0;
	int force = 0, check = 1, retime = 1, keep = 0, flush = 1, window = 0, app_replay = 0, c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'o': out = optarg; break;
		case 'f': force = 1; break;
		case 'm': metrics = optarg; break;
		case 'I': include = optarg; break;
		case 'k': regex = optarg; break;
		case 'S': shape = optarg; break;
		case 't':
			if (parse_count("--timeout", optarg, &timeout))
				return EXIT_BAD_INPUT;
			if (timeout == 0) {
				error("--timeout 0 would stop the program at once: give the seconds it may run (omit --timeout for no limit)");
				return EXIT_BAD_INPUT;
			}
			break;
		case 'r':
			if (parse_choice("--replay", optarg, "kernel", "CUPTI replays each kernel of a call", "application",
					 "the program runs once per one-pass group of the metrics", &app_replay))
				return EXIT_BAD_INPUT;
			app_replay = !app_replay;
			break;
		case 'w':
			if (parse_choice("--window", optarg, "on", "one profiling window across calls", "off",
					 "each call on its own", &window))
				return EXIT_BAD_INPUT;
			break;
		case 'c':
			if (parse_choice("--cache-control", optarg, "all", "flush the L2 at each call's start", "none",
					 "leave the program's L2 as it is", &flush))
				return EXIT_BAD_INPUT;
			break;
		case 's': if (parse_count("--skip-calls", optarg, &skip)) return EXIT_BAD_INPUT; break;
		case 'x': if (parse_count("--max-calls", optarg, &most)) return EXIT_BAD_INPUT; break;
		case 'C': check = 0; break;
		case 'T': retime = 0; break;
		case 'K': keep = 1; break;
		case 'F':
			/* checked now, before the program runs; applied when the parts are merged */
			if (family_load(optarg))
				return EXIT_BAD_INPUT;
			break;
		case 'h': usage(stdout); return EXIT_OK;
		default:
			note("with '-- CMD', record takes -o, --force, --metrics, --nvtx-include, --kernel-regex, --shape, --timeout, --cache-control, --window, --replay, "
			     "--skip-calls, --max-calls, --families, --no-check, --no-time and --keep-parts");
			return EXIT_BAD_INPUT;
		}
	}
	if (optind < argc) {
		error("'%s' before '--': with a program to run, record takes no spec (did you mean 'record %s' without '-- CMD'?)",
		      argv[optind], argv[optind]);
		return EXIT_BAD_INPUT;
	}
	if (ncmd < 1) {
		error("nothing to run after '--': give the program and its arguments, e.g. 'attnprof record -o run.yaml -- python3 train.py'");
		return EXIT_BAD_INPUT;
	}
	if (!out) {
		error("record -- CMD needs -o FILE: where to write the results");
		return EXIT_BAD_INPUT;
	}
	const struct metric_set *ms = metric_set_find(metrics);
	if (!ms) {
		error("unknown metric set '%s' for --metrics: use none, memory, capture, default or full", metrics);
		return EXIT_BAD_INPUT;
	}
	char shape_range[512] = "";
	if (shape && kernel_shape_range(shape, regex, shape_range, sizeof shape_range))
		return EXIT_BAD_INPUT;
	/* every option checked before the program starts: the library would
	 * ignore a pattern that does not compile, and a folder as -o failed at save */
	regex_t re;
	if (*regex) {
		if (regcomp(&re, regex, REG_EXTENDED | REG_NOSUB)) {
			error("--kernel-regex '%s' is not a valid extended regular expression (POSIX ERE)", regex);
			return EXIT_BAD_INPUT;
		}
		regfree(&re);
	}
	if (check_results_path(out))
		return EXIT_BAD_INPUT;
	size_t len = 1;
	for (size_t i = 0; i < ms->nmetrics; i++)
		len += strlen(ms->metrics[i]) + 1;
	char *list = calloc(1, len);
	if (!list)
		return error("out of memory"), EXIT_FAILURE_RUN;
	for (size_t i = 0; i < ms->nmetrics; i++) {
		if (i)
			strcat(list, ",");
		strcat(list, ms->metrics[i]);
	}
#if ATTNPROF_HAVE_CUDA
	struct program_opts o = {
		.out_path = out, .force = force, .argc = ncmd, .argv = cmd, .record_argc = argc - 1,
		.record_argv = argv + 1, .metrics = list, .metric_set = ms->name, .nvtx_include = include,
		.kernel_regex = regex, .kernel_shape = shape_range, .skip_calls = skip, .max_calls = most, .check = check,
		.retime = retime, .keep_parts = keep, .timeout_s = timeout, .flush_l2 = flush, .window = window, .app_replay = app_replay,
	};
	int rc = program_record(&o);
	free(list);
	return rc;
#else
	(void)cmd; (void)force; (void)include; (void)regex; (void)shape_range; (void)skip; (void)most; (void)check; (void)retime; (void)keep; (void)timeout; (void)flush; (void)window; (void)app_replay;
	free(list);
	return built_without_gpu("record -- CMD");
#endif
}

int cmd_record(int argc, char **argv)
{
	/* 'record [OPTIONS] -- CMD ...': a program to capture */
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--"))
			return record_program(i, argv, argc - i - 1, argv + i + 1);
	if (argc == 3 && !strcmp(argv[1], "--parse-range"))
		return parse_range_cmd(argv[2]);

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
		{ "settle", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *out = NULL, *metrics = NULL, *replay = NULL;
	int resume = 0, force = 0, reps = 0, warmup = -1, progress = 0, batch = 0, c;
	double probe = 2.0, settle = 2000;
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
		case 's':
			settle = strtod(optarg, &end);
			if (*end || end == optarg || !(settle >= 0 && settle <= 60000)) {
				error("--settle '%s' must be a number of milliseconds from 0 to 60000", optarg);
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
	if (check_results_path(out)) {
		spec_release(&s);
		return EXIT_BAD_INPUT;
	}
	char *cmdline = join_args(argc, argv);
	struct harness_opts o = {
		.out_path = out, .command_line = cmdline, .resume = resume, .force = force,
		.progress = progress, .copy_bytes_gib = probe, .profile_batch = batch,
		.settle_ms = settle,
	};
	int rc = harness_record(&s, &o);
	free(cmdline);
	spec_release(&s);
	return rc;
#else
	(void)out; (void)progress; (void)probe; (void)batch; (void)settle; (void)join_args;
	spec_release(&s);
	return built_without_gpu("record");
#endif
}
