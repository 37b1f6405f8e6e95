# issue 30: a JAX program (XLA's CUDA graphs, cuDNN's fused attention) runs to its
# end under record with its plain output, and cuDNN's kernels are found by family
needs: gpu
setup: python3 experiments/programs/jax_attention.py --seqlens 1024 --iters 1 | grep '^checksum' > $TMP/plain
args: record -o $TMP/jax.yaml --timeout 120 -- python3 experiments/programs/jax_attention.py --seqlens 1024 --iters 1
exit: 0
# XLA's plain runs differ among themselves in the last printed digit
# (6.701896e+07 and 6.701897e+07, H200 2026-12-02 18:13, with and without
# its autotuning): equal within 1e-5 of the plain run's, not byte for byte
check: awk 'FILENAME == ARGV[1] && /^checksum/ { p = $2 } FILENAME == ARGV[2] && /^checksum/ { seen = 1; d = $2 - p; if (d < 0) d = -d; if (d > 1e-5 * (p < 0 ? -p : p)) bad = 1 } END { exit !(seen && p != "" && !bad) }' $TMP/plain $TMP/out
check: "$bin" export $TMP/jax.yaml --csv | grep -q ",jax-helper,"
