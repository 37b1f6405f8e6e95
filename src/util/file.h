/* file.h: reading a whole input file, with a size limit and a message that
 * names the file. */
#ifndef ATTNPROF_FILE_H
#define ATTNPROF_FILE_H

#include <stddef.h>

/*
 * Read path into a NUL-terminated malloc'd buffer (*out, *len).  A file
 * larger than max is refused.  what names the kind of file in messages
 * ("spec", "results file").  0, or -1 after error().
 */
int read_whole_file(const char *path, size_t max, const char *what, char **out, size_t *len);

#endif
