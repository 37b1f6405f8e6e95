/* conditions.h: the conditions a results header records about the GPU it
 * was measured on (GPU half only). */
#ifndef ATTNPROF_CONDITIONS_H
#define ATTNPROF_CONDITIONS_H

#include <stddef.h>

#include "attn.h"
#include "results.h"

/* Fill g (owned strings) from device 0, and d with the raw device facts.
 * 0, or -1 via error(). */
int gpu_conditions(struct gpu_info *g, struct attn_device *d);

/* The current time as ISO 8601 UTC ("2026-12-01T09:00:00Z"). */
void conditions_date(char *buf, size_t len);

#endif
