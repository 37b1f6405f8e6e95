/* markdown.c: the document model as GitHub-flavoured Markdown, the third
 * writer beside report.c's PDF and html.c's page.  The same model, the same
 * numbers; headings, paragraphs, bullets and notes as Markdown, tables as
 * pipe tables from their owned rows, each figure drawn once as an SVG file in
 * NAME_files/ beside the file and linked as an image with its caption.
 * The model's inline text (doc/inline.h) keeps its styles as Markdown's
 * bold, italic and code.
 * Written whole or not at all (outfile), with its figures, as every output is.
 */
#include "render/render.h"

#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doc/figdata.h"
#include "doc/inline.h"
#include "render/page.h"

/* Plain text: Markdown's own characters escaped, & < > as entities; in a
 * table cell also | and line breaks.  A cut that left a partial character
 * ends at the last whole one, marked "…". */
static void put_text(FILE *f, const char *s, int cell)
{
	if (!s)
		return;
	const char *bad = NULL, *end = s + strlen(s);
	const int cut = !g_utf8_validate(s, -1, &bad);
	if (cut)
		end = bad;
	for (; s < end; s++) {
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '\\': case '*': case '_': case '`': case '[': case ']': fputc('\\', f); fputc(*s, f); break;
		case '|': fputs(cell ? "\\|" : "|", f); break;
		case '\n': fputs(cell ? " " : "\n", f); break;
		default: fputc(*s, f);
		}
	}
	if (cut)
		fputs("…", f);
}

/* Inside a code span Markdown takes every character as it is (a backslash
 * too), so code is written raw: only a backtick, which would end the span,
 * becomes a quote, and a line break a space. */
struct md_out {
	FILE *f;
	int in_code;
};

static void md_text(void *ctx, const char *s, size_t n)
{
	struct md_out *o = ctx;
	if (o->in_code) {
		for (size_t i = 0; i < n; i++)
			fputc(s[i] == '`' ? '\'' : s[i] == '\n' ? ' ' : s[i], o->f);
		return;
	}
	char *run = strndup(s, n);
	put_text(o->f, run, 0);
	free(run);
}

static void md_style(void *ctx, enum inline_style s, int open)
{
	static const char *const mark[INLINE_STYLES] = { "**", "_", "`" };
	struct md_out *o = ctx;
	if (s == INLINE_CODE)
		o->in_code = open;
	fputs(mark[s], o->f);
}

/* The model's inline text as Markdown. */
static void put_inline(FILE *f, const char *s)
{
	static const struct inline_out out = { md_text, md_style };
	struct md_out o = { f, 0 };
	inline_walk(s, &out, &o);
}

/* One paragraph on one line (Markdown joins its lines anyway); a note as a quote. */
static void put_paragraph(FILE *f, char *one, int note)
{
	for (char *q = one; *q; q++)
		if (*q == '\n')
			*q = ' ';
	fputs(note ? "> " : "", f);
	put_inline(f, one);
	fputs("\n\n", f);
}

/* T as a pipe table: its head, the alignment row, its rows and a blank line. */
static void put_rows(FILE *f, const struct dtable *T)
{
	fputc('|', f);
	for (int c = 0; c < T->ncols; c++) {
		fputc(' ', f);
		put_text(f, T->head[c], 1);
		fputs(" |", f);
	}
	fputs("\n|", f);
	for (int c = 0; c < T->ncols; c++)
		fputs(T->right[c] ? " ---: |" : " --- |", f);
	fputc('\n', f);
	for (int r = 0; r < T->nrows; r++) {
		fputc('|', f);
		for (int c = 0; c < T->ncols; c++) {
			fputc(' ', f);
			if (T->bad[r] && c == 0)
				fputs("⚠ ", f);
			put_text(f, T->cell[r][c], 1);
			fputs(" |", f);
		}
		fputc('\n', f);
	}
	fputc('\n', f);
}

static void put_table(FILE *f, const struct dblock *b)
{
	const struct dtable *T = b->table;
	fprintf(f, "<a id=\"tab%d\"></a>\n\n**Table %d.** ", b->number, b->number);
	put_text(f, b->table_title, 0);
	fputs(".", f);
	if (b->caption) {
		fputc(' ', f);
		put_inline(f, b->caption);
	}
	fputs("\n\n", f);
	put_rows(f, T);
	if (T->note[0]) {
		fputc('_', f);
		put_text(f, T->note, 1);
		fputs("_\n\n", f);
	}
}

/* Figure block b, drawn into the folder as file: its image, its alt text
 * the caption and the figure's numbers, then the caption and the records
 * it draws as a table (doc/figdata.h), folded. */
static void put_figure(struct page *p, const struct dblock *b, const char *file, const struct dtable *data)
{
	FILE *f = p->f;
	static char alt[FIGURE_ALT_MAX];
	figure_alt(b, data, alt, sizeof alt);
	fprintf(f, "<a id=\"fig%d\"></a>\n\n![", b->number);
	put_text(f, alt, 1);
	fputs("](", f);
	page_put_link(f, p->dirname, file);
	fprintf(f, ")\n\n**Figure %d.** ", b->number);
	if (b->caption)
		put_inline(f, b->caption);
	else
		put_text(f, b->title, 0);
	fputs("\n\n", f);
	if (data->nrows) {
		fprintf(f, "<details><summary>The data of Figure %d (%d row%s)</summary>\n\n", b->number, data->nrows, data->nrows == 1 ? "" : "s");
		put_rows(f, data);
		if (data->note[0]) {
			fputc('_', f);
			put_text(f, data->note, 1);
			fputs("_\n\n", f);
		}
		fputs("</details>\n\n", f);
	}
}

static const struct page_writer markdown_writer;

static void put_begin(struct page *p)
{
	const struct docmodel *m = &p->m;
	fputs("# ", p->f);
	put_inline(p->f, m->title);
	fputs("\n\n", p->f);
	if (m->subtitle)
		page_paragraphs(&markdown_writer, p->f, m->subtitle, 0);
	if (m->meta)
		page_paragraphs(&markdown_writer, p->f, m->meta, 0);
}

static void put_section(FILE *f, int number)
{
	fprintf(f, "<a id=\"s%d\"></a>\n\n## ", number);
}

/* The sections, linked by their anchors. */
static void put_contents(struct page *p, const struct dblock *b)
{
	const struct docmodel *m = &p->m;
	FILE *f = p->f;
	fputs("**", f);
	put_inline(f, b->text && b->text[0] ? b->text : "Contents");
	fputs("**\n\n", f);
	for (size_t k = 0, n = 0; k < m->n; k++)
		if (m->b[k].kind == D_SECTION && m->b[k].text && m->b[k].text[0] && m->b[k].number > 0) {
			fprintf(f, "%zu. [", ++n);
			put_inline(f, m->b[k].text);
			fprintf(f, "](#s%d)\n", m->b[k].number);
		}
	fputc('\n', f);
}

static const struct page_writer markdown_writer = {
	.ext = ".md", .begin = put_begin, .inline_text = put_inline, .paragraph = put_paragraph,
	.section = put_section, .section_end = "\n\n", .sub = { "### ", "\n\n" },
	.list = { "", "\n" }, .item = { "- ", "\n" },
	.contents = put_contents, .figure = put_figure, .table = put_table,
};

int report_markdown(const struct template *t, struct rdata *rd, const struct report_opts *o,
		    struct report_stats *stats)
{
	return page_write(&markdown_writer, t, rd, o, stats);
}
