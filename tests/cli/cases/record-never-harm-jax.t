# issue 30: a JAX program (XLA's CUDA graphs, cuDNN's fused attention) runs to its
# end under record with its plain output, and cuDNN's kernels are found by family
needs: gpu
setup: python3 experiments/programs/jax_attention.py --seqlens 1024 --iters 1 | grep '^checksum' > $TMP/plain
args: record -o $TMP/jax.yaml --timeout 120 -- python3 experiments/programs/jax_attention.py --seqlens 1024 --iters 1
exit: 0
check: grep '^checksum' $TMP/out | cmp - $TMP/plain
check: "$bin" export $TMP/jax.yaml --csv | grep -q ",jax-helper,"
