/* figdata.h: a figure's numbers as text, for the writers that show a
 * figure as a picture they cannot read back (HTML, Markdown): its data as
 * a table of its records, one row each, with the values its kind draws,
 * and an alt text that carries those numbers (issue 46 item 5).
 *
 * One place builds them, figure_data.  Its rows today are the records
 * the figure looked up while it was drawn (rtrace.seen), its columns its
 * kind's quantities (figdata.c's table) read by rdata_quantity, so every
 * number is its record's, formatted as the documents format it.  When a
 * kind has a figure description (figdesc, src/doc, issue 46 item 1), the
 * description's points are to feed the same table here instead.
 * No Cairo; every build has it.
 */
#ifndef ATTNPROF_DOC_FIGDATA_H
#define ATTNPROF_DOC_FIGDATA_H

#include <stddef.h>

#include "doc/data.h"
#include "doc/figkind.h"

/* Fill T (zeroed here) with the data of a figure of kind: a row per
 * record of recs[0..n) in that order (at most TROWS), the record, then a
 * column per quantity of the kind that some record has, then the results
 * file.  Values a record lacks read "–".  0 rows: the figure draws no
 * record (a diagram of a descriptor, a teaching figure). */
void figure_data(const struct rdata *rd, const char *kind, const struct record *const *recs, size_t n,
		 struct dtable *T);
/* Figure block b's alt text, one line of plain text at most len bytes:
 * "Figure 3: " and its caption (else its title), then " Data: " and the
 * numbers of T, row by row ("flash2 fp16 B=4 H=16 N=4096 d=128: throughput
 * 347 TFLOP/s, median time 1.59 ms; …"); rows that do not fit are counted
 * ("… and 12 more rows in the figure's data table"). */
struct dblock;
#define FIGURE_ALT_MAX 2400
void figure_alt(const struct dblock *b, const struct dtable *T, char *buf, size_t len);

#endif
