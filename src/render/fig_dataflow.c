/* fig_dataflow.c: where a variant's data live — HBM buffers against on-chip
 * tiles — drawn from its descriptor and the measured bytes.
 *
 * The rows of the HBM column are the matrices of the attention story
 * (attn_matrices[]) then the variant's own extra buffers; a matrix the
 * variant does not store is drawn dashed and struck through, with the
 * tile that stands for it.  Arrows carry the measured DRAM bytes (and the
 * model's minimum); a variant of several kernels gets a line per kernel.
 */
#include "render/figure_draw.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "metric_sets.h"

static const char *tile_dim(enum tile_dim d)
{
	switch (d) {
	case TD_BR: return "Br";
	case TD_BC: return "Bc";
	case TD_D: return "d";
	default: return "1";
	}
}
static int tile_val(enum tile_dim d, const struct tiling *t, int hd)
{
	switch (d) {
	case TD_BR: return t->block_m;
	case TD_BC: return t->block_n;
	case TD_D: return hd;
	default: return 1;
	}
}

/* The shape and record a data-flow figure shows for series key. */
static const struct record *shape_for(const struct rdata *rd, const struct figopts *o, const char *key,
				      struct attn_shape *s, struct rsel *sel)
{
	fig_sel(rd, o, sel);
	const struct record *r = rdata_find(rd, key, sel);
	if (!r) {
		/* no record at the focus: any record of the variant, else the focus shape */
		struct rsel any;
		rsel_any(&any);
		any.phase = sel->phase;
		r = rdata_find(rd, key, &any);
	}
	if (r) {
		*s = r->shape;
		return r;
	}
	*s = fig_typical_shape(sel, 4);
	return NULL;
}

/* The descriptor drawn for series key: the variant's, or its backward's
 * when the figure asks for pass bwd or fwd+bwd (NULL when it has none). */
static const struct variant_desc *pass_desc(const char *key, const struct figopts *o)
{
	return variant_pass_desc(variant_find(key), rsel_pass(&o->sel));
}

/* Bytes of the matrices v does not store, at shape s (S, P, … as the story's formulas). */
static double absent_bytes(const struct variant_desc *v, const struct attn_shape *s)
{
	double sum = 0;
	for (size_t i = 0; i < attn_matrix_count; i++) {
		const struct matrix_desc *m = &attn_matrices[i];
		if (m->role == ROLE_MATRIX && !variant_stores(v, m->name)) {
			uint64_t e = dims_elements(m->dims, s, NULL) * (m->elem == ELEM_F32 ? 4 : dtype_size(s->dtype));
			sum += (double)e;
		}
	}
	return sum;
}

/* The data flow's HBM column: the story's matrices, then the variant's
 * other buffers, each stored (its formula and bytes, allocated where the
 * record says) or drawn dashed where the variant keeps it on chip. */
static void draw_hbm_column(struct rctx *c, const struct variant_desc *v, const struct record *r,
			    const struct attn_shape *s, const struct tiling *tp, struct rbox hbm)
{
	const struct rstyle *st = c->st;
	const double fs = st->size_chart;
	char buf[256], b1[32], b2[32];
	char f[64];
	const struct tiling t = *tp;
	fill_rect(c, hbm, &st->hbm_fill);
	draw_rect(c, hbm, st->line, 0);
	double hh = text_at(c, hbm.x + sz(c, 4), hbm.y + sz(c, 3), "HBM (off-chip)", fs, TX_BOLD, 0, 0, NULL);
	draw_numeral(c, "hbm", "high-bandwidth memory (HBM) of the GPU", hbm.x + hbm.w * 0.7, hbm.y + 1,
		     hbm.x + hbm.w * 0.85, hbm.y - st->size_numeral * 0.7);
	struct rbox rows = rbox_inset(hbm, hh + sz(c, 6), sz(c, 4), sz(c, 4), sz(c, 4));
	/* rows: the story's matrices, then extra buffers of this variant */
	const char *names[MAX_BUFFERS + 12];
	int present[MAX_BUFFERS + 12];
	size_t nrows = 0;
	for (size_t i = 0; i < attn_matrix_count; i++) {
		names[nrows] = attn_matrices[i].name;
		present[nrows++] = variant_stores(v, attn_matrices[i].name);
	}
	for (size_t i = 0; i < v->nbuffers; i++) {
		size_t j;
		for (j = 0; j < attn_matrix_count && strcmp(attn_matrices[j].name, v->buffers[i].name); j++)
			;
		if (j == attn_matrix_count) {
			names[nrows] = v->buffers[i].name;
			present[nrows++] = 1;
		}
	}
	double rh = rows.h / nrows, gap = fmin(rh * 0.18, sz(c, 3));
	for (size_t i = 0; i < nrows; i++) {
		struct rbox rb = rbox_make(rows.x, rows.y + i * rh, rows.w, rh - gap);
		const struct buffer_desc *bd = NULL;
		const struct matrix_desc *md = NULL;
		for (size_t k = 0; k < v->nbuffers; k++)
			if (!strcmp(v->buffers[k].name, names[i]))
				bd = &v->buffers[k];
		for (size_t k = 0; k < attn_matrix_count; k++)
			if (!strcmp(attn_matrices[k].name, names[i]))
				md = &attn_matrices[k];
		const char *label = bd ? bd->label : md->label;
		const enum dim_sym *dims = bd ? bd->dims : md->dims;
		int f32 = bd ? bd->elem == ELEM_F32 : md->elem == ELEM_F32;
		double bytes = (double)dims_elements(dims, s, &t) * (f32 ? 4 : dtype_size(s->dtype));
		dims_formula(dims, f, sizeof(f));
		char part[64];
		if (present[i]) {
			fill_rect(c, rb, &st->paper);
			draw_rect(c, rb, st->thin * 1.4, 0);
			const double *alloc = r ? kvlist_get(&r->allocs, names[i]) : NULL;
			if (alloc && usable(*alloc))
				snprintf(buf, sizeof(buf), "%s · %s%s · allocated %s", f, fmt_bytes(bytes, b1, sizeof(b1)),
					 f32 ? " fp32" : "", fmt_bytes(*alloc, b2, sizeof(b2)));
			else
				snprintf(buf, sizeof(buf), "%s · %s%s", f, fmt_bytes(bytes, b1, sizeof(b1)), f32 ? " fp32" : "");
			snprintf(part, sizeof(part), "buffer:%s", names[i]);
		} else {
			/* a dashed outline: the buffer is not there (no strike through the words) */
			cairo_save(c->cr);
			set_rgb(c, &st->muted);
			draw_rect(c, rb, st->thin, 3);
			cairo_restore(c->cr);
			const struct tile_desc *td = NULL;
			for (size_t k = 0; k < v->ntiles; k++)
				if (v->tiles[k].stands_for && !strcmp(v->tiles[k].stands_for, names[i]))
					td = &v->tiles[k];
			if (td)
				snprintf(buf, sizeof(buf), "not stored in HBM: lives in on-chip tiles %s of %s×%s = %d×%d (would be %s)",
					 td->name, tile_dim(td->rows), tile_dim(td->cols), tile_val(td->rows, &t, s->head_dim),
					 tile_val(td->cols, &t, s->head_dim), fmt_bytes(bytes, b1, sizeof(b1)));
			else
				snprintf(buf, sizeof(buf), "not stored in HBM (%s would be %s)", f, fmt_bytes(bytes, b1, sizeof(b1)));
			snprintf(part, sizeof(part), "absent:%s", names[i]);
		}
		double lw;
		const struct rgb *col = present[i] ? NULL : &st->muted;
		double ls = fmin(fs * 1.15, rb.h * 0.8 / (c->scale > 0 ? c->scale : 1));
		text_extent(c, label, ls, TX_BOLD, 0, &lw, NULL);
		text_at(c, rb.x + sz(c, 3), rb.y + rb.h / 2, label, ls, TX_BOLD, 0, 0.5, col);
		double avail = rb.w - lw - sz(c, 9);
		/* the full description, else a shorter one: never type below the minimum */
		char shorter[160], shortest[96];
		if (present[i]) {
			snprintf(shorter, sizeof(shorter), "%s · %s%s", f, fmt_bytes(bytes, b1, sizeof(b1)), f32 ? " fp32" : "");
			snprintf(shortest, sizeof(shortest), "%s%s", fmt_bytes(bytes, b1, sizeof(b1)), f32 ? " fp32" : "");
		} else {
			snprintf(shorter, sizeof(shorter), "not stored (would be %s)", fmt_bytes(bytes, b1, sizeof(b1)));
			snprintf(shortest, sizeof(shortest), "not stored");
		}
		const char *choice[3] = { buf, shorter, shortest };
		double fsz;
		int pick = text_choose(c, choice, 3, fs * 0.85, present[i] ? 0 : TX_ITALIC, avail, &fsz);
		text_at(c, rb.x + lw + sz(c, 7), rb.y + rb.h / 2, choice[pick], fsz, present[i] ? 0 : TX_ITALIC, 0, 0.5, col);
		char what[128];
		snprintf(what, sizeof(what), present[i] ? "%s buffer in HBM" : "%s, not stored in HBM", label);
		/* row numerals left of the HBM column: the arrows' labels own the middle */
		draw_numeral(c, part, what, rb.x + sz(c, 2), rb.y + rb.h / 2, hbm.x - c->st->size_numeral * 0.9, rb.y + rb.h / 2);
	}
}

/* The on-chip column: the library kernels' steps, or the variant's tiles
 * in shared memory and in registers with their sizes. */
static void draw_chip_column(struct rctx *c, const struct variant_desc *v, const struct attn_shape *s,
			     const struct tiling *tp, struct rbox chip)
{
	const struct rstyle *st = c->st;
	const double fs = st->size_chart;
	char buf[256], b1[32];
	const struct tiling t = *tp;
	fill_rect(c, chip, &st->chip_fill);
	draw_rect(c, chip, st->line, 0);
	const double hh = text_at(c, chip.x + sz(c, 4), chip.y + sz(c, 3), "on chip: one SM", fs, TX_BOLD, 0, 0, NULL);
	draw_numeral(c, "sm", "streaming multiprocessor (on-chip)", chip.x + chip.w * 0.8, chip.y + 1,
		     chip.x + chip.w * 0.9, chip.y - st->size_numeral * 0.7);
	struct rbox in = rbox_inset(chip, hh + sz(c, 6), sz(c, 4), sz(c, 4), sz(c, 4));
	if (!v->ntiles) {
		/* library kernels: say what each does, the tiles are theirs */
		double y = in.y, bottom = in.y + in.h, h;
		for (size_t k = 0; k < v->nkernels; k++) {
			/* what each does when there is room, else its name */
			snprintf(buf, sizeof(buf), "%zu. %s: %s", k + 1, v->kernels[k].name, v->kernels[k].does);
			text_extent(c, buf, fs * 0.85, 0, in.w, NULL, &h);
			if (y + h > bottom - (v->nkernels - 1 - k) * fs * 1.3 * c->scale)
				snprintf(buf, sizeof(buf), "%zu. %s", k + 1, v->kernels[k].name);
			text_extent(c, buf, fs * 0.85, 0, in.w, NULL, &h);
			if (y + h > bottom)
				break;
			y += text_block(c, in.x, y, in.w, buf, fs * 0.85, 0, NULL) + sz(c, 3);
		}
		const char *tiles = "tiles are the libraries' own: every kernel reads its inputs from HBM and writes its whole output back";
		text_extent(c, tiles, fs * 0.8, TX_ITALIC, in.w, NULL, &h);
		if (y + h <= bottom)
			y += text_block(c, in.x, y, in.w, tiles, fs * 0.8, TX_ITALIC, &st->muted);
	} else {
		int nsh = 0, nreg = 0;
		for (size_t k = 0; k < v->ntiles; k++)
			if (v->tiles[k].where == IN_SHARED) nsh++; else nreg++;
		double unit = in.h / (nsh + nreg + 2.2);
		struct rbox shb = rbox_cut_top(&in, unit * (nsh + 1.1));
		rbox_cut_top(&in, unit * 0.1);
		struct rbox rgb_ = in;
		for (int place = 0; place < 2; place++) {
			struct rbox pb = place ? rgb_ : shb;
			fill_rect(c, pb, place ? &st->reg_fill : &st->shared_fill);
			draw_rect(c, pb, st->thin, 0);
			text_at(c, pb.x + sz(c, 3), pb.y + sz(c, 1.5), place ? "registers" : "shared memory (SRAM)",
				fs * 0.85, TX_ITALIC, 0, 0, NULL);
			draw_numeral(c, place ? "registers" : "smem", place ? "register file" : "shared memory (on-chip SRAM)",
				     pb.x + pb.w - sz(c, 2), pb.y + sz(c, 4), chip.x + chip.w + c->st->size_numeral * 0.9, pb.y + sz(c, 4));
			int row = 0;
			for (size_t k = 0; k < v->ntiles; k++) {
				const struct tile_desc *td = &v->tiles[k];
				if ((td->where == IN_REGISTERS) != place)
					continue;
				double y = pb.y + unit * (row + 0.95);
				struct rbox tb = rbox_make(pb.x + sz(c, 6), y, pb.w - sz(c, 12), unit * 0.82);
				int rws = tile_val(td->rows, &t, s->head_dim), cls = tile_val(td->cols, &t, s->head_dim);
				double tbytes = (double)rws * cls * (td->elem == ELEM_F32 ? 4 : dtype_size(s->dtype));
				fill_rect(c, tb, &st->paper);
				draw_rect(c, tb, st->thin, 0);
				if (td->stands_for)
					snprintf(buf, sizeof(buf), "%s  %s×%s = %d×%d · stands for %s", td->name, tile_dim(td->rows),
						 tile_dim(td->cols), rws, cls, td->stands_for);
				else
					snprintf(buf, sizeof(buf), "%s  %s×%s = %d×%d · %s", td->name, tile_dim(td->rows),
						 tile_dim(td->cols), rws, cls, fmt_bytes(tbytes, b1, sizeof(b1)));
				char shorter[96];
				snprintf(shorter, sizeof(shorter), "%s  %d×%d", td->name, rws, cls);
				const char *choice[3] = { buf, shorter, td->name };
				double fsz;
				int pick = text_choose(c, choice, 3, fs * 0.85, 0, tb.w - sz(c, 6), &fsz);
				text_at(c, tb.x + sz(c, 3), tb.y + tb.h / 2, choice[pick], fsz, 0, 0, 0.5, NULL);
				char part[64], what[128];
				snprintf(part, sizeof(part), "tile:%s", td->name);
				snprintf(what, sizeof(what), "tile %s: %s", td->name, td->holds);
				draw_numeral(c, part, what, tb.x + tb.w, tb.y + tb.h / 2, chip.x + chip.w + c->st->size_numeral * 0.9, tb.y + tb.h / 2);
				row++;
			}
		}
	}
}

/* The arrows between the columns: the record's measured DRAM bytes read
 * and written, the model's minimum, and per kernel where there are several. */
static void draw_traffic(struct rctx *c, const struct variant_desc *v, const struct record *r, struct rbox mid)
{
	const struct rstyle *st = c->st;
	const double fs = st->size_chart;
	char buf[256], b1[32], b2[32];
	double ax0 = mid.x + sz(c, 4), ax1 = mid.x + mid.w - sz(c, 4);
	double rd_b = r ? record_metric_or_nan(r, M_DRAM_READ) : NAN;
	double wr_b = r ? record_metric_or_nan(r, M_DRAM_WRITE) : NAN;
	const double *model = r ? kvlist_get(&r->model, "hbm_bytes_min") : NULL;
	double y1 = mid.y + mid.h * 0.22, y2 = mid.y + mid.h * 0.5;
	draw_arrow(c, ax0, y1, ax1, y1, st->line * 1.4, sz(c, 7), NULL);
	draw_arrow(c, ax1, y2, ax0, y2, st->line * 1.4, sz(c, 7), NULL);
	draw_numeral(c, "read", "reads from HBM to the chip", (ax0 + ax1) / 2, y1, (ax0 + ax1) / 2 + sz(c, 14), y1 + sz(c, 12));
	draw_numeral(c, "write", "writes from the chip to HBM", (ax0 + ax1) / 2, y2, (ax0 + ax1) / 2 + sz(c, 14), y2 + sz(c, 12));
	double afs = fs * 0.85;
	if (isfinite(rd_b))
		snprintf(buf, sizeof(buf), "read %s", fmt_bytes(rd_b, b1, sizeof(b1)));
	else
		snprintf(buf, sizeof(buf), "read: not measured");
	text_block(c, mid.x, y1 - sz(c, 2) - afs * 1.3 * c->scale, mid.w, buf, afs, TX_CENTER, NULL);
	if (isfinite(wr_b))
		snprintf(buf, sizeof(buf), "write %s", fmt_bytes(wr_b, b1, sizeof(b1)));
	else
		snprintf(buf, sizeof(buf), "write: not measured");
	double y = y2 + sz(c, 3) + text_block(c, mid.x, y2 + sz(c, 3), mid.w, buf, afs, TX_CENTER, NULL) + sz(c, 1);
	if (model && usable(*model)) {
		snprintf(buf, sizeof(buf), "model minimum %s", fmt_bytes(*model, b1, sizeof(b1)));
		y += text_block(c, mid.x, y, mid.w, buf, afs * 0.9, TX_CENTER | TX_ITALIC, &st->muted);
	}
	/* per kernel, when there are several and their counters are there */
	if (r && r->nlaunches > 1) {
		for (size_t k = 0; k < r->nlaunches && k < 4; k++) {
			const struct launch *l = &r->launches[k];
			const double *a = kvlist_get(&l->metrics, M_DRAM_READ), *b = kvlist_get(&l->metrics, M_DRAM_WRITE);
			const char *nm = k < v->nkernels ? v->kernels[k].name : l->name;
			if (a && b)
				snprintf(buf, sizeof(buf), "%s: r %s, w %s", nm, fmt_bytes(*a, b1, sizeof(b1)), fmt_bytes(*b, b2, sizeof(b2)));
			else
				snprintf(buf, sizeof(buf), "%s", nm);
			double kh;
			text_extent(c, buf, afs * 0.8, TX_CENTER, mid.w, NULL, &kh);
			if (y + sz(c, 2) + kh > mid.y + mid.h)
				break; /* no room left in the column: the launches table lists them */
			y += text_block(c, mid.x, y + sz(c, 2), mid.w, buf, afs * 0.8, TX_CENTER, NULL) + sz(c, 2);
		}
	}
	if (!r)
		text_block(c, mid.x, mid.y + mid.h * 0.8, mid.w, "no record at these conditions: sizes from the descriptor",
			   afs * 0.8, TX_CENTER | TX_ITALIC, &st->muted);
}

static void draw_one(struct rctx *c, const struct rdata *rd, const struct variant_desc *v,
		     const struct record *r, const struct attn_shape *s, struct rbox box, int sm)
{
	const struct rstyle *st = c->st;
	struct tiling t;
	v->tiling(s, sm, &t);
	double fs = st->size_chart;

	/* title strip: the variant and its one-line summary */
	double th = text_block(c, box.x, box.y, box.w, v->name, fs * 1.25, TX_BOLD | TX_MONO, NULL);
	rbox_cut_top(&box, th);
	double sh = text_block(c, box.x, box.y, box.w, v->summary, fs * 0.9, 0, &st->muted);
	rbox_cut_top(&box, sh + sz(c, 4));

	struct rbox hbm = rbox_cut_left(&box, box.w * 0.5);
	struct rbox mid = rbox_cut_left(&box, box.w * 0.3);
	struct rbox chip = box;

	draw_hbm_column(c, v, r, s, &t, hbm);
	draw_chip_column(c, v, s, &t, chip);
	draw_traffic(c, v, r, mid);
	(void)rd;
}

static void footer_line(struct rctx *c, struct rbox *box, const char *text)
{
	double h;
	text_extent(c, text, c->st->size_chart, 0, box->w, NULL, &h);
	struct rbox f = rbox_cut_bottom(box, h + sz(c, 5));
	text_block(c, f.x, f.y + sz(c, 4), f.w, text, c->st->size_chart, 0, NULL);
}

void fig_dataflow(struct rctx *c, const struct rdata *rd, const struct figopts *o, struct rbox box)
{
	char key[SERIES_KEY], title[256], buf[512], b1[32], b2[32];
	fig_series(rd, o->variant, variant_role(DOC_SUBJECT), key);
	const struct variant_desc *v = pass_desc(key, o);
	struct attn_shape s;
	struct rsel sel;
	const struct record *r = shape_for(rd, o, key, &s, &sel);
	fig_dataflow_title(rd, o, title, sizeof(title));
	box = figure_frame_recs(c, rd, box, title, &r, r ? 1 : 0, o->standalone);
	if (!v) {
		snprintf(buf, sizeof(buf), "'%s' has no descriptor in kernels/variants.c: reference series are drawn in charts only", key);
		draw_notice(c, box, "no data-flow picture", buf);
		return;
	}
	int sm = rdata_sm_count(rd);
	double saved = absent_bytes(v, &s);
	if (saved > 0) {
		snprintf(buf, sizeof(buf), "Not storing the N×N matrices saves %s of HBM at N=%d (B=%d, H=%d, %s): footprint %s.",
			 fmt_bytes(saved, b1, sizeof(b1)), s.seqlen_kv, s.batch, s.heads, dtype_name(s.dtype),
			 fmt_bytes((double)variant_footprint(v, &s, sm), b2, sizeof(b2)));
	} else {
		snprintf(buf, sizeof(buf), "Stores every N×N matrix in HBM: footprint %s at N=%d (B=%d, H=%d, %s).",
			 fmt_bytes((double)variant_footprint(v, &s, sm), b1, sizeof(b1)), s.seqlen_kv, s.batch, s.heads,
			 dtype_name(s.dtype));
	}
	if (r && r->peak_bytes) {
		size_t l = strlen(buf);
		snprintf(buf + l, sizeof(buf) - l, " Measured peak %s.", fmt_bytes((double)r->peak_bytes, b1, sizeof(b1)));
	}
	footer_line(c, &box, buf);
	if (c->num) { /* room for numerals on both sides */
		rbox_cut_left(&box, c->st->size_numeral * 1.8);
		rbox_cut_right(&box, c->st->size_numeral * 1.8);
	}
	draw_one(c, rd, v, r, &s, box, sm);
}

void fig_dataflow_compare(struct rctx *c, const struct rdata *rd, const struct figopts *o, struct rbox box)
{
	char a[SERIES_KEY], b[SERIES_KEY], title[256], buf[600], b1[32], b2[32], b3[32];
	fig_pair(rd, o, DOC_CONVENTIONAL, a, b);
	const struct variant_desc *va = pass_desc(a, o), *vb = pass_desc(b, o);
	struct attn_shape sa, sb;
	struct rsel sel;
	const struct record *ra = shape_for(rd, o, a, &sa, &sel), *rb = shape_for(rd, o, b, &sb, &sel);
	const struct record *both[2] = { ra, rb };
	size_t nboth = 0;
	if (ra) both[nboth++] = ra;
	if (rb) both[nboth++] = rb;
	fig_dataflow_compare_title(rd, o, title, sizeof(title));
	box = figure_frame_recs(c, rd, box, title, both, nboth, o->standalone);
	if (!va || !vb) {
		snprintf(buf, sizeof(buf), "'%s' has no descriptor in kernels/variants.c", va ? b : a);
		draw_notice(c, box, "no data-flow picture", buf);
		return;
	}
	int sm = rdata_sm_count(rd);
	double fa = (double)variant_footprint(va, &sb, sm), fb = (double)variant_footprint(vb, &sb, sm);
	snprintf(buf, sizeof(buf), "At N=%d (B=%d, H=%d, d=%d, %s) %s keeps %s in HBM and %s keeps %s: %s %s.",
		 sb.seqlen_kv, sb.batch, sb.heads, sb.head_dim, dtype_name(sb.dtype), a, fmt_bytes(fa, b1, sizeof(b1)),
		 b, fmt_bytes(fb, b2, sizeof(b2)), fa >= fb ? "saved" : "extra", fmt_bytes(fabs(fa - fb), b3, sizeof(b3)));
	if (ra && rb && ra->peak_bytes && rb->peak_bytes) {
		size_t l = strlen(buf);
		snprintf(buf + l, sizeof(buf) - l, " Measured peaks: %s against %s.",
			 fmt_bytes((double)ra->peak_bytes, b1, sizeof(b1)), fmt_bytes((double)rb->peak_bytes, b2, sizeof(b2)));
	}
	footer_line(c, &box, buf);
	if (c->num) {
		rbox_cut_left(&box, c->st->size_numeral * 1.8);
		rbox_cut_right(&box, c->st->size_numeral * 1.8);
	}
	/* one above the other on a portrait box, side by side on a wide one */
	double old = c->scale;
	if (box.h > box.w * 0.75) {
		struct rbox top = rbox_cut_top(&box, box.h / 2);
		rbox_cut_top(&box, sz(c, 10));
		draw_one(c, rd, va, ra, &sa, rbox_inset(top, 0, 0, sz(c, 4), 0), sm);
		draw_one(c, rd, vb, rb, &sb, box, sm);
	} else {
		c->scale = old * 0.85;
		struct rbox left = rbox_cut_left(&box, box.w / 2);
		rbox_cut_left(&box, sz(c, 10));
		draw_one(c, rd, va, ra, &sa, rbox_inset(left, 0, sz(c, 6), 0, 0), sm);
		draw_one(c, rd, vb, rb, &sb, box, sm);
		c->scale = old;
	}
}
