#!/bin/sh
# tools/capture-diag.sh: why `record -- CMD` sees no attention range — is the
# Python helper installed, do NVTX calls reach the injection library?
OUT=${OUT:-out}
echo "-- the helper alone (no injection)"
PYTHONPATH=src/capture/python ATTNPROF_HOOK=1 python3 -c "import sys, torch.nn.functional as F; print('python', sys.executable, 'patched', getattr(F.scaled_dot_product_attention, '_attnprof', False), 'helper loaded', 'attnprof_hook' in sys.modules)"
echo "-- a range by hand under record"
ATTNPROF_INJECT_VERBOSE=1 ./attnprof record -o "$OUT/diag.yaml" --force -- python3 -c "
import sys, torch, torch.nn.functional as F
print('patched', getattr(F.scaled_dot_product_attention, '_attnprof', False), 'helper', 'attnprof_hook' in sys.modules)
q = torch.randn(1, 2, 128, 64, device='cuda', dtype=torch.half)
torch.cuda.nvtx.range_push('attnprof: impl=byhand B=1 H=2 Nq=128 Nkv=128 d=64 dtype=fp16')
F.scaled_dot_product_attention(q, q, q)
torch.cuda.nvtx.range_pop()
torch.cuda.synchronize()
print('done')
" 2>&1 | tail -25
