/* verdict.c: the stored-or-not rule for foreign attention calls (verdict.h). */
#include "capture/verdict.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "capture/family.h"
#include "variants.h"

#define SECTOR_BYTES 32.0

static int shape_known(const struct record *rec)
{
	return (!rec->capture || rec->capture->shape_known) && rec->shape.batch > 0 && rec->shape.heads > 0 &&
	       rec->shape.seqlen_q > 0 && rec->shape.seqlen_kv > 0 && rec->shape.head_dim > 0;
}

static double sum_metric(const struct record *rec, const char *name, int *found)
{
	double s = 0;
	*found = 0;
	for (size_t i = 0; i < rec->nlaunches; i++) {
		const double *v = kvlist_get(&rec->launches[i].metrics, name);
		if (v && isfinite(*v)) {
			s += *v;
			*found = 1;
		}
	}
	if (!*found) {
		const double *v = kvlist_get(&rec->totals, name);
		if (v && isfinite(*v)) {
			*found = 1;
			s = *v;
		}
	}
	return s;
}

static double elements(const struct record *rec)
{
	const struct attn_shape *s = &rec->shape;
	return (double)s->batch * s->heads * s->seqlen_q * (double)s->seqlen_kv;
}

/* A GEMM kernel of the call whose name does not say its output type, but whose
 * DRAM writes are at least 0.9 of one Nq x Nkv matrix in fp32: its scores are
 * fp32 (a GEMM writes nothing but its output). */
static int measured_fp32_gemm(const struct record *rec, int e)
{
	double elems = elements(rec);
	if (e >= 4 || !(elems > 0))
		return 0;
	for (size_t i = 0; i < rec->nlaunches; i++) {
		const struct family_rule *r = family_of_kernel(rec->launches[i].name);
		const double *v = kvlist_get(&rec->launches[i].metrics, "dram__bytes_write.sum");
		if (r && !strcmp(r->role, "gemm") && !family_kernel_out_bytes(rec->launches[i].name) && v &&
		    isfinite(*v) && *v >= 0.9 * elems * 4)
			return 1;
	}
	return 0;
}

int verdict_matrix_elem_bytes(const struct record *rec)
{
	int e = (int)dtype_size(rec->shape.dtype);
	if (!rec->capture || !rec->nlaunches) /* attnprof's own kernels: the dtype's */
		return e;
	const char **names = calloc(rec->nlaunches, sizeof *names);
	if (!names)
		return e;
	for (size_t i = 0; i < rec->nlaunches; i++)
		names[i] = rec->launches[i].name;
	e = family_score_bytes(names, rec->nlaunches, e);
	free(names);
	return measured_fp32_gemm(rec, e) ? 4 : e;
}

double verdict_nn_bytes(const struct record *rec)
{
	return elements(rec) * verdict_matrix_elem_bytes(rec);
}

static void sizes(const struct record *rec, double *nn, double *outputs)
{
	double bh = (double)rec->shape.batch * rec->shape.heads, bhkv = (double)rec->shape.batch * rec->shape.kv_heads;
	double e = (int)dtype_size(rec->shape.dtype);
	*nn = verdict_nn_bytes(rec);
	if (rec->shape.pass == PASS_BWD) /* dQ, dK, dV, and fp32 accumulators of them */
		*outputs = (bh * rec->shape.seqlen_q + 2.0 * bhkv * rec->shape.seqlen_kv) * rec->shape.head_dim * (e + 4.0);
	else
		*outputs = bh * rec->shape.seqlen_q * (rec->shape.head_dim * e + 4.0);
}

#define MIN_NN_BYTES (1024.0 * 1024.0)

/* Kernels whose writes (metric, scaled) reach 0.9 of one Nq x Nkv matrix
 * in the kernel's own element size: its output type where its name says it
 * (an fp32 GEMM: 4), else the call's dtype (an fp16 copy of an fp32 P is a
 * stored matrix too). */
static int kernels_storing(const struct record *rec, const char *metric, double scale, int *found)
{
	int n = 0, dt = (int)dtype_size(rec->shape.dtype);
	double elems = elements(rec);
	*found = 0;
	for (size_t i = 0; i < rec->nlaunches; i++) {
		const double *v = kvlist_get(&rec->launches[i].metrics, metric);
		if (!v || !isfinite(*v))
			continue;
		*found = 1;
		int e = rec->capture ? family_kernel_out_bytes(rec->launches[i].name) : 0;
		n += *v * scale >= 0.9 * elems * (e > 0 ? e : dt);
	}
	return n;
}

/* attnprof's own records: the N×N matrices their descriptor allocates (S, P
 * for a forward; dS, dP for a backward), or -1 for any other record. */
static int own_matrices(const struct record *rec)
{
	if (rec->capture || (rec->source && strcmp(rec->source, "attnprof")))
		return -1;
	const struct variant_desc *v = variant_find(rec->variant ? rec->variant : "");
	const enum pass p = rec->shape.pass;
	if (!v)
		return -1;
	const struct variant_desc *d = variant_pass_desc(v, p);
	if (!d)
		return -1;
	int bwd = p == PASS_BWD, n = 0;
	for (size_t i = 0; i < d->nbuffers; i++)
		n += !strcmp(d->buffers[i].name, bwd ? "dS" : "S") || !strcmp(d->buffers[i].name, bwd ? "dP" : "P");
	return n;
}

int verdict_matrices(const struct record *rec, double l2_bytes, const char **rule)
{
	*rule = "none";
	if (!shape_known(rec))
		return -1;
	double nn, outputs;
	sizes(rec, &nn, &outputs);
	int found = 0, n;
	if (nn >= MIN_NN_BYTES && nn >= 4 * outputs) {
		if (l2_bytes > 0 && nn > 2 * l2_bytes) {
			n = kernels_storing(rec, "dram__bytes_write.sum", 1.0, &found);
			if (found) {
				*rule = "dram-writes";
				return n;
			}
		}
		n = kernels_storing(rec, "lts__t_sectors_op_write.sum", SECTOR_BYTES, &found);
		if (found) {
			*rule = "l2-writes";
			return n;
		}
		if (rec->capture && rec->capture->footprint_bytes >= 0) {
			*rule = "footprint";
			double m = floor(rec->capture->footprint_bytes / nn + 0.05);
			return m < 0 ? 0 : m > 1e6 ? 1000000 : (int)m;
		}
	}
	/* too small to tell by traffic: what the kernels are says it by construction */
	int own = own_matrices(rec);
	if (own >= 0) {
		*rule = "descriptor";
		return own;
	}
	const char *fam = rec->capture ? rec->capture->family : NULL;
	if (fam && strcmp(fam, "unknown")) {
		*rule = "family";
		return strcmp(fam, "unfused") ? 0 : 2;
	}
	*rule = "too-small";
	return -1;
}

void verdict_compute(struct record *rec, double l2_bytes)
{
	struct capture_info *c = rec->capture;
	if (!c)
		return;
	int found = 0;
	double sectors = sum_metric(rec, "lts__t_sectors_op_write.sum", &found);
	c->l2_write_bytes = found ? sectors * SECTOR_BYTES : -1;
	double dram = sum_metric(rec, "dram__bytes_write.sum", &found);
	c->dram_write_bytes = found ? dram : -1;
	c->nn_bytes = c->output_bytes = 0;
	if (shape_known(rec))
		sizes(rec, &c->nn_bytes, &c->output_bytes);
	const char *rule;
	c->nn_matrices = verdict_matrices(rec, l2_bytes, &rule);
	free(c->verdict_rule);
	c->verdict_rule = strdup(rule);
}

const char *verdict_of(const struct record *rec, double l2_bytes, const char *matrix)
{
	const char *rule;
	return verdict_state(verdict_matrices(rec, l2_bytes, &rule), rec->shape.pass, matrix);
}

const char *verdict_state(int m, enum pass pass, const char *matrix)
{
	int bwd = pass == PASS_BWD;
	if (!strcmp(matrix, "O") || !strcmp(matrix, "L"))
		return bwd ? "unknown" : m < 0 ? "unknown" : "stored";
	if (m < 0)
		return "unknown";
	if (!strcmp(matrix, bwd ? "dS" : "S"))
		return m >= 1 ? "stored" : "not stored";
	if (!strcmp(matrix, bwd ? "dP" : "P"))
		return m >= 2 ? "stored" : "not stored";
	return "unknown";
}
