/* cupti_host.c: Profiler Host API wrappers; see cupti_host.h and cupti.h.
 *
 * cupti_profiler_host.h includes <string> but declares only C: this unit
 * finds an empty `string` in src/capture/cupti_compat (Makefile, CUDA=1 flags).
 */
#include "capture/cupti_host.h"
#include "capture/cupti.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cupti_profiler_host.h>
#include <cupti_result.h>
#include <cupti_version.h>

#include "util/error.h"

struct cupti_host {
	CUpti_Profiler_Host_Object *obj;
	char chip[64];
	const uint8_t *avail;
};

const char *cupti_result_name(int result)
{
	const char *s = NULL;
	if (cuptiGetResultString((CUptiResult)result, &s) != CUPTI_SUCCESS || !s)
		return "unknown CUPTI error";
	return s;
}

int cupti_host_open(struct cupti_host **out, const char *chip, const uint8_t *avail)
{
	*out = NULL;
	if (CUPTI_HOST_UNDER_ASAN)
		return error("%s", CUPTI_ASAN_REASON);
	struct cupti_host *h = calloc(1, sizeof *h);
	if (!h)
		return error("out of memory");
	snprintf(h->chip, sizeof h->chip, "%s", chip);
	h->avail = avail;
	CUpti_Profiler_Host_Initialize_Params p = { CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE };
	p.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
	p.pChipName = h->chip;
	p.pCounterAvailabilityImage = avail;
	CUptiResult r = cuptiProfilerHostInitialize(&p);
	if (r != CUPTI_SUCCESS) {
		free(h);
		/* NOT_INITIALIZED here has meant libnvperf_host was not found */
		return error("CUPTI profiler host for chip '%s' failed: %s%s", chip, cupti_result_name(r),
			     r == CUPTI_ERROR_NOT_INITIALIZED
				     ? " (libnvperf_host not found: put the CUPTI lib folder on LD_LIBRARY_PATH)"
				     : " (is the chip name one CUPTI supports, e.g. GH100?)");
	}
	h->obj = p.pHostObject;
	*out = h;
	return 0;
}

void cupti_host_close(struct cupti_host *h)
{
	if (!h)
		return;
	if (h->obj) {
		CUpti_Profiler_Host_Deinitialize_Params p = { CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE };
		p.pHostObject = h->obj;
		cuptiProfilerHostDeinitialize(&p);
	}
	free(h);
}

/* Is this one metric known, and can it be scheduled, on the chip?  A fresh
 * host object, since a failed add may leave the shared one half-filled. */
static int check_one(const struct cupti_host *h, const char *metric, CUptiResult *why)
{
	struct cupti_host *one;
	int prev = error_quiet(1);
	int rc = cupti_host_open(&one, h->chip, h->avail);
	error_quiet(prev);
	if (rc)
		return 0; /* cannot tell: don't blame the metric */
	CUpti_Profiler_Host_GetMetricProperties_Params mp = { CUpti_Profiler_Host_GetMetricProperties_Params_STRUCT_SIZE };
	mp.pHostObject = one->obj;
	mp.pMetricName = metric;
	*why = cuptiProfilerHostGetMetricProperties(&mp);
	if (*why == CUPTI_SUCCESS) {
		CUpti_Profiler_Host_ConfigAddMetrics_Params ap = { CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE };
		const char *names[1] = { metric };
		ap.pHostObject = one->obj;
		ap.ppMetricNames = names;
		ap.numMetrics = 1;
		*why = cuptiProfilerHostConfigAddMetrics(&ap);
	}
	cupti_host_close(one);
	return *why != CUPTI_SUCCESS;
}

static int blame_metric(const struct cupti_host *h, const char *const *metrics, size_t n,
			CUptiResult batch)
{
	for (size_t i = 0; i < n; i++) {
		CUptiResult why = CUPTI_SUCCESS;
		if (check_one(h, metrics[i], &why))
			return error("metric '%s' is unknown or not supported on chip %s (CUPTI: %s); "
				     "docs/metrics.md lists names valid on GH100",
				     metrics[i], h->chip, cupti_result_name(why));
	}
	return error("CUPTI cannot schedule these %zu metrics together on chip %s (%s)",
		     n, h->chip, cupti_result_name(batch));
}

int cupti_host_configure(struct cupti_host *h, const char *const *metrics, size_t n,
			 uint8_t **config, size_t *config_size, int *passes)
{
	*config = NULL;
	*config_size = 0;
	*passes = 0;
	if (n == 0)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!metrics[i] || !*metrics[i])
			return error("empty metric name (item %zu of the set)", i + 1);

	CUpti_Profiler_Host_ConfigAddMetrics_Params ap = { CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE };
	ap.pHostObject = h->obj;
	ap.ppMetricNames = (const char **)metrics;
	ap.numMetrics = n;
	CUptiResult r = cuptiProfilerHostConfigAddMetrics(&ap);
	if (r != CUPTI_SUCCESS)
		return blame_metric(h, metrics, n, r);

	CUpti_Profiler_Host_GetConfigImageSize_Params sp = { CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE };
	sp.pHostObject = h->obj;
	r = cuptiProfilerHostGetConfigImageSize(&sp);
	if (r != CUPTI_SUCCESS || !sp.configImageSize)
		return error("CUPTI config image size for chip %s: %s", h->chip, cupti_result_name(r));
	uint8_t *img = calloc(1, sp.configImageSize);
	if (!img)
		return error("out of memory");
	CUpti_Profiler_Host_GetConfigImage_Params gp = { CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE };
	gp.pHostObject = h->obj;
	gp.configImageSize = sp.configImageSize;
	gp.pConfigImage = img;
	r = cuptiProfilerHostGetConfigImage(&gp);
	if (r != CUPTI_SUCCESS) {
		free(img);
		return error("CUPTI config image for chip %s: %s", h->chip, cupti_result_name(r));
	}
	CUpti_Profiler_Host_GetNumOfPasses_Params pp = { CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE };
	pp.configImageSize = sp.configImageSize;
	pp.pConfigImage = img;
	r = cuptiProfilerHostGetNumOfPasses(&pp);
	if (r != CUPTI_SUCCESS || pp.numOfPasses < 1) {
		free(img);
		return error("CUPTI pass count for chip %s: %s", h->chip, cupti_result_name(r));
	}
	*config = img;
	*config_size = sp.configImageSize;
	*passes = (int)pp.numOfPasses;
	return 0;
}

int cupti_host_evaluate(struct cupti_host *h, const uint8_t *counter_data, size_t size,
			size_t range, const char *const *metrics, size_t n, double *values)
{
	CUpti_Profiler_Host_EvaluateToGpuValues_Params ep = { CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE };
	ep.pHostObject = h->obj;
	ep.pCounterDataImage = counter_data;
	ep.counterDataImageSize = size;
	ep.rangeIndex = range;
	ep.ppMetricNames = (const char **)metrics;
	ep.numMetrics = n;
	ep.pMetricValues = values;
	CUptiResult r = cuptiProfilerHostEvaluateToGpuValues(&ep);
	if (r != CUPTI_SUCCESS)
		return error("CUPTI could not evaluate %zu metrics for range %zu on chip %s: %s",
			     n, range, h->chip, cupti_result_name(r));
	return 0;
}

/* ---- host-only entry points (cupti.h) ---------------------------------- */

int cupti_validate_metrics(const char *chip, const char *const *metrics, size_t n,
			   int *passes)
{
	struct cupti_host *h;
	uint8_t *img;
	size_t size;
	int p = 0;
	if (passes)
		*passes = 0;
	if (!chip || !*chip)
		return error("no chip name to validate metrics against");
	if (cupti_host_open(&h, chip, NULL))
		return -1;
	int rc = cupti_host_configure(h, metrics, n, &img, &size, &p);
	cupti_host_close(h);
	if (rc)
		return -1;
	free(img);
	if (passes)
		*passes = p;
	return 0;
}

int cupti_chip_counters(const char *chip, const char *prefix, void (*fn)(const char *name, void *arg), void *arg)
{
	struct cupti_host *h;
	if (!chip || !*chip)
		return error("no chip name to list counters of");
	if (cupti_host_open(&h, chip, NULL))
		return -1;
	CUpti_Profiler_Host_GetBaseMetrics_Params b = { CUpti_Profiler_Host_GetBaseMetrics_Params_STRUCT_SIZE };
	b.pHostObject = h->obj;
	b.metricType = CUPTI_METRIC_TYPE_COUNTER;
	CUptiResult r = cuptiProfilerHostGetBaseMetrics(&b);
	if (r != CUPTI_SUCCESS) {
		cupti_host_close(h);
		return error("CUPTI cannot list the counters of chip %s: %s", chip, cupti_result_name(r));
	}
	int found = 0;
	const size_t plen = prefix ? strlen(prefix) : 0;
	for (size_t i = 0; i < b.numMetrics; i++)
		if (b.ppMetricNames[i] && !strncmp(b.ppMetricNames[i], prefix ? prefix : "", plen)) {
			fn(b.ppMetricNames[i], arg);
			found++;
		}
	cupti_host_close(h);
	return found;
}

const char *cupti_version_string(void)
{
	static char buf[64];
	uint32_t v = 0;
	if (cuptiGetVersion(&v) != CUPTI_SUCCESS)
		v = 0;
	snprintf(buf, sizeof buf, "CUPTI API %u (headers %d)", v, CUPTI_API_VERSION);
	return buf;
}
