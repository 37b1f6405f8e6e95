/* export.h: results as flat rows for spreadsheets and pandas.
 *
 * One row per record with the keys source, variant, phase, dtype, batch,
 * heads, kv_heads, seqlen_q, seqlen_kv, head_dim, causal, time_ms,
 * time_ms_min, time_ms_max, tflops, peak_bytes, correct, rel_l2_err,
 * max_abs_err, pass, sm_clock_mhz, sm_clock_mhz_min, settle_ms (the last
 * three empty where not measured); then one key per metric under its CUPTI name (per-variant
 * totals), alloc.<buffer> per named allocation, model.<quantity> per
 * prediction.  Every row has every column (null/empty where a record has
 * no value), in the order first seen.
 */
#ifndef ATTNPROF_EXPORT_H
#define ATTNPROF_EXPORT_H

#include <stdio.h>

#include "results.h"

enum export_format { EXPORT_CSV, EXPORT_JSON };

/* Write records[0..n) to f and flush it.  0, or -1 on a write error
 * (nothing printed, errno set: the caller names the file).  CSV text cells
 * a spreadsheet would run as a formula are quoted with a leading '. */
int export_records(FILE *f, const struct record *records, size_t n, enum export_format fmt);

/* One CSV text cell, the one guard of every command's CSV (export, diff):
 * RFC 4180 quoting, and a cell a spreadsheet would run as a formula (= + -
 * @, a tab or CR first, after any leading blanks; not a plain number) kept
 * text by a leading '. */
void csv_string(FILE *f, const char *s);

/* s as a JSON string, quoted and escaped (the trace export writes it too). */
void json_string(FILE *f, const char *s);

#endif
