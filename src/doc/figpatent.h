/* figpatent.h: the builders of the patent views that select records or
 * name parts (figpatent.c), for src/render/fig_patent.c to draw (issue 46).
 *
 * A patent sheet names no software and prints no sentence: its parts are
 * reference characters ("Q", "Kⱼ") and what a numeral names them ("query
 * matrix"), chosen here from the descriptors and the records, and the
 * renderer only places them.  The builders fill struct figdesc
 * (doc/figdesc.h) as the chart and diagram builders do; every value drawn
 * carries its record and is traced (figdesc_trace) for records-check. */
#ifndef ATTNPROF_DOC_FIGPATENT_H
#define ATTNPROF_DOC_FIGPATENT_H

#include "doc/figdesc.h"

/* A part of a patent view by its key: kind 0 a matrix in memory (a
 * descriptor buffer's name: "Q", "S", "O_acc"), 1 a tile on chip ("Q_i",
 * "S_ij"); *chr its reference character, *what what its numeral names it.
 * 0, or 1 when the key has none (then both are left as they were). */
int patent_part_name(int kind, const char *key, const char **chr, const char **what);

/* What a series is in a patent's words: its descriptor's patent term, else
 * by what it computes; a series without a descriptor (a library measured
 * beside attnprof's variants) by its place, nth_ref counting them from 0.
 * The text, in buf where it is made (len bytes). */
const char *patent_series_generic(const char *key, int nth_ref, char *buf, size_t len);

/* patent-throughput: one panel at fig_sel (any N), a category per N, a
 * series per main series there (SERIES_MAIN, 8 at most; generic its part),
 * points the TFLOP/s (no whiskers: a patent's bars have none), hi the
 * largest on scale; the notice where no series or no N is at these
 * conditions. */
int figdesc_patent_throughput(const struct rdata *rd, const struct figopts *o, struct figdesc *d);

/* patent-ladder: figdesc_ladder's rungs with their TFLOP/s only (series 0,
 * not the step: the sheet draws no step), and a "rung" part per rung with a
 * TFLOP/s value (v its category, what its numeral's: the first tiled
 * computation, the changes, the second) in the order drawn; the notice
 * where fewer than two rungs have one. */
int figdesc_patent_ladder(const struct rdata *rd, const struct figopts *o, struct figdesc *d);

/* patent-capture-throughput: one panel, a category per KV length of the
 * captured forward (pass: bwd, backward) prefill calls of known shape (cat
 * the length), a series per captured implementation with such calls
 * (CAP_PATENT_IMPLS at most; generic "bars of the first captured
 * computation"), then the conventional and the subject variant
 * (capture_reference at the same shape); points the record's TFLOP/s, hi
 * the largest on scale; the notice where none is captured. */
int figdesc_patent_capture_throughput(const struct rdata *rd, const struct figopts *o, struct figdesc *d);

/* patent-dataflow: of the variant patent_view draws, a "matrix" part per
 * descriptor buffer in its order (name the buffer, label its character,
 * what its part; state "nxn" for the N×N matrices, drawn twice as tall),
 * a "tile" part per on-chip tile (name the tile, state shared or
 * registers, label, what) or, for a library variant, a "kernel" part per
 * kernel drawn (4 at most: v its place, what its part) and "size" kernels
 * (v its kernels); the notice where the variant has no descriptor. */
int figdesc_patent_dataflow(const struct rdata *rd, const struct figopts *o, struct figdesc *d);

#endif
