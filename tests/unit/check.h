/* check.h: a minimal unit-test harness.
 *
 * A test file defines `static void test_x(void)` functions and lists them:
 *
 *     TESTS(test_x, test_y)
 *
 * Each CHECK that fails prints "file:line: ..." and marks the test failed;
 * SKIP("reason") marks it skipped.  The binary prints one line per test
 * ("ok", "FAIL", "skip") and a closing "# N passed, N failed, N skipped"
 * that tests/run.sh adds up.
 */
#ifndef ATTNPROF_CHECK_H
#define ATTNPROF_CHECK_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int check_failed_;
static int check_skipped_;
static const char *check_skip_reason_;

#define CHECK(cond) do { if (!(cond)) { \
	printf("    %s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond); \
	check_failed_ = 1; } } while (0)

#define CHECK_INT(a, b) do { long long a_ = (long long)(a), b_ = (long long)(b); \
	if (a_ != b_) { printf("    %s:%d: %s == %lld, expected %lld\n", \
		__FILE__, __LINE__, #a, a_, b_); check_failed_ = 1; } } while (0)

#define CHECK_NEAR(a, b, rel) do { double a_ = (a), b_ = (b); \
	if (!(fabs(a_ - b_) <= (rel) * fabs(b_) + 1e-300)) { \
		printf("    %s:%d: %s == %.17g, expected %.17g (rel %g)\n", \
		__FILE__, __LINE__, #a, a_, b_, (double)(rel)); check_failed_ = 1; } } while (0)

#define CHECK_STR(a, b) do { const char *a_ = (a), *b_ = (b); \
	if (!a_ || !b_ || strcmp(a_, b_)) { printf("    %s:%d: %s == \"%s\", expected \"%s\"\n", \
		__FILE__, __LINE__, #a, a_ ? a_ : "(null)", b_ ? b_ : "(null)"); \
		check_failed_ = 1; } } while (0)

#define CHECK_CONTAINS(hay, needle) do { const char *h_ = (hay), *n_ = (needle); \
	if (!h_ || !strstr(h_, n_)) { printf("    %s:%d: \"%s\" does not contain \"%s\"\n", \
		__FILE__, __LINE__, h_ ? h_ : "(null)", n_); check_failed_ = 1; } } while (0)

#define SKIP(reason) do { check_skipped_ = 1; check_skip_reason_ = (reason); return; } while (0)

typedef void (*check_fn)(void);
struct check_case { const char *name; check_fn fn; };

static int check_run_(const struct check_case *cases, size_t n, const char *file)
{
	int passed = 0, failed = 0, skipped = 0;
	const char *only = getenv("CHECK_ONLY");
	for (size_t i = 0; i < n; i++) {
		if (only && !strstr(cases[i].name, only))
			continue;
		check_failed_ = check_skipped_ = 0;
		cases[i].fn();
		if (check_skipped_) {
			printf("skip %s: %s\n", cases[i].name, check_skip_reason_ ? check_skip_reason_ : "");
			skipped++;
		} else if (check_failed_) {
			printf("FAIL %s\n", cases[i].name);
			failed++;
		} else {
			printf("ok   %s\n", cases[i].name);
			passed++;
		}
		fflush(stdout);
	}
	printf("# %s: %d passed, %d failed, %d skipped\n", file, passed, failed, skipped);
	return failed ? 1 : 0;
}

#define CHECK_NAMES_(...) #__VA_ARGS__
#define TESTS(...) \
	int main(void) { \
		check_fn fns[] = { __VA_ARGS__ }; \
		static char names[] = CHECK_NAMES_(__VA_ARGS__); \
		struct check_case cases[sizeof(fns) / sizeof(fns[0])]; \
		char *save = NULL, *tok = strtok_r(names, ", ", &save); \
		for (size_t i = 0; i < sizeof(fns) / sizeof(fns[0]); i++) { \
			cases[i].name = tok ? tok : "?"; cases[i].fn = fns[i]; \
			tok = strtok_r(NULL, ", ", &save); \
		} \
		return check_run_(cases, sizeof(fns) / sizeof(fns[0]), __FILE__); \
	}

/* Read a whole file (NUL-terminated); NULL on failure.  For fixtures. */
static inline char *check_slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f) return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *buf = malloc((size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) { free(buf); buf = NULL; }
	if (buf) { buf[n] = '\0'; if (len) *len = (size_t)n; }
	fclose(f);
	return buf;
}

#endif
