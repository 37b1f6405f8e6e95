/* group.h: the calls and passes of an unmarked program, from the kernels
 * the scan found (`record --scan on`, origin family-scan).
 *
 * The injection library profiles each such launch on its own, outside any
 * range, and records where it was launched: the process, the thread (tid),
 * the stream, and the thread's kernel launch number.  The kernels of one
 * implementation's call are then put together by one rule (GROUP_RULE,
 * written into each grouped record's capture.group_rule):
 *
 *   - a launch of a kernel the family table names as attention by itself
 *     (family_scan) opens a pass: forward or backward by its name;
 *   - an auxiliary kernel of the same family (family_scan_aux: FA2's
 *     dot(dO, O) and dQ conversion, cuDNN's, the FlexAttention backward's
 *     preprocessing) of the same pass by name belongs to the pass it was
 *     launched next to — the thread's launch right before it (a kernel
 *     that follows) or right after it (one that precedes) — on the same
 *     thread and stream (where the family table says a kernel comes
 *     before its pass, as dot(dO, O) does, or after it, as the dQ
 *     conversion does, only that side); one launched next to no such pass
 *     is dropped (counted in the header's notes);
 *   - a backward pass is the backward of the latest forward pass of its
 *     family, process and stream that has no backward yet (autograd runs
 *     the backwards in the reverse order of the forwards, on its own
 *     thread, on the forward's stream): it takes that call's number; one
 *     that follows no such forward stays a call of its own.
 *
 * Pure logic over results records: no CUDA.
 */
#ifndef ATTNPROF_GROUP_H
#define ATTNPROF_GROUP_H

#include <stddef.h>

#include "results.h"

#define GROUP_RULE "a kernel the family table names as attention opens a pass (its pass by name); the family's " \
	"auxiliary kernels launched next to it on its thread and stream are part of it; a backward is the pass " \
	"of the latest forward of its family and stream without one"

/* The origin of an auxiliary kernel's record before it is grouped. */
#define GROUP_AUX_ORIGIN "family-scan-aux"

struct group_summary {
	size_t joined;      /* auxiliary kernels put into a pass */
	size_t paired;      /* backward passes that took their forward's call number */
	size_t dropped;     /* auxiliary kernels next to no pass of theirs (removed) */
};

/* Group res's scanned records in place (records of other origins are left
 * as they are); a record that joins another is removed.  0, or -1 via
 * error() (no memory). */
int group_scanned(struct results *res, struct group_summary *sum);

#endif
