/* spec.c: read an experiment spec and expand its sweep (see spec.h and
 * docs/spec-format.md).  Every value is checked where it stands, so each
 * message carries file:line:col. */
#include "spec.h"

#include "paged.h"
#include "metric_sets.h"
#include "util/error.h"
#include "util/file.h"
#include "util/yamltree.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Limits beyond which a value is absurd rather than merely large (and
 * MAX_SEQLEN, MAX_BATCH, MAX_HEADS, MAX_HEAD_DIM in results.h). */
#define MAX_AXIS     64          /* values in one list */
#define MAX_CONFIGS  100000

static const char *const top_keys[] = {
	"name", "description", "repetitions", "warmup", "seed", "check_rows",
	"metrics", "metric_sets", "replay", "tolerances", "max_device_memory", "sweeps",
	/* sweep keys are allowed at the top as defaults */
	"variants", "dtype", "head_dim", "seqlen", "batch", "batch_tokens",
	"heads", "hidden", "kv_heads", "causal", "phase", "query_len", "kv_len", "pass",
	"kv_layout", "page_size", "kv_dist", "kv_seed", /* decode's KV cache (read_kv_cache) */
};
#define NTOP (sizeof(top_keys) / sizeof(top_keys[0]))
#define FIRST_SWEEP_KEY 12

static const char *const *sweep_keys = top_keys + FIRST_SWEEP_KEY;
#define NSWEEP (NTOP - FIRST_SWEEP_KEY)

void spec_init(struct spec *s)
{
	memset(s, 0, sizeof(*s));
	s->repetitions = 30;
	s->warmup = 5;
	s->seed = 20231017;   /* any fixed default: every record stores its seed */
	s->check_rows = 256;
	s->tol[DTYPE_FP16] = (struct tolerance){ 1e-2, 5e-3 };
	s->tol[DTYPE_BF16] = (struct tolerance){ 5e-2, 2e-2 };
}

void spec_release(struct spec *s)
{
	free(s->path);
	free(s->text);
	free(s->name);
	free(s->description);
	free(s->metric_set);
	for (size_t i = 0; i < s->nmetrics; i++)
		free(s->metrics[i]);
	free(s->configs);
	spec_init(s);
}

const char *format_bytes(double b, char *buf, size_t len)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" };
	int u = 0;
	while (b >= 1024 && u < 5) {
		b /= 1024;
		u++;
	}
	if (u == 0)
		snprintf(buf, len, "%.0f B", b);
	else
		snprintf(buf, len, "%.*f %s", b < 10 ? 2 : b < 100 ? 1 : 0, b, units[u]);
	return buf;
}

/* ---- parsing helpers ------------------------------------------------- */

struct ctx {
	struct ytree *t;
	struct spec *s;
};

static const char *where(const struct ctx *c, const struct ynode *n, char *buf, size_t len)
{
	return ynode_where(c->t, n, buf, len);
}

static int check_keys(struct ctx *c, const struct ynode *map, const char *const *keys,
		      size_t nkeys, const char *section)
{
	char w[256];
	for (size_t i = 0; i < map->n; i++) {
		const struct ynode *k = map->keys[i];
		size_t j;
		for (j = 0; j < nkeys; j++)
			if (!strcmp(keys[j], k->scalar))
				break;
		if (j < nkeys)
			continue; /* (a key twice is refused by ytree_parse) */
		const char *near = nearest_word(k->scalar, keys, nkeys);
		if (near)
			return error("%s: unknown key '%s' in %s: did you mean '%s'?",
				     where(c, k, w, sizeof(w)), k->scalar, section, near);
		return error("%s: unknown key '%s' in %s (see docs/spec-format.md for the keys)",
			     where(c, k, w, sizeof(w)), k->scalar, section);
	}
	return 0;
}

/* A scalar or a list of scalars: items[] points at the scalar nodes. */
static int axis_nodes(struct ctx *c, const struct ynode *n, const char *what,
		      const struct ynode **items, size_t *count)
{
	char w[256];
	if (n->kind == Y_SCALAR) {
		items[0] = n;
		*count = 1;
		return 0;
	}
	if (n->kind != Y_SEQ)
		return error("%s: %s must be a value or a list of values, not a mapping",
			     where(c, n, w, sizeof(w)), what);
	if (n->n == 0)
		return error("%s: %s is an empty list: give at least one value", where(c, n, w, sizeof(w)), what);
	if (n->n > MAX_AXIS)
		return error("%s: %s has %zu values, more than %d", where(c, n, w, sizeof(w)), what, n->n, MAX_AXIS);
	for (size_t i = 0; i < n->n; i++) {
		if (n->items[i]->kind != Y_SCALAR)
			return error("%s: %s must be a list of plain values", where(c, n->items[i], w, sizeof(w)), what);
		items[i] = n->items[i];
		for (size_t j = 0; j < i; j++)
			if (!strcmp(items[j]->scalar, items[i]->scalar))
				return error("%s: %s lists '%s' twice: the sweep would measure the same configs twice",
					     where(c, items[i], w, sizeof(w)), what, items[i]->scalar);
	}
	*count = n->n;
	return 0;
}

static int axis_ints(struct ctx *c, const struct ynode *n, const char *what,
		     long long lo, long long hi, long long *out, size_t *count)
{
	const struct ynode *items[MAX_AXIS];
	char w[256];
	if (axis_nodes(c, n, what, items, count))
		return -1;
	for (size_t i = 0; i < *count; i++) {
		if (ynode_int(c->t, items[i], what, &out[i]))
			return -1;
		if (out[i] < lo || out[i] > hi)
			return error("%s: %s = %lld is out of range: it must be between %lld and %lld",
				     where(c, items[i], w, sizeof(w)), what, out[i], lo, hi);
		for (size_t j = 0; j < i; j++)
			if (out[j] == out[i])
				return error("%s: %s lists %lld twice: the sweep would measure the same configs twice",
					     where(c, items[i], w, sizeof(w)), what, out[i]);
	}
	return 0;
}

/* Parse sizes like 100 GiB, 64 MiB, 1e9. */
static int parse_size(struct ctx *c, const struct ynode *n, const char *what, uint64_t *out)
{
	char w[256], *end;
	if (!n || n->kind != Y_SCALAR)
		return error("%s: %s must be a size such as '100 GiB'", where(c, n, w, sizeof(w)), what);
	errno = 0;
	double v = strtod(n->scalar, &end);
	while (*end == ' ')
		end++;
	double mult = 1;
	if (!strcmp(end, "") || !strcmp(end, "B")) mult = 1;
	else if (!strcmp(end, "KiB")) mult = 1024.0;
	else if (!strcmp(end, "MiB")) mult = 1024.0 * 1024;
	else if (!strcmp(end, "GiB")) mult = 1024.0 * 1024 * 1024;
	else if (!strcmp(end, "TiB")) mult = 1024.0 * 1024 * 1024 * 1024;
	else if (!strcmp(end, "KB")) mult = 1e3;
	else if (!strcmp(end, "MB")) mult = 1e6;
	else if (!strcmp(end, "GB")) mult = 1e9;
	else if (!strcmp(end, "TB")) mult = 1e12;
	else
		return error("%s: %s '%s' has an unknown unit: use B, KiB, MiB, GiB, TiB, KB, MB, GB or TB",
			     where(c, n, w, sizeof(w)), what, n->scalar);
	/* (NaN fails every comparison: written so that it fails this one) */
	if (end == n->scalar || !(v * mult >= 1 && v * mult <= 1e18))
		return error("%s: %s '%s' is not a size from 1 B to 1 EB", where(c, n, w, sizeof(w)), what, n->scalar);
	*out = (uint64_t)(v * mult);
	return 0;
}

static int set_string(char **dst, const char *src)
{
	free(*dst);
	*dst = strdup(src);
	return *dst ? 0 : error("out of memory");
}

/* ---- metric sets ------------------------------------------------------- */

static int add_metric(struct ctx *c, const struct ynode *n)
{
	char w[256];
	struct spec *s = c->s;
	if (n->kind != Y_SCALAR)
		return error("%s: a metric must be a CUPTI metric name", where(c, n, w, sizeof(w)));
	if (s->nmetrics == SPEC_MAX_METRICS)
		return error("%s: more than %d metrics", where(c, n, w, sizeof(w)), SPEC_MAX_METRICS);
	/* Shape check only; the chip check happens against CUPTI before the sweep. */
	for (const char *p = n->scalar; *p; p++)
		if (!(*p == '_' || *p == '.' || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9')))
			return error("%s: '%s' is not a metric name (letters, digits, '_' and '.' only)",
				     where(c, n, w, sizeof(w)), n->scalar);
	for (size_t i = 0; i < s->nmetrics; i++)
		if (!strcmp(s->metrics[i], n->scalar))
			return 0;
	if (!(s->metrics[s->nmetrics] = strdup(n->scalar)))
		return error("out of memory");
	s->nmetrics++;
	return 0;
}

static int parse_metrics(struct ctx *c, const struct ynode *root)
{
	char w[256];
	struct spec *s = c->s;
	const struct ynode *m = ynode_get(root, "metrics");
	const struct ynode *sets = ynode_get(root, "metric_sets");
	if (sets && sets->kind != Y_MAP)
		return error("%s: metric_sets must map set names to lists of metric names",
			     where(c, sets, w, sizeof(w)));
	for (size_t i = 0; sets && i < sets->n; i++)
		if (metric_set_find(sets->keys[i]->scalar))
			return error("%s: metric set '%s' is built in: give yours another name (it would hide the "
				     "built-in one)", where(c, sets->keys[i], w, sizeof(w)), sets->keys[i]->scalar);
	static const struct ynode default_set = { .kind = Y_SCALAR, .scalar = (char *)"default" };
	if (!m)
		m = &default_set;
	if (m->kind == Y_SEQ) {
		if (set_string(&s->metric_set, "custom"))
			return -1;
		for (size_t i = 0; i < m->n; i++)
			if (add_metric(c, m->items[i]))
				return -1;
		return 0;
	}
	if (m->kind != Y_SCALAR)
		return error("%s: metrics must be a set name (%s, or one of metric_sets) or a list of metric names",
			     where(c, m, w, sizeof(w)), metric_set_names());
	if (set_string(&s->metric_set, m->scalar))
		return -1;
	const struct ynode *own = sets ? ynode_get(sets, m->scalar) : NULL;
	if (own) {
		if (own->kind != Y_SEQ)
			return error("%s: metric set '%s' must be a list of metric names",
				     where(c, own, w, sizeof(w)), m->scalar);
		for (size_t i = 0; i < own->n; i++)
			if (add_metric(c, own->items[i]))
				return -1;
		return 0;
	}
	const struct metric_set *ms = metric_set_find(m->scalar);
	if (!ms) {
		const char *names[32];
		size_t n = 0;
		for (size_t i = 0; i < metric_sets_builtin_count && n < 32; i++)
			names[n++] = metric_sets_builtin[i].name;
		for (size_t i = 0; sets && i < sets->n && n < 32; i++)
			names[n++] = sets->keys[i]->scalar;
		const char *near = nearest_word(m->scalar, names, n);
		return error("%s: unknown metric set '%s'%s%s%s (built in: %s)",
			     where(c, m, w, sizeof(w)), m->scalar, near ? ": did you mean '" : "",
			     near ? near : "", near ? "'?" : "", metric_set_names());
	}
	return spec_use_metric_set(s, ms);
}

int spec_use_metric_set(struct spec *s, const struct metric_set *ms)
{
	for (size_t i = 0; i < s->nmetrics; i++)
		free(s->metrics[i]);
	s->nmetrics = 0;
	if (set_string(&s->metric_set, ms->name))
		return -1;
	for (size_t i = 0; i < ms->nmetrics; i++) {
		if (!(s->metrics[i] = strdup(ms->metrics[i])))
			return error("out of memory");
		s->nmetrics = i + 1;
	}
	return 0;
}

static int parse_tolerances(struct ctx *c, const struct ynode *n)
{
	static const char *const dkeys[] = { "fp16", "bf16" };
	static const char *const tkeys[] = { "max_abs", "rel_l2" };
	char w[256];
	if (n->kind != Y_MAP)
		return error("%s: tolerances must map dtypes to {max_abs, rel_l2}", where(c, n, w, sizeof(w)));
	if (check_keys(c, n, dkeys, 2, "tolerances"))
		return -1;
	for (size_t i = 0; i < n->n; i++) {
		enum dtype dt;
		dtype_parse(n->keys[i]->scalar, &dt);
		const struct ynode *m = n->items[i];
		if (m->kind != Y_MAP)
			return error("%s: tolerances.%s must be {max_abs: ..., rel_l2: ...}",
				     where(c, m, w, sizeof(w)), n->keys[i]->scalar);
		if (check_keys(c, m, tkeys, 2, "tolerances"))
			return -1;
		const struct ynode *v;
		double x;
		if ((v = ynode_get(m, "max_abs"))) {
			if (ynode_double(c->t, v, "max_abs", &x))
				return -1;
			if (!(x > 0))
				return error("%s: max_abs must be a positive number", where(c, v, w, sizeof(w)));
			c->s->tol[dt].max_abs = x;
		}
		if ((v = ynode_get(m, "rel_l2"))) {
			if (ynode_double(c->t, v, "rel_l2", &x))
				return -1;
			if (!(x > 0))
				return error("%s: rel_l2 must be a positive number", where(c, v, w, sizeof(w)));
			c->s->tol[dt].rel_l2 = x;
		}
	}
	return 0;
}

/* ---- sweep expansion --------------------------------------------------- */

/* The value of a sweep key: the block's own, else the top-level default. */
static const struct ynode *sweep_get(const struct ynode *block, const struct ynode *root, const char *key)
{
	const struct ynode *n = block ? ynode_get(block, key) : NULL;
	return n ? n : ynode_get(root, key);
}

static int push_config(struct ctx *c, const struct config *cfg)
{
	struct spec *s = c->s;
	if (s->nconfigs >= MAX_CONFIGS)
		return error("%s: the sweep expands to more than %d configs: split it", s->path, MAX_CONFIGS);
	if ((s->nconfigs & (s->nconfigs - 1)) == 0) {
		size_t cap = s->nconfigs ? 2 * s->nconfigs : 1;
		struct config *p = realloc(s->configs, cap * sizeof(*p));
		if (!p)
			return error("out of memory");
		s->configs = p;
	}
	s->configs[s->nconfigs++] = *cfg;
	return 0;
}

/* A sweep block's axes, each a list (MAX_AXIS at most), with the nodes
 * they came from for the errors that name a line. */
struct axes {
	const struct ynode *vnodes[MAX_AXIS], *dnodes[MAX_AXIS], *cnodes[MAX_AXIS], *pnodes[MAX_AXIS], *snodes[MAX_AXIS];
	size_t nv, nd, nc, np, ns;
	long long dims[MAX_AXIS], lens[MAX_AXIS], qlens[MAX_AXIS], batches[MAX_AXIS], heads[MAX_AXIS], kvh[MAX_AXIS];
	size_t ndims, nlens, nq, nb, nh, nkv;
	long long batch_tokens, hidden; /* 0: batch and heads given as lists */
	const struct variant_desc *variants[MAX_AXIS];
	enum dtype dtypes[MAX_AXIS];
	enum phase phases[MAX_AXIS];
	int causals[MAX_AXIS];
	enum pass passes[MAX_AXIS];
	int decode;
	const struct ynode *at, *tn, *hid, *kvn; /* the block, batch_tokens, hidden and kv_heads nodes */
	/* decode's KV cache (kernels/paged.h): the layout a block asks for
	 * (-1: each variant's own), page size, ragged lengths, their seed */
	int kv_layout, page_size, kv_dist;
	unsigned kv_seed;
	const struct ynode *layn, *psn, *distn;
};

/* A decode block's KV cache: kv_layout, page_size, kv_dist, kv_seed. */
static int read_kv_cache(struct ctx *c, const struct ynode *root, const struct ynode *block, struct axes *x)
{
	char w[256], sizes[64];
	const char *str;
	x->kv_layout = -1;
	x->layn = sweep_get(block, root, "kv_layout");
	x->psn = sweep_get(block, root, "page_size");
	x->distn = sweep_get(block, root, "kv_dist");
	const struct ynode *seedn = sweep_get(block, root, "kv_seed");
	const struct ynode *any = x->layn ? x->layn : x->psn ? x->psn : x->distn ? x->distn : seedn;
	if (!x->decode) {
		if (any)
			return error("%s: kv_layout, page_size, kv_dist and kv_seed are for decode sweeps ('phase: decode')",
				     where(c, any, w, sizeof(w)));
		return 0;
	}
	if (x->layn) {
		if (ynode_string(c->t, x->layn, "kv_layout", &str))
			return -1;
		if (!strcmp(str, "contiguous"))
			x->kv_layout = KV_CONTIGUOUS;
		else if (!strcmp(str, "paged"))
			x->kv_layout = KV_PAGED;
		else
			return error("%s: unknown kv_layout '%s': use contiguous or paged", where(c, x->layn, w, sizeof(w)), str);
	}
	if (x->psn) {
		long long v;
		if (ynode_int(c->t, x->psn, "page_size", &v))
			return -1;
		if (!paged_page_size_built((int)v) || v != (int)v)
			return error("%s: page size %lld is not built: decode-paged takes %s", where(c, x->psn, w, sizeof(w)), v,
				     paged_page_sizes_text(sizes, sizeof sizes));
		x->page_size = (int)v;
	}
	if (x->distn) {
		if (ynode_string(c->t, x->distn, "kv_dist", &str))
			return -1;
		int found = 0;
		for (int i = 0; i < KV_DIST_COUNT; i++)
			if (!strcmp(str, kv_dist_names[i])) {
				x->kv_dist = i;
				found = 1;
			}
		if (!found)
			return error("%s: unknown kv_dist '%s': use equal, uniform or long-tail (lengths adding up to B·kv_len)",
				     where(c, x->distn, w, sizeof(w)), str);
	}
	if (seedn) {
		long long v;
		if (ynode_int(c->t, seedn, "kv_seed", &v))
			return -1;
		if (v < 0 || v > 0x7fffffff)
			return error("%s: kv_seed %lld is out of range (0 .. 2^31 - 1)", where(c, seedn, w, sizeof(w)), v);
		x->kv_seed = (unsigned)v;
	}
	return 0;
}

/* A block's batch (a list, or batch_tokens B·N) and heads (a list, or
 * hidden H·d), and its kv_heads. */
static int read_sizes(struct ctx *c, const struct ynode *root, const struct ynode *block, struct axes *x)
{
	char w[256];
	/* batch: fixed, or fixed tokens B·N */
	const struct ynode *bn = sweep_get(block, root, "batch");
	x->tn = sweep_get(block, root, "batch_tokens");
	if (block && ynode_get(block, "batch"))
		x->tn = ynode_get(block, "batch_tokens"); /* a block's own batch overrides a default batch_tokens */
	if (block && ynode_get(block, "batch_tokens"))
		bn = ynode_get(block, "batch");
	if (bn && x->tn)
		return error("%s: give batch or batch_tokens, not both", where(c, x->tn, w, sizeof(w)));
	if (x->tn) {
		if (ynode_int(c->t, x->tn, "batch_tokens", &x->batch_tokens))
			return -1;
		if (x->batch_tokens < 1 || x->batch_tokens > (long long)MAX_SEQLEN * MAX_BATCH)
			return error("%s: batch_tokens %lld is out of range", where(c, x->tn, w, sizeof(w)), x->batch_tokens);
	} else if (bn) {
		if (axis_ints(c, bn, "batch", 1, MAX_BATCH, x->batches, &x->nb))
			return -1;
	} else {
		x->batches[0] = 1;
	}
	/* heads: fixed, or hidden size H·d */
	const struct ynode *hn = sweep_get(block, root, "heads");
	x->hid = sweep_get(block, root, "hidden");
	if (block && ynode_get(block, "heads"))
		x->hid = ynode_get(block, "hidden");
	if (block && ynode_get(block, "hidden"))
		hn = ynode_get(block, "heads");
	if (hn && x->hid)
		return error("%s: give heads or hidden, not both", where(c, x->hid, w, sizeof(w)));
	if (x->hid) {
		if (ynode_int(c->t, x->hid, "hidden", &x->hidden))
			return -1;
		if (x->hidden < 1 || x->hidden > 1 << 20)
			return error("%s: hidden %lld is out of range", where(c, x->hid, w, sizeof(w)), x->hidden);
	} else if (hn) {
		if (axis_ints(c, hn, "heads", 1, MAX_HEADS, x->heads, &x->nh))
			return -1;
	} else {
		return error("%s: no heads: give 'heads: 16' or 'hidden: 2048' (H·d)", where(c, x->at, w, sizeof(w)));
	}
	x->kvn = sweep_get(block, root, "kv_heads");
	if (x->kvn && axis_ints(c, x->kvn, "kv_heads", 1, MAX_HEADS, x->kvh, &x->nkv))
		return -1;
	return 0;
}

/* A sweep block's axes, read and checked (block NULL: the top level). */
static int read_axes(struct ctx *c, const struct ynode *root, const struct ynode *block, struct axes *x)
{
	char w[256];
	const struct ynode *n;
	memset(x, 0, sizeof *x);
	x->nc = x->np = x->ns = x->nq = x->nb = x->nh = 1;
	x->qlens[0] = 1;
	x->phases[0] = PHASE_PREFILL;
	x->passes[0] = PASS_FWD;
	x->at = block ? block : root;

	/* phase */
	if ((n = sweep_get(block, root, "phase"))) {
		if (axis_nodes(c, n, "phase", x->pnodes, &x->np))
			return -1;
		for (size_t i = 0; i < x->np; i++)
			if (phase_parse(x->pnodes[i]->scalar, &x->phases[i]) || x->phases[i] == PHASE_UNKNOWN)
				return error("%s: unknown phase '%s': use prefill or decode",
					     where(c, x->pnodes[i], w, sizeof(w)), x->pnodes[i]->scalar);
	}
	/* pass: fwd, bwd, fwd+bwd */
	if ((n = sweep_get(block, root, "pass"))) {
		if (axis_nodes(c, n, "pass", x->snodes, &x->ns))
			return -1;
		for (size_t i = 0; i < x->ns; i++)
			if (pass_parse(x->snodes[i]->scalar, &x->passes[i]))
				return error("%s: unknown pass '%s': use fwd, bwd or fwd+bwd",
					     where(c, x->snodes[i], w, sizeof(w)), x->snodes[i]->scalar);
	}
	/* variants */
	if (!(n = sweep_get(block, root, "variants")))
		return error("%s: no variants: name them, e.g. 'variants: [standard, flash1, flash2]'",
			     where(c, x->at, w, sizeof(w)));
	if (axis_nodes(c, n, "variants", x->vnodes, &x->nv))
		return -1;
	for (size_t i = 0; i < x->nv; i++) {
		x->variants[i] = variant_find(x->vnodes[i]->scalar);
		if (!x->variants[i]) {
			const char *names[64];
			for (size_t k = 0; k < variant_count && k < 64; k++)
				names[k] = variant_table[k]->name;
			const char *near = nearest_word(x->vnodes[i]->scalar, names, variant_count);
			if (near)
				return error("%s: unknown variant '%s': did you mean '%s'?",
					     where(c, x->vnodes[i], w, sizeof(w)), x->vnodes[i]->scalar, near);
			return error("%s: unknown variant '%s' ('attnprof record --help' lists them)",
				     where(c, x->vnodes[i], w, sizeof(w)), x->vnodes[i]->scalar);
		}
	}
	/* dtype */
	if (!(n = sweep_get(block, root, "dtype"))) {
		x->nd = 1;
		x->dtypes[0] = DTYPE_FP16;
	} else {
		if (axis_nodes(c, n, "dtype", x->dnodes, &x->nd))
			return -1;
		for (size_t i = 0; i < x->nd; i++)
			if (dtype_parse(x->dnodes[i]->scalar, &x->dtypes[i]) || !dtype_runs_here(x->dtypes[i]))
				return error("%s: unsupported dtype '%s': use fp16 or bf16",
					     where(c, x->dnodes[i], w, sizeof(w)), x->dnodes[i]->scalar);
	}
	/* head_dim */
	if (!(n = sweep_get(block, root, "head_dim")))
		return error("%s: no head_dim: give one or a list, e.g. 'head_dim: [64, 128]'", where(c, x->at, w, sizeof(w)));
	if (axis_ints(c, n, "head_dim", 1, MAX_HEAD_DIM, x->dims, &x->ndims))
		return -1;
	/* each variant's kernels are built for the head dims its descriptor lists */
	for (size_t i = 0; i < x->ndims; i++)
		for (size_t k = 0; k < x->nv; k++)
			if (!variant_supports_head_dim(x->variants[k], (int)x->dims[i])) {
				const struct ynode *items[MAX_AXIS];
				size_t cnt;
				char dims[64];
				axis_nodes(c, n, "head_dim", items, &cnt);
				return error("%s: unsupported head_dim %lld: %s's kernels are built for %s",
					     where(c, items[i], w, sizeof(w)), x->dims[i], x->variants[k]->name,
					     variant_head_dims_text(x->variants[k], dims, sizeof(dims)));
			}
	/* causal */
	if ((n = sweep_get(block, root, "causal"))) {
		if (axis_nodes(c, n, "causal", x->cnodes, &x->nc))
			return -1;
		for (size_t i = 0; i < x->nc; i++) {
			if (ynode_bool(c->t, x->cnodes[i], "causal", &x->causals[i]))
				return -1;
			for (size_t j = 0; j < i; j++)
				if (x->causals[j] == x->causals[i])
					return error("%s: causal lists %s twice ('%s' and '%s'): the sweep would measure the same "
						     "configs twice", where(c, x->cnodes[i], w, sizeof(w)),
						     x->causals[i] ? "true" : "false", x->cnodes[j]->scalar, x->cnodes[i]->scalar);
		}
	}
	/* sequence lengths: seqlen for prefill, query_len + kv_len for decode */
	int prefill = 0;
	x->decode = 0;
	for (size_t i = 0; i < x->np; i++)
		*(x->phases[i] == PHASE_DECODE ? &x->decode : &prefill) = 1;
	if (prefill && x->decode)
		return error("%s: one sweep block cannot mix prefill and decode: put each in its own block under 'sweeps:'",
			     where(c, x->at, w, sizeof(w)));
	if (x->decode) {
		if (!(n = sweep_get(block, root, "kv_len")))
			return error("%s: a decode sweep needs kv_len (the KV-cache lengths)", where(c, x->at, w, sizeof(w)));
		if (axis_ints(c, n, "kv_len", 1, MAX_SEQLEN, x->lens, &x->nlens))
			return -1;
		if ((n = sweep_get(block, root, "query_len")) &&
		    axis_ints(c, n, "query_len", 1, 64, x->qlens, &x->nq))
			return -1;
		if ((n = sweep_get(block, root, "seqlen")))
			return error("%s: seqlen is for prefill; a decode sweep uses query_len and kv_len",
				     where(c, n, w, sizeof(w)));
	} else {
		if (!(n = sweep_get(block, root, "seqlen")))
			return error("%s: no seqlen: give the sequence lengths, e.g. 'seqlen: [512, 1k, 2k]'",
				     where(c, x->at, w, sizeof(w)));
		if (axis_ints(c, n, "seqlen", 1, MAX_SEQLEN, x->lens, &x->nlens))
			return -1;
		/* a block's own, or the top level's when there are no blocks (a
		 * top-level kv_len beside sweeps may be a default for decode ones) */
		const struct ynode *own = block ? block : root;
		if ((n = ynode_get(own, "kv_len")) || (n = ynode_get(own, "query_len")))
			return error("%s: query_len and kv_len are for decode sweeps ('phase: decode')",
				     where(c, n, w, sizeof(w)));
	}
	return read_sizes(c, root, block, x) || read_kv_cache(c, root, block, x) ? -1 : 0;
}

/* A decode config's KV cache: the layout its variant reads (a block's
 * kv_layout must agree), the page size a paged one needs, the ragged
 * lengths only the paged kernel takes. */
static int set_kv_cache(struct ctx *c, const struct axes *x, size_t iv, struct attn_shape *sh)
{
	char w[256];
	const struct variant_desc *v = x->variants[iv];
	int paged = 0;
	for (size_t i = 0; i < v->nbuffers; i++)
		paged = paged || !strcmp(v->buffers[i].name, "block_table");
	if (x->kv_layout >= 0 && x->kv_layout != (paged ? KV_PAGED : KV_CONTIGUOUS))
		return error("%s: variant '%s' reads a %s KV cache, not the block's kv_layout %s",
			     where(c, x->vnodes[iv], w, sizeof(w)), v->name, kv_layout_names[paged],
			     kv_layout_names[x->kv_layout]);
	if (paged && !x->page_size)
		return error("%s: variant '%s' reads a paged KV cache: give page_size", where(c, x->vnodes[iv], w, sizeof(w)),
			     v->name);
	if (!paged && x->kv_dist != KV_DIST_EQUAL)
		return error("%s: a ragged batch (kv_dist %s) runs on the paged kernel only, not on '%s'",
			     where(c, x->distn, w, sizeof(w)), kv_dist_names[x->kv_dist], v->name);
	if (paged && sh->seqlen_kv < sh->seqlen_q)
		return error("%s: kv_len %d is shorter than query_len %d (the queries are the cache's last tokens)",
			     where(c, x->at, w, sizeof(w)), sh->seqlen_kv, sh->seqlen_q);
	sh->kv_layout = paged ? KV_PAGED : KV_CONTIGUOUS;
	sh->page_size = paged ? x->page_size : 0;
	sh->kv_dist = x->kv_dist;
	sh->kv_seed = x->kv_seed;
	return 0;
}

/* The configs of a block's axes, variant innermost: every variant of one
 * shape runs on the same inputs. */
static int emit_configs(struct ctx *c, const struct axes *x)
{
	char w[256];
	const int line = x->at->line;
	for (size_t ip = 0; ip < x->np; ip++)
	for (size_t it = 0; it < x->nd; it++)
	for (size_t id = 0; id < x->ndims; id++)
	for (size_t ic = 0; ic < x->nc; ic++)
	for (size_t ib = 0; ib < x->nb; ib++)
	for (size_t ih = 0; ih < x->nh; ih++)
	for (size_t ik = 0; ik < (x->nkv ? x->nkv : 1); ik++)
	for (size_t iq = 0; iq < x->nq; iq++)
	for (size_t il = 0; il < x->nlens; il++)
	for (size_t is = 0; is < x->ns; is++)
	for (size_t iv = 0; iv < x->nv; iv++) {
		struct config cfg = { .variant = x->variants[iv], .line = line };
		struct attn_shape *sh = &cfg.shape;
		sh->pass = x->passes[is];
		sh->dtype = x->dtypes[it];
		sh->phase = x->phases[ip];
		sh->head_dim = (int)x->dims[id];
		sh->causal = x->causals[ic];
		sh->seqlen_kv = (int)x->lens[il];
		sh->seqlen_q = x->decode ? (int)x->qlens[iq] : (int)x->lens[il];
		if (x->batch_tokens) {
			const long long tok_per_seq = x->lens[il]; /* seqlen, or kv_len in a decode sweep */
			if (x->batch_tokens % tok_per_seq)
				return error("%s: batch_tokens %lld is not a multiple of %s %lld: the batch would not be whole",
					     where(c, x->tn, w, sizeof(w)), x->batch_tokens, x->decode ? "kv_len" : "seqlen", tok_per_seq);
			sh->batch = (int)(x->batch_tokens / tok_per_seq);
			if (sh->batch > MAX_BATCH)
				return error("%s: batch_tokens %lld / seqlen %lld gives batch %d, more than %d",
					     where(c, x->tn, w, sizeof(w)), x->batch_tokens, tok_per_seq, sh->batch, MAX_BATCH);
		} else {
			sh->batch = (int)x->batches[ib];
		}
		if (x->hidden) {
			if (x->hidden % x->dims[id])
				return error("%s: hidden %lld is not a multiple of head_dim %lld",
					     where(c, x->hid, w, sizeof(w)), x->hidden, x->dims[id]);
			sh->heads = (int)(x->hidden / x->dims[id]);
			if (sh->heads > MAX_HEADS)
				return error("%s: hidden %lld / head_dim %lld gives %d heads, more than %d",
					     where(c, x->hid, w, sizeof(w)), x->hidden, x->dims[id], sh->heads, MAX_HEADS);
		} else {
			sh->heads = (int)x->heads[ih];
		}
		sh->kv_heads = kv_heads_or_heads(x->nkv ? (int)x->kvh[ik] : 0, sh->heads);
		if (x->decode && set_kv_cache(c, x, iv, sh))
			return -1;
		if (sh->heads % sh->kv_heads)
			return error("%s: kv_heads %d does not divide heads %d (grouped-query attention needs whole groups)",
				     where(c, x->kvn, w, sizeof(w)), sh->kv_heads, sh->heads);
		if (!(cfg.variant->phases & (1u << sh->phase))) {
			for (size_t k = 0; k < x->nv; k++)
				if (x->variants[k] == cfg.variant)
					return error("%s: variant '%s' does not run in the %s phase",
						     where(c, x->vnodes[k], w, sizeof(w)), cfg.variant->name, phase_name(sh->phase));
		}
		if (!variant_supports_pass(cfg.variant, sh->pass) || (sh->pass != PASS_FWD && sh->phase != PHASE_PREFILL)) {
			if (sh->phase != PHASE_PREFILL)
				return error("%s: pass %s is for prefill sweeps: decode runs the forward only",
					     where(c, x->snodes[is], w, sizeof(w)), pass_name(sh->pass));
			for (size_t k = 0; k < x->nv; k++)
				if (x->variants[k] == cfg.variant)
					return error("%s: variant '%s' has no %s kernels (the backward exists for flash2, "
						     "standard and the Hopper rungs): put it in a sweep block with 'pass: fwd'",
						     where(c, x->vnodes[k], w, sizeof(w)), cfg.variant->name, pass_name(sh->pass));
		}
		/* the backward's kernels take the head dims of their own descriptor (the Hopper backward: 64 and 128) */
		const struct variant_desc *bd = sh->pass != PASS_FWD ? variant_pass_desc(cfg.variant, sh->pass) : NULL;
		if (bd && bd != cfg.variant && !variant_supports_head_dim(bd, sh->head_dim)) {
			char dims[64];
			return error("%s: unsupported head_dim %d for pass %s: %s's backward (%s) is built for %s",
				     where(c, x->snodes[is], w, sizeof(w)), sh->head_dim, pass_name(sh->pass), cfg.variant->name,
				     bd->name, variant_head_dims_text(bd, dims, sizeof(dims)));
		}
		/* Absurd sizes: more than a petabyte predicted is a typo, not a plan. */
		double fp = (double)variant_footprint(cfg.variant, sh, H200_SM_COUNT);
		if (fp > 1e15) {
			char b[32];
			return error("%s: %s at B=%d H=%d N=%d d=%d would need %s of device memory: check the sizes",
				     where(c, x->at, w, sizeof(w)), cfg.variant->name, sh->batch, sh->heads,
				     sh->seqlen_kv, sh->head_dim, format_bytes(fp, b, sizeof(b)));
		}
		if (push_config(c, &cfg))
			return -1;
	}
	return 0;
}


static int expand_block(struct ctx *c, const struct ynode *root, const struct ynode *block)
{
	static struct axes x; /* large: not on the stack */
	return read_axes(c, root, block, &x) || emit_configs(c, &x) ? -1 : 0;
}

int spec_parse(struct spec *s, const char *text, size_t len, const char *filename)
{
	struct ytree t;
	struct ctx c = { &t, s };
	char w[256];
	int rc = -1;
	const struct ynode *n;

	if (!s->path && !(s->path = strdup(filename)))
		return error("out of memory");
	if (ytree_parse(&t, text, len, filename, &ytree_spec_limits, 0))
		return error("%s", t.problem);
	const struct ynode *root = t.root;
	if (!root || root->kind != Y_MAP) {
		error("%s: a spec is a YAML mapping (name:, variants:, seqlen:, ...); see experiments/smoke.yaml",
		      filename);
		goto out;
	}
	if (check_keys(&c, root, top_keys, NTOP, "the spec"))
		goto out;
	if (!(s->text = strndup(text, len)))
		goto oom;

	if (!(n = ynode_get(root, "name"))) {
		error("%s: the spec has no name: add 'name: my-experiment'", filename);
		goto out;
	}
	const char *str;
	if (ynode_string(&t, n, "name", &str) || set_string(&s->name, str))
		goto out;
	if (!str[0]) {
		error("%s: the name is empty: give one, e.g. 'name: my-experiment' (it names files)", where(&c, n, w, sizeof(w)));
		goto out;
	}
	for (const char *p = str; *p; p++)
		if (!(*p == '-' || *p == '_' || *p == '.' || (*p >= 'a' && *p <= 'z') ||
		      (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9'))) {
			error("%s: name '%s' may hold only letters, digits, '-', '_' and '.' (it names files)",
			      where(&c, n, w, sizeof(w)), str);
			goto out;
		}
	if ((n = ynode_get(root, "description")) &&
	    (ynode_string(&t, n, "description", &str) || set_string(&s->description, str)))
		goto out;

	long long v;
	if ((n = ynode_get(root, "repetitions"))) {
		if (ynode_int(&t, n, "repetitions", &v))
			goto out;
		if (v < 1 || v > 100000) {
			error("%s: repetitions %lld is out of range (1 to 100000; 20 or more for stable medians)",
			      where(&c, n, w, sizeof(w)), v);
			goto out;
		}
		s->repetitions = (int)v;
	}
	if ((n = ynode_get(root, "warmup"))) {
		if (ynode_int(&t, n, "warmup", &v))
			goto out;
		if (v < 0 || v > 10000) {
			error("%s: warmup %lld is out of range (0 to 10000)", where(&c, n, w, sizeof(w)), v);
			goto out;
		}
		s->warmup = (int)v;
	}
	if ((n = ynode_get(root, "seed"))) {
		if (ynode_int(&t, n, "seed", &v))
			goto out;
		if (v < 0) {
			error("%s: seed must not be negative", where(&c, n, w, sizeof(w)));
			goto out;
		}
		s->seed = (uint64_t)v;
	}
	if ((n = ynode_get(root, "check_rows"))) {
		if (ynode_int(&t, n, "check_rows", &v))
			goto out;
		if (v < 0 || v > MAX_SEQLEN) {
			error("%s: check_rows %lld is out of range (0 = all rows)", where(&c, n, w, sizeof(w)), v);
			goto out;
		}
		s->check_rows = (int)v;
	}
	if ((n = ynode_get(root, "tolerances")) && parse_tolerances(&c, n))
		goto out;
	if ((n = ynode_get(root, "max_device_memory")) &&
	    parse_size(&c, n, "max_device_memory", &s->max_device_bytes))
		goto out;
	if (parse_metrics(&c, root))
		goto out;
	if ((n = ynode_get(root, "replay"))) {
		if (ynode_string(&t, n, "replay", &str))
			goto out;
		if (replay_mode_parse(str, &s->replay)) {
			error("%s: replay must be auto, kernel or user, not '%s' (docs/spec-format.md)",
			      where(&c, n, w, sizeof(w)), str);
			goto out;
		}
	}

	const struct ynode *sweeps = ynode_get(root, "sweeps");
	if (sweeps) {
		if (sweeps->kind != Y_SEQ || sweeps->n == 0) {
			error("%s: sweeps must be a list of blocks (each a mapping of sweep keys)",
			      where(&c, sweeps, w, sizeof(w)));
			goto out;
		}
		for (size_t i = 0; i < sweeps->n; i++) {
			const struct ynode *b = sweeps->items[i];
			if (b->kind != Y_MAP) {
				error("%s: each sweep block must be a mapping (variants:, seqlen:, ...)",
				      where(&c, b, w, sizeof(w)));
				goto out;
			}
			if (check_keys(&c, b, sweep_keys, NSWEEP, "a sweep block") || expand_block(&c, root, b))
				goto out;
		}
	} else if (expand_block(&c, root, NULL)) {
		goto out;
	}
	if (s->replay == REPLAY_USER && spec_check_replay(s, where(&c, ynode_get(root, "replay"), w, sizeof(w))))
		goto out;
	rc = 0;
	goto out;
oom:
	error("out of memory");
out:
	ytree_release(&t);
	return rc;
}

static const char *const replay_names[] = { "auto", "kernel", "user" };

const char *replay_mode_name(enum replay_mode m)
{
	return (unsigned)m < 3 ? replay_names[m] : "?";
}

int replay_mode_parse(const char *word, enum replay_mode *out)
{
	for (int i = 0; i < 3; i++)
		if (word && !strcmp(word, replay_names[i])) {
			*out = (enum replay_mode)i;
			return 0;
		}
	return -1;
}

/* The spec's first metric that user replay cannot count, or NULL. */
static const char *user_replay_blind(const struct spec *s)
{
	for (size_t i = 0; i < s->nmetrics; i++)
		if (metric_needs_kernel_replay(s->metrics[i]))
			return s->metrics[i];
	return NULL;
}

int replay_is_kernel(const struct spec *s, const struct variant_desc *v)
{
	if (s->replay == REPLAY_KERNEL)
		return 1;
	if (s->replay == REPLAY_USER)
		return 0;
	return (v && v->writes_inputs) || user_replay_blind(s);
}

int spec_check_replay(const struct spec *s, const char *what)
{
	if (s->replay != REPLAY_USER)
		return 0;
	for (size_t i = 0; i < s->nconfigs; i++) {
		const struct variant_desc *v = s->configs[i].variant;
		if (v && v->writes_inputs)
			return error("%s: user replay cannot profile %s: its kernels write their inputs, so each pass "
				     "would see different ones; use replay: kernel, or auto (kernel replay for it only)",
				     what, v->name);
	}
	const char *m = user_replay_blind(s);
	if (m)
		return error("%s: user replay reads SASS instruction metrics such as '%s' (metric set '%s') as 0; "
			     "use replay: kernel, or auto (kernel replay for such a set)", what, m, s->metric_set);
	return 0;
}

int spec_load(struct spec *s, const char *path)
{
	char *buf;
	size_t len;
	if (read_whole_file(path, ytree_spec_limits.max_bytes, "spec", &buf, &len))
		return -1;
	free(s->path);
	if (!(s->path = strdup(path))) {
		free(buf);
		return error("out of memory");
	}
	int rc = spec_parse(s, buf, len, path);
	free(buf);
	return rc;
}

uint64_t spec_peak_memory(const struct spec *s, int sm_count)
{
	uint64_t peak = 0;
	for (size_t i = 0; i < s->nconfigs; i++) {
		uint64_t b = variant_footprint(s->configs[i].variant, &s->configs[i].shape, sm_count);
		if (b > peak)
			peak = b;
	}
	return peak;
}

int spec_check_memory(const struct spec *s, uint64_t limit, int sm_count)
{
	char a[32], b[32];
	if (s->max_device_bytes && s->max_device_bytes < limit)
		limit = s->max_device_bytes;
	for (size_t i = 0; i < s->nconfigs; i++) {
		const struct config *c = &s->configs[i];
		uint64_t need = variant_footprint(c->variant, &c->shape, sm_count);
		if (need > limit)
			return error("%s:%d: %s at B=%d H=%d N=%d d=%d needs %s of device memory, more than the %s available: "
				     "lower batch or seqlen, or drop the variant for this size",
				     s->path, c->line, c->variant->name, c->shape.batch, c->shape.heads,
				     c->shape.seqlen_kv, c->shape.head_dim,
				     format_bytes((double)need, a, sizeof(a)), format_bytes((double)limit, b, sizeof(b)));
	}
	return 0;
}

int config_to_record(const struct config *c, const char *source, struct record *rec)
{
	rec->source = strdup(source);
	rec->variant = strdup(c->variant->name);
	if (!rec->source || !rec->variant)
		return error("out of memory");
	rec->shape = c->shape;
	/* a forward's record names no pass, as before the backward existed */
	rec->pass_given = c->shape.pass != PASS_FWD;
	return 0;
}
