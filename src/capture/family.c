/* family.c: the implementation-family table (family.h).  Patterns are
 * substrings of demangled names as CUPTI's Activity API reports them; the
 * names seen on the H200 with PyTorch 2.11 are in docs/capture.md. */
#include "capture/family.h"

#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/file.h"
#include "util/yamltree.h"

const struct family_rule family_builtin[] = {
	/* FlashAttention-2's own code, as built into PyTorch (SDPA FLASH_ATTENTION).  Its
	 * auxiliary kernels first (the backward's dot(dO, O) before the main kernel and the
	 * dQ conversion after it, the split-KV forward's combine: H200, 2026-12-01), each
	 * name as the driver has it (mangled) and demangled */
	{ "flash_bwd_dot_do_o", "flash-attn-2", "aux", "FlashAttention-2 code (Dao), mma.sync tiles", 0, 0, FAMILY_BEFORE },
	{ "flash_bwd_convert_dq", "flash-attn-2", "aux", "FlashAttention-2 code (Dao), mma.sync tiles", 0, 0, FAMILY_AFTER },
	{ "flash_bwd_convert_dkv", "flash-attn-2", "aux", "FlashAttention-2 code (Dao), mma.sync tiles", 0, 0, FAMILY_AFTER },
	{ "flash_bwd_clear_dkvaccum", "flash-attn-2", "aux", "FlashAttention-2 code (Dao), mma.sync tiles", 0, 0, FAMILY_BEFORE },
	{ "flash_fwd_splitkv_combine", "flash-attn-2", "aux", "FlashAttention-2 code (Dao), mma.sync tiles", 0, 0, FAMILY_AFTER },
	{ "flash_fwd_splitkv_kernel", "flash-attn-2", "fused", "FlashAttention-2 code (Dao), mma.sync tiles", 1 },
	{ "pytorch_flash::flash_fwd", "flash-attn-2", "fused", "FlashAttention-2 code (Dao), mma.sync tiles", 1 },
	{ "pytorch_flash::flash_bwd", "flash-attn-2", "fused", "FlashAttention-2 code (Dao), mma.sync tiles", 1 },
	{ "flash_fwd_kernel", "flash-attn-2", "fused", "FlashAttention-2 code (Dao), mma.sync tiles", 1 },
	{ "flash_bwd_", "flash-attn-2", "fused", "FlashAttention-2 code (Dao), mma.sync tiles", 1 },
	/* xFormers' memory-efficient kernels (SDPA EFFICIENT_ATTENTION) */
	{ "fmha_cutlassF", "mem-efficient", "fused", "memory-efficient attention (xFormers, CUTLASS)", 1 },
	{ "fmha_cutlassB", "mem-efficient", "fused", "memory-efficient attention (xFormers, CUTLASS)", 1 },
	{ "attention_kernel_batched", "mem-efficient", "fused", "memory-efficient attention (xFormers, CUTLASS)", 1 },
	/* cuDNN's fused attention (SDPA CUDNN_ATTENTION, transformers sdpa on Hopper, JAX's cudnn) */
	{ "cudnn_generated_fort_native_sdpa", "cudnn", "fused", "cuDNN fused attention (Hopper wgmma)", 1 },
	{ "compute_dot_do_o", "cudnn", "aux", "cuDNN fused attention (Hopper wgmma)", 0, 0, FAMILY_BEFORE },
	{ "convert_dq_to_16bits", "cudnn", "aux", "cuDNN fused attention (Hopper wgmma)", 0, 0, FAMILY_AFTER },
	{ "cudnn", "cudnn", "fused", "cuDNN fused attention", 0 },
	/* Triton: FlexAttention through torch.compile (Inductor's template kernel
	 * triton_tem_fused_flex_attention_N, its backward ..._backward_N, and a
	 * pointwise preprocessing kernel triton_per_fused_flex_attention_backward_N
	 * on the H200, 2026-12-02), hand-written Triton kernels */
	{ "triton_tem_fused_flex_attention", "triton-flex", "fused", "FlexAttention (Triton, torch.compile)", 1 },
	{ "triton_per_fused_flex_attention_backward", "triton-flex", "aux", "FlexAttention (Triton, torch.compile)", 0, 0,
	  FAMILY_BEFORE },
	{ "flex_attention", "triton-flex", "aux", "FlexAttention (Triton, torch.compile)", 0 },
	/* JAX's Pallas FlashAttention for GPUs (jax.experimental.pallas.ops.gpu.attention,
	 * lowered through Triton): kernels named after their pallas_call, mha_forward,
	 * mha_preprocess_backward (dot(dO, O), before) and mha_backward (H200, 2026-12-02) */
	{ "mha_preprocess_backward", "pallas", "aux", "Pallas FlashAttention (JAX, Triton)", 0, 0, FAMILY_BEFORE },
	{ "mha_forward", "pallas", "fused", "Pallas FlashAttention (JAX, Triton)", 1 },
	{ "mha_backward", "pallas", "fused", "Pallas FlashAttention (JAX, Triton)", 1 },
	{ "triton_", "triton", "fused", "a Triton kernel", 0 },
	/* attnprof's own kernels */
	{ "attnprof_", "attnprof", "fused", "attnprof's own kernels", 1 },
	/* the unfused path: GEMMs and a softmax, S and P between them; an fp32 GEMM
	 * (cuBLAS's sm80_xmma_gemm_f32f32_f32f32_f32…, seen in PyTorch's math SDPA on
	 * fp16 inputs, H200 2026-12-01) writes S in 4 bytes per element */
	{ "xmma_gemm_f32f32", "unfused", "gemm", "GEMMs and a softmax kernel", 0, 4 },
	{ "sgemm", "unfused", "gemm", "GEMMs and a softmax kernel", 0, 4 },
	{ "softmax_warp_forward", "unfused", "softmax", "GEMMs and a softmax kernel", 0 },
	{ "softmax_warp_backward", "unfused", "softmax", "GEMMs and a softmax kernel", 0 },
	{ "SoftMax", "unfused", "softmax", "GEMMs and a softmax kernel", 0 },
	{ "softmax", "unfused", "softmax", "GEMMs and a softmax kernel", 0 },
	{ "nvjet", "unfused", "gemm", "GEMMs and a softmax kernel", 0 },
	{ "gemm", "unfused", "gemm", "GEMMs and a softmax kernel", 0 },
	{ "Gemm", "unfused", "gemm", "GEMMs and a softmax kernel", 0 },
};
const size_t family_builtin_count = sizeof family_builtin / sizeof family_builtin[0];

static struct family_rule *loaded;
static size_t nloaded;

static int contains(const char *name, const char *pattern)
{
	return name && pattern && *pattern && strstr(name, pattern);
}

const struct family_rule *family_of_kernel(const char *name)
{
	for (size_t i = 0; i < nloaded; i++)
		if (contains(name, loaded[i].pattern))
			return &loaded[i];
	for (size_t i = 0; i < family_builtin_count; i++)
		if (contains(name, family_builtin[i].pattern))
			return &family_builtin[i];
	return NULL;
}

const char *family_kernel_pass(const char *name)
{
	static const char *const grad[] = { "bwd", "backward", "bprop", "cutlassB", "dgrad", "dkdv", "dq_", "dot_do" };
	for (size_t i = 0; name && i < sizeof grad / sizeof grad[0]; i++)
		if (strstr(name, grad[i]))
			return "bwd";
	return "fwd";
}

const struct family_rule *family_scan(const char *name, const char **pass)
{
	const struct family_rule *r = family_of_kernel(name);
	if (!r || !r->scan)
		return NULL;
	if (pass)
		*pass = family_kernel_pass(name);
	return r;
}

/* Does a scan rule (built-in or loaded) name this family? */
static int family_scanned(const char *family)
{
	for (size_t i = 0; i < nloaded; i++)
		if (loaded[i].scan && !strcmp(loaded[i].family, family))
			return 1;
	for (size_t i = 0; i < family_builtin_count; i++)
		if (family_builtin[i].scan && !strcmp(family_builtin[i].family, family))
			return 1;
	return 0;
}

const struct family_rule *family_scan_aux(const char *name, const char **pass)
{
	const struct family_rule *r = family_of_kernel(name);
	if (!r || strcmp(r->role, "aux") || !family_scanned(r->family))
		return NULL;
	if (pass)
		*pass = family_kernel_pass(name);
	return r;
}

const char *family_of_call(const char *const *names, size_t n)
{
	int gemm = 0, softmax = 0;
	for (size_t i = 0; i < n; i++) {
		const struct family_rule *r = family_of_kernel(names[i]);
		if (!r)
			continue;
		if (!strcmp(r->role, "fused"))
			return r->family;
		gemm |= !strcmp(r->role, "gemm");
		softmax |= !strcmp(r->role, "softmax");
	}
	/* an aux kernel of a fused family alone (e.g. cuDNN's dot(dO, O)) */
	for (size_t i = 0; i < n && !(gemm || softmax); i++) {
		const struct family_rule *r = family_of_kernel(names[i]);
		if (r && !strcmp(r->role, "aux"))
			return r->family;
	}
	return gemm || softmax ? "unfused" : "unknown";
}

int family_kernel_out_bytes(const char *name)
{
	const struct family_rule *r = family_of_kernel(name);
	if (r && r->score_bytes > 0)
		return r->score_bytes;
	/* cuBLASLt's nvjet kernels spell their types after the architecture: nvjet[_smNN]_ABC_,
	 * A the inputs', B the compute's, C the output's (hsh: fp16 out; hss: fp32 out) */
	const char *p = name ? strstr(name, "nvjet_") : NULL;
	if (!p)
		return 0;
	p += 6;
	if (p[0] == 's' && p[1] == 'm' && p[2] >= '0' && p[2] <= '9') {
		p += 2;
		while (*p >= '0' && *p <= '9')
			p++;
		if (*p++ != '_')
			return 0;
	}
	if (!p[0] || !p[1] || !p[2] || p[3] != '_')
		return 0;
	switch (p[2]) {
	case 'h': case 'b': return 2;
	case 's': case 't': return 4;
	case 'd': return 8;
	default: return 0;
	}
}

int family_score_bytes(const char *const *names, size_t n, int dtype_bytes)
{
	int e = dtype_bytes;
	for (size_t i = 0; i < n; i++) {
		const struct family_rule *r = family_of_kernel(names[i]);
		int k = r && !strcmp(r->role, "gemm") ? family_kernel_out_bytes(names[i]) : 0;
		if (k > e)
			e = k;
	}
	return e;
}

const char *family_describe(const char *family)
{
	for (size_t i = 0; i < nloaded; i++)
		if (!strcmp(loaded[i].family, family))
			return loaded[i].what;
	for (size_t i = 0; i < family_builtin_count; i++)
		if (!strcmp(family_builtin[i].family, family))
			return family_builtin[i].what;
	return "";
}

void family_reset(void)
{
	for (size_t i = 0; i < nloaded; i++) {
		free((char *)loaded[i].pattern);
		free((char *)loaded[i].family);
		free((char *)loaded[i].role);
		free((char *)loaded[i].what);
	}
	free(loaded);
	loaded = NULL;
	nloaded = 0;
}

int family_load(const char *path)
{
	char *text = NULL;
	size_t len = 0;
	if (read_whole_file(path, ytree_spec_limits.max_bytes, "families file", &text, &len))
		return -1;
	struct ytree t;
	char where[256];
	int rc = -1;
	if (ytree_parse(&t, text, len, path, &ytree_spec_limits, 0)) {
		error("%s", t.problem);
		ytree_release(&t);
		free(text);
		return -1;
	}
	const struct ynode *root = t.root;
	if (!root || root->kind != Y_SEQ) {
		error("%s: a families file is a list of {pattern, family, role, what}",
		      ynode_where(&t, root, where, sizeof where));
		goto out;
	}
	struct family_rule *rules = calloc(root->n + nloaded + 1, sizeof *rules);
	if (!rules) {
		error("out of memory");
		goto out;
	}
	size_t n = 0;
	static const char *const roles[] = { "fused", "gemm", "softmax", "aux" };
	for (size_t i = 0; i < root->n; i++) {
		const struct ynode *m = root->items[i];
		const char *vals[4] = { 0 };
		static const char *const keys[] = { "pattern", "family", "role", "what" };
		if (m->kind != Y_MAP) {
			error("%s: each family rule is a mapping", ynode_where(&t, m, where, sizeof where));
			goto bad;
		}
		for (int k = 0; k < 4; k++) {
			const struct ynode *v = ynode_get(m, keys[k]);
			if (!v && k < 3) {
				error("%s: family rule without '%s'", ynode_where(&t, m, where, sizeof where), keys[k]);
				goto bad;
			}
			if (v && (v->kind != Y_SCALAR || !v->scalar[0])) {
				error("%s: '%s' must be a non-empty string", ynode_where(&t, v, where, sizeof where), keys[k]);
				goto bad;
			}
			vals[k] = v ? v->scalar : "";
		}
		int role_ok = 0;
		for (int k = 0; k < 4; k++)
			role_ok |= !strcmp(vals[2], roles[k]);
		if (!role_ok) {
			error("%s: role must be fused, gemm, softmax or aux, not '%s'",
			      ynode_where(&t, ynode_get(m, "role"), where, sizeof where), vals[2]);
			goto bad;
		}
		rules[n].pattern = strdup(vals[0]);
		rules[n].family = strdup(vals[1]);
		rules[n].role = strdup(vals[2]);
		rules[n].what = strdup(vals[3]);
		rules[n].scan = !strcmp(vals[2], "fused"); /* the user's own attention kernels */
		n++;
		if (!rules[n - 1].pattern || !rules[n - 1].family || !rules[n - 1].role || !rules[n - 1].what) {
			error("out of memory");
			goto bad;
		}
	}
	/* the file's rules first, then those loaded before */
	for (size_t i = 0; i < nloaded; i++)
		rules[n++] = loaded[i];
	free(loaded);
	loaded = rules;
	nloaded = n;
	rc = 0;
	goto out;
bad:
	for (size_t i = 0; i < n; i++) {
		free((char *)rules[i].pattern);
		free((char *)rules[i].family);
		free((char *)rules[i].role);
		free((char *)rules[i].what);
	}
	free(rules);
out:
	ytree_release(&t);
	free(text);
	return rc;
}
