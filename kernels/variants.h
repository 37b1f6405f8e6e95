/* variants.h: what each attention variant is, as data.
 *
 * A descriptor says which buffers a variant keeps in HBM (with shape
 * formulas), which tiles live only on chip, how the grid and the warps are
 * mapped, the block sizes and the kernels in launch order.  Both halves of
 * attnprof read it: record (to allocate, launch and name things) and
 * report/model (to draw and predict).  Figures are drawn from descriptors
 * plus measurements, so a new variant gets its figures for free.
 *
 * Plain C: this file and variants.c build without CUDA.
 */
#ifndef ATTNPROF_VARIANTS_H
#define ATTNPROF_VARIANTS_H

#include <stddef.h>
#include <stdint.h>

#include "gpu.h"

#ifdef __cplusplus
extern "C" {
#endif

/* fp32 and unknown are what other software ran (a captured call, a
 * reference series) or did not say; attnprof's own kernels, and so specs
 * and the runtime, take fp16 and bf16 only (dtype_runs_here). */
enum dtype { DTYPE_FP16, DTYPE_BF16, DTYPE_FP32, DTYPE_UNKNOWN, DTYPE_COUNT };
/* unknown: a captured call whose shape is not known */
enum phase { PHASE_PREFILL, PHASE_DECODE, PHASE_UNKNOWN, PHASE_COUNT };
/* Which pass a run times: the forward, the backward (the forward's products
 * made once beforehand, untimed), or both in one launch sequence. */
enum pass { PASS_FWD, PASS_BWD, PASS_FWDBWD, PASS_COUNT };

/* The words of each enum, in its order: results files hold these. */
extern const char *const dtype_names[DTYPE_COUNT]; /* "fp16", "bf16", "fp32", "unknown" */
extern const char *const phase_names[PHASE_COUNT]; /* "prefill", "decode", "unknown" */
extern const char *const pass_names[PASS_COUNT];   /* "fwd", "bwd", "fwd+bwd" */
const char *dtype_name(enum dtype t);
/* A dtype's name or alias ("half", "float16", "bfloat16"): 0, or -1 */
int dtype_parse(const char *s, enum dtype *out);
/* 1 for the dtypes attnprof's kernels run: fp16 and bf16 */
int dtype_runs_here(enum dtype t);
size_t dtype_size(enum dtype t);        /* 4 for fp32, else 2 */
const char *phase_name(enum phase p);
int phase_parse(const char *s, enum phase *out); /* "unknown" too: 0 or -1 */
const char *pass_name(enum pass p);
int pass_parse(const char *s, enum pass *out);

/* One attention problem: Q is [B, H, Nq, d]; K and V are [B, Hkv, Nkv, d]. */
struct attn_shape {
	enum dtype dtype;
	enum phase phase;
	int batch;      /* B */
	int heads;      /* H, query heads */
	int kv_heads;   /* Hkv, divides H (grouped-query attention when < H) */
	int seqlen_q;   /* Nq: N for prefill, query length for decode */
	int seqlen_kv;  /* Nkv: N for prefill, KV-cache length for decode */
	int head_dim;   /* d */
	int causal;     /* mask keys after the query's position (bottom-right aligned) */
	enum pass pass; /* fwd (0, the default), bwd, fwd+bwd */
	/* Decode's KV cache (kernels/paged.h): contiguous (0, the default) or
	 * paged ([pages, page_size, Hkv, d] through a block table); with
	 * kv_dist other than equal, a ragged batch whose per-request lengths
	 * are drawn from kv_seed and add up to B·Nkv (Nkv the mean). */
	int kv_layout;      /* enum kv_layout */
	int page_size;      /* tokens per page (paged), else 0 */
	int kv_dist;        /* enum kv_dist */
	unsigned kv_seed;   /* the lengths' and the page permutation's seed */
};
enum kv_layout { KV_CONTIGUOUS, KV_PAGED, KV_LAYOUT_COUNT };
enum kv_dist { KV_DIST_EQUAL, KV_DIST_UNIFORM, KV_DIST_LONG_TAIL, KV_DIST_COUNT };
extern const char *const kv_layout_names[KV_LAYOUT_COUNT]; /* "contiguous", "paged" */
extern const char *const kv_dist_names[KV_DIST_COUNT];     /* "equal", "uniform", "long-tail" */
/* Hkv where a shape, record or call names none (0): H, multi-head attention. */
int kv_heads_or_heads(int kv_heads, int heads);

/* Symbols of shape formulas: a buffer's element count is their product. */
enum dim_sym {
	DIM_END = 0,  /* terminates a formula */
	DIM_B, DIM_H, DIM_HKV, DIM_NQ, DIM_NKV, DIM_D,
	DIM_SPLITS,   /* KV splits of a split-KV decode kernel */
	DIM_PAGES,    /* pages of a paged KV cache (kernels/paged.h) */
	DIM_PAGE,     /* tokens per page */
	DIM_MAXPAGES, /* block-table columns: pages of the longest request */
	DIM_COUNT
};
const char *dim_symbol(enum dim_sym s); /* "B", "H", "Hkv", "N", "Nkv", "d", "splits", "pages", "page", "maxpages" */

enum elem_kind { ELEM_INPUT, ELEM_F32, ELEM_I32 }; /* the config's dtype, fp32, or int32 (page tables) */

enum buf_role {
	ROLE_INPUT,        /* Q, K, V */
	ROLE_OUTPUT,       /* O */
	ROLE_MATRIX,       /* S, P: N×N intermediates */
	ROLE_STATS,        /* m, ℓ, L: per-row softmax statistics */
	ROLE_WORKSPACE,    /* fp32 O accumulator, partial O per split, fp32 dQ accumulator */
	ROLE_GRAD_INPUT,   /* dO: the incoming gradient, filled like Q, K, V */
	ROLE_GRADIENT,     /* dQ, dK, dV */
};

#define MAX_DIMS 6
struct buffer_desc {
	const char *name;     /* ASCII key: "S", "l", "O_acc" (results alloc.<name>) */
	const char *label;    /* drawn label, may be Unicode: "ℓ" */
	const char *meaning;  /* "scores S = Q·Kᵀ·scale" */
	enum buf_role role;
	enum elem_kind elem;
	enum dim_sym dims[MAX_DIMS]; /* product, DIM_END-terminated */
};

/* The matrices of the attention story, in drawing order.  A variant whose
 * buffers lack one of them does not store it in HBM. */
struct matrix_desc {
	const char *name, *label, *meaning;
	enum buf_role role;
	enum elem_kind elem;
	enum dim_sym dims[MAX_DIMS];
};
extern const struct matrix_desc attn_matrices[];
extern const size_t attn_matrix_count;

enum tile_dim { TD_1, TD_BR, TD_BC, TD_D };
enum tile_place { IN_SHARED, IN_REGISTERS };
struct tile_desc {
	const char *name;      /* "Q_i" */
	const char *holds;     /* "a block of Br query rows" */
	enum tile_dim rows, cols;
	enum tile_place where;
	const char *stands_for; /* HBM matrix this tile replaces ("S"), or NULL */
	enum elem_kind elem;    /* the config's dtype (default), or fp32 (accumulators) */
};

enum loop_order { LOOP_NONE, LOOP_KV_OUTER, LOOP_Q_OUTER };
enum warp_split { WARPS_LIBRARY, WARPS_ROWS, WARPS_SPLIT_K, WARPS_SPLIT_Q };
enum rescale { RESCALE_NONE, RESCALE_EVERY_STEP, RESCALE_ONCE };

/* The flash kernel template's three switches (flash1 = 0, flash2 = all). */
enum flash_switch {
	FLASH_SEQPAR = 1 << 0, /* Q-outer loop, grid of q-blocks × B·H, O in registers */
	FLASH_SPLITQ = 1 << 1, /* warps split Q rows and share K/V (no smem reduction) */
	FLASH_LAZY   = 1 << 2, /* rescale once at the end, store only logsumexp L */
	FLASH_ALL    = 7,
};

/* What a variant is to the documents when a template names none: the
 * conventional computation (S and P stored), the tiled baseline, the
 * subject the documents are about, and decode's baseline and subject.
 * The renderer asks for a role, never for a name. */
enum doc_role { DOC_NONE, DOC_CONVENTIONAL, DOC_BASELINE, DOC_SUBJECT, DOC_DECODE_BASELINE, DOC_DECODE_SUBJECT };

/* Block sizes and launch resources for one shape. */
struct tiling {
	int block_m;   /* Br: query rows per tile */
	int block_n;   /* Bc: key rows per tile */
	int warps;     /* warps per thread block of the main kernel */
	int splits;    /* KV splits (split-KV decode), else 1 */
	size_t smem_bytes; /* dynamic shared memory of the main kernel */
	int regs_per_thread; /* registers per thread of the main kernel (ptxas -v), 0 = unknown */
};

/* The tensor-core instruction path a kernel's matmuls take: the roofline
 * draws the kernel under that path's measured ceiling (header.gpu). */
enum tensor_path {
	PATH_NONE,      /* no matmul on tensor cores (softmax, combine, conversions) */
	PATH_MMA_SYNC,  /* warp-level mma.sync (HMMA): ceilings.mma_sync_tflops */
	PATH_WGMMA,     /* warpgroup wgmma (HGMMA, sm_90a): the cuBLAS GEMM rate, tensor_tflops */
	PATH_LIBRARY,   /* a cuBLAS GEMM: its own rate is the ceiling, tensor_tflops (wgmma on Hopper) */
	PATH_COUNT
};
const char *tensor_path_name(enum tensor_path p); /* "", "mma.sync", "wgmma", "cuBLAS" */

struct kernel_desc {
	const char *name;   /* short name; CUPTI/Activity names are matched to it */
	const char *match;  /* substring of the mangled/demangled kernel name, or NULL for library kernels */
	const char *does;   /* "S = Q·Kᵀ·scale (cuBLAS GEMM)" */
	const char *grid_x, *grid_y, *grid_z; /* what blockIdx.x/y/z index */
	enum tensor_path path; /* its matmuls' instruction path */
};

/* Which code runs a descriptor: the runtime's launch table and the model's
 * predictor table are indexed by it (no dispatch on names). */
enum variant_family {
	FAMILY_STANDARD,     /* cuBLAS GEMMs + softmax_rows */
	FAMILY_FLASH,        /* the flash_fwd template (switches) */
	FAMILY_SPLITKV,      /* splitkv_fwd + splitkv_combine */
	FAMILY_STANDARD_BWD, /* four cuBLAS GEMMs + softmax_bwd */
	FAMILY_FLASH2_BWD,   /* bwd_dot_do_o + flash_bwd + bwd_convert_dq */
	FAMILY_HOPPER,       /* kernels/hopper: the sm_90a forward (wgmma, TMA, warp specialisation) */
	FAMILY_HOPPER_BWD,   /* kernels/hopper: the sm_90a backward (hopper_bwd_prep + hopper_bwd_ws_kernel + hopper_bwd_dq) */
	FAMILY_COUNT
};

/* A warp-specialised kernel's loop, step by step, as its code takes it
 * (FAMILY_HOPPER: kernels/hopper/hopper_fwd.cu).  The documents' timeline
 * and partition figures are computed from these rows, never drawn by
 * hand: one table for every rung, each row naming the rungs whose kernel
 * takes it (the template's WS, PP and OV switches as rung bits).  Rows of
 * one role run in order, once per loop index j; a row's key block is
 * j + block (+ the ring's stages when ahead), and a row whose block (or
 * whose guard block) lies outside the pass's blocks is not taken: the
 * kernel's peeled first and last phases and its `j >= S` tests. */
enum sched_role {
	SR_PRODUCER,     /* the producer warpgroup's issuing thread, j = 0 .. nkb - 1 */
	SR_PROLOGUE,     /* no producer: consumer 0's thread 0 before the loop, j = 0 .. S - 1 */
	SR_CONSUMER,     /* each consumer warpgroup, phases j = 0 .. nkb (Q·K_j and P·V_{j-1}) */
	SR_INLINE,       /* no producer: consumer 0's thread 0 inside its loop */
};
enum sched_op {
	SO_WAIT_FULL_K, SO_WAIT_FULL_V,   /* mbarrier wait: the tile's TMA bytes landed */
	SO_WAIT_EMPTY_K, SO_WAIT_EMPTY_V, /* mbarrier wait: every consumer warp released the stage */
	SO_LOAD_K, SO_LOAD_V,             /* cp.async.bulk.tensor of one tile into its stage (TMA) */
	SO_TURN_WAIT, SO_TURN_PASS,       /* named barrier: wait for this consumer's turn / hand it on */
	SO_GEMM_QK, SO_GEMM_PV,           /* wgmma issued: S = Q·K_jᵀ, O += P·V_j (tensor cores) */
	SO_WAIT_GEMM_ALL, SO_WAIT_GEMM_QK, /* wgmma.wait_group 0 / 1 (all issued / all but the last) */
	SO_SOFTMAX,                       /* online softmax of S_j in registers (CUDA cores, MUFU) */
	SO_FREE_K, SO_FREE_V,             /* arrive on the stage's empty barrier */
	SO_COUNT
};
struct sched_step {
	enum sched_role role;
	enum sched_op op;
	int block;          /* key block, relative to j */
	int ahead;          /* times the ring's stages S added: 1 a refill S blocks ahead, -1 the block S back */
	int guard;          /* 1: taken only where block j + guard_block (+ S · guard_ahead) exists too */
	int guard_block, guard_ahead;
	unsigned rungs;     /* bit r: rung r's kernel takes this step */
	const char *code;   /* the kernel's statement, as written in its source (test_wsched.c finds it there) */
};
/* The CTA of a warp-specialised kernel: its roles, the register split and
 * the shared-memory ring, from the kernel's tiling header. */
struct ws_desc {
	int producer_warpgroups;   /* 0: the consumers issue the loads inline */
	int consumer_warpgroups;
	int warpgroup_threads;     /* 128: four warps */
	int issuing_threads;       /* producer threads that issue TMA */
	int regs_producer, regs_consumer; /* per thread after setmaxnreg (0: not re-split) */
	int rows_per_consumer;     /* query rows of one consumer warpgroup (wgmma's M) */
	int empty_arrivals;        /* arrivals an empty barrier counts (one per consumer warp) */
	int elem_bytes;            /* bytes of a Q, K or V element in shared memory */
	int (*stages)(int head_dim); /* K/V ring depth */
	const struct sched_step *steps;
	size_t nsteps;
};

#define MAX_BUFFERS 12
#define MAX_TILES 10
#define MAX_KERNELS 8
#define MAX_HEAD_DIMS 4
struct variant_desc {
	const char *name;       /* "flash2", "flash1+seqpar", "decode-splitkv" */
	const char *summary;    /* one line for --help and captions */
	enum variant_family family;
	int main_kernel;        /* index in kernels[] of the kernel the launch model describes */
	/* The backward pass: its own descriptor (buffers of a backward run,
	 * which include the forward products it reads; its kernels in launch
	 * order; its tiling and grid), or NULL when the variant has none. */
	const struct variant_desc *bwd;
	unsigned phases;        /* 1 << PHASE_PREFILL | 1 << PHASE_DECODE */
	int head_dims[MAX_HEAD_DIMS]; /* the head dims its kernels are built for (tiles.h), ascending, 0 after the last */
	int is_flash;           /* built from the flash template */
	int writes_inputs;      /* a kernel writes Q, K or V: profile with kernel replay only */
	unsigned switches;      /* enum flash_switch bits when is_flash */
	int rung;               /* FAMILY_HOPPER: the rung of the template (kernels/hopper/hopper_attn.h) */
	/* Document traits: the variant's place on an ablation ladder (the rung
	 * it builds on and the change it adds), for the documents to ask
	 * instead of knowing names; NULL where it is on none. */
	const char *parent;     /* the rung it builds on: "flash2" */
	const char *change;     /* the change it adds, as a label: "warp specialisation" */
	const char *patent_term; /* how a patent figure names it ("second tiled computation"), or NULL */
	enum doc_role doc_role; /* what the documents draw it as by default (DOC_NONE: only when asked) */
	int color_slot;         /* its look in every chart: 1 + a style series slot (0: by table order) */
	int ladder_only;        /* an intermediate rung or a single change: drawn on its
				 * ladder (ablation figures), not among the main series */
	/* counters that evidence the change, as two lines of "before → after"
	 * (quantity names of doc/data.h); NULL-terminated */
	struct evidence { const char *quantity, *label; int line; } evidence[6];
	enum loop_order loop;
	enum warp_split warps;
	enum rescale rescale;
	const char *grid_text;  /* "grid = (⌈N/Br⌉, B·H): one block per q-block of one head" */
	const char *warp_text;  /* "4 warps split the Br rows; K/V tiles shared" */
	struct buffer_desc buffers[MAX_BUFFERS]; size_t nbuffers;
	struct tile_desc tiles[MAX_TILES]; size_t ntiles;
	struct kernel_desc kernels[MAX_KERNELS]; size_t nkernels;
	/* Block sizes for a shape on a GPU with sm_count SMs. */
	void (*tiling)(const struct attn_shape *s, int sm_count, struct tiling *t);
	/* Grid of kernel k (blocks in x, y, z). */
	void (*grid)(const struct attn_shape *s, const struct tiling *t, int k, int dims[3]);
	/* warp specialisation and the loop schedule (FAMILY_HOPPER), or NULL */
	const struct ws_desc *ws;
};

extern const struct variant_desc *const variant_table[];
extern const size_t variant_count;

/* The descriptor called name, or NULL. */
const struct variant_desc *variant_find(const char *name);
/* The flash-template variant with these switch bits. */
const struct variant_desc *variant_flash(unsigned switches);
/* 1 if v's kernels are built for head dim d. */
int variant_supports_head_dim(const struct variant_desc *v, int d);
/* v's head dims in words ("64 and 128"); returns buf. */
const char *variant_head_dims_text(const struct variant_desc *v, char *buf, size_t len);
/* 1 if the variant has kernels for the shape's pass (fwd always; bwd and
 * fwd+bwd when it has a backward descriptor and the phase is prefill). */
int variant_supports_pass(const struct variant_desc *v, enum pass p);
/* The descriptor whose buffers a run of pass p holds: v itself for fwd,
 * v->bwd for bwd and fwd+bwd (its buffers include all of v's); NULL when
 * the variant has no such pass. */
const struct variant_desc *variant_pass_desc(const struct variant_desc *v, enum pass p);
/* Kernels a run of pass p launches (the forward's and the backward's for
 * fwd+bwd; library GEMMs counted as one kernel each); 0 without the pass. */
size_t variant_pass_kernels(const struct variant_desc *v, enum pass p);
/* The ladder a variant tops: the chain of parents from v down to the first
 * rung that is not ladder_only (flash2 -> … -> flash1; hopper+overlap -> …
 * -> flash2), base first, into out; returns its length (0: v is on none).
 * singles: the ladder_only variants built on the base that are not on the
 * chain (flash1+splitq), up to max_singles.  out NULL: only the length. */
size_t variant_ladder(const struct variant_desc *top, const struct variant_desc **out, size_t max,
		      const struct variant_desc **singles, size_t max_singles, size_t *nsingles);
/* 1 if v is a rung of some ladder (it builds on one, or one builds on it). */
int variant_on_ladder(const struct variant_desc *v);
/* The name of the variant with document role r ("flash2" for DOC_SUBJECT), or "". */
const char *variant_role(enum doc_role r);
/* s with each role word in braces replaced by its variant's name:
 * {conventional}, {baseline}, {subject}, {decode-baseline} and
 * {decode-subject} ("the speed-ups of {subject}" -> "the speed-ups of
 * flash2"); other text as it is.  Returns buf. */
const char *variant_role_text(const char *s, char *buf, size_t len);
/* The first variant in table order that tops a ladder (flash2), or NULL. */
const struct variant_desc *variant_default_ladder(void);
/* The kernel of a run of pass p that a launch of that name (demangled) is:
 * the first whose match the name holds, else (a library kernel: cuBLAS's
 * names are its own) the first without a match; NULL when neither. */
const struct kernel_desc *variant_launch_kernel(const struct variant_desc *v, enum pass p, const char *launch_name);
/* 1 if the variant stores matrix `name` ("S", "P", "m", …) in HBM. */
int variant_stores(const struct variant_desc *v, const char *name);

/* KV rows per split of a split-KV decode run: the longest request's length
 * over the tiling's splits, rounded up to whole key tiles. */
int splitkv_chunk(const struct attn_shape *s, const struct tiling *t);

/* Elements of a formula for a shape (splits from the tiling). */
uint64_t dims_elements(const enum dim_sym *dims, const struct attn_shape *s,
		       const struct tiling *t);
/* Bytes of a buffer of a variant. */
uint64_t buffer_bytes(const struct buffer_desc *b, const struct attn_shape *s,
		      const struct tiling *t);
/* Predicted device memory of one run: the sum of its buffers (bytes), for
 * the shape's pass (the backward descriptor's buffers for bwd, fwd+bwd). */
uint64_t variant_footprint(const struct variant_desc *v, const struct attn_shape *s,
			   int sm_count);
/* Formula text "B·H·N·d" into buf. */
const char *dims_formula(const enum dim_sym *dims, char *buf, size_t len);

/* Forward FLOPs by the FlashAttention benchmark convention:
 * 4·B·H·Nq·Nkv·d, halved when causal (and Nq == Nkv); whatever the pass. */
double attn_flops_fwd(const struct attn_shape *s);
/* FLOPs of the shape's pass by the same convention: forward × 1 (fwd),
 * × 2.5 (bwd), × 3.5 (fwd+bwd), as the FA2 benchmark counts them. */
double attn_flops(const struct attn_shape *s);
double pass_flops_factor(enum pass p);

#ifdef __cplusplus
}
#endif
#endif
