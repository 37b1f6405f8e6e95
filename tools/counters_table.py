#!/usr/bin/env python3
"""The short table of tools/gpu-run.sh's workload step: per record of an
'attnprof export --csv' on stdin, where its bytes went (L1/TEX, L2 and its
hit rate, DRAM, the L2 reduction bytes: flash2 backward's dQ), the shared
memory the LSU counters do not see on Hopper (wgmma operand wavefronts, TMA
bytes into shared memory) and, with the stalls set, its three largest warp
states (share of active warp-cycles) and what all its recorded reasons add up
to.  Last, one line for the stalls set: PASS when every record's reasons add
up to 99-101 % of its active warp-cycles (every active warp is in one state a
cycle: a reason the set misses shows as a shortfall), FAIL naming the others.

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
print("%-28s %-5s %5s %9s %9s %6s %9s %9s %9s %9s %6s  %s" % (
    "variant", "pass", "N", "L1 GB", "L2 GB", "L2 hit", "DRAM GB", "red GB", "gmma Mwf", "TMA GB", "sum %",
    "largest warp states (% of active)"))
sums = []
for r in rows:
    active = num(r, "smsp__warps_active.sum")
    states = sorted(((num(r, k) / active * 100, k[len(STALL):-4]) for k in r
                     if k.startswith(STALL) and active > 0 and num(r, k) == num(r, k)), reverse=True)[:3]
    dram = num(r, "dram__bytes_read.sum") + num(r, "dram__bytes_write.sum")
    hit = num(r, "lts__t_sector_hit_rate.pct")
    name = r["variant"] if r["source"] == "attnprof" else "%s:%s" % (r["source"], r["variant"])
    total = sum(num(r, k) for k in r if k.startswith(STALL) and num(r, k) == num(r, k)) / active * 100 \
        if active > 0 else float("nan")
    if total == total:
        sums.append((name, r.get("pass") or "fwd", total))
    gmma = num(r, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_gmma.sum")
    print("%-28s %-5s %5s %9s %9s %6s %9s %9s %9s %9s %6s  %s" % (
        name[:28], r.get("pass") or "fwd", r["seqlen_kv"], gb(num(r, "l1tex__t_bytes.sum")), gb(num(r, "lts__t_bytes.sum")),
        "-" if hit != hit else "%.0f%%" % hit, gb(dram), gb(num(r, "lts__t_sectors_op_red.sum") * 32),
        "-" if gmma != gmma else "%.1f" % (gmma / 1e6),
        gb(num(r, "l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld.sum")),
        "-" if total != total else "%.2f" % total,
        ", ".join("%s %.0f" % (k, v) for v, k in states) or "-"))
if sums:
    off = ["%s %s %.2f %%" % x for x in sums if not 99 <= x[2] <= 101]
    print("stalls: %s (%d records; every one's stall reasons add up to 99-101 %% of its active warp-cycles%s)" % (
        "FAIL" if off else "PASS", len(sums), "; not: " + ", ".join(off) if off else ""))
