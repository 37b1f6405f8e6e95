#!/usr/bin/env python3
"""Joins the CSV rows of hopper_test bench and hopper_sdpa.py (csv,... lines in
the given logs) into a ratio table: each hopper rung's TFLOP/s against SDPA
CUDNN_ATTENTION and FLASH_ATTENTION at the same shape.  Writes CSV to stdout
(or --csv FILE) and a Markdown table to --md FILE."""
import sys, argparse, collections
ap = argparse.ArgumentParser()
ap.add_argument("logs", nargs="+")
ap.add_argument("--csv")
ap.add_argument("--md")
a = ap.parse_args()
rows = []
for f in a.logs:
    for line in open(f):
        if line.startswith("csv,") and not line.startswith("csv,impl"):
            p = line.strip().split(",")[1:]
            rows.append(dict(impl=p[0], rung=p[1], dtype=p[2], d=int(p[3]), causal=int(p[4]), B=int(p[5]), H=int(p[6]),
                             N=int(p[7]), med=float(p[8]), mn=float(p[9]), mx=float(p[10]), tf=float(p[11])))
ref = {}
for r in rows:
    if r["impl"] == "sdpa":
        ref[(r["rung"], r["dtype"], r["d"], r["causal"], r["N"])] = r["tf"]
out = ["impl,rung,dtype,d,causal,B,H,N,median_ms,min_ms,max_ms,tflops,vs_cudnn,vs_sdpa_flash"]
md = ["| rung | dtype | d | causal | N | ms | TFLOP/s | × cuDNN | × SDPA FLASH |", "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
for r in rows:
    key = (r["dtype"], r["d"], r["causal"], r["N"])
    c = ref.get(("cudnn",) + key); f = ref.get(("flash",) + key)
    vc = f"{r['tf']/c:.3f}" if c and r["impl"].startswith("hopper") else ""
    vf = f"{r['tf']/f:.3f}" if f and r["impl"].startswith("hopper") else ""
    out.append(f"{r['impl']},{r['rung']},{r['dtype']},{r['d']},{r['causal']},{r['B']},{r['H']},{r['N']},{r['med']},{r['mn']},{r['mx']},{r['tf']},{vc},{vf}")
    name = (r["rung"] if r["impl"] == "hopper" else r["impl"] + " " + r["rung"]) if r["impl"].startswith("hopper") else ("SDPA " + r["rung"].upper() if r["impl"] == "sdpa" else "cuBLAS GEMM 8192³")
    md.append(f"| {name} | {r['dtype']} | {r['d']} | {'yes' if r['causal'] else 'no'} | {r['N']} | {r['med']:.3f} | {r['tf']:.0f} | {vc} | {vf} |")
if a.csv:
    open(a.csv, "w").write("\n".join(out) + "\n")
else:
    print("\n".join(out))
if a.md:
    open(a.md, "w").write("\n".join(md) + "\n")
