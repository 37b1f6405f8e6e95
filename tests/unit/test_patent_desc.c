/* test_patent_desc.c: the brief description's sentences and the numeral
 * list — each numeral once, ascending, only those the views drew, as the
 * model's inline text (the label's bold as marks, '&' a character).  The rendered patent is checked against its drawings by the
 * patent lint profile (tests/lint-check.sh). */
#include "check.h"

#if ATTNPROF_HAVE_RENDER
#include "render/patent_desc.h"

static void test_sentence(void)
{
	struct sbuf sb;
	sbuf_init(&sb);
	CHECK_INT(pdesc_sentence(&sb, "FIG. 3A", "a schematic view of a grid\n"), 0);
	CHECK_STR(sb.buf, "\x10" "FIG. 3A\x11 is a schematic view of a grid.");
	sb.len = 0;
	CHECK_INT(pdesc_sentence(&sb, "FIG. 1", "a block diagram."), 0);
	CHECK_STR(sb.buf, "\x10" "FIG. 1\x11 is a block diagram.");
	char *pango = inline_pango("\x10" "FIG. 1\x11 is a <block> & diagram.");
	CHECK_STR(pango, "<b>FIG. 1</b> is a &lt;block&gt; &amp; diagram.");
	g_free(pango);
	sbuf_release(&sb);
}

static void test_list(void)
{
	struct numerals num;
	numerals_init(&num);
	int a = numerals_get(&num, "p:memory", "memory");            /* 10 */
	int b = numerals_get(&num, "p:buf:Q", "query matrix");       /* 12 */
	int c = numerals_get(&num, "p:s&p", "score & probability");  /* 14 */
	numerals_get(&num, "p:unused", "never drawn");               /* 16, in no view */
	CHECK_INT(a, 10);
	CHECK_INT(c, 14);
	(void)b;
	/* view 1 drew 12 and 10, view 2 drew 14 and 10 again */
	int v1[] = { 1, 0 }, v2[] = { 2, 0 };
	const int *parts[] = { v1, v2 };
	int nparts[] = { 2, 2 };
	struct sbuf sb;
	sbuf_init(&sb);
	CHECK_INT(pdesc_list(&sb, &num, parts, nparts, 2), 3);
	CHECK_STR(sb.buf, "10 — memory\n\n12 — query matrix\n\n14 — score & probability");
	sbuf_release(&sb);
	numerals_release(&num);
}

/* A part asked for again with another description keeps its numeral and
 * first meaning, and the list shows the second too, so the linter can name
 * the numeral with two meanings instead of one meaning vanishing. */
static void test_second_meaning(void)
{
	struct numerals num;
	numerals_init(&num);
	CHECK_INT(numerals_get(&num, "p:series:x", "reference implementation"), 10);
	CHECK_INT(numerals_get(&num, "p:series:x", "reference implementation"), 10); /* the same: nothing noted */
	CHECK_STR(num.parts[0].also, "");
	CHECK_INT(numerals_get(&num, "p:series:x", "first reference implementation"), 10);
	CHECK_STR(num.parts[0].also, "first reference implementation");
	int v[] = { 0 };
	const int *parts[] = { v };
	int nparts[] = { 1 };
	struct sbuf sb;
	sbuf_init(&sb);
	CHECK_INT(pdesc_list(&sb, &num, parts, nparts, 1), 1);
	CHECK_STR(sb.buf, "10 — reference implementation\n\n10 — first reference implementation");
	sbuf_release(&sb);
	numerals_release(&num);
}

TESTS(test_sentence, test_list, test_second_meaning)
#else
static void test_built_without_render(void) { SKIP("built without the renderer"); }
TESTS(test_built_without_render)
#endif
