#!/usr/bin/env python3
"""timing_compare.py BASE.yaml OTHER.yaml [OTHER.yaml ...] [--limit PCT]

Compares the median times of attnprof results files config by config: for
each OTHER file, the ratio OTHER / BASE of every config both hold (same
variant and shape), the spread of those ratios, and every config further than
--limit per cent (default 5) from BASE.  Used to check that profiling a sweep
does not change its timings (tools/gpu-run.sh, step decodetiming): BASE is
recorded with --metrics none.  Exit status 1 when a config is beyond the limit.
"""
import argparse
import sys

import yaml

SHAPE = ("variant", "dtype", "batch", "heads", "kv_heads", "seqlen_q", "seqlen_kv", "head_dim", "causal")


def load(path):
    """{shape key: (description, median ms)} of the correct records of a file."""
    with open(path) as f:
        doc = yaml.safe_load(f) or {}
    out = {}
    for rec in doc.get("records") or []:
        t = (rec.get("timing") or {}).get("time_ms")
        if rec.get("error") or not t:
            continue
        key = tuple(rec.get(k) for k in SHAPE)
        desc = "%s B%s H%s/%s N%s/%s d%s%s" % (rec.get("variant"), rec.get("batch"), rec.get("heads"),
                                               rec.get("kv_heads"), rec.get("seqlen_q"), rec.get("seqlen_kv"),
                                               rec.get("head_dim"), " causal" if rec.get("causal") else "")
        out[key] = (desc, float(t))
    return out


def compare(base, other, limit):
    """(lines, number of configs beyond limit)."""
    common = [k for k in base if k in other]
    if not common:
        return ["no config in common"], 1
    ratios = sorted((other[k][1] / base[k][1], k) for k in common)
    lines = ["%d configs: ratio min %.3f, median %.3f, max %.3f"
             % (len(common), ratios[0][0], ratios[len(ratios) // 2][0], ratios[-1][0])]
    beyond = [(r, k) for r, k in ratios if abs(r - 1) * 100 > limit]
    for r, k in beyond:
        lines.append("  %+.1f %%  %s (%.4f ms -> %.4f ms)" % ((r - 1) * 100, base[k][0], base[k][1], other[k][1]))
    lines.append("%d beyond +-%g %%" % (len(beyond), limit))
    return lines, len(beyond)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[1], usage=__doc__.split("\n")[0])
    ap.add_argument("base")
    ap.add_argument("others", nargs="+")
    ap.add_argument("--limit", type=float, default=5.0, help="per cent (default 5)")
    a = ap.parse_args()
    base = load(a.base)
    bad = 0
    for path in a.others:
        lines, n = compare(base, load(path), a.limit)
        print("%s against %s:" % (path, a.base))
        print("\n".join("  " + l for l in lines))
        bad += n
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
