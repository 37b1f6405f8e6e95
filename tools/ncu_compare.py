#!/usr/bin/env python3
"""Compare attnprof's per-kernel CUPTI metrics with Nsight Compute's.

usage: ncu_compare.py RESULTS.yaml NCU.csv [--csv OUT.csv] [--pick last|first]
                      [--per-config N] [--overhead FILE] [--sweep-overhead FILE]
       ncu_compare.py --kernel-regex RESULTS.yaml
       ncu_compare.py --self-test

RESULTS.yaml is an attnprof results file recorded with a metric set; NCU.csv
is `ncu --csv --print-kernel-base mangled --metrics ...` output of
`attnprof record SPEC --metrics none --reps 1 --warmup 0` (any kernel filter).

Matching is by launch order, not by (name, grid, block): such a key repeats
across configs (the cuBLAS GEMMs of `standard` have one persistent grid at
every N), and within a config every run launches the same kernels.  The
sweep runs configs in the results file's order; for config c, whose
profiled run launched kernels K_c = (name, grid, block) x n in order, the
ncu launches of c are found scanning forward from where c-1's ended: the
first n consecutive launches (by ncu's ID, other kernels such as input
fills skipped) that equal K_c on one stream are c's check launch, and each
following run of the same n launches on that stream is one more run of c
(warm-up, timed).  The n-th kernel of attnprof's profiled run is compared
with the n-th kernel of one of those runs: the last (default; the run just
before attnprof would profile, same cache history) or the first (--pick).
--per-config N says how many runs each config has under ncu (1 check + warm-up
+ reps; 2 for --reps 1 --warmup 0); a config with another count is flagged.

Checks: HBM bytes and shared-memory wavefronts within 2 %, achieved
occupancy within 2 points.  Exit status 1 if any compared kernel fails.

--overhead FILE reads "key seconds" lines written by tools/ncu-compare.sh
and prints the profiling cost per profiled kernel for both tools and the
whole-sweep ratio for the same kernels (see docs/metrics.md).

--sweep-overhead FILE reads the times of tools/ncu-overhead.sh (none, auto,
kernel, ncu): ncu profiled one launch per kernel per config there, the
launches attnprof profiled, so the costs compare directly.

--kernel-regex prints an ncu --kernel-name regex (mangled base) matching
exactly the kernel names attnprof profiled, so ncu profiles those kernels only.
"""
import argparse
import csv
import os
import re
import statistics
import sys
import tempfile

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
    # ncu writes "(132, 16, 1)"; pad to three
    t = tuple(int(x) for x in (s or "").strip("() ").split(",") if x.strip())
    return t + (1,) * (3 - len(t)) if len(t) < 3 else t


def load_ncu(path):
    """ncu launches in launch order: list of dicts (id, key, stream, metrics)."""
    by_id = {}
    with open(path, newline="") as f:
        lines = [l for l in f if l.startswith('"')]
    for r in csv.DictReader(lines):
        if "Metric Name" not in r or not (r.get("ID") or "").strip().isdigit():
            continue
        i = int(r["ID"])
        l = by_id.get(i)
        if l is None:
            l = by_id[i] = {"id": i, "stream": r.get("Stream", ""),
                            "key": (r.get("Kernel Name", ""), dims(r.get("Grid Size")),
                                    dims(r.get("Block Size"))),
                            "metrics": {}}
        v = num(r.get("Metric Value"))
        if v is not None:
            l["metrics"][r["Metric Name"]] = v
    return [by_id[i] for i in sorted(by_id)]


def describe(rec):
    return "%s %s B%s H%s N%s d%s%s" % (rec.get("variant"), rec.get("dtype"), rec.get("batch"),
                                        rec.get("heads"), rec.get("seqlen_q"), rec.get("head_dim"),
                                        " causal" if rec.get("causal") else "")


def load_attnprof(path):
    """Configs in sweep order: list of (desc, status, [(key, metrics)])."""
    import yaml
    with open(path) as f:
        doc = yaml.safe_load(f)
    out = []
    for rec in doc.get("records") or []:
        m = rec.get("metrics") or {}
        launches = []
        for l in m.get("launches") or []:
            key = (l.get("name", ""), tuple(l.get("grid") or ()), tuple(l.get("block") or ()))
            launches.append((key, l.get("metrics") or {}))
        out.append((describe(rec), m.get("status") or "?", launches))
    return out


def match_configs(configs, ncu, per_config=None):
    """For each config: list of runs (each a list of ncu launches, n long), in order.

    Scans forward: a config's runs start at the first n-long window equal to
    its kernel sequence on one stream, then continue while the next window on
    the same stream is equal too (and, if per_config is given, up to that many).
    """
    result = []
    pos = 0
    for desc, status, launches in configs:
        seq = [k for k, _ in launches]
        n = len(seq)
        runs = []
        if n == 0:
            result.append(runs)
            continue
        # ncu launches that belong to this sequence at all (skips fills etc.)
        def window(start):
            """n launches from index start that carry seq's keys on one stream, or None.

            Other kernels in between (not of this sequence) are skipped, so a
            filtered and an unfiltered ncu run both work."""
            got, j = [], start
            while j < len(ncu) and len(got) < n:
                l = ncu[j]
                if l["key"] == seq[len(got)] and (not got or l["stream"] == got[0]["stream"]):
                    got.append(l)
                elif l["key"] in seq and got:
                    return None, j  # a kernel of ours out of order: not this window
                j += 1
            return (got, j) if len(got) == n else (None, j)

        i = pos
        while i < len(ncu):
            if ncu[i]["key"] != seq[0]:
                i += 1
                continue
            run, end = window(i)
            if run is None:
                i += 1
                continue
            runs.append(run)
            stream = run[0]["stream"]
            while per_config is None or len(runs) < per_config:
                nxt, nend = window(end)
                if nxt is None or nxt[0]["stream"] != stream:
                    break
                # the next run must follow directly (only other kernels between)
                if any(l["key"] in seq for l in ncu[end:ncu.index(nxt[0], end)]):
                    break
                runs.append(nxt)
                end = nend
            pos = end
            break
        result.append(runs)
    return result


def compare(configs, ncu, pick="last", per_config=None):
    rows, failed, compared = [], 0, 0
    matched = match_configs(configs, ncu, per_config)
    for (desc, status, launches), runs in zip(configs, matched):
        run = (runs[-1] if pick == "last" else runs[0]) if runs else None
        for idx, (key, m) in enumerate(launches):
            st = "ok"
            if status != "ok":
                st = "attnprof-" + status
            elif run is None:
                st = "no-ncu"
            elif per_config is not None and len(runs) != per_config:
                st = "ncu-runs-%d" % len(runs)
            theirs_l = run[idx] if run is not None else None
            row = {"config": desc, "launch": idx, "kernel": key[0][:60],
                   "grid": "x".join(map(str, key[1])), "block": "x".join(map(str, key[2])),
                   "ncu_id": theirs_l["id"] if theirs_l else None,
                   "ncu_runs": len(runs), "status": st}
            for metric, kind, tol in CHECKS:
                s = SHORT[metric]
                mine = m.get(metric)
                theirs = theirs_l["metrics"].get(metric) if theirs_l and st == "ok" else None
                # spread over the config's runs under ncu (check vs timed launch)
                other = [r[idx]["metrics"].get(metric) for r in runs] if st == "ok" else []
                other = [v for v in other if v is not None]
                row[s + "_attnprof"] = mine
                row[s + "_ncu"] = theirs
                row[s + "_ncu_runs_range"] = (max(other) - min(other)) if len(other) > 1 else None
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
                if s == "hbm_wr":
                    spread = row[s + "_ncu_runs_range"]
                    row["hbm_wr_abs_diff"] = mine - theirs
                    row["hbm_wr_within_ncu_spread"] = (abs(mine - theirs) <= spread) if spread is not None else None
                if bad:
                    row["status"] = "FAIL"
            if row["status"] in ("ok", "FAIL"):
                compared += 1
                failed += row["status"] == "FAIL"
            rows.append(row)
    return rows, compared, failed


def print_table(rows, compared, failed):
    print("%-32s %-2s %-28s %9s %9s %9s %9s %8s  %s" % ("config", "#", "kernel", "hbm_rd%", "hbm_wr%",
                                                       "smem_ld%", "smem_st%", "occ_pt", "status"))
    for r in rows:
        def f(s, pct):
            d = r.get(s + "_diff")
            return "-" if d is None else ("%+.2f" % (100 * d) if pct else "%+.2f" % d)
        print("%-32s %-2s %-28s %9s %9s %9s %9s %8s  %s" % (r["config"][:32], r["launch"], r["kernel"][:28],
                                                           f("hbm_rd", 1), f("hbm_wr", 1), f("smem_ld", 1),
                                                           f("smem_st", 1), f("occ", 0), r["status"]))
    print("%d kernels compared, %d outside tolerance, %d not comparable" % (compared, failed,
                                                                            len(rows) - compared))
    w = [r for r in rows if r.get("hbm_wr_within_ncu_spread") is not None]
    if w:
        print("HBM writes: |attnprof - ncu| within ncu's own spread between its runs of the config "
              "(check vs timed launch) for %d of %d kernels; largest difference %.1f MB, largest ncu spread %.1f MB"
              % (sum(1 for r in w if r["hbm_wr_within_ncu_spread"]), len(w),
                 max(abs(r["hbm_wr_abs_diff"]) for r in w) / 1e6,
                 max(r["hbm_wr_ncu_runs_range"] for r in w) / 1e6))


def read_overhead(path):
    vals, notes = {}, []
    with open(path) as f:
        for line in f:
            p = line.split()
            if len(p) == 2 and num(p[1]) is not None:
                vals[p[0]] = num(p[1])
            elif line.strip():
                notes.append(line.rstrip())
    return vals, notes


def print_times(path):
    """Print a times file (its notes, then "key seconds") and return the times."""
    vals, notes = read_overhead(path)
    for n in notes:
        print(n)
    for k in sorted(vals):
        print("%-16s %8.2f s" % (k, vals[k]))
    return vals


def overhead_report(vals, n_attnprof, n_ncu, n_calls):
    """Lines of text: cost per profiled kernel for both tools, whole-sweep ratio.

    attnprof: cost = t(record --metrics SET) - t(record --metrics none), same reps.
    ncu: cost = t(ncu ... record --metrics none --reps 1) - t(record --metrics none --reps 1),
    with ncu restricted to attnprof's kernels (check + timed launch of each config:
    n_ncu launches).  A second ncu run profiling only the first of them (ncu1)
    splits ncu's cost into a fixed part and a per-kernel part, so ncu's cost for
    exactly attnprof's n_attnprof kernels is fixed + n_attnprof * per-kernel."""
    out = []
    g = vals.get
    if g("cupti") is None or g("none") is None:
        return ["overhead: attnprof times missing"]
    a_cost = g("cupti") - g("none")
    out.append("attnprof: %.2f s for %d kernels in %d profiled calls: %.3f s per kernel, %.3f s per call"
               % (a_cost, n_attnprof, n_calls, a_cost / max(n_attnprof, 1), a_cost / max(n_calls, 1)))
    if g("cupti_kernel") is not None:
        b = g("cupti_kernel") - g("none")
        out.append("attnprof with --replay kernel: %.2f s, %.3f s per kernel (%.1fx the auto mode's cost)"
                   % (b, b / max(n_attnprof, 1), b / a_cost if a_cost > 0 else float("nan")))
    if g("ncu") is None or g("reps1") is None or not n_ncu:
        return out
    n_cost = g("ncu") - g("reps1")
    out.append("ncu: %.2f s for %d profiled launches: %.3f s per kernel"
               % (n_cost, n_ncu, n_cost / n_ncu))
    same = n_cost * n_attnprof / n_ncu
    how = "pro rata"
    if g("ncu1") is not None and n_ncu > 1:
        per = (g("ncu") - g("ncu1")) / (n_ncu - 1)
        fixed = (g("ncu1") - g("reps1")) - per
        same = fixed + per * n_attnprof
        how = "fixed %.2f s + %d x %.3f s" % (fixed, n_attnprof, per)
        out.append("ncu: fixed cost %.2f s (start, injection), %.3f s per further kernel" % (fixed, per))
    out.append("ncu for attnprof's %d kernels: %.2f s (%s)" % (n_attnprof, same, how))
    ratio = same / a_cost if a_cost > 0 else float("inf")
    out.append("whole sweep, same kernels and metrics: ncu %.2f s / attnprof %.2f s = %.1fx (target >= 5x: %s)"
               % (same, a_cost, ratio, "met" if ratio >= 5 else "NOT met"))
    if g("cupti_kernel") is not None and g("cupti_kernel") > g("none"):
        kr = same / (g("cupti_kernel") - g("none"))
        out.append("the same with --replay kernel: %.1fx (target >= 5x: %s)" % (kr, "met" if kr >= 5 else "NOT met"))
    pk = (n_cost / n_ncu) / (a_cost / max(n_attnprof, 1)) if a_cost > 0 else float("inf")
    out.append("per profiled kernel: ncu %.3f s / attnprof %.3f s = %.1fx"
               % (n_cost / n_ncu, a_cost / max(n_attnprof, 1), pk))
    return out


def sweep_overhead_report(vals, n_attnprof, n_ncu):
    """Whole-sweep overhead (tools/ncu-overhead.sh): ncu profiled the check run
    of every config (one launch per kernel, the kernels attnprof profiled), so
    the costs compare directly: cost = wall - wall of the run without counters."""
    g = vals.get
    if None in (g("none"), g("auto"), g("ncu")):
        return ["overhead: times missing (none, auto, ncu)"]
    a, n = g("auto") - g("none"), g("ncu") - g("none")
    out = ["kernels profiled: attnprof %d, ncu %d%s" % (n_attnprof, n_ncu,
           "" if n_attnprof == n_ncu else " (DIFFERENT: the ratio below compares unequal work)"),
           "attnprof (default: replay auto, batches of 8): %.2f s, %.3f s per kernel" % (a, a / max(n_attnprof, 1)),
           "ncu: %.2f s, %.3f s per kernel" % (n, n / max(n_ncu, 1))]
    ratio = n / a if a > 0 else float("inf")
    out.append("whole sweep, same kernels and metrics: ncu %.2f s / attnprof %.2f s = %.1fx (target >= 5x: %s)"
               % (n, a, ratio, "met" if ratio >= 5 else "NOT met"))
    if g("unbatched") is not None:
        bt = g("unbatched") - g("none")
        br = n / bt if bt > 0 else float("inf")
        out.append("with --profile-batch 1: attnprof %.2f s (%.3f s per kernel): %.1fx (target >= 5x: %s)"
                   % (bt, bt / max(n_attnprof, 1), br, "met" if br >= 5 else "NOT met"))
    if g("kernel") is not None:
        k = g("kernel") - g("none")
        kr = n / k if k > 0 else float("inf")
        out.append("with --replay kernel: attnprof %.2f s (%.3f s per kernel): %.1fx (target >= 5x: %s)"
                   % (k, k / max(n_attnprof, 1), kr, "met" if kr >= 5 else "NOT met"))
    return out


def kernel_regex(configs):
    names = sorted({k[0] for _, _, ls in configs for k, _ in ls})
    esc = [re.sub(r"([^A-Za-z0-9_])", r"\\\1", n) for n in names]
    return "^(" + "|".join(esc) + ")$"


# ---- self-test: the launch-order matching on a synthetic sweep -------------

def self_test():
    gemm1 = ("nvjet_tn", (2, 66, 1), (384, 1, 1))
    gemm2 = ("nvjet_nn", (2, 66, 1), (384, 1, 1))
    soft = lambda n: ("softmax_rows", (n, 256, 1), (128, 1, 1))
    fill = ("fill_inputs", (4224, 1, 1), (256, 1, 1))
    flash = lambda n: ("flash_fwd", (n, 1, 1), (128, 1, 1))
    m = lambda v: {"dram__bytes_read.sum": v, "sm__warps_active.avg.pct_of_peak_sustained_active": 10.0}
    # attnprof: three configs; the GEMM keys repeat across the two standard ones
    configs = [("standard N1k", "ok", [(gemm1, m(100e6)), (soft(256), m(500e6)), (gemm2, m(600e6))]),
               ("flash1 N1k", "ok", [(flash(256), m(3e9))]),
               ("standard N2k", "ok", [(gemm1, m(101e6)), (soft(512), m(1.7e9)), (gemm2, m(1.1e9))]),
               ("flash1 N2k", "unavailable", [])]
    # ncu, unfiltered: fills on stream 7; each config check + timed on its stream
    ncu, i = [], 0

    def add(key, stream, v):
        nonlocal i
        ncu.append({"id": i, "key": key, "stream": stream, "metrics": m(v)})
        i += 1
    for _ in range(3):
        add(fill, "7", 0)
    for v in (0.5, 1.0):  # check launch (cold), timed launch
        add(gemm1, "13", 100e6 * v); add(soft(256), "13", 500e6 * v); add(gemm2, "13", 600e6 * v)
    for _ in range(3):
        add(fill, "7", 0)
    add(flash(256), "14", 1e9); add(flash(256), "14", 3e9)
    for _ in range(3):
        add(fill, "7", 0)
    for v in (0.5, 1.0):
        add(gemm1, "16", 101e6 * v); add(soft(512), "16", 1.7e9 * v); add(gemm2, "16", 1.1e9 * v)
    for _ in range(3):
        add(fill, "7", 0)
    add(flash(128), "17", 1); add(flash(128), "17", 1)
    fails = []

    def check(cond, what):
        if not cond:
            fails.append(what)
    runs = match_configs(configs, ncu, per_config=2)
    check([len(r) for r in runs] == [2, 2, 2, 0], "runs per config %s" % [len(r) for r in runs])
    check([l["id"] for l in runs[2][1]] == [20, 21, 22], "standard N2k timed launch ids %s"
          % [l["id"] for l in runs[2][1]])
    rows, compared, failed = compare(configs, ncu, "last", 2)
    check(compared == 7 and failed == 0, "last: %d compared, %d failed" % (compared, failed))
    check(all(r["status"] == "ok" for r in rows), "statuses %s" % [r["status"] for r in rows])
    rows, compared, failed = compare(configs, ncu, "first", 2)
    check(failed == 7, "first (cold check launches, a third to half the bytes) should fail 7, got %d" % failed)
    # filtered ncu (no fills) and no per-config count give the same pairing
    filt = [l for l in ncu if l["key"] != fill]
    rows, compared, failed = compare(configs, filt, "last", None)
    check(compared == 7 and failed == 0, "filtered: %d compared, %d failed" % (compared, failed))
    # a config missing under ncu is reported, not paired with the next one's kernels
    short = [l for l in filt if l["stream"] != "13"]
    rows, compared, failed = compare(configs, short, "last", 2)
    check([r["status"] for r in rows][:3] == ["no-ncu"] * 3 and compared == 4,
          "missing config: %s" % [r["status"] for r in rows])
    # regex for ncu --kernel-name
    rx = kernel_regex(configs)
    check(re.match(rx, "nvjet_tn") and not re.match(rx, "fill_inputs") and not re.match(rx, "nvjet_tnx"),
          "regex %s" % rx)
    check(kernel_regex([("x", "ok", [(("a.b", (1,), (1,)), {})])]) == r"^(a\.b)$", "regex escape")
    # overhead arithmetic
    lines = overhead_report({"none": 1.0, "cupti": 2.0, "reps1": 1.0, "ncu": 7.0, "ncu1": 3.0},
                            n_attnprof=15, n_ncu=30, n_calls=9)
    text = "\n".join(lines)
    check("fixed 1.86 s + 15 x 0.138 s" in text, "overhead split:\n" + text)
    check("3.9x" in text and "NOT met" in text, "overhead ratio:\n" + text)
    # CSV reading: IDs in order, dims padded
    with tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False) as f:
        f.write("==PROF== noise\n")
        f.write('"ID","Kernel Name","Stream","Block Size","Grid Size","Metric Name","Metric Unit","Metric Value"\n')
        f.write('"1","k2","5","(128, 1, 1)","(2, 66, 1)","dram__bytes_read.sum","byte","1,024"\n')
        f.write('"0","k1","5","(128, 1, 1)","(8, 1, 1)","dram__bytes_read.sum","byte","2,048"\n')
        f.write('"0","k1","5","(128, 1, 1)","(8, 1, 1)","sm__warps_active.avg.pct_of_peak_sustained_active","%","12.5"\n')
        p = f.name
    try:
        got = load_ncu(p)
    finally:
        os.unlink(p)
    check([l["id"] for l in got] == [0, 1] and got[0]["metrics"]["dram__bytes_read.sum"] == 2048
          and got[1]["key"] == ("k2", (2, 66, 1), (128, 1, 1)), "csv: %s" % got)
    for f_ in fails:
        print("FAIL", f_)
    print("ncu_compare self-test: %s" % ("ok" if not fails else "%d failed" % len(fails)))
    return 1 if fails else 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("results", nargs="?")
    ap.add_argument("ncu", nargs="?")
    ap.add_argument("--csv")
    ap.add_argument("--overhead")
    ap.add_argument("--sweep-overhead")
    ap.add_argument("--pick", choices=("last", "first"), default="last")
    ap.add_argument("--per-config", type=int)
    ap.add_argument("--kernel-regex", action="store_true")
    ap.add_argument("--self-test", action="store_true")
    a = ap.parse_args()
    if a.self_test:
        return self_test()
    if not a.results:
        ap.error("RESULTS.yaml is required")
    configs = load_attnprof(a.results)
    if a.kernel_regex:
        print(kernel_regex(configs))
        return 0
    if not a.ncu:
        ap.error("NCU.csv is required")
    ncu = load_ncu(a.ncu)
    rows, compared, failed = compare(configs, ncu, a.pick, a.per_config)
    print_table(rows, compared, failed)
    if a.csv:
        with open(a.csv, "w", newline="") as f:
            fields = []
            for r in rows:
                fields += [k for k in r if k not in fields]
            w = csv.DictWriter(f, fieldnames=fields or ["config"])
            w.writeheader()
            w.writerows(rows)
    if a.overhead:
        vals = print_times(a.overhead)
        n_att = sum(len(ls) for _, _, ls in configs)
        n_calls = sum(1 for _, st, ls in configs if ls)
        for line in overhead_report(vals, n_att, len(ncu), n_calls):
            print(line)
    if a.sweep_overhead:
        vals = print_times(a.sweep_overhead)
        for line in sweep_overhead_report(vals, sum(len(ls) for _, _, ls in configs), len(ncu)):
            print(line)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
