/* shapeinfer.c: shapes from a found call's grids and kernel names (shapeinfer.h). */
#include "capture/shapeinfer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The integer literals ("Li128E", "Lb1E") of the template argument list
 * that follows tag in a mangled name, in order, up to the first argument
 * that is not one. */
static int template_literals(const char *name, const char *tag, long *v, int max)
{
	const char *p = strstr(name, tag);
	if (!p)
		return 0;
	p += strlen(tag);
	if (*p++ != 'I')
		return 0;
	int n = 0;
	while (n < max && p[0] == 'L' && (p[1] == 'i' || p[1] == 'b')) {
		char *e;
		long x = strtol(p + 2, &e, 10);
		if (e == p + 2 || *e != 'E')
			break;
		v[n++] = x;
		p = e + 1;
	}
	return n;
}

/* The kernel's own bool template arguments: the run of "Lb0E"/"Lb1E" that
 * ends its template argument list, right before the "Ev" of its void
 * signature; in order.  -1 when the name has no such end. */
static int trailing_bools(const char *name, int *v, int max)
{
	const char *ev = NULL;
	for (const char *q = strstr(name, "Ev"); q; q = strstr(q + 1, "Ev"))
		ev = q;
	if (!ev)
		return -1;
	int n = 0, tmp[32];
	/* "…Lb0E" "E" (its template arguments end) "E" (the nested name ends: ev) "v…" */
	const char *p0 = ev;
	for (int k = 0; k < 2 && p0 - 4 >= name && p0[-1] == 'E' && !(p0[-4] == 'L' && p0[-3] == 'b'); k++)
		p0--;
	for (const char *p = p0; p - 4 >= name && n < 32 && p[-4] == 'L' && p[-3] == 'b' && (p[-2] == '0' || p[-2] == '1') &&
				 p[-1] == 'E';
	     p -= 4)
		tmp[n++] = p[-2] - '0';
	if (n > max)
		return -1;
	for (int i = 0; i < n; i++)
		v[i] = tmp[n - 1 - i];
	return n;
}

struct acc {
	struct inferred_shape *s;
	size_t u;               /* rule bytes used */
	int bad_b, bad_h, bad_nq, bad_d, bad_c, bad_t;
	int even_mn;            /* an FA2 backward kernel's Is_even_MN: Nq a multiple of its kBlockM */
	long bwd_bm;            /* that kBlockM */
};

static void say(struct acc *a, const char *fmt, const char *what, const int grid[3], const char *more)
{
	char one[500];
	snprintf(one, sizeof one, "%s: grid (%d, %d, %d) = %s%s", what, grid[0], grid[1], grid[2], fmt, more ? more : "");
	if (a->u >= sizeof a->s->rule || strstr(a->s->rule, one)) /* a second kernel of one convention and grid */
		return;
	int w = snprintf(a->s->rule + a->u, sizeof a->s->rule - a->u, "%s%s", a->u ? "; " : "", one);
	if (w > 0)
		a->u += (size_t)w;
}

static void set_int(int *dst, int v, int *bad)
{
	if (v <= 0)
		return;
	if (*dst && *dst != v)
		*bad = 1;
	*dst = v;
}

static void set_range(int *lo, int *hi, int a, int b, int *bad)
{
	if (a <= 0 || b < a)
		return;
	if (*lo) { /* intersect: two kernels of a call see one Nq */
		int l = *lo > a ? *lo : a, h = *hi < b ? *hi : b;
		if (l > h)
			*bad = 1;
		*lo = l;
		*hi = h;
	} else {
		*lo = a;
		*hi = b;
	}
}

static void set_dtype(struct acc *a, enum dtype t)
{
	if (a->s->dtype != DTYPE_UNKNOWN && a->s->dtype != t)
		a->bad_t = 1;
	a->s->dtype = t;
}

static enum dtype fa2_dtype(const char *name)
{
	return strstr(name, "cutlass6half_t") ? DTYPE_FP16 : strstr(name, "cutlass10bfloat16_t") ? DTYPE_BF16 : DTYPE_UNKNOWN;
}

/* FlashAttention-2 (PyTorch's pytorch_flash), mangled names only */
static int fa2(struct acc *a, const char *name, const int g[3])
{
	int fwd = strstr(name, "flash_fwd_kernelI") != NULL;
	int rows = strstr(name, "flash_bwd_dot_do_o_kernelI") || strstr(name, "flash_bwd_convert_dq_kernelI");
	int main_bwd = strstr(name, "flash_bwd_dq_dk_dv_loop") != NULL;
	if (!fwd && !rows && !main_bwd)
		return 0;
	long t[8];
	int nt = template_literals(name, fwd ? "Flash_fwd_kernel_traits" : "Flash_bwd_kernel_traits", t, 8);
	if (nt < 3)
		return 0;
	const char *what = fwd ? "FA2 forward" : rows ? "FA2 backward's per-row kernel" : "FA2 backward";
	char more[300] = "";
	size_t m = 0;
	set_int(&a->s->batch, g[1], &a->bad_b);
	set_int(&a->s->heads, g[2], &a->bad_h);
	int bools[8], nb = main_bwd || fwd ? trailing_bools(name, bools, 8) : -1;
	const int want = fwd ? 8 : 7; /* Is_dropout, Is_causal, Is_local, Has_alibi, Is_even_MN, Is_even_K, Is_softcap(, Return_softmax) */
	int even_mn = nb == want && bools[4], even_k = nb == want && bools[5];
	if (fwd || rows) {
		long bm = t[1];
		int lo = (int)((g[0] - 1) * bm + 1), hi = (int)(g[0] * bm);
		if (fwd && even_mn)
			lo = hi;
		set_range(&a->s->nq_min, &a->s->nq_max, lo, hi, &a->bad_nq);
		m += (size_t)snprintf(more + m, sizeof more - m, " with kBlockM = %ld: Nq %s", bm,
				      lo == hi ? "a multiple of kBlockM (Is_even_MN)" : "in that block count's range");
	}
	if (main_bwd && even_mn) {
		a->even_mn = 1;
		a->bwd_bm = t[1];
	}
	if (fwd || main_bwd) {
		long hd = t[0];
		set_range(&a->s->d_min, &a->s->d_max, even_k ? (int)hd : (int)hd - 31, (int)hd, &a->bad_d);
		m += (size_t)snprintf(more + m, sizeof more - m, "%s d %s kHeadDim = %ld", m ? "," : " with", even_k ? "=" : "≤", hd);
		if (nb == want) {
			if (a->s->causal >= 0 && a->s->causal != bools[1])
				a->bad_c = 1;
			a->s->causal = bools[1];
			m += (size_t)snprintf(more + m, sizeof more - m, ", Is_causal = %d", bools[1]);
		} else
			m += (size_t)snprintf(more + m, sizeof more - m, " (its bool template arguments are not this FA2's %d: not read)",
					      want);
		enum dtype dt = fa2_dtype(name);
		if (dt != DTYPE_UNKNOWN)
			set_dtype(a, dt);
	}
	say(a, fwd || rows ? "(⌈Nq/kBlockM⌉, B, H)" : "(key blocks, B, H)", what, g, more);
	return 1;
}

/* xFormers' memory-efficient kernels: "fmha_cutlassF_f16_aligned_64x128_rf_sm80", "fmha_cutlassB_f16_aligned_128x128_k128_…" */
static int mem_efficient(struct acc *a, const char *name, const int g[3])
{
	const char *f = strstr(name, "fmha_cutlassF_"), *b = strstr(name, "fmha_cutlassB_");
	if (!f && !b)
		return 0;
	const char *p = (f ? f : b) + strlen("fmha_cutlassF_");
	char t[8] = "";
	int q = 0, k = 0;
	if (sscanf(p, "%7[a-z0-9]_%*[a-z]_%dx%d", t, &q, &k) != 3 || q <= 0)
		return 0;
	enum dtype dt = !strcmp(t, "f16") ? DTYPE_FP16 : !strcmp(t, "bf16") ? DTYPE_BF16 : !strcmp(t, "f32") ? DTYPE_FP32 : DTYPE_UNKNOWN;
	if (dt != DTYPE_UNKNOWN)
		set_dtype(a, dt);
	set_int(&a->s->batch, g[2], &a->bad_b);
	set_int(&a->s->heads, g[1], &a->bad_h);
	char more[200] = "";
	if (f) {
		set_range(&a->s->nq_min, &a->s->nq_max, (g[0] - 1) * q + 1, g[0] * q, &a->bad_nq);
		/* AttentionKernel<scalar_t, Arch, isAligned, kQueriesPerBlock, kKeysPerBlock, kMaxK, …>: the third int */
		const char *ak = strstr(name, "AttentionKernel");
		int ints = 0;
		long maxk = 0;
		for (const char *s = ak; s && (s = strstr(s, "Li")); s += 2) {
			char *e;
			long x = strtol(s + 2, &e, 10);
			if (e != s + 2 && *e == 'E' && ++ints == 3)
				maxk = x;
		}
		if (maxk > 0)
			set_range(&a->s->d_min, &a->s->d_max, 1, (int)maxk, &a->bad_d);
		snprintf(more, sizeof more, " with %d queries per block (its name)%s%ld", q, maxk > 0 ? ", d ≤ kMaxK = " : "", maxk);
		if (maxk <= 0)
			more[strlen(more) - 1] = '\0';
		say(a, "(⌈Nq/Q⌉, H, B)", "memory-efficient forward", g, more);
	} else {
		int d = 0;
		const char *kk = strstr(p, "_k");
		if (kk && sscanf(kk + 2, "%d", &d) == 1 && d > 0)
			set_range(&a->s->d_min, &a->s->d_max, 1, d, &a->bad_d);
		if (d > 0)
			snprintf(more, sizeof more, ", d ≤ %d (its name)", d);
		say(a, "(key splits, H, B)", "memory-efficient backward", g, more);
	}
	return 1;
}

/* cuDNN's backward helpers and FlexAttention's templates: (·, B, H) */
static int batch_heads(struct acc *a, const char *name, const int g[3])
{
	const char *what = strstr(name, "compute_dot_do_o") ? "cuDNN's dot(dO, O)"
			   : strstr(name, "convert_dq_to_16bits") ? "cuDNN's dQ conversion"
			   : strstr(name, "triton_tem_fused_flex_attention") ? "FlexAttention's template kernel" : NULL;
	if (!what || g[1] <= 1 || g[2] <= 1)
		return 0;
	set_int(&a->s->batch, g[1], &a->bad_b);
	set_int(&a->s->heads, g[2], &a->bad_h);
	say(a, "(·, B, H)", what, g, NULL);
	return 1;
}

int shape_infer(const struct record *rec, struct inferred_shape *s)
{
	memset(s, 0, sizeof *s);
	s->causal = -1;
	s->dtype = DTYPE_UNKNOWN;
	struct acc a = { .s = s };
	int any = 0;
	for (size_t i = 0; i < rec->nlaunches; i++) {
		const struct launch *l = &rec->launches[i];
		if (!l->name)
			continue;
		int g[3] = { l->grid[0] > 0 ? l->grid[0] : 1, l->grid[1] > 0 ? l->grid[1] : 1, l->grid[2] > 0 ? l->grid[2] : 1 };
		any |= fa2(&a, l->name, g) || mem_efficient(&a, l->name, g) || batch_heads(&a, l->name, g);
	}
	if (!any)
		return 0;
	if (a.even_mn && s->nq_max && s->nq_max % a.bwd_bm == 0 && s->nq_min < s->nq_max) {
		s->nq_min = s->nq_max; /* the backward kernel's Is_even_MN: Nq is a whole number of its query blocks */
		size_t u0 = strlen(s->rule);
		snprintf(s->rule + u0, sizeof s->rule - u0, "; the backward kernel's Is_even_MN: Nq a multiple of kBlockM = %ld",
			 a.bwd_bm);
	}
	/* what the kernels disagree on is left out */
	if (a.bad_b) s->batch = 0;
	if (a.bad_h) s->heads = 0;
	if (a.bad_nq) s->nq_min = s->nq_max = 0;
	if (a.bad_d) s->d_min = s->d_max = 0;
	if (a.bad_c) s->causal = -1;
	if (a.bad_t) s->dtype = DTYPE_UNKNOWN;
	if (a.bad_b || a.bad_h || a.bad_nq || a.bad_d || a.bad_c || a.bad_t) {
		size_t u = strlen(s->rule);
		snprintf(s->rule + u, sizeof s->rule - u, "; the kernels disagree on %s%s%s%s%s%s: left out", a.bad_b ? "B " : "",
			 a.bad_h ? "H " : "", a.bad_nq ? "Nq " : "", a.bad_d ? "d " : "", a.bad_c ? "causal " : "", a.bad_t ? "dtype " : "");
	}
	size_t u = 0;
	char *t = s->text;
	const size_t tl = sizeof s->text;
#define ADD(...) do { int w_ = snprintf(t + u, tl - u, __VA_ARGS__); if (w_ > 0 && (size_t)w_ < tl - u) u += (size_t)w_; } while (0)
	if (s->batch) ADD("%sB=%d", u ? " " : "", s->batch);
	if (s->heads) ADD("%sH=%d", u ? " " : "", s->heads);
	if (s->nq_min && s->nq_min == s->nq_max) ADD("%sNq=%d", u ? " " : "", s->nq_min);
	else if (s->nq_min) ADD("%sNq=%d..%d", u ? " " : "", s->nq_min, s->nq_max);
	if (s->d_max && s->d_min == s->d_max) ADD("%sd=%d", u ? " " : "", s->d_max);
	else if (s->d_max) ADD("%sd=%d..%d", u ? " " : "", s->d_min, s->d_max);
	if (s->causal >= 0) ADD("%scausal=%d", u ? " " : "", s->causal);
	if (s->dtype != DTYPE_UNKNOWN) ADD("%sdtype=%s", u ? " " : "", dtype_name(s->dtype));
#undef ADD
	return u > 0;
}
