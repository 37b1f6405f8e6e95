/* range_name.c: parse and format attention range names (range_name.h). */
#include "capture/range_name.h"
#include "variants.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/yamltree.h"

/* Largest dimension a range may give: the bounds of a spec's (int, and a
 * product of any two fits in 64 bits). */
#define DIM_MAX 2147483647L

int range_is_attention(const char *name)
{
	return name && !strncmp(name, RANGE_PREFIX, strlen(RANGE_PREFIX));
}

int range_find_embedded(const char *title, char *buf, size_t len)
{
	if (!title || !len || range_is_attention(title))
		return 0;
	const char *at = strstr(title, RANGE_PREFIX);
	if (!at)
		return 0;
	size_t n = strcspn(at, "/)#,");
	if (n >= len)
		n = len - 1;
	memcpy(buf, at, n);
	while (n > 0 && buf[n - 1] == ' ')
		n--;
	buf[n] = '\0';
	/* "transpose(" before the tag, in the same name stack: the backward */
	int bwd = 0;
	for (const char *t = strstr(title, "transpose("); t && t < at; t = strstr(t + 1, "transpose("))
		bwd = 1;
	if (bwd && !strstr(buf, " pass=")) {
		size_t m = strlen(buf);
		snprintf(buf + m, len - m, " pass=bwd");
	}
	return 1;
}

int range_thunk_unnamed(const char *title)
{
	static const char thunk[] = "Thunk:#";
	if (!title || strncmp(title, thunk, sizeof thunk - 1))
		return 0;
	if (strstr(title, "hlo_op=command_buffer")) /* a graph of other thunks, recorded or replayed */
		return 0;
	for (const char *f = title + sizeof thunk - 1; *f && *f != '#'; f += strcspn(f, ",#"), f += *f == ',') {
		if (strncmp(f, "name=", 5))
			continue;
		const size_t n = strcspn(f + 5, ",#");
		return !memchr(f + 5, '/', n);
	}
	return 1;
}

int range_check_skipped(const char *mark, char *buf, size_t len)
{
	if (!mark || !buf || len == 0)
		return 0;
	for (const char *f = mark; (f = strstr(f, "skipped=")) != NULL; f += 8) {
		if (f != mark && f[-1] != ' ')
			continue;
		const char *v = f + 8;
		size_t n = 0;
		while (isalnum((unsigned char)v[n]) || v[n] == '-' || v[n] == '_')
			n++;
		if (n == 0 || n >= len || (v[n] && v[n] != ' '))
			return 0;
		memcpy(buf, v, n);
		buf[n] = '\0';
		return 1;
	}
	return 0;
}

static int word_ok(const char *v, size_t n, size_t max)
{
	if (n == 0 || n >= max)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)v[i]) && !strchr("_.:+-", v[i]))
			return 0;
	return 1;
}

static int parse_long(const char *v, size_t n, long lo, long hi, long *out)
{
	char buf[24];
	if (n == 0 || n >= sizeof buf)
		return -1;
	memcpy(buf, v, n);
	buf[n] = '\0';
	for (size_t i = 0; i < n; i++)
		if (!isdigit((unsigned char)buf[i]))
			return -1;
	errno = 0;
	long x = strtol(buf, NULL, 10);
	if (errno || x < lo || x > hi)
		return -1;
	*out = x;
	return 0;
}

/* The index of v[0..n) among names[0..count), or -1. */
static int word_index(const char *v, size_t n, const char *const *names, int count)
{
	for (int i = 0; i < count; i++)
		if (strlen(names[i]) == n && !strncmp(names[i], v, n))
			return i;
	return -1;
}

static const char *const keys[] = { "impl", "B", "H", "Hkv", "Nq", "Nkv", "d", "causal", "dtype",
				    "pass", "call", "origin", "density", "mask" };
enum { K_IMPL, K_B, K_H, K_HKV, K_NQ, K_NKV, K_D, K_CAUSAL, K_DTYPE, K_PASS, K_CALL, K_ORIGIN, K_DENSITY, K_MASK,
       K_COUNT };

/* What a mask tensor was read as (range_name.h) */
static const char *const mask_kinds[] = { "additive-causal", "additive-none", "additive", "bool-causal", "bool-none",
					  "bool" };

int range_parse(const char *name, struct call_id *id, char *problem, size_t len)
{
	memset(id, 0, sizeof *id);
	id->call = -1;
	id->shape.dtype = DTYPE_UNKNOWN;
	id->shape.pass = PASS_FWD;
	if (problem && len)
		problem[0] = '\0';
	if (!range_is_attention(name))
		return -1;
	char why[160] = "";
	unsigned seen = 0;
	const char *p = name + strlen(RANGE_PREFIX);
	while (*p && !why[0]) {
		while (*p == ' ')
			p++;
		if (!*p)
			break;
		const char *tok = p;
		while (*p && *p != ' ')
			p++;
		size_t tlen = (size_t)(p - tok);
		const char *eq = memchr(tok, '=', tlen);
		if (!eq) {
			snprintf(why, sizeof why, "'%.*s' is not KEY=VALUE", (int)(tlen > 40 ? 40 : tlen), tok);
			break;
		}
		size_t klen = (size_t)(eq - tok), vlen = tlen - klen - 1;
		const char *v = eq + 1;
		int k = word_index(tok, klen, keys, K_COUNT);
		if (k < 0) {
			char kb[32];
			snprintf(kb, sizeof kb, "%.*s", (int)(klen > 31 ? 31 : klen), tok);
			const char *near = nearest_word(kb, keys, K_COUNT);
			snprintf(why, sizeof why, "unknown key '%s'%s%s%s", kb, near ? " (did you mean '" : "",
				 near ? near : "", near ? "'?)" : "");
			break;
		}
		if (seen & (1u << k)) {
			snprintf(why, sizeof why, "key '%s' given twice", keys[k]);
			break;
		}
		seen |= 1u << k;
		long x = 0;
		int *dim = NULL, w;
		struct attn_shape *sh = &id->shape;
		switch (k) {
		case K_IMPL:
		case K_ORIGIN: {
			char *dst = k == K_IMPL ? id->impl : id->origin;
			if (!word_ok(v, vlen, sizeof id->impl))
				snprintf(why, sizeof why, "%s must be 1 to 63 letters, digits or _.:+-", keys[k]);
			else {
				memcpy(dst, v, vlen);
				dst[vlen] = '\0';
			}
			break;
		}
		case K_B: dim = &sh->batch; break;
		case K_H: dim = &sh->heads; break;
		case K_HKV: dim = &sh->kv_heads; break;
		case K_NQ: dim = &sh->seqlen_q; break;
		case K_NKV: dim = &sh->seqlen_kv; break;
		case K_D: dim = &sh->head_dim; break;
		case K_CAUSAL:
			if (parse_long(v, vlen, 0, 1, &x))
				snprintf(why, sizeof why, "causal must be 0 or 1");
			sh->causal = (int)x;
			break;
		/* the names of the enums' tables, not dtype_parse's aliases: a range
		 * names the dtypes before DTYPE_UNKNOWN and the passes before fwd+bwd */
		case K_DTYPE:
			if ((w = word_index(v, vlen, dtype_names, DTYPE_UNKNOWN)) < 0)
				snprintf(why, sizeof why, "dtype must be fp16, bf16 or fp32");
			else
				sh->dtype = (enum dtype)w;
			break;
		case K_PASS:
			if ((w = word_index(v, vlen, pass_names, PASS_FWDBWD)) < 0)
				snprintf(why, sizeof why, "pass must be fwd or bwd");
			else
				sh->pass = (enum pass)w;
			break;
		case K_DENSITY: {
			char num[32];
			char *end = NULL;
			snprintf(num, sizeof num, "%.*s", (int)(vlen > 31 ? 31 : vlen), v);
			double dv = vlen && vlen < 32 ? strtod(num, &end) : NAN;
			if (!end || *end || !(dv > 0 && dv <= 1))
				snprintf(why, sizeof why, "density must be a fraction in (0, 1]");
			else
				id->density = dv;
			break;
		}
		case K_MASK:
			if ((w = word_index(v, vlen, mask_kinds, (int)(sizeof mask_kinds / sizeof mask_kinds[0]))) < 0)
				snprintf(why, sizeof why, "mask must be additive-causal, additive-none, additive, bool-causal, "
					 "bool-none or bool");
			else
				snprintf(id->mask, sizeof id->mask, "%s", mask_kinds[w]);
			break;
		case K_CALL:
			if (parse_long(v, vlen, 0, DIM_MAX, &x))
				snprintf(why, sizeof why, "call must be a number from 0");
			else
				id->call = x;
			break;
		}
		if (dim) {
			if (parse_long(v, vlen, 1, DIM_MAX, &x))
				snprintf(why, sizeof why, "%s must be a whole number from 1 to %ld", keys[k], DIM_MAX);
			else
				*dim = (int)x;
		}
	}
	/* a mask read as the causal pattern makes the call causal */
	if (!why[0] && strstr(id->mask, "-causal")) {
		if ((seen & (1u << K_CAUSAL)) && !id->shape.causal)
			snprintf(why, sizeof why, "mask=%s says causal, causal=0 says not", id->mask);
		id->shape.causal = 1;
	}
	struct attn_shape *sh = &id->shape;
	if (!why[0] && !(seen & (1u << K_IMPL)))
		snprintf(why, sizeof why, "no impl=NAME");
	if (!why[0])
		sh->kv_heads = kv_heads_or_heads(sh->kv_heads, sh->heads);
	if (!why[0] && sh->heads && sh->kv_heads && sh->heads % sh->kv_heads)
		snprintf(why, sizeof why, "Hkv=%d does not divide H=%d", sh->kv_heads, sh->heads);
	int all = sh->batch && sh->heads && sh->seqlen_q && sh->seqlen_kv && sh->head_dim;
	int some = sh->batch || sh->heads || sh->seqlen_q || sh->seqlen_kv || sh->head_dim;
	if (!why[0] && some && !all)
		snprintf(why, sizeof why, "a shape needs all of B, H, Nq, Nkv and d");
	id->shape_known = !why[0] && all;
	sh->phase = call_phase(id);
	if (!id->impl[0])
		snprintf(id->impl, sizeof id->impl, "unknown");
	if (why[0]) {
		if (problem && len)
			snprintf(problem, len, "%s", why);
		return 1;
	}
	return 0;
}

const char *range_format(const struct call_id *id, char *buf, size_t len)
{
	const struct attn_shape *sh = &id->shape;
	int n = snprintf(buf, len, RANGE_PREFIX " impl=%s", id->impl);
	if (id->shape_known && n >= 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, " B=%d H=%d Hkv=%d Nq=%d Nkv=%d d=%d", sh->batch,
			      sh->heads, sh->kv_heads, sh->seqlen_q, sh->seqlen_kv, sh->head_dim);
	if (n >= 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, " causal=%d", sh->causal);
	if (sh->dtype != DTYPE_UNKNOWN && n >= 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, " dtype=%s", dtype_name(sh->dtype));
	if (n >= 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, " pass=%s", pass_name(sh->pass));
	if (id->density > 0 && id->density < 1 && n >= 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, " density=%.6f", id->density);
	if (id->mask[0] && n >= 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, " mask=%s", id->mask);
	if (id->call >= 0 && n >= 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, " call=%ld", id->call);
	if (id->origin[0] && n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, " origin=%s", id->origin);
	return buf;
}

enum phase call_phase(const struct call_id *id)
{
	if (!id->shape_known)
		return PHASE_UNKNOWN;
	return id->shape.seqlen_q <= 16 && id->shape.seqlen_q < id->shape.seqlen_kv ? PHASE_DECODE : PHASE_PREFILL;
}

void call_shape(const struct call_id *id, struct attn_shape *s)
{
	*s = id->shape;
	s->phase = call_phase(id);
	if (!id->shape_known)
		s->batch = s->heads = s->kv_heads = s->seqlen_q = s->seqlen_kv = s->head_dim = 0;
}
