"""A program whose attention no helper marks: it calls PyTorch's
FlashAttention-2 operator (aten::_scaled_dot_product_flash_attention)
directly, as a custom extension would, between other GPU work.  No NVTX
range names its calls, so `record` finds them by kernel name:

    attnprof record -o X.yaml --kernel-regex 'flash_fwd_kernel' \\
        --shape 'impl=aten-flash B=4 H=16 Nq=4096 Nkv=4096 d=128 causal=0 dtype=fp16 pass=fwd' \\
        -- python3 experiments/programs/unmarked_attention.py

(docs/capture.md, kernel-launch mode)."""
import argparse
import time

import torch

p = argparse.ArgumentParser()
p.add_argument("--batch", type=int, default=4)
p.add_argument("--heads", type=int, default=16)
p.add_argument("--seqlen", type=int, default=4096)
p.add_argument("--head-dim", type=int, default=128)
p.add_argument("--iters", type=int, default=3)
a = p.parse_args()

torch.manual_seed(0)
shape = (a.batch, a.heads, a.seqlen, a.head_dim)
q, k, v = (torch.randn(shape, device="cuda", dtype=torch.float16) for _ in range(3))
w = torch.randn(a.head_dim, a.head_dim, device="cuda", dtype=torch.float16)
t0 = time.time()
for _ in range(a.iters):
    x = q @ w                                  # other work, not attention
    out = torch.ops.aten._scaled_dot_product_flash_attention(x, k, v)[0]
    y = torch.relu(out @ w)                    # other work, not attention
torch.cuda.synchronize()
print("unmarked_attention: %d calls, out %s, done in %.2f s" % (a.iters, tuple(out.shape), time.time() - t0))
