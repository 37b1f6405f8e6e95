/* test_glossary.c: abbreviations for labels that do not fit, the built-in
 * glossary and one a template declares (docs/templates.md, "Glossary"). */
#include "check.h"

#include "doc/glossary.h"
#include "doc/template.h"

static void test_builtin(void)
{
	char out[64], key[160] = "";
	glossary_abbreviate(NULL, "flash1+seqpar+splitq", out, sizeof(out), key, sizeof(key));
	CHECK_STR(out, "flash1+sp+sq");
	glossary_abbreviate(&glossary_builtin, "flash1+seqpar+lazyrescale", out, sizeof(out), key, sizeof(key));
	CHECK_STR(out, "flash1+sp+lazy");
	CHECK_STR(key, "sp = seqpar · sq = splitq · lazy = lazyrescale"); /* each entry once */
	key[0] = '\0';
	glossary_abbreviate(NULL, "flash2", out, sizeof(out), key, sizeof(key));
	CHECK_STR(out, "flash2");
	CHECK_STR(key, "");
	/* a short buffer is cut, never overrun */
	glossary_abbreviate(NULL, "flash1+seqpar+splitq", out, 8, key, sizeof(key));
	CHECK_STR(out, "flash1+");
}

static void test_declared(void)
{
	struct template t;
	CHECK_INT(template_load(&t, "tests/fixtures/templates/glossary.yaml"), 0);
	CHECK_INT(t.glossary.n, 3);
	CHECK_STR(t.glossary.e[0].word, "seqpar");
	CHECK_STR(t.glossary.e[0].abbr, "SEQ");
	char out[64], key[160] = "";
	glossary_abbreviate(&t.glossary, "flash1+seqpar+splitq", out, sizeof(out), key, sizeof(key));
	CHECK_STR(out, "flash1+SEQ+SPQ");
	CHECK_STR(key, "SEQ = seqpar · SPQ = splitq");
	template_release(&t);
	/* a template without one has the built-in */
	CHECK_INT(template_load(&t, "templates/review.yaml"), 0);
	CHECK(t.glossary.e == glossary_builtin.e);
	template_release(&t);
	/* malformed: refused (the message, with file:line:col, is the CLI cases') */
	fprintf(stderr, "(three template errors expected below)\n");
	CHECK_INT(template_load(&t, "tests/fixtures/templates/glossary-not-map.yaml"), -1);
	CHECK_INT(template_load(&t, "tests/fixtures/templates/glossary-not-shorter.yaml"), -1);
	CHECK_INT(template_load(&t, "tests/fixtures/templates/glossary-ambiguous.yaml"), -1);
}

TESTS(test_builtin, test_declared)
