#!/usr/bin/env python3
"""decode_paged_table.py RESULTS — bandwidth of attnprof's decode records
against the HBM data sheet, beside PyTorch SDPA at query length 1.

For every attnprof decode record of RESULTS (experiments/decode-paged.yaml,
tools/gpu-run.sh step decodepaged): the bytes a decode step must read,
K + V of every request (the lengths add up to B·Nkv, kernels/paged.h) plus,
when paged, the block table's used entries and the lengths (int32; for a
ragged batch the table is counted as ⌈Nkv/page⌉ entries a request, at most
B entries short), over the record's median time, and that rate as a share of
the data-sheet HBM bandwidth (header.gpu.peak_hbm_gbs, else the data sheet
by name: H100 SXM 3352 GB/s, H200 4800 GB/s) and of the measured read-only
stream (header.gpu.ceilings.hbm_read_gbs) where the header has one.  Then, for each contiguous,
uniform shape at query length 1, SDPA restricted to FLASH_ATTENTION and to
CUDNN_ATTENTION on the same shape (enable_gqa for Hkv < H; a backend that
refuses the shape prints why), timed with CUDA events after a warm-up and
attnprof's settling rule (tools/sdpa_reference.py), and the ratio
SDPA time ÷ attnprof time (≥ 1: attnprof as fast or faster).

Prints a table; writes nothing.  Runs where PyTorch with CUDA is installed.
"""
import argparse
import math
import os
import statistics
import sys

import yaml

DATASHEET_GBS = (("H200", 4800.0), ("H100", 3352.0))


def datasheet(gpu):
    if gpu.get("peak_hbm_gbs"):
        return float(gpu["peak_hbm_gbs"]), "header.gpu.peak_hbm_gbs"
    name = gpu.get("name") or ""
    for key, gbs in DATASHEET_GBS:
        if key in name:
            return gbs, f"{key} data sheet"
    return 0.0, "unknown"


def step_bytes(r):
    B, hkv, n, d = r["batch"], r.get("kv_heads") or r["heads"], r["seqlen_kv"], r["head_dim"]
    kv = 2.0 * B * hkv * n * d * 2
    ps = r.get("page_size") or 0
    table = 4.0 * (B * math.ceil(n / ps) + B) if ps else 0.0
    return kv + table


def sdpa_ms(r, backend, warmup, reps, max_mhz):
    import torch
    import torch.nn.functional as F
    from torch.nn.attention import SDPBackend, sdpa_kernel
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from sdpa_reference import settle, time_ms
    dt = torch.float16 if r["dtype"] == "fp16" else torch.bfloat16
    B, H, hkv, n, d = r["batch"], r["heads"], r.get("kv_heads") or r["heads"], r["seqlen_kv"], r["head_dim"]
    q = torch.randn(B, H, 1, d, device="cuda", dtype=dt)
    k = torch.randn(B, hkv, n, d, device="cuda", dtype=dt)
    v = torch.randn(B, hkv, n, d, device="cuda", dtype=dt)
    gqa = {"enable_gqa": True} if hkv != H else {}
    be = getattr(SDPBackend, backend)

    def fn():
        with sdpa_kernel(be):
            F.scaled_dot_product_attention(q, k, v, **gqa)
    try:
        fn()
        torch.cuda.synchronize()
    except Exception as e:  # the backend refuses the shape
        return None, str(e).splitlines()[0][:80]
    settle(fn, max_mhz)
    return statistics.median(time_ms(fn, warmup, reps)), ""


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("results")
    ap.add_argument("--no-sdpa", action="store_true", help="the bandwidth table only")
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--reps", type=int, default=30)
    args = ap.parse_args()
    with open(args.results) as f:
        doc = yaml.safe_load(f)
    gpu = (doc.get("header") or {}).get("gpu") or {}
    peak, where = datasheet(gpu)
    # the read-only stream (header.gpu.ceilings.hbm_read_gbs, record --ceilings on): decode's measured roof
    read = float((gpu.get("ceilings") or {}).get("hbm_read_gbs") or 0.0)
    print(f"# {gpu.get('name', '?')}: data-sheet HBM {peak:.0f} GB/s ({where}); "
          f"read-only stream {f'{read:.0f} GB/s' if read else 'not measured'}; bytes = K + V (+ block table)")
    print(f"{'variant':15} {'B':>3} {'H':>3} {'Hkv':>3} {'q':>2} {'Nkv':>7} {'page':>4} {'dist':9} {'cache':>9} "
          f"{'us':>9} {'GB/s':>7} {'%sheet':>6} {'%read':>6} {'ok':>3}")
    sdpa_shapes = []
    for r in doc.get("records") or []:
        if r.get("source") != "attnprof" or r.get("phase") != "decode":
            continue
        t = (r.get("timing") or {}).get("time_ms")
        ok = (r.get("correctness") or {}).get("correct")
        by = step_bytes(r)
        gbs = by / (t * 1e-3) / 1e9 if t else 0.0
        print(f"{r['variant']:15} {r['batch']:>3} {r['heads']:>3} {r.get('kv_heads') or r['heads']:>3} {r['seqlen_q']:>2} "
              f"{r['seqlen_kv']:>7} {r.get('page_size') or '-':>4} {r.get('kv_dist') or 'equal':9} {by / 2**20:7.1f}Mi "
              f"{t * 1e3 if t else float('nan'):9.2f} {gbs:7.0f} {100 * gbs / peak if peak else float('nan'):6.1f} "
              f"{100 * gbs / read if read else float('nan'):6.1f} {'yes' if ok else 'NO':>3}")
        if r["variant"] == "decode-splitkv" and r["seqlen_q"] == 1 and not r.get("kv_dist") and t:
            sdpa_shapes.append((r, t))
    if args.no_sdpa or not sdpa_shapes:
        return 0
    print(f"\n# SDPA at query length 1 on contiguous caches: time ÷ decode-splitkv's (≥ 1: attnprof as fast or faster)")
    for r, t in sdpa_shapes:
        for backend in ("FLASH_ATTENTION", "CUDNN_ATTENTION"):
            ms, why = sdpa_ms(r, backend, args.warmup, args.reps, gpu.get("sm_clock_mhz"))
            shape = f"B={r['batch']} H={r['heads']} Hkv={r.get('kv_heads') or r['heads']} Nkv={r['seqlen_kv']} d={r['head_dim']}"
            if ms is None:
                print(f"{backend:16} {shape:40} refused: {why}")
            else:
                gbs = step_bytes(r) / (ms * 1e-3) / 1e9
                print(f"{backend:16} {shape:40} {ms * 1e3:9.2f} us {gbs:7.0f} GB/s "
                      f"{100 * gbs / peak if peak else float('nan'):5.1f} %  ratio {ms / t:5.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
