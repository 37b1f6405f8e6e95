/* test_docmodel.c: the document model without Cairo — the walk over a
 * template yields the blocks the layout will draw: sections per variant,
 * `when:` guards, values interpolated, figures skipped when the results
 * lack their records, tables as owned rows.  Runs in the RENDER=0 build
 * too (make test builds and runs it there). */
#include "check.h"

#include <unistd.h>

#include "capture/verdict.h"
#include "doc/capreview.h"
#include "doc/docmodel.h"
#include "doc/figkind.h"
#include "doc/inline.h"
#include "util/error.h"

struct doc {
	struct template t;
	struct rinputs in;
	struct rdata rd;
	struct docmodel m;
	int rc;
};

static int load(struct doc *d, const char *tpl, const char *results)
{
	memset(d, 0, sizeof(*d));
	if (template_load(&d->t, tpl))
		return -1;
	const char *files[1] = { results };
	if (rinputs_load(&d->in, files, 1, NULL, 0, NULL)) {
		template_release(&d->t);
		return -1;
	}
	rdata_init_inputs(&d->rd, &d->in);
	d->rc = docmodel_build(&d->m, &d->t, &d->rd, 1);
	return 0;
}

static void unload(struct doc *d)
{
	docmodel_release(&d->m);
	rinputs_release(&d->in);
	template_release(&d->t);
}

static const struct dblock *section(const struct docmodel *m, const char *title)
{
	for (size_t i = 0; i < m->n; i++)
		if (m->b[i].kind == D_SECTION && m->b[i].text && !strcmp(m->b[i].text, title))
			return &m->b[i];
	return NULL;
}

/* The figure of number n (1-based), or NULL. */
static const struct dblock *figure_no(const struct docmodel *m, int n)
{
	for (size_t i = 0; i < m->n; i++)
		if (m->b[i].kind == D_FIGURE && m->b[i].number == n)
			return &m->b[i];
	return NULL;
}

static int text_has(const struct docmodel *m, const char *s)
{
	for (size_t i = 0; i < m->n; i++) {
		if (m->b[i].text && strstr(m->b[i].text, s))
			return 1;
		for (size_t k = 0; k < m->b[i].nitems; k++)
			if (strstr(m->b[i].items[k], s))
				return 1;
	}
	return 0;
}

static void test_review_blocks(void)
{
	struct doc d;
	if (load(&d, "templates/review.yaml", "tests/fixtures/results-small.yaml"))
		SKIP("fixture or template missing");
	CHECK_INT(d.rc, 0);
	const struct docmodel *m = &d.m;
	CHECK(m->n > 40);
	/* an untitled, unnumbered section holds the table of contents; Summary is section 1 */
	CHECK_INT(m->b[0].kind, D_SECTION);
	CHECK_INT(m->b[0].number, 0);
	CHECK_INT(m->b[1].kind, D_CONTENTS);
	CHECK_STR(m->b[1].text, "Contents");
	CHECK_INT(m->b[2].kind, D_SECTION);
	CHECK_STR(m->b[2].text, "Summary");
	CHECK_INT(m->b[2].number, 1);
	CHECK_CONTAINS(m->title, "NVIDIA H200");
	CHECK_CONTAINS(m->meta, "results-small.yaml");
	/* one section per variant, numbered in order */
	CHECK(section(m, "Data flow and partition: standard") != NULL);
	CHECK(section(m, "Data flow and partition: flash2") != NULL);
	const struct dblock *a = section(m, "Data flow and partition: standard"), *b = section(m, "Data flow and partition: flash2");
	CHECK(a && b && a->number < b->number);
	/* the fixture has decode and ladder records: their sections are in */
	CHECK(section(m, "Prefill and decode") != NULL);
	CHECK(section(m, "Ablation ladder") != NULL);
	/* figures numbered 1..n in order, each with its kind; tables own their rows */
	int fig = 0, tab = 0;
	for (size_t i = 0; i < m->n; i++) {
		if (m->b[i].kind == D_FIGURE) {
			CHECK_INT(m->b[i].number, ++fig);
			CHECK(m->b[i].fig != NULL);
		}
		if (m->b[i].kind == D_TABLE) {
			CHECK_INT(m->b[i].number, ++tab);
			CHECK(m->b[i].table != NULL);
			CHECK(m->b[i].table && m->b[i].table->nrows > 0 && m->b[i].table->ncols > 1);
			CHECK(m->b[i].table_title[0]);
		}
	}
	CHECK_INT(fig, m->nfigures);
	CHECK_INT(tab, m->ntables);
	CHECK(fig >= 10 && tab >= 5);
	/* the data-flow figure of a variant section names that variant */
	const struct dblock *f = figure_no(m, 1);
	CHECK(f && f->fig && !strcmp(f->fig->name, "dataflow-compare"));
	/* every figure carries its kind's title, in this build too (no renderer needed) */
	CHECK(f && f->title && !strncmp(f->title, "Data flow of standard against flash2 (", 38));
	for (size_t i = 0; i < m->n; i++)
		if (m->b[i].kind == D_FIGURE)
			CHECK(m->b[i].title && m->b[i].title[0]);
	/* values come from the fixture: flash2 at the focus, 1.81 ms in results-small.yaml */
	CHECK(text_has(m, "flash2 ran in 1.81 ms"));
	unload(&d);
}

static void test_when_and_availability(void)
{
	struct doc d;
	if (load(&d, "templates/review.yaml", "tests/fixtures/results-nometrics.yaml"))
		SKIP("fixture or template missing");
	CHECK_INT(d.rc, 0);
	/* no decode records: the section's `when: has:decode` leaves it out */
	CHECK(section(&d.m, "Prefill and decode") == NULL);
	for (size_t i = 0; i < d.m.n; i++)
		if (d.m.b[i].kind == D_FIGURE)
			CHECK(strcmp(d.m.b[i].fig->name, "decode") != 0);
	CHECK(text_has(&d.m, "have no hardware counters"));
	unload(&d);
}

/* one template twice over one file: the same model, figure descriptions included; the figures described */
static int same_model(const char *tpl)
{
	struct doc a, b;
	if (load(&a, tpl, "tests/fixtures/results-small.yaml"))
		return -1;
	if (load(&b, tpl, "tests/fixtures/results-small.yaml")) {
		unload(&a);
		return -1;
	}
	CHECK_INT(a.m.n, b.m.n);
	CHECK_INT(a.m.nfigures, b.m.nfigures);
	int described = 0;
	for (size_t i = 0; i < a.m.n && i < b.m.n; i++) {
		const struct dblock *x = &a.m.b[i], *y = &b.m.b[i];
		CHECK_INT(x->kind, y->kind);
		CHECK_INT(x->number, y->number);
		CHECK_STR(x->label, y->label);
		if (x->text && y->text)
			CHECK_STR(x->text, y->text);
		if (x->title && y->title)
			CHECK_STR(x->title, y->title);
		/* a figure's description, value for value and record for record */
		CHECK_INT(!x->desc, !y->desc);
		if (!x->desc || !y->desc)
			continue;
		const struct figdesc *p = x->desc, *q = y->desc;
		described++;
		CHECK_STR(p->kind, q->kind);
		CHECK_STR(p->notice, q->notice);
		CHECK_INT(p->npanels, q->npanels);
		CHECK_INT(p->nseries, q->nseries);
		CHECK_INT(p->nused, q->nused);
		for (size_t k = 0; k < p->nused && k < q->nused; k++)
			CHECK_INT(p->used[k] - a.in.res.records, q->used[k] - b.in.res.records);
		for (size_t s = 0; s < p->nseries && s < q->nseries; s++)
			CHECK_STR(p->series[s].key, q->series[s].key);
		for (size_t pi = 0; pi < p->npanels && pi < q->npanels; pi++) {
			CHECK_INT(p->panel[pi].ncat, q->panel[pi].ncat);
			CHECK_STR(p->panel[pi].title, q->panel[pi].title);
			for (size_t s = 0; s < p->nseries && s < q->nseries; s++)
				for (size_t c = 0; c < p->panel[pi].ncat && c < q->panel[pi].ncat; c++) {
					const struct figpoint *u = figdesc_at(p, pi, s, c), *v = figdesc_at(q, pi, s, c);
					CHECK_INT(u->state, v->state);
					CHECK(u->v == v->v || (isnan(u->v) && isnan(v->v)));
					CHECK(u->lo == v->lo || (isnan(u->lo) && isnan(v->lo)));
					CHECK(u->hi == v->hi || (isnan(u->hi) && isnan(v->hi)));
					CHECK_INT(u->has_model, v->has_model);
					CHECK_INT(u->rec ? u->rec - a.in.res.records : -1, v->rec ? v->rec - b.in.res.records : -1);
				}
		}
	}
	unload(&a);
	unload(&b);
	return described;
}

static void test_same_input_same_model(void)
{
	int s = same_model("templates/slides.yaml"), r = same_model("templates/review.yaml");
	if (s < 0 || r < 0)
		SKIP("fixture or template missing");
	CHECK(s >= 2 && r >= 6);
}

static void test_template_error(void)
{
	struct doc d;
	error_quiet(1);
	int r = load(&d, "tests/fixtures/template-bad-placeholder.yaml", "tests/fixtures/results-small.yaml");
	error_quiet(0);
	if (r)
		SKIP("fixture missing");
	CHECK_INT(d.rc, -2);
	CHECK_CONTAINS(error_last(), "template-bad-placeholder.yaml:");
	CHECK_INT(d.m.n, 0);
	unload(&d);
}

/* The table block of kind k in the model (the first), or NULL. */
static const struct dtable *table_of(const struct docmodel *m, int k)
{
	for (size_t i = 0; i < m->n; i++)
		if (m->b[i].kind == D_TABLE && m->b[i].table && m->b[i].table->kind == k)
			return m->b[i].table;
	return NULL;
}

/* The cell texts of column head with the smallest and largest number, over
 * rows whose column fhead holds fval (NULL: all rows). */
static int column_range(const struct dtable *t, const char *head, const char *fhead, const char *fval, char *lo,
			char *hi, size_t len)
{
	int c = -1, f = -1;
	for (int j = 0; j < t->ncols; j++) {
		if (!strcmp(t->head[j], head)) c = j;
		if (fhead && !strcmp(t->head[j], fhead)) f = j;
	}
	if (c < 0 || (fhead && f < 0))
		return -1;
	double vlo = 0, vhi = 0;
	int n = 0;
	for (int i = 0; i < t->nrows; i++) {
		if (fhead && strcmp(t->cell[i][f], fval))
			continue;
		/* a ratio within both records' spread is marked "≈ " in the table,
		 * and quoted so in the prose */
		const char *cell = t->cell[i][c], *num = cell;
		if (!strncmp(num, "\u2248 ", strlen("\u2248 ")))
			num += strlen("\u2248 ");
		char *e;
		double x = strtod(num, &e);
		if (e == num)
			continue;
		if (!n || x < vlo) { vlo = x; snprintf(lo, len, "%s", cell); }
		if (!n || x > vhi) { vhi = x; snprintf(hi, len, "%s", cell); }
		n++;
	}
	return n ? 0 : -1;
}

/* Every range the review quotes is the range of the table it stands beside
 * (the H200 evidence: the flash1 column's 127× against 130× over every
 * record, a shape the table does not show). */
static void test_quoted_ranges_match_tables(void)
{
	struct doc d;
	memset(&d, 0, sizeof(d));
	const char *files[3] = { "experiments/results/fa2-paper.yaml", "experiments/results/decode.yaml",
				 "experiments/results/ablation.yaml" };
	FILE *f = fopen(files[0], "r");
	if (!f)
		SKIP("no committed H200 results");
	fclose(f);
	CHECK_INT(template_load(&d.t, "templates/review.yaml"), 0);
	error_quiet(1);
	CHECK_INT(rinputs_load(&d.in, files, 3, NULL, 0, NULL), 0);
	error_quiet(0);
	rdata_init_inputs(&d.rd, &d.in);
	CHECK_INT(docmodel_build(&d.m, &d.t, &d.rd, 1), 0);
	const struct dtable *sp = table_of(&d.m, table_find("speedup")), *mo = table_of(&d.m, table_find("model"));
	CHECK(sp && mo);
	if (!sp || !mo) {
		unload(&d);
		return;
	}
	char lo[64], hi[64], want[400];
	struct { const struct dtable *t; const char *col, *fhead, *fval, *fmt; } q[] = {
		{ sp, "flash2 vs standard", NULL, NULL, "between %s and %s faster than standard" },
		{ sp, "flash2 vs flash1", NULL, NULL, "between %s and %s faster than flash1" },
		{ sp, "flash2 vs SDPA", NULL, NULL, "ranges from %s to %s of SDPA" },
		{ mo, "measured / model", "variant", "standard", "ranges from %s to %s for standard" },
		{ mo, "measured / model", "variant", "flash1", "%s to %s for flash1" },
		{ mo, "measured / model", "variant", "flash2", "%s to %s for flash2" },
	};
	for (size_t i = 0; i < sizeof(q) / sizeof(*q); i++) {
		CHECK_INT(column_range(q[i].t, q[i].col, q[i].fhead, q[i].fval, lo, hi, sizeof(lo)), 0);
		snprintf(want, sizeof(want), q[i].fmt, lo, hi);
		int found = 0;
		for (size_t k = 0; k < d.m.n && !found; k++) {
			if (d.m.b[k].kind != D_PARA || !d.m.b[k].text)
				continue;
			/* the paragraph's words, line breaks as spaces */
			char flat[2000];
			snprintf(flat, sizeof(flat), "%s", d.m.b[k].text);
			for (char *p = flat; *p; p++)
				if (*p == '\n') *p = ' ';
			found = strstr(flat, want) != NULL;
		}
		if (!found)
			printf("    no paragraph quotes the table's range: \"%s\"\n", want);
		CHECK(found);
	}
	unload(&d);
}

/* A caption is expanded at its figure's (and table's) own conditions, the
 * text beside it at the focus: one selection feeds figure and caption. */
static void test_caption_at_figure_conditions(void)
{
	char path[] = "/tmp/attnprof-caption-XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	if (fd < 0)
		return;
	const char *tpl =
		"template: attnprof-template/1\nname: cap\nlayout: article\nsections:\n"
		"  - title: S\n    blocks:\n"
		"      - figure: tflops\n        N: 2048\n        B: 8\n        caption: \"at B={flash2.B}, N={flash2.N}\"\n"
		"      - table: memory\n        N: 1024\n        caption: \"at N={flash2.N}\"\n"
		"      - text: \"focus B={flash2.B}, N={flash2.N}\"\n";
	CHECK(write(fd, tpl, strlen(tpl)) == (ssize_t)strlen(tpl));
	close(fd);
	struct doc d;
	CHECK_INT(load(&d, path, "tests/fixtures/results-small.yaml"), 0);
	CHECK_INT(d.rc, 0);
	const char *fig = NULL, *tab = NULL;
	for (size_t i = 0; i < d.m.n; i++) {
		if (d.m.b[i].kind == D_FIGURE) fig = d.m.b[i].caption;
		if (d.m.b[i].kind == D_TABLE) tab = d.m.b[i].caption;
	}
	CHECK_STR(fig, "at B=8, N=2048");
	CHECK_STR(tab, "at N=1024");
	CHECK(text_has(&d.m, "focus B=4, N=4096"));
	unload(&d);
	unlink(path);
}

/* Inline styles reach the model as doc/inline.h's marks, not as any back
 * end's markup: '&' and '<' stay characters, a snake_case name stays plain,
 * and a style left open is closed with its text. */
static void test_inline_styles(void)
{
	struct doc d;
	if (load(&d, "tests/fixtures/templates/inline-styles.yaml", "tests/fixtures/results-small.yaml"))
		SKIP("fixture missing");
	CHECK_INT(d.rc, 0);
	CHECK_STR(d.m.title, "\x10" "Bold\x11 & <angle> title");
	CHECK(section(&d.m, "One & \x12two\x13") != NULL);
	CHECK(text_has(&d.m, "\x10" "a\x11 & <b> \x12it\x13 \x14" "c_d\x15 snake_case "));
	CHECK(text_has(&d.m, "\x14x < y\x15"));
	const char *cap = NULL;
	for (size_t i = 0; i < d.m.n; i++)
		if (d.m.b[i].kind == D_FIGURE)
			cap = d.m.b[i].caption;
	CHECK_STR(cap, "grid of \x10Q\x11 & K");
	char *plain = inline_plain(d.m.title);
	CHECK_STR(plain, "Bold & <angle> title");
	free(plain);
	unload(&d);
}

/* {ref:ID} resolved after numbering: forward and backward citations, n/a for a missing id */
static void test_refs(void)
{
	struct doc d;
	if (load(&d, "tests/fixtures/templates/refs.yaml", "tests/fixtures/results-small.yaml"))
		SKIP("fixture missing");
	CHECK_INT(d.rc, 0);
	CHECK(text_has(&d.m, "The grid is in Figure 1, the conditions in Table 1, the decode chart in n/a."));
	CHECK_INT(d.m.missing, 1);
	unload(&d);
}

/* on drawing sheets a citation is the view's label, one, two or a run */
static void test_refs_sheets(void)
{
	struct doc d;
	if (load(&d, "tests/fixtures/templates/refs-sheets.yaml", "tests/fixtures/results-small.yaml"))
		SKIP("fixture missing");
	CHECK_INT(d.rc, 0);
	CHECK(text_has(&d.m, "In FIG. 2A and FIG. 2B, as in FIGS. 2A and 2B; FIGS. 1 to 2B show them; FIG. 1 the grid."));
	CHECK_INT(d.m.missing, 0);
	unload(&d);
}

/* captured implementations named by role; a captured series' value is its identity's
 * last call (sdpa-flash ran 1.58 then 1.56 ms); a repeated section's when: per implementation */
static void test_capture_roles(void)
{
	struct doc d;
	if (load(&d, "tests/fixtures/templates/capture-roles.yaml", "tests/fixtures/capture-small.yaml"))
		SKIP("fixture missing");
	CHECK_INT(d.rc, 0);
	CHECK(text_has(&d.m, "fastest sdpa-flash at 1.56 ms; backward sdpa-flash; stores sdpa-math"));
	CHECK(section(&d.m, "sdpa-math stores S and P") != NULL);
	CHECK(section(&d.m, "sdpa-flash stores S and P") == NULL);
	/* title alternatives: the first that holds, every implementation in program order */
	const struct dblock *a = section(&d.m, "sdpa-flash: 267 MiB against sdpa-math's 17.0 GiB");
	const struct dblock *b = section(&d.m, "sdpa-math: the verdict alone");
	const struct dblock *e = section(&d.m, "mystery: the verdict alone");
	CHECK(a && b && e && a < b && b < e);
	unload(&d);
}

/* Identities resolved at the edge: every loaded record (drawn, other run,
 * repeat) carries its descriptor and its verdict, computed once by
 * rinputs_load; what a document writes of the verdict reads the stored
 * value, not a recomputation. */
static void check_resolved(const struct results *res, double l2, int *captured)
{
	for (size_t i = 0; i < res->nrecords; i++) {
		const struct record *r = &res->records[i];
		CHECK_INT(r->resolved, 1);
		int own = !r->source || !strcmp(r->source, "attnprof");
		CHECK(r->desc == (own ? variant_find(r->variant) : NULL));
		const char *rule;
		CHECK_INT(r->verdict_matrices, verdict_matrices(r, l2, &rule));
		CHECK_STR(r->verdict_rule, rule);
		*captured += record_captured(r);
	}
}

static void test_records_resolved(void)
{
	static const char *const files[] = { "tests/fixtures/capture-small.yaml", "tests/fixtures/results-small.yaml" };
	struct doc d;
	for (size_t f = 0; f < 2; f++) {
		if (load(&d, "templates/impl-review.yaml", files[f]))
			SKIP("fixture missing");
		double l2 = (double)d.in.res.header.gpu.hw.l2_bytes;
		int captured = 0;
		check_resolved(&d.in.res, l2, &captured);
		check_resolved(&d.in.others, l2, &captured);
		CHECK_INT(captured > 0, f == 0);
		for (size_t i = 0; i < d.in.res.nrecords; i++) {
			struct record *r = &d.in.res.records[i];
			if (!record_captured(r) || r->verdict_matrices < 0)
				continue;
			/* the sentence reads the stored verdict: change it, the sentence follows */
			char a[64], b[64];
			capture_verdict_text(&d.rd, r, a, sizeof(a));
			int was = r->verdict_matrices;
			r->verdict_matrices = was >= 2 ? 0 : 2;
			capture_verdict_text(&d.rd, r, b, sizeof(b));
			CHECK(strcmp(a, b) != 0);
			r->verdict_matrices = was;
		}
		unload(&d);
	}
}

/* A table kind is its row: a name table_find finds, a title, a builder. */
static void test_table_kinds(void)
{
	CHECK(table_kind_count > 0);
	for (size_t i = 0; i < table_kind_count; i++) {
		CHECK(table_kinds[i].build != NULL);
		CHECK(table_kinds[i].title && table_kinds[i].about);
		CHECK_INT(table_find(table_kinds[i].name), (long long)i);
	}
	CHECK_INT(table_find("nope"), -1);
	CHECK_STR(table_nearest("speedpu"), "speedup");
}

/* A quantity that reads one counter has the unit of the counter's row. */
static void test_metric_quantity_units(void)
{
	int seen = 0;
	for (size_t i = 0; i < quantity_count; i++) {
		const struct qinfo *q = &quantity_table[i];
		if (!q->of || !strstr(q->of, "__"))
			continue;
		CHECK_INT(q->unit, metric_qunit(q->of));
		seen++;
	}
	CHECK(seen >= 10);
	CHECK_INT(metric_qunit("dram__bytes_read.sum"), U_BYTES);
	CHECK_INT(metric_qunit("lts__t_sector_hit_rate.pct"), U_PCT);
	CHECK_INT(metric_qunit("sm__cycles_elapsed.avg.per_second"), U_COUNT); /* Hz: the template writes the unit */
}

/* Every origin an emitter writes into a range or a capture record (the C
 * header, the Python helper, the injection library's scan and regex, a
 * program's own range) has its description row: read from the emitters'
 * sources, so a new origin without a row fails here. */
static size_t scan_origins(const char *path, char out[][48], size_t n, size_t max)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return n;
	static char buf[1 << 20];
	size_t len = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[len] = '\0';
	/* origin=NAME (a range's text), origin="NAME" (a default), a quoted NAME
	 * after "call," in the helper's range_name and _mark_backward, inside
	 * begin_call(...), after "->origin : " (a range's own) and in the aux
	 * origin's #define */
	static const char *const marks[] = { "origin=", "call, ", "call,\n", "->origin : ", "_ORIGIN ", "begin_call(" };
	for (size_t m = 0; m < sizeof marks / sizeof marks[0]; m++)
		for (const char *p = strstr(buf, marks[m]); p; p = strstr(p + 1, marks[m])) {
			const char *q = p + strlen(marks[m]);
			if (!strncmp(marks[m], "call,", 5)) { /* the origin argument of the helper's range calls */
				const char *ls = p;
				while (ls > buf && ls[-1] != '\n')
					ls--;
				char line[400];
				snprintf(line, sizeof line, "%.*s", (int)(p - ls), ls);
				if (!strstr(line, "range_name(") && !strstr(line, "_mark_backward("))
					continue;
			}
			if (!strcmp(marks[m], "begin_call(")) { /* a quoted argument before the call's end */
				const char *end = strchr(q, ')'), *lit = strchr(q, '"');
				if (!end || !lit || lit > end)
					continue;
				q = lit;
			}
			while (*q == ' ' || *q == '\t' || *q == '\n')
				q++;
			int quoted = *q == '"';
			q += quoted;
			size_t k = 0;
			char name[48];
			while (k + 1 < sizeof name && ((q[k] >= 'a' && q[k] <= 'z') || q[k] == '-'))
				name[k] = q[k], k++;
			name[k] = '\0';
			if (k < 3 || (quoted && q[k] != '"') || (!strcmp(marks[m], "call, ") && !quoted) ||
			    (!strcmp(marks[m], "call,\n") && !quoted))
				continue;
			size_t j;
			for (j = 0; j < n && strcmp(out[j], name); j++)
				;
			if (j == n && n < max)
				snprintf(out[n++], 48, "%s", name);
		}
	return n;
}

static void test_capture_origins_described(void)
{
	static const char *const emitters[] = {
		"src/capture/inject/attnprof_nvtx.h", "src/capture/python/attnprof_hook/__init__.py",
		"src/capture/inject/inject.c", "src/capture/group.h",
	};
	char names[32][48];
	size_t n = 0;
	for (size_t i = 0; i < sizeof emitters / sizeof emitters[0]; i++)
		n = scan_origins(emitters[i], names, n, 32);
	if (!n)
		SKIP("emitter sources not found");
	int c_helper = 0, jax = 0, scan = 0, nvtx = 0;
	for (size_t i = 0; i < n; i++) {
		if (!capture_origin_how(names[i]))
			printf("    origin '%s' has no description row (src/doc/inputs.c capture_origins)\n", names[i]);
		CHECK(capture_origin_how(names[i]) != NULL);
		c_helper |= !strcmp(names[i], "c-helper");
		jax |= !strcmp(names[i], "jax-helper");
		scan |= !strcmp(names[i], "family-scan-aux");
		nvtx |= !strcmp(names[i], "nvtx");
	}
	/* the scan finds what each emitter writes */
	CHECK(c_helper && jax && scan && nvtx);
	CHECK(n >= 9);
	CHECK(capture_origin_how("no-such-origin") == NULL);
}

/* A descriptor's evidence that names no quantity is an error, not a dropped line. */
static void test_evidence_unknown_quantity(void)
{
	char why[200];
	for (size_t i = 0; i < variant_count; i++) {
		CHECK_INT(ablation_evidence_check(variant_table[i], why, sizeof why), 0);
	}
	struct variant_desc bad = *variant_table[0];
	memset(bad.evidence, 0, sizeof bad.evidence);
	bad.evidence[0].quantity = "smem_wavefronts";
	bad.evidence[0].label = "shared";
	bad.evidence[1].quantity = "no_such_quantity";
	bad.evidence[1].label = "nothing";
	CHECK_INT(ablation_evidence_check(&bad, why, sizeof why), -1);
	CHECK_CONTAINS(why, "'no_such_quantity'");
	CHECK_CONTAINS(why, bad.name);
	struct rung g = { .v = &bad };
	char l1[100] = "x", l2[100] = "y";
	CHECK_INT(ablation_evidence(NULL, &g, l1, sizeof l1, l2, sizeof l2), -1);
	CHECK(!l1[0] && !l2[0]);
}

TESTS(test_inline_styles, test_refs, test_refs_sheets, test_capture_roles, test_review_blocks, test_quoted_ranges_match_tables,
      test_when_and_availability, test_same_input_same_model, test_template_error, test_caption_at_figure_conditions,
      test_table_kinds, test_metric_quantity_units, test_records_resolved, test_capture_origins_described,
      test_evidence_unknown_quantity)
