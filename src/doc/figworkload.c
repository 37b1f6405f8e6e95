/* figworkload.c: workload-share, a captured program's whole GPU time per
 * phase (figdesc.h; drawn by render/fig_wshare.c).
 *
 * From header.workload (record --workload on: every kernel's activity
 * record, capture/workload.h) of each captured program: a kernel of an
 * attention call takes its phase and pass from the call's record (the
 * record of that process whose launches hold a kernel of that name, the
 * one of the same grid where several do; else its pass by its name,
 * family_kernel_pass); every other kernel is a GEMM (a family rule of role
 * gemm, capture/family.c), communication (NCCL's) or the rest, and belongs
 * to the phase of the attention kernel that started last before it (the
 * first attention kernel's before any).  A phase other than decode holding
 * backward kernels is a training step (forward and backward); a forward
 * attention kernel after a backward one starts the next step (steps).  Times are kernel durations summed, as the
 * header's tallies (kernels overlapping on several streams each count).
 */
#include "doc/figdesc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture/family.h"
#include "capture/workload.h"

const char *const figdesc_ws_key[FD_WS_CATS] = { "attention_fwd", "attention_bwd", "gemm", "communication", "rest" };
const char *const figdesc_ws_label[FD_WS_CATS] = { "attention forward", "attention backward", "GEMMs", "communication",
						   "the rest" };

static const char *const phase_key[FD_WS_PHASES] = { "prefill", "decode", "unknown" };
static const char *const phase_label[FD_WS_PHASES] = { "prefill", "decode", "phase unknown" };

/* a record of this process whose launches hold a kernel of this name */
#define WS_MATCHES 8
struct ws_match {
	const struct record *r;
	int grid[3];
};
struct ws_name {
	size_t n;
	struct ws_match m[WS_MATCHES];
};

static int is_comm(const char *name)
{
	static const char *const pat[] = { "nccl", "Nccl", "NCCL" };
	for (size_t i = 0; i < sizeof pat / sizeof pat[0]; i++)
		if (strstr(name, pat[i]))
			return 1;
	return 0;
}

int workload_category(const char *name, int attention, int bwd)
{
	if (attention)
		return bwd ? WS_ATTN_BWD : WS_ATTN_FWD;
	if (is_comm(name))
		return WS_COMM;
	const struct family_rule *f = family_of_kernel(name);
	if (f && !strcmp(f->role, "gemm"))
		return WS_GEMM;
	return WS_REST;
}

static const struct workload_list *ws_list;
static int by_start(const void *a, const void *b)
{
	const uint64_t x = ws_list->k[*(const size_t *)a].start_ns, y = ws_list->k[*(const size_t *)b].start_ns;
	return x < y ? -1 : x > y;
}

/* the records of pid whose launches name each kernel name of w */
static void match_names(const struct rdata *rd, const struct workload_list *w, struct ws_name *names)
{
	for (size_t i = 0; i < rd->res->nrecords; i++) {
		const struct record *r = &rd->res->records[i];
		if (!r->capture || r->error)
			continue;
		for (size_t l = 0; l < r->nlaunches; l++) {
			const struct launch *la = &r->launches[l];
			if (!la->name)
				continue;
			for (size_t k = 0; k < w->nnames; k++) {
				struct ws_name *nm = &names[k];
				if (nm->n == WS_MATCHES || strcmp(w->names[k], la->name))
					continue;
				nm->m[nm->n].r = r;
				memcpy(nm->m[nm->n].grid, la->grid, sizeof la->grid);
				nm->n++;
			}
		}
	}
}

/* kernel k's call record: of its process, of its grid where one is */
static const struct record *kernel_record(const struct workload_list *w, const struct ws_name *names, size_t k)
{
	const struct workload_kernel *kn = &w->k[k];
	const struct ws_name *nm = &names[kn->name];
	const int pid = w->streams[kn->stream].pid;
	const struct record *first = NULL;
	for (size_t i = 0; i < nm->n; i++) {
		if (nm->m[i].r->capture->pid != pid)
			continue;
		if (!memcmp(nm->m[i].grid, kn->grid, sizeof kn->grid))
			return nm->m[i].r;
		if (!first)
			first = nm->m[i].r;
	}
	return first;
}

int workload_phases(const struct rdata *rd, const struct results_header *h, struct ws_phases *out)
{
	memset(out, 0, sizeof *out);
	const struct workload_list *w = &h->workload;
	if (!w->n)
		return 0;
	struct ws_name *names = calloc(w->nnames ? w->nnames : 1, sizeof *names);
	size_t *order = malloc(w->n * sizeof *order);
	if (!names || !order) {
		free(names);
		free(order);
		return -1;
	}
	match_names(rd, w, names);
	for (size_t i = 0; i < w->n; i++)
		order[i] = i;
	ws_list = w;
	qsort(order, w->n, sizeof *order, by_start);
	/* the phase before the first attention kernel: that kernel's */
	int cur = -1;
	for (size_t i = 0; i < w->n && cur < 0; i++)
		if (w->k[order[i]].attention) {
			const struct record *r = kernel_record(w, names, order[i]);
			cur = r && r->shape.phase == PHASE_DECODE ? 1 : r && r->shape.phase == PHASE_UNKNOWN ? 2 : 0;
		}
	if (cur < 0)
		cur = 0;
	int last_bwd[FD_WS_PHASES] = { 0 }; /* the phase's last attention kernel was a backward's */
	for (size_t i = 0; i < w->n; i++) {
		const struct workload_kernel *kn = &w->k[order[i]];
		const char *name = w->names[kn->name];
		int bwd = 0;
		if (kn->attention) {
			const struct record *r = kernel_record(w, names, order[i]);
			if (r) {
				cur = r->shape.phase == PHASE_DECODE ? 1 : r->shape.phase == PHASE_UNKNOWN ? 2 : 0;
				bwd = r->shape.pass == PASS_BWD;
				if (!out->rec[cur])
					out->rec[cur] = r;
			} else
				bwd = !strcmp(family_kernel_pass(name), "bwd");
		}
		if (kn->attention) {
			/* a forward after a backward starts the next step */
			if (!bwd && last_bwd[cur])
				out->steps[cur]++;
			if (bwd && !out->steps[cur])
				out->steps[cur] = 1;
			last_bwd[cur] = bwd;
		}
		const int c = workload_category(name, kn->attention, bwd);
		out->ms[cur][c] += (double)kn->dur_ns * 1e-6;
		out->kernels[cur]++;
		out->total_ms += (double)kn->dur_ns * 1e-6;
		if (kn->attention)
			out->attention_ms += (double)kn->dur_ns * 1e-6;
	}
	for (int p = 0; p < FD_WS_PHASES; p++)
		snprintf(out->label[p], sizeof out->label[p], "%s",
			 p != 1 && out->ms[p][WS_ATTN_BWD] > 0 ? "training step" : phase_label[p]);
	free(names);
	free(order);
	return 0;
}

int figdesc_workload_share(const struct rdata *rd, const struct figopts *o, struct figdesc *d)
{
	(void)o;
	snprintf(d->cond, sizeof d->cond,
		 "every kernel's activity record (record --workload on), durations summed (kernels overlapping on several "
		 "streams each count); a phase from the attention calls' records, other kernels in the phase of the "
		 "attention before them");
	int groups = 0;
	for (int g = 0; g < rd->nprograms; g++) {
		const struct results_header *h = &rd->programs[g];
		struct ws_phases ph;
		if (workload_phases(rd, h, &ph))
			return -1;
		if (!(ph.total_ms > 0))
			continue;
		d->group = groups++;
		char cmd[160];
		snprintf(cmd, sizeof cmd, "%s", h->spec_text ? h->spec_text : "the program");
		for (char *p = cmd; *p; p++)
			if (*p == '\n')
				*p = ' ';
		struct figitem *hd = figdesc_item(d, "head", "gpu_kernel_ms", NULL, ph.total_ms, "%s: %zu kernels, %.3f ms of GPU time",
						  cmd, h->workload.n, ph.total_ms);
		if (!hd)
			return -1;
		snprintf(hd->alt[0], sizeof hd->alt[0], "the program: %zu kernels, %.3f ms of GPU time", h->workload.n, ph.total_ms);
		for (int p = 0; p < FD_WS_PHASES; p++) {
			double t = 0;
			for (int c = 0; c < FD_WS_CATS; c++)
				t += ph.ms[p][c];
			if (!ph.kernels[p])
				continue;
			struct figitem *it = figdesc_item(d, "phase", "phase_ms", ph.rec[p], t, "%s", ph.label[p]);
			if (!it)
				return -1;
			snprintf(it->state, sizeof it->state, "%s", phase_key[p]);
			if (ph.steps[p] > 1)
				snprintf(it->label, sizeof it->label, "%zu steps, %.3f ms each", ph.steps[p], t / (double)ph.steps[p]);
			for (int c = 0; c < FD_WS_CATS; c++) {
				const int att = c == WS_ATTN_FWD || c == WS_ATTN_BWD;
				struct figitem *pt = figdesc_item(d, "part", figdesc_ws_key[c], att ? ph.rec[p] : NULL, ph.ms[p][c],
								  "%s %.3f ms", figdesc_ws_label[c], ph.ms[p][c]);
				if (!pt)
					return -1;
				snprintf(pt->state, sizeof pt->state, "%s", phase_key[p]);
			}
		}
		/* the share and bound of every kernel counted (the header's, the dropped ones too) where the
		 * header has them; else of the kernels kept */
		const double s = h->gpu_kernel_ms > 0 ? h->attention_share : ph.attention_ms / ph.total_ms,
			     b2 = h->gpu_kernel_ms > 0 && h->amdahl_2x > 0 ? h->amdahl_2x : workload_amdahl(s, 2);
		struct figitem *si = figdesc_item(d, "share", "attention_share", NULL, s, "attention %.1f %% of the GPU time", 100 * s);
		if (!si)
			return -1;
		snprintf(si->alt[0], sizeof si->alt[0], "attention %.1f %%", 100 * s);
		struct figitem *bi = figdesc_item(d, "bound", "amdahl_2x", NULL, b2,
						  "an attention 2× faster makes the program at most %.2f× faster (Amdahl)", b2);
		if (!bi)
			return -1;
		snprintf(bi->alt[0], sizeof bi->alt[0], "2× faster attention: at most %.2f×", b2);
		if (h->workload.dropped &&
		    !figdesc_item(d, "dropped", "dropped", NULL, (double)h->workload.dropped,
				  "%llu kernel%s past the list's bounds not drawn (counted in the share)",
				  (unsigned long long)h->workload.dropped, h->workload.dropped == 1 ? "" : "s"))
			return -1;
	}
	d->group = 0;
	if (!groups) {
		snprintf(d->notice, sizeof d->notice, "no program's kernels");
		snprintf(d->notice_why, sizeof d->notice_why,
			 "no captured program's header holds its kernels (record --workload on keeps them as header.workload)");
	}
	return 0;
}
