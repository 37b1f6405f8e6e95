# issue 30: with XLA's command buffers on (its default), the XLA implementation's
# kernels run inside CUDA graphs: an operation tagged as attention that launched
# no kernel of its own is no call (H200 2026-12-02 15:19: 26 such rows, no kernel,
# no time, beside the cuDNN calls); every recorded call has its kernels, and the
# notes say why the others are missing
needs: gpu
args: record -o $TMP/jax-cmdbuf.yaml --timeout 120 -- python3 experiments/programs/jax_attention.py --seqlens 1024 --iters 1
exit: 0
check: "$bin" export $TMP/jax-cmdbuf.yaml --csv 2>/dev/null | grep -q '^capture,jax-cudnn,prefill,fp16,16,16,16,1024,1024,128,true,'
check: test "$("$bin" export $TMP/jax-cmdbuf.yaml --csv 2>/dev/null | awk -F, 'NR > 1 && $25 == ""' | wc -l)" -eq 0
check: tr -d '\n' < $TMP/jax-cmdbuf.yaml | tr -s ' ' | grep -q 'launched no kernel outside a CUDA graph'
