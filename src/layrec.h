/* layrec.h: the layout record — what a document's layout placed, for the linter.
 *
 * While `attnprof report` draws the real PDF, the draw layer (render/draw.c)
 * adds every text line, stroked line segment, fill and figure box it placed
 * to a record, in PDF points from the page's top-left corner.  The record
 * is written beside the PDF (review.pdf -> review.layout) with the style's
 * minimum type sizes and each page's margins, so the linter (lint.h) needs
 * neither Cairo nor the style table: the limits travel with the document.
 *
 * File format (one item a line, fields separated by spaces; docs/templates.md):
 *
 *     attnprof-layout/1
 *     pdf BYTES HASH                   size and FNV-1a hash of the PDF written
 *     style NAME                       the style (selects the linter profile)
 *     min ROLE PT                      one per role: body, text, figure
 *     page N W H MT MR MB ML           page size and margins
 *     fig N ID X0 Y0 X1 Y1 KIND        a figure's box
 *     text N FIG ROLE GROUP SIZE X0 Y0 ... X3 Y3 TEXT
 *                                      one text line: its ink as a quadrilateral;
 *                                      ROLE ends in "/" when the line begins
 *                                      inside a word (the layout broke it)
 *     line N FIG WIDTH X0 Y0 X1 Y1 SEQ one stroked segment (butt ends)
 *     fill N FIG HATCH X0 Y0 X1 Y1 SEQ a filled area's bounding box; HATCH 1 hatched,
 *                                      -1 a knockout (paper colour painted over
 *                                      what was drawn before it, under a label)
 *     mark N FIG X0 Y0 X1 Y1           a plotted data mark (a point's marker, a
 *                                      bar's top edge, a whisker): no label on it
 *     series N FIG KEY                 a series of which the figure drew a mark
 *     legend N FIG KEY                 a legend entry for series KEY
 *     cell N X0 Y0 X1 Y1 M QTY REC     a table cell's box and its provenance: the record REC
 *                                      (its key, results.h record_key) the row is of and
 *                                      whether it has the column's quantity QTY (a
 *                                      template quantity, docs/templates.md): M 1 yes,
 *                                      0 not measured (the cell must not print a number)
 *     fact NAME VALUE                  what the drawn records say (0 or 1), for the
 *                                      linter's claim rules: capture-unchecked,
 *                                      capture-kernel-timed, capture-event-timed, …
 *                                      (capture_facts, src/doc/capreview.h)
 *     tick N FIG AXIS DIR SCALE POS VALUE
 *                                      a labelled tick of axis AXIS (a number per
 *                                      axis on the page): DIR x or y, SCALE lin,
 *                                      log or cat (categories at equal steps), POS
 *                                      its place along DIR, VALUE the number it reads
 *
 * SEQ is the paint order on the page: a knockout hides the lines painted
 * before it, not those after.
 * N is the 1-based page, FIG the figure id (-1 outside a figure), GROUP the
 * text layout the line belongs to (lines of one paragraph share it).
 */
#ifndef ATTNPROF_LAYREC_H
#define ATTNPROF_LAYREC_H

#include <stddef.h>

#define LAYREC_FORMAT "attnprof-layout/1"

/* What a piece of text is, for its minimum size. */
enum lr_role { LR_BODY, LR_TEXT, LR_FIGURE, LR_NUMERAL, LR_NROLES }; /* numeral: a reference numeral (patent) */
extern const char *const lr_role_names[LR_NROLES];

struct lr_page { double w, h, mt, mr, mb, ml; };
struct lr_fig { int page, id; double x0, y0, x1, y1; char kind[48]; };
struct lr_text {
	int page, fig, role, group;
	double size;       /* type size in points on the page */
	int split;         /* the line begins inside a word broken by the layout */
	double q[8];       /* ink corners x0 y0 x1 y1 x2 y2 x3 y3 (in order round the box) */
	char *text;
};
struct lr_line { int page, fig; double w, x0, y0, x1, y1; long seq; };
struct lr_fill { int page, fig, hatch; double x0, y0, x1, y1; long seq; };
struct lr_mark { int page, fig; double x0, y0, x1, y1; };
/* a series drawn (LR_SERIES) or a legend entry naming one (LR_LEGEND) */
enum lr_key_kind { LR_SERIES, LR_LEGEND };
struct lr_key { int page, fig, kind; char key[112]; };
enum lr_scale { LR_LIN, LR_LOG, LR_CAT, LR_NSCALES };
extern const char *const lr_scale_names[LR_NSCALES];
struct lr_tick { int page, fig, axis, scale; char dir; double pos, value; };
struct lr_fact { char name[48]; int value; };
struct lr_cell { int page, measured; double x0, y0, x1, y1; char qty[32]; char rec[224]; };

struct layrec {
	char style[32];
	double min[LR_NROLES];
	long pdf_bytes;
	unsigned long long pdf_hash;
	struct lr_page *pages; size_t npages, apages;
	struct lr_fig *figs; size_t nfigs, afigs;
	struct lr_text *texts; size_t ntexts, atexts;
	struct lr_line *lines; size_t nlines, alines;
	struct lr_fill *fills; size_t nfills, afills;
	struct lr_mark *marks; size_t nmarks, amarks;
	struct lr_key *keys; size_t nkeys, akeys;
	struct lr_tick *ticks; size_t nticks, aticks;
	struct lr_fact *facts; size_t nfacts, afacts;
	struct lr_cell *cells; size_t ncells, acells;
	/* recording state */
	int cur_fig;       /* figure being drawn, -1 none */
	int role;          /* role of text placed outside figures */
	int numeral;       /* set while a reference numeral is drawn */
	int next_group;
	int next_axis;
	long seq;          /* paint order of lines and fills */
	int oom;           /* an allocation failed: the record is incomplete */
};

void layrec_init(struct layrec *r);
void layrec_release(struct layrec *r);

/* Recording (the draw layer).  Items go on the last page begun. */
void layrec_page(struct layrec *r, double w, double h, double mt, double mr, double mb, double ml);
void layrec_fig_begin(struct layrec *r, double x0, double y0, double x1, double y1, const char *kind);
void layrec_fig_end(struct layrec *r);
int layrec_group(struct layrec *r);
void layrec_text(struct layrec *r, int group, double size, const double q[8], const char *text, size_t len);
/* The last text line recorded began inside a word. */
void layrec_text_split(struct layrec *r);
void layrec_line(struct layrec *r, double w, double x0, double y0, double x1, double y1);
void layrec_fill(struct layrec *r, int hatch, double x0, double y0, double x1, double y1);
void layrec_mark(struct layrec *r, double x0, double y0, double x1, double y1);
void layrec_key(struct layrec *r, enum lr_key_kind kind, const char *key);
/* A new axis: its number for layrec_tick. */
int layrec_axis(struct layrec *r);
void layrec_tick(struct layrec *r, int axis, char dir, enum lr_scale scale, double pos, double value);

/* A table cell's box on the current page, the record its row is of (its key) and whether
 * that record has the column's quantity qty (layrec.h "cell"). */
void layrec_cell(struct layrec *r, double x0, double y0, double x1, double y1, int measured, const char *qty,
		 const char *rec);

/* A fact of the document's records (layrec.h "fact"); its value, or -1 when the record has none. */
void layrec_fact(struct layrec *r, const char *name, int value);
int layrec_fact_value(const struct layrec *r, const char *name);

/* FNV-1a of a file's bytes: 0 with *bytes and *hash set, or -1 (message printed). */
int layrec_hash_file(const char *path, long *bytes, unsigned long long *hash);
/* The record's path for a PDF: "x.pdf" -> "x.layout". */
void layrec_path(const char *pdf, char *buf, size_t len);

/* Write atomically (temporary file, then rename); 0, or -1 (message printed),
 * -2 when path is an input or another output of the command (a usage error). */
int layrec_save(const struct layrec *r, const char *path);
/* Read; 0, or -1 with the message (file:line) printed. */
int layrec_load(struct layrec *r, const char *path);

#endif
