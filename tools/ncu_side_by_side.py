#!/usr/bin/env python3
"""Two kernels' Nsight Compute metrics side by side.

usage: ncu_side_by_side.py A.csv B.csv

A.csv, B.csv: `ncu --csv --metrics ... -c 1` output, one kernel each (the
first kernel of each file is taken).  Prints every metric both files hold:
A's value, B's, and A / B; then the warp stall reasons (the
smsp__average_warps_issue_stalled_*_per_issue_active ratios: cycles a warp
spends in that state per issued instruction), largest first, with the
difference in cycles per instruction.  tools/gpu-run.sh ncubwdvs uses it to
set attnprof's flash_bwd beside SDPA's FlashAttention-2 backward kernel.
"""
import csv
import sys

STALL = "smsp__average_warps_issue_stalled_"


def load(path):
    """{metric: (unit, value)} and the kernel's name, from the first kernel in an ncu CSV."""
    with open(path, newline="") as f:
        lines = [l for l in f if l.startswith('"')]  # ncu's own log lines are not quoted
    rows = list(csv.DictReader(lines))
    if not rows:
        sys.exit("ncu_side_by_side: %s: no metric rows (did ncu profile a kernel?)" % path)
    first = rows[0]["ID"]
    out = {}
    for r in rows:
        if r["ID"] != first:
            break
        v = r["Metric Value"].replace(",", "")
        try:
            out[r["Metric Name"]] = (r["Metric Unit"], float(v))
        except ValueError:
            out[r["Metric Name"]] = (r["Metric Unit"], v)
    return rows[0]["Kernel Name"], out


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip().split("\n")[2])
    (na, a), (nb, b) = load(sys.argv[1]), load(sys.argv[2])
    print("A: %s\nB: %s" % (na[:110], nb[:110]))
    print("%-70s %16s %16s %8s" % ("metric", "A", "B", "A/B"))
    for m in sorted(set(a) & set(b)):
        if m.startswith(STALL):
            continue
        (u, x), (_, y) = a[m], b[m]
        if isinstance(x, float) and isinstance(y, float):
            r = "%8.3f" % (x / y) if y else "       -"
            print("%-70s %16.6g %16.6g %s  %s" % (m, x, y, r, u))
        else:
            print("%-70s %16s %16s" % (m, x, y))
    stalls = [(m[len(STALL):].replace("_per_issue_active.ratio", ""), a[m][1], b[m][1])
              for m in set(a) & set(b) if m.startswith(STALL)
              and isinstance(a[m][1], float) and isinstance(b[m][1], float)]
    stalls.sort(key=lambda s: -max(s[1], s[2]))
    print("\nstall reason (cycles per issued instruction)        A        B    A - B")
    for name, x, y in stalls:
        if max(x, y) >= 0.01:
            print("  %-46s %8.3f %8.3f %+8.3f" % (name, x, y, x - y))


if __name__ == "__main__":
    main()
