#!/usr/bin/env python3
"""Per-kernel counters of `attnprof record -- CMD` against Nsight Compute on the same program.

usage: capture_compare.py CAPTURE.yaml NCU.csv[.gz]
       capture_compare.py CAPTURE.yaml REFERENCE.yaml   (another capture of the same program)

CAPTURE.yaml: the results file of `attnprof record -o ... -- PROGRAM`; NCU.csv:
`ncu --csv --nvtx --nvtx-include 'regex:attnprof:.*/' --metrics ... PROGRAM` with the
Python helper emitting the same ranges.  Kernels are matched in launch order (both
tools see the program's attention kernels in the order it launched them); a name that
differs stops the comparison there.  Prints, per metric, how many kernels agree within
2 % (occupancy and tensor-pipe activity: within 2 points), the median and largest
difference, and the absolute difference where ncu's figure is small (< 1 MB / 1e6).
"""
import csv
import gzip
import re
import subprocess
import statistics
import sys

import yaml

METRICS = [("dram__bytes_read.sum", "rel"), ("dram__bytes_write.sum", "rel"),
           ("lts__t_sectors_op_write.sum", "rel"),
           ("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "rel"),
           ("sm__warps_active.avg.pct_of_peak_sustained_active", "abs"),
           ("sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active", "abs"),
           ("gpu__time_duration.sum", "rel")]
FLOOR = 1e6


def num(s):
    try:
        return float((s or "").replace(",", ""))
    except ValueError:
        return None


def base(name):
    """The kernel's own identifier ("flash_fwd_kernel", "elementwise_kernel"): ncu and
    c++filt spell namespaces and templates differently, and names may come mangled."""
    if name.startswith("_Z"):
        try:
            name = subprocess.run(["c++filt"], input=name, capture_output=True, text=True).stdout.strip() or name
        except OSError:
            pass
    head = re.split(r"[<(]", name.replace("void ", "", 1), 1)[0]
    return head.split("::")[-1].strip()


def load_ncu(path):
    op = gzip.open if path.endswith(".gz") else open
    with op(path, "rt") as f:
        lines = [l for l in f if l.startswith('"')]
    kernels = {}
    for row in csv.DictReader(lines):
        k = kernels.setdefault(int(row["ID"]), {"name": row["Kernel Name"], "m": {}})
        v = num(row["Metric Value"])
        unit = row.get("Metric Unit", "")
        scale = {"Kbyte": 1e3, "Mbyte": 1e6, "Gbyte": 1e9, "KB": 1e3, "MB": 1e6, "GB": 1e9,
                 "usecond": 1e3, "msecond": 1e6, "us": 1e3, "ms": 1e6}.get(unit, 1.0)
        if v is not None:
            k["m"][row["Metric Name"]] = v * scale
    return [kernels[i] for i in sorted(kernels)]


def load_capture(path):
    """Kernels of a capture in launch order, each with whether its call allocated device
    memory while profiled (capture.alloc_bytes > 0)."""
    out = []
    for r in yaml.safe_load(open(path))["records"]:
        grew = ((r.get("capture") or {}).get("alloc_bytes") or 0) > 0
        for l in (r.get("metrics", {}).get("launches") or []):
            out.append({"name": l["name"], "m": l.get("metrics") or {}, "grew": grew})
    return out


def main():
    cap, ref = sys.argv[1], sys.argv[2]
    ours = load_capture(cap)
    for k in ours:
        k["metrics"] = k["m"]
    theirs = load_capture(ref) if ref.endswith(".yaml") else load_ncu(ref)
    n = min(len(ours), len(theirs))
    matched = 0
    for i in range(n):
        a, b = ours[i]["name"], theirs[i]["name"]
        if base(a) != base(b):
            print("kernel %d differs: attnprof '%s' / ncu '%s': compared the first %d" % (i, a[:60], b[:60], i))
            break
        matched += 1
    print("kernels: attnprof %d, ncu %d, compared %d" % (len(ours), len(theirs), matched))
    for m, kind in METRICS:
        diffs, small = [], []
        for i in range(matched):
            x, y = ours[i]["metrics"].get(m), theirs[i]["m"].get(m)
            if x is None or y is None:
                continue
            if kind == "abs":
                diffs.append(x - y)
            elif abs(y) >= FLOOR or m == "gpu__time_duration.sum":
                diffs.append((x - y) / y if y else 0.0)
            else:
                small.append(x - y)
        if not diffs:
            print("%-70s no values" % m)
            continue
        tol = 2.0 if kind == "abs" else 0.02
        within = sum(1 for d in diffs if abs(d) <= tol)
        unit = " pt" if kind == "abs" else ""
        f = (lambda d: "%+.2f%s" % (d, unit)) if kind == "abs" else (lambda d: "%+.1f %%" % (100 * d))
        print("%-70s %3d/%3d within %s; median %s, largest %s%s" % (
            m, within, len(diffs), "2 pt" if kind == "abs" else "2 %", f(statistics.median(diffs)),
            f(max(diffs, key=abs)),
            "; %d small (< 1e6) differ by at most %.3g" % (len(small), max(abs(s) for s in small)) if small else ""))
    # the writes again, split by whether the call allocated device memory while profiled
    for m in ("lts__t_sectors_op_write.sum", "dram__bytes_write.sum"):
        for grew in (True, False):
            d = [(ours[i]["metrics"][m] - theirs[i]["m"][m]) / theirs[i]["m"][m] for i in range(matched)
                 if ours[i]["grew"] == grew and m in ours[i]["metrics"] and theirs[i]["m"].get(m, 0) >= FLOOR]
            if d:
                print("  %-42s calls that %s: %3d/%3d within 2 %%, median %+.1f %%" % (
                    m, "allocated" if grew else "did not allocate", sum(abs(v) <= 0.02 for v in d), len(d),
                    100 * statistics.median(d)))


if __name__ == "__main__":
    main()
