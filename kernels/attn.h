/* attn.h: the C interface to the CUDA half (the .cu files in kernels/).
 *
 * Everything CUDA C++ stays behind this header: allocation of a variant's
 * named buffers, input upload, poisoning, launches, timing with CUDA events,
 * device facts.  Host C (src/gpu/harness.c) calls only these functions.
 *
 * Conventions: functions return 0 on success and -1 on failure, with the
 * reason in attn_last_error() (what failed and the CUDA error string).
 * Layouts: Q and O are [B, H, Nq, d], K and V are [B, Hkv, Nkv, d], row
 * major, elements as 16-bit patterns of the run's dtype (fp16 or bf16).
 */
#ifndef ATTNPROF_ATTN_H
#define ATTNPROF_ATTN_H

#include <stddef.h>
#include <stdint.h>

#include "variants.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- device ------------------------------------------------------------ */

/* What the probe reads: the facts a results header keeps (hw; smem_per_sm
 * is cudaDevAttrMaxSharedMemoryPerMultiprocessor), and what only the
 * runtime needs. */
struct attn_device {
	char name[128];
	struct gpu_facts hw;
	size_t smem_per_block_optin;
	int driver_version, runtime_version; /* e.g. 13000 */
};

/* Number of CUDA devices (0 when none or no driver; never fails). */
int attn_device_count(void);
/* Make device (0 to count - 1, as CUDA_VISIBLE_DEVICES numbers them) the
 * current one, before anything else touches the GPU (record --device).
 * 0, or -1 with attn_last_error() saying why. */
int attn_device_select(int device);
/* Facts of the current device (0 unless attn_device_select chose another). */
int attn_device_info(struct attn_device *d);
/* Device-to-device copy bandwidth in GB/s, counting bytes read + written,
 * median of `reps` copies of `bytes` bytes. */
int attn_measure_copy(size_t bytes, int reps, double *gbs);
/* The ceilings no library call gives (kernels/ceilings.cu says how each is
 * measured and checked): the dense fp16 rate of mma.sync.m16n8k16 in
 * TFLOP/s, the L2's read bandwidth in GB/s (the best of several
 * configurations, struct attn_read_rate), shared memory's load bandwidth
 * in GB/s, all SMs, and HBM's read-only bandwidth (a buffer of 32 L2s read
 * once a launch, nothing written; the roof of decode, which only reads);
 * each the median of `reps` launches after a warm-up.  A kernel whose check
 * fails reports no rate: -1 with the reason. */
struct attn_read_rate {
	double gbs;         /* the best configuration's rate */
	uint64_t buf_bytes; /* its buffer (L2: resident in the L2) */
	int blocks_per_sm;  /* its blocks of 256 threads on every SM */
	int loads;          /* its 16-byte loads in flight a thread */
	int configs;        /* configurations measured */
};
int attn_measure_mma_sync(int reps, double *tflops);
int attn_measure_l2(int reps, struct attn_read_rate *r);
int attn_measure_smem(int reps, double *gbs);
int attn_measure_hbm_read(int reps, struct attn_read_rate *r);
/* How they were measured, one line for the results header (rd NULL or
 * without configurations: no HBM-read part). */
void attn_ceilings_method(char *buf, size_t len, const struct attn_read_rate *l2, const struct attn_read_rate *rd,
			  int reps);
/* The dense fp16 rate of a cuBLAS GEMM (m = n = k = `size`, fp16 in and
 * out, fp32 accumulation) in TFLOP/s: the wgmma ceiling on Hopper, where
 * cuBLAS's kernels are wgmma kernels (docs/kernels.md). */
int attn_measure_gemm(int size, int reps, double *tflops);

/* Device memory for runs and probes, from a pool that keeps what is freed
 * for the next run instead of handing it back to the driver (runtime.cu says
 * why).  `what` names the buffer in the error message.  Both synchronous. */
int attn_dev_alloc(void **p, uint64_t bytes, const char *what);
void attn_dev_free(void *p);

/* ---- one variant at one shape ----------------------------------------- */

struct attn_run; /* opaque */

struct attn_alloc {
	const char *name;   /* descriptor buffer name, or "cublas_workspace" */
	uint64_t bytes;
};

/* Allocate every buffer the descriptor of the shape's pass names (plus
 * library workspace): variant_pass_desc(v, s->pass); fails for a pass the
 * variant has no kernels for. */
int attn_run_create(struct attn_run **out, const struct variant_desc *v,
		    const struct attn_shape *s, int sm_count);
void attn_run_destroy(struct attn_run *r);

/* A paged run's block table ([B, max_pages] int32, -1 past a request's
 * pages) and per-request KV lengths ([B]): validated against the shape
 * (paged_validate, kernels/paged.h: in-range, unrepeated pages, lengths
 * within the table and the pool, a page size the kernel is built for)
 * before anything is copied to the device; -1 with the reason otherwise.
 * Without it, a paged run's attn_run_launch fails. */
int attn_run_set_kv_pages(struct attn_run *r, const int32_t *table, const int32_t *lens);

/* The tiling the run uses (from the descriptor). */
const struct tiling *attn_run_tiling(const struct attn_run *r);

/* Device pointer of the run's buffer called `name` (a descriptor buffer
 * name: "Q", "K", "V", "O", "L", …), or NULL when the run has none. */
void *attn_run_buffer(struct attn_run *r, const char *name);
/* Fill n elements at dst with attn_input_value(seed, tensor, i) rounded to
 * the dtype (kernels/inputs.h, kernels/inputs.cu); synchronizes. */
int attn_fill_input(void *dst, uint64_t n, enum dtype t, uint64_t seed, int tensor);

/* After the inputs (Q, K, V, and dO for a backward) are filled: a
 * backward-only run (pass bwd) runs the forward once, synchronously, so
 * that its products (O, L; standard: S, P) are there for the backward;
 * nothing for the other passes.  attn_run_launch of a bwd run fails
 * before it. */
int attn_run_prepare(struct attn_run *r);
/* Fill O and every output, statistics and workspace buffer with NaN (in a
 * bwd run, the backward's own: not the forward products it reads). */
int attn_run_poison(struct attn_run *r);
/* Launch the pass's kernels, in order, asynchronously: the forward's, the
 * backward's, or the forward's then the backward's. */
int attn_run_launch(struct attn_run *r);
/* Wait for the launches and check for errors. */
int attn_run_sync(struct attn_run *r);
/* Copy n rows of the run's 16-bit buffer called name ("O", "dQ", "dK",
 * "dV", …), len elements each, starting at the given element offsets, to
 * out[n][len] (synchronizes). */
int attn_run_get_buffer_rows(struct attn_run *r, const char *name, const uint64_t *first, size_t n,
			     size_t len, uint16_t *out);

/* Profiled runs: on = 1 makes attn_run_launch flush the L2 before each of
 * the variant's kernels with a kernel named ATTN_L2_FLUSH_KERNEL; on = 0
 * stops it.  The flush reads a buffer 4x the L2's size, allocated at the
 * first use and shared by all runs (not one of any variant's buffers);
 * attn_l2_flush_release() frees it. */
int attn_run_set_l2_flush(struct attn_run *r, int on);
void attn_l2_flush_release(void);
#define ATTN_L2_FLUSH_KERNEL "attnprof_l2_flush"
/* The injection library's flush (record -- CMD): attn_l2_flush_prepare()
 * allocates its own buffer (4x the L2) and loads the kernel, outside any
 * CUDA callback; attn_l2_flush_on(stream) enqueues one flush on a CUstream
 * of the program.  0 or -1. */
int attn_l2_flush_prepare(void);
int attn_l2_flush_on(void *stream);

/* Time `reps` launches after `warmup`, each between its own CUDA events;
 * ms[i] is the i-th launch's time in milliseconds.  With mhz, a probe just
 * before each launch measures the SM clock (kernels/clock.cu): mhz[i] is
 * the clock the i-th launch started at, in MHz. */
int attn_run_time(struct attn_run *r, int warmup, int reps, float *ms, float *mhz);
#define ATTN_CLOCK_PROBE_KERNEL "attnprof_clock_probe"
/* Launch the run `launches` times (untimed), then probe the SM clock; waits
 * for both and gives the probed clock in MHz.  The harness's settling step. */
int attn_run_probe_clock(struct attn_run *r, int launches, float *mhz);

/* Registers per thread of the compiled main kernel of the run's pass
 * (cudaFuncGetAttributes), to test the descriptor's tiling against the
 * build: flash2's backward and the flash template's forward rungs; -1
 * where not known (library kernels, decode's split-KV, the Hopper rungs). */
int attn_run_main_kernel_regs(const struct attn_run *r);

/* Named allocations (valid until destroy) and their count. */
size_t attn_run_allocs(const struct attn_run *r, const struct attn_alloc **out);
/* Peak device bytes the run holds (sum of its allocations). */
uint64_t attn_run_peak_bytes(const struct attn_run *r);

/* Reason for the last failure ("" if none). */
const char *attn_last_error(void);

/* ---- host conversions (plain C, in src/reference.c) -------------------- */
float half_to_float(uint16_t h);
uint16_t float_to_half(float f);
float bf16_to_float(uint16_t h);
uint16_t float_to_bf16(float f);

#ifdef __cplusplus
}
#endif
#endif
