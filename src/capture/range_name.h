/* range_name.h: the grammar of an attention range's name.
 *
 * A program marks one attention call with an NVTX range whose name is
 *
 *   attnprof: impl=NAME [KEY=VALUE ...]
 *
 * with keys (any order, each at most once; docs/capture.md):
 *   impl    the implementation, [A-Za-z0-9_.:+-]{1,63} (required)
 *   B H Hkv Nq Nkv d   the shape: Q is [B, H, Nq, d], K and V [B, Hkv, Nkv, d]
 *   causal  0 or 1            dtype  fp16, bf16 or fp32
 *   pass    fwd or bwd        call   the program's own call number
 *   origin  what emitted the range (python-sdpa, transformers-eager, c-helper, ...)
 *   density the fraction of (query block, key block) pairs computed, in (0, 1]
 *           (a FlexAttention block mask): FLOPs are counted over those blocks
 *   mask    what the call's mask tensor was read as (the Python helper's
 *           mask_kind, on sampled rows): additive-causal or bool-causal (the
 *           causal pattern, bottom-right aligned: the call is causal, causal=1),
 *           additive-none or bool-none (hides nothing), additive or bool
 *           (another pattern: padding, a window; the call stays masked)
 *
 * The shape is known when B, H, Nq, Nkv and d are all given (Hkv defaults
 * to H).  A name that starts with "attnprof:" but breaks the grammar still
 * marks a call: parse returns 1 and says why in `problem`, with the shape
 * unknown, so the call is captured and the user warned.
 */
#ifndef ATTNPROF_RANGE_NAME_H
#define ATTNPROF_RANGE_NAME_H

#include <stddef.h>

#include "variants.h"

#define RANGE_PREFIX "attnprof:"

struct call_id {
	char impl[64];
	char origin[64];
	/* dtype DTYPE_UNKNOWN, the dimensions 0 where not given; pass fwd or
	 * bwd; phase call_phase's once parsed */
	struct attn_shape shape;
	long call;             /* -1: not given */
	double density;        /* fraction of tile pairs computed; 0: not given (all) */
	char mask[16];         /* "additive-causal", ... or "" (not given) */
	int shape_known;
};

/* 1 if name is an attention range (starts with RANGE_PREFIX). */
int range_is_attention(const char *name);

/*
 * An attention range carried inside another tool's range title.  XLA names
 * each thunk's NVTX range after the operation's name stack, so a
 * jax.named_scope("attnprof: impl=... B=...") set around an attention call
 * (the Python helper's JAX wrapper) reaches attnprof as, e.g.,
 *   "jit(step)/transpose(jvp(attnprof: impl=jax-cudnn B=4 ... d=128))/dot:#hlo_op=...#".
 * If title does not itself start with RANGE_PREFIX but holds it, copy the
 * embedded range (up to the first '/', ')', '#' or ',') into buf, adding
 * " pass=bwd" when it sits inside "transpose(" (JAX's name for the
 * backward of what it wraps) and gives no pass, and return 1; else 0.
 */
int range_find_embedded(const char *title, char *buf, size_t len);

/*
 * 1 if title is one of XLA's thunk ranges ("Thunk:#hlo_op=fusion.9,...#")
 * that names no operation of the program: no name= field (a fusion XLA
 * could not attribute, such as the softmax between an attention's two
 * GEMMs) or a name without a scope ("name=v": a copy of an argument).  A
 * call marked through XLA's thunk names goes on across such thunks, and
 * ends at a thunk that names another operation, at another call's thunk,
 * or when the range around them (XLA's module execution) closes.
 */
int range_thunk_unnamed(const char *title);

/*
 * The reason the Python helper gives in a check mark ("attnprof-check:
 * call=N [pass=bwd] skipped=WHY") for a call it neither checked nor re-timed
 * ("capture": a CUDA graph was being captured in the process; docs/capture.md).
 * Copies WHY (a word: letters, digits, '-', '_') into buf and returns 1, or
 * returns 0 when the mark carries no skipped= field or its value is no word.
 */
int range_check_skipped(const char *mark, char *buf, size_t len);

/*
 * Parse an attention range's name into id.  0: well formed; 1: an attention
 * range that breaks the grammar (problem says what, e.g. "unknown key 'N'
 * (did you mean 'Nq'?)"; id holds what could be read, shape unknown);
 * -1: not an attention range.  Never prints.
 */
int range_parse(const char *name, struct call_id *id, char *problem, size_t len);

/* Format id as a range name (the inverse of range_parse) into buf. */
const char *range_format(const struct call_id *id, char *buf, size_t len);

/* Decode when the call's query is much shorter than its keys
 * (Nq <= 16 and Nq < Nkv), prefill otherwise, unknown without a shape. */
enum phase call_phase(const struct call_id *id);
/* The call's problem as a record holds it: id's shape, with zeros for the
 * dimensions where the shape is not known (a range that broke the grammar). */
void call_shape(const struct call_id *id, struct attn_shape *s);

#endif
