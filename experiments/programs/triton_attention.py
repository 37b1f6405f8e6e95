"""experiments/programs/triton_attention.py: a hand-written Triton attention kernel between GEMMs.

What a user's own kernel looks like to attnprof (issue 54 items 2 and 5):
no NVTX range, no SDPA, a kernel named by its author (`_attn_fwd`, online
softmax over key blocks, O in registers), called between unrelated GEMMs.
`record -- CMD` lists it as a candidate with the command that captures it
and, with --scan on, captures each launch as a call (family unknown).

Prints "checksum <hex> calls=N", "maxerr <e>" (the first call against a
float32 reference on the GPU) and "done" last.
"""
import argparse
import hashlib

import torch
import triton
import triton.language as tl


@triton.jit
def _attn_fwd(Q, K, V, O, scale, N, D: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr):
    # one program per (query block, batch*head); q, k, v, o contiguous [BH, N, D]
    qb = tl.program_id(0)
    bh = tl.program_id(1)
    rows = qb * BM + tl.arange(0, BM)
    cols = tl.arange(0, D)
    base = bh * N * D
    q = tl.load(Q + base + rows[:, None] * D + cols[None, :], mask=rows[:, None] < N, other=0.0)
    m = tl.full([BM], float("-inf"), tl.float32)
    l = tl.zeros([BM], tl.float32)
    acc = tl.zeros([BM, D], tl.float32)
    for start in range(0, N, BN):
        keys = start + tl.arange(0, BN)
        kt = tl.load(K + base + keys[None, :] * D + cols[:, None], mask=keys[None, :] < N, other=0.0)
        s = tl.dot(q, kt) * scale
        s = tl.where(keys[None, :] < N, s, float("-inf"))
        m_new = tl.maximum(m, tl.max(s, 1))
        p = tl.exp(s - m_new[:, None])
        alpha = tl.exp(m - m_new)
        l = l * alpha + tl.sum(p, 1)
        vb = tl.load(V + base + keys[:, None] * D + cols[None, :], mask=keys[:, None] < N, other=0.0)
        acc = acc * alpha[:, None] + tl.dot(p.to(vb.dtype), vb)
        m = m_new
    out = acc / l[:, None]
    tl.store(O + base + rows[:, None] * D + cols[None, :], out.to(O.dtype.element_ty), mask=rows[:, None] < N)


def attention(q, k, v):
    B, H, N, D = q.shape
    o = torch.empty_like(q)
    BM, BN = 64, 64
    grid = (triton.cdiv(N, BM), B * H)
    _attn_fwd[grid](q, k, v, o, 1.0 / D ** 0.5, N, D=D, BM=BM, BN=BN)
    return o


ap = argparse.ArgumentParser()
ap.add_argument("--calls", type=int, default=3)
ap.add_argument("--seqlen", type=int, default=2048)
a = ap.parse_args()

torch.manual_seed(0)
B, H, N, D = 2, 8, a.seqlen, 64
x = torch.randn(B * N, 1024, device="cuda", dtype=torch.float16)
w_qkv = torch.randn(1024, 3 * H * D, device="cuda", dtype=torch.float16) * 0.03
w_out = torch.randn(H * D, 1024, device="cuda", dtype=torch.float16) * 0.03
h = hashlib.sha256()
maxerr = None
for c in range(a.calls):
    qkv = (x @ w_qkv).view(B, N, 3, H, D).permute(2, 0, 3, 1, 4).contiguous()  # a GEMM before
    q, k, v = qkv[0], qkv[1], qkv[2]
    o = attention(q, k, v)
    if maxerr is None:
        ref = torch.softmax((q.float() @ k.float().transpose(-1, -2)) / D ** 0.5, -1) @ v.float()
        maxerr = (o.float() - ref).abs().max().item()
    x = x + (o.permute(0, 2, 1, 3).reshape(B * N, H * D) @ w_out)  # a GEMM after
    torch.cuda.synchronize()
    h.update(o.float().cpu().numpy().round(2).tobytes())
print("checksum %s calls=%d" % (h.hexdigest()[:16], a.calls))
print("maxerr %.3e" % maxerr)
print("done")
