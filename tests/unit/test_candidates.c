/* Kernels nobody named (capture/candidates.h): the pattern table, the tally
 * the injection library keeps, its files and record's listing with the
 * command that captures them. */
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "capture/candidates.h"
#include "capture/family.h"
#include "util/error.h"

/* FA2's forward as PyTorch 2.11 launched it (capture-kernelmode.yaml), grid (32, 4, 16): Nq 4096, B 4, H 16 */
static const char fa2[] =
	"_ZN13pytorch_flash16flash_fwd_kernelI23Flash_fwd_kernel_traitsILi128ELi128ELi64ELi4ELb0ELb0EN7cutlass6half_tE19"
	"Flash_kernel_traitsILi128ELi128ELi64ELi4ES3_EELb0ELb0ELb0ELb0ELb1ELb1ELb0ELb0EEEvNS_16Flash_fwd_paramsE";

static void test_pattern_table(void)
{
	/* a hand-written Triton kernel, a decode kernel, any case */
	CHECK_STR(candidate_pattern("_attn_fwd", 1), "attn");
	CHECK_STR(candidate_pattern("my_Paged_KV_kernel", 1), "paged");
	CHECK_STR(candidate_pattern("void ns::FMHA_fwd<64>(Params)", 1), "fmha");
	CHECK_STR(candidate_pattern("decode_step_kernel", 1), "decode");
	CHECK_STR(candidate_pattern("custom_SDPA", 1), "sdpa");
	/* no attention word */
	CHECK(candidate_pattern("ampere_sgemm_128x64_nn", 1) == NULL);
	CHECK(candidate_pattern("elementwise_kernel", 1) == NULL);
	CHECK(candidate_pattern(NULL, 1) == NULL);
	/* a family rule says what it is: the scan takes FA2's, Inductor's pointwise
	 * kernel named after attention is a Triton kernel, the split-KV combine is aux */
	CHECK(candidate_pattern(fa2, 1) == NULL);
	CHECK(candidate_pattern("triton_poi_fused__scaled_dot_product_efficient_attention_0", 1) == NULL);
	CHECK(candidate_pattern("flash_fwd_splitkv_combine_kernel", 1) == NULL);
	/* with the scan off, the kernels it would take are candidates, named by family */
	CHECK_STR(candidate_pattern(fa2, 0), "flash-attn-2");
	CHECK_STR(candidate_pattern("_attn_fwd", 0), "attn");
}

static void test_families_extend(void)
{
	/* --families: a user rule of role aux takes a name out; one of role fused makes it the scan's */
	char path[] = "/tmp/attnprof-cand-famXXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	FILE *f = fdopen(fd, "w");
	fprintf(f, "- {pattern: decode_proj, family: mine, role: aux, what: a projection of the decode step}\n"
		   "- {pattern: mykern_qk, family: mine-attn, role: fused, what: my attention}\n");
	fclose(f);
	CHECK_INT(family_load(path), 0);
	CHECK(candidate_pattern("decode_proj_kernel", 1) == NULL);
	CHECK_STR(candidate_pattern("decode_step_kernel", 1), "decode");
	CHECK(candidate_pattern("mykern_qk_v2", 1) == NULL);
	CHECK_STR(candidate_pattern("mykern_qk_v2", 0), "mine-attn");
	family_reset();
	unlink(path);
	CHECK_STR(candidate_pattern("decode_proj_kernel", 1), "decode");
}

static void test_tally_and_files(void)
{
	struct candidates a, b;
	candidates_init(&a);
	candidates_init(&b);
	const int g1[3] = { 32, 4, 16 }, g2[3] = { 8, 4, 16 }, blk[3] = { 128, 1, 1 };
	CHECK_INT(candidates_add(&a, "_attn_fwd", NULL, "attn", g1, blk, 1, 0, 0), 0);
	CHECK_INT(candidates_add(&a, "_attn_fwd", NULL, "attn", g1, blk, 1, 0, 0), 0);
	CHECK_INT(candidates_add(&a, "_attn_fwd", NULL, "attn", g2, blk, 1, 1, 0), 0);
	CHECK_INT(a.n, 1);
	CHECK_INT(a.v[0].launches, 3);
	CHECK_INT(a.v[0].captured, 1);
	CHECK_INT(a.v[0].other_grids, 1);
	CHECK_INT(a.v[0].grid[0], 32);

	/* two processes' files add up by kernel, in name order */
	char dir[] = "/tmp/attnprof-candXXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	char p1[200], p2[200], junk[200];
	snprintf(p1, sizeof p1, "%s/candidates-100.tsv", dir);
	snprintf(p2, sizeof p2, "%s/candidates-200.tsv", dir);
	snprintf(junk, sizeof junk, "%s/part-100.yaml", dir);
	CHECK_INT(candidates_write(&a, p1), 0);
	candidates_release(&a);
	CHECK_INT(candidates_add(&a, "_attn_fwd", NULL, "attn", g1, blk, 4, 0, 2), 0);
	CHECK_INT(candidates_add(&a, fa2, "void pytorch_flash::flash_fwd_kernel<Flash_fwd_kernel_traits<128, 128, 64, 4, "
				 "false, false, cutlass::half_t, Flash_kernel_traits<128, 128, 64, 4, cutlass::half_t>>, "
				 "false, false, false, false, true, true, false, false>(Flash_fwd_params)",
				 "flash-attn-2", g1, blk, 3, 0, 0), 0);
	CHECK_INT(candidates_write(&a, p2), 0);
	FILE *f = fopen(junk, "w");
	fputs("not a candidates file\n", f);
	fclose(f);
	CHECK_INT(candidates_read_dir(&b, dir), 0);
	CHECK_INT(b.n, 2);
	CHECK_STR(b.v[0].name, "_attn_fwd");
	CHECK_INT(b.v[0].launches, 7);
	CHECK_INT(b.v[0].captured, 1);
	CHECK_INT(b.v[0].other_grids, 3);
	CHECK(b.v[0].demangled == NULL);
	CHECK_STR(b.v[1].pattern, "flash-attn-2");
	CHECK(b.v[1].demangled != NULL);

	/* a bad line is refused with its place */
	f = fopen(p1, "w");
	fputs("3\t1\t0\t32\t4\t16\t128\t1\t1\tattn\t_attn_fwd\t\n5\t9\t0\t1\t1\t1\t1\t1\t1\tattn\tk\t\n", f);
	fclose(f);
	candidates_release(&b);
	int q = error_quiet(1);
	CHECK(candidates_read(&b, p1) != 0);
	error_quiet(q);
	CHECK(strstr(error_last(), "candidates-100.tsv:2:") != NULL);
	candidates_release(&b);
	unlink(p1), unlink(p2), unlink(junk);
	rmdir(dir);
	candidates_release(&a);
}

static void test_command(void)
{
	struct candidates c;
	candidates_init(&c);
	const int g[3] = { 32, 4, 16 }, blk[3] = { 128, 1, 1 }, one[3] = { 1, 1, 1 };
	candidates_add(&c, fa2, "void pytorch_flash::flash_fwd_kernel<Flash_fwd_kernel_traits<128, 128, 64, 4, false, "
		       "false, cutlass::half_t>>(Flash_fwd_params)", "flash-attn-2", g, blk, 3, 0, 0);
	candidates_add(&c, "_attn_bwd_dkdv", NULL, "attn", one, blk, 2, 0, 0);
	candidates_add(&c, "_attn_fwd", NULL, "attn", one, blk, 5, 5, 0);
	char buf[1200], base[64];
	int inferred = -1;
	candidate_base_name(&c.v[0], base, sizeof base);
	CHECK_STR(base, "flash_fwd_kernel");
	/* the grid (⌈Nq/128⌉, B, H) and the name's traits give the shape's known part */
	candidate_command(&c.v[0], "python3 prog.py", buf, sizeof buf, &inferred);
	CHECK_STR(buf, "attnprof record --kernel-regex 'flash_fwd_kernel' --shape 'impl=flash_fwd_kernel pass=fwd B=4 "
		       "H=16 Nq=4096 d=128 causal=0 dtype=fp16' -- python3 prog.py");
	CHECK_INT(inferred, 1);
	candidate_command(&c.v[1], "./a.out", buf, sizeof buf, &inferred);
	CHECK_STR(buf, "attnprof record --kernel-regex '_attn_bwd_dkdv' --shape 'impl=_attn_bwd_dkdv pass=bwd' -- ./a.out");
	CHECK_INT(inferred, 0);

	/* the listing: every kernel with launches left uncaptured, into the notes */
	struct results res;
	results_init(&res);
	int q = error_quiet(1);
	CHECK_INT(candidates_report(&c, "python3 prog.py", &res), 2);
	error_quiet(q);
	CHECK(res.header.notes && strstr(res.header.notes, "candidate attention kernel 'flash_fwd_kernel'"));
	CHECK(strstr(res.header.notes, "3 launches outside every attention range, 3 not captured, grid (32, 4, 16)"));
	CHECK(strstr(res.header.notes, "'_attn_bwd_dkdv' (its name holds 'attn')"));
	CHECK(!strstr(res.header.notes, "'_attn_fwd'")); /* all captured */
	results_release(&res);
	candidates_release(&c);
}

TESTS(test_pattern_table, test_families_extend, test_tally_and_files, test_command)
