/* style.c: the style table; see style.h.
 *
 * Patent numbers (37 CFR 1.84): margins at least 2.5 cm top and left,
 * 1.5 cm right, 1.0 cm bottom; reference numerals at least 0.32 cm
 * (1/8 in) tall — 0.32 cm cap height needs about 13 pt type, and text must
 * stay legible at 2/3 reduction.  37 CFR 1.84(p)(3) asks the same 0.32 cm of
 * every number, letter and reference character in a drawing, so the patent
 * style sets chart text (ticks, legends, labels) at 12.5 pt (DejaVu Sans
 * capitals are 0.73 em: 12.5 pt gives 0.32 cm).  Labels fitted into a box
 * (data-flow buffers, tiles) may still shrink below it to fit.
 */
#include "doc/style.h"

#include <string.h>
#include <strings.h>

#define RGB(r, g, b) { (r) / 255.0, (g) / 255.0, (b) / 255.0 }
#define GREY(v) { (v), (v), (v) }
#define BLACK GREY(0)
/* The type size whose DejaVu Sans capitals (0.73 em) stand cm tall. */
#define PATENT_CAPS_PT(cm) (CM_TO_PT(cm) / 0.73)
#define WHITE GREY(1)

/* A palette that stays apart for colour-blind readers (Okabe–Ito). */
#define COLOUR_SERIES { \
	{ RGB(213, 94, 0), RGB(170, 70, 0), HATCH_NONE, 0, 0 },      /* vermillion */ \
	{ RGB(0, 114, 178), RGB(0, 90, 140), HATCH_NONE, 0, 1 },     /* blue */ \
	{ RGB(0, 158, 115), RGB(0, 120, 90), HATCH_NONE, 0, 2 },     /* green */ \
	{ RGB(160, 160, 160), RGB(90, 90, 90), HATCH_NONE, 4, 3 },   /* reference grey */ \
	{ RGB(230, 159, 0), RGB(180, 120, 0), HATCH_NONE, 0, 4 },    /* orange */ \
	{ RGB(86, 180, 233), RGB(40, 130, 190), HATCH_NONE, 0, 0 },  /* sky */ \
	{ RGB(204, 121, 167), RGB(160, 80, 130), HATCH_NONE, 0, 1 }, /* purple */ \
	{ RGB(240, 228, 66), RGB(150, 140, 20), HATCH_NONE, 0, 2 },  /* yellow */ \
	{ RGB(95, 95, 95), RGB(50, 50, 50), HATCH_BACK, 2, 4 },      /* second reference: dark grey, hatched */ \
}

const struct rstyle style_color = {
	.name = "color", .about = "for the screen: colour, A4",
	.colour = 1, .grey_fills = 1,
	.page = PAGE_A4,
	.margin_t = CM_TO_PT(2.0), .margin_r = CM_TO_PT(2.0), .margin_b = CM_TO_PT(2.0), .margin_l = CM_TO_PT(2.0),
	.family = "DejaVu Sans", .mono = "DejaVu Sans Mono",
	.size_body = 9.5, .size_small = 7.5, .size_caption = 8.5, .size_title = 20, .size_h1 = 14, .size_h2 = 11,
	.size_fig_label = 11, .size_numeral = 9, .size_chart = 7.5,
	.min_body = 9, .min_text = 7, .min_figure = 7,
	.line = 1.0, .thin = 0.5, .heavy = 1.8,
	.ink = GREY(0.1), .paper = WHITE, .muted = GREY(0.42), .grid = GREY(0.87),
	.accent = RGB(0, 114, 178), .warn = RGB(200, 40, 20),
	.hbm_fill = RGB(235, 241, 250), .shared_fill = RGB(232, 246, 238), .reg_fill = RGB(253, 243, 226),
	.chip_fill = RGB(247, 247, 247), .block_fill = RGB(0, 114, 178), .idle_fill = RGB(250, 250, 250),
	.series = COLOUR_SERIES,
	.figure_w = 540, .figure_h = 340,
};

const struct rstyle style_print = {
	.name = "print", .about = "grayscale-safe: grey fills, hatching and dashes, A4",
	.colour = 0, .grey_fills = 1,
	.page = PAGE_A4,
	.margin_t = CM_TO_PT(2.0), .margin_r = CM_TO_PT(2.0), .margin_b = CM_TO_PT(2.0), .margin_l = CM_TO_PT(2.0),
	.family = "DejaVu Serif", .mono = "DejaVu Sans Mono",
	.size_body = 9.5, .size_small = 7.5, .size_caption = 8.5, .size_title = 20, .size_h1 = 14, .size_h2 = 11,
	.size_fig_label = 11, .size_numeral = 9, .size_chart = 7.5,
	.min_body = 9, .min_text = 7, .min_figure = 7,
	.line = 1.0, .thin = 0.5, .heavy = 1.8,
	.ink = BLACK, .paper = WHITE, .muted = GREY(0.35), .grid = GREY(0.85),
	.accent = GREY(0.2), .warn = GREY(0),
	.hbm_fill = GREY(0.94), .shared_fill = GREY(0.97), .reg_fill = GREY(0.90),
	.chip_fill = GREY(0.98), .block_fill = GREY(0.45), .idle_fill = WHITE,
	.series = {
		{ GREY(0.15), BLACK, HATCH_NONE, 0, 0 },
		{ GREY(0.55), BLACK, HATCH_DIAG, 5, 1 },
		{ GREY(0.85), BLACK, HATCH_CROSS, 2, 2 },
		{ WHITE, GREY(0.3), HATCH_DOTS, 1.2, 3 },
		{ GREY(0.7), BLACK, HATCH_HORIZ, 7, 4 },
		{ WHITE, BLACK, HATCH_BACK, 3, 0 },
		{ GREY(0.4), BLACK, HATCH_VERT, 9, 1 },
		{ WHITE, BLACK, HATCH_NONE, 1, 2 },
		{ GREY(0.3), BLACK, HATCH_BACK, 2, 4 },   /* second reference */
	},
	.figure_w = 540, .figure_h = 340,
};

const struct rstyle style_patent = {
	.name = "patent", .about = "37 CFR 1.84 drawing sheets: black lines only, numerals, FIG. n, sheet n/m, A4",
	.patent = 1, .colour = 0, .grey_fills = 0,
	.page = PAGE_A4,
	.margin_t = CM_TO_PT(2.6), .margin_r = CM_TO_PT(1.6), .margin_b = CM_TO_PT(1.1), .margin_l = CM_TO_PT(2.6),
	.family = "DejaVu Sans", .mono = "DejaVu Sans Mono",
	/* description pages: capitals of 0.3175 cm (1.52(b)(2)(ii)) need 12.33 pt of DejaVu Sans */
	.size_body = 12.5, .size_small = 12.5, .size_caption = 12.5, .size_title = 16, .size_h1 = 13, .size_h2 = 12.5,
	.size_fig_label = 18, .size_numeral = 13, .size_chart = 12.5,
	/* drawings: 0.32 cm capitals (1.84(p)(3)); description pages: 0.3175 cm capitals (1.52(b)(2)(ii)) */
	.min_body = PATENT_CAPS_PT(0.3175), .min_text = PATENT_CAPS_PT(0.3175), .min_figure = PATENT_CAPS_PT(0.32),
	/* description pages: margins at least 2 cm, 2.5 cm left, 1.5 line spacing (1.52(a), (b)) */
	.text_margin_t = CM_TO_PT(2.1), .text_margin_r = CM_TO_PT(2.1), .text_margin_b = CM_TO_PT(2.1),
	.text_margin_l = CM_TO_PT(2.6), .text_leading = 1.5,
	.line = 1.2, .thin = 0.8, .heavy = 2.0,
	.ink = BLACK, .paper = WHITE, .muted = BLACK, .grid = BLACK,
	.accent = BLACK, .warn = BLACK,
	.hbm_fill = WHITE, .shared_fill = WHITE, .reg_fill = WHITE,
	.chip_fill = WHITE, .block_fill = BLACK, .idle_fill = WHITE,
	/* bar graphs may be solid black; the rest tell apart by hatching */
	.series = {
		{ BLACK, BLACK, HATCH_NONE, 0, 0 },
		{ WHITE, BLACK, HATCH_DIAG, 6, 1 },
		{ WHITE, BLACK, HATCH_CROSS, 2, 2 },
		{ WHITE, BLACK, HATCH_NONE, 1.5, 3 },
		{ WHITE, BLACK, HATCH_HORIZ, 9, 4 },
		{ WHITE, BLACK, HATCH_BACK, 4, 0 },
		{ WHITE, BLACK, HATCH_DOTS, 12, 1 },
		{ WHITE, BLACK, HATCH_VERT, 3, 2 },
		{ WHITE, BLACK, HATCH_CROSS, 6, 4 },      /* second reference */
	},
	.figure_w = 480, .figure_h = 560,
};

const struct rstyle style_slides = {
	.name = "slides", .about = "16:9 slides (13.33 × 7.5 in), body 24 pt, figure text at least 16 pt, colour",
	.slides = 1, .colour = 1, .grey_fills = 1,
	.page = PAGE_WIDE,
	.margin_t = 28, .margin_r = 36, .margin_b = 24, .margin_l = 36,
	.family = "DejaVu Sans", .mono = "DejaVu Sans Mono",
	.size_body = 24, .size_small = 16, .size_caption = 16, .size_title = 40, .size_h1 = 30, .size_h2 = 24,
	.size_fig_label = 18, .size_numeral = 16, .size_chart = 18,
	/* what a room reads on a 16:9 page as rendered (13.33 × 7.5 in) */
	.min_body = 24, .min_text = 16, .min_figure = 16,
	.line = 1.4, .thin = 0.7, .heavy = 2.4,
	.ink = GREY(0.12), .paper = WHITE, .muted = GREY(0.4), .grid = GREY(0.87),
	.accent = RGB(0, 114, 178), .warn = RGB(200, 40, 20),
	.hbm_fill = RGB(235, 241, 250), .shared_fill = RGB(232, 246, 238), .reg_fill = RGB(253, 243, 226),
	.chip_fill = RGB(247, 247, 247), .block_fill = RGB(0, 114, 178), .idle_fill = RGB(250, 250, 250),
	.series = COLOUR_SERIES,
	.figure_w = 800, .figure_h = 450,
};

const struct rstyle *const style_table[] = { &style_color, &style_print, &style_patent, &style_slides };
const size_t style_count = sizeof(style_table) / sizeof(style_table[0]);

const struct rstyle *style_find(const char *name)
{
	for (size_t i = 0; i < style_count; i++)
		if (!strcmp(style_table[i]->name, name))
			return style_table[i];
	if (!strcmp(name, "colour"))
		return &style_color;
	return NULL;
}

void page_size(enum page_kind k, double *w, double *h)
{
	switch (k) {
	case PAGE_LETTER: *w = 612; *h = 792; break;
	case PAGE_WIDE: *w = 960; *h = 540; break;
	default: *w = 595.2756; *h = 841.8898; break;
	}
}

int page_parse(const char *s, enum page_kind *out)
{
	if (!strcasecmp(s, "a4")) { *out = PAGE_A4; return 0; }
	if (!strcasecmp(s, "letter") || !strcasecmp(s, "us-letter")) { *out = PAGE_LETTER; return 0; }
	if (!strcmp(s, "16:9") || !strcasecmp(s, "wide")) { *out = PAGE_WIDE; return 0; }
	return -1;
}

const struct series_look *style_series(const struct rstyle *st, int i)
{
	if (i < 0)
		i = 0;
	return &st->series[i % STYLE_SERIES];
}
