#!/usr/bin/env python3
"""The short table of tools/gpu-run.sh's workload step: per record of an
'attnprof export --csv' on stdin, where its bytes went (L1/TEX, L2 and its
hit rate, DRAM, the L2 reduction bytes: flash2 backward's dQ) and, with the
stalls set, its three largest warp states (share of active warp-cycles).

    ./attnprof export out/workload.yaml --csv | python3 tools/counters_table.py
"""
import csv
import sys

STALL = "smsp__warps_issue_stalled_"


def num(r, k):
    try:
        return float(r.get(k) or "nan")
    except ValueError:
        return float("nan")


def gb(v):
    return "-" if v != v else "%.2f" % (v / 1e9)


rows = list(csv.DictReader(sys.stdin))
print("%-28s %-5s %5s %9s %9s %6s %9s %9s  %s" % ("variant", "pass", "N", "L1 GB", "L2 GB", "L2 hit", "DRAM GB",
                                                   "red GB", "largest warp states (% of active)"))
for r in rows:
    active = num(r, "smsp__warps_active.sum")
    states = sorted(((num(r, k) / active * 100, k[len(STALL):-4]) for k in r
                     if k.startswith(STALL) and active > 0 and num(r, k) == num(r, k)), reverse=True)[:3]
    dram = num(r, "dram__bytes_read.sum") + num(r, "dram__bytes_write.sum")
    hit = num(r, "lts__t_sector_hit_rate.pct")
    name = r["variant"] if r["source"] == "attnprof" else "%s:%s" % (r["source"], r["variant"])
    print("%-28s %-5s %5s %9s %9s %6s %9s %9s  %s" % (
        name[:28], r.get("pass") or "fwd", r["seqlen_kv"], gb(num(r, "l1tex__t_bytes.sum")), gb(num(r, "lts__t_bytes.sum")),
        "-" if hit != hit else "%.0f%%" % hit, gb(dram), gb(num(r, "lts__t_sectors_op_red.sum") * 32),
        ", ".join("%s %.0f" % (k, v) for v, k in states) or "-"))
