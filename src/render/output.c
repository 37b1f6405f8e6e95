/* output.c: surfaces for PDF, SVG and PNG, and one figure alone in a file. */
#include "render/render.h"

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "doc/interp.h"
#include "util/error.h"
#include "util/file.h"

cairo_status_t out_write(void *stream, const unsigned char *data, unsigned int len)
{
	/* a failed write of an earlier chunk counts too (stdio may report it late) */
	if (fwrite(data, 1, len, stream) == len && !ferror((FILE *)stream))
		return CAIRO_STATUS_SUCCESS;
	if (errno && !outfile_errno)
		outfile_errno = errno;
	return CAIRO_STATUS_WRITE_ERROR;
}

int out_format_of(const char *path, enum out_format *f)
{
	const char *dot = strrchr(path, '.');
	if (!dot)
		return -1;
	if (!strcasecmp(dot, ".pdf")) *f = OUT_PDF;
	else if (!strcasecmp(dot, ".svg")) *f = OUT_SVG;
	else if (!strcasecmp(dot, ".png")) *f = OUT_PNG;
	else return -1;
	return 0;
}

/* The size a figure kind takes alone: the style's width, the kind's ratio
 * plus room for the title and the conditions caption. */
static void figure_size(const struct rstyle *st, double ratio, double *w, double *h)
{
	*w = st->figure_w;
	*h = st->figure_w * ratio + st->size_h2 * 2.6 + st->size_small * 3.5;
	if (st->slides) {
		*w = 960;
		*h = 540;
	}
}

/* SVG files: Cairo draws the lines and fills into memory, the draw layer
 * hands over the text as <text> elements (rctx.svg_text), and the two are
 * joined here, the text last so it lies on top as it does in the PDF (labels
 * sit on paper-coloured knockouts drawn before them).  Text stays text:
 * searchable, editable, a fraction of the size of glyph outlines. */
static cairo_status_t to_sbuf(void *closure, const unsigned char *data, unsigned int len)
{
	return sbuf_add(closure, (const char *)data, len) ? CAIRO_STATUS_NO_MEMORY : CAIRO_STATUS_SUCCESS;
}

static int svg_join(FILE *f, const struct sbuf *drawing, const struct sbuf *text)
{
	const char *end = NULL;
	for (const char *p = strstr(drawing->buf, "</svg>"); p; p = strstr(p + 1, "</svg>"))
		end = p;
	if (!end)
		return -1;
	size_t head = (size_t)(end - drawing->buf);
	if (fwrite(drawing->buf, 1, head, f) != head || fputs("<g id=\"text\">\n", f) < 0 ||
	    fwrite(text->buf, 1, text->len, f) != text->len || fputs("</g>\n", f) < 0 || fputs(end, f) < 0)
		return -1;
	return 0;
}

void figure_file_base(const char *no, const char *kind, const char *variant, char *out, size_t len)
{
	snprintf(out, len, "fig%s-%s%s%s", no, kind, variant && variant[0] ? "-" : "", variant ? variant : "");
	/* a file name from letters, digits, '.', '-' and '_' alone: an implementation's
	 * name ("x) [click](javascript:…)", "#", "?", "%41", "\\|") never reaches a
	 * path or a link as itself (page.c percent-encodes the link besides) */
	for (char *p = out; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '.' ||
		      *p == '-' || *p == '_'))
			*p = '_';
}

int render_figure_file(const struct rdata *rd, const char *kind, const struct figopts *o,
		       const struct rstyle *st, const char *path, double dpi)
{
	enum out_format f;
	if (out_format_of(path, &f))
		return error("cannot tell the format of '%s': name it .svg, .png or .pdf", path), RENDER_BAD_INPUT;
	const struct figkind *k = NULL;
	int table = -1;
	if (!strncmp(kind, "table:", 6)) {
		table = table_find(kind + 6);
		if (table < 0)
			return error("unknown table '%s'", kind + 6), RENDER_BAD_INPUT;
	} else if (!(k = figkind_find(kind))) {
		const char *near = figkind_nearest(kind);
		error("unknown figure '%s'%s%s%s", kind, near ? ": did you mean '" : " (see 'attnprof figure --help')",
		      near ? near : "", near ? "'?" : "");
		return RENDER_BAD_INPUT;
	}
	double w, h, margin = st->patent ? CM_TO_PT(1.0) : 14;
	figure_size(st, k ? k->ratio : 0.5, &w, &h);
	struct rctx c;
	/* tables: measure on a scratch surface, then size the page to them */
	if (table >= 0) {
		cairo_surface_t *s0 = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 4, 4);
		cairo_t *cr0 = cairo_create(s0);
		if (rctx_init(&c, cr0, st) == 0) {
			h = table_render(&c, rd, table, o, rbox_make(0, 0, w - 2 * margin, 1e6), 0) + st->size_h2 * 2.2 + 2 * margin;
			rctx_release(&c);
		}
		cairo_destroy(cr0);
		cairo_surface_destroy(s0);
	} else {
		w += 2 * margin;
		h += 2 * margin;
	}
	if (dpi <= 0)
		dpi = RENDER_DPI_DEFAULT;
	if (f == OUT_PNG && !(w * dpi / 72 <= 20000 && h * dpi / 72 <= 20000))
		return error("--dpi %g makes a %.0f×%.0f pixel image: too large", dpi, w * dpi / 72, h * dpi / 72), RENDER_BAD_INPUT;
	/* drawn into a temporary file renamed over path when complete */
	struct outfile of;
	int orc = outfile_open(&of, path, NULL);
	if (orc)
		return orc == -2 ? RENDER_BAD_INPUT : RENDER_FAIL;
	cairo_surface_t *surf;
	struct sbuf svg_drawing, svg_text;
	sbuf_init(&svg_drawing);
	sbuf_init(&svg_text);
	switch (f) {
	case OUT_PDF: surf = cairo_pdf_surface_create_for_stream(out_write, of.f, w, h); break;
	case OUT_SVG: surf = cairo_svg_surface_create_for_stream(to_sbuf, &svg_drawing, w, h); break;
	default: surf = cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)ceil(w * dpi / 72), (int)ceil(h * dpi / 72)); break;
	}
	if (cairo_surface_status(surf)) {
		error("cannot create '%s': %s", path, cairo_why(cairo_surface_status(surf)));
		cairo_surface_destroy(surf);
		outfile_abort(&of);
		sbuf_release(&svg_drawing);
		sbuf_release(&svg_text);
		return RENDER_FAIL;
	}
	cairo_t *cr = cairo_create(surf);
	if (f == OUT_PNG)
		cairo_scale(cr, dpi / 72, dpi / 72);
	int rc = RENDER_FAIL, built = 1;
	if (rctx_init(&c, cr, st) == 0) {
		c.gloss = o->glossary;
		if (f == OUT_SVG)
			c.svg_text = &svg_text;
		struct numerals num;
		numerals_init(&num);
		if (st->patent)
			c.num = o->numerals ? o->numerals : &num;
		cairo_set_source_rgb(cr, 1, 1, 1);
		cairo_paint(cr);
		struct rbox box = rbox_make(margin, margin, w - 2 * margin, h - 2 * margin);
		if (rd->synthetic) {
			double bh = text_at(&c, box.x, box.y, "SYNTHETIC TEST FIXTURE — NOT MEASURED DATA", st->size_small,
					    TX_BOLD, 0, 0, &st->warn);
			rbox_cut_top(&box, bh + 3);
		}
		if (table >= 0) {
			char title[160];
			struct dtable *t = table_build(rd, table, o); /* NULL: out of memory, said */
			if (t) {
				table_title(rd, table, t, title, sizeof(title));
				double th = text_block(&c, box.x, box.y, box.w, title, st->size_h2, TX_BOLD, NULL);
				rbox_cut_top(&box, th + 4);
				table_draw(&c, t, box, 1);
				table_free(t);
			} else {
				built = 0;
			}
		} else {
			struct figopts fo = *o;
			fo.standalone = 1;
			char cut[200];
			if (k->cut && k->cut(rd, &fo, cut, sizeof cut))
				c.cut = cut; /* the figure command and the document say it on stderr */
			k->draw(&c, rd, &fo, box);
		}
		numerals_release(&num);
		rctx_release(&c);
		rc = render_check(cr, path) || !built ? RENDER_FAIL : RENDER_OK;
	}
	cairo_destroy(cr);
	cairo_surface_flush(surf);
	if (rc == RENDER_OK && f == OUT_PNG) {
		cairo_status_t s = cairo_surface_write_to_png_stream(surf, out_write, of.f);
		if (s) {
			error("cannot write '%s': %s", path, cairo_why(s));
			rc = RENDER_FAIL;
		}
	}
	cairo_surface_finish(surf);
	if (rc == RENDER_OK && cairo_surface_status(surf)) {
		error("cannot write '%s': %s", path, cairo_why(cairo_surface_status(surf)));
		rc = RENDER_FAIL;
	}
	cairo_surface_destroy(surf);
	if (rc == RENDER_OK && f == OUT_SVG && svg_join(of.f, &svg_drawing, &svg_text)) {
		error("cannot write '%s': %s", path, outfile_errno ? strerror(outfile_errno) : strerror(errno));
		rc = RENDER_FAIL;
	}
	sbuf_release(&svg_drawing);
	sbuf_release(&svg_text);
	if (rc == RENDER_OK)
		rc = outfile_commit(&of) ? RENDER_FAIL : RENDER_OK;
	else
		outfile_abort(&of);
	return rc;
}
