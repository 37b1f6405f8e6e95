/* cupti.c: the capture session (Range Profiler + Activity API); see cupti.h.
 *
 * Once per session (cupti_session_open): profiler initialise, chip name,
 * counter availability, host object, config image, pass count.  At the first
 * cupti_profile() call: cuptiRangeProfilerEnable(ctx) and the counter-data
 * image (sized once for CUPTI_MAX_RANGES ranges); the object then stays
 * enabled, stopped, until cupti_session_close().  Per call only:
 *   activity on (CONCURRENT_KERNEL) -> CounterDataImageInitialize (empty the
 *   image) -> SetConfig(AutoRange, KernelReplay or UserReplay) ->
 *   { Start; launch(); Stop } until all passes are submitted (one round with
 *   kernel replay, one per pass with user replay) ->
 *   DecodeData -> activity off + flush -> per range: name +
 *   EvaluateToGpuValues -> map ranges to kernel records (cupti_map.c).
 * Auto ranges go on counting across calls of one enabled object ("3", "4",
 * ... in the second call), so each call's names are rebased to its lowest.
 * Measured on the H200: Enable+Disable were most of the ~0.5 s per call; an
 * enabled but stopped range profiler left the timed runs' times unchanged
 * (docs/metrics.md).  ATTNPROF_CUPTI_PER_CALL=1 enables and disables around
 * every call as before (for comparison); ATTNPROF_CUPTI_TRACE=1 prints the
 * phases' wall times on stderr.
 *
 * We call the CUDA runtime only (no libcuda link, so the binary and tests
 * start on machines without a driver); the CUcontext CUPTI wants comes from
 * the driver's cuCtxGetCurrent through cudaGetDriverEntryPointByVersion.
 */
#include "capture/cupti.h"
#include "capture/cupti_host.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cuda.h>
#include <cuda_runtime_api.h>
#include <cupti_activity.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_result.h>
#include <cupti_target.h>

#include "occupancy.h"
#include "util/error.h"

/* ---- Activity API: kernel records ------------------------------------- */

struct kernel_info {
	struct cupti_kernel_rec rec; /* rec.name points at name below */
	char *name;
	int grid[3], block[3];
	int registers, static_smem, dynamic_smem;
	uint32_t stream;
	uint64_t end;       /* ns, GPU timestamp */
};

static struct {
	pthread_mutex_t lock;
	int registered;
	int collecting;
	size_t n, alloc;
	struct kernel_info *k;
	size_t dropped;
	int oom;
	int dirty; /* activity was on since the last complete flush */
	/* Program-wide (cupti_activity_program): kernel activity on for the
	 * whole run, every record handed to sink (outside act.lock's list);
	 * a call keeps only its own records, those of launches from its first
	 * on (correlation ids at or above floor: cupti_activity_floor) */
	int program;
	uint32_t floor;
	void (*sink)(const struct cupti_activity_kernel *k, void *arg);
	void *sink_arg;
} act = { PTHREAD_MUTEX_INITIALIZER, 0, 0, 0, 0, NULL, 0, 0, 0, 0, 0, NULL, NULL };

#define ACT_BUFFER_BYTES (1u << 20)

static void CUPTIAPI act_buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records)
{
	/* CUPTI wants 8-byte alignment; malloc gives 16 */
	*buffer = malloc(ACT_BUFFER_BYTES);
	*size = *buffer ? ACT_BUFFER_BYTES : 0;
	*max_records = 0;
}

static void act_keep(const CUpti_ActivityKernel10 *k)
{
	if (act.n == act.alloc) {
		size_t na = act.alloc ? 2 * act.alloc : 64;
		struct kernel_info *nk = realloc(act.k, na * sizeof *nk);
		if (!nk) {
			act.oom = 1;
			return;
		}
		act.k = nk;
		act.alloc = na;
	}
	struct kernel_info *ki = &act.k[act.n];
	memset(ki, 0, sizeof *ki);
	ki->name = strdup(k->name ? k->name : "?");
	if (!ki->name) {
		act.oom = 1;
		return;
	}
	ki->rec.correlation_id = k->correlationId;
	ki->rec.start = k->start;
	ki->end = k->end;
	ki->grid[0] = k->gridX; ki->grid[1] = k->gridY; ki->grid[2] = k->gridZ;
	ki->block[0] = k->blockX; ki->block[1] = k->blockY; ki->block[2] = k->blockZ;
	ki->registers = k->registersPerThread;
	ki->static_smem = k->staticSharedMemory;
	ki->dynamic_smem = k->dynamicSharedMemory;
	ki->stream = k->streamId;
	act.n++;
}

static void CUPTIAPI act_buffer_completed(CUcontext ctx, uint32_t stream, uint8_t *buffer,
					  size_t size, size_t valid)
{
	(void)size;
	CUpti_Activity *rec = NULL;
	pthread_mutex_lock(&act.lock);
	while (valid && cuptiActivityGetNextRecord(buffer, valid, &rec) == CUPTI_SUCCESS) {
		if (rec->kind != CUPTI_ACTIVITY_KIND_KERNEL && rec->kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL)
			continue;
		const CUpti_ActivityKernel10 *k = (const CUpti_ActivityKernel10 *)rec;
		if (act.sink) {
			const struct cupti_activity_kernel ak = {
				k->name, k->correlationId, k->start, k->end, k->graphNodeId, k->graphId, k->streamId,
				{ k->gridX, k->gridY, k->gridZ }, { k->blockX, k->blockY, k->blockZ },
				k->registersPerThread, k->staticSharedMemory, k->dynamicSharedMemory,
			};
			act.sink(&ak, act.sink_arg);
		}
		if (act.collecting && (!act.program || k->correlationId >= act.floor))
			act_keep(k);
	}
	size_t dropped = 0;
	if (cuptiActivityGetNumDroppedRecords(ctx, stream, &dropped) == CUPTI_SUCCESS)
		act.dropped += dropped;
	pthread_mutex_unlock(&act.lock);
	free(buffer);
}

static int activity_register(void);

int cupti_activity_program(void (*sink)(const struct cupti_activity_kernel *k, void *arg), void *arg)
{
	if (activity_register())
		return -1;
	pthread_mutex_lock(&act.lock);
	act.sink = sink;
	act.sink_arg = arg;
	act.program = 1;
	act.floor = 0;
	pthread_mutex_unlock(&act.lock);
	act.dirty = 1;
	CUptiResult r = cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
	if (r != CUPTI_SUCCESS) {
		act.program = 0;
		act.sink = NULL;
		return error("CUPTI kernel activity for the whole program: %s", cupti_result_name(r));
	}
	return 0;
}

void cupti_activity_floor(uint32_t correlation_id)
{
	pthread_mutex_lock(&act.lock);
	act.floor = correlation_id;
	pthread_mutex_unlock(&act.lock);
}

void cupti_activity_flush(void)
{
	if (act.registered)
		cuptiActivityFlushAll(1);
}

static void act_clear(void)
{
	for (size_t i = 0; i < act.n; i++)
		free(act.k[i].name);
	act.n = 0;
	act.dropped = 0;
	act.oom = 0;
}

/* ---- the session --------------------------------------------------------- */

struct cupti_call {
	int active;            /* between cupti_call_begin and _end/_abort */
	int started;           /* the range profiler is started (inside a pass) */
	int activity_on;
	int rounds;            /* passes begun */
	unsigned steps;        /* cupti_reuse_steps for this call */
	enum cupti_replay replay;
	double start, t0;      /* ms: call start, last trace mark */
};

struct cupti_session {
	char chip[64];
	int device;            /* CUDA device index */
	int activity_only;     /* kernel records only: no profiler initialised */
	size_t n;
	char **metrics;
	struct cupti_host *host;
	uint8_t *avail;
	uint8_t *config;
	size_t config_size;
	int passes;
	CUcontext ctx;
	struct occupancy_limits lim;
	int profiler_initialized;
	/* set up once, reused by every cupti_profile() (cupti_reuse_steps) */
	struct cupti_reuse reuse;
	CUpti_RangeProfiler_Object *rp; /* enabled object, or NULL */
	uint8_t *data;                  /* counter-data image */
	size_t data_size;
	size_t next_range;              /* the auto-range number CUPTI should use next */
	/* the profiled call in progress (cupti_call_begin .. cupti_call_end) */
	struct cupti_call call;
	/* window mode (cupti_window_open .. _close) */
	int window_open, window_pushed;
	size_t window_ranges;
	/* ATTNPROF_CUPTI_TRACE=1: phase times on stderr */
	int trace;
	unsigned calls;
	double open_ms, profile_ms;
};

static double mono_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return 1e3 * (double)t.tv_sec + 1e-6 * (double)t.tv_nsec;
}

#define TRACE(s, what, t0) do { if ((s)->trace) { double t_ = mono_ms(); \
	fprintf(stderr, "attnprof: cupti: %-26s %8.1f ms\n", what, t_ - (t0)); (t0) = t_; } } while (0)

#define CUDA_OK(call, what) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) \
	return error("%s: %s", what, cudaGetErrorString(e_)); } while (0)

static const char *how_to_enable =
	"hardware counters are restricted to administrators (RmProfilingAdminOnly=1 in /proc/driver/nvidia/params): "
	"run 'attnprof record' as root, or allow all users with the nvidia module option "
	"NVreg_RestrictProfilingToAdminUsers=0 (e.g. in /etc/modprobe.d/nvidia-profiling.conf, then reload the driver or reboot); "
	"timing and correctness are recorded without them";

static int unavailable(char *reason, size_t len, const char *fmt, const char *a, const char *b)
{
	if (reason && len)
		snprintf(reason, len, fmt, a ? a : "", b ? b : "");
	return CUPTI_UNAVAILABLE;
}

static int current_context(CUcontext *ctx)
{
	typedef CUresult (*ctx_get_current_fn)(CUcontext *);
	void *fn = NULL;
	enum cudaDriverEntryPointQueryResult q;
	CUDA_OK(cudaFree(0), "creating the CUDA context");
	CUDA_OK(cudaGetDriverEntryPointByVersion("cuCtxGetCurrent", &fn, 12000, cudaEnableDefault, &q),
		"looking up cuCtxGetCurrent");
	if (!fn || q != cudaDriverEntryPointSuccess)
		return error("the CUDA driver has no cuCtxGetCurrent");
	if (((ctx_get_current_fn)fn)(ctx) != CUDA_SUCCESS || !*ctx)
		return error("no current CUDA context after cudaFree(0)");
	return 0;
}

int cupti_occupancy_limits(int dev, struct occupancy_limits *lim)
{
	*lim = occupancy_gh100;
	int v;
#define ATTR(a, field) do { if (cudaDeviceGetAttribute(&v, a, dev) == cudaSuccess && v > 0) lim->field = v; } while (0)
	ATTR(cudaDevAttrWarpSize, warp_size);
	ATTR(cudaDevAttrMaxThreadsPerMultiProcessor, max_threads_per_sm);
	ATTR(cudaDevAttrMaxBlocksPerMultiprocessor, max_blocks_per_sm);
	ATTR(cudaDevAttrMaxThreadsPerBlock, max_threads_per_block);
	ATTR(cudaDevAttrMaxRegistersPerMultiprocessor, regs_per_sm);
	ATTR(cudaDevAttrMaxSharedMemoryPerMultiprocessor, smem_per_sm);
	ATTR(cudaDevAttrMaxSharedMemoryPerBlockOptin, smem_per_block_max);
	ATTR(cudaDevAttrReservedSharedMemoryPerBlock, smem_reserved_per_block);
#undef ATTR
	return 0;
}

static int activity_register(void)
{
	if (act.registered)
		return 0;
	CUptiResult r = cuptiActivityRegisterCallbacks(act_buffer_requested, act_buffer_completed);
	if (r != CUPTI_SUCCESS)
		return error("CUPTI activity callbacks: %s", cupti_result_name(r));
	act.registered = 1;
	return 0;
}

/* Device support and counter availability; CUPTI_UNAVAILABLE with reason. */
static int probe_device(struct cupti_session *s, char *reason, size_t len)
{
	if (CUPTI_HOST_UNDER_ASAN)
		return unavailable(reason, len, "%s%s", CUPTI_ASAN_REASON, "");
	int count = 0;
	cudaError_t ce = cudaGetDeviceCount(&count);
	if (ce != cudaSuccess || count < 1)
		return unavailable(reason, len, "no CUDA GPU found (%s)%s",
				   ce != cudaSuccess ? cudaGetErrorString(ce) : "0 devices", "");
	/* the current device: another program's (attached, never changed), or
	 * the one record selected (--device, 0 by default) */
	if (cudaGetDevice(&s->device) != cudaSuccess)
		return unavailable(reason, len, "cannot find the current CUDA device%s%s", "", "");
	if (current_context(&s->ctx))
		return unavailable(reason, len, "cannot create a CUDA context on the device%s%s", "", "");
	if (s->activity_only)
		return 0;

	CUpti_Profiler_Initialize_Params ip = { CUpti_Profiler_Initialize_Params_STRUCT_SIZE };
	CUptiResult r = cuptiProfilerInitialize(&ip);
	if (r == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES || r == CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES)
		return unavailable(reason, len, "%s%s", how_to_enable, "");
	if (r != CUPTI_SUCCESS)
		return unavailable(reason, len, "CUPTI profiler initialisation failed: %s%s",
				   cupti_result_name(r), "");
	s->profiler_initialized = 1;

	CUpti_Profiler_DeviceSupported_Params sp = { CUpti_Profiler_DeviceSupported_Params_STRUCT_SIZE };
	sp.cuDevice = s->device;
	sp.api = CUPTI_PROFILER_RANGE_PROFILING;
	r = cuptiProfilerDeviceSupported(&sp);
	if (r == CUPTI_SUCCESS && sp.isSupported != CUPTI_PROFILER_CONFIGURATION_SUPPORTED) {
		const char *what =
			sp.architecture != CUPTI_PROFILER_CONFIGURATION_SUPPORTED ? "its architecture is older than compute capability 7.0" :
			sp.vGpu == CUPTI_PROFILER_CONFIGURATION_DISABLED ? "it is a vGPU with profiling disabled (enable it in the vGPU's profile)" :
			sp.vGpu != CUPTI_PROFILER_CONFIGURATION_SUPPORTED ? "it is a vGPU that does not support profiling" :
			sp.confidentialCompute != CUPTI_PROFILER_CONFIGURATION_SUPPORTED ? "confidential computing is on" :
			sp.cmp != CUPTI_PROFILER_CONFIGURATION_SUPPORTED ? "it is a crypto-mining processor" :
			sp.sli != CUPTI_PROFILER_CONFIGURATION_SUPPORTED ? "SLI is enabled" :
			sp.wsl != CUPTI_PROFILER_CONFIGURATION_SUPPORTED ? "WSL does not support it here" : "of its configuration";
		return unavailable(reason, len, "CUPTI range profiling is not supported on device 0: %s%s", what, "");
	}

	CUpti_Device_GetChipName_Params cp = { CUpti_Device_GetChipName_Params_STRUCT_SIZE };
	cp.deviceIndex = (size_t)s->device;
	r = cuptiDeviceGetChipName(&cp);
	if (r != CUPTI_SUCCESS || !cp.pChipName)
		return unavailable(reason, len, "CUPTI cannot name device 0's chip: %s%s", cupti_result_name(r), "");
	snprintf(s->chip, sizeof s->chip, "%s", cp.pChipName);

	CUpti_Profiler_GetCounterAvailability_Params ap = { CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE };
	ap.ctx = s->ctx;
	r = cuptiProfilerGetCounterAvailability(&ap);
	if (r == CUPTI_SUCCESS && ap.counterAvailabilityImageSize) {
		s->avail = calloc(1, ap.counterAvailabilityImageSize);
		if (!s->avail)
			return error("out of memory");
		ap.pCounterAvailabilityImage = s->avail;
		r = cuptiProfilerGetCounterAvailability(&ap);
	}
	if (r == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES || r == CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES)
		return unavailable(reason, len, "%s%s", how_to_enable, "");
	if (r != CUPTI_SUCCESS)
		return unavailable(reason, len, "CUPTI cannot read counter availability on %s: %s",
				   s->chip, cupti_result_name(r));
	return 0;
}

int cupti_session_open_activity(struct cupti_session **out, char *reason, size_t reason_len)
{
	*out = NULL;
	struct cupti_session *s = calloc(1, sizeof *s);
	if (!s)
		return error("out of memory");
	s->activity_only = 1;
	int rc = probe_device(s, reason, reason_len);
	if (!rc)
		cupti_occupancy_limits(s->device, &s->lim);
	if (!rc && activity_register())
		rc = -1;
	if (rc) {
		cupti_session_close(s);
		return rc;
	}
	*out = s;
	return 0;
}

static int env_is_1(const char *name)
{
	const char *v = getenv(name);
	return v && !strcmp(v, "1");
}

int cupti_session_open(struct cupti_session **out, const char *const *metrics,
		       size_t n, char *reason, size_t reason_len)
{
	*out = NULL;
	if (reason && reason_len)
		reason[0] = '\0';
	struct cupti_session *s = calloc(1, sizeof *s);
	if (!s)
		return error("out of memory");
	s->trace = n && env_is_1("ATTNPROF_CUPTI_TRACE");
	s->reuse.per_call = env_is_1("ATTNPROF_CUPTI_PER_CALL");
	double t0 = mono_ms(), start = t0;
	int rc = probe_device(s, reason, reason_len);
	if (rc)
		goto fail;
	TRACE(s, "open: device + availability", t0);
	rc = -1;
	cupti_occupancy_limits(s->device, &s->lim);
	if (cupti_host_open(&s->host, s->chip, s->avail))
		goto fail;
	if (cupti_host_configure(s->host, metrics, n, &s->config, &s->config_size, &s->passes))
		goto fail;
	TRACE(s, "open: host + config image", t0);
	s->metrics = calloc(n ? n : 1, sizeof *s->metrics);
	if (!s->metrics) {
		error("out of memory");
		goto fail;
	}
	for (size_t i = 0; i < n; i++) {
		if (!(s->metrics[i] = strdup(metrics[i]))) {
			error("out of memory");
			goto fail;
		}
		s->n = i + 1;
	}
	if (activity_register())
		goto fail;
	s->open_ms = mono_ms() - start;
	*out = s;
	return 0;
fail:
	cupti_session_close(s);
	return rc;
}

int cupti_session_passes(const struct cupti_session *s)
{
	return s ? s->passes : 0;
}

const char *cupti_session_chip(const struct cupti_session *s)
{
	return s ? s->chip : "";
}

/* Start and stop the range profiler of the session's current set-up;
 * *all_submitted (when asked) says whether CUPTI has had every pass. */
static CUptiResult range_profiler_start(struct cupti_session *s)
{
	CUpti_RangeProfiler_Start_Params p = { CUpti_RangeProfiler_Start_Params_STRUCT_SIZE };
	p.pRangeProfilerObject = s->rp;
	return cuptiRangeProfilerStart(&p);
}

static CUptiResult range_profiler_stop(struct cupti_session *s, int *all_submitted)
{
	CUpti_RangeProfiler_Stop_Params p = { CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE };
	p.pRangeProfilerObject = s->rp;
	CUptiResult r = cuptiRangeProfilerStop(&p);
	if (all_submitted)
		*all_submitted = p.isAllPassSubmitted;
	return r;
}

/* What synchronizing (ce) and stopping the range profiler (sr) went
 * wrong with, stopping's first: -1 once said, else 0. */
static int stop_failed(const struct cupti_session *s, cudaError_t ce, CUptiResult sr)
{
	if (sr != CUPTI_SUCCESS)
		return error("stopping the CUPTI range profiler on %s: %s", s->chip, cupti_result_name(sr));
	if (ce != cudaSuccess)
		return error("a profiled kernel failed: %s", cudaGetErrorString(ce));
	return 0;
}

static void range_profiler_disable(struct cupti_session *s)
{
	if (!s->rp)
		return;
	CUpti_RangeProfiler_Disable_Params dp = { CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE };
	dp.pRangeProfilerObject = s->rp;
	cuptiRangeProfilerDisable(&dp);
	s->rp = NULL;
	s->next_range = 0;
}

void cupti_session_close(struct cupti_session *s)
{
	if (!s)
		return;
	double t0 = mono_ms();
	cupti_call_abort(s);
	if (s->window_open) { /* the caller closes a window it wants the counters of */
		cudaDeviceSynchronize();
		range_profiler_stop(s, NULL);
		s->window_open = 0;
	}
	range_profiler_disable(s);
	TRACE(s, "close: disable", t0);
	if (s->trace)
		fprintf(stderr, "attnprof: cupti: session: open %.1f ms, %u profiled call%s %.1f ms (%.1f ms each)%s\n",
			s->open_ms, s->calls, s->calls == 1 ? "" : "s", s->profile_ms,
			s->calls ? s->profile_ms / s->calls : 0.0,
			s->reuse.per_call ? ", range profiler enabled per call" : ", range profiler enabled once");
	cupti_host_close(s->host);
	for (size_t i = 0; i < s->n; i++)
		free(s->metrics[i]);
	free(s->metrics);
	free(s->config);
	free(s->avail);
	free(s->data);
	act_clear();
	if (s->profiler_initialized) {
		CUpti_Profiler_DeInitialize_Params dp = { CUpti_Profiler_DeInitialize_Params_STRUCT_SIZE };
		cuptiProfilerDeInitialize(&dp);
	}
	free(s);
}

void cupti_launches_free(struct launch *launches, size_t n)
{
	if (!launches)
		return;
	for (size_t i = 0; i < n; i++)
		launch_release(&launches[i]);
	free(launches);
}

/* ---- one profiled call ---------------------------------------------------- */

#define CUPTI_OK(call, what) do { CUptiResult r_ = (call); if (r_ != CUPTI_SUCCESS) { \
	error("%s on %s: %s", what, s->chip, cupti_result_name(r_)); goto out; } } while (0)

/* A counter-data image sized for the session's metrics and CUPTI_MAX_RANGES
 * ranges, replacing any earlier one.  0 or -1 via error() (then none). */
static int make_counter_data(struct cupti_session *s)
{
	free(s->data);
	s->data = NULL;
	s->data_size = 0;
	CUpti_RangeProfiler_GetCounterDataSize_Params dsp = { CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE };
	dsp.pRangeProfilerObject = s->rp;
	dsp.pMetricNames = (const char **)s->metrics;
	dsp.numMetrics = s->n;
	dsp.maxNumOfRanges = CUPTI_MAX_RANGES;
	dsp.maxNumRangeTreeNodes = CUPTI_MAX_RANGES;
	CUPTI_OK(cuptiRangeProfilerGetCounterDataSize(&dsp), "sizing the CUPTI counter data");
	if (!(s->data = calloc(1, dsp.counterDataSize)))
		return error("out of memory");
	s->data_size = dsp.counterDataSize;
	return 0;
out:
	return -1;
}

/* An empty counter-data image (ranges of earlier calls gone) bound to the
 * session's config for ranges of this kind and this replay.  0 or -1 via
 * error(). */
static int configure_ranges(struct cupti_session *s, CUpti_ProfilerRange range, CUpti_ProfilerReplayMode replay)
{
	CUpti_RangeProfiler_CounterDataImage_Initialize_Params dip = { CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE };
	dip.pRangeProfilerObject = s->rp;
	dip.counterDataSize = s->data_size;
	dip.pCounterData = s->data;
	CUPTI_OK(cuptiRangeProfilerCounterDataImageInitialize(&dip), "initialising the CUPTI counter data");
	CUpti_RangeProfiler_SetConfig_Params cp = { CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE };
	cp.pRangeProfilerObject = s->rp;
	cp.configSize = s->config_size;
	cp.pConfig = s->config;
	cp.counterDataImageSize = s->data_size;
	cp.pCounterDataImage = s->data;
	cp.range = range;
	cp.replayMode = replay;
	cp.maxRangesPerPass = CUPTI_MAX_RANGES;
	cp.numNestingLevels = 1;
	cp.minNestingLevel = 1;
	cp.passIndex = 0;
	cp.targetNestingLevel = 1;
	CUPTI_OK(cuptiRangeProfilerSetConfig(&cp), range == CUPTI_UserRange
		 ? "configuring the CUPTI range profiler (user ranges)" : "configuring the CUPTI range profiler");
	return 0;
out:
	return -1;
}

/* The ranges of the decoded counter data: each one's name (CUPTI's, freed
 * by free_ranges) and its metrics' values (*n rows of s->n).  0, or -1 via
 * error() with nothing left allocated. */
static int read_ranges(struct cupti_session *s, char ***names, double **values, size_t *n)
{
	char **nm = NULL;
	double *v = NULL;
	size_t nr = 0;
	*names = NULL;
	*values = NULL;
	*n = 0;
	CUpti_RangeProfiler_GetCounterDataInfo_Params ip = { CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE };
	ip.pCounterDataImage = s->data;
	ip.counterDataImageSize = s->data_size;
	CUPTI_OK(cuptiRangeProfilerGetCounterDataInfo(&ip), "counting CUPTI ranges");
	nr = ip.numTotalRanges;
	nm = calloc(nr ? nr : 1, sizeof *nm);
	v = calloc((nr ? nr : 1) * s->n, sizeof *v);
	if (!nm || !v) {
		error("out of memory");
		goto out;
	}
	for (size_t i = 0; i < nr; i++) {
		CUpti_RangeProfiler_CounterData_GetRangeInfo_Params rp = { CUpti_RangeProfiler_CounterData_GetRangeInfo_Params_STRUCT_SIZE };
		rp.pCounterDataImage = s->data;
		rp.counterDataImageSize = s->data_size;
		rp.rangeIndex = i;
		rp.rangeDelimiter = "/";
		CUPTI_OK(cuptiRangeProfilerCounterDataGetRangeInfo(&rp), "naming a CUPTI range");
		nm[i] = (char *)rp.rangeName;
		if (cupti_host_evaluate(s->host, s->data, s->data_size, i, (const char *const *)s->metrics, s->n, v + i * s->n))
			goto out;
	}
	*names = nm;
	*values = v;
	*n = nr;
	return 0;
out:
	for (size_t i = 0; nm && i < nr; i++)
		free(nm[i]);
	free(nm);
	free(v);
	return -1;
}

static void free_ranges(char **names, size_t n)
{
	for (size_t i = 0; names && i < n; i++)
		free(names[i]);
	free(names);
}

/* Kernel activity is on only around a profiled call, so the timed runs in
 * between produce no records; activity_end() delivers every record with one
 * forced flush, so the next activity_begin() has nothing stale to flush
 * unless an earlier call ended without it. */
static int activity_begin(void)
{
	if (act.dirty)
		cuptiActivityFlushAll(1);
	pthread_mutex_lock(&act.lock);
	act_clear();
	act.collecting = 1;
	act.floor = UINT32_MAX; /* program-wide: nothing until the call's first launch (cupti_activity_floor) */
	pthread_mutex_unlock(&act.lock);
	act.dirty = 1;
	CUptiResult r = cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
	if (r != CUPTI_SUCCESS)
		return error("CUPTI kernel activity: %s", cupti_result_name(r));
	return 0;
}

static void activity_end(void)
{
	cudaDeviceSynchronize();
	int flushed = cuptiActivityFlushAll(1) == CUPTI_SUCCESS;
	if (!act.program)
		cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
	if (flushed && !act.program)
		act.dirty = 0;
	pthread_mutex_lock(&act.lock);
	act.collecting = 0;
	pthread_mutex_unlock(&act.lock);
}

static int fill_launch(struct cupti_session *s, const struct kernel_info *k, struct launch *l)
{
	memset(l, 0, sizeof *l);
	kvlist_init(&l->metrics);
	if (!(l->name = strdup(k->name)))
		return error("out of memory");
	memcpy(l->grid, k->grid, sizeof l->grid);
	memcpy(l->block, k->block, sizeof l->block);
	l->registers = k->registers;
	l->static_smem = k->static_smem;
	l->dynamic_smem = k->dynamic_smem;
	l->stream = k->stream;
	l->duration_ns = k->end > k->rec.start ? (double)(k->end - k->rec.start) : 0;
	l->correlation_id = k->rec.correlation_id;
	struct occupancy occ;
	int threads = k->block[0] * k->block[1] * k->block[2];
	int prev = error_quiet(1);
	int rc = occupancy_compute(&s->lim, threads, k->registers, (size_t)k->static_smem,
				   (size_t)k->dynamic_smem, &occ);
	error_quiet(prev);
	l->theoretical_occupancy = rc ? 0 : occ.occupancy;
	if (!(l->occupancy_limiter = strdup(rc ? "unknown" : occupancy_limiter_name(occ.limiter))))
		return error("out of memory");
	return 0;
}

/* Kernels only, no counters (a session with no metrics): one record per
 * launch, in launch order, mapped against synthetic range names. */
static int collect_activity_only(struct cupti_session *s, struct launch **launches, size_t *nlaunches)
{
	if (act.oom)
		return error("out of memory collecting kernel records");
	size_t n = act.n;
	char (*names)[24] = calloc(n ? n : 1, sizeof *names);
	const char **ranges = calloc(n ? n : 1, sizeof *ranges);
	struct cupti_kernel_rec *recs = calloc(n ? n : 1, sizeof *recs);
	size_t *map = calloc(n ? n : 1, sizeof *map);
	struct launch *out = NULL;
	int rc = -1;
	if (!names || !ranges || !recs || !map) {
		error("out of memory");
		goto done;
	}
	for (size_t i = 0; i < n; i++) {
		recs[i] = act.k[i].rec;
		recs[i].name = act.k[i].name;
	}
	/* count distinct launches: the mapping collapses replays */
	size_t distinct = 0;
	for (size_t i = 0; i < n; i++) {
		int seen = 0;
		for (size_t j = 0; j < i && !seen; j++)
			seen = recs[j].correlation_id == recs[i].correlation_id;
		if (!seen)
			distinct++;
	}
	for (size_t i = 0; i < distinct; i++) {
		snprintf(names[i], sizeof names[i], "%zu", i);
		ranges[i] = names[i];
	}
	if (cupti_map_ranges(ranges, distinct, recs, n, map))
		goto done;
	out = calloc(distinct ? distinct : 1, sizeof *out);
	if (!out) {
		error("out of memory");
		goto done;
	}
	for (size_t i = 0; i < distinct; i++)
		if (fill_launch(s, &act.k[map[i]], &out[i])) {
			cupti_launches_free(out, i + 1);
			out = NULL;
			goto done;
		}
	*launches = out;
	*nlaunches = distinct;
	rc = 0;
done:
	free(names);
	free(ranges);
	free(recs);
	free(map);
	return rc;
}

const char *cupti_replay_name(enum cupti_replay r)
{
	return r == CUPTI_REPLAY_USER ? "user" : "kernel";
}

/* Leave a call: activity off, the range profiler kept for the next call
 * unless this one failed (or per-call mode), timing traced. */
static void call_finish(struct cupti_session *s, int ok)
{
	struct cupti_call *c = &s->call;
	if (c->activity_on)
		activity_end();
	c->activity_on = 0;
	if (s->n) {
		cupti_reuse_after(&s->reuse, c->steps, ok);
		if (!s->reuse.enabled)
			range_profiler_disable(s); /* per-call mode, or a failed call: start afresh next time */
	}
	c->active = 0;
	s->calls++;
	double ms = mono_ms() - c->start;
	s->profile_ms += ms;
	if (s->trace)
		fprintf(stderr, "attnprof: cupti: call %u: %d round%s, %s replay, %.1f ms%s\n", s->calls, c->rounds,
			c->rounds == 1 ? "" : "s", cupti_replay_name(c->replay), ms, ok ? "" : " (failed)");
}

int cupti_call_begin(struct cupti_session *s, enum cupti_replay replay)
{
	if (!s)
		return error("a profiled call without a CUPTI session");
	if (s->call.active)
		return error("a profiled call began while another is open: calls do not nest");
	struct cupti_call *c = &s->call;
	memset(c, 0, sizeof *c);
	c->replay = replay;
	c->start = c->t0 = mono_ms();
	c->active = 1;
	if (activity_begin())
		goto fail;
	c->activity_on = 1;
	TRACE(s, "activity on", c->t0);
	if (s->n == 0)
		return 0;

	c->steps = cupti_reuse_steps(&s->reuse);
	if (c->steps & CUPTI_STEP_ENABLE) {
		range_profiler_disable(s); /* a failed call's object, if any */
		CUpti_RangeProfiler_Enable_Params ep = { CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE };
		ep.ctx = s->ctx;
		CUPTI_OK(cuptiRangeProfilerEnable(&ep), "enabling the CUPTI range profiler");
		s->rp = ep.pRangeProfilerObject;
		s->next_range = 0;
		TRACE(s, "range profiler enable", c->t0);
	}
	if (!s->rp) {
		error("CUPTI range profiler not enabled on %s", s->chip);
		goto fail;
	}
	if (c->steps & CUPTI_STEP_SIZE_IMAGE) {
		if (make_counter_data(s))
			goto fail;
		TRACE(s, "counter data size + alloc", c->t0);
	}

	/* per call: an empty image (ranges of earlier calls gone) bound by SetConfig */
	if (configure_ranges(s, CUPTI_AutoRange, replay == CUPTI_REPLAY_USER ? CUPTI_UserReplay : CUPTI_KernelReplay))
		goto fail;
	TRACE(s, "counter data init + set config", c->t0);
	return 0;
out:
fail:
	call_finish(s, 0);
	return -1;
}

int cupti_pass_begin(struct cupti_session *s)
{
	struct cupti_call *c = &s->call;
	if (!c->active)
		return error("a profiling pass outside a profiled call");
	/* Kernel replay submits every pass in one round, user replay one pass
	 * per round; allow one more round in case CUPTI asks, never forever. */
	if (++c->rounds > (s->n ? s->passes : 1) + 1) {
		error("CUPTI still wants passes after %d rounds of %d-pass profiling on %s",
		      c->rounds - 1, s->passes, s->chip);
		goto out;
	}
	if (s->n == 0)
		return 0;
	CUPTI_OK(range_profiler_start(s), "starting the CUPTI range profiler");
	c->started = 1;
	TRACE(s, "  start", c->t0);
	return 0;
out:
	call_finish(s, 0);
	return -1;
}

int cupti_pass_end(struct cupti_session *s, int *all_submitted)
{
	struct cupti_call *c = &s->call;
	*all_submitted = 0;
	if (!c->active)
		return error("a profiling pass ended outside a profiled call");
	TRACE(s, "  launches (inside the range)", c->t0);
	cudaError_t ce = cudaDeviceSynchronize();
	TRACE(s, "  synchronize", c->t0);
	CUptiResult sr = CUPTI_SUCCESS;
	if (s->n == 0) {
		*all_submitted = 1;
	} else if (c->started) {
		sr = range_profiler_stop(s, all_submitted);
		c->started = 0;
		TRACE(s, "  stop", c->t0);
		if (sr != CUPTI_SUCCESS)
			*all_submitted = 0;
	}
	if (!stop_failed(s, ce, sr))
		return 0;
	call_finish(s, 0);
	return -1;
}

void cupti_call_abort(struct cupti_session *s)
{
	if (!s || !s->call.active)
		return;
	if (s->call.started) {
		cudaDeviceSynchronize();
		range_profiler_stop(s, NULL);
		s->call.started = 0;
	}
	call_finish(s, 0);
}

int cupti_call_end(struct cupti_session *s, struct launch **launches, size_t *nlaunches)
{
	struct cupti_call *c = &s->call;
	*launches = NULL;
	*nlaunches = 0;
	if (!c->active)
		return error("a profiled call ended that did not begin");
	if (c->started) {
		error("a profiled call ended inside a pass");
		cupti_call_abort(s);
		return -1;
	}
	if (s->n == 0) {
		activity_end();
		c->activity_on = 0;
		int rc = collect_activity_only(s, launches, nlaunches);
		call_finish(s, rc == 0);
		return rc;
	}

	int rc = -1;
	size_t nranges = 0, base = 0;
	char **range_names = NULL;
	double *values = NULL;
	struct cupti_kernel_rec *recs = NULL;
	size_t *map = NULL;
	struct launch *out = NULL;
	TRACE(s, c->replay == CUPTI_REPLAY_USER ? "profiled launches (user)" : "profiled launches (kernel)", c->t0);

	CUpti_RangeProfiler_DecodeData_Params ddp = { CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE };
	ddp.pRangeProfilerObject = s->rp;
	CUPTI_OK(cuptiRangeProfilerDecodeData(&ddp), "decoding the CUPTI counter data");
	TRACE(s, "decode", c->t0);
	if (ddp.numOfRangeDropped) {
		error("CUPTI dropped %zu kernel ranges: one profiled call may launch at most %d kernels",
		      ddp.numOfRangeDropped, CUPTI_MAX_RANGES);
		goto out;
	}
	activity_end();
	c->activity_on = 0;
	TRACE(s, "activity flush", c->t0);
	if (act.oom) {
		error("out of memory collecting kernel records");
		goto out;
	}
	if (act.dropped) {
		error("CUPTI dropped %zu kernel activity records: cannot name the profiled kernels", act.dropped);
		goto out;
	}

	if (read_ranges(s, &range_names, &values, &nranges))
		goto out;
	recs = calloc(act.n ? act.n : 1, sizeof *recs);
	map = calloc(nranges ? nranges : 1, sizeof *map);
	if (!recs || !map) {
		error("out of memory");
		goto out;
	}
	TRACE(s, "evaluate", c->t0);
	if (s->trace) {
		fprintf(stderr, "attnprof: cupti: %zu range%s after %d round%s:", nranges, nranges == 1 ? "" : "s",
			c->rounds, c->rounds == 1 ? "" : "s");
		for (size_t i = 0; i < nranges && i < 12; i++)
			fprintf(stderr, " %s", range_names[i]);
		fprintf(stderr, "%s; %zu kernel records\n", nranges > 12 ? " ..." : "", act.n);
	}
	for (size_t i = 0; i < act.n; i++) {
		recs[i] = act.k[i].rec;
		recs[i].name = act.k[i].name;
	}
	/* an enabled object numbers auto ranges on from its earlier calls */
	if (cupti_ranges_base((const char *const *)range_names, nranges, &base) ||
	    cupti_map_ranges_rounds((const char *const *)range_names, nranges, base,
				    c->replay == CUPTI_REPLAY_USER ? (size_t)c->rounds : 1, recs, act.n, map))
		goto out;
	if (s->trace && base != s->next_range)
		fprintf(stderr, "attnprof: cupti: ranges numbered from %zu, expected %zu (mapped from %zu)\n",
			base, s->next_range, base);
	s->next_range = base + nranges;

	out = calloc(nranges ? nranges : 1, sizeof *out);
	if (!out) {
		error("out of memory");
		goto out;
	}
	for (size_t i = 0; i < nranges; i++) {
		/* launches in launch order: range named base + k is launch k
		 * (cupti_map_ranges_rounds checked every name) */
		size_t k = 0;
		cupti_range_index(range_names[i], &k);
		struct launch *l = &out[k - base];
		if (fill_launch(s, &act.k[map[i]], l))
			goto out;
		for (size_t m = 0; m < s->n; m++)
			if (kvlist_set(&l->metrics, s->metrics[m], values[i * s->n + m])) {
				error("out of memory");
				goto out;
			}
	}
	TRACE(s, "map + fill", c->t0);
	*launches = out;
	*nlaunches = nranges;
	out = NULL;
	rc = 0;
out:
	if (out)
		cupti_launches_free(out, nranges);
	free_ranges(range_names, nranges);
	free(values);
	free(recs);
	free(map);
	call_finish(s, rc == 0);
	return rc;
}

int cupti_profile(struct cupti_session *s, enum cupti_replay replay, int (*launch)(void *arg), void *arg,
		  struct launch **launches, size_t *nlaunches)
{
	*launches = NULL;
	*nlaunches = 0;
	if (cupti_call_begin(s, replay))
		return -1;
	int all = 0;
	while (!all) {
		if (cupti_pass_begin(s))
			return -1;
		if (launch(arg)) { /* launch() said why */
			cupti_call_abort(s);
			return -1;
		}
		if (cupti_pass_end(s, &all))
			return -1;
	}
	return cupti_call_end(s, launches, nlaunches);
}

/* ---- window mode (cupti.h) ------------------------------------------------ */

size_t cupti_session_metric_count(const struct cupti_session *s)
{
	return s ? s->n : 0;
}

size_t cupti_window_ranges(const struct cupti_session *s)
{
	return s && s->window_open ? s->window_ranges : 0;
}

int cupti_window_is_open(const struct cupti_session *s)
{
	return s && s->window_open;
}

int cupti_window_open(struct cupti_session *s)
{
	if (!s || s->n == 0)
		return error("a profiling window needs a session with metrics");
	if (s->window_open)
		return 0;
	if (s->call.active)
		return error("a profiling window cannot open inside a per-call profile");
	double t0 = mono_ms();
	if (!s->rp) {
		CUpti_RangeProfiler_Enable_Params ep = { CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE };
		ep.ctx = s->ctx;
		CUPTI_OK(cuptiRangeProfilerEnable(&ep), "enabling the CUPTI range profiler");
		s->rp = ep.pRangeProfilerObject;
		s->next_range = 0;
		free(s->data);
		s->data = NULL;
	}
	if (!s->data && make_counter_data(s))
		goto out;
	if (configure_ranges(s, CUPTI_UserRange, CUPTI_UserReplay))
		goto out;
	CUPTI_OK(range_profiler_start(s), "starting the CUPTI range profiler");
	s->window_open = 1;
	s->window_ranges = 0;
	s->window_pushed = 0;
	TRACE(s, "window: open (init + config + start)", t0);
	return 0;
out:
	return -1;
}

int cupti_window_push(struct cupti_session *s, uint32_t correlation_id)
{
	if (!s || !s->window_open)
		return error("a kernel range pushed with no profiling window open");
	if (s->window_pushed)
		return error("kernel ranges do not nest: a range is already pushed");
	if (s->window_ranges >= CUPTI_MAX_RANGES)
		return 1;
	char name[24];
	snprintf(name, sizeof name, "c%u", correlation_id);
	CUpti_RangeProfiler_PushRange_Params pp = { CUpti_RangeProfiler_PushRange_Params_STRUCT_SIZE };
	pp.pRangeProfilerObject = s->rp;
	pp.pRangeName = name;
	CUPTI_OK(cuptiRangeProfilerPushRange(&pp), "pushing a CUPTI range");
	s->window_pushed = 1;
	s->window_ranges++;
	return 0;
out:
	return -1;
}

int cupti_window_pop(struct cupti_session *s)
{
	if (!s || !s->window_pushed)
		return 0;
	s->window_pushed = 0;
	CUpti_RangeProfiler_PopRange_Params pp = { CUpti_RangeProfiler_PopRange_Params_STRUCT_SIZE };
	pp.pRangeProfilerObject = s->rp;
	CUPTI_OK(cuptiRangeProfilerPopRange(&pp), "popping a CUPTI range");
	return 0;
out:
	return -1;
}

int cupti_window_close(struct cupti_session *s, uint32_t **correlation_ids, double **values, size_t *nranges)
{
	*correlation_ids = NULL;
	*values = NULL;
	*nranges = 0;
	if (!s || !s->window_open)
		return 0;
	double t0 = mono_ms();
	int rc = -1;
	uint32_t *ids = NULL;
	double *vals = NULL;
	size_t n = 0;
	cupti_window_pop(s);
	cudaError_t ce = cudaDeviceSynchronize();
	CUptiResult sr = range_profiler_stop(s, NULL);
	s->window_open = 0;
	if (stop_failed(s, ce, sr))
		goto out;
	TRACE(s, "window: synchronize + stop", t0);
	CUpti_RangeProfiler_DecodeData_Params ddp = { CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE };
	ddp.pRangeProfilerObject = s->rp;
	CUPTI_OK(cuptiRangeProfilerDecodeData(&ddp), "decoding the CUPTI counter data");
	if (ddp.numOfRangeDropped) {
		error("CUPTI dropped %zu kernel ranges of a window of at most %d", ddp.numOfRangeDropped, CUPTI_MAX_RANGES);
		goto out;
	}
	char **names = NULL;
	if (read_ranges(s, &names, &vals, &n))
		goto out;
	ids = calloc(n ? n : 1, sizeof *ids);
	if (!ids) {
		error("out of memory");
		free_ranges(names, n);
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		unsigned id = 0;
		char tail = 0;
		if (!names[i] || sscanf(names[i], "c%u%c", &id, &tail) != 1) {
			error("CUPTI range %zu is named '%s', not one of ours", i, names[i] ? names[i] : "(none)");
			free_ranges(names, n);
			goto out;
		}
		ids[i] = id;
	}
	free_ranges(names, n);
	TRACE(s, "window: decode + evaluate", t0);
	if (s->trace)
		fprintf(stderr, "attnprof: cupti: window closed with %zu range%s\n", n, n == 1 ? "" : "s");
	*correlation_ids = ids;
	*values = vals;
	*nranges = n;
	ids = NULL;
	vals = NULL;
	rc = 0;
out:
	free(ids);
	free(vals);
	return rc;
}

int cupti_activity_begin(struct cupti_session *s)
{
	if (!s)
		return error("kernel records without a CUPTI session");
	return activity_begin();
}

int cupti_activity_end(struct cupti_session *s, struct launch **launches, size_t *nlaunches)
{
	*launches = NULL;
	*nlaunches = 0;
	activity_end();
	return collect_activity_only(s, launches, nlaunches);
}

/* ---- 'attnprof info' --------------------------------------------------- */

int cupti_counters_readable(char *reason, size_t len)
{
	struct cupti_session *s = NULL;
	int prev = error_quiet(1);
	int rc = cupti_session_open(&s, NULL, 0, reason, len);
	error_quiet(prev);
	if (rc == 0) {
		if (reason && len)
			snprintf(reason, len, "hardware counters are readable on device 0 (chip %s)", s->chip);
		cupti_session_close(s);
		return 1;
	}
	if (rc == CUPTI_UNAVAILABLE)
		return 0;
	if (reason && len)
		snprintf(reason, len, "%s", error_last());
	return -1;
}
