/* cmd_diff.c: 'attnprof diff BASE.yaml NEW.yaml' — did this build get
 * slower, and where?  Per identity (record_key) in both files: the median
 * time base -> new, the ratio, and whether the change exceeds both
 * records' run-to-run spread (time_ms_max - time_ms_min of each); a
 * summary of regressions and improvements; the identities only one file
 * has.  --fail-above PCT makes it a CI gate. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "export.h"
#include "results.h"
#include "util/error.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: attnprof diff BASE.yaml NEW.yaml [--csv | --json] [--fail-above PCT] [--metric NAME]...\n"
		"\n"
		"Compare two results files config by config (the identity: source, variant,\n"
		"phase, pass, dtype, B, H, Hkv, Nq, Nkv, d, causal).  For each config in\n"
		"both: the median time base -> new, the ratio new / base, and whether the\n"
		"change exceeds both records' run-to-run spread (the width time_ms_max -\n"
		"time_ms_min of each record's timed launches): only such a change counts as\n"
		"a regression or an improvement.  Then a summary line, and the configs only\n"
		"one file has.\n"
		"\n"
		"      --csv            one row per config (the configs only one file has too)\n"
		"      --json           the same as one JSON object\n"
		"      --fail-above PCT exit 1 when a regression beyond the spread is slower than\n"
		"                       base by more than PCT percent, or a config base timed\n"
		"                       fails in new (for CI); it fails closed: also exit 1 when\n"
		"                       a compared time is missing, not finite or not positive,\n"
		"                       a spread is unknown, either file is cut short, or the\n"
		"                       files have no config in common\n"
		"      --allow-missing  with --fail-above: those gaps in the evidence are said\n"
		"                       (warnings) but do not fail the gate\n"
		"      --metric NAME    also a counter base -> new and its ratio (a CUPTI name as in\n"
		"                       the records' totals, e.g. dram__bytes_read.sum; up to 16)\n"
		"\n"
		"exit status: 0 compared (and no regression above --fail-above); 1 a regression\n"
		"above --fail-above, or a config failing in new; 2 bad usage or an unreadable\n"
		"results file.\n");
}

#define DIFF_MAX_METRICS 16
static const char *metric_names[DIFF_MAX_METRICS];
static size_t nmetric_names;

/* a counter of a record, NaN where it has none */
static double metric_of(const struct record *r, const char *name)
{
	const double *v = r ? record_metric(r, name) : NULL;
	return v ? *v : NAN;
}

enum verdict { V_WITHIN, V_REGRESSION, V_IMPROVEMENT, V_NO_SPREAD, V_NO_TIME, V_ONLY_BASE, V_ONLY_NEW };
static const char *const verdict_names[] = { "within spread", "regression", "improvement", "spread unknown",
					     "no time", "only in base", "only in new" };
static const char *const verdict_words[] = { "within", "regression", "improvement", "no-spread",
					     "no-time", "only-base", "only-new" };

struct row {
	const struct record *b, *n;
	char key[256];
	double ratio, change_pct;
	enum verdict v;
};

struct keyed {
	char key[256];
	size_t i;
};

static int by_key(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;
	int c = strcmp(x->key, y->key);
	return c ? c : x->i < y->i ? -1 : x->i > y->i;
}

/*
 * The identity diff compares by: record_key, except for a call captured in
 * a program, whose key holds its process id and call index, which no
 * other run of the program repeats.  A captured call is matched by
 * (implementation, kernel family, shape, its place among the file's calls
 * of that implementation, family and shape): "…/d128/c0/flash-attn-2/#2"
 * is the second such call.  k[i] is record i's (unsorted); *captured
 * counts the calls keyed so.
 */
static void diff_keys(const struct results *r, struct keyed *k, size_t *captured)
{
	size_t nc = 0;
	for (size_t i = 0; i < r->nrecords; i++) {
		const struct record *rec = &r->records[i];
		k[i].i = i;
		if (!rec->capture) {
			record_key(rec, k[i].key, sizeof(k[i].key));
			continue;
		}
		struct record plain = *rec;
		plain.capture = NULL; /* the key without pid and call */
		char base[sizeof(k[i].key) - 40];
		record_key(&plain, base, sizeof(base));
		snprintf(k[i].key, sizeof(k[i].key), "%s/%.24s", base, rec->capture->family ? rec->capture->family : "?");
		nc++;
	}
	*captured += nc;
	if (!nc)
		return;
	/* each captured call's place among its kind's: sorted by (key, record), counted */
	struct keyed *c = malloc(nc * sizeof(*c));
	if (!c) { /* every call then its kind's first: they still compare, one each */
		for (size_t i = 0; i < r->nrecords; i++)
			if (r->records[i].capture)
				strncat(k[i].key, "/#1", sizeof(k[i].key) - strlen(k[i].key) - 1);
		return;
	}
	nc = 0;
	for (size_t i = 0; i < r->nrecords; i++)
		if (r->records[i].capture)
			c[nc++] = k[i];
	qsort(c, nc, sizeof(*c), by_key);
	size_t nth = 0;
	for (size_t m = 0; m < nc; m++) {
		nth = m && !strcmp(c[m].key, c[m - 1].key) ? nth + 1 : 1;
		char *key = k[c[m].i].key;
		size_t l = strlen(key);
		snprintf(key + l, sizeof(k[0].key) - l, "/#%zu", nth);
	}
	free(c);
}

/* the records' keys by record (keys) and sorted (the first of a key is the one a reader takes) */
static struct keyed *index_of(const struct results *r, struct keyed **keys, size_t *captured)
{
	size_t n = r->nrecords ? r->nrecords : 1;
	struct keyed *k = malloc(n * sizeof(*k));
	*keys = malloc(n * sizeof(**keys));
	if (!k || !*keys) {
		free(k);
		return NULL;
	}
	diff_keys(r, *keys, captured);
	memcpy(k, *keys, r->nrecords * sizeof(*k));
	qsort(k, r->nrecords, sizeof(*k), by_key);
	return k;
}

static const struct keyed *find(const struct keyed *k, size_t n, const char *key)
{
	size_t lo = 0, hi = n;
	while (lo < hi) { /* the first of the key */
		size_t mid = (lo + hi) / 2;
		if (strcmp(k[mid].key, key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && !strcmp(k[lo].key, key) ? &k[lo] : NULL;
}

static int timed(const struct record *r)
{
	return !r->error && isfinite(r->time_ms) && r->time_ms > 0;
}

static void compare(struct row *w)
{
	if (!timed(w->b) || !timed(w->n)) {
		w->v = V_NO_TIME;
		w->ratio = w->change_pct = NAN;
		return;
	}
	w->ratio = w->n->time_ms / w->b->time_ms;
	w->change_pct = 100 * (w->ratio - 1);
	int d = record_times_differ(w->b, w->n);
	w->v = d == 2 ? V_NO_SPREAD : d > 0 ? V_REGRESSION : d < 0 ? V_IMPROVEMENT : V_WITHIN;
}

/* ---- output ----------------------------------------------------------- */

static void csv_str(const char *s)
{
	if (s)
		csv_string(stdout, s); /* export's guard: formulas stay text */
}

/* the shortest form that reads back as v */
static void print_num(double v)
{
	char buf[40];
	for (int p = 6; p <= 17; p++) {
		snprintf(buf, sizeof(buf), "%.*g", p, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	fputs(buf, stdout);
}

static void csv_num(double v)
{
	putchar(',');
	if (isfinite(v))
		print_num(v);
}

static void json_str(const char *s)
{
	if (!s) {
		fputs("null", stdout);
		return;
	}
	putchar('"');
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		if (ch == '"' || ch == '\\')
			printf("\\%c", ch);
		else if (ch < 0x20)
			printf("\\u%04x", ch);
		else
			putchar(ch);
	}
	putchar('"');
}

static void json_num(double v)
{
	if (isfinite(v))
		print_num(v);
	else
		fputs("null", stdout);
}

static const struct record *one_of(const struct row *w) { return w->b ? w->b : w->n; }

static void print_csv(const struct row *rows, size_t n)
{
	printf("identity,source,variant,phase,pass,dtype,batch,heads,kv_heads,seqlen_q,seqlen_kv,head_dim,causal,"
	       "base_ms,base_min_ms,base_max_ms,new_ms,new_min_ms,new_max_ms,ratio,change_pct,beyond_spread,verdict");
	for (size_t m = 0; m < nmetric_names; m++)
		printf(",%s.base,%s.new,%s.ratio", metric_names[m], metric_names[m], metric_names[m]);
	putchar('\n');
	for (size_t i = 0; i < n; i++) {
		const struct row *w = &rows[i];
		const struct record *r = one_of(w);
		csv_str(w->key);
		putchar(',');
		csv_str(r->source);
		putchar(',');
		csv_str(r->variant);
		putchar(',');
		csv_str(phase_name(r->shape.phase));
		printf(",%s,", record_pass(r));
		csv_str(dtype_name(r->shape.dtype));
		printf(",%d,%d,%d,%d,%d,%d,%s", r->shape.batch, r->shape.heads, r->shape.kv_heads, r->shape.seqlen_q,
		       r->shape.seqlen_kv, r->shape.head_dim, r->shape.causal ? "true" : "false");
		for (int s = 0; s < 2; s++) {
			const struct record *x = s ? w->n : w->b;
			csv_num(x ? x->time_ms : NAN);
			csv_num(x ? x->time_ms_min : NAN);
			csv_num(x ? x->time_ms_max : NAN);
		}
		csv_num(w->ratio);
		csv_num(w->change_pct);
		printf(",%s,%s", w->v == V_REGRESSION || w->v == V_IMPROVEMENT ? "true" : "false", verdict_words[w->v]);
		for (size_t m = 0; m < nmetric_names; m++) {
			double a = metric_of(w->b, metric_names[m]), b = metric_of(w->n, metric_names[m]);
			csv_num(a);
			csv_num(b);
			csv_num(a != 0 ? b / a : NAN);
		}
		putchar('\n');
	}
}

static void json_side(const char *name, const struct record *x)
{
	printf(", \"%s\": ", name);
	if (!x) {
		fputs("null", stdout);
		return;
	}
	fputs("{\"time_ms\": ", stdout);
	json_num(x->time_ms);
	fputs(", \"time_ms_min\": ", stdout);
	json_num(x->time_ms_min);
	fputs(", \"time_ms_max\": ", stdout);
	json_num(x->time_ms_max);
	fputs(", \"error\": ", stdout);
	json_str(x->error);
	putchar('}');
}

struct summary {
	size_t both, regress, improve, within, nospread, notime, only_base, only_new;
	size_t broke;              /* timed in base, failed in new */
	const struct row *worst;   /* the largest regression beyond the spread */
	const struct row *best;    /* the largest improvement beyond the spread */
};

static void print_json(const char *base, const char *newp, const struct row *rows, size_t n,
		       const struct summary *s)
{
	fputs("{\"base\": ", stdout);
	json_str(base);
	fputs(", \"new\": ", stdout);
	json_str(newp);
	fputs(", \"rows\": [", stdout);
	for (size_t i = 0; i < n; i++) {
		const struct row *w = &rows[i];
		const struct record *r = one_of(w);
		fputs(i ? ",\n  {" : "\n  {", stdout);
		fputs("\"identity\": ", stdout);
		json_str(w->key);
		fputs(", \"source\": ", stdout);
		json_str(r->source);
		fputs(", \"variant\": ", stdout);
		json_str(r->variant);
		fputs(", \"phase\": ", stdout);
		json_str(phase_name(r->shape.phase));
		printf(", \"pass\": \"%s\", \"dtype\": ", record_pass(r));
		json_str(dtype_name(r->shape.dtype));
		printf(", \"batch\": %d, \"heads\": %d, \"kv_heads\": %d, \"seqlen_q\": %d, \"seqlen_kv\": %d, "
		       "\"head_dim\": %d, \"causal\": %s", r->shape.batch, r->shape.heads, r->shape.kv_heads,
		       r->shape.seqlen_q, r->shape.seqlen_kv, r->shape.head_dim, r->shape.causal ? "true" : "false");
		json_side("base", w->b);
		json_side("new", w->n);
		fputs(", \"ratio\": ", stdout);
		json_num(w->ratio);
		fputs(", \"change_pct\": ", stdout);
		json_num(w->change_pct);
		printf(", \"beyond_spread\": %s, \"verdict\": \"%s\"",
		       w->v == V_REGRESSION || w->v == V_IMPROVEMENT ? "true" : "false", verdict_words[w->v]);
		if (nmetric_names) {
			fputs(", \"metrics\": {", stdout);
			for (size_t m = 0; m < nmetric_names; m++) {
				double a = metric_of(w->b, metric_names[m]), b = metric_of(w->n, metric_names[m]);
				if (m)
					fputs(", ", stdout);
				json_str(metric_names[m]);
				fputs(": {\"base\": ", stdout);
				json_num(a);
				fputs(", \"new\": ", stdout);
				json_num(b);
				fputs(", \"ratio\": ", stdout);
				json_num(a != 0 ? b / a : NAN);
				putchar('}');
			}
			putchar('}');
		}
		putchar('}');
	}
	printf("\n], \"summary\": {\"in_both\": %zu, \"regressions\": %zu, \"improvements\": %zu, \"within_spread\": %zu, "
	       "\"spread_unknown\": %zu, \"no_time\": %zu, \"only_base\": %zu, \"only_new\": %zu, \"worst_regression_pct\": ",
	       s->both, s->regress, s->improve, s->within, s->nospread, s->notime, s->only_base, s->only_new);
	json_num(s->worst ? s->worst->change_pct : NAN);
	fputs("}}\n", stdout);
}

static void print_summary(FILE *f, const struct summary *s, const char *base, const char *newp)
{
	fprintf(f, "summary: %zu config%s in both: %zu regression%s and %zu improvement%s beyond the spread, %zu within it",
		s->both, s->both == 1 ? "" : "s", s->regress, s->regress == 1 ? "" : "s", s->improve,
		s->improve == 1 ? "" : "s", s->within);
	if (s->nospread)
		fprintf(f, ", %zu without a recorded spread", s->nospread);
	if (s->notime)
		fprintf(f, ", %zu without a time", s->notime);
	if (s->broke)
		fprintf(f, " (%zu timed in base failed in new)", s->broke);
	if (s->worst)
		fprintf(f, "; worst regression %+.1f %% (%s)", s->worst->change_pct, s->worst->key);
	if (s->best)
		fprintf(f, "; best improvement %+.1f %% (%s)", s->best->change_pct, s->best->key);
	fprintf(f, "; %zu only in %s, %zu only in %s\n", s->only_base, base, s->only_new, newp);
}

static void print_text(const char *base, const char *newp, const struct row *rows, size_t n,
		       const struct summary *s)
{
	size_t kw = 8;
	for (size_t i = 0; i < n; i++)
		if (rows[i].v < V_ONLY_BASE && strlen(rows[i].key) > kw)
			kw = strlen(rows[i].key);
	printf("%-*s %10s %10s %7s %8s  %s\n", (int)kw, "identity", "base ms", "new ms", "ratio", "change", "verdict");
	for (size_t i = 0; i < n; i++) {
		const struct row *w = &rows[i];
		if (w->v >= V_ONLY_BASE)
			continue;
		if (w->v == V_NO_TIME) {
			printf("%-*s %10s %10s %7s %8s  %s (%s%s)\n", (int)kw, w->key, "-", "-", "-", "-", verdict_names[w->v],
			       w->b->error ? "base failed" : !timed(w->b) ? "base untimed" : w->n->error ? "new failed: " : "new untimed",
			       timed(w->b) && w->n->error ? w->n->error : "");
			continue;
		}
		printf("%-*s %10.4f %10.4f %7.3f %+7.1f%%  %s", (int)kw, w->key, w->b->time_ms, w->n->time_ms, w->ratio,
		       w->change_pct, verdict_names[w->v]);
		for (size_t m = 0; m < nmetric_names; m++) {
			double a = metric_of(w->b, metric_names[m]), b = metric_of(w->n, metric_names[m]);
			if (isnan(a) || isnan(b))
				printf("; %s: %s", metric_names[m], isnan(a) && isnan(b) ? "not recorded" : isnan(a) ? "not in base" : "not in new");
			else
				printf("; %s %.6g -> %.6g (%.3f)", metric_names[m], a, b, a != 0 ? b / a : NAN);
		}
		putchar('\n');
	}
	for (int side = 0; side < 2; side++) {
		size_t cnt = side ? s->only_new : s->only_base;
		if (!cnt)
			continue;
		printf("only in %s (%zu):\n", side ? newp : base, cnt);
		for (size_t i = 0; i < n; i++)
			if (rows[i].v == (side ? V_ONLY_NEW : V_ONLY_BASE))
				printf("  %s\n", rows[i].key);
	}
	print_summary(stdout, s, base, newp);
}

/* why a time cannot be compared: "missing", "NaN", "not positive (0)" … */
static const char *time_fault(const struct record *r, char *buf, size_t len)
{
	if (r->error)
		snprintf(buf, len, "failed (%s)", r->error);
	else if (isnan(r->time_ms))
		snprintf(buf, len, "has no time");
	else if (!isfinite(r->time_ms))
		snprintf(buf, len, "has time_ms %s", r->time_ms > 0 ? "inf" : "-inf");
	else if (!(r->time_ms > 0))
		snprintf(buf, len, "has time_ms %g, not positive", r->time_ms);
	else
		return NULL;
	return buf;
}

/* a gap in the gate's evidence: an error, or with --allow-missing a warning */
static void gate_say(int allow, const char *fmt, ...) ATTNPROF_PRINTF(2, 3);
static void gate_say(int allow, const char *fmt, ...)
{
	char msg[700];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (allow)
		warning("%s", msg);
	else
		error("%s", msg);
}

/*
 * The gate fails closed: evidence missing is a failure unless
 * --allow-missing, then a warning.  Returns how many failures it said.
 */
static size_t gate_evidence(const struct row *rows, size_t n, const struct summary *s, const char *base,
			    const char *newp, int cut_b, int cut_n, int allow)
{
	size_t fails = 0;
	char why[300];
	for (int side = 0; side < 2; side++)
		if (side ? cut_n : cut_b) {
			gate_say(allow, "--fail-above: %s is cut short: the configs after the cut are not compared", side ? newp : base);
			fails++;
		}
	if (!s->both) {
		gate_say(allow, "--fail-above: %s and %s have no config in common: nothing was compared", base, newp);
		fails++;
	}
	for (size_t i = 0; i < n; i++) {
		const struct row *w = &rows[i];
		if (w->v == V_NO_TIME && !(timed(w->b) && w->n->error)) { /* a failure in new is said above */
			const struct record *x = timed(w->b) ? w->n : w->b;
			gate_say(allow, "--fail-above: %s in %s %s: its change cannot be judged", w->key, x == w->b ? base : newp,
			    time_fault(x, why, sizeof(why)) ? why : "has no usable time");
			fails++;
		} else if (w->v == V_NO_SPREAD) {
			gate_say(allow, "--fail-above: %s has no run-to-run spread (time_ms_min, time_ms_max) in %s: its change cannot "
			    "be judged", w->key, !isnan(record_spread_ms(w->b)) && !isnan(record_spread_ms(w->n)) ? "either file (timed once)"
			    : isnan(record_spread_ms(w->b)) ? base : newp);
			fails++;
		}
	}
	if (fails && allow)
		note("--allow-missing: %zu gap%s in the evidence said, not failed", fails, fails == 1 ? "" : "s");
	else if (fails)
		note("the gate fails closed on missing evidence; --allow-missing lets it pass with warnings");
	return allow ? 0 : fails;
}

int cmd_diff(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "csv", no_argument, NULL, 'c' },
		{ "json", no_argument, NULL, 'j' },
		{ "fail-above", required_argument, NULL, 'f' },
		{ "allow-missing", no_argument, NULL, 'a' },
		{ "metric", required_argument, NULL, 'm' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int csv = 0, json = 0, allow_missing = 0, c;
	double fail_above = NAN;
	nmetric_names = 0;
	char *end;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'c': csv = 1; break;
		case 'a': allow_missing = 1; break;
		case 'j': json = 1; break;
		case 'f':
			errno = 0;
			fail_above = strtod(optarg, &end);
			/* a plain decimal number: strtod would also take ' 5' and '0x10' (16) */
			if (end == optarg || *end || errno || !(fail_above >= 0 && fail_above <= 1e6) ||
			    !strchr("0123456789.", optarg[0]) || strspn(optarg, "0123456789.eE+-") != strlen(optarg)) {
				error("--fail-above '%s' must be a percentage from 0 to 1000000, e.g. '--fail-above 5'", optarg);
				return EXIT_BAD_INPUT;
			}
			break;
		case 'm':
			if (nmetric_names == DIFF_MAX_METRICS) {
				error("--metric '%s': at most %d counters", optarg, DIFF_MAX_METRICS);
				return EXIT_BAD_INPUT;
			}
			metric_names[nmetric_names++] = optarg;
			break;
		case 'h': usage(stdout); return EXIT_OK;
		default: usage(stderr); return EXIT_BAD_INPUT;
		}
	}
	if (allow_missing && isnan(fail_above)) {
		error("--allow-missing opts out of --fail-above's missing-evidence rule: give --fail-above PCT too");
		return EXIT_BAD_INPUT;
	}
	if (csv && json) {
		error("--csv and --json: choose one format");
		return EXIT_BAD_INPUT;
	}
	if (argc - optind != 2) {
		error("diff compares two results files, BASE.yaml NEW.yaml (got %d)", argc - optind);
		note("see 'attnprof diff --help'");
		return EXIT_BAD_INPUT;
	}
	const char *base = argv[optind], *newp = argv[optind + 1];
	struct results B, N;
	int cut_b = 0, cut_n = 0;
	if (results_load(&B, base, &cut_b))
		return EXIT_BAD_INPUT;
	if (results_load(&N, newp, &cut_n)) {
		results_release(&B);
		return EXIT_BAD_INPUT;
	}
	int rc = EXIT_FAILURE_RUN;
	struct keyed *keys_b = NULL, *keys_n = NULL;
	size_t cap_b = 0, cap_n = 0;
	struct keyed *kb = index_of(&B, &keys_b, &cap_b), *kn = index_of(&N, &keys_n, &cap_n);
	struct row *rows = calloc(B.nrecords + N.nrecords + 1, sizeof(*rows));
	struct summary s = { 0 };
	size_t n = 0;
	if (!kb || !kn || !keys_b || !keys_n || !rows) {
		error("out of memory comparing '%s' and '%s'", base, newp);
		goto out;
	}
	/* in base's order, each identity once (the first record of it, as readers take it) */
	for (size_t i = 0; i < B.nrecords; i++) {
		struct row *w = &rows[n];
		memcpy(w->key, keys_b[i].key, sizeof(w->key));
		if (find(kb, B.nrecords, w->key)->i != i)
			continue;
		const struct keyed *at = find(kn, N.nrecords, w->key);
		w->b = &B.records[i];
		if (!at) {
			w->v = V_ONLY_BASE;
			w->ratio = w->change_pct = NAN;
			s.only_base++;
		} else {
			w->n = &N.records[at->i];
			compare(w);
			s.both++;
			switch (w->v) {
			case V_REGRESSION:
				s.regress++;
				if (!s.worst || w->change_pct > s.worst->change_pct)
					s.worst = w;
				break;
			case V_IMPROVEMENT:
				s.improve++;
				if (!s.best || w->change_pct < s.best->change_pct)
					s.best = w;
				break;
			case V_WITHIN: s.within++; break;
			case V_NO_SPREAD: s.nospread++; break;
			default:
				s.notime++;
				s.broke += timed(w->b) && w->n->error;
				break;
			}
		}
		n++;
	}
	for (size_t i = 0; i < N.nrecords; i++) {
		struct row *w = &rows[n];
		memcpy(w->key, keys_n[i].key, sizeof(w->key));
		if (find(kn, N.nrecords, w->key)->i != i || find(kb, B.nrecords, w->key))
			continue;
		w->n = &N.records[i];
		w->v = V_ONLY_NEW;
		w->ratio = w->change_pct = NAN;
		s.only_new++;
		n++;
	}
	if (csv)
		print_csv(rows, n);
	else if (json)
		print_json(base, newp, rows, n, &s);
	else
		print_text(base, newp, rows, n, &s);
	if (csv || json)
		print_summary(stderr, &s, base, newp);
	if (cap_b || cap_n) /* how captured calls were matched: pid and call index never repeat across runs */
		fprintf(csv || json ? stderr : stdout,
			"captured calls (%zu in base, %zu in new) matched by implementation, kernel family, shape and "
			"call order within the shape (#N: the Nth such call of its file), not by process id and call index\n",
			cap_b, cap_n);
	rc = EXIT_OK;
	if (!isnan(fail_above)) {
		size_t over = 0;
		for (size_t i = 0; i < n; i++)
			over += rows[i].v == V_REGRESSION && rows[i].change_pct > fail_above;
		if (over) {
			error("%zu regression%s beyond the run-to-run spread exceed%s --fail-above %g %%: worst %+.1f %% (%s)",
			      over, over == 1 ? "" : "s", over == 1 ? "s" : "", fail_above, s.worst->change_pct, s.worst->key);
			rc = EXIT_FAILURE_RUN;
		}
		/* a config that ran in base and fails in new is the worst regression of all */
		for (size_t i = 0; i < n; i++)
			if (rows[i].v == V_NO_TIME && timed(rows[i].b) && rows[i].n->error) {
				error("%s ran in %s and fails in %s: %s", rows[i].key, base, newp, rows[i].n->error);
				rc = EXIT_FAILURE_RUN;
			}
		if (gate_evidence(rows, n, &s, base, newp, cut_b, cut_n, allow_missing))
			rc = EXIT_FAILURE_RUN;
	}
out:
	free(kb);
	free(kn);
	free(keys_b);
	free(keys_n);
	free(rows);
	results_release(&B);
	results_release(&N);
	return rc;
}
