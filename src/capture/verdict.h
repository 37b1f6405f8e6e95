/* verdict.h: did an attention call store its intermediate matrices?
 *
 * Without a descriptor (a foreign kernel) the answer is drawn from
 * measurement.  One Nq x Nkv matrix per head is nn = B·H·Nq·Nkv·2 bytes at
 * 2 bytes per element.  A pass must write its outputs anyway: forward O and
 * the logsumexp L (B·H·Nq·(d·e + 4), e the element size), backward dQ, dK,
 * dV.  What the call's kernels wrote beyond that, in whole nn-sized
 * matrices, is the number of Nq x Nkv matrices it stored:
 *
 *   matrices = floor((written - outputs) / nn + 0.05)
 *
 * written is the L2 write traffic from the SMs (lts__t_sectors_op_write.sum
 * x 32 B), not DRAM writes: an output that fits in the 60 MB L2 of an H200
 * is still dirty there when the kernel ends and never reaches DRAM in the
 * counters (docs/metrics.md, docs/capture.md).  The 0.05 allows for a
 * matrix a few per cent short of nn (a causal kernel that writes only the
 * lower triangle is still counted by the floor as not storing all of S).
 * Forward: S is stored when matrices >= 1, S and P when >= 2 (one fp32
 * matrix counts as two).  Backward: dS when >= 1, dS and dP when >= 2.
 *
 * Without counters the rule falls back to the footprint: device memory the
 * call allocated beyond its inputs, in nn-sized matrices (the same floor).
 */
#ifndef ATTNPROF_VERDICT_H
#define ATTNPROF_VERDICT_H

#include "results.h"

/* Element size of a dtype name ("fp16" 2, "bf16" 2, "fp32" 4; 2 if unknown). */
int verdict_elem_bytes(const char *dtype);

/* Fill rec->capture's verdict fields (nn_bytes, output_bytes,
 * l2_write_bytes, dram_write_bytes, nn_matrices, verdict_rule) from the
 * record's shape, pass, launches and capture->footprint_bytes.  A record
 * without a shape gets rule "none". */
void verdict_compute(struct record *rec);

/* The same rule for any record (a reference variant measured by attnprof):
 * matrices written, or -1 when unknown; *rule as above (static string). */
int verdict_matrices(const struct record *rec, const char **rule);

/* "stored", "not stored" or "unknown" for one of S, P (fwd) or dS, dP (bwd),
 * O, L (fwd) given the record. */
const char *verdict_of(const struct record *rec, const char *matrix);

#endif
