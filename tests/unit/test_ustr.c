/* test_ustr.c: the bounded UTF-8 string builder (src/util/ustr.h). */
#include "check.h"

#include "util/ustr.h"

/* 1 when s is valid UTF-8 (lead bytes and their continuations; no overlong check) */
static int valid_utf8(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	while (*p) {
		int n = *p < 0x80 ? 0 : (*p & 0xE0) == 0xC0 ? 1 : (*p & 0xF0) == 0xE0 ? 2 : (*p & 0xF8) == 0xF0 ? 3 : -1;
		if (n < 0)
			return 0;
		p++;
		for (int i = 0; i < n; i++, p++)
			if ((*p & 0xC0) != 0x80)
				return 0;
	}
	return 1;
}

static void test_fits(void)
{
	char b[16];
	struct ustr u;
	ustr_init(&u, b, sizeof b);
	ustr_adds(&u, "abc");
	ustr_addf(&u, "-%d", 42);
	CHECK_STR(b, "abc-42");
	CHECK_INT(u.cut, 0);
	CHECK_INT(u.len, 6);
}

static void test_cut_marked_at_boundary(void)
{
	char b[12];
	/* "ééééééé": 2 bytes each; 11 bytes room less 3 for "…" = 8: four é */
	CHECK_INT(ustr_copy(b, sizeof b, "ééééééé"), 1);
	CHECK_STR(b, "éééé…");
	CHECK(valid_utf8(b));
	/* a 3-byte character that would straddle the cut is left out whole */
	CHECK_INT(ustr_copy(b, sizeof b, "abcdefg€€"), 1);
	CHECK_STR(b, "abcdefg…");
	CHECK(valid_utf8(b));
	/* exactly full: no cut */
	CHECK_INT(ustr_copy(b, sizeof b, "0123456789a"), 0);
	CHECK_STR(b, "0123456789a");
	/* one more: cut */
	CHECK_INT(ustr_copy(b, sizeof b, "0123456789ab"), 1);
	CHECK_STR(b, "01234567…");
}

static void test_cut_stays_last(void)
{
	char b[10];
	struct ustr u;
	ustr_init(&u, b, sizeof b);
	ustr_adds(&u, "abcdefgh");
	ustr_adds(&u, "ij");
	ustr_adds(&u, "more");
	CHECK_INT(u.cut, 1);
	CHECK_STR(b, "abcdef…");
	CHECK(u.len < sizeof b);
}

static void test_long_format(void)
{
	char big[2000], b[600];
	memset(big, 'x', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	struct ustr u;
	ustr_init(&u, b, sizeof b);
	ustr_addf(&u, "%s", big);
	CHECK_INT(u.cut, 1);
	CHECK_INT(strlen(b), sizeof b - 1);
	CHECK(!strcmp(b + strlen(b) - 3, "…"));
}

static void test_prefix(void)
{
	char b[32];
	CHECK_INT(ustr_prefix(b, sizeof b, "kernel_name", 6), 1);
	CHECK_STR(b, "kernel…");
	/* n inside a character: the character goes */
	CHECK_INT(ustr_prefix(b, sizeof b, "ab€cd", 3), 1);
	CHECK_STR(b, "ab…");
	CHECK_INT(ustr_prefix(b, sizeof b, "short", 10), 0);
	CHECK_STR(b, "short");
	/* the buffer is smaller than n: cut to the buffer, never past it */
	CHECK_INT(ustr_prefix(b, 6, "abcdefghij", 8), 1);
	CHECK_STR(b, "ab…");
}

static void test_tiny(void)
{
	char b[3];
	CHECK_INT(ustr_copy(b, sizeof b, "abcdef"), 1);
	CHECK_STR(b, "ab"); /* no room for the mark */
	char one[1];
	CHECK_INT(ustr_copy(one, 1, "x"), 1);
	CHECK_STR(one, "");
}

/* English ordinals: 11, 12 and 13 of every hundred take "th" */
static void test_ordinal(void)
{
	static const struct { unsigned long n; const char *want; } cases[] = {
		{ 1, "1st" },	    { 2, "2nd" },	{ 3, "3rd" },	    { 4, "4th" },	{ 10, "10th" },
		{ 11, "11th" },	    { 12, "12th" },	{ 13, "13th" },	    { 14, "14th" },	{ 21, "21st" },
		{ 22, "22nd" },	    { 23, "23rd" },	{ 100, "100th" },   { 101, "101st" },	{ 102, "102nd" },
		{ 111, "111th" },   { 112, "112th" },	{ 113, "113th" },   { 121, "121st" },	{ 1011, "1011th" },
		{ 1001, "1001st" }, { 0, "0th" },
	};
	char b[32];
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++)
		CHECK_STR(ustr_ordinal(b, sizeof b, cases[i].n), cases[i].want);
}

TESTS(test_ordinal, test_fits, test_cut_marked_at_boundary, test_cut_stays_last, test_long_format, test_prefix, test_tiny)
