/* cmd_check.c: 'attnprof check SPEC' — validate a spec and print the
 * expanded sweep with each config's predicted device memory.  Needs no GPU:
 * the memory limit is the GPU's when one is visible, else --memory. */
#include <getopt.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "paged.h"
#include "shard.h"
#include "spec.h"
#include "util/error.h"
#if ATTNPROF_HAVE_CUDA
#include "capture/cupti.h"
#endif

static void usage(FILE *f)
{
	fprintf(f,
		"usage: attnprof check SPEC [--memory SIZE_GIB] [--sms N] [--chip NAME] [--shard K/N] [--quiet]\n"
		"\n"
		"Validate an experiment spec and print its sweep: one line per config\n"
		"with the predicted device memory of its buffers.  Needs no GPU.\n"
		"\n"
		"  --memory GIB  device memory to check against (default 139, an H200)\n"
		"  --sms N       SM count used for split-KV tilings (default 132)\n"
		"  --chip NAME   validate the metric set for this chip and count its passes\n"
		"                (default GH100; needs the GPU half, no GPU)\n"
		"  --shard K/N   only part K of N of the sweep, as 'record --shard K/N' runs it:\n"
		"                disjoint parts, together the sweep, balanced by the model's\n"
		"                predicted time (the summary says each part's share)\n"
		"  --quiet       print only the summary line\n"
		"\n"
		"exit status: 0 valid, 2 invalid (the message names file:line:col)\n");
}

int cmd_check(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "memory", required_argument, NULL, 'm' },
		{ "sms", required_argument, NULL, 's' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "chip", required_argument, NULL, 'c' },
		{ "shard", required_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	double mem_gib = 139.0;
	int sms = H200_SM_COUNT, quiet = 0, c, shard_k = 0, shard_n = 0;
	size_t sweep_configs = 0;
	double total_ms = 0, part_ms = 0;
	const char *chip = "GH100";
	char *end;
	optind = 1;
	while ((c = getopt_long(argc, argv, "m:s:qh", opts, NULL)) != -1) {
		switch (c) {
		case 'm':
			mem_gib = strtod(optarg, &end);
			/* inf and 1e30 are not device memory: (uint64_t) of them is undefined */
			if (*end || !(mem_gib > 0 && mem_gib <= 1 << 24)) {
				error("--memory '%s' is not a number of GiB from more than 0 to %d", optarg, 1 << 24);
				return EXIT_BAD_INPUT;
			}
			break;
		case 's':
			errno = 0;
			long v = strtol(optarg, &end, 10);
			if (*end || errno || v < 1 || v > MAX_SMS) {
				error("--sms '%s' is not a whole number from 1 to %d", optarg, MAX_SMS);
				return EXIT_BAD_INPUT;
			}
			sms = (int)v;
			break;
		case 'q': quiet = 1; break;
		case 'S':
			if (shard_parse("--shard", optarg, &shard_k, &shard_n))
				return EXIT_BAD_INPUT;
			break;
		case 'c': chip = optarg; break;
		case 'h': usage(stdout); return EXIT_OK;
		default: usage(stderr); return EXIT_BAD_INPUT;
		}
	}
	struct spec s;
	if (command_load_spec(argc, argv, optind, "check", &s))
		return EXIT_BAD_INPUT;
	sweep_configs = s.nconfigs;
	if (shard_n && spec_keep_shard(&s, shard_k, shard_n, &total_ms, &part_ms)) {
		spec_release(&s);
		return EXIT_FAILURE_RUN;
	}
	uint64_t limit = (uint64_t)(mem_gib * 1024 * 1024 * 1024);
	if (spec_check_memory(&s, limit, sms)) {
		spec_release(&s);
		return EXIT_BAD_INPUT;
	}
	/* Metric names checked against the chip before any GPU is involved. */
	char passes_text[64] = "";
#if ATTNPROF_HAVE_CUDA
	if (s.nmetrics) {
		int passes = 0;
		if (cupti_validate_metrics(chip, (const char *const *)s.metrics, s.nmetrics, &passes)) {
			spec_release(&s);
			return EXIT_BAD_INPUT;
		}
		snprintf(passes_text, sizeof(passes_text), ", %d pass%s per kernel on %s", passes,
			 passes == 1 ? "" : "es", chip);
	}
#else
	(void)chip;
#endif
	char b[32];
	if (!quiet) {
		printf("%-28s %-8s %-7s %-5s %5s %5s %4s %8s %8s %4s %6s %12s\n", "variant", "phase", "pass", "dtype",
		       "B", "H", "Hkv", "Nq", "Nkv", "d", "causal", "device mem");
		for (size_t i = 0; i < s.nconfigs; i++) {
			const struct config *cf = &s.configs[i];
			const struct attn_shape *sh = &cf->shape;
			printf("%-28s %-8s %-7s %-5s %5d %5d %4d %8d %8d %4d %6s %12s", cf->variant->name,
			       phase_name(sh->phase), pass_name(sh->pass), dtype_name(sh->dtype), sh->batch, sh->heads, sh->kv_heads,
			       sh->seqlen_q, sh->seqlen_kv, sh->head_dim, sh->causal ? "yes" : "no",
			       format_bytes((double)variant_footprint(cf->variant, sh, sms), b, sizeof(b)));
			if (cf->variant->family == FAMILY_SPLITKV) {
				/* the split choice (kernels/variants.c): blocks of a wave, keys per split */
				struct tiling t;
				int g[3];
				cf->variant->tiling(sh, sms, &t);
				cf->variant->grid(sh, &t, 0, g);
				printf("  splits %d (%d blocks, %d keys each)", t.splits, g[0] * g[1], splitkv_chunk(sh, &t));
				if (sh->kv_layout == KV_PAGED)
					printf(", pages of %d", sh->page_size);
				if (sh->kv_dist != KV_DIST_EQUAL)
					printf(", %s lengths up to %d", kv_dist_names[sh->kv_dist], paged_max_len(sh));
			}
			putchar('\n');
		}
	}
	size_t kernel_replay = 0;
	for (size_t i = 0; i < s.nconfigs; i++)
		kernel_replay += replay_is_kernel(&s, s.configs[i].variant);
	if (shard_n)
		printf("%s: shard %d/%d: %zu of the sweep's %zu configs, predicted %.3f of %.3f ms (%.1f %%; "
		       "model roofline time on the H200 defaults)\n", s.path, shard_k, shard_n, s.nconfigs, sweep_configs,
		       part_ms, total_ms, total_ms > 0 ? 100 * part_ms / total_ms : 0.0);
	printf("%s: valid: %zu configs, metric set '%s' (%zu metrics%s), replay %s (%zu user, %zu kernel), "
	       "peak predicted device memory %s\n",
	       s.path, s.nconfigs, s.metric_set, s.nmetrics, passes_text, replay_mode_name(s.replay),
	       s.nconfigs - kernel_replay, kernel_replay, format_bytes((double)spec_peak_memory(&s, sms), b, sizeof(b)));
	spec_release(&s);
	return EXIT_OK;
}
