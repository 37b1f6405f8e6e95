/* file.c: see file.h. */
#include "file.h"
#include "error.h"
#include "ustr.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <limits.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static int in_txn; /* outfile_begin() .. outfile_end() */
static int pending_same(const char *path);
static int claim_output(const char *path);

/* The files this run read: an output must not replace one of them. */
static struct input {
	dev_t dev;
	ino_t ino;
	struct timespec ctime; /* an inode number is reused once its file is deleted */
	const char *what;
} inputs[256];
static size_t ninputs;

static int same_input(const struct input *in, const struct stat *st)
{
	return in->dev == st->st_dev && in->ino == st->st_ino && in->ctime.tv_sec == st->st_ctim.tv_sec &&
	       in->ctime.tv_nsec == st->st_ctim.tv_nsec;
}

static void remember_input(FILE *f, const char *what)
{
	struct stat st;
	if (fstat(fileno(f), &st) || !S_ISREG(st.st_mode))
		return; /* a pipe or a device cannot be written over by rename */
	for (size_t i = 0; i < ninputs; i++)
		if (same_input(&inputs[i], &st))
			return;
	if (ninputs < sizeof(inputs) / sizeof(*inputs))
		inputs[ninputs++] = (struct input){ st.st_dev, st.st_ino, st.st_ctim, what };
}

int file_is_input(const char *path, const char *keep_what, const char **what_out)
{
	struct stat st;
	if (stat(path, &st))
		return 0;
	for (size_t i = 0; i < ninputs; i++)
		if (same_input(&inputs[i], &st) && !(keep_what && !strcmp(keep_what, inputs[i].what))) {
			if (what_out)
				*what_out = inputs[i].what;
			return 1;
		}
	return 0;
}

int file_check_regular(const char *path, const char *what)
{
	struct stat st;
	if (stat(path, &st))
		return error("cannot open %s '%s': %s", what, path, strerror(errno));
	if (!S_ISREG(st.st_mode))
		return error("%s '%s' is %s, not a regular file: name the file itself", what, path,
			     S_ISDIR(st.st_mode) ? "a folder" : S_ISFIFO(st.st_mode) ? "a pipe (FIFO)"
			     : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device" : S_ISSOCK(st.st_mode) ? "a socket"
			     : "not a file");
	return 0;
}

int read_whole_file(const char *path, size_t max, const char *what, char **out, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return error("cannot open %s '%s': %s", what, path, strerror(errno));
	remember_input(f, what);
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap + 1);
	while (buf) {
		n += fread(buf + n, 1, cap - n, f);
		if (n < cap || ferror(f))
			break;
		if (cap > max) {
			fclose(f);
			free(buf);
			return error("%s '%s' is larger than %zu bytes: not read", what, path, max);
		}
		char *p = realloc(buf, 2 * cap + 1);
		if (!p) {
			free(buf);
			buf = NULL;
			break;
		}
		buf = p;
		cap *= 2;
	}
	int bad = ferror(f);
	fclose(f);
	if (!buf)
		return error("out of memory reading %s '%s'", what, path);
	if (bad) {
		free(buf);
		return error("cannot read %s '%s': %s", what, path, strerror(errno));
	}
	buf[n] = '\0';
	*out = buf;
	*len = n;
	return 0;
}

void path_sibling(const char *path, const char *ext, const char *suffix, char *out, size_t len)
{
	size_t n = strlen(path), e = strlen(ext);
	if (n > e && !strcasecmp(path + n - e, ext))
		n -= e;
	const char *slash = memrchr(path, '/', n);
	size_t dir = slash ? (size_t)(slash + 1 - path) : 0, stem = n - dir, sl = strlen(suffix);
	if (stem + sl <= NAME_MAX) {
		snprintf(out, len, "%.*s%s", (int)n, path, suffix);
		return;
	}
	/* too long for a name: the stem's start (at a character) and a hash of it all */
	unsigned long long h = 1469598103934665603ULL;
	for (size_t i = dir; i < n; i++)
		h = (h ^ (unsigned char)path[i]) * 1099511628211ULL;
	size_t keep = NAME_MAX - sl - 17;
	keep = utf8_boundary(path + dir, keep);
	snprintf(out, len, "%.*s-%016llx%s", (int)(dir + keep), path, h, suffix);
}

int outfile_errno;

int outfile_open(struct outfile *o, const char *path, const char *keep_what)
{
	const char *what;
	o->f = NULL;
	o->path = path;
	outfile_errno = 0;
	o->tmp[0] = '\0';
	if (file_is_input(path, keep_what, &what)) {
		error("refusing to write '%s': it is the %s this command reads (name another output)", path, what);
		return -2;
	}
	if (in_txn && (pending_same(path) || claim_output(path))) {
		error("refusing to write '%s' twice: this command already writes it (name another output)", path);
		return -2;
	}
	/* a write past RLIMIT_FSIZE fails with EFBIG ("File too large") and
	 * the temporary is removed, instead of the signal killing the command
	 * with the temporary left behind */
	signal(SIGXFSZ, SIG_IGN);
	struct stat st;
	int exists = stat(path, &st) == 0;
	if (exists && S_ISDIR(st.st_mode))
		return error("cannot write '%s': it is a folder", path);
	if (exists && !S_ISREG(st.st_mode)) {
		o->f = fopen(path, "wb");
		if (!o->f)
			return error("cannot write '%s': %s", path, strerror(errno));
		return 0;
	}
	char dirbuf[4096];
	const char *slash = strrchr(path, '/');
	snprintf(dirbuf, sizeof(dirbuf), "%s", path);
	const char *dir = dirname(dirbuf);
	/* ".NAME.tmp.XXXXXX", NAME cut at a character so the temporary name fits
	 * NAME_MAX whenever the final name does (a 255-byte name is writable) */
	const char *base = slash ? slash + 1 : path;
	const size_t extra = strlen("..tmp.XXXXXX");
	size_t keep = strlen(base);
	if (keep + extra > NAME_MAX)
		keep = utf8_boundary(base, NAME_MAX - extra);
	int n = snprintf(o->tmp, sizeof(o->tmp), "%s/.%.*s.tmp.XXXXXX", dir, (int)keep, base);
	if (n < 0 || (size_t)n >= sizeof(o->tmp)) {
		o->tmp[0] = '\0';
		return error("cannot write '%s': the path is too long", path);
	}
	int fd = mkstemp(o->tmp);
	if (fd < 0) {
		int e = errno;
		o->tmp[0] = '\0';
		return error("cannot write '%s': cannot create a temporary file in '%s': %s", path, dir, strerror(e));
	}
	mode_t mode;
	if (exists) {
		mode = st.st_mode & 07777;
	} else {
		mode_t mask = umask(022);
		umask(mask);
		mode = 0666 & ~mask;
	}
	if (fchmod(fd, mode) || !(o->f = fdopen(fd, "wb"))) {
		int e = errno;
		close(fd);
		unlink(o->tmp);
		o->tmp[0] = '\0';
		return error("cannot write '%s': %s", path, strerror(e));
	}
	return 0;
}

static void unclaim_output(const char *path);

void outfile_abort(struct outfile *o)
{
	if (in_txn && o->path)
		unclaim_output(o->path); /* not written: it may be opened again */
	if (o->f)
		fclose(o->f);
	if (o->tmp[0])
		unlink(o->tmp);
	o->f = NULL;
	o->tmp[0] = '\0';
}

/* ---- the output transaction ---------------------------------------------- */

/* Outputs written whole but not yet renamed into place (outfile_begin). */
static struct pending {
	char *tmp, *path, *dir; /* dir: path's folder, for the lock and its fsync */
} *pend;
static size_t npend, apend;

void outfile_begin(void)
{
	in_txn = 1;
}

static void sync_dir_of(const char *path)
{
	char dirbuf[4096];
	snprintf(dirbuf, sizeof(dirbuf), "%s", path);
	int dfd = open(dirname(dirbuf), O_RDONLY | O_DIRECTORY);
	if (dfd >= 0) {
		fsync(dfd);
		close(dfd);
	}
}

const char *outfile_pending(const char *path)
{
	for (size_t i = 0; i < npend; i++)
		if (!strcmp(pend[i].path, path))
			return pend[i].tmp;
	return path;
}

/* The outputs this transaction has opened, committed or not: by the
 * canonical name of their folder and their own name, and by device and
 * inode when they exist, so two names of one file (a hard link, "./x") are
 * one output. */
static struct claimed {
	char *name;
	dev_t dev;
	ino_t ino;
	int have;
} *claimed;
static size_t nclaimed, aclaimed;

static char *canonical_name(const char *path)
{
	char dirbuf[4096], basebuf[4096], real[PATH_MAX];
	snprintf(dirbuf, sizeof(dirbuf), "%s", path);
	snprintf(basebuf, sizeof(basebuf), "%s", path);
	const char *dir = dirname(dirbuf), *base = basename(basebuf);
	if (!realpath(dir, real))
		snprintf(real, sizeof(real), "%s", dir);
	size_t n = strlen(real) + strlen(base) + 2;
	char *out = malloc(n);
	if (out)
		snprintf(out, n, "%s/%s", real, base);
	return out;
}

/* 1 when path is an output already opened in this transaction, else
 * remembers it and returns 0. */
static int claim_output(const char *path)
{
	struct stat st;
	int have = !stat(path, &st) && S_ISREG(st.st_mode);
	char *name = canonical_name(path);
	for (size_t i = 0; i < nclaimed; i++)
		if ((name && !strcmp(name, claimed[i].name)) ||
		    (have && claimed[i].have && claimed[i].dev == st.st_dev && claimed[i].ino == st.st_ino)) {
			free(name);
			return 1;
		}
	if (!name)
		return 0;
	if (nclaimed == aclaimed) {
		size_t cap = aclaimed ? 2 * aclaimed : 8;
		struct claimed *p = realloc(claimed, cap * sizeof(*p));
		if (!p) {
			free(name);
			return 0;
		}
		claimed = p, aclaimed = cap;
	}
	claimed[nclaimed++] = (struct claimed){ name, have ? st.st_dev : 0, have ? st.st_ino : 0, have };
	return 0;
}

static void unclaim_output(const char *path)
{
	char *name = canonical_name(path);
	for (size_t i = 0; name && i < nclaimed; i++)
		if (!strcmp(name, claimed[i].name)) {
			free(claimed[i].name);
			claimed[i] = claimed[--nclaimed];
			break;
		}
	free(name);
}

/* A path this transaction already writes (by name, or the same file). */
static int pending_same(const char *path)
{
	struct stat a, b;
	int have_a = !stat(path, &a);
	for (size_t i = 0; i < npend; i++) {
		if (!strcmp(pend[i].path, path))
			return 1;
		if (have_a && !stat(pend[i].path, &b) && a.st_dev == b.st_dev && a.st_ino == b.st_ino)
			return 1;
	}
	return 0;
}

/* What the rename phase did: how many were renamed, and why it stopped. */
struct rename_result {
	size_t done;
	int err;
};

/* Rename every pending file into place, the first output's folder locked
 * (flock) so two commands writing one set do not interleave, then make the
 * renames durable.  System calls only: it may run in a child (below). */
static struct rename_result rename_phase(int lfd)
{
	struct rename_result res = { 0, 0 };
	for (; res.done < npend; res.done++)
		if (rename(pend[res.done].tmp, pend[res.done].path)) {
			res.err = errno;
			break;
		}
	for (size_t i = 0; i < res.done; i++) {
		if (i && !strcmp(pend[i].dir, pend[i - 1].dir))
			continue;
		int dfd = open(pend[i].dir, O_RDONLY | O_DIRECTORY);
		if (dfd >= 0) {
			fsync(dfd);
			close(dfd);
		}
	}
	if (lfd >= 0)
		close(lfd); /* and the lock with it, once the parent's copy is closed too */
	return res;
}

int outfile_end(int ok)
{
	in_txn = 0;
	int rc = 0;
	struct rename_result res = { 0, 0 };
	if (ok && npend) {
		/* A child does the renames: a SIGKILL of this command once it has
		 * decided to commit (the kill loop's) does not stop it half way, so
		 * the set is the old one or the new one whole. */
		/* the lock is taken before the child starts and held by both
		 * until the renames are done: whoever waits for it (a second
		 * writer, a reader with flock(1)) sees the set whole */
		int lfd = open(pend[0].dir, O_RDONLY | O_DIRECTORY);
		if (lfd >= 0)
			flock(lfd, LOCK_EX);
		int pfd[2] = { -1, -1 };
		pid_t pid = -1;
		if (!pipe(pfd) && (pid = fork()) < 0) {
			close(pfd[0]);
			close(pfd[1]);
		}
		if (pid == 0) {
			close(pfd[0]);
			res = rename_phase(lfd);
			ssize_t w = write(pfd[1], &res, sizeof(res));
			_exit(w == (ssize_t)sizeof(res) ? 0 : 1);
		}
		if (pid > 0) {
			close(pfd[1]);
			ssize_t got = read(pfd[0], &res, sizeof(res));
			close(pfd[0]);
			int st;
			while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
				;
			if (lfd >= 0)
				close(lfd);
			if (got != (ssize_t)sizeof(res)) {
				res.done = 0; /* cannot tell: look at the temporaries */
				for (size_t i = 0; i < npend; i++)
					if (access(pend[i].tmp, F_OK))
						res.done = i + 1;
				res.err = res.done < npend ? EIO : 0;
			}
		} else {
			res = rename_phase(lfd); /* no pipe or no child: here */
			lfd = -1;
		}
		if (res.err)
			rc = error("cannot write '%s': %s", pend[res.done].path, strerror(res.err));
	}
	for (size_t i = 0; i < npend; i++) {
		if (i >= res.done)
			unlink(pend[i].tmp); /* not renamed: the old output stays as it was */
		free(pend[i].tmp);
		free(pend[i].path);
		free(pend[i].dir);
	}
	free(pend);
	pend = NULL;
	npend = apend = 0;
	for (size_t i = 0; i < nclaimed; i++)
		free(claimed[i].name);
	free(claimed);
	claimed = NULL;
	nclaimed = aclaimed = 0;
	return rc;
}

int outfile_commit(struct outfile *o)
{
	int e = 0;
	errno = 0;
	/* ferror too: a write that failed earlier (a full disk, /dev/full) may
	 * have left nothing for fflush to fail on */
	if (ferror(o->f) || fflush(o->f) || ferror(o->f) || (o->tmp[0] && fsync(fileno(o->f))))
		e = errno ? errno : outfile_errno ? outfile_errno : EIO;
	outfile_errno = 0;
	if (fclose(o->f) && !e)
		e = errno ? errno : EIO;
	o->f = NULL;
	if (!e && o->tmp[0] && in_txn) {
		/* renamed with the command's other outputs, by outfile_end */
		if (npend == apend) {
			size_t cap = apend ? 2 * apend : 8;
			struct pending *p = realloc(pend, cap * sizeof(*p));
			if (!p)
				e = ENOMEM;
			else
				pend = p, apend = cap;
		}
		char dirbuf[4096];
		snprintf(dirbuf, sizeof(dirbuf), "%s", o->path);
		char *t = e ? NULL : strdup(o->tmp), *q = e ? NULL : strdup(o->path), *d = e ? NULL : strdup(dirname(dirbuf));
		if (!e && (!t || !q || !d)) {
			free(t);
			free(q);
			free(d);
			e = ENOMEM;
		}
		if (!e) {
			pend[npend++] = (struct pending){ t, q, d };
			o->tmp[0] = '\0';
			return 0;
		}
	}
	if (!e && o->tmp[0] && rename(o->tmp, o->path))
		e = errno;
	if (e) {
		if (o->tmp[0])
			unlink(o->tmp);
		o->tmp[0] = '\0';
		return error("cannot write '%s': %s", o->path, strerror(e));
	}
	if (o->tmp[0])
		sync_dir_of(o->path); /* make the rename itself durable */
	o->tmp[0] = '\0';
	return 0;
}
