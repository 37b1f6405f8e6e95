/* model.h: the analytic model — what a variant should cost, before measuring.
 *
 * For a variant, a shape and a GPU, predict the work (FLOPs: matmul and
 * non-matmul apart), the data movement (minimum HBM bytes; SM↔L2 bytes
 * from the block sizes), the device footprint, the launch geometry
 * (blocks, blocks per SM, waves, idle SMs in the last wave) and a roofline
 * time.  record stores the predictions in each record's `model` kvlist;
 * report sets them beside the measurements (model.* and hbm_vs_model in a
 * template); `attnprof model` prints them.  docs/model.md gives every
 * formula and its assumptions, and the known reasons the two differ.
 *
 * The flash variants' traffic follows the algorithm that flashsim.c runs
 * (same tiles, same loop order, same skipped tiles), and test_model.c
 * checks the two agree byte for byte.
 */
#ifndef ATTNPROF_MODEL_H
#define ATTNPROF_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "../kernels/variants.h"
#include "occupancy.h"
#include "results.h"

/* What the model needs to know about a GPU. */
struct gpu_model {
	const char *name;         /* "NVIDIA H200" (not owned) */
	struct gpu_facts hw;      /* the recorded facts; an H200's SM count and L2 where none */
	double tensor_tflops;     /* dense fp16/bf16 tensor rate used for the roofline */
	double hbm_gbs;           /* HBM bytes (read + write) per second, in GB/s */
	int tensor_measured;      /* 1: tensor_tflops was measured on this GPU */
	int hbm_measured;         /* 1: hbm_gbs was measured (device copy) */
	struct occupancy_limits occ; /* per-SM limits (registers, smem, warps, blocks) */
};

/* Fill g with the H200 defaults (nothing measured). */
void gpu_model_h200(struct gpu_model *g);
/*
 * Fill g from a results header's GPU: its SM count and L2, its measured
 * tensor rate and copy bandwidth where present; the H200 defaults (or the
 * theoretical bandwidth from the memory clock) for what is missing, with
 * the *_measured flags saying which is which.  info may be NULL.
 */
void gpu_model_from_info(struct gpu_model *g, const struct gpu_info *info);

/* The predictions for one (variant, shape, GPU).  Byte counts are bytes. */
struct model {
	/* work */
	double flops;             /* benchmark convention, attn_flops() */
	double flops_matmul;      /* 4·d per score entry computed (whole visited tiles) */
	double flops_nonmatmul;   /* softmax, rescaling, split-K reduction */
	double score_elems;       /* entries of S computed */
	double exps;              /* exp/log evaluations */
	/* the flash loop, per the descriptor's tiles (0 for standard) */
	double tile_pairs, masked_pairs;
	/* data movement */
	double hbm_read_bytes_min, hbm_write_bytes_min, hbm_bytes_min;
	double l2_read_bytes, l2_write_bytes, l2_bytes; /* SM ↔ L2, both ways */
	double footprint_bytes;   /* variant_footprint() */
	double dq_reduce_bytes;   /* flash2 bwd: dQ added in the L2, Br·d fp32 per tile pair (not in
				   * model_quantities: records keep what they had; doc/data.c asks) */
	/* launch of the main kernel (flash: flash_fwd; standard: the softmax;
	 * split-KV decode: the split kernel) */
	int main_kernel;
	struct tiling tiling;
	double blocks;
	int blocks_per_sm;        /* 0: the block does not fit on an SM */
	const char *limiter;      /* "registers", "shared memory", "warps", "blocks", "none" */
	double occupancy;         /* theoretical, 0..1 */
	double waves;             /* ⌈blocks / (blocks_per_sm · SMs)⌉ */
	double waves_exact;       /* blocks / (blocks_per_sm · SMs) */
	int idle_sms_last_wave;   /* SMs with no block in the last wave */
	/* roofline */
	double peak_tflops, bandwidth_gbs;
	int peaks_measured;       /* 1 only if both were measured */
	int tensor_measured, hbm_measured;
	double time_compute_ms;   /* flops_matmul at the tensor rate */
	double time_memory_ms;    /* hbm_bytes_min at the bandwidth */
	double time_roofline_ms;  /* the larger of the two */
	int bound;                /* 0 memory, 1 compute */
};

/* A decode step's cache (split-KV family): the bytes of the block table it
 * must read — the used entries and the B lengths, int32 — 0 for a
 * contiguous cache; and the bytes of the cache it must read — K and V of
 * every request's own keys (a ragged batch's lengths add up to B·Nkv,
 * kernels/paged.h) and that table.  The documents' decode bandwidth is the
 * second over the time. */
double model_block_table_bytes(const struct attn_shape *s);
double model_decode_cache_bytes(const struct attn_shape *s);

/* Predict.  0, or -1 after error() (bad shape, variant not for the phase is fine). */
int model_predict(const struct variant_desc *v, const struct attn_shape *s,
		  const struct gpu_model *g, struct model *out);

/*
 * The quantities, in a stable order, with the names stored in a record's
 * model kvlist (no "model." prefix: export adds it).  The first ones are
 * flops, flops_matmul, flops_nonmatmul, hbm_bytes_min, hbm_read_bytes_min,
 * hbm_write_bytes_min, l2_bytes, footprint_bytes, blocks, blocks_per_sm,
 * waves, idle_sms_last_wave, time_roofline_ms, bound.
 */
struct model_quantity {
	const char *name;         /* "hbm_bytes_min" */
	const char *unit;         /* "bytes", "FLOP", "ms", "" */
	const char *about;        /* one line for --help and tables */
	size_t offset;            /* of the double or int in struct model */
	int is_int;
};
extern const struct model_quantity model_quantities[];
extern const size_t model_quantity_count;
double model_value(const struct model *m, const struct model_quantity *q);

/* Set every quantity in l (names without prefix).  0 or -1 (no memory). */
int model_to_kvlist(const struct model *m, struct kvlist *l);

/* The shape of a record (variant looked up by name).  0, or -1 after error(). */
int model_shape_of_record(const struct record *rec, const struct variant_desc **v,
			  struct attn_shape *s);
/* Predict for a record and fill rec->model.  gpu may be NULL (H200 defaults). */
int model_fill_record(struct record *rec, const struct gpu_info *gpu);

/* "roofline peaks: 989 TFLOP/s and 4800 GB/s (H200 datasheet defaults, not measured)" */
const char *model_peaks_text(const struct model *m, char *buf, size_t len);

#endif
