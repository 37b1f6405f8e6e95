/* verdict.h: did an attention call store its intermediate matrices?
 *
 * Without a descriptor (a foreign kernel) the answer is drawn from
 * measurement, kernel by kernel.  One Nq x Nkv matrix over all heads is
 * nn = B·H·Nq·Nkv·e bytes, e the bytes per element of the call's dtype
 * (fp16, bf16 2; fp32 4), or wider where one of the call's GEMM kernels
 * writes a wider type: by its name (family_score_bytes: PyTorch's math
 * SDPA computes S and P in fp32 on fp16 inputs, XLA's nvjet hss GEMM writes
 * fp32 S) or, where the name does not say, by its writes (a GEMM whose DRAM
 * writes reach 0.9 of an fp32 matrix).  A kernel stores such a matrix when
 * it wrote at least 0.9·B·H·Nq·Nkv elements of its own element size (its
 * output type where its name says it, else the call's dtype: an fp16 P
 * after an fp32 S counts); the call's count is the number of such kernels,
 * the one count every document prints.  Forward: S is stored when one
 * kernel does, S and P when two or more do; backward: dS, and dS and dP.
 *
 * The rule decides only when a matrix is much larger than what the pass
 * must write anyway: nn >= 1 MiB and nn >= 4 x outputs, the outputs being
 * forward O and L (B·H·Nq·(d·e + 4), e the element size), backward dQ, dK,
 * dV and an fp32 accumulator of each (B·(H·Nq + 2·Hkv·Nkv)·d·(e + 4)).
 * Measured on the H200 (docs/capture.md): FlashAttention-2's d = 128
 * forward kernel writes 0.5 to 4 GB of register spills through the L2 per
 * call, and the memory-efficient backward kernel 0.5 to 1 GB of
 * accumulators, against N x N matrices of 0.5 to 4.3 GB; below that ratio
 * traffic cannot tell a matrix from the outputs.  Which bytes:
 *
 *   - DRAM writes when nn is larger than twice the L2: a matrix that large
 *     cannot stay in the cache, while L2 traffic also counts spills;
 *   - L2 writes from the SMs (lts__t_sectors_op_write.sum x 32 B) when it
 *     fits in the L2, where it can be dirty at kernel end and never reach
 *     DRAM in the counters (a flash2 call whose O is 8 MB wrote 0.01 MB);
 *   - without counters, the footprint: device memory the call allocated
 *     beyond its inputs, in whole nn-sized matrices.
 *
 * When traffic cannot decide (decode steps, small N against d), the
 * implementation family says it by construction (rule "family"): a fused
 * kernel keeps S and P on chip, separate GEMM and softmax kernels pass them
 * through memory; an unknown family gives "unknown" (rule "too-small").
 */
#ifndef ATTNPROF_VERDICT_H
#define ATTNPROF_VERDICT_H

#include "results.h"

/* Bytes per element of the call's Nq x Nkv matrices (see above), and one
 * such matrix over all heads: B·H·Nq·Nkv·e. */
int verdict_matrix_elem_bytes(const struct record *rec);
double verdict_nn_bytes(const struct record *rec);

/* Fill rec->capture's verdict fields (nn_bytes, output_bytes,
 * l2_write_bytes, dram_write_bytes, nn_matrices, verdict_rule) from the
 * record's shape, pass, launches and capture->footprint_bytes; l2_bytes is
 * the GPU's L2 size (0 when unknown: L2 writes are used).  A record without
 * a shape gets rule "none". */
void verdict_compute(struct record *rec, double l2_bytes);

/* The same rule for any record (a reference variant measured by attnprof):
 * matrices written, or -1 when unknown; *rule is "dram-writes",
 * "l2-writes", "footprint", "family", "too-small" or "none". */
int verdict_matrices(const struct record *rec, double l2_bytes, const char **rule);

/* "stored", "not stored" or "unknown" for one of S, P (fwd) or dS, dP (bwd),
 * O, L (fwd) given the record. */
const char *verdict_of(const struct record *rec, double l2_bytes, const char *matrix);
/* The same from a count verdict_matrices gave (-1 unknown) and the pass. */
const char *verdict_state(int matrices, enum pass pass, const char *matrix);

#endif
