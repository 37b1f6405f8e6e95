/* candidates.h: kernels nobody named.
 *
 * A launch outside every attention range of a kernel whose name looks like
 * attention is a candidate: its name holds a word of the pattern table
 * (attn, attention, fmha, mha, flash, sdpa, paged, decode, splitkv; any
 * case) and no family rule (capture/family.h, the user's --families first)
 * says what it is, or, with the scan off, it is a kernel the scan would
 * take (a family's attention kernel).  A rule of role gemm, softmax or aux
 * takes a name out of the candidates: --families is how a user says "this
 * is not attention" as well as "this is".
 *
 * The injection library tallies candidates per kernel (launches, the grid
 * and block of the first launch, how many launches had another grid, how
 * many it captured) and writes them beside its part
 * (DIR/candidates-PID.tsv); record reads every process's file, adds them
 * up by kernel and lists each with the exact command that captures it
 * (--kernel-regex on the kernel's base name, --shape with what its grid
 * tells: capture/shapeinfer.h).  Pure logic: no GPU.
 */
#ifndef ATTNPROF_CANDIDATES_H
#define ATTNPROF_CANDIDATES_H

#include <stddef.h>

#include "results.h"

struct candidate {
	char *name;            /* the kernel's name as the driver has it (mangled) */
	char *demangled;       /* its demangled name, or NULL */
	char *pattern;         /* the word that made it a candidate, or the family of a scanned kernel */
	long launches;         /* launches outside every range */
	long captured;         /* of which captured as calls (--scan on) */
	long other_grids;      /* launches whose grid or block was not the first's */
	int grid[3], block[3]; /* of its first launch */
};

struct candidates {
	size_t n, alloc;
	struct candidate *v;
};

void candidates_init(struct candidates *c);
void candidates_release(struct candidates *c);

/* Why a kernel of this (demangled, else mangled) name is a candidate: the
 * pattern word it holds (static storage), the family of a scan rule when
 * scan is 0, or NULL when it is not one. */
const char *candidate_pattern(const char *name, int scan);

/* Count launches of kernel name (demangled may be NULL) whose first had
 * this grid and block, other_grids of them another; captured of them were
 * calls.  Added to a kernel already there with another first grid, all of
 * them count as other grids.  0 or -1 (no memory). */
int candidates_add(struct candidates *c, const char *name, const char *demangled, const char *pattern,
		   const int grid[3], const int block[3], long launches, long captured, long other_grids);

/* Write c as lines of tab-separated fields (launches, captured,
 * other_grids, grid x y z, block x y z, pattern, name, demangled) to path,
 * atomically.  0 or -1 via error(). */
int candidates_write(const struct candidates *c, const char *path);
/* Add the lines of a candidates file to c (another process's launches of
 * the same kernel add up).  0 or -1 via error() naming file:line. */
int candidates_read(struct candidates *c, const char *path);
/* Every DIR/candidates-*.tsv, in name order.  0 or -1. */
int candidates_read_dir(struct candidates *c, const char *dir);

/* The kernel's base name: the last identifier before its template or
 * parameter list ("flash_fwd_kernel", "_attn_fwd"), at most len - 1 bytes. */
void candidate_base_name(const struct candidate *k, char *buf, size_t len);

/* The command that captures the kernel's launches as calls:
 * "attnprof record --kernel-regex 'BASE' --shape 'impl=BASE pass=P [B= H=
 * Nq= d= causal= dtype= as its grid tells]' -- CMD".  *inferred is set to
 * 1 when the grid told part of the shape. */
void candidate_command(const struct candidate *k, const char *cmd, char *buf, size_t len, int *inferred);

/* List the candidates that launched outside the calls: one line each on
 * stderr (note()) and in res's header notes, with the command that
 * captures them; cmd is the program's command line.  Returns how many
 * were listed. */
size_t candidates_report(const struct candidates *c, const char *cmd, struct results *res);

#endif
