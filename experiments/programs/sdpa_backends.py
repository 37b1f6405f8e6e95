"""An ordinary PyTorch script, with nothing of attnprof in it: every SDPA
backend (flash, efficient, cudnn, math), forward and backward, at the
FlashAttention-2 paper's shapes (fp16, d = 128, H·d = 2048, B·N = 16k).
`attnprof record -o X.yaml -- python3 experiments/programs/sdpa_backends.py`
profiles its attention calls (docs/capture.md)."""
import argparse
import time

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

p = argparse.ArgumentParser()
p.add_argument("--seqlens", default="1024,2048,4096")
p.add_argument("--head-dim", type=int, default=128)
p.add_argument("--causal", action="store_true")
p.add_argument("--iters", type=int, default=2)
p.add_argument("--backends", default="flash,efficient,cudnn,math")
a = p.parse_args()

names = {"flash": SDPBackend.FLASH_ATTENTION, "efficient": SDPBackend.EFFICIENT_ATTENTION,
         "cudnn": SDPBackend.CUDNN_ATTENTION, "math": SDPBackend.MATH}
d = a.head_dim
H = 2048 // d
t0 = time.time()
for n in [int(x) for x in a.seqlens.split(",")]:
    B = max(1, 16384 // n)
    for name in a.backends.split(","):
        torch.manual_seed(n)
        q, k, v = (torch.randn(B, H, n, d, device="cuda", dtype=torch.float16, requires_grad=True) for _ in range(3))
        do = torch.randn(B, H, n, d, device="cuda", dtype=torch.float16)
        for _ in range(a.iters):
            with sdpa_kernel(names[name]):
                out = F.scaled_dot_product_attention(q, k, v, is_causal=a.causal)
                out.backward(do)
        torch.cuda.synchronize()
        del q, k, v, do, out
        torch.cuda.empty_cache()
print("sdpa_backends: done in %.2f s" % (time.time() - t0))
