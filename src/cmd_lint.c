/* cmd_lint.c: 'attnprof lint' — check rendered documents for what a reader
 * trips over: colliding text, text across lines, type below the style's
 * minimum, ink in the margins, empty figures (src/lint.c).  Needs no
 * renderer: it reads the layout record beside each PDF and the PDF's words
 * (pdftotext, from poppler-utils). */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "lint.h"
#include "util/error.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: attnprof lint FILE.pdf...\n"
		"\n"
		"Check documents written by 'attnprof report'.  Reads FILE.layout (the\n"
		"layout record the report wrote beside FILE.pdf: every text line, line and\n"
		"figure placed, with the style's minimum sizes and margins) and the words\n"
		"of the PDF itself (pdftotext -bbox-layout), and prints one finding a line:\n"
		"\n"
		"  FILE:PAGE:X,Y: WHAT        (X, Y in points from the page's top-left)\n"
		"\n"
		"Rules: text overlapping text; text crossing a drawn line; text on a\n"
		"hatched area; type below the style's minimum (body, other text, figure\n"
		"text); ink outside the margins; a figure that draws nothing; a word of\n"
		"the PDF missing from the record, or words overlapping in the PDF; a\n"
		"record that belongs to another version of the PDF.  The style's profile\n"
		"adds its own rules:\n");
	for (size_t i = 0; i < lint_profile_count; i++)
		fprintf(f, "  %-8s %s\n", lint_profiles[i].style, lint_profiles[i].about);
	fprintf(f,
		"\n"
		"exit status: 0 no findings, 1 findings, 2 a file or its record cannot be read.\n");
}

int cmd_lint(int argc, char **argv)
{
	int nfiles = 0, findings = 0, dd = argc; /* after "--" every argument is a file ('lint -- -x.pdf') */
	for (int i = 1; i < argc && dd == argc; i++)
		if (!strcmp(argv[i], "--"))
			dd = i;
	for (int i = 1; i < argc; i++) {
		if (i == dd)
			continue;
		if (i > dd) {
			nfiles++;
			continue;
		}
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(stdout);
			return EXIT_OK;
		}
		if (argv[i][0] == '-' && argv[i][1]) {
			error("unknown option '%s' (see 'attnprof lint --help')", argv[i]);
			return EXIT_BAD_INPUT;
		}
		nfiles++;
	}
	if (!nfiles) {
		error("no PDF given: attnprof lint FILE.pdf");
		return EXIT_BAD_INPUT;
	}
	int bad = 0;
	for (int i = 1; i < argc; i++) {
		if (i == dd)
			continue;
		struct lint L;
		if (lint_load(&L, argv[i])) {
			lint_release(&L);
			bad = 1;
			continue;
		}
		size_t n = lint_run(&L);
		lint_print(&L);
		fflush(stdout);
		if (n)
			fprintf(stderr, "attnprof: lint: %s: %zu finding%s\n", argv[i], n, n == 1 ? "" : "s");
		findings += n > 0;
		lint_release(&L);
	}
	return bad ? EXIT_BAD_INPUT : findings ? EXIT_FAILURE_RUN : EXIT_OK;
}
