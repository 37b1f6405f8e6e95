/* test_spec.c: spec parsing, sweep expansion, and one bad file per error
 * case (the files in tests/fixtures/specs/bad: the first line says
 * "# expect: <text the error must contain>"). */

#include "bad_files.h"
#include "check.h"
#include "metric_sets.h"
#include "spec.h"
#include "util/error.h"

static int load(struct spec *s, const char *path)
{
	spec_init(s);
	int old = error_quiet(1);
	int rc = spec_load(s, path);
	error_quiet(old);
	return rc;
}

static int parse_text(struct spec *s, const char *text)
{
	spec_init(s);
	int old = error_quiet(1);
	int rc = spec_parse(s, text, strlen(text), "inline.yaml");
	error_quiet(old);
	return rc;
}

static void test_fa2_paper_expands(void)
{
	struct spec s;
	CHECK_INT(load(&s, "experiments/fa2-paper.yaml"), 0);
	/* forward: 3 variants × 2 head dims × 2 causal × 6 lengths; backward and
	 * fwd+bwd: standard and flash2 at the same shapes */
	CHECK_INT(s.nconfigs, 72 + 2 * 2 * 24);
	size_t passes[PASS_COUNT] = { 0 };
	for (size_t i = 0; i < s.nconfigs; i++)
		passes[s.configs[i].shape.pass]++;
	CHECK_INT(passes[PASS_FWD], 72);
	CHECK_INT(passes[PASS_BWD], 48);
	CHECK_INT(passes[PASS_FWDBWD], 48);
	int seen512 = 0;
	for (size_t i = 0; i < s.nconfigs; i++) {
		const struct attn_shape *sh = &s.configs[i].shape;
		/* batch·seqlen = 16k tokens, hidden = H·d = 2048 */
		CHECK_INT((long long)sh->batch * sh->seqlen_q, 16384);
		CHECK_INT((long long)sh->heads * sh->head_dim, 2048);
		CHECK_INT(sh->kv_heads, sh->heads);
		CHECK_INT(sh->seqlen_q, sh->seqlen_kv);
		CHECK(sh->dtype == DTYPE_FP16 && sh->phase == PHASE_PREFILL);
		if (sh->seqlen_q == 512 && sh->head_dim == 64) {
			CHECK_INT(sh->batch, 32);
			CHECK_INT(sh->heads, 32);
			seen512++;
		}
	}
	CHECK_INT(seen512, 6 + 8); /* 3 variants × 2 causal forward; 2 × 2 causal × 2 passes */
	/* variant innermost: one shape's variants are adjacent (same inputs) */
	CHECK_STR(s.configs[0].variant->name, "standard");
	CHECK_STR(s.configs[1].variant->name, "flash1");
	CHECK_STR(s.configs[2].variant->name, "flash2");
	CHECK_STR(s.name, "fa2-paper");
	CHECK_STR(s.metric_set, "default");
	CHECK(s.nmetrics > 5);
	CHECK_INT(s.repetitions, 20);
	spec_release(&s);
}

static void test_shipped_specs_valid(void)
{
	const char *files[] = { "experiments/smoke.yaml", "experiments/decode.yaml",
				"experiments/fa2-paper.yaml" };
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		struct spec s;
		int rc = load(&s, files[i]);
		if (rc)
			printf("    %s: %s\n", files[i], error_last());
		CHECK_INT(rc, 0);
		CHECK(s.nconfigs > 0);
		CHECK_INT(spec_check_memory(&s, 139ull << 30, 132), 0);
		spec_release(&s);
	}
}

static void test_decode_blocks(void)
{
	struct spec s;
	CHECK_INT(parse_text(&s,
		"name: d\nhead_dim: 128\nheads: 32\n"
		"sweeps:\n"
		"  - {phase: decode, variants: [decode-flash2, decode-splitkv], query_len: [1, 4], kv_len: [4k, 64k], batch: [1, 8]}\n"
		"  - {variants: flash2, seqlen: 4k, batch: 1, causal: [true]}\n"), 0);
	CHECK_INT(s.nconfigs, 2 * 2 * 2 * 2 + 1);
	const struct attn_shape *d = &s.configs[0].shape;
	CHECK(d->phase == PHASE_DECODE);
	CHECK_INT(d->seqlen_q, 1);
	CHECK_INT(d->seqlen_kv, 4096);
	const struct attn_shape *p = &s.configs[s.nconfigs - 1].shape;
	CHECK(p->phase == PHASE_PREFILL && p->causal);
	CHECK_INT(p->seqlen_q, 4096);
	spec_release(&s);
}

static void test_defaults_and_overrides(void)
{
	struct spec s;
	CHECK_INT(parse_text(&s,
		"name: o\nvariants: flash2\nhead_dim: 64\nseqlen: 1000\nheads: 8\nkv_heads: 2\n"
		"seed: 99\nwarmup: 0\ncheck_rows: 0\nmetrics: none\nmax_device_memory: 1 GiB\n"
		"tolerances: {bf16: {max_abs: 0.1}}\n"), 0);
	CHECK_INT(s.nconfigs, 1);
	CHECK_INT(s.configs[0].shape.batch, 1);
	CHECK_INT(s.configs[0].shape.kv_heads, 2);
	CHECK_INT(s.seed, 99);
	CHECK_INT(s.warmup, 0);
	CHECK_INT(s.check_rows, 0);
	CHECK_INT(s.nmetrics, 0);
	CHECK_STR(s.metric_set, "none");
	CHECK_INT(s.max_device_bytes, 1ull << 30);
	CHECK_NEAR(s.tol[DTYPE_BF16].max_abs, 0.1, 1e-12);
	CHECK_NEAR(s.tol[DTYPE_FP16].max_abs, 1e-2, 1e-12); /* default kept */
	spec_release(&s);
}

/* Replay: auto by default; kernel replay for a variant that writes its
 * inputs; user replay refused for such a sweep. */
static void test_replay(void)
{
	struct spec s;
	CHECK_INT(parse_text(&s, "name: r\nvariants: [standard, flash2]\nhead_dim: 64\nseqlen: 64\nheads: 1\n"), 0);
	CHECK_INT(s.replay, REPLAY_AUTO);
	CHECK_INT(replay_is_kernel(&s, s.configs[0].variant), 0); /* nothing writes its inputs */
	spec_release(&s);
	CHECK_INT(parse_text(&s, "name: r\nvariants: flash2\nhead_dim: 64\nseqlen: 64\nheads: 1\nreplay: kernel\n"), 0);
	CHECK_INT(s.replay, REPLAY_KERNEL);
	CHECK_INT(replay_is_kernel(&s, s.configs[0].variant), 1);
	CHECK_STR(replay_mode_name(s.replay), "kernel");
	spec_release(&s);
	CHECK_INT(parse_text(&s, "name: r\nvariants: flash2\nhead_dim: 64\nseqlen: 64\nheads: 1\nreplay: user\n"), 0);
	CHECK_INT(s.replay, REPLAY_USER);

	/* a variant that writes its inputs: kernel replay under auto, user refused */
	struct variant_desc inplace = *s.configs[0].variant;
	inplace.name = "inplace";
	inplace.writes_inputs = 1;
	CHECK_INT(replay_is_kernel(&s, &inplace), 0); /* user: as asked */
	s.replay = REPLAY_AUTO;
	CHECK_INT(replay_is_kernel(&s, &inplace), 1);
	s.replay = REPLAY_USER;
	s.configs[0].variant = &inplace;
	int old = error_quiet(1);
	CHECK_INT(spec_check_replay(&s, "--replay"), -1);
	CHECK_CONTAINS(error_last(), "--replay: user replay cannot profile inplace");
	s.replay = REPLAY_AUTO;
	CHECK_INT(spec_check_replay(&s, "--replay"), 0);
	error_quiet(old);
	spec_release(&s);

	/* SASS instruction metrics (the full set) read 0 under user replay:
	 * auto takes kernel replay for them, user is refused */
	CHECK(metric_needs_kernel_replay("smsp__sass_thread_inst_executed_op_ffma_pred_on.sum"));
	CHECK(!metric_needs_kernel_replay("smsp__inst_executed_pipe_xu.sum"));
	CHECK_INT(parse_text(&s, "name: r\nvariants: flash2\nhead_dim: 64\nseqlen: 64\nheads: 1\nmetrics: full\n"), 0);
	CHECK_INT(replay_is_kernel(&s, s.configs[0].variant), 1);
	s.replay = REPLAY_USER;
	old = error_quiet(1);
	CHECK_INT(spec_check_replay(&s, "--replay"), -1);
	error_quiet(old);
	CHECK_CONTAINS(error_last(), "SASS instruction metrics such as 'smsp__sass_");
	CHECK_CONTAINS(error_last(), "metric set 'full'");
	spec_release(&s);
	CHECK_INT(parse_text(&s, "name: r\nvariants: flash2\nhead_dim: 64\nseqlen: 64\nheads: 1\nmetrics: default\n"), 0);
	CHECK_INT(replay_is_kernel(&s, s.configs[0].variant), 0);
	spec_release(&s);
	old = error_quiet(1);
	CHECK_INT(parse_text(&s, "name: r\nvariants: flash2\nhead_dim: 64\nseqlen: 64\nheads: 1\nmetrics: full\nreplay: user\n"), -1);
	error_quiet(old);
	CHECK_CONTAINS(error_last(), "SASS");
	spec_release(&s); /* a failed parse is released too (it leaked: make SAN=1 test) */

	enum replay_mode m = REPLAY_USER;
	CHECK_INT(replay_mode_parse("auto", &m), 0);
	CHECK_INT(m, REPLAY_AUTO);
	CHECK_INT(replay_mode_parse("Kernel", &m), -1);
	CHECK_INT(replay_mode_parse(NULL, &m), -1);
}

static void test_custom_metric_set(void)
{
	struct spec s;
	CHECK_INT(parse_text(&s,
		"name: m\nvariants: flash2\nhead_dim: 64\nseqlen: 64\nheads: 1\n"
		"metric_sets: {bytes: [dram__bytes_read.sum, dram__bytes_write.sum]}\nmetrics: bytes\n"), 0);
	CHECK_INT(s.nmetrics, 2);
	CHECK_STR(s.metrics[1], "dram__bytes_write.sum");
	spec_release(&s);
}

static void test_memory_limit(void)
{
	struct spec s;
	CHECK_INT(parse_text(&s, "name: big\nvariants: standard\nhead_dim: 128\nseqlen: 64k\nbatch: 16\nheads: 16\n"), 0);
	/* standard stores S and P: 2·16·16·64k·64k·2 bytes = 64 TiB */
	int old = error_quiet(1);
	CHECK_INT(spec_check_memory(&s, 139ull << 30, 132), -1);
	error_quiet(old);
	CHECK_CONTAINS(error_last(), "more than the");
	CHECK_CONTAINS(error_last(), "standard");
	spec_release(&s);
}

/* Every bad file fails, quickly, with the text its first line promises. */
static int load_and_release(const char *path)
{
	struct spec s;
	int rc = load(&s, path);
	spec_release(&s);
	return rc;
}

/* The pass axis: a list expands inside each shape (after the shape, before
 * the variants), the record carries it, and what cannot run is refused
 * with its location. */
static void test_pass_axis(void)
{
	struct spec s;
	CHECK_INT(parse_text(&s, "name: p\nvariants: [standard, flash2]\nhead_dim: 64\nseqlen: [128, 256]\nheads: 2\n"
				 "pass: [fwd, bwd, fwd+bwd]\n"), 0);
	CHECK_INT(s.nconfigs, 12);
	CHECK_INT(s.configs[0].shape.pass, PASS_FWD);
	CHECK_INT(s.configs[2].shape.pass, PASS_BWD);
	CHECK_STR(s.configs[3].variant->name, "flash2");
	CHECK_INT(s.configs[5].shape.pass, PASS_FWDBWD);
	CHECK_INT(s.configs[6].shape.seqlen_q, 256);
	struct record rec;
	record_init(&rec);
	CHECK_INT(config_to_record(&s.configs[2], "attnprof", &rec), 0);
	CHECK_STR(record_pass(&rec), "bwd");
	record_release(&rec);
	record_init(&rec);
	CHECK_INT(config_to_record(&s.configs[0], "attnprof", &rec), 0);
	CHECK(!rec.pass_given); /* forward records look as they did before the pass */
	CHECK_STR(record_pass(&rec), "fwd");
	record_release(&rec);
	spec_release(&s);

	CHECK_INT(parse_text(&s, "name: p\nvariants: [flash2, flash1]\nhead_dim: 64\nseqlen: 128\nheads: 2\npass: bwd\n"), -1);
	CHECK_CONTAINS(error_last(), "inline.yaml:2:");
	CHECK_CONTAINS(error_last(), "variant 'flash1' has no bwd kernels");
	spec_release(&s);
	CHECK_INT(parse_text(&s, "name: p\nvariants: flash2\nhead_dim: 64\nseqlen: 128\nheads: 2\npass: [fwd, backward]\n"), -1);
	CHECK_CONTAINS(error_last(), "inline.yaml:6:");
	CHECK_CONTAINS(error_last(), "unknown pass 'backward'");
	spec_release(&s);
	CHECK_INT(parse_text(&s, "name: p\nphase: decode\nvariants: decode-flash2\nhead_dim: 64\nquery_len: 1\nkv_len: 128\n"
				 "heads: 2\npass: bwd\n"), -1);
	CHECK_CONTAINS(error_last(), "decode runs the forward only");
	spec_release(&s);
}

static void test_bad_specs(void)
{
	CHECK(check_bad_files("tests/fixtures/specs/bad", load_and_release, 0) >= 25);
}

TESTS(test_pass_axis, test_fa2_paper_expands, test_shipped_specs_valid, test_decode_blocks,
      test_defaults_and_overrides, test_replay, test_custom_metric_set, test_memory_limit,
      test_bad_specs)
