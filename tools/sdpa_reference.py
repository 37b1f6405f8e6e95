#!/usr/bin/env python3
"""sdpa_reference.py RESULTS — add PyTorch SDPA reference series to an
attnprof results file, on the same GPU, for the same prefill shapes.

For every distinct prefill shape of the file's `attnprof` records, time
torch.nn.functional.scaled_dot_product_attention restricted to one backend
(default FLASH_ATTENTION: FlashAttention-2's own code inside PyTorch) with
CUDA events (warm-up, then one event pair per launch; median/min/max), check
sampled rows against an fp64 reference, and append one record per shape with
source `pytorch-sdpa` and the backend name as variant.  It also measures the
dense fp16 tensor-core rate (a large GEMM) for the roofline, when the header
has none.  The file is rewritten atomically; attnprof reads it back.

Records with a `pass` (fwd, bwd, fwd+bwd; absent means fwd) get SDPA
timed for the same pass: bwd times torch.autograd.grad(out, (q, k, v), dO)
on a forward made once (retain_graph, so nothing accumulates and the
forward is not in the time), fwd+bwd times the forward and that gradient
together.  FLOPs by the FA2 convention: bwd 2.5 ×, fwd+bwd 3.5 × forward.
The gradients are checked against fp64 autograd on the first head (N up
to 4k: the fp64 N × N matrices of one head).

--fa2-table times the FA2-paper shapes (fp16, B·N = 16k, H·d = 2048, d 64
and 128, causal and not, N 512 … 16k) for --passes and prints a table,
without a results file (RESULTS is then ignored; give '-').

Runs where PyTorch with CUDA is installed (the GPU machine).
"""
import argparse
import math
import os
import statistics
import sys
import tempfile
import time

import torch
import torch.nn.functional as F
import yaml
from torch.nn.attention import SDPBackend, sdpa_kernel


# The SM clock, for settling: torch.cuda._sleep(C) spins C SM cycles
# (clock64).  Timed between CUDA events a spin also holds the events' fixed
# overhead (about 3 us, which read a 20 us spin at 1980 MHz as 1700), so two
# spins are timed and the clock is their difference in cycles over their
# difference in time.  Enqueued behind a longer spin, so all run back to back.
PROBE_SHORT, PROBE_LONG = 40000, 240000  # about 20 and 120 us at 1980 MHz


_probe_warm = False


def probe_mhz():
    global _probe_warm
    if not _probe_warm:  # a process's first probe reads high (2183 MHz at 1980): its launches are cold
        _probe_warm = True
        probe_mhz()
    ev = [torch.cuda.Event(enable_timing=True) for _ in range(4)]
    torch.cuda._sleep(PROBE_LONG)
    ev[0].record()
    torch.cuda._sleep(PROBE_SHORT)
    ev[1].record()
    ev[2].record()
    torch.cuda._sleep(PROBE_LONG)
    ev[3].record()
    ev[3].synchronize()
    dt = ev[2].elapsed_time(ev[3]) - ev[0].elapsed_time(ev[1])
    return (PROBE_LONG - PROBE_SHORT) / (dt * 1e3) if dt > 0 else 0.0


# Settling, by attnprof's rule (src/gpu/harness.c, settle_clock; docs/metrics.md):
# run untimed in chunks of about 10 ms, probing the clock after each, until it
# is within 2 % of the card's maximum or has not risen 0.5 % for 200 ms, at
# most SETTLE_MAX_MS.
SETTLE_MAX_MS = 2000.0


def settle(fn, max_clock_mhz):
    """Run fn untimed until the SM clock settles (see above); the ms it took."""
    if not max_clock_mhz:
        return 0.0
    start = time.monotonic()

    def chunk(n):
        for _ in range(n):
            fn()
        return probe_mhz()

    mhz = chunk(1)
    one = (time.monotonic() - start) * 1e3
    n = int(10.0 / one) if 0 < one < 10.0 else 1
    best, best_at = mhz, time.monotonic()
    while mhz < 0.98 * max_clock_mhz:
        t = time.monotonic()
        if (t - best_at) * 1e3 >= 200.0 or (t - start) * 1e3 >= SETTLE_MAX_MS:
            break
        mhz = chunk(n)
        if mhz > 1.005 * best:
            best, best_at = mhz, time.monotonic()
    return (time.monotonic() - start) * 1e3


def time_ms(fn, warmup, reps):
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    events = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)) for _ in range(reps)]
    for start, end in events:
        start.record()
        fn()
        end.record()
    torch.cuda.synchronize()
    return [s.elapsed_time(e) for s, e in events]


def gemm_tflops():
    n = 8192
    a = torch.randn(n, n, device="cuda", dtype=torch.float16)
    b = torch.randn(n, n, device="cuda", dtype=torch.float16)
    ms = statistics.median(time_ms(lambda: a @ b, 3, 10))
    return 2 * n**3 / (ms * 1e-3) / 1e12


def check_rows(q, k, v, out, causal, rows=64):
    """fp64 reference for sampled rows of the first and last (batch, head)."""
    b_, h_, n, d = q.shape
    idx = torch.unique(torch.cat([torch.tensor([0, n - 1]), torch.randint(0, n, (rows,))])).to(q.device)
    err2 = ref2 = 0.0
    max_abs = 0.0
    for b, h in ((0, 0), (b_ - 1, h_ - 1)):
        qq = q[b, h, idx].double()
        kk, vv = k[b, h].double(), v[b, h].double()
        s = qq @ kk.T / math.sqrt(d)
        if causal:
            keys = torch.arange(n, device=q.device)
            s = s.masked_fill(keys[None, :] > idx[:, None], float("-inf"))
        ref = torch.softmax(s, dim=-1) @ vv
        got = out[b, h, idx].double()
        err2 += float(((got - ref) ** 2).sum())
        ref2 += float((ref**2).sum())
        max_abs = max(max_abs, float((got - ref).abs().max()))
    return max_abs, math.sqrt(err2 / ref2), 2 * len(idx)


FACTOR = {"fwd": 1.0, "bwd": 2.5, "fwd+bwd": 3.5}


def check_grads(q, k, v, dout, grads, causal):
    """rel-L2 of dQ, dK, dV of head (0, 0) against fp64 autograd (N <= 4096)."""
    n = q.shape[2]
    if n > 4096:
        return None
    qq, kk, vv = (x[0, 0].detach().double().requires_grad_() for x in (q, k, v))
    s = qq @ kk.T / math.sqrt(q.shape[3])
    if causal:
        s = s.masked_fill(torch.ones(n, n, device=q.device, dtype=torch.bool).triu(1), float("-inf"))
    o = torch.softmax(s, dim=-1) @ vv
    refs = torch.autograd.grad(o, (qq, kk, vv), dout[0, 0].double())
    rel = []
    for got, ref in zip(grads, refs):
        g = got[0, 0].double()
        rel.append(float((g - ref).norm() / ref.norm()))
    return rel


def time_pass(q, k, v, causal, backend, pass_, warmup, reps, clock=None):
    """Median-able times (ms) of one pass of SDPA under one backend, the output
    and (bwd passes) the gradients of the last call.  With a dict `clock`
    holding max_mhz, the run settles first and clock gets settle_ms."""
    dout = torch.randn_like(q)

    def timed(fn):
        if clock is not None:
            clock["settle_ms"] = settle(fn, clock.get("max_mhz"))
        return sorted(time_ms(fn, warmup, reps))

    with sdpa_kernel(backend):
        if pass_ == "fwd":
            fn = lambda: F.scaled_dot_product_attention(q, k, v, is_causal=causal)
            out = fn()
            return timed(fn), out, None, dout
        q, k, v = (x.detach().requires_grad_() for x in (q, k, v))
        if pass_ == "bwd":
            out = F.scaled_dot_product_attention(q, k, v, is_causal=causal)
            fn = lambda: torch.autograd.grad(out, (q, k, v), dout, retain_graph=True)
        else:
            fn = lambda: torch.autograd.grad(F.scaled_dot_product_attention(q, k, v, is_causal=causal), (q, k, v), dout)
        grads = fn()
        ms = timed(fn)
        grads = fn()
        out = F.scaled_dot_product_attention(q, k, v, is_causal=causal).detach()
        return ms, out, (grads, q, k, v), dout


def fa2_table(args):
    backend = getattr(SDPBackend, args.backend)
    print(f"# sdpa {args.backend}, torch {torch.__version__}, fp16, B*N = 16k, H*d = 2048, "
          f"{args.warmup} warm-up + {args.reps} timed, median; FLOPs 4*B*H*N^2*d (/2 causal) x pass factor")
    print("backend pass d causal N ms TFLOP/s rel_l2_dq rel_l2_dk rel_l2_dv")
    for d in (128, 64):
        for causal in (False, True):
            for n in (512, 1024, 2048, 4096, 8192, 16384):
                B, H = 16384 // n, 2048 // d
                q, k, v = (torch.randn(B, H, n, d, device="cuda", dtype=torch.float16) for _ in range(3))
                for pass_ in args.passes.split(","):
                    try:
                        ms, out, g, dout = time_pass(q, k, v, causal, backend, pass_, args.warmup, args.reps)
                    except RuntimeError as e:
                        print(f"{args.backend} {pass_} {d} {int(causal)} {n} error: {str(e).splitlines()[0][:120]}")
                        continue
                    med = statistics.median(ms)
                    flops = FACTOR[pass_] * 4 * B * H * n * n * d / (2 if causal else 1)
                    rel = check_grads(g[1], g[2], g[3], dout, g[0], causal) if g else None
                    rel_s = " ".join(f"{x:.2e}" for x in rel) if rel else "- - -"
                    print(f"{args.backend} {pass_} {d} {int(causal)} {n} {med:.4f} {flops / (med * 1e-3) / 1e12:.1f} {rel_s}",
                          flush=True)
                del q, k, v
                torch.cuda.empty_cache()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("results")
    ap.add_argument("--backend", default="FLASH_ATTENTION",
                    choices=["FLASH_ATTENTION", "EFFICIENT_ATTENTION", "CUDNN_ATTENTION", "MATH"])
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--reps", type=int, default=30)
    ap.add_argument("--fa2-table", action="store_true", help="time the FA2-paper shapes and print a table")
    ap.add_argument("--no-settle", dest="settle", action="store_false",
                    help="time at once, without settling the clock or probing it (attnprof record --settle 0)")
    ap.add_argument("--passes", default="fwd,bwd,fwd+bwd", help="with --fa2-table: passes to time")
    args = ap.parse_args()
    if args.fa2_table:
        fa2_table(args)
        return

    with open(args.results) as f:
        doc = yaml.safe_load(f)
    records = doc.get("records") or []
    shapes = []
    for r in records:
        if r.get("source") != "attnprof" or r.get("phase") != "prefill":
            continue
        key = (r["dtype"], r["batch"], r["heads"], r["seqlen_q"], r["head_dim"], bool(r["causal"]), r.get("pass", "fwd"))
        if key not in shapes:
            shapes.append(key)
    done = {(r["dtype"], r["batch"], r["heads"], r["seqlen_q"], r["head_dim"], bool(r["causal"]), r.get("pass", "fwd"))
            for r in records if r.get("source") == "pytorch-sdpa" and r.get("variant") == args.backend}
    gpu = doc["header"].setdefault("gpu", {})
    if not gpu.get("tensor_tflops"):
        gpu["tensor_tflops"] = round(gemm_tflops(), 1)
        print(f"sdpa_reference: fp16 GEMM 8192^3: {gpu['tensor_tflops']} TFLOP/s", file=sys.stderr)
    backend = getattr(SDPBackend, args.backend)
    torch.manual_seed(doc["header"].get("spec", {}).get("name", "x").__hash__() & 0xFFFF)
    for i, (dtype, B, H, N, d, causal, pass_) in enumerate(shapes):
        if (dtype, B, H, N, d, causal, pass_) in done:
            continue
        dt = torch.float16 if dtype == "fp16" else torch.bfloat16
        q, k, v = (torch.randn(B, H, N, d, device="cuda", dtype=dt) for _ in range(3))
        rec = {"source": "pytorch-sdpa", "variant": args.backend, "phase": "prefill", "dtype": dtype,
               "batch": B, "heads": H, "kv_heads": H, "seqlen_q": N, "seqlen_kv": N, "head_dim": d,
               "causal": causal, "error": None}
        if pass_ != "fwd":
            rec["pass"] = pass_
        try:
            torch.cuda.reset_peak_memory_stats()
            base = torch.cuda.memory_allocated()
            clock = {"max_mhz": gpu.get("sm_clock_mhz")} if args.settle else None
            ms, out, grads, dout = time_pass(q, k, v, causal, backend, pass_, args.warmup, args.reps, clock)
            flops = FACTOR[pass_] * 4 * B * H * N * N * d / (2 if causal else 1)
            med = statistics.median(ms)
            max_abs, rel, nrows = check_rows(q, k, v, out, causal)
            tol = (1e-2, 5e-3) if dtype == "fp16" else (5e-2, 2e-2)
            if grads:  # the gradients' rel-L2 (first head) joins the output's
                g = check_grads(grads[1], grads[2], grads[3], dout, grads[0], causal)
                gtol = 1e-2 if dtype == "fp16" else 4e-2
                if g is not None:
                    rel = max([rel] + g)
                    tol = (tol[0], max(tol[1], gtol))
            rec["timing"] = {"repetitions": len(ms), "warmup": args.warmup, "time_ms": med,
                             "time_ms_min": ms[0], "time_ms_max": ms[-1], "tflops": flops / (med * 1e-3) / 1e12}
            if clock and clock["settle_ms"] > 0:  # no per-launch clock: probes between launches cost 0.15 ms here
                rec["timing"]["settle_ms"] = clock["settle_ms"]
            rec["memory"] = {"peak_bytes": int(torch.cuda.max_memory_allocated() - base) + 4 * q.numel() * q.element_size(),
                             "allocs": {}}
            rec["correctness"] = {"checked": True, "correct": max_abs <= tol[0] and rel <= tol[1],
                                  "max_abs_err": max_abs, "rel_l2_err": rel, "tol_max_abs": tol[0],
                                  "tol_rel_l2": tol[1], "seed": 0, "rows_checked": nrows}
            rec["metrics"] = {"status": "not-requested", "reason": None, "set": "none", "totals": {}, "launches": []}
            print(f"[{i + 1}/{len(shapes)}] sdpa {args.backend} {pass_} {dtype} B={B} H={H} N={N} d={d}"
                  f"{' causal' if causal else ''}: {med:.3f} ms, {rec['timing']['tflops']:.1f} TFLOP/s", file=sys.stderr)
        except RuntimeError as e:  # e.g. the backend refuses the shape
            rec["error"] = f"sdpa: {e}".splitlines()[0][:300]
        records.append(rec)
        del q, k, v
    # format 2 (docs/results-format.md): `end: K` closes record K and
    # `end: {records: N}` closes the file, so a reader sees any cut
    doc["format"] = "attnprof-results/2"
    for k, r in enumerate(records):
        r.pop("end", None)
        r["end"] = k + 1
    doc["records"] = records
    doc.pop("end", None)
    note = f"pytorch-sdpa records: torch {torch.__version__}, backend {args.backend}, CUDA events, " \
           f"{'clock settled, then ' if args.settle else ''}{args.warmup} warm-up + {args.reps} timed launches, " \
           f"torch.randn inputs"
    if note not in (doc["header"].get("notes") or ""):
        doc["header"]["notes"] = ((doc["header"].get("notes") or "") + "\n" + note).strip()
    doc["end"] = {"records": len(records)}  # last key of the file
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(os.path.abspath(args.results)), prefix=".sdpa.")
    with os.fdopen(fd, "w") as f:
        yaml.safe_dump(doc, f, sort_keys=False, allow_unicode=True, width=100)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, args.results)


if __name__ == "__main__":
    main()
