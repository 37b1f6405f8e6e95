"""SDPA calls from several threads, each on its own CUDA stream, at once:
the case a capture must survive without changing the program's results.

    attnprof record -o t.yaml -- python3 experiments/programs/threads_streams.py

The last line is a checksum of every output, the same with and without
attnprof (docs/capture.md, "Never harm the program")."""
import argparse
import threading

import torch
import torch.nn.functional as F

p = argparse.ArgumentParser()
p.add_argument("--threads", type=int, default=4)
p.add_argument("--iters", type=int, default=3)
p.add_argument("--seqlen", type=int, default=2048)
a = p.parse_args()

sums = [0.0] * a.threads


def work(i):
    g = torch.Generator(device="cuda")
    g.manual_seed(i)
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        q, k, v = (torch.randn((2, 16, a.seqlen, 128), device="cuda", dtype=torch.float16, generator=g)
                   for _ in range(3))
        for _ in range(a.iters):
            out = F.scaled_dot_product_attention(q, k, v, is_causal=bool(i % 2))
            sums[i] += float(out.float().sum())
    s.synchronize()


threads = [threading.Thread(target=work, args=(i,)) for i in range(a.threads)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print("threads_streams: %d threads x %d calls" % (a.threads, a.iters))
print("checksum %.6e" % sum(sums))
