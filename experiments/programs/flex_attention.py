"""A FlexAttention program, as its users write one: a causal sliding-window
block mask, flex_attention compiled (the idiom of PyTorch's docs), forward
and backward, at the FA2-paper token budget (B*N = 16k, H = 16, d = 128).

    attnprof record -o flex.yaml -- python3 experiments/programs/flex_attention.py

--mode picks how flex_attention is reached:
  compiled-fn     flex = torch.compile(flex_attention); flex(q, k, v, block_mask=...)
  compiled-model  the attention inside a module compiled whole (torch.compile(model))
  eager           flex_attention called uncompiled (PyTorch's reference path)

The last line is a checksum of every output and gradient, so a run under
attnprof can be compared with a plain run (docs/capture.md)."""
import argparse
import time

import torch
from torch.nn.attention.flex_attention import create_block_mask, flex_attention

p = argparse.ArgumentParser()
p.add_argument("--mode", choices=["compiled-fn", "compiled-model", "eager"], default="compiled-fn")
p.add_argument("--seqlens", default="1024,4096")
p.add_argument("--batch-tokens", type=int, default=16384)
p.add_argument("--heads", type=int, default=16)
p.add_argument("--head-dim", type=int, default=128)
p.add_argument("--window", type=int, default=1024, help="keys visible to a query: the last WINDOW, causal")
p.add_argument("--iters", type=int, default=2)
p.add_argument("--no-backward", action="store_true")
a = p.parse_args()

W = a.window


def sliding_causal(b, h, q_idx, kv_idx):
    return (q_idx >= kv_idx) & (q_idx - kv_idx < W)


class Attention(torch.nn.Module):
    def forward(self, q, k, v, block_mask):
        return flex_attention(q, k, v, block_mask=block_mask)


if a.mode == "compiled-fn":
    attend = torch.compile(flex_attention)
elif a.mode == "compiled-model":
    model = torch.compile(Attention())
    attend = lambda q, k, v, block_mask: model(q, k, v, block_mask)  # noqa: E731
else:
    attend = flex_attention

torch.manual_seed(0)
checksum = 0.0
t0 = time.time()
for n in (int(s) for s in a.seqlens.split(",")):
    b = max(1, a.batch_tokens // n)
    shape = (b, a.heads, n, a.head_dim)
    q, k, v = (torch.randn(shape, device="cuda", dtype=torch.float16, requires_grad=not a.no_backward)
               for _ in range(3))
    mask = create_block_mask(sliding_causal, None, None, n, n, device="cuda")
    for _ in range(a.iters):
        out = attend(q, k, v, block_mask=mask)
        checksum += float(out.float().sum())
        if not a.no_backward:
            out.backward(torch.ones_like(out))
            checksum += sum(float(t.grad.float().sum()) for t in (q, k, v))
            for t in (q, k, v):
                t.grad = None
torch.cuda.synchronize()
print("flex_attention: mode %s, seqlens %s, done in %.2f s" % (a.mode, a.seqlens, time.time() - t0))
print("checksum %.6e" % checksum)
