/* file.h: reading a whole input file, with a size limit and a message that
 * names the file; writing an output so that it is either the old file or
 * the complete new one, never a mix, and never one of the inputs. */
#ifndef ATTNPROF_FILE_H
#define ATTNPROF_FILE_H

#include <stddef.h>
#include <stdio.h>

/*
 * Read path into a NUL-terminated malloc'd buffer (*out, *len).  A file
 * larger than max is refused.  what names the kind of file in messages
 * ("spec", "results file").  The file is remembered as an input of this
 * run (device and inode), so no output of the run can replace it (see
 * outfile_open).  0, or -1 after error().
 */
int read_whole_file(const char *path, size_t max, const char *what, char **out, size_t *len);

/* 0 when path (links followed) is a regular file, else -1 after an error
 * naming what it is: a FIFO or /dev/zero would be read without end. */
int file_check_regular(const char *path, const char *what);

/*
 * An output being written.  outfile_open() makes a temporary file in the
 * same folder as path (".NAME.tmp.XXXXXX", the mode the old file had, or
 * 0666 less the umask); outfile_commit() flushes it to disk and renames it
 * over path, so a reader, a crash or a second writer sees the old file or
 * the new one whole.  A path that exists and is not a regular file (a
 * device such as /dev/null, a pipe) is written directly.
 *
 * path must not be a file this run read as an input of another kind than
 * keep_what (NULL: of any kind): 'export r.yaml -o r.yaml' is refused
 * before anything is written.  record continues the results file it read
 * with --resume, so it passes "results file".
 *
 * f is the stream to write.  Every function returns 0, or -1 after
 * error() (outfile_open: -2 when path is an input, a usage error); commit
 * and abort leave no temporary file behind.
 */
struct outfile {
	FILE *f;
	const char *path;
	char tmp[4096]; /* "" when writing path directly */
};

int outfile_open(struct outfile *o, const char *path, const char *keep_what);
/*
 * One command's outputs as one transaction.  After outfile_begin(),
 * outfile_commit() writes a file whole (flushed, checked, fsynced) but
 * leaves it under its temporary name; outfile_end(1) renames every such
 * file into place, in the order committed, holding the first output's
 * folder locked (flock) so two commands writing one set leave one of them
 * whole; outfile_end(0) — a command that failed — removes them, so every
 * previous output stays byte for byte as it was.  An output named twice in
 * one transaction is refused (-2).  outfile_pending(path) is the temporary
 * file of a committed, not yet renamed path (path itself otherwise): to
 * read back what was written (the layout's hash of its PDF).
 */
void outfile_begin(void);
int outfile_end(int ok);
const char *outfile_pending(const char *path);

/* The errno of a write that failed before commit (a writer such as Cairo's
 * stream callback sets it; stdio may report the failure later, without it). */
extern int outfile_errno;
int outfile_commit(struct outfile *o);
void outfile_abort(struct outfile *o);

/*
 * The name of a file that goes beside path: path less its extension ext
 * (compared without case; kept when path does not end so) and suffix
 * ("review.PDF", ".pdf", ".layout" -> "review.layout").  A name that would
 * pass NAME_MAX keeps its start, cut at a character, and ends with a hash
 * of the whole stem, so it can be written whenever path can, two long names
 * stay apart, and a reader (lint) derives the same name.
 */
void path_sibling(const char *path, const char *ext, const char *suffix, char *out, size_t len);

/* Non-zero when path is a file this run read (not counting inputs read as
 * keep_what, when given); *what_out is then the kind it was read as. */
int file_is_input(const char *path, const char *keep_what, const char **what_out);

#endif
