/* test_torture.c: curl's torture mode for the loaders.  Every allocation
 * of loading a spec, a results file and a template fails in turn (the
 * first, then the second, ... until a load makes no allocation fail): each
 * load must fail cleanly with a message saying memory ran out (or succeed,
 * when the allocation was one it can do without), and never crash.
 *
 * The allocator below replaces malloc for the whole process, libyaml and
 * libc's strdup included (glibc calls the interposed malloc), with
 * __libc_malloc behind it.  Under ASan (make SAN=1), which owns malloc, the
 * test says it is skipped and why. */
#include "check.h"

#include <errno.h>

#include "doc/template.h"
#include "results.h"
#include "spec.h"
#include "util/error.h"

#if defined(__SANITIZE_ADDRESS__)
#define TORTURE 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TORTURE 0
#endif
#endif
#ifndef TORTURE
#define TORTURE 1
#endif

#if TORTURE
extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void __libc_free(void *);

static long fail_at = -1; /* the allocation that fails, counting from 0; -1: none */
static long allocs;       /* allocations since the count was reset */

static int fails(void)
{
	if (fail_at >= 0 && allocs++ == fail_at) {
		errno = ENOMEM; /* as malloc does */
		return 1;
	}
	return 0;
}

void *malloc(size_t n) { return fails() ? NULL : __libc_malloc(n); }
void *calloc(size_t m, size_t n) { return fails() ? NULL : __libc_calloc(m, n); }
void *realloc(void *p, size_t n) { return fails() ? NULL : __libc_realloc(p, n); }
void free(void *p) { __libc_free(p); }

static int load_spec(const char *path)
{
	struct spec s;
	spec_init(&s); /* spec_load's contract: initialised, released even after a failure */
	int rc = spec_load(&s, path);
	spec_release(&s);
	return rc;
}

/* A load that copes with a failed allocation must still read everything:
 * its records, written out again, are the same text as without the failure. */
static char *whole_text;
static int coped_differently;

static int load_results(const char *path)
{
	struct results r;
	int rc = results_load(&r, path, NULL);
	if (!rc) {
		long saved = fail_at;
		fail_at = -1; /* the comparison itself allocates freely */
		char *text = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&text, &len);
		results_write(&r, f);
		fclose(f);
		if (!whole_text)
			whole_text = text;
		else {
			coped_differently += strcmp(text, whole_text) != 0;
			free(text);
		}
		fail_at = saved;
		results_release(&r);
	}
	return rc;
}

static int load_template(const char *path)
{
	struct template t;
	int rc = template_load(&t, path);
	if (!rc)
		template_release(&t);
	return rc;
}

/* Fail allocation 0, 1, 2, ... of load(path) until a load has none left to fail. */
static void torture(int (*load)(const char *), const char *path)
{
	long tried = 0, failed_clean = 0, coped = 0, unclear = 0;
	for (long k = 0;; k++) {
		int old = error_quiet(1);
		error_clear();
		allocs = 0;
		fail_at = k;
		int rc = load(path);
		long made = allocs;
		fail_at = -1;
		error_quiet(old);
		if (made <= k) /* no allocation k: every one has been failed once */
			break;
		tried++;
		if (rc == 0) {
			coped++;
		} else if (strstr(error_last(), "out of memory") || strstr(error_last(), "memory")) {
			failed_clean++;
		} else if (unclear++ < 5) {
			printf("    %s: allocation %ld failed, and the message says '%s'\n", path, k, error_last());
		}
	}
	printf("    %s: %ld allocations failed in turn: %ld clean errors, %ld coped with, %ld unclear\n", path, tried,
	       failed_clean, coped, unclear);
	CHECK(tried > 10);
	CHECK_INT(unclear, 0);
}

static void test_spec_torture(void)
{
	torture(load_spec, "experiments/smoke.yaml");
	torture(load_spec, "experiments/decode.yaml");
}

static void test_results_torture(void)
{
	const char *files[] = { "tests/fixtures/results/sdpa-written.yaml", "tests/fixtures/results/cut/in-timing.yaml" };
	for (int i = 0; i < 2; i++) {
		free(whole_text);
		whole_text = NULL;
		coped_differently = 0;
		CHECK_INT(load_results(files[i]), 0); /* the text without failures */
		torture(load_results, files[i]);
		CHECK_INT(coped_differently, 0);
	}
	free(whole_text);
	whole_text = NULL;
}

static void test_template_torture(void)
{
	torture(load_template, "templates/slides.yaml");
}
#else
static void test_spec_torture(void) { SKIP("ASan owns malloc in this build: make test (without SAN) runs the torture"); }
static void test_results_torture(void) { SKIP("ASan owns malloc in this build: make test (without SAN) runs the torture"); }
static void test_template_torture(void) { SKIP("ASan owns malloc in this build: make test (without SAN) runs the torture"); }
#endif

TESTS(test_spec_torture, test_results_torture, test_template_torture)
