/* page.c: the one-file documents' shared frame (page.h). */
#include "render/page.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "doc/style.h"
#include "util/error.h"

int page_open(struct page *p, const struct template *t, struct rdata *rd, const struct report_opts *o,
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

int page_figure(struct page *p, const struct dblock *b, const struct template *t, const struct rdata *rd,
		double dpi, char *file, size_t flen, char *title, size_t tlen)
{
	char no[16], base[600], path[4900];
	snprintf(no, sizeof no, "%02d", b->number);
	figure_file_base(no, b->fig->name, b->fo.variant, base, sizeof base);
	snprintf(file, flen, "%s.svg", base);
	snprintf(path, sizeof path, "%s/%s", p->dir, file);
	struct figopts fo = b->fo;
	fo.glossary = &t->glossary;
	int rc = render_figure_file(rd, b->fig->name, &fo, p->st, path, dpi);
	if (tlen)
		title[0] = '\0';
	if (!rc && !b->caption && b->fig->title)
		b->fig->title(rd, &fo, title, tlen);
	return rc;
}

int page_close(struct page *p, int rc, int figures, int tables, const char *out, struct report_stats *stats)
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
