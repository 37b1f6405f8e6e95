"""experiments/programs/cudagraph_sdpa.py: SDPA captured into a torch.cuda.CUDAGraph and replayed.

The way serving stacks run a fixed-shape step: inputs copied into static
buffers, the graph replayed.  Prints one deterministic line,
"checksum <hex> replays=N", from the outputs of every replay (the same plain
and under `attnprof record -- CMD`: tools/gpu-run.sh graphsneverharm), and
"done" last, so a run cut short shows.  Issue 54 item 4.  It also prints
"replay_ms median=…" (each replay alone between CUDA events; a time, so not
among the lines compared), what the in-graph call's time under
`record --graphs on` is held to (tools/gpu-run.sh graphcalls, at
--seqlen 16384: the events also hold the graph's launch through Python
and torch, 21 of the 34 us of an H100 replay at 1024).
"""
import argparse
import hashlib

import torch
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--replays", type=int, default=5)
ap.add_argument("--seqlen", type=int, default=1024)
a = ap.parse_args()

torch.manual_seed(0)
B, H, N, d = 2, 8, a.seqlen, 64
q, k, v = (torch.randn(B, H, N, d, device="cuda", dtype=torch.float16) for _ in range(3))
sq, sk, sv = q.clone(), k.clone(), v.clone()

# warm up on a side stream, as PyTorch's documentation asks before a capture
s = torch.cuda.Stream()
s.wait_stream(torch.cuda.current_stream())
with torch.cuda.stream(s):
    for _ in range(2):
        out = F.scaled_dot_product_attention(sq, sk, sv, is_causal=True)
torch.cuda.current_stream().wait_stream(s)

g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    out = F.scaled_dot_product_attention(sq, sk, sv, is_causal=True)

h = hashlib.sha256()
ms = []
for r in range(a.replays):
    sq.copy_(q * (1.0 + 0.01 * r))
    torch.cuda.synchronize()
    # the replay alone between CUDA events (the graph holds only the SDPA call):
    # what an in-graph call's time under record is compared with
    t0, t1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    t0.record()
    g.replay()
    t1.record()
    torch.cuda.synchronize()
    ms.append(t0.elapsed_time(t1))
    h.update(out.float().cpu().numpy().round(2).tobytes())
# an eager call of the same shape after the graph (the helper checks this one)
eager = F.scaled_dot_product_attention(q, k, v, is_causal=True)
h.update(eager.float().cpu().numpy().round(2).tobytes())
print("checksum %s replays=%d" % (h.hexdigest()[:16], a.replays))
ms.sort()
print("replay_ms median=%.4f min=%.4f max=%.4f n=%d (CUDA events around g.replay(), not compared)"
      % (ms[len(ms) // 2], ms[0], ms[-1], len(ms)))
print("done")
