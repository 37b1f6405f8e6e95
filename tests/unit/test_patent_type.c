/* test_patent_type.c: the patent style's description type measured, not
 * assumed — the capitals Pango sets at the style's body size stand at least
 * 0.3175 cm (37 CFR 1.52(b)(2)(ii)), and the face's cap height is the 0.73 em
 * the linter (lint_profiles.c) turns recorded sizes into centimetres with. */
#include "check.h"

#if ATTNPROF_HAVE_RENDER

#include <pango/pangocairo.h>

#include "doc/style.h"

/* The ink height of s set in family at size points, in points. */
static double ink_height(const char *family, double size, const char *s)
{
	cairo_surface_t *surf = cairo_image_surface_create(CAIRO_FORMAT_A8, 8, 8);
	cairo_t *cr = cairo_create(surf);
	PangoLayout *lay = pango_cairo_create_layout(cr);
	/* unhinted, as the PDF draws its outlines: no rounding to a pixel grid */
	cairo_font_options_t *fo = cairo_font_options_create();
	cairo_font_options_set_hint_style(fo, CAIRO_HINT_STYLE_NONE);
	cairo_font_options_set_hint_metrics(fo, CAIRO_HINT_METRICS_OFF);
	pango_cairo_context_set_font_options(pango_layout_get_context(lay), fo);
	cairo_font_options_destroy(fo);
	pango_cairo_context_set_resolution(pango_layout_get_context(lay), 72);
	pango_layout_context_changed(lay);
	PangoFontDescription *fd = pango_font_description_new();
	pango_font_description_set_family(fd, family);
	pango_font_description_set_absolute_size(fd, size * PANGO_SCALE);
	pango_layout_set_font_description(lay, fd);
	pango_layout_set_text(lay, s, -1);
	PangoRectangle ink;
	pango_layout_get_extents(lay, &ink, NULL);
	pango_font_description_free(fd);
	g_object_unref(lay);
	cairo_destroy(cr);
	cairo_surface_destroy(surf);
	return (double)ink.height / PANGO_SCALE;
}

static void test_description_capitals(void)
{
	const struct rstyle *st = &style_patent;
	double caps = ink_height(st->family, st->size_body, "HEIZ");
	printf("    %s %.1f pt: capitals %.3f cm\n", st->family, st->size_body, caps * 2.54 / 72);
	CHECK(caps >= CM_TO_PT(0.3175));
	/* the smallest size the style allows still meets the rule */
	CHECK(ink_height(st->family, st->min_body, "HEIZ") >= CM_TO_PT(0.3175) - 0.05);
	/* the proportion the linter assumes for this face */
	double em = ink_height(st->family, 100, "HEIZ") / 100;
	printf("    capitals %.3f em\n", em);
	CHECK(em > 0.72 && em < 0.74);
}

TESTS(test_description_capitals)

#else
static void test_built_without_render(void) { SKIP("built without the renderer"); }
TESTS(test_built_without_render)
#endif
