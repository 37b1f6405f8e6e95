/* yamlout.h: writing YAML through libyaml's emitter, so quoting and
 * escaping are always right (spec text, kernel names with <>, Unicode).
 * Errors are sticky: check yamlout_finish() once at the end. */
#ifndef ATTNPROF_YAMLOUT_H
#define ATTNPROF_YAMLOUT_H

#include <stdint.h>
#include <stdio.h>
#include <yaml.h>

struct yamlout {
	yaml_emitter_t em;
	int failed;
};

int yamlout_open(struct yamlout *y, FILE *f);
/* Close the document; 0 or -1 (the first failure). */
int yamlout_finish(struct yamlout *y);

void yo_map(struct yamlout *y, int flow);
void yo_map_end(struct yamlout *y);
void yo_seq(struct yamlout *y, int flow);
void yo_seq_end(struct yamlout *y);
void yo_str(struct yamlout *y, const char *s);      /* NULL -> ~ */
void yo_literal(struct yamlout *y, const char *s);  /* block literal | */
void yo_plain(struct yamlout *y, const char *s);    /* unquoted scalar */
void yo_int(struct yamlout *y, long long v);
void yo_u64(struct yamlout *y, uint64_t v);
void yo_double(struct yamlout *y, double v);        /* shortest round-trip, .nan/.inf */
void yo_bool(struct yamlout *y, int v);
void yo_null(struct yamlout *y);

/* Shortest "%.Ng" that reads back as v. */
const char *format_double(double v, char *buf, size_t len);

#endif
