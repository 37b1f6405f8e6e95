/* program.c: `attnprof record [OPTIONS] -o FILE -- CMD [ARGS...]` — run an
 * unmodified program with the injection library (src/capture/inject/inject.c)
 * and the Python helper (src/capture/python) in front of it, then merge what
 * each of its processes captured into one results file (docs/capture.md).
 *
 * The program runs as our child in its own folder of parts next to the
 * output; we wait for it (a terminal's ^C reaches it, and we keep what it
 * captured), read the GPU's conditions afterwards (so our own CUDA context
 * never shares the GPU with the program), and write the results atomically.
 */
#include "capture/program.h"

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cupti.h>

#include "capture/candidates.h"
#include "capture/family.h"
#include "capture/group.h"
#include "capture/merge.h"
#include "capture/shapeinfer.h"
#include "capture/verdict.h"
#include "capture/workload.h"
#include "capture/conditions.h"
#include "util/error.h"
#include "util/file.h"

/* The folder this binary is in ("" when unknown). */
static void exe_dir(char *buf, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", buf, len - 1);
	buf[n > 0 ? n : 0] = '\0';
	char *slash = strrchr(buf, '/');
	if (slash)
		*slash = '\0';
	else
		buf[0] = '\0';
}

static int first_existing(char *out, size_t len, const char *const *cands, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (cands[i] && cands[i][0] && !access(cands[i], R_OK)) {
			if (!realpath(cands[i], out))
				snprintf(out, len, "%s", cands[i]);
			return 0;
		}
	return -1;
}

static int find_inject_lib(char *out, size_t len)
{
	char dir[PATH_MAX], a[PATH_MAX + 64], b[PATH_MAX + 64];
	exe_dir(dir, sizeof dir);
	snprintf(a, sizeof a, "%s/libattnprof-inject.so", dir);
	snprintf(b, sizeof b, "%s/../lib/attnprof/libattnprof-inject.so", dir);
	const char *cands[] = { getenv("ATTNPROF_INJECT_LIB"), a, b };
	if (!first_existing(out, len, cands, 3))
		return 0;
	return error("cannot find libattnprof-inject.so next to attnprof (%s) or in %s/../lib/attnprof: "
		     "build it with 'make' (CUDA=1) or set ATTNPROF_INJECT_LIB", a, dir);
}

static int find_python_dir(char *out, size_t len)
{
	char dir[PATH_MAX], a[PATH_MAX + 64], b[PATH_MAX + 64];
	exe_dir(dir, sizeof dir);
	snprintf(a, sizeof a, "%s/src/capture/python/sitecustomize.py", dir);
	snprintf(b, sizeof b, "%s/../share/attnprof/python/sitecustomize.py", dir);
	const char *cands[] = { a, b };
	if (first_existing(out, len, cands, 2))
		return -1;
	char *slash = strrchr(out, '/');
	if (slash)
		*slash = '\0';
	return 0;
}

/* The libcupti this binary uses: NVTX hands its calls to it. */
static int find_cupti(char *out, size_t len)
{
	Dl_info info;
	if (dladdr((void *)cuptiGetVersion, &info) && info.dli_fname && info.dli_fname[0] == '/') {
		snprintf(out, len, "%s", info.dli_fname);
		return 0;
	}
	return error("cannot locate libcupti (needed for NVTX callbacks): set LD_LIBRARY_PATH to CUPTI's folder");
}

static int set_env(const char *k, const char *v)
{
	if (setenv(k, v ? v : "", 1))
		return error("cannot set %s: %s", k, strerror(errno));
	return 0;
}

static int prepend_env(const char *k, const char *dir)
{
	const char *old = getenv(k);
	size_t n = strlen(dir) + (old ? strlen(old) : 0) + 2;
	char *v = malloc(n);
	if (!v)
		return error("out of memory");
	snprintf(v, n, "%s%s%s", dir, old && *old ? ":" : "", old && *old ? old : "");
	int rc = set_env(k, v);
	free(v);
	return rc;
}

static void remove_dir(const char *dir)
{
	DIR *d = opendir(dir);
	if (d) {
		struct dirent *e;
		while ((e = readdir(d))) {
			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			char p[PATH_MAX + 300];
			snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
			unlink(p);
		}
		closedir(d);
	}
	rmdir(dir);
}

static char *join(const char *head, int argc, char **argv)
{
	size_t len = strlen(head) + 8;
	for (int i = 0; i < argc; i++)
		len += strlen(argv[i]) + 3;
	char *s = malloc(len);
	if (!s)
		return NULL;
	strcpy(s, head);
	for (int i = 0; i < argc; i++) {
		strcat(s, " ");
		strcat(s, argv[i]);
	}
	return s;
}

static int child_status(int status, char *buf, size_t len)
{
	if (WIFEXITED(status)) {
		snprintf(buf, len, "exited with status %d", WEXITSTATUS(status));
		return WEXITSTATUS(status) != 0;
	}
	if (WIFSIGNALED(status)) {
		snprintf(buf, len, "was killed by signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
		return 1;
	}
	snprintf(buf, len, "ended with status %d", status);
	return 1;
}

/* Most one-pass groups an application replay runs the program for. */
#define METRIC_GROUPS_MAX 16

/* Seconds a program stopped by --timeout gets between SIGTERM and SIGKILL. */
#define STOP_GRACE_S 5

/* Wait for the program; with a timeout, SIGTERM it when the time is up and
 * SIGKILL it STOP_GRACE_S later.  Returns 0, or the signal that stopped it.
 * What its processes saved (their parts, at most a second old) is kept. */
static int wait_program(pid_t pid, long timeout_s, int *status)
{
	if (timeout_s <= 0) {
		while (waitpid(pid, status, 0) < 0 && errno == EINTR)
			;
		return 0;
	}
	struct timespec start, now, tick = { 0, 50 * 1000 * 1000 };
	clock_gettime(CLOCK_MONOTONIC, &start);
	int sent = 0;
	for (;;) {
		pid_t r = waitpid(pid, status, WNOHANG);
		if (r == pid || (r < 0 && errno != EINTR))
			return sent;
		clock_gettime(CLOCK_MONOTONIC, &now);
		double t = (double)(now.tv_sec - start.tv_sec) + 1e-9 * (double)(now.tv_nsec - start.tv_nsec);
		if (!sent && t >= (double)timeout_s) {
			kill(pid, SIGTERM);
			sent = SIGTERM;
		} else if (sent == SIGTERM && t >= (double)(timeout_s + STOP_GRACE_S)) {
			kill(pid, SIGKILL);
			sent = SIGKILL;
		}
		nanosleep(&tick, NULL);
	}
}

/* The child's environment: the injection library for CUDA and NVTX, its
 * settings, the Python helper.  Set in the child only, so our own CUDA
 * context (the conditions read afterwards) never loads the library. */
/* What differs between the runs of an application replay. */
struct run_settings {
	const char *metrics;   /* the metrics this run counts */
	int app_replay_first;  /* the first run: it cuts the set into one-pass groups */
	int check, retime;     /* the helper's check and re-timing: the first run only */
};

static int child_env(const struct program_opts *o, const struct run_settings *rs, const char *lib, const char *cupti,
		     const char *py, int have_py, const char *parts)
{
	char num[32];
	int rc = set_env("CUDA_INJECTION64_PATH", lib) || set_env("NVTX_INJECTION64_PATH", lib) ||
		 set_env("ATTNPROF_INJECT_DIR", parts) || set_env("ATTNPROF_INJECT_METRICS", rs->metrics) ||
		 set_env("ATTNPROF_INJECT_APP_REPLAY", rs->app_replay_first ? "1" : "0") ||
		 set_env("ATTNPROF_INJECT_METRIC_SET", o->metric_set) ||
		 set_env("ATTNPROF_INJECT_NVTX_INCLUDE", o->nvtx_include) ||
		 set_env("ATTNPROF_INJECT_KERNEL_REGEX", o->kernel_regex) ||
		 set_env("ATTNPROF_INJECT_KERNEL_SHAPE", o->kernel_shape ? o->kernel_shape : "");
	rc = rc || set_env("ATTNPROF_INJECT_FLUSH", o->flush_l2 ? "1" : "0");
	rc = rc || set_env("ATTNPROF_INJECT_WINDOW", o->window ? "1" : "0");
	rc = rc || set_env("ATTNPROF_INJECT_SCAN", o->scan ? "1" : "0");
	rc = rc || set_env("ATTNPROF_INJECT_GRAPHS", o->graphs ? (o->per_replay ? "2" : "1") : "0");
	rc = rc || set_env("ATTNPROF_INJECT_WORKLOAD", o->workload ? "1" : "0");
	rc = rc || set_env("ATTNPROF_INJECT_FAMILIES", o->families ? o->families : "");
	snprintf(num, sizeof num, "%ld", o->skip_calls);
	rc = rc || set_env("ATTNPROF_INJECT_SKIP_CALLS", num);
	snprintf(num, sizeof num, "%ld", o->max_calls);
	rc = rc || set_env("ATTNPROF_INJECT_MAX_CALLS", num);
	/* libcupti dlopens libnvperf_host from its own folder: the program's
	 * executable has no rpath to find it by */
	char cupti_dir[PATH_MAX + 64];
	snprintf(cupti_dir, sizeof cupti_dir, "%s", cupti);
	char *cs = strrchr(cupti_dir, '/');
	if (cs)
		*cs = '\0';
	rc = rc || prepend_env("LD_LIBRARY_PATH", cupti_dir);
	if (have_py)
		rc = rc || prepend_env("PYTHONPATH", py) || set_env("ATTNPROF_HOOK", "1") ||
		     set_env("ATTNPROF_HOOK_CHECK", rs->check ? "1" : "0") || set_env("ATTNPROF_HOOK_TIME", rs->retime ? "1" : "0");
	return rc ? -1 : 0;

}

/* Start the program with the library writing into parts and wait for it
 * (^C reaches the program, not us).  0, or -1 via error() when it cannot be
 * started; *status, *stopped (wait_program) and *wall say how it ended. */
static int run_program(const struct program_opts *o, const struct run_settings *rs, const char *lib, const char *cupti,
		       const char *py, int have_py, const char *parts, int *status, int *stopped, double *wall)
{
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0)
		return error("cannot start '%s': %s", o->argv[0], strerror(errno));
	if (pid == 0) {
		if (child_env(o, rs, lib, cupti, py, have_py, parts))
			_exit(127);
		execvp(o->argv[0], o->argv);
		fprintf(stderr, "attnprof: error: cannot run '%s': %s\n", o->argv[0], strerror(errno));
		_exit(127);
	}
	struct sigaction ign = { .sa_handler = SIG_IGN }, old_int, old_term;
	sigemptyset(&ign.sa_mask);
	sigaction(SIGINT, &ign, &old_int);
	sigaction(SIGTERM, &ign, &old_term);
	*status = 0;
	*stopped = wait_program(pid, o->timeout_s, status);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	*wall = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
	return 0;
}

/* The one-pass groups the first run of an application replay wrote
 * (DIR/groups, one comma-separated line each); 0 groups when the set
 * needed one pass.  *text is malloc'd, lines[i] into it. */
static size_t read_groups(const char *parts, char **text, char *lines[], size_t max)
{
	char path[PATH_MAX + 80];
	snprintf(path, sizeof path, "%s/groups", parts);
	*text = NULL;
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	const size_t cap = 1 << 16;
	if ((*text = calloc(1, cap)) && !fread(*text, 1, cap - 1, f))
		(*text)[0] = '\0';
	fclose(f);
	size_t k = 0;
	for (char *p = *text ? strtok(*text, "\n") : NULL; p && k < max; p = strtok(NULL, "\n"))
		lines[k++] = p;
	return k;
}

/* Application replay after the first run: the program once more per
 * further one-pass group, each run's counters into res's kernels.  0, or -1
 * with res keeping the groups merged so far (and a note saying so). */
static int replay_rest(const struct program_opts *o, const char *lib, const char *cupti, const char *py, int have_py,
		       const char *parts, struct results *res)
{
	char *text, *groups[METRIC_GROUPS_MAX];
	const size_t ngroups = read_groups(parts, &text, groups, METRIC_GROUPS_MAX);
	char line[600];
	if (ngroups <= 1) {
		results_note(res, "application replay: the metric set needed one pass, so the program ran once");
		free(text);
		return 0;
	}
	snprintf(line, sizeof line, "application replay: run 1 of %zu counted %s", ngroups, groups[0]);
	results_note(res, line);
	int rc = 0;
	for (size_t k = 1; k < ngroups && !rc; k++) {
		char dir[PATH_MAX + 80];
		snprintf(dir, sizeof dir, "%s.run%zu", parts, k + 1);
		if (mkdir(dir, 0700)) {
			rc = error("cannot make '%s': %s", dir, strerror(errno));
			break;
		}
		if (!o->quiet)
			fprintf(stderr, "attnprof: application replay: run %zu of %zu (%s)\n", k + 1, ngroups, groups[k]);
		const struct run_settings rs = { groups[k], 0, 0, 0 };
		int status = 0, stopped = 0;
		double wall = 0;
		struct results run;
		results_init(&run);
		struct merge_summary sum;
		char how[200] = "";
		if (run_program(o, &rs, lib, cupti, py, have_py, dir, &status, &stopped, &wall))
			rc = -1;
		else if (child_status(status, how, sizeof how) || stopped)
			rc = error("application replay: run %zu of '%s' %s", k + 1, o->argv[0], stopped ? "was stopped by --timeout" : how);
		else if (merge_parts(dir, &run, &sum) || merge_replay_run(res, &run))
			rc = -1;
		results_release(&run);
		if (o->keep_parts)
			note("run %zu's parts are kept in %s", k + 1, dir);
		else
			remove_dir(dir);
		if (rc)
			snprintf(line, sizeof line, "application replay: run %zu of %zu (%s) failed: %s; those metrics are missing",
				 k + 1, ngroups, groups[k], error_last());
		else
			snprintf(line, sizeof line, "application replay: run %zu of %zu counted %s", k + 1, ngroups, groups[k]);
		results_note(res, line);
	}
	for (size_t i = 0; i < res->nrecords; i++)
		if (res->records[i].replay && !strcmp(res->records[i].replay, "user")) {
			free(res->records[i].replay);
			res->records[i].replay = strdup("application");
		}
	free(text);
	return rc;
}

/* Settings in the environment that change what the program runs, into
 * the notes (XLA's command buffers decide whether its kernels can be
 * profiled at all). */
static void note_environment(struct results *res)
{
	static const char *const behaviour_env[] = { "XLA_FLAGS", "TORCHINDUCTOR_CUDAGRAPHS", "CUDA_LAUNCH_BLOCKING",
						     "TORCH_CUDNN_V8_API_DISABLED" };
	char line[512];
	for (size_t i = 0; i < sizeof behaviour_env / sizeof behaviour_env[0]; i++) {
		const char *v = getenv(behaviour_env[i]);
		if (v) {
			snprintf(line, sizeof line, "environment: %s='%.400s'", behaviour_env[i], v);
			results_note(res, line);
		}
	}
}

/* Kernels nobody named that ran outside the calls: listed with the
 * command that captures them, on stderr and in the notes (candidates.h). */
static void list_candidates(const struct program_opts *o, const char *parts, struct results *res)
{
	struct candidates c;
	candidates_init(&c);
	char *cmd = join(o->argv[0], o->argc - 1, o->argv + 1);
	if (candidates_read_dir(&c, parts))
		warning("the kernels that look like attention are not listed: %s", error_last());
	else
		candidates_report(&c, cmd ? cmd : o->argv[0], res);
	free(cmd);
	candidates_release(&c);
}

/* No call was captured: what to do about it, by how calls were to be found. */
static void say_no_calls(const struct program_opts *o, const char *how, const struct results *res)
{
	if (o->kernel_shape && *o->kernel_shape)
		error("no kernel launched by '%s' (%s) matched --kernel-regex '%s' outside an attention range: "
		      "check the pattern against the kernels' names (e.g. nsys or 'attnprof record --metrics none "
		      "--kernel-regex . --shape ...' lists every kernel as a call)", o->argv[0], how, o->kernel_regex);
	else
		error("no attention range was seen in '%s' (%s)%s: mark attention calls in one of three ways — "
		      "(1) a Python program using torch.nn.functional.scaled_dot_product_attention or transformers "
		      "is marked by the helper that record puts in front of it; (2) any program can emit NVTX ranges "
		      "named 'attnprof: impl=NAME B= H= Nq= Nkv= d= ...' (header src/capture/inject/attnprof_nvtx.h); "
		      "(3) --kernel-regex RE --shape 'impl=NAME B= H= Nq= Nkv= d= ...' makes every launch of a matching "
		      "kernel a call of that shape (--nvtx-include PATTERN narrows which 'attnprof:' ranges count)", o->argv[0], how,
		      o->scan ? ", and none of its kernels is a known attention kernel (the family table, "
				"docs/capture.md; add yours with --families FILE)" : "");
	if (res->header.notes)
		note("the capture said: %s", res->header.notes);
}

/* What a found call's grids and kernel names tell of its shape: stated,
 * never taken as known (capture/shapeinfer.h). */
static void infer_shapes(struct results *res)
{
	for (size_t i = 0; i < res->nrecords; i++) {
		struct capture_info *c = res->records[i].capture;
		struct inferred_shape is;
		if (!c || c->shape_known || !c->origin || (strcmp(c->origin, "family-scan") && strcmp(c->origin, "graph-replay")) ||
		    !shape_infer(&res->records[i], &is))
			continue;
		free(c->shape_inferred);
		free(c->shape_rule);
		c->shape_inferred = strdup(is.text);
		c->shape_rule = strdup(is.rule);
	}
}

/* The calls' families again with the user's rules (--families), then the
 * verdicts, now that the L2's size is known (verdict.h); a note where
 * calls were counted in one window. */
static void settle_calls(struct results *res, double l2_bytes)
{
	char line[512];
	for (size_t i = 0; i < res->nrecords; i++) {
		struct record *r = &res->records[i];
		if (r->capture) {
			const char **names = calloc(r->nlaunches + 1, sizeof *names);
			for (size_t k = 0; names && k < r->nlaunches; k++)
				names[k] = r->launches[k].name;
			const char *fam = family_of_call(names, names ? r->nlaunches : 0);
			if (names && (!r->capture->family || strcmp(r->capture->family, fam))) {
				free(r->capture->family);
				r->capture->family = strdup(fam);
			}
			free(names);
		}
		verdict_compute(r, l2_bytes);
	}
	size_t windowed = 0;
	for (size_t i = 0; i < res->nrecords; i++)
		windowed += res->records[i].capture && res->records[i].capture->counter_window;
	if (windowed) {
		snprintf(line, sizeof line,
			 "%zu call%s counted in one profiling window (--window on): on the H200 the L2 and DRAM writes of "
			 "some calls read up to 7x those of the same call counted alone (docs/capture.md); check a verdict "
			 "that matters with --window off", windowed, windowed == 1 ? "" : "s");
		results_note(res, line);
	}
}

int program_record(const struct program_opts *o)
{
	char lib[PATH_MAX + 64], cupti[PATH_MAX + 64], py[PATH_MAX + 64] = "", outdir[PATH_MAX], parts[PATH_MAX + 64];
	if (!o->force && !access(o->out_path, F_OK))
		return error("results file '%s' exists: use --force to overwrite it, or -o to write elsewhere", o->out_path),
		       EXIT_BAD_INPUT;
	/* before the program runs, not at the save after it: -o naming the
	 * families file (or a hard link to it) would lose the whole capture */
	const char *what;
	if (file_is_input(o->out_path, NULL, &what))
		return error("-o '%s' is the %s this command read: write the results elsewhere", o->out_path, what),
		       EXIT_BAD_INPUT;
	if (find_inject_lib(lib, sizeof lib) || find_cupti(cupti, sizeof cupti))
		return EXIT_FAILURE_RUN;
	int have_py = !find_python_dir(py, sizeof py);

	/* the parts live beside the output, so the final rename stays on one file system */
	snprintf(outdir, sizeof outdir, "%s", o->out_path);
	char *slash = strrchr(outdir, '/');
	if (slash)
		*slash = '\0';
	else
		snprintf(outdir, sizeof outdir, ".");
	snprintf(parts, sizeof parts, "%s/.attnprof-capture-XXXXXX", outdir);
	if (!mkdtemp(parts))
		return error("cannot make a folder for the capture in '%s': %s", outdir, strerror(errno)),
		       EXIT_FAILURE_RUN;

	if (!have_py)
		warning("the Python helper (src/capture/python) was not found next to attnprof: Python programs' attention is not marked");
	char date[32];
	conditions_date(date, sizeof date);
	const struct run_settings first = { o->metrics, o->app_replay, o->check, o->retime };
	int status = 0, stopped = 0;
	double wall = 0;
	if (run_program(o, &first, lib, cupti, py, have_py, parts, &status, &stopped, &wall)) {
		remove_dir(parts);
		return EXIT_FAILURE_RUN;
	}
	char how[200];
	int program_failed = child_status(status, how, sizeof how);
	if (stopped) {
		char why[200];
		if (stopped == SIGKILL)
			snprintf(why, sizeof why, "was stopped by --timeout after %ld s (SIGKILL: it outlived SIGTERM by %d s)",
				 o->timeout_s, STOP_GRACE_S);
		else
			snprintf(why, sizeof why, "was stopped by --timeout after %ld s (SIGTERM)", o->timeout_s);
		snprintf(how, sizeof how, "%s", why);
		program_failed = 1;
	}

	struct results res;
	results_init(&res);
	struct merge_summary sum;
	int exit_code = EXIT_OK;
	if (merge_parts(parts, &res, &sum)) {
		exit_code = EXIT_FAILURE_RUN;
		goto out;
	}
	/* ran to its end: it ended by itself (any status), and no process of it
	 * left from inside the profiler (a library's exit() there cuts the
	 * program's work short while its status can read 0) */
	const int ran_to_end = !stopped && WIFEXITED(status) && sum.exits_inside == 0;
	res.header.program_exit = strdup(how);
	res.header.program_ran_to_end = ran_to_end;
	char line[512];
	snprintf(line, sizeof line, "program %s after %.2f s%s; %zu process%s loaded the injection library", how, wall,
		 ran_to_end ? "" : ", not at its end", sum.parts, sum.parts == 1 ? "" : "es");
	results_note(&res, line);
	if (!ran_to_end && !program_failed) {
		/* the status says success, the program was cut short: record fails */
		snprintf(how, sizeof how, "%s but did not run to its end (%zu process%s exited from inside the profiler)",
			 "exited with status 0", sum.exits_inside, sum.exits_inside == 1 ? "" : "es");
		program_failed = 1;
	}
	note_environment(&res);
	list_candidates(o, parts, &res);
	if (sum.parts == 0) {
		error("'%s' %s without loading the injection library: it used no CUDA, or its CUDA driver ignored "
		      "CUDA_INJECTION64_PATH; nothing was captured", o->argv[0], how);
		exit_code = EXIT_FAILURE_RUN;
		goto out;
	}
	if (sum.calls == 0) {
		say_no_calls(o, how, &res);
		exit_code = EXIT_FAILURE_RUN;
		goto out;
	}
	if (o->app_replay && !program_failed && replay_rest(o, lib, cupti, py, have_py, parts, &res))
		program_failed = 1, snprintf(how, sizeof how, "failed in a later run of the application replay (%s)", error_last());
	/* kernels found by family into calls and passes (capture/group.h) */
	struct group_summary gs;
	if (group_scanned(&res, &gs)) {
		exit_code = EXIT_FAILURE_RUN;
		goto out;
	}
	if (gs.joined || gs.paired || gs.dropped) {
		char gline[900];
		snprintf(gline, sizeof gline,
			 "kernels found by family grouped into calls and passes (%s): %zu auxiliary kernel(s) joined a pass, "
			 "%zu backward pass(es) took their forward's call number, %zu auxiliary kernel(s) next to no pass of "
			 "theirs were dropped", GROUP_RULE, gs.joined, gs.paired, gs.dropped);
		results_note(&res, gline);
	}
	sum.calls = res.nrecords;
	infer_shapes(&res);
	struct results_header *h = &res.header;
	h->tool_version = strdup(ATTNPROF_VERSION);
	h->date = strdup(date);
	char host[256] = "";
	gethostname(host, sizeof host - 1);
	h->host = strdup(host);
	h->command_line = join("attnprof record", o->record_argc, o->record_argv);
	char *cmd = join(o->argv[0], o->argc - 1, o->argv + 1);
	char spec_name[64];
	const char *base = strrchr(o->argv[0], '/');
	snprintf(spec_name, sizeof spec_name, "capture-%s", base ? base + 1 : o->argv[0]);
	h->spec_name = strdup(spec_name);
	h->spec_text = cmd; /* the captured command, verbatim */
	struct attn_device dev;
	if (gpu_conditions(&h->gpu, &dev))
		warning("cannot read the GPU's conditions after the run: %s", error_last());
	settle_calls(&res, (double)h->gpu.hw.l2_bytes);
	char wline[600];
	workload_settle(h, wline, sizeof wline); /* --workload on: attention's share, the bound (workload.h) */
	if (wline[0]) {
		results_note(&res, wline);
		note("%s", wline);
	}
	if (results_save(&res, o->out_path)) {
		exit_code = EXIT_FAILURE_RUN;
		goto out;
	}
	fprintf(stderr, "attnprof: %s: %zu attention call%s captured from %zu process%s%s%s\n", o->out_path, sum.calls,
		sum.calls == 1 ? "" : "s", sum.parts, sum.parts == 1 ? "" : "es",
		sum.unparsed ? " (some with their shape unknown: see warnings)" : "",
		sum.failed ? ", some not profiled (their records say why)" : "");
	if (program_failed) {
		warning("'%s' %s: the %zu calls captured before are kept in %s", o->argv[0], how, sum.calls, o->out_path);
		exit_code = EXIT_FAILURE_RUN;
	}
out:
	results_release(&res);
	if (!o->keep_parts)
		remove_dir(parts);
	else
		note("the processes' parts are kept in %s", parts);
	return exit_code;
}
