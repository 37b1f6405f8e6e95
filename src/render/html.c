/* html.c: the document model as one HTML page, the second back end beside
 * report.c's PDF.  The model (docmodel.h) is the PDF's, unchanged: the same
 * walk, the same `when:`, the same numbers.  Only the writing differs:
 * headings, paragraphs, bullets and notes as elements (the model's inline
 * text, doc/inline.h, with its styles as b, i and code), tables from their owned rows, and each figure drawn once as an
 * SVG file in a folder beside the page (NAME_files/), with its caption.
 * Figures and tables carry ids (fig3, tab2); a figure's alt text is its
 * caption and its numbers, and the records it draws follow as a table
 * (doc/figdata.h);
 * "Figure 3" or "Table 2" in the text links to them, and the contents list
 * them after the sections.
 * The page is written whole or not at all (outfile), as every output is.
 */
#include "render/render.h"

#include <errno.h>
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "doc/figdata.h"
#include "doc/inline.h"
#include "render/page.h"

/* Text with & < > escaped, and " where quote is set (text that may stand in an attribute). */
static void put_escaped(FILE *f, const char *s, const char *end, int quote)
{
	for (; s < end; s++) {
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs(quote ? "&quot;" : "\"", f); break;
		default: fputc(*s, f);
		}
	}
}

/* Text, escaped.  Text cut by bytes before it got here ends at its last
 * whole character, marked "…": the page stays valid UTF-8. */
static void put_text(FILE *f, const char *s)
{
	const char *bad;
	if (!s)
		return;
	if (g_utf8_validate(s, -1, &bad)) {
		put_escaped(f, s, s + strlen(s), 1);
		return;
	}
	put_escaped(f, s, bad, 1);
	fputs("…", f);
}

/* The document's figure and table numbers, for links: "Figure 3" becomes a
 * link to #fig3 when figure 3 exists (set while the page is written). */
static int nfigures_linked, ntables_linked;

/* Text, & < > escaped, with "Figure N", "Fig. N" and "Table N" linked to their elements. */
static void put_linked(FILE *f, const char *s, const char *end)
{
	static const struct { const char *word, *id; int *max; } refs[] = {
		{ "Figure ", "fig", &nfigures_linked }, { "Fig. ", "fig", &nfigures_linked },
		{ "Table ", "tab", &ntables_linked },
	};
	while (s < end) {
		size_t k, n = 0;
		for (k = 0; k < sizeof refs / sizeof refs[0]; k++) {
			n = strlen(refs[k].word);
			if ((size_t)(end - s) > n && !strncmp(s, refs[k].word, n) && s[n] >= '1' && s[n] <= '9')
				break;
		}
		if (k == sizeof refs / sizeof refs[0]) {
			put_escaped(f, s, s + 1, 0);
			s++;
			continue;
		}
		char *e;
		long no = strtol(s + n, &e, 10);
		if (e > end || no > *refs[k].max) {
			fwrite(s, 1, (size_t)(e - s), f);
		} else {
			fprintf(f, "<a href=\"#%s%ld\">", refs[k].id, no);
			fwrite(s, 1, (size_t)(e - s), f);
			fputs("</a>", f);
		}
		s = e;
	}
}

/* Inline text without its styles: alt text. */
static void put_plain(FILE *f, const char *s)
{
	char *plain = inline_plain(s);
	put_text(f, plain);
	free(plain);
}

static void html_text(void *f, const char *s, size_t n) { put_linked(f, s, s + n); }

static void html_style(void *f, enum inline_style s, int open)
{
	static const char *const tag[INLINE_STYLES] = { "b", "i", "code" };
	fprintf(f, open ? "<%s>" : "</%s>", tag[s]);
}

/* The model's inline text as HTML. */
static void put_inline(FILE *f, const char *s)
{
	static const struct inline_out out = { html_text, html_style };
	inline_walk(s, &out, f);
}

static void put_paragraph(FILE *f, char *one, int note)
{
	fputs(note ? "<p class=\"note\">" : "<p>", f);
	put_inline(f, one);
	fputs("</p>\n", f);
}

/* T's head and rows, after its <table> and caption. */
static void put_rows(FILE *f, const struct dtable *T)
{
	fputs("<tr>", f);
	for (int c = 0; c < T->ncols; c++) {
		fprintf(f, T->right[c] ? "<th class=\"num\">" : "<th>");
		put_text(f, T->head[c]);
		fputs("</th>", f);
	}
	fputs("</tr>\n", f);
	for (int r = 0; r < T->nrows; r++) {
		fputs(T->bad[r] ? "<tr class=\"bad\">" : "<tr>", f);
		for (int c = 0; c < T->ncols; c++) {
			fprintf(f, T->right[c] ? "<td class=\"num\">" : "<td>");
			put_text(f, T->cell[r][c]);
			fputs("</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

static void put_table(FILE *f, const struct dblock *b)
{
	const struct dtable *T = b->table;
	fprintf(f, "<table id=\"tab%d\">\n<caption><b>Table %d.</b> ", b->number, b->number);
	put_text(f, b->table_title);
	fputs(".", f);
	if (b->caption) {
		fputc(' ', f);
		put_inline(f, b->caption);
	}
	fputs("</caption>\n", f);
	put_rows(f, T);
	if (T->note[0]) {
		fputs("<p class=\"tnote\">", f);
		put_text(f, T->note);
		fputs("</p>\n", f);
	}
}

/* Figure block b, drawn into the folder as file: its element, its data
 * (the records it drew, doc/figdata.h) in the alt text and as a table
 * under the caption. */
static void put_figure(struct page *p, const struct dblock *b, const char *file, const struct dtable *data)
{
	FILE *f = p->f;
	fprintf(f, "<figure id=\"fig%d\">\n<img src=\"", b->number);
	page_put_link(f, p->dirname, file);
	/* alt text: what the caption says the figure shows, then its numbers */
	static char alt[FIGURE_ALT_MAX];
	figure_alt(b, data, alt, sizeof alt);
	fputs("\" alt=\"", f);
	put_text(f, alt);
	fprintf(f, "\">\n<figcaption><b>Figure %d.</b> ", b->number);
	if (b->caption)
		put_inline(f, b->caption);
	else
		put_text(f, b->title);
	fputs("</figcaption>\n", f);
	if (data->nrows) {
		fprintf(f, "<details><summary>The data of Figure %d (%d row%s)</summary>\n<table class=\"figdata\">\n",
			b->number, data->nrows, data->nrows == 1 ? "" : "s");
		put_rows(f, data);
		if (data->note[0]) {
			fputs("<p class=\"tnote\">", f);
			put_text(f, data->note);
			fputs("</p>\n", f);
		}
		fputs("</details>\n", f);
	}
	fputs("</figure>\n", f);
}

static const char *page_style =
	"body{font-family:'DejaVu Sans',sans-serif;max-width:52em;margin:2em auto;padding:0 1em;line-height:1.45;color:#222}"
	"h1{font-size:1.7em}h2{margin-top:1.6em}figure{margin:1.5em 0}figure img{max-width:100%}"
	"figcaption,caption,.tnote,.meta{font-size:.88em;color:#444}caption{text-align:left;padding:.3em 0}"
	"table{border-collapse:collapse;margin:1em 0;font-size:.9em}th,td{padding:.2em .6em;border-bottom:1px solid #ccc}"
	"th{text-align:left}.num{text-align:right;white-space:nowrap}tr.bad td{color:#a00}.note{font-style:italic}"
	"nav ol{padding-left:1.2em}details{font-size:.88em}table.figdata td:last-child{white-space:nowrap}";

static void put_section(FILE *f, int number)
{
	fprintf(f, "<h2 id=\"s%d\">", number);
}

static void put_begin(struct page *p)
{
	const struct docmodel *m = &p->m;
	FILE *f = p->f;
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>", f);
	put_text(f, m->title_plain ? m->title_plain : "attnprof report");
	fprintf(f, "</title>\n<style>%s</style>\n</head>\n<body>\n<h1>", page_style);
	put_inline(f, m->title);
	fputs("</h1>\n", f);
	if (m->subtitle) {
		fputs("<p class=\"subtitle\">", f);
		put_inline(f, m->subtitle);
		fputs("</p>\n", f);
	}
	if (m->meta) {
		fputs("<p class=\"meta\">", f);
		put_inline(f, m->meta);
		fputs("</p>\n", f);
	}
	nfigures_linked = ntables_linked = 0;
	for (size_t i = 0; i < m->n; i++) {
		if (m->b[i].kind == D_FIGURE && m->b[i].number > nfigures_linked)
			nfigures_linked = m->b[i].number;
		if (m->b[i].kind == D_TABLE && m->b[i].table && m->b[i].number > ntables_linked)
			ntables_linked = m->b[i].number;
	}
}

static void put_end(struct page *p)
{
	fputs("</body>\n</html>\n", p->f);
}

/* The sections, linked (a page has no page numbers), then the figures and
 * tables, each linked by its title. */
static void put_contents(struct page *p, const struct dblock *b)
{
	const struct docmodel *m = &p->m;
	FILE *f = p->f;
	fputs("<nav><h2>", f);
	put_inline(f, b->text && b->text[0] ? b->text : "Contents");
	fputs("</h2>\n<ol>\n", f);
	for (size_t k = 0; k < m->n; k++)
		if (m->b[k].kind == D_SECTION && m->b[k].text && m->b[k].text[0] && m->b[k].number > 0) {
			fprintf(f, "<li><a href=\"#s%d\">", m->b[k].number);
			put_inline(f, m->b[k].text);
			fputs("</a></li>\n", f);
		}
	fputs("</ol>\n", f);
	for (int kind = 0; kind < 2; kind++) {
		int any = 0;
		for (size_t k = 0; k < m->n; k++) {
			const struct dblock *x = &m->b[k];
			if (kind == 0 ? x->kind != D_FIGURE : x->kind != D_TABLE || !x->table)
				continue;
			if (!any++)
				fprintf(f, "<h3>%s</h3>\n<ol class=\"refs\">\n", kind ? "Tables" : "Figures");
			fprintf(f, "<li><a href=\"#%s%d\">%s %d</a> ", kind ? "tab" : "fig", x->number,
				kind ? "Table" : "Figure", x->number);
			if (kind)
				put_text(f, x->table_title);
			else if (x->caption)
				put_plain(f, x->caption);
			else
				put_text(f, x->title);
			fputs("</li>\n", f);
		}
		if (any)
			fputs("</ol>\n", f);
	}
	fputs("</nav>\n", f);
}

static const struct page_writer html_writer = {
	.ext = ".html", .begin = put_begin, .end = put_end, .inline_text = put_inline, .paragraph = put_paragraph,
	.section = put_section, .section_end = "</h2>\n", .sub = { "<h3>", "</h3>\n" },
	.list = { "<ul>\n", "</ul>\n" }, .item = { "<li>", "</li>\n" },
	.contents = put_contents, .figure = put_figure, .table = put_table,
};

int report_html(const struct template *t, struct rdata *rd, const struct report_opts *o, struct report_stats *stats)
{
	return page_write(&html_writer, t, rd, o, stats);
}
