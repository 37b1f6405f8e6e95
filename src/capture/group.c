/* group.c: scanned kernels into calls and passes (group.h). */
#include "capture/group.h"

#include <stdlib.h>
#include <string.h>

#include "capture/family.h"
#include "util/error.h"

static int scanned(const struct record *r)
{
	const struct capture_info *c = r->capture;
	return c && c->origin && c->tid > 0 && c->launch > 0 &&
	       (!strcmp(c->origin, "family-scan") || !strcmp(c->origin, GROUP_AUX_ORIGIN));
}

static int is_aux(const struct record *r) { return !strcmp(r->capture->origin, GROUP_AUX_ORIGIN); }

/* Where an auxiliary kernel sits beside its pass (family.h: FAMILY_BEFORE,
 * FAMILY_AFTER, 0 either), by its rule */
static int aux_side(const struct record *r)
{
	const struct family_rule *f = r->nlaunches && r->launches[0].name ? family_of_kernel(r->launches[0].name) : NULL;
	return f ? f->side : 0;
}

static int same_place(const struct record *a, const struct record *b)
{
	return a->capture->pid == b->capture->pid && a->capture->tid == b->capture->tid &&
	       a->capture->stream == b->capture->stream;
}

static int same_kind(const struct record *a, const struct record *b)
{
	return !strcmp(a->variant ? a->variant : "", b->variant ? b->variant : "") && a->shape.pass == b->shape.pass;
}

/* A pass's first and last launch numbers on its thread. */
struct span {
	uint64_t first, last;
};

/* Move src's kernels into dst, before its own (front) or after them; the
 * sums, the time from the kernels and the notes follow. */
static int join(struct record *dst, struct span *ds, struct record *src, const struct span *ss, int front)
{
	size_t n = dst->nlaunches + src->nlaunches;
	struct launch *ls = calloc(n ? n : 1, sizeof *ls);
	if (!ls)
		return error("out of memory");
	const struct record *a = front ? src : dst, *b = front ? dst : src;
	memcpy(ls, a->launches, a->nlaunches * sizeof *ls);
	memcpy(ls + a->nlaunches, b->launches, b->nlaunches * sizeof *ls);
	free(dst->launches);
	free(src->launches);
	dst->launches = ls;
	dst->nlaunches = n;
	src->launches = NULL;
	src->nlaunches = 0;
	if (results_sum_launches(dst))
		return error("out of memory");
	struct capture_info *d = dst->capture, *s = src->capture;
	d->kernel_ms += s->kernel_ms;
	d->graph_launches += s->graph_launches;
	if (d->alloc_bytes >= 0 && s->alloc_bytes >= 0)
		d->alloc_bytes += s->alloc_bytes;
	if (d->time_source && !strcmp(d->time_source, "kernels"))
		dst->time_ms = dst->time_ms_min = dst->time_ms_max = d->kernel_ms;
	if (src->error && !dst->error) {
		dst->error = src->error;
		src->error = NULL;
	}
	if (front) {
		ds->first = ss->first;
		d->launch = s->launch;
	} else
		ds->last = ss->last;
	return 0;
}

int group_scanned(struct results *res, struct group_summary *sum)
{
	memset(sum, 0, sizeof *sum);
	size_t n = res->nrecords;
	if (!n)
		return 0;
	struct span *sp = calloc(n, sizeof *sp);
	char *gone = calloc(n, 1), *paired = calloc(n, 1);
	if (!sp || !gone || !paired) {
		free(sp), free(gone), free(paired);
		return error("out of memory");
	}
	int rc = 0;
	for (size_t i = 0; i < n && !rc; i++) {
		struct record *r = &res->records[i];
		if (!scanned(r))
			continue;
		sp[i].first = sp[i].last = r->capture->launch;
		/* the thread's previous scanned record on this stream */
		size_t prev = n;
		for (size_t j = i; j-- > 0;)
			if (!gone[j] && scanned(&res->records[j]) && same_place(&res->records[j], r)) {
				prev = j;
				break;
			}
		struct record *p = prev < n ? &res->records[prev] : NULL;
		const int adjacent = p && sp[prev].last + 1 == sp[i].first && same_kind(p, r);
		if (is_aux(r)) {
			if (adjacent && (is_aux(p) || aux_side(r) != FAMILY_BEFORE)) {
				/* it follows its pass, or the auxiliary kernels before one */
				sum->joined += !is_aux(p);
				rc = join(p, &sp[prev], r, &sp[i], 0);
				gone[i] = 1;
			} else if (p && is_aux(p)) { /* earlier ones that preceded nothing of theirs */
				sum->dropped += p->nlaunches;
				gone[prev] = 1;
			}
			continue;
		}
		if (adjacent && is_aux(p) && aux_side(p) != FAMILY_AFTER) { /* they precede this pass */
			sum->joined += p->nlaunches;
			rc = join(r, &sp[i], p, &sp[prev], 1);
			gone[prev] = 1;
		} else if (p && is_aux(p)) {
			sum->dropped += p->nlaunches;
			gone[prev] = 1;
		}
		free(r->capture->group_rule);
		if (!(r->capture->group_rule = strdup(GROUP_RULE)))
			rc = error("out of memory");
		if (r->shape.pass != PASS_BWD)
			continue;
		/* a backward: the latest forward of its family and stream (any thread) without one */
		for (size_t j = i; j-- > 0;) {
			struct record *f = &res->records[j];
			if (gone[j] || paired[j] || !scanned(f) || is_aux(f) || f->shape.pass != PASS_FWD ||
			    f->capture->pid != r->capture->pid || f->capture->stream != r->capture->stream ||
			    strcmp(f->variant ? f->variant : "", r->variant ? r->variant : ""))
				continue;
			paired[j] = 1;
			r->capture->call = f->capture->call;
			sum->paired++;
			break;
		}
	}
	/* an auxiliary kernel left at the end of its thread precedes nothing */
	for (size_t i = 0; i < n; i++)
		if (!gone[i] && scanned(&res->records[i]) && is_aux(&res->records[i])) {
			gone[i] = 1;
			sum->dropped += res->records[i].nlaunches;
		}
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		if (gone[i])
			record_release(&res->records[i]);
		else
			res->records[k++] = res->records[i];
	}
	res->nrecords = k;
	if (k != n) { /* results_find's index points at places that moved */
		kvlist_release(&res->keys);
		kvlist_init(&res->keys);
		res->nkeyed = 0;
	}
	free(sp);
	free(gone);
	free(paired);
	return rc;
}
