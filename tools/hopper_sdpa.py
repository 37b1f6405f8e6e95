#!/usr/bin/env python3
"""Reference timings for the Hopper forward: PyTorch SDPA's CUDNN_ATTENTION and
FLASH_ATTENTION backends at the FA2 benchmark shapes (B*N = 16384, H*d = 2048),
and a large cuBLAS GEMM (torch.matmul 8192^3) as the dense tensor ceiling.

--pass bwd times the backward alone instead (torch.autograd.grad of one forward's
output, retain_graph, no gradient accumulation; FLOPs 2.5x the forward's), for the Hopper backward's bench-bwd.

Each series is settled (run untimed for --settle seconds), then timed --reps
launches, each between its own CUDA events; the median is reported.
CSV rows: csv,impl,rung,dtype,d,causal,B,H,N,median_ms,min_ms,max_ms,tflops
"""
import argparse, time, sys
import torch
import torch.nn.functional as F
from torch.nn.attention import sdpa_kernel, SDPBackend

ap = argparse.ArgumentParser()
ap.add_argument("--d", default="64,128")
ap.add_argument("--n", default="2048,4096,8192,16384")
ap.add_argument("--dtype", default="fp16,bf16")
ap.add_argument("--causal", default="0,1")
ap.add_argument("--backends", default="cudnn,flash")
ap.add_argument("--settle", type=float, default=1.0)
ap.add_argument("--reps", type=int, default=30)
ap.add_argument("--gemm", type=int, default=1)
ap.add_argument("--pass", dest="pas", choices=["fwd", "bwd"], default="fwd")
a = ap.parse_args()
ints = lambda s: [int(x) for x in s.split(",") if x]
DT = {"fp16": torch.float16, "bf16": torch.bfloat16}
BK = {"cudnn": SDPBackend.CUDNN_ATTENTION, "flash": SDPBackend.FLASH_ATTENTION}

def timeit(fn, settle, reps):
    fn(); torch.cuda.synchronize()
    t0 = time.time()
    while time.time() - t0 < settle:
        for _ in range(5):
            fn()
        torch.cuda.synchronize()
    ms = []
    for _ in range(reps):
        e0 = torch.cuda.Event(enable_timing=True); e1 = torch.cuda.Event(enable_timing=True)
        e0.record(); fn(); e1.record(); e1.synchronize()
        ms.append(e0.elapsed_time(e1))
    ms.sort()
    return ms[len(ms) // 2], ms[0], ms[-1]

print(f"torch {torch.__version__}, {torch.cuda.get_device_name(0)}", flush=True)
print("csv,impl,rung,dtype,d,causal,B,H,N,median_ms,min_ms,max_ms,tflops", flush=True)
if a.gemm:
    for dn in a.dtype.split(","):
        x = torch.randn(8192, 8192, device="cuda", dtype=DT[dn])
        y = torch.randn(8192, 8192, device="cuda", dtype=DT[dn])
        med, mn, mx = timeit(lambda: torch.matmul(x, y), a.settle, a.reps)
        print(f"csv,cublas,gemm8192,{dn},0,0,1,1,8192,{med:.4f},{mn:.4f},{mx:.4f},{2*8192**3/(med*1e-3)/1e12:.1f}", flush=True)
        del x, y
for dn in a.dtype.split(","):
    for d in ints(a.d):
        for causal in ints(a.causal):
            for n in ints(a.n):
                B, H = 16384 // n, 2048 // d
                q = (torch.rand(B, H, n, d, device="cuda", dtype=torch.float32) * 4 - 2).to(DT[dn])
                k = (torch.rand(B, H, n, d, device="cuda", dtype=torch.float32) * 4 - 2).to(DT[dn])
                v = (torch.rand(B, H, n, d, device="cuda", dtype=torch.float32) * 2 - 1).to(DT[dn])
                flops = 4.0 * B * H * n * n * d / (2 if causal else 1) * (2.5 if a.pas == "bwd" else 1)
                for bk in a.backends.split(","):
                    try:
                        with sdpa_kernel(BK[bk]):
                            if a.pas == "bwd":
                                qg, kg, vg = (t.detach().requires_grad_() for t in (q, k, v))
                                out = F.scaled_dot_product_attention(qg, kg, vg, is_causal=bool(causal))
                                go = torch.rand_like(out) * 2 - 1
                                fn = lambda: torch.autograd.grad(out, (qg, kg, vg), go, retain_graph=True)
                            else:
                                fn = lambda: F.scaled_dot_product_attention(q, k, v, is_causal=bool(causal))
                            med, mn, mx = timeit(fn, a.settle, a.reps)
                        impl = "sdpa-bwd" if a.pas == "bwd" else "sdpa"
                        print(f"csv,{impl},{bk},{dn},{d},{causal},{B},{H},{n},{med:.4f},{mn:.4f},{mx:.4f},{flops/(med*1e-3)/1e12:.1f}", flush=True)
                    except Exception as e:
                        print(f"sdpa {bk} {dn} d={d} causal={causal} N={n}: {e}", flush=True)
                del q, k, v
