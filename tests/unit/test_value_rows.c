/* test_value_rows.c: the template's globals ({gpu.name}, {run.date} …,
 * src/doc/globals.c) and capture values ({$v.capture.NAME}, capreview.c)
 * are rows that carry their behaviour: every row's name resolves in a
 * template, an unknown name's error lists every row's name, the values
 * are the fixture header's, and docs/templates.md names exactly the rows.
 * Cairo-free: runs in the RENDER=0 build too. */
#include "check.h"

#include <ctype.h>

#include "doc/capreview.h"
#include "doc/globals.h"
#include "expand_check.h"

struct fixture {
	struct rinputs in;
	struct rdata rd;
};

/* The fixture's data, or NULL when it does not load; unload() after. */
static const struct rdata *load(struct fixture *f, const char *path)
{
	const char *files[1] = { path };
	memset(f, 0, sizeof *f);
	error_quiet(1);
	int rc = rinputs_load(&f->in, files, 1, NULL, 0, NULL);
	error_quiet(0);
	if (rc)
		return NULL;
	rdata_init_inputs(&f->rd, &f->in);
	return &f->rd;
}

static void unload(struct fixture *f) { rinputs_release(&f->in); }

#define SMALL "tests/fixtures/results-small.yaml"
#define CAPTURED "tests/fixtures/capture-small.yaml"

/* Expand text as a template's text at its line 1, column 1. */
static int expand(const struct rdata *rd, const char *text, char *out, size_t len)
{
	struct ynode node = { Y_SCALAR, 1, 1, 1, 0, (char *)text, 0, NULL, NULL };
	struct interp ip = { rd, NULL, "t.yaml", text, strlen(text), 0, 1, 0 };
	return check_expand(&ip, &node, text, out, len);
}

/* 1 when word is one of the whitespace-separated words of s[0..n) */
static int has_word(const char *s, size_t n, const char *word)
{
	const size_t w = strlen(word);
	for (size_t i = 0; i + w <= n; i++)
		if (!strncmp(s + i, word, w) && (i == 0 || isspace((unsigned char)s[i - 1])) &&
		    (i + w == n || isspace((unsigned char)s[i + w])))
			return 1;
	return 0;
}

/* Every row is found by its name, in a namespace of globals, and
 * expands without a template error (a value, or n/a where the fixture
 * lacks it). */
static void test_every_global_resolves(void)
{
	struct fixture f[2];
	const struct rdata *rds[2] = { load(&f[0], SMALL), load(&f[1], CAPTURED) };
	if (!rds[0] || !rds[1]) {
		for (int k = 0; k < 2; k++)
			if (rds[k])
				unload(&f[k]);
		SKIP("fixture did not load");
	}
	CHECK(global_count >= 50);
	for (size_t i = 0; i < global_count; i++) {
		const struct global_row *g = &global_rows[i];
		CHECK(g->about && g->about[0] && g->value);
		CHECK(global_find(g->ns, g->name) == g);
		CHECK(global_namespace(g->ns));
		char text[96], out[4096];
		snprintf(text, sizeof text, "{%s.%s}", g->ns, g->name);
		for (int k = 0; k < 2; k++) {
			int rc = expand(rds[k], text, out, sizeof out);
			if (rc < 0)
				printf("    %s: %s\n", text, out);
			CHECK(rc >= 0);
		}
	}
	CHECK(global_find("gpu", "run") == NULL);
	CHECK(!global_namespace("flash2"));
	unload(&f[0]);
	unload(&f[1]);
}

/* "run.date days host" within the namespace's group of an error: the
 * group starts at "; ns." (or the list's start) and ends at the next ';'. */
static int lists_global(const char *msg, const struct global_row *g)
{
	char start[32];
	snprintf(start, sizeof start, "%s.", g->ns);
	for (const char *p = strstr(msg, start); p; p = strstr(p + 1, start)) {
		if (p != msg && p[-1] != ' ')
			continue; /* "focus." inside another word */
		const char *words = p + strlen(start), *end = words + strcspn(words, ";)");
		if (has_word(words, (size_t)(end - words), g->name))
			return 1;
	}
	return 0;
}

static void test_unknown_global_lists_every_row(void)
{
	struct fixture f;
	const struct rdata *rd = load(&f, SMALL);
	if (!rd)
		SKIP("fixture did not load");
	char out[4096];
	const char *unknown[] = { "{gpu.nope}", "{run.zzz}", "{focus.batch}", "{program.wat}" };
	for (size_t u = 0; u < sizeof unknown / sizeof *unknown; u++) {
		CHECK_INT(expand(rd, unknown[u], out, sizeof out), -2);
		CHECK_CONTAINS(out, "unknown value '");
		CHECK_CONTAINS(out, "docs/templates.md, \"Globals\"");
		for (size_t i = 0; i < global_count; i++)
			if (!lists_global(out, &global_rows[i])) {
				printf("    %s: %s.%s not listed in: %s\n", unknown[u], global_rows[i].ns, global_rows[i].name, out);
				CHECK(0);
			}
	}
	CHECK_INT(expand(rd, "{gpu.sm_cout}", out, sizeof out), -2);
	CHECK_CONTAINS(out, "t.yaml:1:6: unknown value 'gpu.sm_cout': did you mean 'gpu.sm_count'?");
	CHECK_INT(expand(rd, "{gpu.zzzzzz}", out, sizeof out), -2);
	CHECK(strstr(out, "did you mean") == NULL);
	CHECK_STR(global_nearest("run", "recrods"), "records");
	CHECK(global_nearest("focus", "records") == NULL);
	unload(&f);
}

/* A row's value against the fixture's header. */
static void test_globals_are_the_header(void)
{
	struct fixture f;
	const struct rdata *rd = load(&f, SMALL);
	if (!rd)
		SKIP("fixture did not load");
	const struct results_header *h = &rd->res->header;
	struct gcall c;
	CHECK_INT(global_eval(rd, global_find("gpu", "sm_count"), &c), 0);
	CHECK_INT(c.is_text, 0);
	CHECK_NEAR(c.num, h->gpu.hw.sm_count, 0);
	CHECK_NEAR(c.num, 132, 0);
	CHECK_INT(global_eval(rd, global_find("gpu", "l2"), &c), 0);
	CHECK_NEAR(c.num, 52428800.0, 0);
	CHECK_INT(global_eval(rd, global_find("gpu", "copy"), &c), 0);
	CHECK_NEAR(c.num, 4300, 0);
	CHECK_INT(global_eval(rd, global_find("gpu", "copy_of_peak"), &c), 0);
	CHECK_NEAR(c.num, 4300 / 4915.2 * 100, 1e-12);
	CHECK_INT(global_eval(rd, global_find("gpu", "ridge"), &c), 0);
	CHECK_NEAR(c.num, 790e3 / 4300, 1e-12);
	CHECK_INT(global_eval(rd, global_find("gpu", "smem_total"), &c), 0);
	CHECK_NEAR(c.num, 233472.0 * 132, 0);
	CHECK_INT(global_eval(rd, global_find("gpu", "mma_sync"), &c), 0);
	CHECK_NEAR(c.num, 620, 0);
	CHECK_INT(global_eval(rd, global_find("run", "records"), &c), 0);
	CHECK_NEAR(c.num, (double)rd->res->nrecords, 0);
	CHECK_INT(global_eval(rd, global_find("gpu", "cupti"), &c), 0);
	CHECK_INT(c.is_text, 1);
	CHECK_STR(c.text, "26");
	/* texts through the template, as a document reads them */
	char out[4096];
	CHECK_INT(expand(rd, "{gpu.name} ({gpu.chip}, cc {gpu.cc}) at {gpu.sm_clock}, {gpu.mem_clock}", out, sizeof out), 0);
	CHECK_STR(out, "NVIDIA H200 (GH100, cc 9.0) at 1980 MHz, 3201 MHz");
	CHECK_INT(expand(rd, "{run.host} {run.version} {run.spec} {run.command}", out, sizeof out), 0);
	CHECK_STR(out, "fixture 0.1.0 fixture-small tests/fixtures/results-fixtures.py");
	CHECK_INT(expand(rd, "{focus.N} {focus.d} {focus.causal} {gpu.ceilings_method}", out, sizeof out), 0);
	CHECK_STR(out, "4096 128 non-causal synthetic fixture values, not measured");
	CHECK_INT(expand(rd, "{run.synthetic}", out, sizeof out), 0);
	CHECK_STR(out, "synthetic test data, not measurements");
	/* no capture in this file: the program's values are missing, each one n/a */
	CHECK_INT(expand(rd, "{program.command} {program.ran}", out, sizeof out), 2);
	CHECK_STR(out, "n/a n/a");
	unload(&f);
}

/* The captured program's header; a ceiling the file does not hold is missing. */
static void test_program_globals(void)
{
	struct fixture f;
	const struct rdata *rd = load(&f, CAPTURED);
	if (!rd)
		SKIP("fixture did not load");
	char out[4096];
	CHECK_INT(expand(rd, "{program.command} | {program.record} | {program.host}", out, sizeof out), 0);
	CHECK_STR(out, "python3 fixture_program.py | attnprof record -o capture-small.yaml -- python3 fixture_program.py | fixture");
	CHECK_INT(expand(rd, "{program.ran}", out, sizeof out), 0);
	CHECK_CONTAINS(out, "The program python3 fixture_program.py ran under attnprof record");
	struct gcall c;
	CHECK_INT(global_eval(rd, global_find("gpu", "mma_sync"), &c), 1);
	CHECK_INT(expand(rd, "{gpu.mma_sync}", out, sizeof out), 1);
	CHECK_STR(out, "n/a");
	unload(&f);
}

/* Every capture value resolves for every captured implementation; an
 * unknown name lists every row's; the counts are the records'. */
static void test_capture_rows(void)
{
	struct fixture f;
	const struct rdata *rd = load(&f, CAPTURED);
	if (!rd)
		SKIP("fixture did not load");
	size_t ni;
	struct capimpl *impls = capture_impls(rd, &ni);
	CHECK(ni >= 2);
	char text[4096];
	int is_text;
	double num;
	enum qunit unit;
	for (size_t k = 0; k < capture_value_count; k++) {
		const struct capture_value_row *row = &capture_value_rows[k];
		CHECK(capture_value_find(row->name) == row);
		CHECK(row->about && row->about[0] && row->value);
		for (size_t i = 0; i < ni; i++) {
			int rc = capture_value(rd, impls[i].key, row->name, &is_text, &num, &unit, text, sizeof text);
			CHECK(rc == 0 || rc == 1);
			if (rc == 0 && !is_text)
				CHECK_INT(unit, row->unit);
		}
	}
	CHECK_INT(capture_value(rd, impls[0].key, "stord", &is_text, &num, &unit, text, sizeof text), -1);
	CHECK_CONTAINS(text, "unknown capture value 'stord': did you mean 'stored'?");
	CHECK_CONTAINS(text, "docs/templates.md, \"A captured program\"");
	for (size_t k = 0; k < capture_value_count; k++) {
		char item[64];
		snprintf(item, sizeof item, "%s%s%s", k ? ", " : ": ", capture_value_rows[k].name,
			 k + 1 < capture_value_count ? "," : ")");
		CHECK_CONTAINS(text, item);
	}
	/* calls: the implementation's records */
	int calls = 0;
	for (size_t r = 0; r < rd->res->nrecords; r++) {
		char key[SERIES_KEY];
		calls += !strcmp(record_series(&rd->res->records[r], key, sizeof key), impls[0].key);
	}
	CHECK_INT(capture_value(rd, impls[0].key, "calls", &is_text, &num, &unit, text, sizeof text), 0);
	CHECK_INT(is_text, 0);
	CHECK_NEAR(num, calls, 0);
	CHECK(calls > 0);
	CHECK_INT(capture_value(rd, impls[0].key, "impl", &is_text, &num, &unit, text, sizeof text), 0);
	CHECK_INT(is_text, 1);
	CHECK_STR(text, impls[0].variant);
	CHECK_INT(capture_value(rd, "flash2", "calls", &is_text, &num, &unit, text, sizeof text), 1);
	CHECK_STR(text, "'flash2' has no captured calls");
	capture_impls_free(impls, ni);
	unload(&f);
}

/* The text from the line starting with start up to the next blank line. */
static char *paragraph(char *doc, const char *start)
{
	char *p = strstr(doc, start);
	if (!p)
		return NULL;
	char *end = strstr(p, "\n\n");
	if (end)
		*end = '\0';
	return p;
}

/* docs/templates.md's "Globals:" paragraph names exactly the rows: each
 * `ns.a b c` span lists names of namespace ns, and every row is in one. */
static void test_docs_name_every_global(void)
{
	char *doc = check_slurp("docs/templates.md", NULL);
	if (!doc)
		SKIP("docs/templates.md not readable");
	const char *para = paragraph(doc, "**Globals:**");
	CHECK(para != NULL);
	if (!para) {
		free(doc);
		return;
	}
	static int listed[256];
	memset(listed, 0, sizeof listed);
	CHECK(global_count <= sizeof listed / sizeof *listed);
	for (const char *p = strchr(para, '`'); p; p = strchr(p, '`')) {
		const char *span = p + 1, *close = strchr(span, '`');
		if (!close)
			break;
		char ns[16];
		size_t nl = strcspn(span, ". `\n");
		if (span[nl] == '.' && nl < sizeof ns) {
			memcpy(ns, span, nl);
			ns[nl] = '\0';
			/* the words after "ns." up to the closing backtick */
			for (const char *w = span + nl + 1; w < close;) {
				size_t len = strcspn(w, " \n`");
				char name[48];
				snprintf(name, sizeof name, "%.*s", (int)len, w);
				const struct global_row *g = global_namespace(ns) ? global_find(ns, name) : NULL;
				if (g)
					listed[g - global_rows] = 1;
				else if (global_namespace(ns)) {
					printf("    docs/templates.md names %s.%s, which is no global\n", ns, name);
					CHECK(0);
				}
				w += len;
				while (w < close && (*w == ' ' || *w == '\n'))
					w++;
			}
		}
		p = close + 1;
	}
	for (size_t i = 0; i < global_count; i++)
		if (!listed[i]) {
			printf("    docs/templates.md, \"Globals\", does not name %s.%s\n", global_rows[i].ns, global_rows[i].name);
			CHECK(0);
		}
	free(doc);
}

/* The captured program's table in docs/templates.md names every capture value. */
static void test_docs_name_every_capture_value(void)
{
	char *doc = check_slurp("docs/templates.md", NULL);
	if (!doc)
		SKIP("docs/templates.md not readable");
	const char *sec = strstr(doc, "## A captured program");
	const char *table = sec ? strstr(sec, "| name | value |") : NULL;
	CHECK(table != NULL);
	for (size_t k = 0; table && k < capture_value_count; k++) {
		char item[64];
		snprintf(item, sizeof item, "`%s`", capture_value_rows[k].name);
		const char *at = strstr(table, item), *end = strstr(table, "\n\n");
		if (!at || (end && at > end)) {
			printf("    docs/templates.md's capture table does not name %s\n", item);
			CHECK(0);
		}
	}
	free(doc);
}

TESTS(test_every_global_resolves, test_unknown_global_lists_every_row, test_globals_are_the_header,
      test_program_globals, test_capture_rows, test_docs_name_every_global, test_docs_name_every_capture_value)
