/* workload.c: attention's share of a program's GPU time (workload.h). */
#include "capture/workload.h"

#include <math.h>
#include <stdio.h>

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

void workload_merge(struct results_header *h, const struct results_header *part)
{
	h->gpu_kernels += part->gpu_kernels;
	h->gpu_kernel_ms += part->gpu_kernel_ms;
	h->attention_kernels += part->attention_kernels;
	h->attention_kernel_ms += part->attention_kernel_ms;
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
