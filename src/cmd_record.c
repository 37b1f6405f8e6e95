/* cmd_record.c: 'attnprof record SPEC' — run a sweep on the GPU and write
 * a results file (src/gpu/harness.c does the work). */
#include <errno.h>
#include <getopt.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <signal.h>
#include <unistd.h>

#include "capture/family.h"
#include "capture/range_name.h"
#include "commands.h"
#include "metric_sets.h"
#include "results_merge.h"
#include "shard.h"
#include "spec.h"
#include "util/error.h"
#if ATTNPROF_HAVE_CUDA
#include "attn.h"
#include "gpu/harness.h"
#include "capture/program.h"
#endif

static void usage(FILE *f)
{
	fprintf(f,
		"usage: attnprof record SPEC [-o RESULTS] [--resume | --force] [--metrics SET]\n"
		"                       [--replay MODE] [--profile-batch N] [--reps N] [--warmup N]\n"
		"                       [--copy-probe GIB] [--ceilings on|off] [--settle MS] [--progress | --quiet]\n"
		"                       [--shard K/N] [--device I] [--gpus all|LIST [--dry-run]]\n"
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
		"      --metrics SET   override the spec's metric set (attnprof info --metrics SET\n"
		"                      lists one: none, memory, default, workload, stalls, full)\n"
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
		"      --ceilings on|off  measure the roofline's other ceilings: a cuBLAS GEMM, mma.sync,\n"
		"                      L2 and shared-memory bandwidth (default on, about a second)\n"
		"      --settle MS     before timing a config, run it untimed until its SM clock is\n"
		"                      near the maximum or stops rising, at most MS ms (default 2000;\n"
		"                      0 = no): a power-hungry config before it leaves the clock low\n"
		"                      (docs/metrics.md)\n"
		"      --progress      a line per config on stderr even when it is not a terminal\n"
		"                      (on a terminal: one line, rewritten), with the metric set\n"
		"                      and the ceilings measured\n"
		"      --quiet         no progress, not even on a terminal (wins over --progress)\n"
		"      --shard K/N     run only part K of N of the sweep (1 <= K <= N): the parts are\n"
		"                      disjoint, together the whole sweep, balanced by the model's\n"
		"                      predicted time ('attnprof check SPEC --shard K/N' lists one);\n"
		"                      the part is written in the header (merge checks it); default\n"
		"                      FILE <spec name>.shard-K-of-N.yaml; --resume continues a part\n"
		"      --device I      run on CUDA device I (default 0; numbered as CUDA_VISIBLE_DEVICES\n"
		"                      shows them)\n"
		"      --gpus all|LIST one process per GPU, at once: every visible GPU, or the devices\n"
		"                      listed ('0,1,3'); process K runs --shard K/N on its GPU into\n"
		"                      FILE.shard-K-of-N.yaml (FILE less its .yaml), then the parts\n"
		"                      are merged into FILE ('attnprof merge'); other options go to\n"
		"                      every process\n"
		"      --dry-run       with --gpus: print the commands, run nothing\n"
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
		"      --quiet         no line per run of --replay application\n"
		"      --keep-parts    keep each process's capture file beside FILE\n"
		"      --families FILE more kernel-name rules for implementation families, tried\n"
		"                      before the built-in ones (docs/capture.md)\n"
		"      --scan on|off   on (default): a launch of a known attention kernel (the\n"
		"                      family table and --families) outside any range is a call\n"
		"                      of its own, shape unknown, pass by its name -- programs\n"
		"                      with no markup (FlexAttention compiled into a model, JAX);\n"
		"                      off: only marked calls\n"
		"      --graphs on|off on: attention captured into CUDA graphs is followed to\n"
		"                      every replay (one call per call site, its replay count,\n"
		"                      median and spread; no counters); off (default)\n"
		"      --per-replay    with --graphs on: also a record per replay\n"
		"      --workload on|off on: every kernel's time, attention's share of it and\n"
		"                      the bound of a faster attention (header); off (default)\n"
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
		printf("shape:   B=%d H=%d Hkv=%d Nq=%d Nkv=%d d=%d (%s)\n", id.shape.batch, id.shape.heads,
		       id.shape.kv_heads, id.shape.seqlen_q, id.shape.seqlen_kv, id.shape.head_dim,
		       phase_name(id.shape.phase));
	else
		printf("shape:   unknown\n");
	printf("causal:  %d\ndtype:   %s\npass:    %s\n", id.shape.causal, dtype_name(id.shape.dtype),
	       pass_name(id.shape.pass));
	if (id.call >= 0)
		printf("call:    %ld\n", id.call);
	if (id.density > 0)
		printf("density: %g of the tile pairs computed (FLOPs counted over them)\n", id.density);
	if (id.mask[0])
		printf("mask:    %s\n", id.mask);
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
		{ "scan", required_argument, NULL, 'A' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "graphs", required_argument, NULL, 'G' },
		{ "per-replay", no_argument, NULL, 'P' },
		{ "workload", required_argument, NULL, 'W' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *out = NULL, *metrics = "capture", *include = RANGE_PREFIX "*", *regex = "", *shape = NULL;
	const char *families = NULL;
	int scan = 1, graphs = 0, per_replay = 0, workload = 0;
	long skip = 0, most = -1, timeout = 0;
	int force = 0, check = 1, retime = 1, keep = 0, flush = 1, window = 0, app_replay = 0, quiet = 0, c;
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
		case 'q': quiet = 1; break;
		case 'F':
			/* checked now, before the program runs; applied when the parts are merged */
			if (family_load(optarg))
				return EXIT_BAD_INPUT;
			families = optarg;
			break;
		case 'A':
			if (parse_choice("--scan", optarg, "on", "attention kernels outside any range are calls", "off",
					 "only marked calls", &scan))
				return EXIT_BAD_INPUT;
			break;
		case 'G':
			if (parse_choice("--graphs", optarg, "on", "attention inside CUDA graphs followed to its replays", "off",
					 "graph launches counted only", &graphs))
				return EXIT_BAD_INPUT;
			break;
		case 'P': per_replay = 1; break;
		case 'W':
			if (parse_choice("--workload", optarg, "on", "every kernel's time and attention's share", "off",
					 "attention calls only", &workload))
				return EXIT_BAD_INPUT;
			break;
		case 'h': usage(stdout); return EXIT_OK;
		default:
			note("with '-- CMD', record takes -o, --force, --metrics, --nvtx-include, --kernel-regex, --shape, --timeout, --cache-control, --window, --replay, "
			     "--skip-calls, --max-calls, --families, --scan, --graphs, --per-replay, --workload, --no-check, --no-time, --keep-parts and --quiet");
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
		error("unknown metric set '%s' for --metrics: use one of %s", metrics, metric_set_names());
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
		.families = families, .scan = scan && !(shape && *shape), .graphs = graphs, .per_replay = per_replay,
		.workload = workload, .quiet = quiet,
	};
	int rc = program_record(&o);
	free(list);
	return rc;
#else
	(void)cmd; (void)force; (void)include; (void)regex; (void)shape_range; (void)skip; (void)most; (void)check; (void)retime; (void)keep; (void)timeout; (void)flush; (void)window; (void)app_replay; (void)families; (void)scan; (void)graphs; (void)per_replay; (void)workload; (void)quiet;
	free(list);
	return built_without_gpu("record -- CMD");
#endif
}

/* "experiments/results/fa2.yaml", 2, 8 -> "experiments/results/fa2.shard-2-of-8.yaml" */
static void part_path(const char *out, int k, int n, char *buf, size_t len)
{
	size_t l = strlen(out);
	int ext = l > 5 && !strcmp(out + l - 5, ".yaml");
	snprintf(buf, len, "%.*s.shard-%d-of-%d.yaml", (int)(ext ? l - 5 : l), out, k, n);
}

/* --gpus LIST: "0,1,3" into dev[] (each once); "all": the visible count. */
static int parse_gpus(const char *arg, int *dev, int *n)
{
	*n = 0;
	if (!strcmp(arg, "all")) {
#if ATTNPROF_HAVE_CUDA
		int count = attn_device_count();
		if (count < 1) {
			error("--gpus all: no CUDA GPU is visible (check 'nvidia-smi' and CUDA_VISIBLE_DEVICES)");
			return EXIT_NO_GPU;
		}
		for (int i = 0; i < count && i < SHARD_MAX; i++)
			dev[(*n)++] = i;
		return 0;
#else
		return built_without_gpu("record --gpus all");
#endif
	}
	const char *p = arg;
	while (*p) {
		char *end;
		errno = 0;
		long v = strtol(p, &end, 10);
		if (end == p || errno || v < 0 || v > 1023 || (*end && *end != ',') || *n >= 1024) {
			error("--gpus '%s' must be 'all' or device numbers separated by commas, e.g. '--gpus 0,1,2,3'", arg);
			return EXIT_BAD_INPUT;
		}
		for (int i = 0; i < *n; i++)
			if (dev[i] == v) {
				error("--gpus '%s' names device %ld twice: two processes on one GPU would time each other", arg, v);
				return EXIT_BAD_INPUT;
			}
		dev[(*n)++] = (int)v;
		p = *end ? end + 1 : end;
	}
	if (!*n) {
		error("--gpus '' names no device: use 'all' or a list such as '0,1'");
		return EXIT_BAD_INPUT;
	}
	return 0;
}

static void print_word(const char *w)
{
	if (*w && strspn(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+=./,:@%") == strlen(w)) {
		fputs(w, stdout);
		return;
	}
	putchar('\'');
	for (; *w; w++)
		if (*w == '\'')
			fputs("'\\''", stdout);
		else
			putchar(*w);
	putchar('\'');
}

/* record SPEC --gpus ...: one child 'record SPEC --shard K/N --device D -o PART'
 * per device, all at once; then the parts merged into out. */
static int record_on_gpus(const char *spec, const char *gpus, int dry, const char *out, int resume, int force,
			  int npass, char **pass)
{
	static int dev[1024];
	int ndev = 0;
	int rc = parse_gpus(gpus, dev, &ndev);
	if (rc)
		return rc;
	if (!dry && !access(out, F_OK) && !resume && !force) {
		error("results file '%s' exists: use --resume to continue its parts, --force to overwrite, or -o to write elsewhere",
		      out);
		return EXIT_BAD_INPUT;
	}
	char self[4096];
	ssize_t sl = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (sl <= 0) {
		error("cannot find this program's path (/proc/self/exe) to start one process per GPU");
		return EXIT_FAILURE_RUN;
	}
	self[sl] = 0;
	char (*parts)[4096] = calloc((size_t)ndev, sizeof(*parts));
	char (*shard)[32] = calloc((size_t)ndev, sizeof(*shard));
	char (*devs)[16] = calloc((size_t)ndev, sizeof(*devs));
	pid_t *pid = calloc((size_t)ndev, sizeof(*pid));
	char **av = calloc((size_t)npass + 12, sizeof(*av));
	if (!parts || !shard || !devs || !pid || !av) {
		free(parts); free(shard); free(devs); free(pid); free(av);
		return error("out of memory"), EXIT_FAILURE_RUN;
	}
	for (int k = 0; k < ndev; k++) {
		part_path(out, k + 1, ndev, parts[k], sizeof(parts[k]));
		snprintf(shard[k], sizeof(shard[k]), "%d/%d", k + 1, ndev);
		snprintf(devs[k], sizeof(devs[k]), "%d", dev[k]);
		int a = 0;
		av[a++] = self;
		av[a++] = (char *)"record";
		av[a++] = (char *)spec;
		av[a++] = (char *)"--shard";
		av[a++] = shard[k];
		av[a++] = (char *)"--device";
		av[a++] = devs[k];
		av[a++] = (char *)"-o";
		av[a++] = parts[k];
		for (int i = 0; i < npass; i++)
			av[a++] = pass[i];
		av[a] = NULL;
		if (dry) {
			fputs("attnprof", stdout);
			for (int i = 1; i < a; i++) {
				putchar(' ');
				print_word(av[i]);
			}
			printf(" &\n");
			continue;
		}
		fflush(NULL);
		pid[k] = fork();
		if (pid[k] < 0) {
			error("cannot start the process for GPU %d: %s", dev[k], strerror(errno));
			rc = EXIT_FAILURE_RUN;
			ndev = k; /* wait for those started */
			break;
		}
		if (pid[k] == 0) {
			execv(self, av);
			fprintf(stderr, "attnprof: error: cannot run '%s': %s\n", self, strerror(errno));
			_exit(EXIT_FAILURE_RUN);
		}
	}
	if (dry) {
		printf("wait\nattnprof merge");
		for (int k = 0; k < ndev; k++) {
			putchar(' ');
			print_word(parts[k]);
		}
		printf(" -o ");
		print_word(out);
		printf("\n");
	} else {
		/* the children stop on SIGINT/SIGTERM themselves, keeping their records */
		signal(SIGINT, SIG_IGN);
		signal(SIGTERM, SIG_IGN);
		int worst = rc, missing = 0;
		for (int k = 0; k < ndev; k++) {
			int st = 0, code;
			while (waitpid(pid[k], &st, 0) < 0 && errno == EINTR)
				;
			code = WIFEXITED(st) ? WEXITSTATUS(st) : EXIT_FAILURE_RUN;
			if (code)
				fprintf(stderr, "attnprof: shard %s on GPU %d (%s) exited %d\n", shard[k], dev[k], parts[k], code);
			if (code == EXIT_BAD_INPUT || (code && worst != EXIT_BAD_INPUT && (code == EXIT_FAILURE_RUN || !worst)))
				worst = code;
			missing += access(parts[k], F_OK) != 0;
		}
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		if (missing || worst == EXIT_BAD_INPUT) {
			error("%d of %d parts were not written: nothing merged; fix what the processes said and run again "
			      "(with --resume to keep the parts' records)", missing, ndev);
			rc = worst ? worst : EXIT_FAILURE_RUN;
		} else {
			struct merge_opts mo = { 0 };
			const char **paths = malloc((size_t)ndev * sizeof(*paths));
			if (!paths) {
				rc = EXIT_FAILURE_RUN;
			} else {
				for (int k = 0; k < ndev; k++)
					paths[k] = parts[k];
				int mrc = results_merge_files(paths, (size_t)ndev, &mo, out);
				free(paths);
				rc = mrc ? mrc : worst;
			}
		}
	}
	free(parts); free(shard); free(devs); free(pid); free(av);
	return rc;
}

/* record --resume continues only the part the file holds: a shard's file
 * with the same --shard, a whole sweep's without.  -1 after error(). */
static int resume_other_part(const char *out, const char *shard)
{
	struct results r;
	if (access(out, F_OK))
		return 0;
	int old = error_quiet(1);
	int bad = results_load(&r, out, NULL);
	error_quiet(old);
	if (bad)
		return 0; /* the recording says why, with the place */
	const char *had = r.header.shard;
	int rc = 0;
	if ((had || shard) && (!had || !shard || strcmp(had, shard)))
		rc = error("cannot resume '%s' as %s%s: it holds %s%s; resume it with %s%s, or write this part "
			   "elsewhere with -o", out, shard ? "shard " : "the whole sweep", shard ? shard : "",
			   had ? "shard " : "the whole sweep", had ? had : "", had ? "--shard " : "no --shard",
			   had ? had : "");
	results_release(&r);
	return rc;
}

/* record's options for a spec (not for '-- CMD'): parsed once, the
 * processes --gpus starts get the same ones (pass). */
struct record_args {
	const char *out, *metrics, *replay, *shard, *gpus;
	int resume, force, reps, warmup, progress, quiet, batch, device, device_given, dry, ceilings;
	int shard_k, shard_n;
	double probe, settle;
	int npass;
	char *pass[256];
};

/* EXIT_OK with *a filled, or the exit code (help printed, or an error said). */
static int record_options(int argc, char **argv, struct record_args *a, int *help)
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
		{ "ceilings", required_argument, NULL, 'C' },
		{ "progress", no_argument, NULL, 'p' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "settle", required_argument, NULL, 's' },
		{ "shard", required_argument, NULL, 'S' },
		{ "device", required_argument, NULL, 'D' },
		{ "gpus", required_argument, NULL, 'G' },
		{ "dry-run", no_argument, NULL, 'N' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	*a = (struct record_args){ .warmup = -1, .probe = 2.0, .settle = 2000, .ceilings = 1 };
	*help = 0;
	int c, idx;
	char *end;
	/* the options --gpus hands to every process: "--NAME" and its argument */
	enum { PASS_MAX = sizeof a->pass / sizeof a->pass[0] };
	static char names[32][32];
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:h", opts, &idx)) != -1) {
		if (c != 'o' && c != 'S' && c != 'D' && c != 'G' && c != 'N' && c != 'h' && c != '?') {
			/* the option's long name: the short ones are -o and -h only */
			for (idx = 0; opts[idx].name && opts[idx].val != c; idx++)
				;
			if (opts[idx].name && idx < 32 && a->npass + 2 <= PASS_MAX) {
				snprintf(names[idx], sizeof(names[idx]), "--%s", opts[idx].name);
				a->pass[a->npass++] = names[idx];
				if (opts[idx].has_arg)
					a->pass[a->npass++] = optarg;
			}
		}
		switch (c) {
		case 'S':
			if (shard_parse("--shard", optarg, &a->shard_k, &a->shard_n))
				return EXIT_BAD_INPUT;
			a->shard = optarg;
			break;
		case 'D':
			a->device = (int)strtol(optarg, &end, 10);
			if (*end || end == optarg || a->device < 0 || a->device > 1023) {
				error("--device '%s' must be a device number from 0 (as CUDA_VISIBLE_DEVICES numbers them)", optarg);
				return EXIT_BAD_INPUT;
			}
			a->device_given = 1;
			break;
		case 'G': a->gpus = optarg; break;
		case 'N': a->dry = 1; break;
		case 'o': a->out = optarg; break;
		case 'r': a->resume = 1; break;
		case 'f': a->force = 1; break;
		case 'm': a->metrics = optarg; break;
		case 'R': a->replay = optarg; break;
		case 'p': a->progress = 1; break;
		case 'q': a->quiet = 1; break;
		case 'n':
			a->reps = (int)strtol(optarg, &end, 10);
			if (*end || a->reps < 1 || a->reps > 100000) {
				error("--reps '%s' must be a whole number from 1 to 100000", optarg);
				return EXIT_BAD_INPUT;
			}
			break;
		case 'b':
			a->batch = (int)strtol(optarg, &end, 10);
			if (*end || a->batch < 1 || a->batch > 8) {
				error("--profile-batch '%s' must be a whole number from 1 to 8", optarg);
				return EXIT_BAD_INPUT;
			}
			break;
		case 'w':
			a->warmup = (int)strtol(optarg, &end, 10);
			if (*end || a->warmup < 0 || a->warmup > 10000) {
				error("--warmup '%s' must be a whole number from 0 to 10000", optarg);
				return EXIT_BAD_INPUT;
			}
			break;
		case 'c':
			a->probe = strtod(optarg, &end);
			if (*end || a->probe < 0 || a->probe > 64) {
				error("--copy-probe '%s' must be a number of GiB from 0 to 64", optarg);
				return EXIT_BAD_INPUT;
			}
			break;
		case 'C':
			if (strcmp(optarg, "on") && strcmp(optarg, "off")) {
				error("--ceilings '%s' must be on or off", optarg);
				return EXIT_BAD_INPUT;
			}
			a->ceilings = !strcmp(optarg, "on");
			break;
		case 's':
			a->settle = strtod(optarg, &end);
			if (*end || end == optarg || !(a->settle >= 0 && a->settle <= 60000)) {
				error("--settle '%s' must be a number of milliseconds from 0 to 60000", optarg);
				return EXIT_BAD_INPUT;
			}
			break;
		case 'h': usage(stdout); *help = 1; return EXIT_OK;
		default: usage(stderr); return EXIT_BAD_INPUT;
		}
	}
	if (a->resume && a->force) {
		error("--resume and --force contradict each other: keep the records, or overwrite them");
		return EXIT_BAD_INPUT;
	}
	if (a->dry && !a->gpus) {
		error("--dry-run goes with --gpus: it prints the processes --gpus would start");
		return EXIT_BAD_INPUT;
	}
	if (a->gpus && (a->shard || a->device_given)) {
		error("--gpus picks each process's --shard and --device itself: give --gpus, or --shard and --device");
		return EXIT_BAD_INPUT;
	}
	return EXIT_OK;
}

/* The spec's settings the command line overrides (repetitions, warm-up,
 * replay, metric set), checked together: EXIT_OK or the exit code. */
static int record_overrides(const struct record_args *a, struct spec *s)
{
	if (a->replay && replay_mode_parse(a->replay, &s->replay)) {
		error("--replay '%s' must be auto, kernel or user", a->replay);
		return EXIT_BAD_INPUT;
	}
	if (a->reps)
		s->repetitions = a->reps;
	if (a->warmup >= 0)
		s->warmup = a->warmup;
	if (a->metrics) {
		const struct metric_set *ms = metric_set_find(a->metrics);
		if (!ms) {
			error("unknown metric set '%s' for --metrics: use one of %s", a->metrics, metric_set_names());
			return EXIT_BAD_INPUT;
		}
		if (spec_use_metric_set(s, ms))
			return EXIT_FAILURE_RUN;
	}
	/* an override: the replay mode against the variants and the metric set,
	 * both final now (the spec's own pair was checked when it was loaded) */
	if ((a->replay || a->metrics) && spec_check_replay(s, a->replay ? "--replay" : "--metrics"))
		return EXIT_BAD_INPUT;
	return EXIT_OK;
}

int cmd_record(int argc, char **argv)
{
	/* 'record [OPTIONS] -- CMD ...': a program to capture */
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--"))
			return record_program(i, argv, argc - i - 1, argv + i + 1);
	if (argc == 3 && !strcmp(argv[1], "--parse-range"))
		return parse_range_cmd(argv[2]);

	static struct record_args a;
	int help, rc = record_options(argc, argv, &a, &help);
	if (rc != EXIT_OK || help)
		return rc;
	struct spec s;
	if (command_load_spec(argc, argv, optind, "record", &s))
		return EXIT_BAD_INPUT;
	char def[512];
	struct stat st;
	const char *out = a.out;
	if (!out) {
		const char *dir = !stat("experiments/results", &st) && S_ISDIR(st.st_mode) ? "experiments/results/" : "";
		if (a.shard)
			snprintf(def, sizeof(def), "%s%s.shard-%d-of-%d.yaml", dir, s.name, a.shard_k, a.shard_n);
		else
			snprintf(def, sizeof(def), "%s%s.yaml", dir, s.name);
		out = def;
	}
	/* the output checked before anything runs (a folder, or a folder that is not there) */
	if (check_results_path(out))
		rc = EXIT_BAD_INPUT;
	else if (a.gpus)
		rc = record_on_gpus(argv[optind], a.gpus, a.dry, out, a.resume, a.force, a.npass, a.pass);
	else if (a.shard && spec_keep_shard(&s, a.shard_k, a.shard_n, NULL, NULL))
		rc = EXIT_FAILURE_RUN;
	else if (a.resume && resume_other_part(out, a.shard))
		rc = EXIT_BAD_INPUT;
	else
		rc = record_overrides(&a, &s);
	if (rc != EXIT_OK || a.gpus) {
		spec_release(&s);
		return rc;
	}
#if ATTNPROF_HAVE_CUDA
	char *cmdline = join_args(argc, argv);
	struct harness_opts o = {
		.out_path = out, .command_line = cmdline, .resume = a.resume, .force = a.force,
		.progress = a.progress, .quiet = a.quiet, .copy_bytes_gib = a.probe, .ceilings = a.ceilings, .profile_batch = a.batch,
		.settle_ms = a.settle, .shard = a.shard, .device = a.device,
	};
	rc = harness_record(&s, &o);
	free(cmdline);
#else
	(void)join_args;
	rc = built_without_gpu("record");
#endif
	spec_release(&s);
	return rc;
}
