"""experiments/programs/compile_reduce_overhead.py: an attention block under torch.compile(mode="reduce-overhead").

TorchInductor compiles the block and replays it from CUDA graphs (its
cudagraph trees).  Prints "graphs=N" (the graphs Dynamo compiled: the same
plain and under record, or the helper broke the graph), one deterministic
"checksum <hex>" line, and "done" last, so a run cut short shows
(tools/gpu-run.sh graphsneverharm).  Issue 54 item 4.
"""
import argparse
import hashlib

import torch
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--iters", type=int, default=6)
ap.add_argument("--seqlen", type=int, default=1024)
a = ap.parse_args()

torch.manual_seed(0)
B, H, N, d = 2, 8, a.seqlen, 64
E = H * d


class Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.qkv = torch.nn.Linear(E, 3 * E, bias=False)
        self.o = torch.nn.Linear(E, E, bias=False)

    def forward(self, x):
        q, k, v = self.qkv(x).view(B, N, 3, H, d).permute(2, 0, 3, 1, 4)
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return self.o(y.transpose(1, 2).reshape(B, N, E))


m = Block().cuda().half().eval()
mode = "reduce-overhead"
try:
    import torch._dynamo
    compiled = torch.compile(m, mode=mode)
    counter = torch._dynamo.utils.counters
except Exception:
    compiled, counter = torch.compile(m, mode=mode), None
x = torch.randn(B, N, E, device="cuda", dtype=torch.float16)
h = hashlib.sha256()
with torch.no_grad():
    for i in range(a.iters):
        y = compiled(x * (1.0 + 0.01 * i))
        torch.cuda.synchronize()
        h.update(y.float().cpu().numpy().round(2).tobytes())
graphs = int(counter["stats"]["unique_graphs"]) if counter is not None else -1
breaks = sum(counter["graph_break"].values()) if counter is not None else -1
print("graphs=%d graph_breaks=%d" % (graphs, breaks))
print("checksum %s iters=%d" % (h.hexdigest()[:16], a.iters))
print("done")
