/* globals.c: the template's global values, one row each; see globals.h. */
#include "doc/globals.h"

#include <stdio.h>
#include <string.h>

#include "doc/capreview.h"
#include "doc/datasheet.h"
#include "util/yamltree.h"

#define HEADER(member) offsetof(struct results_header, member)
#define GAP_TEXT_MAX 600 /* {run.gap}: one line */

static const struct results_header *header(const struct gcall *c) { return &c->rd->res->header; }
static const struct gpu_info *gpu(const struct gcall *c) { return &c->rd->res->header.gpu; }

static int g_text(struct gcall *c, const char *s)
{
	c->is_text = 1;
	c->text = s;
	return s == NULL;
}

static int g_num(struct gcall *c, double v)
{
	c->num = v;
	return 0;
}

/* a measured rate or a recorded size: missing where the header has 0 (not measured) */
static int g_positive(struct gcall *c, double v) { return v > 0 ? g_num(c, v) : 1; }

/* ---- shared by rows that read one header field (the row's field) ---- */

static const char *field_text(const struct results_header *h, size_t field)
{
	return h ? *(char *const *)(const void *)((const char *)h + field) : NULL;
}

static int g_header_text(struct gcall *c) { return g_text(c, field_text(header(c), c->row->field)); }
/* the captured program's header: missing where no file holds captured calls */
static int g_program_text(struct gcall *c) { return g_text(c, field_text(c->rd->program, c->row->field)); }

static int g_header_rate(struct gcall *c)
{
	return g_positive(c, *(const double *)(const void *)((const char *)header(c) + c->row->field));
}

static int g_header_mhz(struct gcall *c)
{
	snprintf(c->buf, sizeof c->buf, "%d MHz", *(const int *)(const void *)((const char *)header(c) + c->row->field));
	return g_text(c, c->buf);
}

const char *command_text(const char *cmd, char *out, size_t len)
{
	if (!cmd || !len)
		return cmd;
	size_t w = 0;
	for (const char *p = cmd; *p && w + 1 < len;) {
		if (*p == '/' && (p == cmd || p[-1] == ' ')) {
			/* an absolute path: its last component only (the recording host's folders say nothing here) */
			const char *e = p + strcspn(p, " "), *base = p;
			for (const char *q = p; q < e; q++)
				if (*q == '/' && q + 1 < e)
					base = q + 1;
			for (const char *q = base; q < e && w + 1 < len; q++)
				out[w++] = *q;
			p = e;
			continue;
		}
		out[w++] = *p++;
	}
	out[w] = '\0';
	return out;
}

/* run.command, program.record: the command line without the host's folders */
static int g_command(struct gcall *c, const struct results_header *h)
{
	const char *cmd = h ? h->command_line : NULL;
	return g_text(c, cmd ? command_text(cmd, c->buf, sizeof c->buf) : NULL);
}
static int g_run_command(struct gcall *c) { return g_command(c, header(c)); }
static int g_program_record(struct gcall *c) { return g_command(c, c->rd->program); }

/* ---- gpu.* ---- */

static int g_cc(struct gcall *c)
{
	snprintf(c->buf, sizeof c->buf, "%d.%d", gpu(c)->hw.cc_major, gpu(c)->hw.cc_minor);
	return g_text(c, c->buf);
}

static int g_sm_count(struct gcall *c) { return g_num(c, gpu(c)->hw.sm_count); }
static int g_l2(struct gcall *c) { return g_num(c, (double)gpu(c)->hw.l2_bytes); }
static int g_hbm(struct gcall *c) { return g_num(c, (double)gpu(c)->hw.hbm_bytes); }
static int g_peak_hbm(struct gcall *c) { return g_num(c, gpu(c)->peak_hbm_gbs); }

static int g_copy_of_peak(struct gcall *c)
{
	const struct gpu_info *g = gpu(c);
	if (!(g->copy_gbs > 0 && g->peak_hbm_gbs > 0))
		return 1;
	return g_num(c, g->copy_gbs / g->peak_hbm_gbs * 100);
}

static int g_tensor_datasheet(struct gcall *c) { return g_positive(c, datasheet_tensor_tflops(gpu(c)->name, NULL)); }

static int g_tensor_datasheet_source(struct gcall *c)
{
	const char *src = NULL;
	if (!(datasheet_tensor_tflops(gpu(c)->name, &src) > 0))
		return 1;
	return g_text(c, src);
}

static int g_tensor_of_datasheet(struct gcall *c)
{
	const double peak = datasheet_tensor_tflops(gpu(c)->name, NULL), tensor = gpu(c)->tensor_tflops;
	if (!(peak > 0 && tensor > 0))
		return 1;
	return g_num(c, tensor / peak * 100);
}

static int g_ridge(struct gcall *c)
{
	const struct gpu_info *g = gpu(c);
	if (!(g->tensor_tflops > 0 && g->copy_gbs > 0))
		return 1;
	return g_num(c, g->tensor_tflops * 1e3 / g->copy_gbs);
}

static int g_smem_per_sm(struct gcall *c) { return g_positive(c, (double)gpu(c)->hw.smem_per_sm); }

static int g_smem_total(struct gcall *c)
{
	const struct gpu_facts *hw = &gpu(c)->hw;
	if (!hw->smem_per_sm || hw->sm_count < 1)
		return 1;
	return g_num(c, (double)hw->smem_per_sm * hw->sm_count);
}

static int g_smem_over_copy(struct gcall *c)
{
	const struct gpu_info *g = gpu(c);
	if (!(g->ceil.smem_gbs > 0 && g->copy_gbs > 0))
		return 1;
	return g_num(c, g->ceil.smem_gbs / g->copy_gbs);
}

/* ---- run.* ---- */

static int g_run_date(struct gcall *c) { return g_text(c, c->rd->dates ? c->rd->dates : header(c)->date); }
static int g_run_days(struct gcall *c) { return g_text(c, c->rd->days && c->rd->days[0] ? c->rd->days : header(c)->date); }
static int g_run_file(struct gcall *c) { return g_text(c, c->rd->path); }
static int g_run_records(struct gcall *c) { return g_num(c, (double)c->rd->res->nrecords); }

/* notes are optional: "" where a header has none */
static const char *notes_text(const struct results_header *h) { return h ? (h->notes ? h->notes : "") : NULL; }
static int g_run_notes(struct gcall *c) { return g_text(c, notes_text(header(c))); }

/* attnprof's own records only: a captured call's check is {$v.capture.correctness} */
static int count_records(struct gcall *c, int (*counts)(const struct record *r))
{
	int n = 0;
	for (size_t i = 0; i < c->rd->res->nrecords; i++) {
		const struct record *r = &c->rd->res->records[i];
		if (!record_captured(r))
			n += counts(r);
	}
	return g_num(c, n);
}

static int failed(const struct record *r) { return r->error != NULL; }
static int checked(const struct record *r) { return r->checked; }
static int incorrect(const struct record *r) { return r->checked && !r->correct; }
static int g_run_failed(struct gcall *c) { return count_records(c, failed); }
static int g_run_checked(struct gcall *c) { return count_records(c, checked); }
static int g_run_incorrect(struct gcall *c) { return count_records(c, incorrect); }

static int g_run_gap(struct gcall *c)
{
	rdata_gap(c->rd, c->buf, GAP_TEXT_MAX);
	return g_text(c, c->buf);
}

/* What the records do not cover yet, each with the rule that found it
 * missing: a backward of a Hopper rung (FA3's), an fp8 record, a prefill
 * record at d = 256.  The count; buf "" when none is missing. */
int rdata_not_covered(const struct rdata *rd, char *buf, size_t len)
{
	int hopper_bwd = 0, fp8 = 0, d256 = 0;
	for (size_t i = 0; i < rd->res->nrecords; i++) {
		const struct record *r = &rd->res->records[i];
		if (r->error)
			continue;
		if (r->desc && r->desc->family == FAMILY_HOPPER && r->shape.pass != PASS_FWD)
			hopper_bwd = 1;
		if (!strncmp(dtype_name(r->shape.dtype), "fp8", 3))
			fp8 = 1;
		if (r->shape.phase == PHASE_PREFILL && r->shape.head_dim >= 256)
			d256 = 1;
	}
	const char *gone[3];
	int n = 0;
	if (!hopper_bwd)
		gone[n++] = "FA3's backward (no backward record of a Hopper rung)";
	if (!fp8)
		gone[n++] = "FP8 (no fp8 record)";
	if (!d256)
		gone[n++] = "d = 256 (no prefill record at d = 256)";
	size_t used = 0;
	buf[0] = '\0';
	for (int k = 0; k < n && used < len; k++) {
		int w = snprintf(buf + used, len - used, "%s%s", k ? k == n - 1 ? " and " : ", " : "", gone[k]);
		if (w < 0)
			break;
		used += (size_t)w;
	}
	return n;
}

static int g_run_not_covered(struct gcall *c)
{
	rdata_not_covered(c->rd, c->buf, sizeof c->buf);
	return g_text(c, c->buf);
}

/* attnprof's timed records (not a captured call's, not a failed one): those
 * run.runs and run.launches speak of */
static int timed_own(const struct record *r) { return !r->error && !record_captured(r) && r->time_ms > 0; }

/* run.runs: per results file drawn from, in the order recorded, how many of
 * its timed records were measured in more than one run (another file or a
 * repeat: rdata_runs), "5 of x.yaml's 12, 3 of z.yaml's 3 and none of y.yaml's 4
 * timed records" */
static int g_run_runs(struct gcall *c)
{
	const struct rdata *rd = c->rd;
	const int nfiles = rd->nruns > 1 && rd->origin && rd->run_names ? rd->nruns : 1;
	size_t used = 0;
	int said = 0;
	c->buf[0] = '\0';
	for (int f = 0; f < nfiles; f++) {
		int timed = 0, several = 0;
		for (size_t i = 0; i < rd->res->nrecords; i++) {
			const struct record *r = &rd->res->records[i];
			if ((nfiles > 1 && rd->origin[i] != f) || !timed_own(r))
				continue;
			double lo, hi;
			timed++;
			several += rdata_runs(rd, r, &lo, &hi) > 1;
		}
		if (!timed)
			continue;
		/* one file: its name, before "; repeat run: …" (rdata.path) */
		char name[64];
		snprintf(name, sizeof name, "%s", nfiles > 1 ? rd->run_names[f] : rd->path);
		name[strcspn(name, ";")] = '\0';
		const char *slash = strrchr(name, '/');
		char n[24];
		snprintf(n, sizeof n, "%d", several);
		int w = snprintf(c->buf + used, sizeof c->buf - used, "%s%s of %s's %d", said ? ", " : "",
				 several ? n : "none", slash ? slash + 1 : name, timed);
		if (w < 0 || (size_t)w >= sizeof c->buf - used)
			return 1;
		used += (size_t)w;
		said++;
	}
	if (!said || used + 16 >= sizeof c->buf)
		return 1;
	/* the last ", " becomes " and "; one unit for all */
	char *last = said > 1 ? strrchr(c->buf, ',') : NULL;
	if (last) {
		memmove(last + 4, last + 1, strlen(last + 1) + 1);
		memcpy(last, " and", 4);
	}
	strcat(c->buf, " timed records");
	return g_text(c, c->buf);
}

/* run.launches: the timed launches one median is taken over, "20" or
 * "20–30" (the fewest and the most of attnprof's timed records) */
static int g_run_launches(struct gcall *c)
{
	int lo = 0, hi = 0;
	for (size_t i = 0; i < c->rd->res->nrecords; i++) {
		const struct record *r = &c->rd->res->records[i];
		if (!timed_own(r) || r->repetitions < 1)
			continue;
		if (!lo || r->repetitions < lo) lo = r->repetitions;
		if (r->repetitions > hi) hi = r->repetitions;
	}
	if (!lo)
		return 1;
	if (lo == hi)
		snprintf(c->buf, sizeof c->buf, "%d", lo);
	else
		snprintf(c->buf, sizeof c->buf, "%d–%d", lo, hi);
	return g_text(c, c->buf);
}

/* program.timing_fwd, program.timing_bwd: how the captured calls were timed */
static int g_program_timing(struct gcall *c) { return g_text(c, capture_timing(c->rd, c->row->field == 1)); }

/* run.passes: the passes the records measured, as a phrase */
static int g_run_passes(struct gcall *c)
{
	int fwd = 0, bwd = 0;
	for (size_t i = 0; i < c->rd->res->nrecords; i++) {
		const struct record *r = &c->rd->res->records[i];
		if (r->error)
			continue;
		if (r->shape.pass == PASS_FWD)
			fwd = 1;
		else
			bwd = 1;
	}
	return g_text(c, fwd && bwd ? "forward and backward passes" : bwd ? "backward passes" : "forward pass");
}

static int g_run_synthetic(struct gcall *c)
{
	return g_text(c, c->rd->synthetic ? "synthetic test data, not measurements" : "");
}

/* ---- focus.* ---- */

static int g_focus_n(struct gcall *c) { return g_num(c, c->rd->focus.n); }
static int g_focus_d(struct gcall *c) { return g_num(c, c->rd->focus.d); }
static int g_focus_causal(struct gcall *c) { return g_text(c, c->rd->focus.causal > 0 ? "causal" : "non-causal"); }

/* ---- program.*: the captured program (attnprof record -- CMD) ---- */

static int g_program_notes(struct gcall *c) { return g_text(c, notes_text(c->rd->program)); }

static int g_program_ran(struct gcall *c)
{
	if (!c->rd->program)
		return 1;
	rdata_programs_ran(c->rd, c->buf, sizeof c->buf);
	return g_text(c, c->buf);
}

static int g_program_how(struct gcall *c)
{
	if (!c->rd->program)
		return 1;
	rdata_capture_how(c->rd, c->buf, sizeof c->buf);
	return g_text(c, c->buf);
}

/* the first captured program whose header counted its kernels (record --workload on), or NULL */
static const struct results_header *workload_program(const struct rdata *rd)
{
	for (int i = 0; i < rd->nprograms; i++)
		if (rd->programs[i].gpu_kernels && rd->programs[i].gpu_kernel_ms > 0)
			return &rd->programs[i];
	return NULL;
}

static int g_program_share(struct gcall *c)
{
	const struct results_header *h = workload_program(c->rd);
	return h ? g_num(c, h->attention_share * 100) : 1;
}

static int g_program_amdahl(struct gcall *c)
{
	const struct results_header *h = workload_program(c->rd);
	return h && h->amdahl_2x > 0 ? g_num(c, h->amdahl_2x) : 1;
}

/* Every global with its unit, what it is and the function that finds it,
 * a namespace's rows together, in the order errors list them (that of
 * docs/templates.md, "Globals"). */
const struct global_row global_rows[] = {
	{ "gpu", "name", U_NUM, "the GPU's name, as the driver gives it", g_header_text, HEADER(gpu.name) },
	{ "gpu", "chip", U_NUM, "the chip's name (CUPTI's)", g_header_text, HEADER(gpu.chip) },
	{ "gpu", "cc", U_NUM, "compute capability, \"9.0\"", g_cc },
	{ "gpu", "sm_count", U_INT, "SMs", g_sm_count },
	{ "gpu", "l2", U_BYTES, "L2 cache size", g_l2 },
	{ "gpu", "hbm", U_BYTES, "device memory", g_hbm },
	{ "gpu", "sm_clock", U_NUM, "maximum SM clock, \"1980 MHz\"", g_header_mhz, HEADER(gpu.hw.sm_clock_mhz) },
	{ "gpu", "mem_clock", U_NUM, "maximum memory clock, \"3201 MHz\"", g_header_mhz, HEADER(gpu.hw.mem_clock_mhz) },
	{ "gpu", "peak_hbm", U_GBS, "the data-sheet HBM bandwidth: memory clock × bus width", g_peak_hbm },
	{ "gpu", "copy", U_GBS, "measured device-to-device copy bandwidth, read + write", g_header_rate, HEADER(gpu.copy_gbs) },
	{ "gpu", "copy_of_peak", U_PCT, "measured copy bandwidth / peak_hbm", g_copy_of_peak },
	{ "gpu", "tensor", U_TFLOPS, "measured dense fp16 GEMM rate (cuBLAS)", g_header_rate, HEADER(gpu.tensor_tflops) },
	{ "gpu", "tensor_datasheet", U_TFLOPS, "the vendor's dense fp16 tensor peak (src/doc/datasheet.c), never a measurement",
	  g_tensor_datasheet },
	{ "gpu", "tensor_datasheet_source", U_NUM, "the data sheet tensor_datasheet is from", g_tensor_datasheet_source },
	{ "gpu", "tensor_of_datasheet", U_PCT, "measured tensor rate / tensor_datasheet", g_tensor_of_datasheet },
	{ "gpu", "ridge", U_FLOP_PER_BYTE, "the roofline's ridge: measured tensor rate / measured copy bandwidth", g_ridge },
	{ "gpu", "mma_sync", U_TFLOPS, "measured mma.sync rate (kernels/ceilings.cu)", g_header_rate,
	  HEADER(gpu.ceil.mma_sync_tflops) },
	{ "gpu", "l2_bw", U_GBS, "measured L2 read bandwidth (kernels/ceilings.cu)", g_header_rate, HEADER(gpu.ceil.l2_gbs) },
	{ "gpu", "hbm_read", U_GBS, "measured HBM read-only stream, a buffer of 32 L2s read once (kernels/ceilings.cu): decode's roof",
	  g_header_rate, HEADER(gpu.ceil.hbm_read_gbs) },
	{ "gpu", "smem_bw", U_GBS, "measured shared-memory bandwidth, all SMs (kernels/ceilings.cu)", g_header_rate,
	  HEADER(gpu.ceil.smem_gbs) },
	{ "gpu", "smem_per_sm", U_BYTES, "shared memory of an SM", g_smem_per_sm },
	{ "gpu", "smem_total", U_BYTES, "shared memory of all SMs", g_smem_total },
	{ "gpu", "smem_over_copy", U_RATIO, "smem_bw / copy", g_smem_over_copy },
	{ "gpu", "ceilings_method", U_NUM, "how the ceilings were measured, one line", g_header_text, HEADER(gpu.ceil.method) },
	{ "gpu", "driver", U_NUM, "driver version", g_header_text, HEADER(gpu.driver) },
	{ "gpu", "cuda", U_NUM, "CUDA runtime version", g_header_text, HEADER(gpu.cuda_runtime) },
	{ "gpu", "cupti", U_NUM, "CUPTI API version", g_header_text, HEADER(gpu.cupti) },
	{ "run", "date", U_NUM, "the recording date of every file drawn from, with the files' names when several days", g_run_date },
	{ "run", "days", U_NUM, "those days alone", g_run_days },
	{ "run", "host", U_NUM, "the host the results were recorded on", g_header_text, HEADER(host) },
	{ "run", "version", U_NUM, "attnprof's version that recorded them", g_header_text, HEADER(tool_version) },
	{ "run", "command", U_NUM, "the command line that recorded them (absolute paths by their file name)", g_run_command },
	{ "run", "spec", U_NUM, "the spec's name", g_header_text, HEADER(spec_name) },
	{ "run", "notes", U_NUM, "the header's notes (\"\" when none)", g_run_notes },
	{ "run", "file", U_NUM, "the results files", g_run_file },
	{ "run", "records", U_INT, "records in the results", g_run_records },
	{ "run", "failed", U_INT, "attnprof's records that failed", g_run_failed },
	{ "run", "incorrect", U_INT, "attnprof's records outside their tolerance", g_run_incorrect },
	{ "run", "checked", U_INT, "attnprof's records checked against the reference", g_run_checked },
	{ "run", "gap", U_NUM, "one line on hardware counters missing from the results, or \"\"", g_run_gap },
	{ "run", "not_covered", U_NUM, "what the records do not measure yet (FA3's backward, FP8, d = 256), each with why, or \"\"",
	  g_run_not_covered },
	{ "run", "runs", U_NUM, "per results file, how many of its timed records were measured in more than one run (another file or a repeat)",
	  g_run_runs },
	{ "run", "launches", U_NUM, "the timed launches a median is taken over: \"20\", or the fewest and the most (\"20–30\")",
	  g_run_launches },
	{ "run", "passes", U_NUM, "the passes measured: \"forward pass\", \"forward and backward passes\"", g_run_passes },
	{ "run", "synthetic", U_NUM, "\"synthetic test data, not measurements\" when the header says so, or \"\"", g_run_synthetic },
	{ "focus", "N", U_INT, "the focus sequence length", g_focus_n },
	{ "focus", "d", U_INT, "the focus head dimension", g_focus_d },
	{ "focus", "causal", U_NUM, "\"causal\" or \"non-causal\"", g_focus_causal },
	{ "program", "command", U_NUM, "the captured program's command", g_program_text, HEADER(spec_text) },
	{ "program", "record", U_NUM, "the attnprof record command line that captured it (absolute paths by their file name)",
	  g_program_record },
	{ "program", "date", U_NUM, "when it was captured", g_program_text, HEADER(date) },
	{ "program", "host", U_NUM, "where it was captured", g_program_text, HEADER(host) },
	{ "program", "notes", U_NUM, "how it ended, its notes (\"\" when none)", g_program_notes },
	{ "program", "ran", U_NUM, "a sentence per file with captured calls: what ran, how, when, where, how it ended", g_program_ran },
	{ "program", "timing_fwd", U_NUM, "how the captured forward calls were timed, from their time sources", g_program_timing, 0 },
	{ "program", "timing_bwd", U_NUM, "how the captured backward calls were timed, from their time sources", g_program_timing, 1 },
	{ "program", "how", U_NUM, "how the calls drawn were found, per origin with their count", g_program_how },
	{ "program", "attention_share", U_PCT,
	  "attention's share of the program's GPU time (record --workload on: the first captured program that counted its kernels)",
	  g_program_share },
	{ "program", "amdahl_2x", U_RATIO, "Amdahl's bound on that program's speed-up with attention 2x faster, 1 / ((1 - s) + s / 2)",
	  g_program_amdahl },
};
const size_t global_count = sizeof global_rows / sizeof global_rows[0];

const struct global_row *global_find(const char *ns, const char *name)
{
	for (size_t i = 0; i < global_count; i++)
		if (!strcmp(global_rows[i].ns, ns) && !strcmp(global_rows[i].name, name))
			return &global_rows[i];
	return NULL;
}

int global_namespace(const char *ns)
{
	for (size_t i = 0; i < global_count; i++)
		if (!strcmp(global_rows[i].ns, ns))
			return 1;
	return 0;
}

const char *global_nearest(const char *ns, const char *name)
{
	const char *names[sizeof global_rows / sizeof global_rows[0]];
	size_t n = 0;
	for (size_t i = 0; i < global_count; i++)
		if (!strcmp(global_rows[i].ns, ns))
			names[n++] = global_rows[i].name;
	return nearest_word(name, names, n);
}

const char *global_names(char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < global_count && used < len; i++) {
		const struct global_row *g = &global_rows[i];
		const int same_ns = i && !strcmp(global_rows[i - 1].ns, g->ns);
		int n = same_ns ? snprintf(buf + used, len - used, " %s", g->name)
				: snprintf(buf + used, len - used, "%s%s.%s", i ? "; " : "", g->ns, g->name);
		if (n < 0)
			break;
		used += (size_t)n;
	}
	return buf;
}

int global_eval(const struct rdata *rd, const struct global_row *g, struct gcall *c)
{
	c->rd = rd;
	c->row = g;
	c->is_text = 0;
	c->num = 0;
	c->text = NULL;
	c->buf[0] = '\0';
	return g->value(c);
}
