/* test_capture.c: what `record -- CMD` decides without a GPU — the range
 * grammar, the implementation-family table, the stored-or-not verdict, and
 * the results round trip of a captured call. */
#include <unistd.h>

#include "capture/family.h"
#include "capture/group.h"
#include "capture/merge.h"
#include "capture/range_name.h"
#include "capture/shapeinfer.h"
#include "capture/verdict.h"
#include "check.h"
#include "results.h"
#include "util/error.h"

static void test_range_full(void)
{
	struct call_id id;
	char why[200];
	CHECK_INT(range_parse("attnprof: impl=sdpa-flash B=2 H=16 Hkv=4 Nq=2048 Nkv=2048 d=128 causal=1 "
			      "dtype=bf16 pass=bwd call=7 origin=python-sdpa", &id, why, sizeof why), 0);
	CHECK_STR(id.impl, "sdpa-flash");
	CHECK_STR(id.origin, "python-sdpa");
	CHECK_INT(id.shape.dtype, DTYPE_BF16);
	CHECK_INT(id.shape.pass, PASS_BWD);
	CHECK_INT(id.shape.batch, 2); CHECK_INT(id.shape.heads, 16); CHECK_INT(id.shape.kv_heads, 4);
	CHECK_INT(id.shape.seqlen_q, 2048); CHECK_INT(id.shape.seqlen_kv, 2048); CHECK_INT(id.shape.head_dim, 128);
	CHECK_INT(id.shape.causal, 1); CHECK_INT(id.call, 7); CHECK_INT(id.shape_known, 1);
	CHECK_INT(call_phase(&id), PHASE_PREFILL);
	/* format is parse's inverse */
	char buf[256];
	struct call_id back;
	CHECK_INT(range_parse(range_format(&id, buf, sizeof buf), &back, why, sizeof why), 0);
	CHECK_INT(memcmp(&id, &back, sizeof id), 0);
}

/* transformers' eager path: an additive mask read as the causal pattern makes the call causal */
static void test_range_mask(void)
{
	struct call_id id, back;
	char why[200], buf[300];
	CHECK_INT(range_parse("attnprof: impl=transformers-eager B=1 H=32 Nq=512 Nkv=512 d=128 mask=additive-causal",
			      &id, why, sizeof why), 0);
	CHECK_INT(id.shape.causal, 1);
	CHECK_STR(id.mask, "additive-causal");
	CHECK_INT(range_parse(range_format(&id, buf, sizeof buf), &back, why, sizeof why), 0);
	CHECK_INT(memcmp(&id, &back, sizeof id), 0);
	CHECK_INT(range_parse("attnprof: impl=e causal=0 mask=additive", &id, why, sizeof why), 0);
	CHECK_INT(id.shape.causal, 0);
	CHECK_INT(range_parse("attnprof: impl=e causal=0 mask=bool-causal", &id, why, sizeof why), 1);
	CHECK_CONTAINS(why, "says causal");
	CHECK_INT(range_parse("attnprof: impl=e mask=causal", &id, why, sizeof why), 1);
	CHECK_CONTAINS(why, "mask must be");
}

static void test_range_defaults_and_decode(void)
{
	struct call_id id;
	char why[200];
	CHECK_INT(range_parse("attnprof: impl=x B=1 H=32 Nq=1 Nkv=4096 d=128", &id, why, sizeof why), 0);
	CHECK_INT(id.shape.kv_heads, 32);
	CHECK_INT(id.shape.pass, PASS_FWD);
	CHECK_INT(id.shape.dtype, DTYPE_UNKNOWN); /* not given */
	CHECK_INT(id.shape.phase, PHASE_DECODE);
	CHECK_INT(id.call, -1);
	CHECK_INT(call_phase(&id), PHASE_DECODE);
	/* impl alone: a call with its shape unknown, not an error */
	CHECK_INT(range_parse("attnprof:   impl=mykernel  ", &id, why, sizeof why), 0);
	CHECK_INT(id.shape_known, 0);
	CHECK_INT(call_phase(&id), PHASE_UNKNOWN);
}

static void test_range_bad(void)
{
	struct call_id id;
	char why[200];
	CHECK_INT(range_parse("attention", &id, why, sizeof why), -1);
	CHECK_INT(range_parse("attnprof: impl=a N=128", &id, why, sizeof why), 1);
	CHECK_CONTAINS(why, "unknown key 'N'");
	CHECK_CONTAINS(why, "did you mean");
	CHECK_STR(id.impl, "a"); /* what could be read is kept */
	CHECK_INT(id.shape_known, 0);
	CHECK_INT(range_parse("attnprof: impl=a B=2 H=16", &id, why, sizeof why), 1);
	CHECK_CONTAINS(why, "all of B, H, Nq, Nkv and d");
	struct attn_shape sh; /* what was read of a broken shape is not the record's */
	call_shape(&id, &sh);
	CHECK_INT(sh.batch, 0); CHECK_INT(sh.heads, 0); CHECK_INT(sh.phase, PHASE_UNKNOWN);
	CHECK_INT(range_parse("attnprof: impl=a dtype=half", &id, why, sizeof why), 1); /* no aliases */
	CHECK_INT(range_parse("attnprof: impl=a B=0 H=1 Nq=1 Nkv=1 d=64", &id, why, sizeof why), 1);
	CHECK_INT(range_parse("attnprof: impl=a B=99999999999 H=1 Nq=1 Nkv=1 d=64", &id, why, sizeof why), 1);
	CHECK_INT(range_parse("attnprof: impl=a H=6 Hkv=4 B=1 Nq=1 Nkv=1 d=64", &id, why, sizeof why), 1);
	CHECK_CONTAINS(why, "does not divide");
	CHECK_INT(range_parse("attnprof: impl=a impl=b", &id, why, sizeof why), 1);
	CHECK_CONTAINS(why, "twice");
	CHECK_INT(range_parse("attnprof: B=1", &id, why, sizeof why), 1);
	CHECK_INT(range_parse("attnprof: impl=a dtype=fp8", &id, why, sizeof why), 1);
	CHECK_INT(range_parse("attnprof: impl=a pass=both", &id, why, sizeof why), 1);
	/* a block mask's density is a fraction of the tile pairs, in (0, 1] */
	CHECK_INT(range_parse("attnprof: impl=a density=0", &id, why, sizeof why), 1);
	CHECK_INT(range_parse("attnprof: impl=a density=1.5", &id, why, sizeof why), 1);
	CHECK_INT(range_parse("attnprof: impl=a density=0.3x", &id, why, sizeof why), 1);
	CHECK_INT(range_parse("attnprof: impl=a density=nan", &id, why, sizeof why), 1);
	CHECK_INT(range_parse("attnprof: impl=flex-compiled B=16 H=16 Nq=1024 Nkv=1024 d=128 density=0.5625", &id, why,
			      sizeof why), 0);
	CHECK(id.density == 0.5625);
	char buf[256];
	struct call_id back;
	CHECK_INT(range_parse(range_format(&id, buf, sizeof buf), &back, why, sizeof why), 0);
	CHECK(back.density == 0.5625);
	CHECK_INT(range_parse("attnprof: impl=a<b>", &id, why, sizeof why), 1);
	CHECK_STR(id.impl, "unknown");
	CHECK_INT(range_parse("attnprof: impl=a junk", &id, why, sizeof why), 1);
	CHECK_CONTAINS(why, "not KEY=VALUE");
}

/* XLA's thunk titles carry the helper's named_scope (range_find_embedded) */
static void test_range_embedded(void)
{
	char buf[256];
	struct call_id id;
	char why[200];
	CHECK_INT(range_find_embedded("jit(step)/jit(main)/attnprof: impl=jax-cudnn B=4 H=16 Hkv=16 Nq=1024 Nkv=1024 "
				      "d=128 causal=1 dtype=bf16 origin=jax-helper/custom-call:#hlo_op=custom-call.3,"
				      "hlo_module=jit_step,program_id=7#", buf, sizeof buf), 1);
	CHECK_STR(buf, "attnprof: impl=jax-cudnn B=4 H=16 Hkv=16 Nq=1024 Nkv=1024 d=128 causal=1 dtype=bf16 origin=jax-helper");
	CHECK_INT(range_parse(buf, &id, why, sizeof why), 0);
	CHECK_INT(id.shape.pass, PASS_FWD);
	CHECK_INT(id.shape_known, 1);
	/* the backward: inside transpose(jvp(...)) */
	CHECK_INT(range_find_embedded("jit(grad)/transpose(jvp(attnprof: impl=jax-cudnn B=1 H=2 Nq=8 Nkv=8 d=64))/mul",
				      buf, sizeof buf), 1);
	CHECK_STR(buf, "attnprof: impl=jax-cudnn B=1 H=2 Nq=8 Nkv=8 d=64 pass=bwd");
	CHECK_INT(range_parse(buf, &id, why, sizeof why), 0);
	CHECK_INT(id.shape.pass, PASS_BWD);
	/* a transpose after the tag is another operation's */
	CHECK_INT(range_find_embedded("jit(f)/attnprof: impl=x B=1 H=1 Nq=1 Nkv=1 d=64/transpose(y)", buf, sizeof buf), 1);
	CHECK_STR(buf, "attnprof: impl=x B=1 H=1 Nq=1 Nkv=1 d=64");
	/* a range that is one already, or holds no tag: not embedded */
	CHECK_INT(range_find_embedded("attnprof: impl=x", buf, sizeof buf), 0);
	CHECK_INT(range_find_embedded("fusion.3:#hlo_op=fusion.3#", buf, sizeof buf), 0);
	CHECK_INT(range_find_embedded(NULL, buf, sizeof buf), 0);
	/* cut at the buffer */
	char small[12];
	CHECK_INT(range_find_embedded("a/attnprof: impl=abcdef", small, sizeof small), 1);
	CHECK_STR(small, "attnprof: i");
}

/* XLA's thunks that name no operation of the program belong to the call in progress */
static void test_thunk_unnamed(void)
{
	CHECK_INT(range_thunk_unnamed("Thunk:#hlo_op=fusion.9,hlo_module=jit_attend,program_id=7#"), 1);
	CHECK_INT(range_thunk_unnamed("Thunk:#hlo_op=fusion#"), 1);
	CHECK_INT(range_thunk_unnamed("Thunk:#name=v,hlo_op=wrapped_transpose,hlo_module=jit_attend#"), 1);
	CHECK_INT(range_thunk_unnamed("Thunk:#name=jit(f)/mlp/dot_general,hlo_op=custom-call.2#"), 0);
	CHECK_INT(range_thunk_unnamed("Thunk:#hlo_op=x,name=jit(f)/mul#"), 0);
	CHECK_INT(range_thunk_unnamed("XlaModule:##"), 0);
	CHECK_INT(range_thunk_unnamed("Thunk:#hlo_op=command_buffer_1#"), 0); /* a graph: never part of a call */
	CHECK_INT(range_thunk_unnamed("attnprof: impl=x"), 0);
	CHECK_INT(range_thunk_unnamed(NULL), 0);
}

/* the helper's check mark of a call it left alone (range_check_skipped) */
static void test_check_skipped(void)
{
	char buf[16];
	CHECK_INT(range_check_skipped("attnprof-check: call=3 skipped=capture", buf, sizeof buf), 1);
	CHECK_STR(buf, "capture");
	CHECK_INT(range_check_skipped("attnprof-check: call=3 pass=bwd skipped=capture time_ms=1", buf, sizeof buf), 1);
	CHECK_STR(buf, "capture");
	CHECK_INT(range_check_skipped("attnprof-check: call=3 max_abs=0.1 time_ms=1", buf, sizeof buf), 0);
	CHECK_INT(range_check_skipped("attnprof-check: call=3 unskipped=capture", buf, sizeof buf), 0);
	CHECK_INT(range_check_skipped("attnprof-check: call=3 skipped=", buf, sizeof buf), 0);
	CHECK_INT(range_check_skipped("attnprof-check: call=3 skipped=a/b", buf, sizeof buf), 0);
	CHECK_INT(range_check_skipped("attnprof-check: call=3 skipped=much-too-long-a-reason", buf, sizeof buf), 0);
	CHECK_INT(range_check_skipped(NULL, buf, sizeof buf), 0);
}

static void test_family(void)
{
	/* names as CUPTI reported them on the H200 (docs/capture.md) */
	const char *flash[] = { "void pytorch_flash::flash_fwd_kernel<Flash_fwd_kernel_traits<128, 128, 64, 4, false, false, cutlass::half_t>>(Flash_fwd_params)" };
	CHECK_STR(family_of_call(flash, 1), "flash-attn-2");
	const char *eff[] = { "fmha_cutlassF_f16_aligned_64x128_rf_sm80(PyTorchMemEffAttention::AttentionKernel<...>::Params)" };
	CHECK_STR(family_of_call(eff, 1), "mem-efficient");
	const char *cudnn[] = { "cudnn_generated_fort_native_sdpa_sm90_flash_fprop_wgmma_f16_knob_7_64x128x128_4x1x1_kernel0_0" };
	CHECK_STR(family_of_call(cudnn, 1), "cudnn");
	const char *math[] = { "sm80_xmma_gemm_f32f32_f32f32_f32_tn_n_tilesize128x128x8_stage3_warpsize2x2x1_ffma_aligna4_alignc4_execute_kernel__5x_cublas",
			       "void (anonymous namespace)::softmax_warp_forward<float, float, float, 11, false, false>(float*, const float*, int, int, int, const bool*, int, bool)",
			       "nvjet_hsh_128x256_64x4_2x1_v_bz_coopA_NNT" };
	CHECK_STR(family_of_call(math, 3), "unfused");
	const char *flex[] = { "triton_tem_fused_flex_attention_0" };
	CHECK_STR(family_of_call(flex, 1), "triton-flex");
	const char *none[] = { "my_custom_kernel" };
	CHECK_STR(family_of_call(none, 1), "unknown");
	CHECK_STR(family_of_call(NULL, 0), "unknown");
	/* a fused kernel wins over GEMMs around it */
	const char *mixed[] = { "nvjet_x", "pytorch_flash::flash_fwd_kernel<>" };
	CHECK_STR(family_of_call(mixed, 2), "flash-attn-2");
	CHECK(family_describe("cudnn")[0] != '\0');
}

/* Unmarked programs: which launches open a call, and of which pass */
static void test_family_scan(void)
{
	const char *pass = NULL;
	/* names as CUPTI and ncu reported them on the H200 (2026-12-01/02) */
	CHECK(family_scan("triton_tem_fused_flex_attention_0", &pass) != NULL);
	CHECK_STR(pass, "fwd");
	CHECK(family_scan("triton_tem_fused_flex_attention_backward_1", &pass) != NULL);
	CHECK_STR(pass, "bwd");
	/* the backward's pointwise preprocessing is part of the call, not a call */
	CHECK(family_scan("triton_per_fused_flex_attention_backward_0", &pass) == NULL);
	CHECK_STR(family_of_call((const char *[]){ "triton_per_fused_flex_attention_backward_0" }, 1), "triton-flex");
	CHECK(family_scan("cudnn_generated_fort_native_sdpa_sm90_flash_bprop_wgmma_f16_knob_3_64x128x128_4x1x1_kernel0_0", &pass));
	CHECK_STR(pass, "bwd");
	CHECK(family_scan("cudnn_generated_fort_native_sdpa_sm90_flash_fprop_wgmma_f16_knob_7_64x128x128_4x1x1_kernel0_0", &pass));
	CHECK_STR(pass, "fwd");
	CHECK(family_scan("void pytorch_flash::flash_bwd_dq_dk_dv_loop_seqk_parallel_kernel<>(Flash_bwd_params)", &pass));
	CHECK_STR(pass, "bwd");
	CHECK(family_scan("fmha_cutlassB_f16_aligned_128x64_k128_sm80", &pass));
	CHECK_STR(pass, "bwd");
	/* JAX's Pallas FlashAttention, names as CUPTI reported them (H200, 2026-12-02) */
	CHECK(family_scan("mha_forward", &pass) != NULL);
	CHECK_STR(pass, "fwd");
	CHECK(family_scan("mha_backward", &pass) != NULL);
	CHECK_STR(pass, "bwd");
	CHECK(family_scan("mha_preprocess_backward", &pass) == NULL);
	CHECK(family_scan_aux("mha_preprocess_backward", &pass) != NULL);
	CHECK_STR(pass, "bwd");
	CHECK_STR(family_of_call((const char *[]){ "mha_preprocess_backward", "mha_backward" }, 2), "pallas");
	/* not attention by themselves: a GEMM, a softmax, any Triton kernel, any cuDNN kernel */
	CHECK(family_scan("nvjet_hsh_128x256_64x4_2x1_v_bz_coopA_NNT", &pass) == NULL);
	CHECK(family_scan("void (anonymous namespace)::softmax_warp_forward<>()", &pass) == NULL);
	CHECK(family_scan("triton_poi_fused_add_0", &pass) == NULL);
	CHECK(family_scan("cudnn::conv2d_fprop_kernel", &pass) == NULL);
	CHECK(family_scan(NULL, &pass) == NULL);
	/* an implementation's auxiliary kernels open no call: they join the pass next to them (group.h) */
	const char *aux_bwd[] = { "_ZN13pytorch_flash25flash_bwd_dot_do_o_kernelILb1E23Flash_bwd_kernel_traitsILi128EEEvNS_16Flash_bwd_paramsE",
				  "void pytorch_flash::flash_bwd_convert_dq_kernel<Flash_bwd_kernel_traits<128>>(Flash_bwd_params, int)",
				  "_ZN5cudnn6fusion28compute_dot_do_o_specializedILb0ELi128EEEvPKvS3_PvS4_",
				  "_ZN5cudnn6fusion20convert_dq_to_16bitsILb0EEEvPKvPvjjjjjjjjjjPKfS6_S6_PfS3_S4_S4_bb",
				  "triton_per_fused_flex_attention_backward_0" };
	for (size_t i = 0; i < sizeof aux_bwd / sizeof *aux_bwd; i++) {
		pass = NULL;
		CHECK(family_scan(aux_bwd[i], &pass) == NULL);
		CHECK(family_scan_aux(aux_bwd[i], &pass) != NULL);
		CHECK_STR(pass ? pass : "", "bwd");
	}
	CHECK_INT(family_of_kernel(aux_bwd[0])->side, FAMILY_BEFORE);
	CHECK_INT(family_of_kernel(aux_bwd[3])->side, FAMILY_AFTER);
	CHECK(family_scan_aux("_ZN13pytorch_flash25flash_fwd_splitkv_combine_kernelI23Flash_fwd_kernel_traitsEEvNS_16Flash_fwd_paramsE", &pass));
	CHECK_STR(pass, "fwd");
	CHECK(family_scan("_ZN13pytorch_flash24flash_fwd_splitkv_kernelI23Flash_fwd_kernel_traitsEEvNS_16Flash_fwd_paramsE", &pass));
	/* a GEMM is nobody's auxiliary kernel */
	CHECK(family_scan_aux("nvjet_hsh_128x256_64x4_2x1_v_bz_coopA_NNT", &pass) == NULL);
}

static void test_family_load(void)
{
	char path[] = "/tmp/attnprof-families-XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	const char *y = "- {pattern: my_custom_kernel, family: mine, role: fused, what: our kernel}\n";
	CHECK(write(fd, y, strlen(y)) == (ssize_t)strlen(y));
	close(fd);
	CHECK_INT(family_load(path), 0);
	const char *none[] = { "my_custom_kernel" };
	CHECK_STR(family_of_call(none, 1), "mine");
	CHECK_STR(family_describe("mine"), "our kernel");
	CHECK(family_scan("my_custom_kernel", NULL) != NULL); /* a user's fused kernel opens calls */
	family_reset();
	CHECK(family_scan("my_custom_kernel", NULL) == NULL);
	CHECK_STR(family_of_call(none, 1), "unknown");
	/* a bad rule is refused with its place */
	FILE *f = fopen(path, "w");
	fputs("- {pattern: x, family: y, role: maybe}\n", f);
	fclose(f);
	int q = error_quiet(1);
	CHECK_INT(family_load(path), -1);
	error_quiet(q);
	CHECK_CONTAINS(error_last(), ":1:");
	CHECK_CONTAINS(error_last(), "role must be");
	unlink(path);
}

/* A captured call whose kernels wrote these bytes (L2 and DRAM alike; < 0: not measured). */
static struct record captured_k(const char *pass, const double *written, size_t n)
{
	struct record r;
	record_init(&r);
	r.source = strdup("capture");
	r.variant = strdup("sdpa-flash");
	r.shape.phase = PHASE_PREFILL;
	r.shape.dtype = DTYPE_FP16;
	CHECK_INT(pass_parse(pass, &r.shape.pass), 0);
	r.pass_given = 1;
	r.shape.batch = 2; r.shape.heads = 16; r.shape.kv_heads = 16; r.shape.seqlen_q = r.shape.seqlen_kv = 2048; r.shape.head_dim = 128;
	r.capture = calloc(1, sizeof *r.capture);
	r.capture->shape_known = 1;
	r.capture->footprint_bytes = -1;
	r.nlaunches = n;
	r.launches = calloc(n ? n : 1, sizeof *r.launches);
	for (size_t i = 0; i < n; i++) {
		r.launches[i].name = strdup("k");
		if (written[i] >= 0) {
			kvlist_set(&r.launches[i].metrics, "lts__t_sectors_op_write.sum", written[i] / 32);
			kvlist_set(&r.launches[i].metrics, "dram__bytes_write.sum", written[i]);
		}
	}
	return r;
}

static struct record captured(const char *pass, double written)
{
	return captured_k(pass, &written, 1);
}

static void test_verdict(void)
{
	/* B·H = 32, N = 2048: one N x N matrix is 32·2048²·2 = 256 MiB; O + L = 16 MiB + 256 KiB */
	double nn = 32.0 * 2048 * 2048 * 2, out = 32.0 * 2048 * (128 * 2 + 4), l2 = 60.0 * 1024 * 1024;
	struct record r = captured("fwd", out);           /* a flash kernel: only O and L */
	verdict_compute(&r, l2);
	CHECK_NEAR(r.capture->nn_bytes, nn, 1e-12);
	CHECK_NEAR(r.capture->output_bytes, out, 1e-12);
	CHECK_INT(r.capture->nn_matrices, 0);
	CHECK_STR(r.capture->verdict_rule, "dram-writes"); /* 256 MiB cannot stay in a 60 MiB L2 */
	CHECK_STR(verdict_of(&r, l2, "S"), "not stored");
	CHECK_STR(verdict_of(&r, l2, "P"), "not stored");
	record_release(&r);

	/* GEMM writes S (fp32: 2 nn), softmax P, GEMM O: two kernels store a matrix */
	double math[] = { 2 * nn, nn, out };
	r = captured_k("fwd", math, 3);
	verdict_compute(&r, l2);
	CHECK_INT(r.capture->nn_matrices, 2);
	CHECK_STR(verdict_of(&r, l2, "S"), "stored");
	CHECK_STR(verdict_of(&r, l2, "P"), "stored");
	record_release(&r);

	/* register spills: a flash kernel with 0.8 nn of extra writes, not one whole matrix,
	 * and many small kernels adding up to more than nn store nothing */
	double spill[] = { out + 0.8 * nn };
	r = captured_k("fwd", spill, 1);
	verdict_compute(&r, l2);
	CHECK_INT(r.capture->nn_matrices, 0);
	record_release(&r);
	double small[] = { 0.4 * nn + out, 0.4 * nn + out, 0.4 * nn + out };
	r = captured_k("fwd", small, 3);
	verdict_compute(&r, l2);
	CHECK_INT(r.capture->nn_matrices, 0);
	record_release(&r);

	/* a few per cent short of nn still counts */
	r = captured("fwd", 0.97 * nn + out);
	verdict_compute(&r, l2);
	CHECK_INT(r.capture->nn_matrices, 1);
	record_release(&r);

	/* backward at N = 2048, d = 128: a matrix (256 MiB) is less than 4 x (dQ, dK, dV and their
	 * fp32 accumulators, 144 MiB): traffic cannot decide, the family does */
	double bwd_flash[] = { 3 * 16.0 * 1024 * 1024 + 32.0 * 2048 * 128 * 4 };
	r = captured_k("bwd", bwd_flash, 1);
	r.capture->family = strdup("flash-attn-2");
	verdict_compute(&r, l2);
	CHECK_STR(r.capture->verdict_rule, "family");
	CHECK_STR(verdict_of(&r, l2, "dS"), "not stored");
	record_release(&r);
	/* at N = 8192 it can: two kernels writing an N x N matrix each */
	double nn8 = 32.0 * 8192 * 8192 * 2;
	double bwd_std[] = { nn8, 2 * nn8, 1e8 };
	r = captured_k("bwd", bwd_std, 3);
	r.shape.seqlen_q = r.shape.seqlen_kv = 8192;
	verdict_compute(&r, l2);
	CHECK_STR(r.capture->verdict_rule, "dram-writes");
	CHECK_STR(verdict_of(&r, l2, "dS"), "stored");
	CHECK_STR(verdict_of(&r, l2, "dP"), "stored");
	record_release(&r);

	/* a matrix that fits in the L2 is judged by L2 writes (it may never reach DRAM) */
	r = captured("fwd", 2 * nn + out);
	r.shape.seqlen_q = r.shape.seqlen_kv = 1024; r.shape.head_dim = 64; /* nn = 64 MiB, O + L = 4.1 MiB */
	kvlist_set(&r.launches[0].metrics, "dram__bytes_write.sum", 0.01e6);
	kvlist_set(&r.launches[0].metrics, "lts__t_sectors_op_write.sum", (32.0 * 1024 * 1024 * 2 + 32.0 * 1024 * 132) / 32);
	l2 = 200.0 * 1024 * 1024; /* a GPU with a larger L2 */
	verdict_compute(&r, l2);
	CHECK_STR(r.capture->verdict_rule, "l2-writes");
	CHECK_INT(r.capture->nn_matrices, 1);
	record_release(&r);

	l2 = 60.0 * 1024 * 1024;
	/* decode: one Nq x Nkv matrix is 33 KB, too small to tell from the outputs */
	r = captured("fwd", 1e6);
	r.shape.seqlen_q = 1; r.shape.seqlen_kv = 513;
	verdict_compute(&r, l2);
	CHECK_STR(r.capture->verdict_rule, "too-small");
	CHECK_STR(verdict_of(&r, l2, "S"), "unknown");
	r.capture->family = strdup("unfused"); /* separate GEMM and softmax kernels: stored by construction */
	verdict_compute(&r, l2);
	CHECK_STR(r.capture->verdict_rule, "family");
	CHECK_STR(verdict_of(&r, l2, "P"), "stored");
	record_release(&r);

	/* no counters: the footprint decides */
	double none[] = { -1 };
	r = captured_k("fwd", none, 1);
	r.capture->footprint_bytes = nn * 2.5;
	verdict_compute(&r, l2);
	CHECK_STR(r.capture->verdict_rule, "footprint");
	CHECK_INT(r.capture->nn_matrices, 2);
	CHECK_NEAR(r.capture->l2_write_bytes, -1, 0);
	record_release(&r);

	/* the matrices' element size is the call's: PyTorch's math SDPA on fp16 inputs runs an
	 * fp32 GEMM (its name on the H200), so S is 4 bytes per element: 512 MiB here.  Each
	 * kernel is measured in its own element size: the fp32 GEMM against 0.9 of 512 MiB (so
	 * 1.5 nn of it is no matrix), a kernel whose name says nothing against the fp16 matrix
	 * (its fp16 copy of P, 256 MiB, is one) */
	double math32[] = { 2 * nn, 2 * nn, nn };
	r = captured_k("fwd", math32, 3);
	free(r.launches[0].name);
	r.launches[0].name = strdup("sm80_xmma_gemm_f32f32_f32f32_f32_tn_n_tilesize128x128x8_stage3_warpsize2x2x1_ffma_aligna4_alignc4_execute_kernel__5x_cublas");
	verdict_compute(&r, l2);
	CHECK_INT(verdict_matrix_elem_bytes(&r), 4);
	CHECK_NEAR(r.capture->nn_bytes, 2 * nn, 1e-12);
	CHECK_INT(r.capture->nn_matrices, 3);
	kvlist_set(&r.launches[0].metrics, "dram__bytes_write.sum", 1.5 * nn);
	verdict_compute(&r, l2);
	CHECK_INT(r.capture->nn_matrices, 2);
	record_release(&r);
	/* XLA on fp16 inputs (the H200, jax-xla): cuBLASLt's nvjet hss GEMM writes S in fp32 (4.0
	 * bytes an element measured), a fusion writes P in fp16: S is drawn at 4 bytes an
	 * element, both are stored */
	double xla[] = { 2 * nn, 1.02 * nn };
	r = captured_k("fwd", xla, 2);
	free(r.launches[0].name);
	r.launches[0].name = strdup("nvjet_sm90_hss_256x64_64x5_1x2_h_bz_NNT");
	free(r.launches[1].name);
	r.launches[1].name = strdup("fusion_9");
	CHECK_INT(family_kernel_out_bytes(r.launches[0].name), 4);
	CHECK_INT(family_kernel_out_bytes("nvjet_sm90_hsh_96x128_64x7_4x1_v_bz_TNN"), 2);
	CHECK_INT(family_kernel_out_bytes("nvjet_hss_128x128"), 4); /* no architecture in the name */
	CHECK_INT(family_kernel_out_bytes("nvjet_sm90_hsq_128x128"), 0); /* a letter that is no type */
	CHECK_INT(family_kernel_out_bytes("fusion_9"), 0);
	verdict_compute(&r, l2);
	CHECK_INT(verdict_matrix_elem_bytes(&r), 4);
	CHECK_NEAR(r.capture->nn_bytes, 2 * nn, 1e-12);
	CHECK_INT(r.capture->nn_matrices, 2);
	CHECK_STR(verdict_of(&r, l2, "P"), "stored");
	record_release(&r);
	/* a GEMM whose name says no type (XLA's gemm_fusion_dot_N) but whose DRAM writes are an
	 * fp32 matrix: the writes say the element size */
	double dot32[] = { 1.98 * nn };
	r = captured_k("fwd", dot32, 1);
	free(r.launches[0].name);
	r.launches[0].name = strdup("gemm_fusion_dot_12");
	verdict_compute(&r, l2);
	CHECK_INT(verdict_matrix_elem_bytes(&r), 4);
	kvlist_set(&r.launches[0].metrics, "dram__bytes_write.sum", 1.02 * nn); /* an fp16 S */
	CHECK_INT(verdict_matrix_elem_bytes(&r), 2);
	record_release(&r);
	/* an fp32 call: 4 bytes per element from its dtype; fp16 GEMMs (nvjet hsh) leave it at 2 */
	double one[] = { nn };
	r = captured_k("fwd", one, 1);
	r.shape.dtype = DTYPE_FP32;
	verdict_compute(&r, l2);
	CHECK_NEAR(r.capture->nn_bytes, 2 * nn, 1e-12);
	CHECK_INT(r.capture->nn_matrices, 0);
	record_release(&r);
	r = captured_k("fwd", one, 1);
	free(r.launches[0].name);
	r.launches[0].name = strdup("nvjet_sm90_hsh_256x128_64x4_1x2_h_bz_coopA_TNT");
	verdict_compute(&r, l2);
	CHECK_NEAR(r.capture->nn_bytes, nn, 1e-12);
	CHECK_INT(r.capture->nn_matrices, 1);
	record_release(&r);

	/* no shape: nothing to say */
	r = captured("fwd", nn);
	r.capture->shape_known = 0;
	verdict_compute(&r, l2);
	CHECK_STR(r.capture->verdict_rule, "none");
	CHECK_INT(r.capture->nn_matrices, -1);
	CHECK_STR(verdict_of(&r, l2, "S"), "unknown");
	record_release(&r);
}

static void test_results_round_trip(void)
{
	struct results res, back;
	results_init(&res);
	results_init(&back);
	res.header.tool_version = strdup("t");
	struct record r = captured("bwd", 1e9);
	r.capture->range = strdup("attnprof: impl=sdpa-flash pass=bwd");
	r.capture->origin = strdup("python-sdpa");
	r.capture->family = strdup("flash-attn-2");
	r.capture->call = 3;
	r.capture->pid = 1234;
	r.capture->kernel_ms = 0.75;
	r.capture->time_source = strdup("kernels");
	r.capture->alloc_bytes = 471859200;
	r.capture->counter_window = 1;
	r.capture->mask = strdup("additive-causal");
	r.capture->tid = 4242;
	r.capture->stream = 0x7f00deadbe00ull;
	r.capture->launch = 17;
	r.capture->group_rule = strdup("the rule");
	r.capture->shape_inferred = strdup("B=4 H=16");
	r.capture->shape_rule = strdup("the shape rule");
	r.capture->check_skipped = strdup("capture");
	verdict_compute(&r, 0);
	CHECK_INT(results_add(&res, &r), 0);
	/* one with its shape unknown */
	struct record u;
	record_init(&u);
	u.source = strdup("capture"); u.variant = strdup("mine"); u.shape.phase = PHASE_UNKNOWN;
	u.shape.dtype = DTYPE_FP16;
	u.capture = calloc(1, sizeof *u.capture);
	u.capture->problem = strdup("unknown key 'N'");
	u.capture->call = 4;
	u.capture->footprint_bytes = -1;
	verdict_compute(&u, 0);
	CHECK_INT(results_add(&res, &u), 0);

	char path[] = "/tmp/attnprof-capture-XXXXXX";
	int fd = mkstemp(path);
	close(fd);
	CHECK_INT(results_save(&res, path), 0);
	int cut = 0;
	CHECK_INT(results_load(&back, path, &cut), 0);
	CHECK_INT(back.nrecords, 2);
	if (back.nrecords == 2) {
		const struct record *b = &back.records[0];
		CHECK_STR(record_pass(b), "bwd");
		CHECK(b->capture != NULL);
		if (b->capture) {
			CHECK_STR(b->capture->family, "flash-attn-2");
			CHECK_INT(b->capture->call, 3);
			CHECK_INT(b->capture->pid, 1234);
			CHECK_INT(b->capture->nn_matrices, res.records[0].capture->nn_matrices);
			CHECK_NEAR(b->capture->l2_write_bytes, 1e9, 1e-12);
			CHECK_NEAR(b->capture->alloc_bytes, 471859200, 1e-12);
			CHECK_INT(b->capture->counter_window, 1);
			CHECK_STR(b->capture->mask, "additive-causal");
			CHECK_INT(b->capture->tid, 4242);
			CHECK(b->capture->stream == 0x7f00deadbe00ull);
			CHECK(b->capture->launch == 17);
			CHECK_STR(b->capture->group_rule, "the rule");
			CHECK_STR(b->capture->shape_rule, "the shape rule");
			CHECK_STR(b->capture->shape_inferred, "B=4 H=16");
			CHECK_STR(b->capture->check_skipped, "capture");
		}
		char k1[256], k2[256];
		record_key(&res.records[0], k1, sizeof k1);
		record_key(b, k2, sizeof k2);
		CHECK_STR(k1, k2);
		CHECK_CONTAINS(k1, "/bwd/pid1234/call3");
		CHECK_INT(back.records[1].capture->shape_known, 0);
		CHECK_INT(back.records[1].capture->counter_window, 0);
		CHECK(back.records[1].capture->mask == NULL && back.records[1].capture->stream == 0);
		CHECK_INT(back.records[1].shape.phase, PHASE_UNKNOWN);
	}
	/* a forward record's key is what it was before passes existed */
	struct record f;
	record_init(&f);
	f.source = strdup("attnprof"); f.variant = strdup("flash2"); f.shape.phase = PHASE_PREFILL; f.shape.dtype = DTYPE_FP16;
	char k[256];
	record_key(&f, k, sizeof k);
	CHECK(strstr(k, "fwd") == NULL);
	record_release(&f);
	unlink(path);
	results_release(&res);
	results_release(&back);
}

/* The rule on attnprof's own measured records, whose descriptors say what
 * they store: standard keeps S and P in HBM, flash2 does not. */
static void test_verdict_on_reference_records(void)
{
	struct results res;
	results_init(&res);
	int cut = 0;
	if (results_load(&res, "experiments/results/fa2-paper.yaml", &cut))
		SKIP("skipped: experiments/results/fa2-paper.yaml unreadable");
	double l2 = (double)res.header.gpu.hw.l2_bytes;
	int std_decided = 0, flash_decided = 0, by_traffic = 0, by_descriptor = 0, undecided = 0;
	for (size_t i = 0; i < res.nrecords; i++) {
		const struct record *r = &res.records[i];
		if (strcmp(r->source, "attnprof") || (strcmp(r->variant, "standard") && strcmp(r->variant, "flash2")))
			continue;
		int bwd = r->shape.pass == PASS_BWD;
		const char *rule;
		int m = verdict_matrices(r, l2, &rule);
		if (m < 0) {
			undecided++;
			continue;
		}
		by_descriptor += !strcmp(rule, "descriptor");
		by_traffic += !strcmp(rule, "dram-writes") || !strcmp(rule, "l2-writes");
		if (!strcmp(r->variant, "standard")) {
			std_decided++;
			CHECK(m >= 2);
			CHECK_STR(verdict_of(r, l2, bwd ? "dP" : "P"), "stored");
		} else {
			flash_decided++;
			CHECK_INT(m, 0);
			CHECK_STR(verdict_of(r, l2, bwd ? "dS" : "S"), "not stored");
		}
	}
	/* every one of attnprof's records is decided: by traffic where it can,
	 * by the variant's descriptor where the matrices are too small */
	CHECK_INT(undecided, 0);
	CHECK(std_decided >= 36 && flash_decided >= 36);
	CHECK(by_traffic >= 12 && by_descriptor >= 12);
	results_release(&res);
}

/* Application replay: a second run's counters join the first run's kernels;
 * a run whose calls or kernels differ is refused and changes nothing. */
static void test_merge_replay_run(void)
{
	struct results base, run;
	results_init(&base);
	results_init(&run);
	const double w[2] = { 3200, 6400 };
	for (int c = 0; c < 2; c++) {
		struct record a = captured_k(c ? "bwd" : "fwd", w, 2), b = captured_k(c ? "bwd" : "fwd", w, 2);
		a.capture->call = b.capture->call = c;
		for (size_t k = 0; k < 2; k++) {
			kvlist_release(&b.launches[k].metrics);
			kvlist_init(&b.launches[k].metrics);
			kvlist_set(&b.launches[k].metrics, "sm__warps_active.avg.pct_of_peak_sustained_active", 10.0 * (double)(k + 1));
		}
		results_sum_launches(&a);
		CHECK_INT(results_add(&base, &a), 0);
		CHECK_INT(results_add(&run, &b), 0);
	}
	CHECK_INT(merge_replay_run(&base, &run), 0);
	const double *occ = kvlist_get(&base.records[1].launches[1].metrics, "sm__warps_active.avg.pct_of_peak_sustained_active");
	CHECK(occ != NULL);
	if (occ)
		CHECK_NEAR(*occ, 20.0, 1e-12);
	CHECK(kvlist_get(&base.records[1].launches[1].metrics, "dram__bytes_write.sum") != NULL);
	CHECK(record_metric(&base.records[0], "sm__warps_active.avg.pct_of_peak_sustained_active") != NULL);

	/* a kernel of another name in the second run */
	free(run.records[1].launches[0].name);
	run.records[1].launches[0].name = strdup("other_kernel");
	int q = error_quiet(1);
	CHECK_INT(merge_replay_run(&base, &run), -1);
	error_quiet(q);
	CHECK_CONTAINS(error_last(), "kernel 1 of call 1");
	CHECK_CONTAINS(error_last(), "did not repeat itself");
	/* fewer calls */
	run.nrecords = 1;
	q = error_quiet(1);
	CHECK_INT(merge_replay_run(&base, &run), -1);
	error_quiet(q);
	CHECK_CONTAINS(error_last(), "2 calls and this one 1");
	run.nrecords = 2;
	results_release(&base);
	results_release(&run);
}

static void test_merge_parts(void)
{
	char dir[] = "/tmp/attnprof-parts-XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	/* two processes' parts (written out of pid order), one cut short, one unreadable */
	for (int p = 0; p < 2; p++) {
		struct results part;
		results_init(&part);
		part.header.tool_version = strdup("t");
		if (p == 1) {
			part.header.notes = strdup("the program exited inside an attention range");
			/* as the injection library writes a process that left from inside the profiler */
			part.header.program_exit = strdup("exited from inside the profiler's end of a call");
		}
		for (int c = 0; c < 2; c++) {
			struct record r = captured("fwd", 1e6);
			r.capture->call = c;
			r.capture->pid = p ? 200 : 100;
			CHECK_INT(results_add(&part, &r), 0);
		}
		char path[256];
		snprintf(path, sizeof path, "%s/part-%d.yaml", dir, p ? 200 : 100);
		CHECK_INT(results_save(&part, path), 0);
		results_release(&part);
	}
	char bad[256], other[256];
	snprintf(bad, sizeof bad, "%s/part-300.yaml", dir);
	FILE *f = fopen(bad, "w");
	fputs("format: something-else\n", f);
	fclose(f);
	snprintf(other, sizeof other, "%s/notes.txt", dir); /* not a part: ignored */
	f = fopen(other, "w");
	fputs("x", f);
	fclose(f);

	struct results out;
	results_init(&out);
	struct merge_summary sum;
	CHECK_INT(merge_parts(dir, &out, &sum), 0);
	CHECK_INT(sum.parts, 3);
	CHECK_INT(sum.bad_parts, 1);
	CHECK_INT(sum.exits_inside, 1); /* the program did not run to its end (program.c) */
	CHECK_INT(sum.calls, 4);
	CHECK_INT(out.nrecords, 4);
	if (out.nrecords == 4) {
		CHECK_INT(out.records[0].capture->pid, 100); /* pid order */
		CHECK_INT(out.records[3].capture->pid, 200);
		CHECK_INT(out.records[3].capture->call, 1);
	}
	CHECK_CONTAINS(out.header.notes, "process 200: the program exited inside an attention range");
	CHECK_CONTAINS(out.header.notes, "process 300: its capture could not be read");
	CHECK_CONTAINS(out.header.notes, "process 200 exited from inside the profiler's end of a call: it did not run to its end");
	results_release(&out);
	int q = error_quiet(1);
	CHECK_INT(merge_parts("/nonexistent/attnprof", &out, &sum), -1);
	error_quiet(q);
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	CHECK_INT(system(cmd), 0);
}

/* A scanned launch as the injection library records it (one kernel, profiled alone) */
static void scan_add(struct results *res, const char *kernel, int tid, uint64_t stream, uint64_t launch, int call)
{
	const char *pass = NULL;
	const struct family_rule *fr = family_scan(kernel, &pass);
	int aux = !fr;
	if (aux)
		fr = family_scan_aux(kernel, &pass);
	CHECK(fr != NULL);
	if (!fr)
		return;
	struct record r;
	record_init(&r);
	r.source = strdup("capture");
	r.variant = strdup(fr->family);
	r.shape.phase = PHASE_UNKNOWN;
	r.shape.dtype = DTYPE_UNKNOWN;
	CHECK_INT(pass_parse(pass, &r.shape.pass), 0);
	r.pass_given = 1;
	r.nlaunches = 1;
	r.launches = calloc(1, sizeof *r.launches);
	r.launches[0].name = strdup(kernel);
	kvlist_set(&r.launches[0].metrics, "lts__t_sectors_op_write.sum", 1000);
	r.capture = calloc(1, sizeof *r.capture);
	r.capture->origin = strdup(aux ? GROUP_AUX_ORIGIN : "family-scan");
	r.capture->pid = 77;
	r.capture->tid = tid;
	r.capture->stream = stream;
	r.capture->launch = launch;
	r.capture->call = call;
	r.capture->kernel_ms = 0.5;
	r.capture->time_source = strdup("kernels");
	r.capture->footprint_bytes = -1;
	r.time_ms = 0.5;
	CHECK_INT(results_add(res, &r), 0);
}

/* kernel names as CUPTI reported them on the H200 (experiments/results/capture/capture-sdpa.yaml, -flex.yaml) */
#define FA2_FWD "_ZN13pytorch_flash16flash_fwd_kernelI23Flash_fwd_kernel_traitsILi128ELi128ELi64ELi4ELb0ELb0EN7cutlass6half_tE19Flash_kernel_traitsILi128ELi128ELi64ELi4ES3_EELb0ELb0ELb0ELb0ELb1ELb1ELb0ELb0EEEvNS_16Flash_fwd_paramsE"
#define FA2_DOT "_ZN13pytorch_flash25flash_bwd_dot_do_o_kernelILb1E23Flash_bwd_kernel_traitsILi128ELi64ELi128ELi8ELi2ELi4ELi2ELb0ELb0EN7cutlass6half_tE19Flash_kernel_traitsILi128ELi64ELi128ELi8ES3_EEEEvNS_16Flash_bwd_paramsE"
#define FA2_BWD "_ZN13pytorch_flash44flash_bwd_dq_dk_dv_loop_seqk_parallel_kernelI23Flash_bwd_kernel_traitsILi128ELi64ELi128ELi8ELi2ELi4ELi2ELb0ELb0EN7cutlass6half_tE19Flash_kernel_traitsILi128ELi64ELi128ELi8ES3_EELb0ELb0ELb0ELb0ELb1ELb1ELb0EEEvNS_16Flash_bwd_paramsE"
#define FA2_CVT "_ZN13pytorch_flash27flash_bwd_convert_dq_kernelI23Flash_bwd_kernel_traitsILi128ELi64ELi128ELi8ELi2ELi4ELi2ELb0ELb0EN7cutlass6half_tE19Flash_kernel_traitsILi128ELi64ELi128ELi8ES3_EEEEvNS_16Flash_bwd_paramsEi"
#define CUDNN_FWD "cudnn_generated_fort_native_sdpa_sm90_flash_fprop_wgmma_f16_knob_7_64x128x128_4x1x1_cga1x1x1_kernel0_0"
#define CUDNN_DOT "_ZN5cudnn6fusion28compute_dot_do_o_specializedILb0ELi128EEEvPKvS3_PvS4_jjjjjjjjjjjjjjjjjfS3_S3_S3_S3_S3_bS3_S4_S3_iiiiiiiii"
#define CUDNN_BWD "cudnn_generated_fort_native_sdpa_sm90_flash_bprop_wgmma_f16_knob_26_64x64x128_1x4x1_cga1x1x1_kernel0_0"
#define CUDNN_CVT "_ZN5cudnn6fusion20convert_dq_to_16bitsILb0EEEvPKvPvjjjjjjjjjjPKfS6_S6_PfS3_S4_S4_bb"

static int has_kernels(const struct record *r, const char *const *names, size_t n)
{
	if (r->nlaunches != n)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (strcmp(r->launches[i].name, names[i]))
			return 0;
	return 1;
}

/* Unmarked programs: the scan's launches grouped into calls and passes (group.h) */
static void test_group_scanned(void)
{
	struct results res;
	results_init(&res);
	/* a 2-layer FA2 model: forwards on the main thread (tid 10), backwards on autograd's (tid 11),
	 * one stream; each backward is dot(dO, O), the main kernel and the dQ conversion, launched
	 * back to back; GEMMs between layers (launch numbers skipped) */
	scan_add(&res, FA2_FWD, 10, 0, 5, 0);
	scan_add(&res, FA2_FWD, 10, 0, 20, 1);
	scan_add(&res, FA2_DOT, 11, 0, 3, 1);
	scan_add(&res, FA2_BWD, 11, 0, 4, 2);
	scan_add(&res, FA2_CVT, 11, 0, 5, 2);
	scan_add(&res, FA2_DOT, 11, 0, 12, 2);
	scan_add(&res, FA2_BWD, 11, 0, 13, 3);
	scan_add(&res, FA2_CVT, 11, 0, 14, 3);
	/* a marked call in between is not the scan's */
	struct record m = captured("fwd", 1e6);
	m.capture->origin = strdup("python-sdpa");
	m.capture->call = 9;
	CHECK_INT(results_add(&res, &m), 0);
	/* cuDNN's backward back to back with the next one: dot(dO, O) comes before its pass,
	 * so the second one's does not join the first pass as a kernel that follows it */
	scan_add(&res, CUDNN_FWD, 10, 0x5000, 30, 4);
	scan_add(&res, CUDNN_DOT, 11, 0x5000, 40, 4);
	scan_add(&res, CUDNN_BWD, 11, 0x5000, 41, 5);
	scan_add(&res, CUDNN_CVT, 11, 0x5000, 42, 5);
	scan_add(&res, CUDNN_DOT, 11, 0x5000, 43, 5);
	scan_add(&res, CUDNN_BWD, 11, 0x5000, 44, 6);
	scan_add(&res, CUDNN_CVT, 11, 0x5000, 45, 6);
	/* FlexAttention's backward: the preprocessing, then the template kernel */
	scan_add(&res, "triton_tem_fused_flex_attention_0", 10, 0, 50, 7);
	scan_add(&res, "triton_per_fused_flex_attention_backward_0", 11, 0, 60, 7);
	scan_add(&res, "triton_tem_fused_flex_attention_backward_1", 11, 0, 61, 8);
	/* next to no pass of theirs: a conversion after a GEMM, dot(dO, O) on another stream
	 * than the kernel after it, and one at the thread's end */
	scan_add(&res, FA2_CVT, 11, 0, 70, 8);
	scan_add(&res, FA2_DOT, 11, 0x9000, 80, 8);
	scan_add(&res, FA2_BWD, 11, 0, 81, 9);
	scan_add(&res, FA2_DOT, 11, 0, 90, 9);
	struct group_summary gs;
	CHECK_INT(group_scanned(&res, &gs), 0);
	CHECK_INT(gs.joined, 4 + 4 + 1);
	CHECK_INT(gs.dropped, 3);
	CHECK_INT(gs.paired, 2 + 1 + 1); /* FA2's two, cuDNN's first (its second has no forward left), flex */
	CHECK_INT(res.nrecords, 2 + 2 + 1 + 3 + 2 + 1);
	if (res.nrecords == 11) {
		const struct record *r = res.records;
		const char *fa2_bwd[] = { FA2_DOT, FA2_BWD, FA2_CVT };
		CHECK(has_kernels(&r[0], (const char *[]){ FA2_FWD }, 1) && r[0].capture->call == 0);
		CHECK(has_kernels(&r[1], (const char *[]){ FA2_FWD }, 1) && r[1].capture->call == 1);
		/* the first backward is the second layer's: the latest forward without one */
		CHECK(has_kernels(&r[2], fa2_bwd, 3));
		CHECK_STR(record_pass(&r[2]), "bwd");
		CHECK_INT(r[2].capture->call, 1);
		CHECK_INT(r[3].capture->call, 0);
		CHECK(has_kernels(&r[3], fa2_bwd, 3));
		CHECK_NEAR(r[2].capture->kernel_ms, 1.5, 1e-12);
		CHECK_NEAR(r[2].time_ms, 1.5, 1e-12);
		CHECK(r[2].capture->launch == 3);
		const double *w = kvlist_get(&r[2].totals, "lts__t_sectors_op_write.sum");
		CHECK(w && *w == 3000);
		CHECK_STR(r[2].capture->group_rule, GROUP_RULE);
		CHECK_STR(r[4].capture->origin, "python-sdpa"); /* left as it was */
		CHECK(r[4].capture->group_rule == NULL);
		const char *cudnn_bwd[] = { CUDNN_DOT, CUDNN_BWD, CUDNN_CVT };
		CHECK(has_kernels(&r[6], cudnn_bwd, 3) && has_kernels(&r[7], cudnn_bwd, 3));
		CHECK_INT(r[6].capture->call, 4);
		CHECK_INT(r[7].capture->call, 6); /* a backward that follows no forward left: its own call */
		CHECK(has_kernels(&r[9], (const char *[]){ "triton_per_fused_flex_attention_backward_0",
							  "triton_tem_fused_flex_attention_backward_1" }, 2));
		CHECK_INT(r[9].capture->call, 7);
		CHECK(has_kernels(&r[10], (const char *[]){ FA2_BWD }, 1));
		CHECK_INT(r[10].capture->call, 9);
		for (size_t i = 0; i < res.nrecords; i++)
			CHECK(strcmp(res.records[i].capture->origin, GROUP_AUX_ORIGIN));
	}
	results_release(&res);
}

/* Shapes inferred from grids and names, against the calls of the committed captures, whose
 * shapes the helper recorded: every inferred quantity must hold the recorded one */
static void test_shape_infer_on_captures(void)
{
	const char *files[] = { "experiments/results/capture/capture-sdpa.yaml", "experiments/results/capture/capture-flex.yaml",
				"experiments/results/capture/capture-kernelmode.yaml" };
	int inferred = 0, nq_exact = 0, fa2_full = 0;
	for (size_t f = 0; f < 3; f++) {
		struct results res;
		int cut = 0;
		results_init(&res);
		if (results_load(&res, files[f], &cut)) {
			results_release(&res);
			SKIP("skipped: a committed capture is unreadable");
		}
		for (size_t i = 0; i < res.nrecords; i++) {
			const struct record *r = &res.records[i];
			struct inferred_shape s;
			if (!shape_infer(r, &s))
				continue;
			inferred++;
			char what[512];
			snprintf(what, sizeof what, "%s record %zu (%s %s B=%d H=%d N=%d): %s", files[f], i + 1, r->variant,
				 record_pass(r), r->shape.batch, r->shape.heads, r->shape.seqlen_q, s.text);
			if (s.batch && s.batch != r->shape.batch) CHECK_STR(what, "B");
			if (s.heads && s.heads != r->shape.heads) CHECK_STR(what, "H");
			if (s.nq_min && (r->shape.seqlen_q < s.nq_min || r->shape.seqlen_q > s.nq_max)) CHECK_STR(what, "Nq");
			if (s.d_max && (r->shape.head_dim < s.d_min || r->shape.head_dim > s.d_max)) CHECK_STR(what, "d");
			if (s.causal >= 0 && s.causal != r->shape.causal) CHECK_STR(what, "causal");
			if (s.dtype != DTYPE_UNKNOWN && s.dtype != r->shape.dtype) CHECK_STR(what, "dtype");
			CHECK(s.batch && s.heads); /* every family read here gives B and H */
			nq_exact += s.nq_min && s.nq_min == s.nq_max;
			fa2_full += s.nq_min && s.d_max && s.causal >= 0 && s.dtype != DTYPE_UNKNOWN;
		}
		results_release(&res);
	}
	CHECK(inferred >= 50);
	CHECK(nq_exact >= 10);
	CHECK(fa2_full >= 10);
	/* one read whole: the unmarked FA2 program's calls (B = 4, H = 16, N = 4096, d = 128, fp16) */
	struct record r;
	record_init(&r);
	r.nlaunches = 1;
	r.launches = calloc(1, sizeof *r.launches);
	r.launches[0].name = strdup(FA2_FWD);
	r.launches[0].grid[0] = 32; r.launches[0].grid[1] = 4; r.launches[0].grid[2] = 16;
	struct inferred_shape s;
	CHECK_INT(shape_infer(&r, &s), 1);
	CHECK_STR(s.text, "B=4 H=16 Nq=4096 d=128 causal=0 dtype=fp16");
	CHECK_CONTAINS(s.rule, "kBlockM = 128");
	/* cuDNN's persistent grid says nothing */
	free(r.launches[0].name);
	r.launches[0].name = strdup(CUDNN_FWD);
	r.launches[0].grid[0] = 132; r.launches[0].grid[1] = r.launches[0].grid[2] = 1;
	CHECK_INT(shape_infer(&r, &s), 0);
	/* a dot(dO, O) and a main kernel that disagree on B: B left out */
	record_release(&r);
	record_init(&r);
	r.nlaunches = 2;
	r.launches = calloc(2, sizeof *r.launches);
	r.launches[0].name = strdup(FA2_DOT);
	r.launches[0].grid[0] = 16; r.launches[0].grid[1] = 16; r.launches[0].grid[2] = 16;
	r.launches[1].name = strdup(FA2_BWD);
	r.launches[1].grid[0] = 8; r.launches[1].grid[1] = 8; r.launches[1].grid[2] = 16;
	CHECK_INT(shape_infer(&r, &s), 1);
	CHECK_INT(s.batch, 0);
	CHECK_INT(s.heads, 16);
	CHECK_CONTAINS(s.rule, "disagree on B");
	record_release(&r);
}

TESTS(test_range_full, test_range_mask, test_group_scanned, test_shape_infer_on_captures, test_range_defaults_and_decode, test_range_bad, test_range_embedded, test_thunk_unnamed, test_check_skipped, test_family, test_family_scan, test_family_load,
      test_verdict, test_verdict_on_reference_records, test_results_round_trip, test_merge_parts, test_merge_replay_run)
