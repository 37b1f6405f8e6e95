/* figdata.h: a figure's numbers as text, for the writers that show a
 * figure as a picture they cannot read back (HTML, Markdown): its data as
 * a table of its records, one row each, with the values its kind draws,
 * and an alt text that carries those numbers (issue 46 item 5).
 *
 * One place builds them, figure_data: from the figure's description
 * (figdesc, issue 46 item 1: every value it draws with its record) where
 * its kind has one, else from the records the figure looked up while it
 * was drawn (rtrace.seen) with its kind's quantities (figdata.c's table)
 * read by rdata_quantity.  Either way every number is its record's,
 * formatted as the documents format it.
 * No Cairo; every build has it.
 */
#ifndef ATTNPROF_DOC_FIGDATA_H
#define ATTNPROF_DOC_FIGDATA_H

#include <stddef.h>

#include "doc/data.h"
#include "doc/docmodel.h"
#include "doc/figkind.h"

/* Fill T (zeroed here) with the data of figure block b.  From its
 * description (b->desc, doc/figdesc.h) where it has one with values: a
 * row per point (the record, the series, the value as the documents
 * format it, the model's where the figure draws one) and per free mark
 * (the roofline's kernels), at most TROWS (T->note says how many were
 * left out).  Else from recs[0..n), the records the figure looked up while
 * drawn: a row each, the record, a column per quantity of its kind that
 * some record has (figdata.c's table), the results file; values a record
 * lacks read "–".  0 rows: the figure draws no record (a teaching diagram). */
void figure_data(const struct rdata *rd, const struct dblock *b, const struct record *const *recs, size_t n,
		 struct dtable *T);
/* Figure block b's alt text, one line of plain text at most len bytes:
 * "Figure 3: " and its caption (else its title), then " Data: " and the
 * numbers of T, row by row ("flash2 fp16 B=4 H=16 N=4096 d=128: throughput
 * 347 TFLOP/s, median time 1.59 ms; …"); rows that do not fit are counted
 * ("… and 12 more rows in the figure's data table"). */
#define FIGURE_ALT_MAX 2400
void figure_alt(const struct dblock *b, const struct dtable *T, char *buf, size_t len);

#endif
