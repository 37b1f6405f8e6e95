/* cmd_report.c: 'attnprof report' — a results file and a template into a
 * document: a review report, patent drawing sheets or a slide deck (PDF),
 * and optionally every figure of it as SVG and PNG.
 *
 * The work is in src/render/report.c; this file reads the options, loads
 * the results and the template, and turns return codes into exit codes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "commands.h"
#include "util/error.h"

#if ATTNPROF_HAVE_RENDER
#include "layrec.h"
#include "doc/capreview.h"
#include "render/render.h"
#include "util/file.h"
#include "util/yamltree.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: attnprof report RESULTS... -t TEMPLATE [--style STYLE] -o OUT.pdf|OUT.html|OUT.md\n"
		"                       [--repeat RESULTS]... [--counters RESULTS]... [--primary RESULTS]\n"
		"                       [--figures-dir DIR [--dpi D]] [--progress | --quiet]\n"
		"\n"
		"Render a document from one or more results files.  Everything drawn comes\n"
		"from the records and the variants' descriptors; text in the template can\n"
		"quote measured values (docs/templates.md).\n"
		"\n"
		"Several files are merged, whatever order they are given in: a record whose\n"
		"identity (source, variant, phase, pass, dtype, B, H, Hkv, Nq, Nkv, d, causal)\n"
		"is in more than one file is drawn from the newest file (its header date),\n"
		"or from --primary's; the other counts as another run of it (spread, run\n"
		"count; counters the drawn record lacks are taken from it) and a note lists\n"
		"what was superseded.  The conditions are the header of the file most drawn\n"
		"records come from; the dates shown are those of every file drawn from.\n"
		"Every value drawn is the record of one identity: a selection that matches\n"
		"several reads 'not measured' and a warning names it.\n"
		"\n"
		"options:\n"
		"  -t, --template FILE   the template: templates/review.yaml, patent.yaml,\n"
		"                        slides.yaml, or your own\n"
		"  -o, --output FILE     the PDF to write, or NAME.html (one HTML page) or NAME.md\n"
		"                        (GitHub-flavoured Markdown): the same document, its\n"
		"                        figures as SVG in NAME_files/\n"
		"  --style STYLE         color, print, patent or slides (default: the template's)\n"
		"  --figures-dir DIR     also write each figure as DIR/figNN-KIND.svg and .png\n"
		"  --dpi D               PNG resolution for --figures-dir (default 200)\n"
		"  --repeat FILE         a second run of the same specs: not drawn, gives the\n"
		"                        run-to-run spread (ablation chart, {V.spread})\n"
		"  --counters FILE       the same configurations recorded with another metric set\n"
		"                        (experiments/workload.yaml): never drawn; a drawn record\n"
		"                        of the same identity takes the counters it lacks from it\n"
		"  --primary FILE        of the results files, the one whose records win over\n"
		"                        another file's record of the same identity\n"
		"  --trace-records FILE  write every value lookup (what was asked, the record\n"
		"                        drawn, its file) as tab-separated lines, for checks\n"
		"  --missing-spec FILE   also write a spec that records attnprof's references at\n"
		"                        the shapes of captured calls that have none\n"
		"  --progress            say each step on stderr (reading, the model, page k of n,\n"
		"                        figure k of n) even when it is not a terminal\n"
		"  -q, --quiet           no step said, not even on a terminal, and no warning per\n"
		"                        value the results lack\n"
		"\n"
		"styles:\n");
	for (size_t i = 0; i < style_count; i++)
		fprintf(f, "  %-8s %s\n", style_table[i]->name, style_table[i]->about);
	fprintf(f,
		"\n"
		"example:\n"
		"  attnprof report experiments/results/fa2-paper.yaml -t templates/review.yaml -o review.pdf\n"
		"  attnprof report experiments/results/{fa2-paper,decode,ablation}.yaml \\\n"
		"      --repeat experiments/results/repeats/ablation-run2.yaml -t templates/review.yaml -o h200.pdf\n"
		"\n"
		"exit status: 0 written, 1 cannot write or render, 2 bad results file,\n"
		"template (file:line:col) or option.\n");
}

/* The spec of the references missing at captured shapes (capreview.h), atomically. */
static int write_missing_spec(const struct rdata *rd, const char *path)
{
	/* through outfile: whole or not at all, and never over an input (the
	 * results, the template); the spec has no length limit */
	struct outfile of;
	int orc = outfile_open(&of, path, NULL);
	if (orc)
		return orc;
	int n = capture_missing_spec(rd, of.f);
	if (!n)
		fputs("# every captured forward shape has its reference records\n", of.f);
	if (n < 0 || ferror(of.f)) {
		int e = errno;
		outfile_abort(&of);
		return n < 0 ? -1 : error("cannot write '%s': %s", path, strerror(e ? e : EIO));
	}
	if (outfile_commit(&of))
		return -1;
	note("wrote %s: %d shape%s without reference records", path, n, n == 1 ? "" : "s");
	return 0;
}

/* report's command line: its results files, repeat files and options. */
struct report_args {
	const char *files[32], *reps[32], *counters[32];
	size_t nfiles, nreps, ncounters;
	const char *results, *tpl, *out, *style, *figdir, *missing, *primary, *trace_path;
	double dpi;
	int quiet, progress;
};

/* EXIT_OK with *x filled (or *help set: usage printed), or the exit code. */
static int report_options(int argc, char **argv, struct report_args *x, int *help)
{
	*x = (struct report_args){ .dpi = RENDER_DPI_DEFAULT };
	*help = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		int has = i + 1 < argc;
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage(stdout);
			*help = 1;
			return EXIT_OK;
		} else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
			x->quiet = 1;
		} else if (!strcmp(a, "--progress")) {
			x->progress = 1;
		} else if (!strcmp(a, "-t") || !strcmp(a, "--template") || !strcmp(a, "-o") || !strcmp(a, "--output") ||
			   !strcmp(a, "--style") || !strcmp(a, "--figures-dir") || !strcmp(a, "--dpi") ||
			   !strcmp(a, "--missing-spec") || !strcmp(a, "--primary") || !strcmp(a, "--trace-records")) {
			if (!has) {
				error("option '%s' needs a value (see 'attnprof report --help')", a);
				return EXIT_BAD_INPUT;
			}
			const char *v = argv[++i];
			if (a[1] == 't' || !strcmp(a, "--template")) x->tpl = v;
			else if (a[1] == 'o' || !strcmp(a, "--output")) x->out = v;
			else if (!strcmp(a, "--style")) x->style = v;
			else if (!strcmp(a, "--figures-dir")) x->figdir = v;
			else if (!strcmp(a, "--missing-spec")) x->missing = v;
			else if (!strcmp(a, "--primary")) x->primary = v;
			else if (!strcmp(a, "--trace-records")) x->trace_path = v;
			else {
				char *e;
				x->dpi = strtod(v, &e);
				if (*e || !(x->dpi >= 10 && x->dpi <= 2400)) {
					error("--dpi must be a number from 10 to 2400, not '%s'", v);
					return EXIT_BAD_INPUT;
				}
			}
		} else if (!strcmp(a, "--repeat") || !strcmp(a, "--counters")) {
			if (!has) {
				error("option '%s' needs a value (see 'attnprof report --help')", a);
				return EXIT_BAD_INPUT;
			}
			const int rep = !strcmp(a, "--repeat");
			if ((rep ? x->nreps : x->ncounters) == 32) {
				error("at most 32 %s files", rep ? "repeat" : "counters");
				return EXIT_BAD_INPUT;
			}
			if (rep)
				x->reps[x->nreps++] = argv[++i];
			else
				x->counters[x->ncounters++] = argv[++i];
		} else if (a[0] == '-' && a[1]) {
			static const char *const opts[] = { "--template", "--output", "--style", "--figures-dir", "--dpi",
							    "--repeat", "--counters", "--missing-spec", "--primary", "--trace-records",
							    "--progress", "--quiet", "--help" };
			const char *near = nearest_word(a, opts, sizeof(opts) / sizeof(*opts));
			error("unknown option '%s'%s%s%s", a, near ? ": did you mean '" : " (see 'attnprof report --help')",
			      near ? near : "", near ? "'?" : "");
			return EXIT_BAD_INPUT;
		} else if (x->nfiles < 32) {
			if (!x->results)
				x->results = a;
			x->files[x->nfiles++] = a;
		} else {
			error("unexpected argument '%s': report takes at most 32 results files", a);
			return EXIT_BAD_INPUT;
		}
	}
	if (!x->results || !x->tpl || !x->out) {
		error("%s", !x->results ? "no results file given" : !x->tpl ? "no template given: -t templates/review.yaml"
							 : "no output given: -o OUT.pdf");
		usage(stderr);
		return EXIT_BAD_INPUT;
	}
	return EXIT_OK;
}

/* The writers, by the output's extension (.HTML alike, as .PDF). */
static const struct {
	const char *ext;
	int (*write)(const struct template *, struct rdata *, const struct report_opts *, struct report_stats *);
	int layout; /* a layout record beside it, for the linter (paged output) */
} writers[] = {
	{ ".pdf", report_render, 1 }, { ".html", report_html, 0 }, { ".md", report_markdown, 0 },
};

int cmd_report(int argc, char **argv)
{
	static struct report_args x;
	int help, orc = report_options(argc, argv, &x, &help);
	if (orc != EXIT_OK || help)
		return orc;
	const struct rstyle *st = NULL;
	if (x.style && !(st = style_find(x.style))) {
		error("unknown style '%s' (color, print, patent, slides)", x.style);
		return EXIT_BAD_INPUT;
	}
	size_t olen = strlen(x.out), w = 0;
	for (; w < sizeof writers / sizeof writers[0]; w++) {
		size_t el = strlen(writers[w].ext);
		if (olen > el && !strcasecmp(x.out + olen - el, writers[w].ext))
			break;
	}
	if (w == sizeof writers / sizeof writers[0]) {
		error("a report is a PDF, an HTML page or Markdown: name the output '%s' with .pdf, .html or .md "
		      "(use --figures-dir for SVG and PNG)", x.out);
		return EXIT_BAD_INPUT;
	}
	struct template t;
	if (template_load(&t, x.tpl))
		return EXIT_BAD_INPUT;
	struct progress pr;
	progress_init(&pr, x.progress, x.quiet);
	progress_step(&pr, "reading %zu results file%s", x.nfiles + x.nreps + x.ncounters,
		      x.nfiles + x.nreps + x.ncounters == 1 ? "" : "s");
	struct rinputs in;
	const struct rinputs_args ia = { x.files, x.nfiles, x.reps, x.nreps, x.primary, x.counters, x.ncounters };
	if (rinputs_load_args(&in, &ia)) {
		template_release(&t);
		return EXIT_BAD_INPUT;
	}
	struct rdata rd;
	rdata_init_inputs(&rd, &in);
	struct rtrace trace = { 0 };
	rd.trace = &trace;
	int rc = EXIT_OK;
	/* the trace is one of the report's outputs: through outfile, in its
	 * transaction, so it replaces no input and no other output */
	struct outfile tof = { 0 };
	outfile_begin();
	if (x.trace_path) {
		int trc = outfile_open(&tof, x.trace_path, NULL);
		if (trc) {
			outfile_end(0);
			rinputs_release(&in);
			template_release(&t);
			return trc == -2 ? EXIT_BAD_INPUT : EXIT_FAILURE_RUN;
		}
		trace.f = tof.f;
	}
	if (!in.res.nrecords) {
		error("%s has no records: nothing to report (record some with 'attnprof record')", in.files);
		rc = EXIT_BAD_INPUT;
	} else {
		char layout[4200];
		layrec_path(x.out, layout, sizeof(layout));
		struct report_opts o = { st, x.out, x.figdir, x.dpi, x.quiet, writers[w].layout ? layout : NULL, &pr };
		progress_step(&pr, "%zu record%s read; building the document model", in.res.nrecords,
			      in.res.nrecords == 1 ? "" : "s");
		struct report_stats s;
		struct timespec t0, t1;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		/* every file of the report (PDF or page, layout, notes, figures,
		 * missing spec, trace) renamed into place together, or none */
		int r = writers[w].write(&t, &rd, &o, &s);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		progress_clear();
		if (r == RENDER_OK) {
			char gap[600];
			if (rd.synthetic)
				warning("%s is a synthetic test fixture, not measurements: every page says so", in.files);
			rdata_gap(&rd, gap, sizeof(gap));
			if (gap[0])
				note("%s", gap);
			int mrc = x.missing ? write_missing_spec(&rd, x.missing) : 0;
			if (mrc)
				rc = mrc == -2 ? EXIT_BAD_INPUT : EXIT_FAILURE_RUN;
			if (rc == EXIT_OK && tof.f) {
				trace.f = NULL;
				if (outfile_commit(&tof))
					rc = EXIT_FAILURE_RUN;
			}
			if (outfile_end(rc == EXIT_OK) && rc == EXIT_OK)
				rc = EXIT_FAILURE_RUN;
			if (trace.ambiguous)
				warning("%u value%s named no one record and read 'not measured' (first: %s): state the shape "
					"(B, H or the family B·N, H·d) in the template", trace.ambiguous,
					trace.ambiguous == 1 ? "" : "s", trace.first_ambiguous);
			if (s.missing && x.quiet)
				note("%d value%s in the text had no data and read 'n/a'", s.missing, s.missing == 1 ? "" : "s");
			if (rc != EXIT_OK)
				note("nothing written: %s and the files beside it are as they were", x.out);
			else
				fprintf(stderr, "attnprof: wrote %s: %d page%s, %d figure%s, %d table%s (%.2f s)\n", x.out, s.pages,
				s.pages == 1 ? "" : "s", s.figures, s.figures == 1 ? "" : "s", s.tables, s.tables == 1 ? "" : "s",
				(double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
		} else {
			/* none of the outputs is renamed into place: the old ones stay */
			outfile_end(0);
			rc = r == RENDER_BAD_INPUT ? EXIT_BAD_INPUT : EXIT_FAILURE_RUN;
		}
	}
	if (tof.f)
		outfile_abort(&tof);
	outfile_end(0); /* a no-op after outfile_end above */
	rinputs_release(&in);
	template_release(&t);
	return rc;
}

#else

int cmd_report(int argc, char **argv)
{
	return render_command_absent(argc, argv, "report", "usage: attnprof report RESULTS... -t TEMPLATE [--style STYLE] -o OUT.pdf");
}

#endif
