/* family.h: which implementation a foreign kernel belongs to, from its name.
 *
 * One table of rules, first match wins: a rule's pattern is a substring of
 * the demangled kernel name.  A rule names the family ("flash-attn-2",
 * "cudnn", ...) and the kernel's role in an attention call: "fused" (a
 * kernel that computes attention itself), "gemm", "softmax" or "aux".  A
 * call's family is the family of its fused kernels; a call with GEMMs and a
 * softmax but no fused kernel is "unfused" (S and P between kernels);
 * anything else "unknown".  Users extend the table with a YAML file of
 * rules (family_load), tried before the built-in ones (docs/capture.md).
 */
#ifndef ATTNPROF_FAMILY_H
#define ATTNPROF_FAMILY_H

#include <stddef.h>

struct family_rule {
	const char *pattern;
	const char *family;
	const char *role;      /* "fused", "gemm", "softmax", "aux" */
	const char *what;      /* one line for documents */
	int scan;              /* a launch of this kernel is an attention call by itself: what
				  record -- CMD finds in a program with no markup (family_scan) */
	int score_bytes;       /* a GEMM that writes its scores in this many bytes per element
				  whatever the inputs' dtype (an fp32 GEMM: 4); 0: the dtype's */
	int side;              /* an auxiliary kernel: launched right before its pass's main
				  kernel (FAMILY_BEFORE), right after (FAMILY_AFTER), or either (0) */
};
enum { FAMILY_BEFORE = 1, FAMILY_AFTER = 2 };

/* The rule for kernel name, or NULL (no rule matches). */
const struct family_rule *family_of_kernel(const char *name);

/* The family of a call made of these kernels ("unfused", "unknown", or a
 * rule's family); static storage or a rule's string. */
const char *family_of_call(const char *const *names, size_t n);

/* Unmarked programs: the rule that makes a launch of this kernel an
 * attention call of its own (a scan rule, or a user rule of role fused),
 * or NULL; *pass is "fwd" or "bwd" by the name (family_kernel_pass). */
const struct family_rule *family_scan(const char *name, const char **pass);

/* Unmarked programs: the rule of an auxiliary kernel (role aux) of a family
 * that the scan finds (FA2's dot(dO, O) and dQ conversion, cuDNN's, the
 * FlexAttention backward's preprocessing), or NULL.  Such a launch opens no
 * call: it joins the pass launched next to it (capture/group.h). */
const struct family_rule *family_scan_aux(const char *name, const char **pass);

/* "bwd" when the kernel's name says it computes gradients (bwd, backward,
 * bprop, cutlassB, dq/dkdv kernels, dot(dO, O)), "fwd" otherwise. */
const char *family_kernel_pass(const char *name);

/* Bytes per element of what one kernel writes, from its name: a rule's
 * score_bytes (cuBLAS's fp32 GEMMs: 4), or the output type cuBLASLt's
 * nvjet names spell (nvjet_sm90_hsh_…: 2; nvjet_sm90_hss_…: 4); 0 when the
 * name does not tell. */
int family_kernel_out_bytes(const char *name);

/* Bytes per element of the Nq x Nkv matrices a call of these kernels
 * writes: the widest output type (family_kernel_out_bytes) of its GEMM
 * kernels when wider than dtype_bytes (PyTorch's math SDPA upcasts fp16 and
 * bf16 inputs and computes S and P in fp32; XLA's nvjet hss GEMM writes S
 * in fp32), else dtype_bytes (the call's dtype). */
int family_score_bytes(const char *const *names, size_t n, int dtype_bytes);

/* What a family is, in one line ("" when unknown). */
const char *family_describe(const char *family);

/* Prepend the rules of a YAML file (a list of {pattern, family, role,
 * what}).  0, or -1 via error() with file:line:col. */
int family_load(const char *path);
/* Forget loaded rules (tests). */
void family_reset(void);

/* The built-in rules, for docs and tests. */
extern const struct family_rule family_builtin[];
extern const size_t family_builtin_count;

#endif
