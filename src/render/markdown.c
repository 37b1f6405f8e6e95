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

/* Pango markup to Markdown.  Its entities stay entities (Markdown reads
 * them); text between tags is escaped as plain text is. */
static void put_markup(FILE *f, const char *s)
{
	static const struct { const char *pango, *open, *close; } tags[] = {
		{ "b", "**", "**" }, { "i", "_", "_" }, { "tt", "`", "`" }, { "sub", "<sub>", "</sub>" },
		{ "sup", "<sup>", "</sup>" }, { "s", "~~", "~~" },
	};
	while (s && *s) {
		if (*s == '&') { /* an entity of the markup, kept whole */
			const char *e = strchr(s, ';');
			size_t n = e ? (size_t)(e - s) + 1 : 1;
			fwrite(s, 1, n, f);
			s += n;
			continue;
		}
		if (*s != '<') {
			const char *e = s + strcspn(s, "<&");
			char *run = strndup(s, (size_t)(e - s));
			put_text(f, run, 0);
			free(run);
			s = e;
			continue;
		}
		const char *end = strchr(s, '>');
		if (!end) {
			put_text(f, s, 0);
			return;
		}
		int closing = s[1] == '/';
		const char *name = s + 1 + closing;
		size_t n = strcspn(name, " \t>/");
		for (size_t i = 0; i < sizeof tags / sizeof tags[0]; i++)
			if (strlen(tags[i].pango) == n && !strncmp(name, tags[i].pango, n))
				fputs(closing ? tags[i].close : tags[i].open, f);
		s = end + 1;
	}
}

/* Paragraphs of a block's text (separated by blank lines), each prefixed. */
static void put_paragraphs(FILE *f, const char *text, const char *prefix)
{
	const char *p = text ? text : "";
	while (*p) {
		const char *e = strstr(p, "\n\n");
		size_t n = e ? (size_t)(e - p) : strlen(p);
		char *one = strndup(p, n);
		if (one && one[strspn(one, " \n")]) {
			for (char *q = one; *q; q++) /* one paragraph, one line: Markdown joins them anyway */
				if (*q == '\n')
					*q = ' ';
			fputs(prefix, f);
			put_markup(f, one);
			fputs("\n\n", f);
		}
		free(one);
		p += n;
		while (*p == '\n')
			p++;
	}
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

/* Figure block b as an SVG in the folder, and its image with the caption. */
static int put_figure(struct page *p, const struct dblock *b, const struct template *t, const struct rdata *rd,
		      double dpi)
{
	char file[610], title[600];
	int rc = page_figure(p, b, t, rd, dpi, file, sizeof file, title, sizeof title);
	if (rc)
		return rc;
	fprintf(p->f, "<a id=\"fig%d\"></a>\n\n![Figure %d](%s/%s)\n\n**Figure %d.** ", b->number, b->number, p->dirname,
		file, b->number);
	if (b->caption)
		put_markup(p->f, b->caption);
	else
		put_text(p->f, title, 0);
	fputs("\n\n", p->f);
	return 0;
}

int report_markdown(const struct template *t, struct rdata *rd, const struct report_opts *o,
		    struct report_stats *stats)
{
	struct page p;
	int rc = page_open(&p, t, rd, o, ".md");
	if (rc)
		return rc;
	const struct docmodel *m = &p.m;
	FILE *f = p.f;
	fputs("# ", f);
	put_markup(f, m->title);
	fputs("\n\n", f);
	if (m->subtitle)
		put_paragraphs(f, m->subtitle, "");
	if (m->meta)
		put_paragraphs(f, m->meta, "");
	int figures = 0, tables = 0;
	for (size_t i = 0; i < m->n && !rc; i++) {
		const struct dblock *b = &m->b[i];
		switch (b->kind) {
		case D_SECTION:
			if (b->text && b->text[0]) {
				fprintf(f, "<a id=\"s%d\"></a>\n\n## ", b->number);
				if (t->layout == LAYOUT_ARTICLE && b->number > 0)
					fprintf(f, "%d ", b->number);
				put_markup(f, b->text);
				fputs("\n\n", f);
			}
			break;
		case D_SUBHEADING:
			fputs("### ", f);
			put_markup(f, b->text);
			fputs("\n\n", f);
			break;
		case D_PARA:
			put_paragraphs(f, b->text, "");
			break;
		case D_NOTE:
			put_paragraphs(f, b->text, "> ");
			break;
		case D_BULLETS:
			for (size_t k = 0; k < b->nitems; k++) {
				fputs("- ", f);
				put_markup(f, b->items[k]);
				fputc('\n', f);
			}
			fputc('\n', f);
			break;
		case D_CONTENTS: /* the sections, linked by their anchors */
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
			break;
		case D_FIGURE:
			rc = put_figure(&p, b, t, rd, o->dpi);
			figures++;
			break;
		case D_TABLE:
			if (b->table) {
				put_table(f, b);
				tables++;
			}
			break;
		default: /* page breaks, the patent brief: print matters only */
			break;
		}
	}
	return page_close(&p, rc, figures, tables, o->out, stats);
}
