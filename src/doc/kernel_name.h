/* kernel_name.h: a kernel's name as tables and figures show it.
 *
 * An Itanium-mangled C++ name ("_ZN5flash9flash_fwdILi128E…") is shortened
 * to its qualified name with "<…>" for template arguments
 * ("flash::flash_fwd<…>"); a long plain name to its start and "…"; others
 * are kept.  Returns 1 when the name was shortened (the full one belongs in
 * a note).  Used by the measured tables (tabledata.c) and by the captured
 * program's tables and figures (capreview.c, fig_capture.c).
 */
#ifndef ATTNPROF_DOC_KERNEL_NAME_H
#define ATTNPROF_DOC_KERNEL_NAME_H

#include <stddef.h>

int kernel_short_name(const char *name, char *out, size_t len);

#endif
