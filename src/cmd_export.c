/* cmd_export.c: 'attnprof export RESULTS --csv|--json' — flat rows for
 * spreadsheets and pandas (columns in src/export.h); '--trace FILE' — a
 * timeline for Perfetto (src/export_trace.h). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "export.h"
#include "export_trace.h"
#include "results.h"
#include "util/error.h"
#include "util/ustr.h"
#include "util/file.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: attnprof export RESULTS (--csv | --json | --yaml) [-o FILE] [--source S] [--variant V]\n"
		"       attnprof export RESULTS --trace FILE.json [--source S] [--variant V]\n"
		"\n"
		"Flatten a results file: one row per record with source, variant, phase,\n"
		"dtype, batch, heads, kv_heads, seqlen_q, seqlen_kv, head_dim, causal,\n"
		"time_ms, time_ms_min, time_ms_max, tflops, peak_bytes, correct,\n"
		"rel_l2_err, max_abs_err, pass, sm_clock_mhz, sm_clock_mhz_min, settle_ms\n"
		"(the SM clock the timed launches ran at and the settling: empty where not\n"
		"measured), then each CUPTI metric by its name (per-variant\n"
		"totals), alloc.<buffer> per allocation and model.<quantity> per prediction.\n"
		"\n"
		"  --csv          comma-separated, a header line first\n"
		"  --json         an array of objects (missing values are null)\n"
		"  --yaml         a results file in the current format (%s): the same\n"
		"                 header and the records kept, with end markers; rewrites\n"
		"                 a file written in an older format\n"
		"  --trace FILE   a Chrome trace-event file for Perfetto and chrome://tracing:\n"
		"                 a slice per record on its stream, its kernels inside, DRAM,\n"
		"                 L2 and clock as counters; records laid out one after another\n"
		"                 by their measured times (a results file has no absolute times)\n"
		"  -o FILE        write to FILE (default: standard output)\n"
		"  --source S     only records of source S (attnprof, pytorch-sdpa, ...)\n"
		"  --variant V    only records of variant V\n", RESULTS_FORMAT);
}

enum { FMT_YAML = 100, FMT_TRACE }; /* beside enum export_format: a results file, a trace */

int cmd_export(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "csv", no_argument, NULL, 'c' },
		{ "json", no_argument, NULL, 'j' },
		{ "yaml", no_argument, NULL, 'y' },
		{ "trace", required_argument, NULL, 't' },
		{ "output", required_argument, NULL, 'o' },
		{ "source", required_argument, NULL, 's' },
		{ "variant", required_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int fmt = -1, c;
	const char *out = NULL, *source = NULL, *variant = NULL, *trace = NULL;
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
		case 'j':
		case 'y':
		case 't': {
			int f = c == 'c' ? EXPORT_CSV : c == 'j' ? EXPORT_JSON : c == 'y' ? FMT_YAML : FMT_TRACE;
			if (c == 't')
				trace = optarg;
			if (fmt >= 0 && fmt != f) {
				error("--csv, --json, --yaml and --trace exclude each other: pick one");
				return EXIT_BAD_INPUT;
			}
			fmt = f;
			break;
		}
		case 'o': out = optarg; break;
		case 's': source = optarg; break;
		case 'v': variant = optarg; break;
		case 'h': usage(stdout); return EXIT_OK;
		default: usage(stderr); return EXIT_BAD_INPUT;
		}
	}
	if (fmt < 0) {
		error("export needs --csv, --json, --yaml or --trace FILE");
		return EXIT_BAD_INPUT;
	}
	if (fmt == FMT_TRACE) {
		if (out) {
			error("--trace names its own output: drop -o '%s' (--trace FILE)", out);
			return EXIT_BAD_INPUT;
		}
		out = trace;
	}
	if (optind != argc - 1) {
		error(optind >= argc ? "export needs a results file" : "export takes one results file");
		return EXIT_BAD_INPUT;
	}
	struct results r;
	if (results_load(&r, argv[optind], NULL))
		return EXIT_BAD_INPUT;
	/* what the file holds, to name when a filter matches nothing (the first
	 * 64 distinct names of each, in file order) */
	char have_v[1024], have_s[512];
	int any_v = !variant, any_s = !source;
	if (source || variant) {
		const char *vs[64], *ss[64];
		size_t nv = 0, ns = 0;
		struct ustr hv, hs;
		ustr_init(&hv, have_v, sizeof(have_v));
		ustr_init(&hs, have_s, sizeof(have_s));
		for (size_t i = 0; i < r.nrecords; i++) {
			const struct record *rec = &r.records[i];
			any_v |= variant && !strcmp(rec->variant, variant);
			any_s |= source && !strcmp(rec->source, source);
			size_t k = 0;
			while (k < nv && strcmp(vs[k], rec->variant))
				k++;
			if (k == nv && nv < 64) {
				vs[nv++] = rec->variant;
				ustr_addf(&hv, "%s%s", nv > 1 ? ", " : "", rec->variant);
			}
			for (k = 0; k < ns && strcmp(ss[k], rec->source);)
				k++;
			if (k == ns && ns < 64) {
				ss[ns++] = rec->source;
				ustr_addf(&hs, "%s%s", ns > 1 ? ", " : "", rec->source);
			}
		}
	}
	/* Filter in place: records we drop are released now. */
	size_t had = r.nrecords, keep = 0;
	for (size_t i = 0; i < r.nrecords; i++) {
		struct record *rec = &r.records[i];
		if ((source && strcmp(rec->source, source)) || (variant && strcmp(rec->variant, variant))) {
			record_release(rec);
			continue;
		}
		r.records[keep++] = *rec;
	}
	r.nrecords = keep;
	if (had && !keep && (source || variant)) {
		if (!any_v)
			error("no record of variant '%s' in '%s': its variants are %s", variant, argv[optind], have_v);
		else if (!any_s)
			error("no record of source '%s' in '%s': its sources are %s", source, argv[optind], have_s);
		else
			error("no record of source '%s' and variant '%s' in '%s': its sources are %s; its variants %s",
			      source, variant, argv[optind], have_s, have_v);
		results_release(&r);
		return EXIT_BAD_INPUT;
	}
	if (fmt == FMT_YAML && out) {
		/* a results file is written by results_save (atomic, mode kept), and
		 * never over the file it came from */
		const char *what;
		int rc = file_is_input(out, NULL, &what)
			 ? error("refusing to write '%s': it is the %s this command reads (name another output)", out, what)
			 : results_save(&r, out);
		results_release(&r);
		return rc ? (file_is_input(out, NULL, NULL) ? EXIT_BAD_INPUT : EXIT_FAILURE_RUN) : EXIT_OK;
	}
	struct outfile o = { stdout, NULL, "" };
	int orc = out ? outfile_open(&o, out, NULL) : 0;
	if (orc) {
		results_release(&r);
		return orc == -2 ? EXIT_BAD_INPUT : EXIT_FAILURE_RUN;
	}
	errno = 0;
	int rc = fmt == FMT_YAML    ? results_write(&r, o.f)
		 : fmt == FMT_TRACE ? export_trace(o.f, &r, argv[optind])
				    : export_records(o.f, r.records, r.nrecords, (enum export_format)fmt);
	if (rc)
		error("cannot write the export to %s%s%s: %s", out ? "'" : "", out ? out : "standard output", out ? "'" : "",
		      strerror(errno ? errno : EIO));
	if (out)
		rc = rc ? (outfile_abort(&o), rc) : outfile_commit(&o);
	else if (!rc && (fflush(stdout) || ferror(stdout)))
		rc = error("cannot write the export to standard output: %s", strerror(errno));
	results_release(&r);
	return rc ? EXIT_FAILURE_RUN : EXIT_OK;
}
