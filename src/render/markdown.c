/* markdown.c: the document model as GitHub-flavoured Markdown, the third
 * writer beside report.c's PDF and html.c's page.  The same model, the same
 * numbers; headings, paragraphs, bullets and notes as Markdown, tables as
 * pipe tables from their owned rows, each figure drawn once as an SVG file in
 * NAME_files/ beside the file and linked as an image with its caption.
 * Pango markup maps to Markdown where Markdown has it (bold, italic, code)
 * and to the inline HTML GitHub renders (sub, sup); the rest is dropped.
 * Written whole or not at all (outfile), with its figures, as every output is.
 */
#include "render/render.h"

#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* Text between tags: the markup's entities stay entities (Markdown reads
 * them); the rest is escaped as plain text is. */
static void put_run(FILE *f, const char *s, const char *e)
{
	while (s < e) {
		if (*s == '&') { /* an entity of the markup, kept whole */
			const char *semi = memchr(s, ';', (size_t)(e - s));
			size_t n = semi ? (size_t)(semi - s) + 1 : 1;
			fwrite(s, 1, n, f);
			s += n;
			continue;
		}
		const char *amp = memchr(s, '&', (size_t)(e - s));
		char *run = strndup(s, (size_t)((amp ? amp : e) - s));
		put_text(f, run, 0);
		free(run);
		s = amp ? amp : e;
	}
}

static void put_rest(FILE *f, const char *s)
{
	put_text(f, s, 0);
}

/* Pango markup to Markdown where Markdown has it, GitHub's inline HTML for sub and sup. */
static void put_markup(FILE *f, const char *s)
{
	static const char *const tags[][3] = {
		{ "b", "**", "**" }, { "i", "_", "_" }, { "tt", "`", "`" }, { "sub", "<sub>", "</sub>" },
		{ "sup", "<sup>", "</sup>" }, { "s", "~~", "~~" },
	};
	static const struct markup_out out = { put_run, put_rest, tags, sizeof tags / sizeof tags[0] };
	page_markup(f, s, &out);
}

/* One paragraph on one line (Markdown joins its lines anyway); a note as a quote. */
static void put_paragraph(FILE *f, char *one, int note)
{
	for (char *q = one; *q; q++)
		if (*q == '\n')
			*q = ' ';
	fputs(note ? "> " : "", f);
	put_markup(f, one);
	fputs("\n\n", f);
}

static void put_table(FILE *f, const struct dblock *b)
{
	const struct dtable *T = b->table;
	fprintf(f, "<a id=\"tab%d\"></a>\n\n**Table %d.** ", b->number, b->number);
	put_text(f, b->table_title, 0);
	fputs(".", f);
	if (b->caption) {
		fputc(' ', f);
		put_markup(f, b->caption);
	}
	fputs("\n\n|", f);
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
	if (T->note[0]) {
		fputc('_', f);
		put_text(f, T->note, 1);
		fputs("_\n\n", f);
	}
}

/* Figure block b, drawn into the folder as file: its image with the caption. */
static void put_figure(struct page *p, const struct dblock *b, const char *file, const char *title)
{
	fprintf(p->f, "<a id=\"fig%d\"></a>\n\n![Figure %d](%s/%s)\n\n**Figure %d.** ", b->number, b->number, p->dirname,
		file, b->number);
	if (b->caption)
		put_markup(p->f, b->caption);
	else
		put_text(p->f, title, 0);
	fputs("\n\n", p->f);
}

static const struct page_writer markdown_writer;

static void put_begin(struct page *p)
{
	const struct docmodel *m = &p->m;
	fputs("# ", p->f);
	put_markup(p->f, m->title);
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
static void put_contents(struct page *p, const struct dblock *b, const struct template *t, const struct rdata *rd)
{
	(void)t, (void)rd;
	const struct docmodel *m = &p->m;
	FILE *f = p->f;
	fputs("**", f);
	put_markup(f, b->text && b->text[0] ? b->text : "Contents");
	fputs("**\n\n", f);
	for (size_t k = 0, n = 0; k < m->n; k++)
		if (m->b[k].kind == D_SECTION && m->b[k].text && m->b[k].text[0] && m->b[k].number > 0) {
			fprintf(f, "%zu. [", ++n);
			put_markup(f, m->b[k].text);
			fprintf(f, "](#s%d)\n", m->b[k].number);
		}
	fputc('\n', f);
}

static const struct page_writer markdown_writer = {
	.ext = ".md", .begin = put_begin, .markup = put_markup, .paragraph = put_paragraph,
	.section = put_section, .section_end = "\n\n", .sub = { "### ", "\n\n" },
	.list = { "", "\n" }, .item = { "- ", "\n" },
	.contents = put_contents, .figure = put_figure, .table = put_table,
};

int report_markdown(const struct template *t, struct rdata *rd, const struct report_opts *o,
		    struct report_stats *stats)
{
	return page_write(&markdown_writer, t, rd, o, stats);
}
