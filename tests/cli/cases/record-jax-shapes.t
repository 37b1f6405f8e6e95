# issue 30: JAX's attention found with its shape — the helper's jax.named_scope
# reaches attnprof through XLA's thunk ranges; cuDNN's fused forward is one call of
# the stated shape, and its backward (transpose(...) in XLA's names) is pass bwd
needs: gpu
args: record -o $TMP/jax-shapes.yaml --timeout 120 -- python3 experiments/programs/jax_attention.py --impls cudnn --seqlens 1024 --iters 1
exit: 0
check: "$bin" export $TMP/jax-shapes.yaml --csv | grep -q '^capture,jax-cudnn,prefill,fp16,16,16,16,1024,1024,128,true,.*,fwd,.*,jax-helper,'
check: "$bin" export $TMP/jax-shapes.yaml --csv | grep -q '^capture,jax-cudnn,prefill,fp16,16,16,16,1024,1024,128,true,.*,bwd,.*,jax-helper,'
