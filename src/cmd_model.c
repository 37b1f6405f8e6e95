/* cmd_model.c: 'attnprof model SPEC' — the analytic model's predictions
 * for every config of a spec, without a GPU: a table for people, or the
 * flat rows of 'export --json' / '--csv' (source "model", the config keys,
 * then model.<quantity>) for planning a sweep in pandas.  docs/model.md
 * gives the formulas. */
#include <getopt.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "export.h"
#include "model.h"
#include "spec.h"
#include "util/error.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: attnprof model SPEC [--json | --csv] [--gpu-sms N] [--tflops T] [--gbs G]\n"
		"\n"
		"Print the analytic model's predictions for every config of an experiment\n"
		"spec: FLOPs, minimum HBM bytes, SM<->L2 bytes from the block sizes, device\n"
		"footprint, thread blocks, blocks per SM, waves, SMs idle in the last wave,\n"
		"and the roofline time.  Needs no GPU.  Formulas: docs/model.md.\n"
		"\n"
		"  --json        the flat rows 'attnprof export --json' prints (source \"model\",\n"
		"                the config keys, then model.<quantity>)\n"
		"  --csv         the same rows as CSV\n"
		"  --gpu-sms N   SMs of the GPU (default 132, an H200)\n"
		"  --tflops T    dense fp16/bf16 tensor rate for the roofline (default %.1f, datasheet)\n"
		"  --gbs G       HBM bandwidth in GB/s for the roofline (default %.0f, datasheet)\n"
		"  --list        list the model's quantities with their units and meaning\n"
		"\n"
		"exit status: 0 success, 2 bad spec or usage (the message names file:line:col)\n",
		H200_TENSOR_TFLOPS, H200_HBM_GBS);
}

static int parse_positive(const char *opt, const char *arg, double *out)
{
	char *end;
	double v = strtod(arg, &end);
	if (*end || !(v > 0))
		return error("%s '%s' is not a positive number", opt, arg);
	*out = v;
	return 0;
}

static void list_quantities(void)
{
	for (size_t i = 0; i < model_quantity_count; i++)
		printf("model.%-22s %-8s %s\n", model_quantities[i].name,
		       model_quantities[i].unit, model_quantities[i].about);
}

static const char *gflop(double flops, char *buf, size_t len)
{
	snprintf(buf, len, "%.1f", flops / 1e9);
	return buf;
}

static void print_table(const struct spec *s, const struct model *ms)
{
	char a[32], b[32], c[32], d[32], e[160];
	printf("%-26s %-5s %3s %3s %4s %6s %6s %4s %-3s %9s %11s %11s %11s %7s %3s %5s %4s %9s %-7s\n",
	       "variant", "dtype", "B", "H", "Hkv", "Nq", "Nkv", "d", "cau", "GFLOP", "HBM min",
	       "L2<->SM", "footprint", "blocks", "/SM", "waves", "idle", "ms", "bound");
	for (size_t i = 0; i < s->nconfigs; i++) {
		const struct config *cf = &s->configs[i];
		const struct attn_shape *sh = &cf->shape;
		const struct model *m = &ms[i];
		printf("%-26s %-5s %3d %3d %4d %6d %6d %4d %-3s %9s %11s %11s %11s %7.0f %3d %5.0f %4d %9.4f %-7s\n",
		       cf->variant->name, dtype_name(sh->dtype), sh->batch, sh->heads, sh->kv_heads,
		       sh->seqlen_q, sh->seqlen_kv, sh->head_dim, sh->causal ? "yes" : "no",
		       gflop(m->flops, a, sizeof(a)), format_bytes(m->hbm_bytes_min, b, sizeof(b)),
		       format_bytes(m->l2_bytes, c, sizeof(c)), format_bytes(m->footprint_bytes, d, sizeof(d)),
		       m->blocks, m->blocks_per_sm, m->waves, m->idle_sms_last_wave,
		       m->time_roofline_ms, m->bound ? "compute" : "memory");
	}
	if (s->nconfigs)
		printf("%s\n", model_peaks_text(&ms[0], e, sizeof(e)));
}

/* One flat record per config, for export_records(). */
static int config_record(const struct config *cf, const struct model *m, struct record *rec)
{
	record_init(rec);
	if (config_to_record(cf, "model", rec))
		return -1;
	return model_to_kvlist(m, &rec->model);
}

static int print_rows(const struct spec *s, const struct model *ms, enum export_format fmt)
{
	struct record *recs = calloc(s->nconfigs ? s->nconfigs : 1, sizeof(*recs));
	if (!recs)
		return error("out of memory");
	int rc = 0;
	size_t made = 0;
	for (; made < s->nconfigs && !rc; made++)
		rc = config_record(&s->configs[made], &ms[made], &recs[made]);
	if (!rc && export_records(stdout, recs, s->nconfigs, fmt))
		rc = error("cannot write to standard output: %s", strerror(errno ? errno : EIO));
	for (size_t i = 0; i < made; i++)
		record_release(&recs[i]);
	free(recs);
	return rc;
}

int cmd_model(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "csv", no_argument, NULL, 'c' },
		{ "gpu-sms", required_argument, NULL, 's' },
		{ "tflops", required_argument, NULL, 't' },
		{ "gbs", required_argument, NULL, 'g' },
		{ "list", no_argument, NULL, 'l' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct gpu_model g;
	gpu_model_h200(&g);
	int json = 0, csv = 0, c;
	double v = 0;
	char *end;
	optind = 1;
	while ((c = getopt_long(argc, argv, "jcs:t:g:lh", opts, NULL)) != -1) {
		switch (c) {
		case 'j': json = 1; break;
		case 'c': csv = 1; break;
		case 's': {
			long n = strtol(optarg, &end, 10);
			if (*end || n < 1 || n > 100000) {
				error("--gpu-sms '%s' is not a positive whole number", optarg);
				return EXIT_BAD_INPUT;
			}
			g.hw.sm_count = (int)n;
			break;
		}
		case 't':
			if (parse_positive("--tflops", optarg, &v))
				return EXIT_BAD_INPUT;
			g.tensor_tflops = v;
			g.tensor_measured = 1; /* the user's number: no "defaults" caveat */
			break;
		case 'g':
			if (parse_positive("--gbs", optarg, &v))
				return EXIT_BAD_INPUT;
			g.hbm_gbs = v;
			g.hbm_measured = 1;
			break;
		case 'l': list_quantities(); return EXIT_OK;
		case 'h': usage(stdout); return EXIT_OK;
		default: usage(stderr); return EXIT_BAD_INPUT;
		}
	}
	if (json && csv) {
		error("--json and --csv exclude each other: pick one");
		return EXIT_BAD_INPUT;
	}
	struct spec s;
	if (command_load_spec(argc, argv, optind, "model", &s))
		return EXIT_BAD_INPUT;
	struct model *ms = calloc(s.nconfigs ? s.nconfigs : 1, sizeof(*ms));
	if (!ms) {
		spec_release(&s);
		error("out of memory");
		return EXIT_FAILURE_RUN;
	}
	int rc = EXIT_OK;
	for (size_t i = 0; i < s.nconfigs && rc == EXIT_OK; i++)
		if (model_predict(s.configs[i].variant, &s.configs[i].shape, &g, &ms[i]))
			rc = EXIT_BAD_INPUT;
	if (rc == EXIT_OK) {
		if (json || csv) {
			if (print_rows(&s, ms, json ? EXPORT_JSON : EXPORT_CSV))
				rc = EXIT_FAILURE_RUN;
		} else {
			print_table(&s, ms);
		}
	}
	free(ms);
	spec_release(&s);
	return rc;
}
