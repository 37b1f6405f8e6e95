/* workload.c: attention's share of a program's GPU time (workload.h). */
#include "capture/workload.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void workload_add(struct results_header *h, double ns, int attention)
{
	if (!(ns >= 0))
		return;
	h->gpu_kernels++;
	h->gpu_kernel_ms += ns * 1e-6;
	if (attention) {
		h->attention_kernels++;
		h->attention_kernel_ms += ns * 1e-6;
	}
}

double workload_share(const struct results_header *h)
{
	if (!h->gpu_kernels || !(h->gpu_kernel_ms > 0))
		return -1;
	double s = h->attention_kernel_ms / h->gpu_kernel_ms;
	return s < 0 ? 0 : s > 1 ? 1 : s;
}

double workload_amdahl(double s, double k)
{
	if (!(s >= 0 && s <= 1))
		return NAN;
	if (k <= 0)
		return s >= 1 ? INFINITY : 1 / (1 - s);
	return 1 / ((1 - s) + s / k);
}

/* ---- the kept list ---- */

static size_t name_hash(const char *s)
{
	size_t x = 1469598103934665603ull;
	for (; *s; s++)
		x = (x ^ (unsigned char)*s) * 1099511628211ull;
	return x;
}

/* names[] index of name, added when new; -1 out of memory */
static long name_index(struct workload_list *w, const char *name)
{
	if (2 * (w->nnames + 1) > w->nslots) { /* grow and rebuild the index */
		size_t n = w->nslots ? 2 * w->nslots : 64;
		while (2 * (w->nnames + 1) > n)
			n *= 2;
		size_t *slots = calloc(n, sizeof *slots);
		char **names = realloc(w->names, n / 2 * sizeof *names);
		if (!slots || !names) {
			free(slots);
			if (names)
				w->names = names;
			return -1;
		}
		w->names = names;
		free(w->name_slots);
		w->name_slots = slots, w->nslots = n;
		for (size_t i = 0; i < w->nnames; i++) {
			size_t j = name_hash(w->names[i]) & (n - 1);
			while (slots[j])
				j = (j + 1) & (n - 1);
			slots[j] = i + 1;
		}
	}
	size_t j = name_hash(name) & (w->nslots - 1);
	for (; w->name_slots[j]; j = (j + 1) & (w->nslots - 1))
		if (!strcmp(w->names[w->name_slots[j] - 1], name))
			return (long)w->name_slots[j] - 1;
	char *copy = strdup(name);
	if (!copy)
		return -1;
	w->names[w->nnames++] = copy;
	w->name_slots[j] = w->nnames;
	return (long)w->nnames - 1;
}

/* streams[] index of (pid, id), added when new; -1 out of memory */
static long stream_index(struct workload_list *w, int pid, uint32_t id)
{
	if (w->last_stream < w->nstreams && w->streams[w->last_stream].pid == pid && w->streams[w->last_stream].id == id)
		return (long)w->last_stream;
	for (size_t i = 0; i < w->nstreams; i++)
		if (w->streams[i].pid == pid && w->streams[i].id == id)
			return (long)(w->last_stream = i);
	struct workload_stream *s = realloc(w->streams, (w->nstreams + 1) * sizeof *s);
	if (!s)
		return -1;
	w->streams = s;
	s[w->nstreams] = (struct workload_stream){ pid, id, 0 };
	return (long)(w->last_stream = w->nstreams++);
}

/* Keep one kernel within w's bounds: 1 kept, 0 dropped (counted), -1 out of memory (counted). */
static int keep(struct workload_list *w, int pid, uint32_t stream, const char *name, uint64_t start, uint64_t dur,
		const int grid[3], const int block[3], int attention)
{
	if (!w->per_stream)
		w->per_stream = WORKLOAD_PER_STREAM, w->most = WORKLOAD_MOST;
	long si = stream_index(w, pid, stream);
	if (si < 0 || w->n >= w->most || w->streams[si].kept >= w->per_stream) {
		w->dropped++;
		return si < 0 ? -1 : 0;
	}
	long ni = name_index(w, name && *name ? name : "(unnamed kernel)");
	if (ni >= 0 && w->n == w->cap) {
		size_t cap = w->cap ? 2 * w->cap : 1024;
		struct workload_kernel *k = realloc(w->k, cap * sizeof *k);
		if (k)
			w->k = k, w->cap = cap;
	}
	if (ni < 0 || w->n == w->cap) {
		w->dropped++;
		return -1;
	}
	struct workload_kernel *k = &w->k[w->n++];
	*k = (struct workload_kernel){ (uint32_t)ni, (uint32_t)si, start, dur, { grid[0], grid[1], grid[2] },
				       { block[0], block[1], block[2] }, attention != 0 };
	w->streams[si].kept++;
	return 1;
}

int workload_keep(struct results_header *h, int pid, uint32_t stream, const char *name, uint64_t start,
		  uint64_t end, const int grid[3], const int block[3], int attention)
{
	const uint64_t dur = end > start ? end - start : 0;
	workload_add(h, (double)dur, attention);
	return keep(&h->workload, pid, stream, name, start, dur, grid, block, attention) < 0 ? -1 : 0;
}

/* src's kept kernels and dropped count onto w */
static int append(struct workload_list *w, const struct workload_list *src)
{
	int rc = 0;
	w->dropped += src->dropped;
	for (size_t i = 0; i < src->n; i++) {
		const struct workload_kernel *k = &src->k[i];
		const struct workload_stream *s = &src->streams[k->stream];
		if (keep(w, s->pid, s->id, src->names[k->name], k->start_ns, k->dur_ns, k->grid, k->block, k->attention) < 0)
			rc = -1;
	}
	return rc;
}

int workload_list_copy(struct workload_list *dst, const struct workload_list *src)
{
	workload_list_release(dst);
	dst->per_stream = src->per_stream, dst->most = src->most;
	if (append(dst, src)) {
		workload_list_release(dst);
		return -1;
	}
	return 0;
}

int workload_merge(struct results_header *h, const struct results_header *part)
{
	h->gpu_kernels += part->gpu_kernels;
	h->gpu_kernel_ms += part->gpu_kernel_ms;
	h->attention_kernels += part->attention_kernels;
	h->attention_kernel_ms += part->attention_kernel_ms;
	if (!part->workload.n && !part->workload.dropped)
		return 0;
	if (!h->workload.per_stream)
		h->workload.per_stream = part->workload.per_stream, h->workload.most = part->workload.most;
	return append(&h->workload, &part->workload);
}

void workload_settle(struct results_header *h, char *line, size_t len)
{
	line[0] = '\0';
	double s = workload_share(h);
	if (s < 0)
		return;
	h->attention_share = s;
	h->amdahl_2x = workload_amdahl(s, 2);
	double lim = workload_amdahl(s, 0);
	char limit[64];
	if (isinf(lim))
		snprintf(limit, sizeof limit, "no bound");
	else
		snprintf(limit, sizeof limit, "%.2f×", lim);
	snprintf(line, len,
		 "workload: %llu kernels ran for %.3f ms of GPU time, %llu of them attention's for %.3f ms (%.1f %%): "
		 "an attention 2× faster makes the program at most %.2f× faster, an attention that took no time %s "
		 "(Amdahl; kernel durations summed, overlapping kernels each counted)",
		 (unsigned long long)h->gpu_kernels, h->gpu_kernel_ms, (unsigned long long)h->attention_kernels,
		 h->attention_kernel_ms, 100 * s, h->amdahl_2x, limit);
}
