# issue 30: JAX's Pallas FlashAttention (a Triton kernel under jax.jit) found with
# its shape through the helper's jax.named_scope, family pallas, forward and
# backward; the program's output under record is its plain output
needs: gpu
setup: python3 experiments/programs/jax_pallas_attention.py --seqlens 1024 --iters 1 | grep '^checksum' > $TMP/plain
args: record -o $TMP/pallas.yaml --timeout 120 -- python3 experiments/programs/jax_pallas_attention.py --seqlens 1024 --iters 1
exit: 0
check: grep -qxF -f $TMP/plain $TMP/out
check: "$bin" export $TMP/pallas.yaml --csv | grep -q '^capture,jax-pallas,prefill,fp16,16,16,16,1024,1024,128,true,.*,fwd,.*,jax-helper,pallas,'
check: "$bin" export $TMP/pallas.yaml --csv | grep -q '^capture,jax-pallas,prefill,fp16,16,16,16,1024,1024,128,true,.*,bwd,.*,jax-helper,pallas,'
