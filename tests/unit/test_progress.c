/* test_progress.c: when a long command says its steps (src/util/progress.h):
 * on a terminal unasked, one line rewritten; elsewhere only with --progress,
 * a line per step; --quiet never; a message clears the open step line. */
#include "check.h"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "util/error.h"
#include "util/progress.h"

/* stderr onto fd (a file or a terminal), the old one kept in *saved */
static void stderr_to(int fd, int *saved)
{
	fflush(stderr);
	*saved = dup(STDERR_FILENO);
	dup2(fd, STDERR_FILENO);
}

static void stderr_back(int saved)
{
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
}

/* what was written to file fd from its start */
static size_t read_back(int fd, char *buf, size_t len)
{
	lseek(fd, 0, SEEK_SET);
	ssize_t n = read(fd, buf, len - 1);
	buf[n > 0 ? n : 0] = '\0';
	return n > 0 ? (size_t)n : 0;
}

static void test_not_a_terminal(void)
{
	char path[] = "/tmp/attnprof-progress-XXXXXX";
	int fd = mkstemp(path), saved;
	CHECK(fd >= 0);
	if (fd < 0)
		return;
	unlink(path);
	stderr_to(fd, &saved);
	struct progress off, forced, quiet;
	progress_init(&off, 0, 0);
	progress_init(&forced, 1, 0);
	progress_init(&quiet, 1, 1);
	progress_step(&off, "unasked %d", 1);
	progress_step(&quiet, "quiet %d", 2);
	progress_step(NULL, "nobody %d", 3);
	progress_step(&forced, "page %d of %d", 2, 5);
	progress_step(&forced, "page %d of %d", 3, 5);
	stderr_back(saved);
	CHECK_INT(off.on, 0);
	CHECK_INT(forced.on, 1);
	CHECK_INT(forced.tty, 0);
	CHECK_INT(quiet.on, 0);
	char buf[512];
	read_back(fd, buf, sizeof buf);
	CHECK_STR(buf, "attnprof: page 2 of 5\nattnprof: page 3 of 5\n");
	close(fd);
}

static void test_terminal(void)
{
	int m = posix_openpt(O_RDWR | O_NOCTTY);
	if (m < 0 || grantpt(m) || unlockpt(m)) {
		if (m >= 0)
			close(m);
		SKIP("no pseudo-terminal here");
	}
	int s = open(ptsname(m), O_RDWR | O_NOCTTY), saved;
	CHECK(s >= 0);
	if (s < 0) {
		close(m);
		return;
	}
	stderr_to(s, &saved);
	struct progress unasked, quiet;
	progress_init(&unasked, 0, 0);
	progress_init(&quiet, 0, 1);
	progress_step(&quiet, "never");
	progress_step(&unasked, "figure %d of %d", 1, 2);
	progress_step(&unasked, "figure %d of %d", 2, 2);
	int old = error_quiet(0);
	note("done");
	error_quiet(old);
	stderr_back(saved);
	CHECK_INT(unasked.on, 1);
	CHECK_INT(unasked.tty, 1);
	CHECK_INT(quiet.on, 0);
	char buf[512] = "";
	size_t len = 0;
	fcntl(m, F_SETFL, O_NONBLOCK);
	for (ssize_t n; len < sizeof buf - 1 && (n = read(m, buf + len, sizeof buf - 1 - len)) > 0;)
		len += (size_t)n;
	buf[len] = '\0';
	/* each step rewrites the line; the note erases the last one and ends its own
	 * (the terminal turns the note's \n into \r\n) */
	CHECK_STR(buf, "\r\033[Kattnprof: figure 1 of 2\r\033[Kattnprof: figure 2 of 2\r\033[Kattnprof: note: done\r\n");
	close(s);
	close(m);
}

TESTS(test_not_a_terminal, test_terminal)
