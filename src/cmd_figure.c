/* cmd_figure.c: 'attnprof figure' — one figure from a results file as SVG,
 * PNG or PDF, for people who put figures in their own slides and papers.
 *
 * The figure is drawn from the records and the variants' descriptors in
 * the chosen style; --n/--d/--causal pick the conditions (default: the
 * focus, N=4096 d=128 non-causal or the nearest measured).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "util/error.h"

#if ATTNPROF_HAVE_RENDER
#include "render/render.h"
#include "util/ustr.h"
#include "util/yamltree.h"

#define FIG_STEP_MAX 5 /* the tiling figure's build steps */

static void usage(FILE *f)
{
	char about[256];
	fprintf(f,
		"usage: attnprof figure KIND RESULTS... [options] -o OUT.svg|.png|.pdf\n"
		"\n"
		"Render one figure from one or more results files (merged as 'attnprof\n"
		"report' merges them).  The format follows OUT's extension.\n"
		"\n"
		"options:\n"
		"  -o, --output FILE     where to write (.svg, .png or .pdf)\n"
		"  --variant V           the variant drawn (data flow, partition) or the first of two\n"
		"  --compare V2          the second variant of a side-by-side figure\n"
		"  --n N                 sequence length (KV length for decode); default: the focus\n"
		"  --d D                 head dimension; charts: only panels of this d\n"
		"  --causal yes|no       causal mask; charts: only panels with this mask\n"
		"  --pass P              fwd (default), bwd or fwd+bwd: the records of that pass\n"
		"  --batch B             batch size\n"
		"  --step S              build step of a teaching figure (tiling: 1 to 5)\n"
		"  --style S             color (default), print, patent or slides\n"
		"  --dpi D               PNG resolution (default 200: 7 pt labels stay legible)\n"
		"  --repeat FILE         a second run of the same specs (run-to-run spread)\n"
		"  --list                list the figure kinds and tables\n"
		"\n"
		"kinds:\n");
	for (size_t i = 0; i < figure_kind_count; i++)
		fprintf(f, "  %-17s %s\n", figure_kinds[i].name, variant_role_text(figure_kinds[i].about, about, sizeof about));
	for (size_t i = 0; i < table_kind_count; i++)
		fprintf(f, "  table:%-11s %s\n", table_kinds[i].name, variant_role_text(table_kinds[i].about, about, sizeof about));
	fprintf(f,
		"\n"
		"example:\n"
		"  attnprof figure dataflow-compare experiments/results/fa2-paper.yaml --variant standard \\\n"
		"      --compare flash2 --n 4096 -o dataflow.svg\n"
		"\n"
		"exit status: 0 written, 1 cannot write or render, 2 bad results file or option.\n");
}

static int need_arg(int i, int argc, char **argv)
{
	if (i + 1 >= argc) {
		error("option '%s' needs a value (see 'attnprof figure --help')", argv[i]);
		return -1;
	}
	return 0;
}

/* A positive whole number up to the option's limit (the spec's and the
 * results file's: results.h), so shapes made of it cannot overflow; --step
 * up to the teaching figures' last build step.  Every figure draws any
 * accepted value in bounded memory and time (docs/cli.md, "Figure options"). */
static int parse_pos(const char *opt, const char *s, int *out)
{
	const long max = !strcmp(opt, "--n") ? MAX_SEQLEN : !strcmp(opt, "--d") ? MAX_HEAD_DIM
		       : !strcmp(opt, "--batch") ? MAX_BATCH : FIG_STEP_MAX;
	char *e;
	errno = 0;
	long v = strtol(s, &e, 10), unit = 1;
	if (*e == 'k' || *e == 'K') { unit = 1024; e++; }
	/* the range before the multiplication: 9223372036854775807k overflows */
	if (e == s || *e || errno || v < 1 || v > max / unit)
		return error("%s must be a whole number from 1 to %ld%s, not '%s'", opt, max / unit,
			     unit > 1 ? "k" : "", s);
	v *= unit;
	*out = (int)v;
	return 0;
}

int cmd_figure(int argc, char **argv)
{
	const char *files[32], *reps[32];
	size_t nfiles = 0, nreps = 0;
	const char *kind = NULL, *results = NULL, *out = NULL, *style = "color";
	struct figopts o;
	double dpi = RENDER_DPI_DEFAULT;
	figopts_init(&o);
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage(stdout);
			return EXIT_OK;
		} else if (!strcmp(a, "--list")) {
			for (size_t k = 0; k < figure_kind_count; k++)
				printf("%s\n", figure_kinds[k].name);
			for (size_t k = 0; k < table_kind_count; k++)
				printf("table:%s\n", table_kinds[k].name);
			return EXIT_OK;
		} else if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
			if (need_arg(i, argc, argv)) return EXIT_BAD_INPUT;
			out = argv[++i];
		} else if (!strcmp(a, "--variant") || !strcmp(a, "--compare")) {
			if (need_arg(i, argc, argv)) return EXIT_BAD_INPUT;
			if (strlen(argv[i + 1]) >= SERIES_KEY) {
				/* cut, it would name another series (or one that does not exist) */
				char start[48];
				ustr_prefix(start, sizeof(start), argv[i + 1], 40);
				error("%s '%s' is longer than a series name can be (%d bytes)", a, start, SERIES_KEY - 1);
				return EXIT_BAD_INPUT;
			}
			snprintf(a[2] == 'v' ? o.variant : o.compare, SERIES_KEY, "%s", argv[++i]);
		} else if (!strcmp(a, "--step")) {
			if (need_arg(i, argc, argv) || parse_pos(a, argv[i + 1], &o.step)) return EXIT_BAD_INPUT;
			i++;
		} else if (!strcmp(a, "--n") || !strcmp(a, "--d") || !strcmp(a, "--batch")) {
			if (need_arg(i, argc, argv)) return EXIT_BAD_INPUT;
			int *dst = a[2] == 'n' ? &o.sel.n : a[2] == 'd' ? &o.sel.d : &o.sel.batch;
			if (parse_pos(a, argv[++i], dst)) return EXIT_BAD_INPUT;
		} else if (!strcmp(a, "--causal")) {
			if (need_arg(i, argc, argv)) return EXIT_BAD_INPUT;
			const char *v = argv[++i];
			if (!strcmp(v, "yes") || !strcmp(v, "true") || !strcmp(v, "1")) o.sel.causal = 1;
			else if (!strcmp(v, "no") || !strcmp(v, "false") || !strcmp(v, "0")) o.sel.causal = 0;
			else {
				error("--causal is yes or no, not '%s'", v);
				return EXIT_BAD_INPUT;
			}
		} else if (!strcmp(a, "--pass")) {
			if (need_arg(i, argc, argv)) return EXIT_BAD_INPUT;
			enum pass p;
			if (pass_parse(argv[++i], &p)) {
				error("--pass is fwd, bwd or fwd+bwd, not '%s'", argv[i]);
				return EXIT_BAD_INPUT;
			}
			o.sel.pass = p;
		} else if (!strcmp(a, "--style")) {
			if (need_arg(i, argc, argv)) return EXIT_BAD_INPUT;
			style = argv[++i];
		} else if (!strcmp(a, "--dpi")) {
			if (need_arg(i, argc, argv)) return EXIT_BAD_INPUT;
			char *e;
			dpi = strtod(argv[++i], &e);
			if (*e || !(dpi >= 10 && dpi <= 2400)) {
				error("--dpi must be a number from 10 to 2400, not '%s'", argv[i]);
				return EXIT_BAD_INPUT;
			}
		} else if (!strcmp(a, "--repeat")) {
			if (need_arg(i, argc, argv)) return EXIT_BAD_INPUT;
			if (nreps == 32) {
				error("at most 32 repeat files");
				return EXIT_BAD_INPUT;
			}
			reps[nreps++] = argv[++i];
		} else if (a[0] == '-' && a[1]) {
			static const char *const opts[] = { "--output", "--variant", "--compare", "--n", "--d", "--causal",
							    "--batch", "--pass", "--step", "--style", "--dpi", "--repeat", "--list", "--help" };
			const char *near = nearest_word(a, opts, sizeof(opts) / sizeof(*opts));
			error("unknown option '%s'%s%s%s", a, near ? ": did you mean '" : " (see 'attnprof figure --help')",
			      near ? near : "", near ? "'?" : "");
			return EXIT_BAD_INPUT;
		} else if (!kind) {
			kind = a;
		} else if (nfiles < 32) {
			if (!results)
				results = a;
			files[nfiles++] = a;
		} else {
			error("unexpected argument '%s': one figure kind and at most 32 results files", a);
			return EXIT_BAD_INPUT;
		}
	}
	if (!kind || !results || !out) {
		error("%s", !kind ? "no figure kind given" : !results ? "no results file given" : "no output file: give -o OUT.svg|.png|.pdf");
		usage(stderr);
		return EXIT_BAD_INPUT;
	}
	const struct rstyle *st = style_find(style);
	if (!st) {
		error("unknown style '%s' (color, print, patent, slides)", style);
		return EXIT_BAD_INPUT;
	}
	enum out_format f;
	if (out_format_of(out, &f)) {
		error("cannot tell the format of '%s': name it .svg, .png or .pdf", out);
		return EXIT_BAD_INPUT;
	}
	if (strncmp(kind, "table:", 6) && !figkind_find(kind)) {
		/* name the problem before reading a large results file */
		return render_figure_file(NULL, kind, &o, st, out, dpi) == RENDER_BAD_INPUT ? EXIT_BAD_INPUT : EXIT_FAILURE_RUN;
	}
	struct rinputs in;
	if (rinputs_load(&in, files, nfiles, reps, nreps, NULL))
		return EXIT_BAD_INPUT;
	struct rdata rd;
	rdata_init_inputs(&rd, &in);
	char key[SERIES_KEY];
	int rc = EXIT_OK;
	if ((o.variant[0] && rdata_resolve(&rd, o.variant, key, sizeof(key))) ||
	    (o.compare[0] && rdata_resolve(&rd, o.compare, key, sizeof(key)))) {
		error("unknown variant '%s': not in kernels/variants.c and not in %s",
		      o.variant[0] && rdata_resolve(&rd, o.variant, key, sizeof(key)) ? o.variant : o.compare, in.files);
		rc = EXIT_BAD_INPUT;
	} else if (!in.res.nrecords) {
		error("%s has no records to draw", in.files);
		rc = EXIT_BAD_INPUT;
	} else {
		const struct figkind *k = figkind_find(kind);
		char cut[200];
		if (k && k->cut && k->cut(&rd, &o, cut, sizeof cut)) /* no silent cap (the title says it too) */
			warning("figure %s: %s", kind, cut);
		int r = render_figure_file(&rd, kind, &o, st, out, dpi);
		rc = r == RENDER_OK ? EXIT_OK : r == RENDER_BAD_INPUT ? EXIT_BAD_INPUT : EXIT_FAILURE_RUN;
	}
	rinputs_release(&in);
	return rc;
}

#else

int cmd_figure(int argc, char **argv)
{
	return render_command_absent(argc, argv, "figure", "usage: attnprof figure KIND RESULTS... [options] -o OUT.svg|.png|.pdf");
}

#endif
