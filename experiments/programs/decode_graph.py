"""experiments/programs/decode_graph.py: a decode loop replayed from a CUDA graph over a static KV cache.

The way serving stacks run decode (issue 54 item 5): the KV cache is
allocated once at its largest length, one decode step (append this token's
K and V at the position held in a device tensor, attend over the cache with
a mask of the positions written so far, a projection) is captured into a
torch.cuda.CUDAGraph, and every token replays it with only the static
inputs changed.  The attention call inside the graph is SDPA with a mask.

Prints "checksum <hex> steps=N proj=P", "wall_s <seconds of the decode
loop>" (a time: not compared) and "done" last.  The checksum is of every
step's output and of the cache positions written, and is the same in
every plain run (tools/gpu-run.sh graphcalls compares three): the inputs
are seeded and each step's token comes from a seeded table, not from the
step before (on the H100 of 2026-12-07 each step's input was the last
step's output, so one last-bit difference anywhere changed every later
step).

The projection is a multiply and a sum over the model dimension (--proj
sum, the default), not a cuBLAS GEMM: on the H100 (2026-12-07 16:43, the
lead's diagnostic: /work/notes/graphs-GPU-RESULT5a) the fp16 GEMM
[8 x 2048] @ [2048 x 2048] captured in the graph gave a different checksum
in each of three plain runs, with every SDPA backend forced (default =
cuDNN, cuDNN, memory-efficient, math) and in spite of
CUBLAS_WORKSPACE_CONFIG; without it all twelve runs agreed, so the
attention (cuDNN's SDPA by default, left to PyTorch's choice here) is
deterministic and the GEMM is not.  PyTorch's sum reduction has a fixed
order for a fixed shape, so the step's output is the same bits run after
run.  --proj gemm keeps the GEMM (to show the difference), --proj
gemm-det the GEMM under torch.use_deterministic_algorithms(True).

Under `record --graphs on` each step's SDPA is one replay of one in-graph
call; under `record --metrics none` the wall time is held to within 10 %
of plain (tools/gpu-run.sh graphcalls).
"""
import argparse
import hashlib
import os
import time

os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")  # before torch loads cuBLAS

import torch  # noqa: E402
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--steps", type=int, default=200)
ap.add_argument("--cache", type=int, default=4096)
ap.add_argument("--proj", choices=("sum", "gemm", "gemm-det"), default="sum",
                help="the step's projection: a multiply and a sum reduction (deterministic), or a cuBLAS GEMM")
a = ap.parse_args()
if a.proj == "gemm-det":
    torch.use_deterministic_algorithms(True)

torch.manual_seed(0)
torch.cuda.manual_seed_all(0)
torch.backends.cudnn.deterministic = True
torch.backends.cudnn.benchmark = False
B, H, D, N = 8, 16, 128, a.cache
prefill = 512
dt = torch.float16
kc = torch.zeros(B, H, N, D, device="cuda", dtype=dt)
vc = torch.zeros(B, H, N, D, device="cuda", dtype=dt)
kc[:, :, :prefill] = torch.randn(B, H, prefill, D, device="cuda", dtype=dt)
vc[:, :, :prefill] = torch.randn(B, H, prefill, D, device="cuda", dtype=dt)
w = torch.randn(H * D, H * D, device="cuda", dtype=dt) * 0.02
# each step's token (a seeded table: the sampled token's embedding stands in for it)
tokens = torch.randn(a.steps + 2, B, H, 1, D, device="cuda", dtype=dt)
# the static inputs of a step
x = tokens[0].clone()
pos = torch.tensor([prefill], device="cuda", dtype=torch.long)
ar = torch.arange(N, device="cuda")


def step():
    q = x
    kc.index_copy_(2, pos, x)  # this token's K and V (the step's input stands in for both)
    vc.index_copy_(2, pos, x * 0.5)
    mask = (ar <= pos).view(1, 1, 1, N)  # positions written so far
    o = F.scaled_dot_product_attention(q, kc, vc, attn_mask=mask)
    if a.proj == "sum":  # o @ w as a multiply and a sum: a fixed order of additions (see the docstring)
        return (o.reshape(B, H * D, 1) * w).sum(1, dtype=torch.float32).to(dt).view(B, H, 1, D)
    return (o.reshape(B, H * D) @ w).view(B, H, 1, D)


s = torch.cuda.Stream()
s.wait_stream(torch.cuda.current_stream())
with torch.cuda.stream(s):
    for _ in range(2):
        y = step()
torch.cuda.current_stream().wait_stream(s)
kc[:, :, prefill:] = 0  # the warm-up wrote one position
vc[:, :, prefill:] = 0
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    y = step()

ys = torch.empty(a.steps, *y.shape, device="cuda", dtype=dt)  # every step's output, kept on the GPU
h = hashlib.sha256()
torch.cuda.synchronize()
t0 = time.perf_counter()
for t in range(a.steps):
    pos.fill_(prefill + t)
    x.copy_(tokens[t + 1])
    g.replay()
    ys[t].copy_(y)
torch.cuda.synchronize()
wall = time.perf_counter() - t0
h.update(ys.float().cpu().numpy().round(2).tobytes())
h.update(kc[:, :, prefill:prefill + a.steps].float().cpu().numpy().round(2).tobytes())
print("checksum %s steps=%d proj=%s" % (h.hexdigest()[:16], a.steps, a.proj))
print("wall_s %.4f" % wall)
print("done")
