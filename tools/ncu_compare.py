#!/usr/bin/env python3
"""Compare attnprof's per-kernel CUPTI metrics with Nsight Compute's.

usage: ncu_compare.py RESULTS.yaml NCU.csv [--csv OUT.csv] [--overhead FILE]

RESULTS.yaml is an attnprof results file recorded with a metric set; NCU.csv
is `ncu --csv --print-kernel-base mangled --metrics ...` output for the same
spec.  Kernels are matched by (name, grid, block); ncu's value for a key is
the median over its launches (ncu sees the warm-up and timed runs too).
Checks: HBM bytes and shared-memory wavefronts within 2 %, achieved
occupancy within 2 points.  Exit status 1 if any compared kernel fails.
"""
import argparse
import csv
import statistics
import sys

import yaml

CHECKS = [  # metric, kind, tolerance
    ("dram__bytes_read.sum", "rel", 0.02),
    ("dram__bytes_write.sum", "rel", 0.02),
    ("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "rel", 0.02),
    ("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", "rel", 0.02),
    ("sm__warps_active.avg.pct_of_peak_sustained_active", "abs", 2.0),
]
SHORT = {"dram__bytes_read.sum": "hbm_rd", "dram__bytes_write.sum": "hbm_wr",
         "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum": "smem_ld",
         "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum": "smem_st",
         "sm__warps_active.avg.pct_of_peak_sustained_active": "occ"}
# below this many bytes/wavefronts a relative check says nothing
FLOOR = 1e6


def num(s):
    s = (s or "").replace(",", "").strip()
    try:
        return float(s)
    except ValueError:
        return None


def dims(s):
    # ncu writes "(132, 16, 1)"
    return tuple(int(x) for x in s.strip("() ").split(",") if x.strip())


def load_ncu(path):
    rows = {}
    with open(path, newline="") as f:
        lines = [l for l in f if l.startswith('"')]
    for r in csv.DictReader(lines):
        if "Metric Name" not in r:
            continue
        key = (r.get("Kernel Name", ""), dims(r.get("Grid Size", "")), dims(r.get("Block Size", "")))
        inst = r.get("ID", "")
        v = num(r.get("Metric Value"))
        if v is None:
            continue
        rows.setdefault(key, {}).setdefault(inst, {})[r["Metric Name"]] = v
    return rows


def load_attnprof(path):
    with open(path) as f:
        doc = yaml.safe_load(f)
    out = []
    for rec in doc.get("records") or []:
        m = rec.get("metrics") or {}
        desc = "%s %s B%s H%s N%s d%s%s" % (rec.get("variant"), rec.get("dtype"), rec.get("batch"),
                                            rec.get("heads"), rec.get("seqlen_q"), rec.get("head_dim"),
                                            " causal" if rec.get("causal") else "")
        for l in m.get("launches") or []:
            key = (l.get("name", ""), tuple(l.get("grid") or ()), tuple(l.get("block") or ()))
            out.append((desc, key, l.get("metrics") or {}))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("results")
    ap.add_argument("ncu")
    ap.add_argument("--csv")
    ap.add_argument("--overhead")
    a = ap.parse_args()
    ncu = load_ncu(a.ncu)
    ours = load_attnprof(a.results)
    owners = {}
    for desc, key, _ in ours:
        owners.setdefault(key, set()).add(desc)

    rows, failed, compared = [], 0, 0
    for desc, key, m in ours:
        inst = ncu.get(key)
        status = "ok"
        if len(owners[key]) > 1:
            status = "ambiguous"
        elif not inst:
            status = "no-ncu"
        row = {"config": desc, "kernel": key[0][:60], "grid": "x".join(map(str, key[1])),
               "block": "x".join(map(str, key[2])), "status": status}
        for metric, kind, tol in CHECKS:
            s = SHORT[metric]
            mine = m.get(metric)
            theirs = None
            if inst and status == "ok":
                vals = [v[metric] for v in inst.values() if metric in v]
                theirs = statistics.median(vals) if vals else None
            row[s + "_attnprof"] = mine
            row[s + "_ncu"] = theirs
            if mine is None or theirs is None:
                row[s + "_diff"] = None
                continue
            if kind == "rel":
                d = (mine - theirs) / theirs if theirs else (0.0 if mine == 0 else float("inf"))
                bad = abs(d) > tol and max(abs(mine), abs(theirs)) >= FLOOR
            else:
                d = mine - theirs
                bad = abs(d) > tol
            row[s + "_diff"] = d
            if bad:
                row["status"] = "FAIL"
        if row["status"] in ("ok", "FAIL"):
            compared += 1
            failed += row["status"] == "FAIL"
        rows.append(row)

    hdr = "%-34s %-28s %9s %9s %9s %9s %8s  %s" % ("config", "kernel", "hbm_rd%", "hbm_wr%", "smem_ld%",
                                                   "smem_st%", "occ_pt", "status")
    print(hdr)
    for r in rows:
        def f(s, pct):
            d = r.get(s + "_diff")
            return "-" if d is None else ("%+.2f" % (100 * d) if pct else "%+.2f" % d)
        print("%-34s %-28s %9s %9s %9s %9s %8s  %s" % (r["config"][:34], r["kernel"][:28], f("hbm_rd", 1),
                                                      f("hbm_wr", 1), f("smem_ld", 1), f("smem_st", 1),
                                                      f("occ", 0), r["status"]))
    print("%d kernels compared, %d outside tolerance, %d not comparable" % (compared, failed, len(rows) - compared))
    if a.csv:
        with open(a.csv, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0].keys()) if rows else ["config"])
            w.writeheader()
            w.writerows(rows)
    if a.overhead:
        with open(a.overhead) as f:
            print(f.read().rstrip())
        nk = sum(len(v) for v in ncu.values())
        print("ncu profiled %d kernel launches; attnprof profiled %d" % (nk, len(ours)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
