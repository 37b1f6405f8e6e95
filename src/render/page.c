/* page.c: the one-file documents' shared frame (page.h). */
#include "render/page.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "doc/figdata.h"
#include "doc/style.h"
#include "util/error.h"

/* The model built, the folder beside o->out (extension ext) made, the page
 * opened.  0, or RENDER_FAIL / RENDER_BAD_INPUT with nothing to close. */
static int page_open(struct page *p, const struct template *t, struct rdata *rd, const struct report_opts *o,
		     const char *ext)
{
	memset(p, 0, sizeof *p);
	p->st = o->style ? o->style : style_find(t->style);
	if (!p->st)
		p->st = &style_color;
	int rc = docmodel_build(&p->m, t, rd, o->quiet);
	if (rc)
		return rc == -2 ? RENDER_BAD_INPUT : RENDER_FAIL;
	/* review.html -> review_files/ beside it */
	path_sibling(o->out, ext, "_files", p->dir, sizeof p->dir);
	const char *slash = strrchr(p->dir, '/');
	snprintf(p->dirname, sizeof p->dirname, "%s", slash ? slash + 1 : p->dir);
	if (mkdir(p->dir, 0777) && errno != EEXIST) {
		docmodel_release(&p->m);
		return error("cannot create folder '%s' for the figures: %s", p->dir, strerror(errno)), RENDER_FAIL;
	}
	int orc = outfile_open(&p->of, o->out, NULL);
	if (orc) {
		docmodel_release(&p->m);
		return orc == -2 ? RENDER_BAD_INPUT : RENDER_FAIL;
	}
	p->f = p->of.f;
	return 0;
}

/* Figure block b drawn into the folder as SVG, its file name in file, and
 * its data into T (the records it looked up while drawn, doc/figdata.h).
 * 0 or the renderer's code. */
static int page_figure(struct page *p, const struct dblock *b, const struct template *t, struct rdata *rd,
		       double dpi, char *file, size_t flen, struct dtable *T)
{
	char no[16], base[600], path[4900];
	snprintf(no, sizeof no, "%02d", b->number);
	figure_file_base(no, b->fig->name, b->fo.variant, base, sizeof base);
	snprintf(file, flen, "%s.svg", base);
	snprintf(path, sizeof path, "%s/%s", p->dir, file);
	struct figopts fo = b->fo;
	fo.glossary = &t->glossary;
	struct rtrace none = { 0 }, *was = rd->trace;
	struct rrecs seen = { 0 };
	if (!rd->trace)
		rd->trace = &none;
	rd->trace->seen = &seen;
	int rc = render_figure_file(rd, b->fig->name, &fo, p->st, path, dpi);
	rd->trace->seen = NULL;
	rd->trace = was;
	if (!rc && seen.full)
		rc = (error("out of memory keeping the records of figure %d", b->number), RENDER_FAIL);
	if (!rc)
		figure_data(rd, b, seen.r, seen.n, T);
	free(seen.r);
	return rc;
}

/* Commit the page (rc == 0 and no write error) or abort it. */
static int page_close(struct page *p, int rc, int figures, int tables, const char *out, struct report_stats *stats)
{
	if (rc || ferror(p->f)) {
		outfile_abort(&p->of);
		docmodel_release(&p->m);
		return rc ? rc : (error("cannot write '%s': %s", out, strerror(errno ? errno : EIO)), RENDER_FAIL);
	}
	rc = outfile_commit(&p->of) ? RENDER_FAIL : 0;
	if (stats) {
		stats->pages = 1;
		stats->figures = figures;
		stats->tables = tables;
		stats->missing = p->m.missing;
	}
	docmodel_release(&p->m);
	return rc;
}

void page_paragraphs(const struct page_writer *w, FILE *f, const char *text, int note)
{
	const char *p = text ? text : "";
	while (*p) {
		const char *e = strstr(p, "\n\n");
		size_t n = e ? (size_t)(e - p) : strlen(p);
		char *one = strndup(p, n);
		if (one && one[strspn(one, " \n")])
			w->paragraph(f, one, note);
		free(one);
		p += n;
		while (*p == '\n')
			p++;
	}
}

static void put_encoded(FILE *f, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '-' ||
		    *p == '.' || *p == '_' || *p == '~')
			fputc(*p, f);
		else
			fprintf(f, "%%%02X", *p);
}

void page_put_link(FILE *f, const char *dir, const char *file)
{
	put_encoded(f, dir);
	fputc('/', f);
	put_encoded(f, file);
}

int page_write(const struct page_writer *w, const struct template *t, struct rdata *rd, const struct report_opts *o,
	       struct report_stats *stats)
{
	struct page p;
	int rc = page_open(&p, t, rd, o, w->ext);
	if (rc)
		return rc;
	const struct docmodel *m = &p.m;
	FILE *f = p.f;
	w->begin(&p);
	int figures = 0, tables = 0;
	struct dtable *data = NULL; /* a figure's, one at a time (large: TROWS rows) */
	for (size_t i = 0; i < m->n && !rc; i++) {
		const struct dblock *b = &m->b[i];
		switch (b->kind) {
		case D_SECTION:
			if (b->text && b->text[0]) {
				w->section(f, b->number);
				if (t->layout == LAYOUT_ARTICLE && b->number > 0)
					fprintf(f, "%d ", b->number);
				w->inline_text(f, b->text);
				fputs(w->section_end, f);
			}
			break;
		case D_SUBHEADING:
			fputs(w->sub[0], f);
			w->inline_text(f, b->text);
			fputs(w->sub[1], f);
			break;
		case D_PARA:
		case D_NOTE:
			page_paragraphs(w, f, b->text, b->kind == D_NOTE);
			break;
		case D_BULLETS:
			fputs(w->list[0], f);
			for (size_t k = 0; k < b->nitems; k++) {
				fputs(w->item[0], f);
				w->inline_text(f, b->items[k]);
				fputs(w->item[1], f);
			}
			fputs(w->list[1], f);
			break;
		case D_CONTENTS:
			w->contents(&p, b);
			break;
		case D_FIGURE: {
			char file[610];
			progress_step(o->progress, "figure %d of %d", figures + 1, m->nfigures);
			if (!data && !(data = malloc(sizeof *data))) {
				rc = (error("out of memory for a figure's data"), RENDER_FAIL);
				break;
			}
			rc = page_figure(&p, b, t, rd, o->dpi, file, sizeof file, data);
			if (!rc)
				w->figure(&p, b, file, data);
			figures++;
			break;
		}
		case D_TABLE:
			if (b->table) {
				w->table(f, b);
				tables++;
			}
			break;
		default: /* page breaks, the patent brief: print matters only */
			break;
		}
	}
	free(data);
	if (!rc && w->end)
		w->end(&p);
	return page_close(&p, rc, figures, tables, o->out, stats);
}
