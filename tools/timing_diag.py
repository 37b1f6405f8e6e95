#!/usr/bin/env python3
"""tools/timing_diag.py DIR RUN... — the timing of the same configs in several
`attnprof record` runs side by side (median, min, max in ms), with the
bench of test_bwd_gpu (DIR/bench.log) beside them, and the SM clocks that
nvidia-smi sampled (DIR/smi.csv).  Used by tools/gpu-run.sh timingdiag."""
import collections
import os
import re
import sys

import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from clock_during import read_smi  # noqa: E402


def main():
    d, runs = sys.argv[1], sys.argv[2:]
    t = {}
    for n in runs:
        for r in yaml.safe_load(open(f"{d}/{n}.yaml"))["records"]:
            k = (r["variant"], r["pass"], r["causal"], r["seqlen_q"], r["head_dim"])
            tm = r["timing"]
            t.setdefault(k, {})[n] = (tm["time_ms"], tm["time_ms_min"], tm["time_ms_max"])
    try:
        for line in open(f"{d}/bench.log"):
            m = re.search(r"bench (\S+) +(\S+) +\S+ d=(\d+) causal=(\d) N=(\d+) .* ([\d.]+) ms", line)
            if m:
                k = (m.group(1), m.group(2), m.group(4) == "1", int(m.group(5)), int(m.group(3)))
                if k in t:
                    t[k]["bench"] = (float(m.group(6)),)
    except OSError:
        pass
    cols = runs + ["bench"]
    print("%-34s" % "variant pass causal N d" + "".join("%24s" % c for c in cols))
    for k in sorted(t):
        print("%-34s" % " ".join(map(str, k)) + "".join("%24s" % " ".join("%.3f" % x for x in t[k].get(c, ())) for c in cols))
    try:
        samples = read_smi(f"{d}/smi.csv")
    except OSError:
        samples = []
    if samples:
        clk = collections.Counter("%d MHz" % s[1] for s in samples)
        why = collections.Counter("0x%x" % s[2] for s in samples)
        print("SM clock samples:", ", ".join("%s %d" % kv for kv in clk.most_common(5)))
        print("clock event reasons:", ", ".join("%s %d" % kv for kv in why.most_common(5)))

if __name__ == "__main__":
    main()
