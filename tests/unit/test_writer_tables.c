/* test_writer_tables.c: the Markdown and HTML writers' tables are the
 * model's tables, row for row and column for column.
 *
 * Each document is built twice: once as the model (docmodel_build), once
 * written by report_markdown and report_html.  The written files are read
 * back as a reader would (Markdown pipe rows with their escapes, HTML
 * <th>/<td> cells with their entities) and every table is compared with
 * the model's: its number, its header, its row count, every cell.  A writer
 * that drops a row or a column, reorders them or loses a cell fails.
 */
#include "check.h"

#if ATTNPROF_HAVE_RENDER
#include <stdlib.h>
#include <unistd.h>

#include "doc/docmodel.h"
#include "render/render.h"
#include "util/file.h"

#define MAXCELLS 64

struct doc {
	struct template t;
	struct rinputs in;
	struct rdata rd;
	struct docmodel m;
};

static int load(struct doc *d, const char *tpl, const char *const *files, size_t n)
{
	memset(d, 0, sizeof(*d));
	if (template_load(&d->t, tpl))
		return -1;
	if (rinputs_load(&d->in, files, n, NULL, 0, NULL)) {
		template_release(&d->t);
		return -1;
	}
	rdata_init_inputs(&d->rd, &d->in);
	return docmodel_build(&d->m, &d->t, &d->rd, 1);
}

static void unload(struct doc *d)
{
	docmodel_release(&d->m);
	rinputs_release(&d->in);
	template_release(&d->t);
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *s = malloc((size_t)n + 1);
	if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
		free(s);
		s = NULL;
	}
	if (s)
		s[n] = '\0';
	fclose(f);
	return s;
}

/* &amp; &lt; &gt; &quot; back to their characters, in place */
static void unentity(char *s)
{
	static const struct { const char *e; char c; } ents[] = {
		{ "&amp;", '&' }, { "&lt;", '<' }, { "&gt;", '>' }, { "&quot;", '"' },
	};
	char *w = s;
	for (const char *r = s; *r;) {
		size_t k = 0, n = sizeof ents / sizeof ents[0];
		for (; k < n; k++)
			if (!strncmp(r, ents[k].e, strlen(ents[k].e)))
				break;
		if (k < n) {
			*w++ = ents[k].c;
			r += strlen(ents[k].e);
		} else {
			*w++ = *r++;
		}
	}
	*w = '\0';
}

/* The model's cell as the writers show it: a flagged row's first cell
 * marked (Markdown), a line break a space. */
static void model_cell(const struct dtable *T, int r, int c, int md, char *out, size_t len)
{
	snprintf(out, len, "%s%s", md && r >= 0 && T->bad[r] && c == 0 ? "⚠ " : "", r < 0 ? T->head[c] : T->cell[r][c]);
	for (char *p = out; md && *p; p++)
		if (*p == '\n')
			*p = ' ';
}

/* ---- Markdown ---- */

/* One pipe row "| a | b\|c |" into cells (escapes undone); the count, -1 not a row. */
static int md_row(const char *line, const char *end, char cells[][TCELL + 32], int max)
{
	if (line >= end || *line != '|')
		return -1;
	int n = 0;
	const char *p = line + 1;
	while (p < end && n < max) {
		char buf[TCELL + 32];
		size_t w = 0;
		while (p < end && *p != '|') {
			if (*p == '\\' && p + 1 < end)
				p++;
			if (w + 1 < sizeof buf)
				buf[w++] = *p;
			p++;
		}
		if (p >= end)
			break; /* no closing bar: not a cell */
		buf[w] = '\0';
		/* " text " */
		char *s = buf;
		if (*s == ' ')
			s++;
		size_t l = strlen(s);
		if (l && s[l - 1] == ' ')
			s[--l] = '\0';
		unentity(s);
		snprintf(cells[n++], TCELL + 32, "%s", s);
		p++;
	}
	return n;
}

static const char *next_line(const char *p) { const char *e = strchr(p, '\n'); return e ? e + 1 : p + strlen(p); }
static const char *line_end(const char *p) { const char *e = strchr(p, '\n'); return e ? e : p + strlen(p); }

/* Table n of the Markdown text against T: 0 equal, else prints the first difference. */
static int md_table_equal(const char *md, int n, const struct dtable *T)
{
	char anchor[48];
	snprintf(anchor, sizeof anchor, "<a id=\"tab%d\"></a>", n);
	const char *p = strstr(md, anchor);
	if (!p) {
		printf("    markdown: table %d not found\n", n);
		return -1;
	}
	/* the header row: the first line that starts with '|' */
	while (*p && *p != '|')
		p = next_line(p);
	static char cells[MAXCELLS][TCELL + 32];
	char want[TCELL + 32];
	int nc = md_row(p, line_end(p), cells, MAXCELLS);
	if (nc != T->ncols) {
		printf("    markdown table %d: %d columns, the model %d\n", n, nc, T->ncols);
		return -1;
	}
	for (int c = 0; c < nc; c++) {
		model_cell(T, -1, c, 1, want, sizeof want);
		if (strcmp(cells[c], want)) {
			printf("    markdown table %d: header %d \"%s\", the model \"%s\"\n", n, c, cells[c], want);
			return -1;
		}
	}
	p = next_line(next_line(p)); /* past the alignment row */
	int r = 0;
	for (; *p == '|'; p = next_line(p), r++) {
		int k = md_row(p, line_end(p), cells, MAXCELLS);
		if (r >= T->nrows) {
			printf("    markdown table %d: more rows than the model's %d\n", n, T->nrows);
			return -1;
		}
		if (k != T->ncols) {
			printf("    markdown table %d row %d: %d cells, the model %d\n", n, r, k, T->ncols);
			return -1;
		}
		for (int c = 0; c < k; c++) {
			model_cell(T, r, c, 1, want, sizeof want);
			if (strcmp(cells[c], want)) {
				printf("    markdown table %d row %d col %d: \"%s\", the model \"%s\"\n", n, r, c, cells[c], want);
				return -1;
			}
		}
	}
	if (r != T->nrows) {
		printf("    markdown table %d: %d rows, the model %d\n", n, r, T->nrows);
		return -1;
	}
	return 0;
}

/* ---- HTML ---- */

/* The text of every <th>/<td> between p and end, in order; the count. */
static int html_cells(const char *p, const char *end, const char *tag, char cells[][TCELL + 32], int max)
{
	char open[8], close[8];
	snprintf(open, sizeof open, "<%s", tag);
	snprintf(close, sizeof close, "</%s>", tag);
	int n = 0;
	for (;;) {
		const char *a = strstr(p, open);
		if (!a || a >= end || n >= max)
			break;
		const char *gt = strchr(a, '>');
		const char *b = gt ? strstr(gt, close) : NULL;
		if (!b || b > end)
			break;
		size_t l = (size_t)(b - gt - 1);
		if (l >= TCELL + 32)
			l = TCELL + 31;
		memcpy(cells[n], gt + 1, l);
		cells[n][l] = '\0';
		unentity(cells[n]);
		n++;
		p = b + strlen(close);
	}
	return n;
}

static int html_table_equal(const char *html, int n, const struct dtable *T)
{
	char anchor[48];
	snprintf(anchor, sizeof anchor, "<table id=\"tab%d\">", n);
	const char *p = strstr(html, anchor);
	const char *end = p ? strstr(p, "</table>") : NULL;
	if (!p || !end) {
		printf("    html: table %d not found\n", n);
		return -1;
	}
	static char cells[MAXCELLS][TCELL + 32];
	char want[TCELL + 32];
	int r = -1; /* the header row first */
	for (const char *tr = strstr(p, "<tr"); tr && tr < end; tr = strstr(tr + 3, "<tr"), r++) {
		const char *tre = strstr(tr, "</tr>");
		if (!tre || tre > end)
			break;
		if (r >= T->nrows) {
			printf("    html table %d: more rows than the model's %d\n", n, T->nrows);
			return -1;
		}
		int k = html_cells(tr, tre, r < 0 ? "th" : "td", cells, MAXCELLS);
		if (k != T->ncols) {
			printf("    html table %d row %d: %d cells, the model %d\n", n, r, k, T->ncols);
			return -1;
		}
		for (int c = 0; c < k; c++) {
			model_cell(T, r, c, 0, want, sizeof want);
			if (strcmp(cells[c], want)) {
				printf("    html table %d row %d col %d: \"%s\", the model \"%s\"\n", n, r, c, cells[c], want);
				return -1;
			}
		}
	}
	if (r != T->nrows) {
		printf("    html table %d: %d rows, the model %d\n", n, r, T->nrows);
		return -1;
	}
	return 0;
}

/* Write d's document as Markdown and HTML; compare every model table with
 * both.  The number of tables compared. */
static int compare_writers(struct doc *d, const char *name)
{
	char dir[] = "/tmp/attnprof-wtables-XXXXXX";
	if (!mkdtemp(dir))
		return -1;
	char md_path[128], html_path[128];
	snprintf(md_path, sizeof md_path, "%s/%s.md", dir, name);
	snprintf(html_path, sizeof html_path, "%s/%s.html", dir, name);
	struct report_opts o = { .out = md_path, .quiet = 1 };
	struct report_stats st;
	CHECK_INT(report_markdown(&d->t, &d->rd, &o, &st), 0);
	o.out = html_path;
	CHECK_INT(report_html(&d->t, &d->rd, &o, &st), 0);
	char *md = slurp(md_path), *html = slurp(html_path);
	CHECK(md && html);
	int compared = 0;
	for (size_t i = 0; md && html && i < d->m.n; i++) {
		const struct dblock *b = &d->m.b[i];
		if (b->kind != D_TABLE || !b->table)
			continue;
		CHECK_INT(md_table_equal(md, b->number, b->table), 0);
		CHECK_INT(html_table_equal(html, b->number, b->table), 0);
		compared++;
	}
	free(md);
	free(html);
	char cmd[200];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		printf("    could not remove %s\n", dir);
	return compared;
}

static void test_review_tables(void)
{
	const char *files[] = { "tests/fixtures/results-small.yaml" };
	struct doc d;
	if (load(&d, "templates/review.yaml", files, 1)) {
		unload(&d);
		SKIP("fixture or template missing");
	}
	int n = compare_writers(&d, "review");
	/* the fixture's review draws most table kinds: a test that compared none would pass on nothing */
	CHECK(n >= 8);
	unload(&d);
}

static void test_capture_tables(void)
{
	const char *files[] = { "tests/fixtures/capture-small.yaml", "tests/fixtures/capture-reference.yaml" };
	struct doc d;
	if (load(&d, "templates/impl-review.yaml", files, 2)) {
		unload(&d);
		SKIP("fixture or template missing");
	}
	CHECK(compare_writers(&d, "impl") >= 2);
	unload(&d);
}

/* The reader itself fails on a table that lost a row or a column: the
 * model's first table, written with its last row and column cut. */
static void test_dropped_row_and_column_fail(void)
{
	const char *files[] = { "tests/fixtures/results-small.yaml" };
	struct doc d;
	if (load(&d, "templates/review.yaml", files, 1)) {
		unload(&d);
		SKIP("fixture or template missing");
	}
	const struct dblock *tb = NULL;
	for (size_t i = 0; i < d.m.n && !tb; i++)
		if (d.m.b[i].kind == D_TABLE && d.m.b[i].table && d.m.b[i].table->nrows > 1 && d.m.b[i].table->ncols > 1)
			tb = &d.m.b[i];
	CHECK(tb != NULL);
	if (tb) {
		const struct dtable *T = tb->table;
		char md[65536], html[65536];
		size_t m = 0, h = 0;
		m += (size_t)snprintf(md + m, sizeof md - m, "<a id=\"tab%d\"></a>\n\n|", tb->number);
		h += (size_t)snprintf(html + h, sizeof html - h, "<table id=\"tab%d\">\n<tr>", tb->number);
		for (int c = 0; c + 1 < T->ncols; c++) {
			m += (size_t)snprintf(md + m, sizeof md - m, " %s |", T->head[c]);
			h += (size_t)snprintf(html + h, sizeof html - h, "<th>%s</th>", T->head[c]);
		}
		m += (size_t)snprintf(md + m, sizeof md - m, "\n| --- |\n");
		h += (size_t)snprintf(html + h, sizeof html - h, "</tr>\n");
		for (int r = 0; r + 1 < T->nrows && m < sizeof md - TCELL * 16 && h < sizeof html - TCELL * 16; r++) {
			m += (size_t)snprintf(md + m, sizeof md - m, "|");
			h += (size_t)snprintf(html + h, sizeof html - h, "<tr>");
			for (int c = 0; c + 1 < T->ncols; c++) {
				m += (size_t)snprintf(md + m, sizeof md - m, " %s |", T->cell[r][c]);
				h += (size_t)snprintf(html + h, sizeof html - h, "<td>%s</td>", T->cell[r][c]);
			}
			m += (size_t)snprintf(md + m, sizeof md - m, "\n");
			h += (size_t)snprintf(html + h, sizeof html - h, "</tr>\n");
		}
		snprintf(html + h, sizeof html - h, "</table>\n");
		printf("    (expected: the cut table is told apart)\n");
		CHECK(md_table_equal(md, tb->number, T) != 0);
		CHECK(html_table_equal(html, tb->number, T) != 0);
	}
	unload(&d);
}

TESTS(test_review_tables, test_capture_tables, test_dropped_row_and_column_fail)
#else
static void test_built_without_render(void) { SKIP("built without the renderer"); }
TESTS(test_built_without_render)
#endif
