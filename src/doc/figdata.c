/* figdata.c: a figure's records and values as a table and an alt text; see figdata.h. */
#include "doc/figdata.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doc/docmodel.h"
#include "doc/inline.h"
#include "util/ustr.h"

/* The quantities a kind draws, by name prefix (the first that matches):
 * what its axes or labels show of each record. */
static const struct {
	const char *prefix;
	const char *q[4];
} kind_quantities[] = {
	{ "tflops", { "tflops", "time_ms" } },
	{ "hbm", { "hbm_bytes", "hbm_model" } },
	{ "memory-workload", { "l1_bytes", "l2_bytes", "hbm_bytes" } },
	{ "memory", { "peak_bytes", "footprint" } },
	{ "smem", { "smem_ld_wavefronts", "smem_st_wavefronts", "bank_conflicts" } },
	{ "occupancy", { "occupancy", "occupancy_theoretical" } },
	{ "roofline", { "tflops", "intensity" } },
	{ "decode", { "time_ms", "bandwidth" } },
	{ "patent-decode", { "time_ms", "bandwidth" } },
	{ "ablation", { "time_ms", "tflops" } },
	{ "ladder", { "time_ms", "tflops" } },
	{ "patent-ladder", { "time_ms", "tflops" } },
	{ "patent-throughput", { "tflops", "time_ms" } },
	{ "patent-capture-throughput", { "tflops", "time_ms" } },
	{ "diff", { "time_ms", "tflops" } },
	{ "partition", { "blocks", "waves", "sms_busy" } },
	{ "patent-grid", { "blocks", "waves", "sms_busy" } },
	{ "capture-grid", { "blocks", "waves", "sms_busy" } },
	{ "patent-capture-grid", { "blocks", "waves", "sms_busy" } },
	{ "", { "hbm_read", "hbm_write", "peak_bytes", "time_ms" } }, /* data flow and the rest */
};

/* A column's head: the quantity's unit word where the value does not carry one. */
static const char *column_head(const char *q)
{
	static const struct { const char *q, *head; } heads[] = {
		{ "tflops", "throughput" }, { "time_ms", "median time" }, { "hbm_bytes", "DRAM bytes" },
		{ "hbm_model", "no-cache model" }, { "hbm_read", "DRAM read" }, { "hbm_write", "DRAM written" },
		{ "l1_bytes", "L1/TEX bytes" }, { "l2_bytes", "L2 bytes" }, { "peak_bytes", "peak memory" },
		{ "footprint", "buffers" }, { "smem_ld_wavefronts", "smem load wavefronts" },
		{ "smem_st_wavefronts", "smem store wavefronts" }, { "bank_conflicts", "bank conflicts" },
		{ "occupancy", "achieved occupancy" }, { "occupancy_theoretical", "theoretical occupancy" },
		{ "intensity", "FLOP/byte" }, { "bandwidth", "HBM bandwidth" }, { "blocks", "thread blocks" },
		{ "waves", "waves" }, { "sms_busy", "SMs busy" },
	};
	for (size_t i = 0; i < sizeof heads / sizeof heads[0]; i++)
		if (!strcmp(heads[i].q, q))
			return heads[i].head;
	return q;
}

static size_t kind_row(const char *kind)
{
	size_t n = sizeof kind_quantities / sizeof kind_quantities[0];
	for (size_t i = 0; i + 1 < n; i++) {
		size_t l = strlen(kind_quantities[i].prefix);
		if (!strncmp(kind, kind_quantities[i].prefix, l) && (!kind[l] || kind[l] == '-'))
			return i;
	}
	return n - 1;
}

/* "SDPA FLASH_ATTENTION fp16 B=4 H=16 N=4096 d=128": the series as the
 * legends name it, then record_describe's problem. */
static void row_label(const struct record *r, char *buf, size_t len)
{
	char key[SERIES_KEY], label[128], desc[256];
	series_label(record_series(r, key, sizeof key), label, sizeof label);
	record_describe(r, desc, sizeof desc);
	const char *rest = strchr(desc, ' ');
	snprintf(buf, len, "%s%s", label, rest ? rest : "");
}

/* A description's value of quantity q as the documents write it: a
 * quantity's own unit, the figure quantities' (figdesc.c) by name. */
static void fmt_value(const char *q, double v, char *buf, size_t len)
{
	static const struct { const char *q; enum qunit u; } own[] = {
		{ "run_hbm_bytes", U_BYTES }, { "model_hbm_bytes", U_BYTES }, { "run_peak_bytes", U_BYTES },
		{ "run_gbs", U_GBS },
	};
	if (!strcmp(q, "run_tflops_per_ghz")) {
		snprintf(buf, len, "%.0f TFLOP/s per GHz", v);
		return;
	}
	if (!strcmp(q, "run_time_us")) {
		snprintf(buf, len, "%.3g µs", v);
		return;
	}
	for (size_t i = 0; i < sizeof own / sizeof own[0]; i++)
		if (!strcmp(own[i].q, q)) {
			fmt_quantity(v, own[i].u, NULL, buf, len);
			return;
		}
	const char *dot = strchr(q, '.'); /* stall_pct.<reason> */
	char base[64];
	snprintf(base, sizeof base, "%.*s", dot ? (int)(dot - q) : (int)strlen(q), q);
	const struct qinfo *qi = quantity_find(base);
	if (!qi || fmt_quantity(v, qi->unit, NULL, buf, len))
		snprintf(buf, len, "%.4g", v);
}

/* T from description d: a row per point with a value, in its order (panel,
 * series, category), then a row per free mark (the roofline's). */
static void data_of_desc(const struct rdata *rd, const struct figdesc *d, struct dtable *T)
{
	int model = d->any_model, total = 0;
	snprintf(T->head[0], sizeof T->head[0], "record");
	snprintf(T->head[1], sizeof T->head[0], "series");
	snprintf(T->head[2], sizeof T->head[0], "value");
	T->right[2] = 1;
	if (model) {
		snprintf(T->head[3], sizeof T->head[0], "%s", d->model_label[0] ? "model" : "model");
		T->right[3] = 1;
	}
	int file = 3 + model;
	snprintf(T->head[file], sizeof T->head[0], "results file");
	T->ncols = file + 1;
	int r = 0;
	for (size_t p = 0; p < d->npanels; p++)
		for (size_t k = 0; k < d->nseries; k++)
			for (size_t i = 0; i < d->panel[p].ncat; i++) {
				const struct figpoint *pt = figdesc_at(d, p, k, i);
				if (!pt || pt->state != FP_VALUE || !pt->rec)
					continue;
				if (r == TROWS) {
					total++;
					continue;
				}
				const char *q = d->panel[p].quantity[0] ? d->panel[p].quantity : d->series[k].key;
				char qa[128];
				if (!d->panel[p].quantity[0] && d->series[k].arg[0])
					snprintf(qa, sizeof qa, "%s.%s", q, d->series[k].arg);
				else
					snprintf(qa, sizeof qa, "%s", q);
				row_label(pt->rec, T->cell[r][0], TCELL);
				snprintf(T->cell[r][1], TCELL, "%s", d->series[k].label);
				fmt_value(qa, pt->v, T->cell[r][2], TCELL);
				if (model) {
					if (pt->has_model && isfinite(pt->model))
						fmt_value(d->panel[p].model_quantity[0] ? d->panel[p].model_quantity : qa, pt->model,
							  T->cell[r][3], TCELL);
					else
						snprintf(T->cell[r][3], TCELL, "–");
				}
				snprintf(T->cell[r][file], TCELL, "%s", rdata_record_file(rd, pt->rec));
				T->bad[r] = pt->wrong;
				T->rec[r][0] = pt->rec;
				r++, total++;
			}
	for (size_t m = 0; m < d->nmarks; m++) {
		const struct figmark *mk = &d->mark[m];
		if (!mk->rec)
			continue;
		if (r == TROWS) {
			total++;
			continue;
		}
		row_label(mk->rec, T->cell[r][0], TCELL);
		snprintf(T->cell[r][1], TCELL, "%s", mk->series < d->nseries ? d->series[mk->series].label : "");
		char y[64], x[64];
		fmt_quantity(mk->y, U_TFLOPS, NULL, y, sizeof y);
		if (isfinite(mk->x[FD_DRAM]))
			fmt_quantity(mk->x[FD_DRAM], U_FLOP_PER_BYTE, NULL, x, sizeof x);
		else
			snprintf(x, sizeof x, "intensity not measured");
		snprintf(T->cell[r][2], TCELL, "%s at %s of DRAM", y, x);
		if (model)
			snprintf(T->cell[r][3], TCELL, "–");
		snprintf(T->cell[r][file], TCELL, "%s", rdata_record_file(rd, mk->rec));
		T->rec[r][0] = mk->rec;
		r++, total++;
	}
	T->nrows = r;
	if (total > r)
		snprintf(T->note, sizeof T->note, "The first %d of the figure's %d values.", r, total);
}

void figure_data(const struct rdata *rd, const struct dblock *b, const struct record *const *recs, size_t n,
		 struct dtable *T)
{
	memset(T, 0, sizeof *T);
	T->kind = -1;
	if (b->desc) {
		data_of_desc(rd, b->desc, T);
		if (T->nrows)
			return;
		memset(T, 0, sizeof *T);
		T->kind = -1;
	}
	const char *kind = b->fig ? b->fig->name : NULL;
	if (n > TROWS)
		n = TROWS;
	const char *const *q = kind_quantities[kind_row(kind ? kind : "")].q;
	/* the kind's quantities some record has: a column each */
	const char *cols[4];
	int nq = 0;
	for (int k = 0; k < 4 && q[k]; k++) {
		for (size_t i = 0; i < n; i++) {
			double v;
			enum qunit u;
			char why[8];
			if (!rdata_quantity(rd, recs[i], q[k], NULL, &v, &u, why, sizeof why) && isfinite(v)) {
				cols[nq++] = q[k];
				break;
			}
		}
	}
	snprintf(T->head[0], sizeof T->head[0], "record");
	for (int k = 0; k < nq; k++) {
		snprintf(T->head[1 + k], sizeof T->head[0], "%s", column_head(cols[k]));
		T->right[1 + k] = 1;
	}
	snprintf(T->head[1 + nq], sizeof T->head[0], "results file");
	T->ncols = 2 + nq;
	for (size_t i = 0; i < n; i++) {
		const struct record *r = recs[i];
		row_label(r, T->cell[i][0], TCELL);
		for (int k = 0; k < nq; k++) {
			double v;
			enum qunit u;
			char why[8];
			if (rdata_quantity(rd, r, cols[k], NULL, &v, &u, why, sizeof why) || !isfinite(v) ||
			    fmt_quantity(v, u, NULL, T->cell[i][1 + k], TCELL))
				snprintf(T->cell[i][1 + k], TCELL, "–");
		}
		snprintf(T->cell[i][1 + nq], TCELL, "%s", rdata_record_file(rd, r));
		T->bad[i] = r->error != NULL || (r->checked && !r->correct);
		T->rec[i][0] = r;
	}
	T->nrows = (int)n;
}

void figure_alt(const struct dblock *b, const struct dtable *T, char *buf, size_t len)
{
	struct ustr u;
	ustr_init(&u, buf, len);
	ustr_addf(&u, "Figure %d: ", b->number);
	char *plain = b->caption ? inline_plain(b->caption) : NULL;
	const char *what = plain ? plain : b->title ? b->title : "";
	size_t n = strlen(what);
	while (n && strchr(" \n", what[n - 1]))
		n--;
	size_t from = u.len;
	ustr_add(&u, what, n);
	for (size_t i = from; i < u.len; i++)
		if (buf[i] == '\n')
			buf[i] = ' ';
	if (n && what[n - 1] != '.')
		ustr_adds(&u, ".");
	free(plain);
	const char *more = " … and %d more rows in the figure's data table";
	int r = 0;
	for (; r < T->nrows; r++) {
		char row[1024];
		struct ustr w;
		ustr_init(&w, row, sizeof row);
		ustr_addf(&w, "%s%s:", r ? "; " : " Data: ", T->cell[r][0]);
		int any = 0;
		size_t l0 = strlen(T->cell[r][0]);
		for (int c = 1; c + 1 < T->ncols; c++)
			if (strcmp(T->cell[r][c], "–") && !(strlen(T->cell[r][c]) < l0 &&
			    !strncmp(T->cell[r][0], T->cell[r][c], strlen(T->cell[r][c])) &&
			    T->cell[r][0][strlen(T->cell[r][c])] == ' '))
				ustr_addf(&w, "%s %s %s", any++ ? "," : "", T->head[c], T->cell[r][c]);
		if (!any)
			ustr_adds(&w, " not measured");
		/* room for this row and the count of those after it */
		if (u.len + w.len + strlen(more) + 8 >= len)
			break;
		ustr_adds(&u, row);
	}
	if (r < T->nrows)
		ustr_addf(&u, more, T->nrows - r);
}
