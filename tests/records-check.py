#!/usr/bin/env python3
"""records-check.py — every value a document drew is the record it claims.

    records-check.py ATTNPROF TRACE [--primary FILE] RESULTS...

TRACE is what `attnprof report ... --trace-records TRACE` wrote: one line per
lookup, the conditions the document stated (its row, series and caption)
and the record drawn.  This script reads the results files itself (through
`attnprof export --json`, and each header's date), not through the
renderer's selection code, and checks each line:

  * found: the stated conditions, applied to every record of every file,
    name exactly one problem identity (source, variant, phase, pass, dtype,
    B, H, Hkv, Nq, Nkv, d, causal), that identity is the one drawn, and the
    drawn record comes from the newest file holding it (or --primary's);
  * max / min (an extreme over the sweep): the drawn record satisfies the
    conditions and comes from the newest file holding its identity;
  * ambiguous: always a failure (the document read 'not measured' where its
    conditions named several records);
  * missing: no record of any file satisfies the conditions;
  * claim (a number in running text, src/doc/claim.h): the records it
    names are in the files it names, from one file unless the template
    named it a cross-run comparison (and then its text says "across runs"),
    and its value is what they give under its rule where this script can
    recompute it (time_ms, tflops, peak_bytes, the shape, speedup_vs,
    tflops_vs, the ablation table's median, TFLOP/s and step cells);
  * a ratio claim against the figures of its document that draw both its
    records' identities as TFLOP/s: the figure's ratio is the sentence's;
  * figure (a value a figure draws, src/doc/figdesc.h): its record is in
    the file it names and is the newest record of its identity (or
    --primary's) — or, for a figure that draws one run (from=one-run:
    the ablation ladder), every point of it comes from one file —, and
    its value is what the record gives where this script can recompute
    it (tflops with its launches' spread, time_us, peak_bytes, the decode
    bandwidth, a diff's time ratio); a point of a captured call is counted, not recomputed,
    but a diagram part of one (item/...: capture-dataflow) names a call of
    the file it names and its bytes are that call's (DRAM read and write,
    L2 writes, the inputs' and outputs' sizes from the shape).

Calls captured in another program (series "capture:...") are several
records of one identity, told apart by their call number: a value of one
is the identity's last call (as capreview groups them), so a found line of
a captured series passes when its conditions name one identity and the
drawn call is that identity's last (the export's capture.call); the
captured lookups that are not found lines are counted, not checked here
(capreview's own tests check them).

Exit 0 when every line holds; 1 with one line per failure (at most 20).
"""
import json
import re
import subprocess
import sys


def load(attnprof, path):
    with open(path, encoding="utf-8") as f:
        head = f.read(4096)
    m = re.search(r"^\s+date:\s*(\S+)", head, re.M)
    date = m.group(1).replace("T", " ")[:19] if m else "~"
    out = subprocess.run([attnprof, "export", path, "--json"], check=True, capture_output=True, text=True).stdout
    return date, json.loads(out)


def identity(r):
    """record_key() of src/results.c, from an export row."""
    k = "%s/%s/%s/%s/B%d/H%d/Hkv%d/Nq%d/Nkv%d/d%d/c%d" % (
        r["source"], r["variant"], r["phase"], r["dtype"], r["batch"], r["heads"], r["kv_heads"],
        r["seqlen_q"], r["seqlen_kv"], r["head_dim"], 1 if r["causal"] else 0)
    if (r.get("pass") or "fwd") != "fwd":
        k += "/" + r["pass"]
    if r.get("kv_layout") or r.get("kv_dist"):  # a paged or ragged KV cache is its own config
        k += "/%s%d/%s%d" % (r.get("kv_layout") or "contiguous", r.get("page_size") or 0,
                             r.get("kv_dist") or "equal", r.get("kv_seed") or 0)
    return k


def series(r):
    return r["variant"] if r["source"] == "attnprof" else "%s:%s" % (r["source"], r["variant"])


def matches(cond, r):
    hkv = r["kv_heads"] if r["kv_heads"] > 0 else r["heads"]
    want = [("N", r["seqlen_kv"]), ("Nq", r["seqlen_q"]), ("d", r["head_dim"]),
            ("causal", 1 if r["causal"] else 0), ("B", r["batch"]), ("H", r["heads"]), ("Hkv", hkv),
            ("BN", r["batch"] * r["seqlen_kv"]), ("Hd", r["heads"] * r["head_dim"])]
    for name, have in want:
        v = int(cond[name])
        if v >= 0 and v != have:
            return False
    for name, have in (("dtype", r["dtype"]), ("phase", r["phase"])):
        if cond[name] != "-" and cond[name] != have:
            return False
    return cond["pass"] == (r.get("pass") or "fwd")


# quantities a claim's value is recomputed from (the export's fields)
FIELDS = {"time_ms": "time_ms", "time_ms_min": "time_ms_min", "time_ms_max": "time_ms_max", "tflops": "tflops",
          "peak_bytes": "peak_bytes", "B": "batch", "H": "heads", "N": "seqlen_kv", "d": "head_dim",
          "table:ablation[median ms]": "time_ms", "table:ablation[TFLOP/s]": "tflops"}
# a ratio of the two records' fields: (field, other over this)
RATIOS = {"speedup_vs": ("time_ms", True), "tflops_vs": ("tflops", False), "table:ablation[step]": ("time_ms", True)}


def close(a, b, cell, printed):
    """b (the claim) agrees with a (recomputed): a table cell is its number
    as printed, so within half its last printed digit (and a ratio of
    printed medians a little more)."""
    if cell:
        m = re.search(r"\d+(?:\.(\d+))?", printed)
        half = 0.5 * 10 ** -(len(m.group(1)) if m and m.group(1) else 0)
        return abs(a - b) <= half + 0.002 * abs(a)
    return abs(a - b) <= 1e-9 * max(1.0, abs(a))


def check_claim(n, place, expr, stated, drawn, dfile, printed, by_file, fails, counts):
    """A claim line (src/doc/claim.h): its records exist in the files it
    names, one run unless it is named a cross-run comparison, and its value
    is what those records give under its rule, where the rule is one this
    script can recompute."""
    # a table's column may hold spaces: a field runs to the next " NAME="
    f = dict(re.findall(r"(\w+)=(.*?)(?= \w+=|$)", stated))
    where = "claim %s {%s}" % (place, expr)
    if drawn == "-":
        counts["claim (table cell, records not named)"] = counts.get("claim (table cell, records not named)", 0) + 1
        return
    keys, files = drawn.split("|"), dfile.split("|")
    recs = []
    for k, fl in zip(keys, files):
        r = by_file.get((fl, k))
        if r is None and not k.startswith("capture/"):
            fails.append("%s: names %s of %s, which that file does not hold" % (where, k, fl))
            return
        recs.append(r)
    if len(set(files)) > 1 and f["cross_run"] != "1":
        fails.append("%s: compares records of %s, not named a cross-run comparison" % (where, " and ".join(files)))
        return
    if len(set(files)) > 1 and "across runs" not in printed:
        fails.append("%s: a cross-run comparison whose text does not say so ('%s')" % (where, printed))
        return
    q, v, rule = f["quantity"], float(f["value"]), f["rule"]
    cell = rule.startswith("cell")
    want = None
    if any(r is None for r in recs):
        pass
    elif q in RATIOS and len(recs) == 2:
        field, inverse = RATIOS[q]
        a, b = recs[0].get(field), recs[1].get(field)
        if a and b:
            want = b / a if inverse else a / b
    elif q in FIELDS and rule in ("value", "max", "min", "cell") and len(recs) == 1:
        want = recs[0].get(FIELDS[q])
    if want is None:
        counts["claim (records checked)"] = counts.get("claim (records checked)", 0) + 1
        return
    counts["claim (value recomputed)"] = counts.get("claim (value recomputed)", 0) + 1
    if not close(float(want), v, cell, printed):
        fails.append("%s: says %g ('%s'), but its records give %g" % (where, v, printed, want))


# a figure quantity (src/doc/figdesc.c) recomputed from the export: field, scale
FIGURE_FIELDS = {"tflops": ("tflops", 1.0), "run_time_us": ("time_ms", 1000.0), "run_peak_bytes": ("peak_bytes", 1.0),
                 "dram_read_bytes": ("dram__bytes_read.sum", 1.0), "dram_write_bytes": ("dram__bytes_write.sum", 1.0),
                 "smem_st_wavefronts": ("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", 1.0),
                 "smem_ld_wavefronts": ("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", 1.0),
                 "smem_st_conflicts": ("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", 1.0)}
# a diagram part's quantity of a captured call (src/doc/figdiagram.c): the export's field
CAPTURE_ITEM_FIELDS = {"dram_read_bytes": "dram__bytes_read.sum", "dram_write_bytes": "dram__bytes_write.sum",
                       "l2_write_bytes": "capture.l2_write_bytes"}
# a captured call's buffers sized from its shape: Q, O (dQ) B*H*Nq*d*e, K, V B*Hkv*Nkv*d*e, L B*H*Nq*4
DTYPE_BYTES = {"fp16": 2, "bf16": 2, "fp32": 4, "fp8": 1}


def buffer_bytes(name, r):
    hkv = r["kv_heads"] if r["kv_heads"] > 0 else r["heads"]
    e = DTYPE_BYTES.get(r["dtype"])
    bh, bhkv = r["batch"] * r["heads"], r["batch"] * hkv
    if e is None:
        return None
    if name in ("Q", "O", "dQ"):
        return bh * r["seqlen_q"] * r["head_dim"] * e
    if name in ("K", "V"):
        return bhkv * r["seqlen_kv"] * r["head_dim"] * e
    if name == "L":
        return bh * r["seqlen_q"] * 4
    return None


def check_capture_item(where, stated, drawn, dfile, by_call, fails, counts):
    """A diagram part of a captured call: its call is in the file it names
    and its bytes are the export's (the DRAM and L2 traffic, the buffers'
    sizes from the shape); a verdict count or a text is counted only."""
    m = re.match(r"(.*)/pid-?\d+/call(\d+)$", drawn)
    rows = by_call.get((dfile, m.group(1), int(m.group(2)))) if m else None
    if not rows:
        fails.append("%s: names %s of %s, which that file does not hold" % (where, drawn, dfile))
        return
    q, state = stated["quantity"], stated["state"]
    r = rows[0]
    want = None
    if state == "value" and q in CAPTURE_ITEM_FIELDS:
        want = r.get(CAPTURE_ITEM_FIELDS[q])
        if want is None:
            fails.append("%s: draws %s = %s, but the record has no %s" % (where, q, stated["value"],
                                                                         CAPTURE_ITEM_FIELDS[q]))
            return
    elif state == "value" and where.split(" ")[-1].startswith("item/hbm/"):
        want = buffer_bytes(q, r)
    if want is None or len(rows) > 1:
        counts["figure (captured call, record checked)"] = counts.get("figure (captured call, record checked)", 0) + 1
        return
    counts["figure (captured call, value recomputed)"] = counts.get("figure (captured call, value recomputed)", 0) + 1
    if not close(float(want), float(stated["value"]), False, ""):
        fails.append("%s: draws %s = %s, but its record gives %g" % (where, q, stated["value"], want))


def check_figure(fig, where_in, stated, drawn, dfile, by_file, by_call, winner, one_run, fails, counts):
    """A figure line: the record of its point is in the file it names and is
    the newest of its identity; its value (and a TFLOP/s whisker) is what
    the record gives."""
    f = dict(kv.split("=", 1) for kv in stated.split(" "))
    where = "figure %s %s" % (fig, where_in)
    if drawn.startswith("capture/") and where_in.startswith("item/"):
        check_capture_item(where, f, drawn, dfile, by_call, fails, counts)
        return
    if drawn == "-":
        counts["figure (text of no record)"] = counts.get("figure (text of no record)", 0) + 1
        return
    if drawn.startswith("capture/"):
        counts["figure (captured call, not recomputed)"] = counts.get("figure (captured call, not recomputed)", 0) + 1
        return
    if "|" in drawn:
        # a ratio of two records (diff: the newer file's over the older's)
        keys, fls = drawn.split("|"), dfile.split("|")
        recs = [by_file.get((fl, k)) for k, fl in zip(keys, fls)]
        for k, fl, r in zip(keys, fls, recs):
            if r is None:
                fails.append("%s: names %s of %s, which that file does not hold" % (where, k, fl))
                return
        if f["quantity"] == "time_ratio" and recs[0].get("time_ms") and recs[1].get("time_ms"):
            want = recs[0]["time_ms"] / recs[1]["time_ms"]
            counts["figure (value recomputed)"] = counts.get("figure (value recomputed)", 0) + 1
            if not close(want, float(f["value"]), False, ""):
                fails.append("%s: draws %s = %s, but its records give %g" % (where, f["quantity"], f["value"], want))
        else:
            counts["figure (record checked)"] = counts.get("figure (record checked)", 0) + 1
        return
    r = by_file.get((dfile, drawn))
    if r is None:
        fails.append("%s: names %s of %s, which that file does not hold" % (where, drawn, dfile))
        return
    if f.get("from") == "one-run":
        seen = one_run.setdefault(fig, dfile)
        if seen != dfile:
            fails.append("%s: a figure of one run drew %s from %s, another point from %s" % (where, drawn, dfile, seen))
            return
    elif dfile != winner(drawn):
        fails.append("%s: drew %s from %s, but the newest record is %s's" % (where, drawn, dfile, winner(drawn)))
        return
    q, state = f["quantity"], f["state"]
    if q == "bandwidth" and state == "value":
        # HBM bytes (DRAM read + written) over the median time, GB/s
        rd, wr, t = r.get("dram__bytes_read.sum"), r.get("dram__bytes_write.sum"), r.get("time_ms")
        if rd is None or wr is None or not t:
            fails.append("%s: draws bandwidth = %s, but the record has no DRAM bytes or time" % (where, f["value"]))
            return
        want = (rd + wr) / (t * 1e-3) / 1e9
        counts["figure (value recomputed)"] = counts.get("figure (value recomputed)", 0) + 1
        if not close(want, float(f["value"]), False, ""):
            fails.append("%s: draws bandwidth = %s, but its record gives %g" % (where, f["value"], want))
        return
    if q not in FIGURE_FIELDS or state != "value":
        counts["figure (record checked)"] = counts.get("figure (record checked)", 0) + 1
        return
    field, scale = FIGURE_FIELDS[q]
    if r.get(field) is None:
        fails.append("%s: draws %s = %s, but the record has no %s" % (where, q, f["value"], field))
        return
    want, v = float(r[field]) * scale, float(f["value"])
    counts["figure (value recomputed)"] = counts.get("figure (value recomputed)", 0) + 1
    if not close(want, v, False, ""):
        fails.append("%s: draws %s = %g, but its record gives %g" % (where, q, v, want))
        return
    if "lo" not in f:  # a diagram part: one value, no whisker
        return
    lo, hi = float(f["lo"]), float(f["hi"])
    tmin, tmax, t = r.get("time_ms_min"), r.get("time_ms_max"), r.get("time_ms")
    if q == "tflops" and f.get("whisker") == "launches" and tmin and tmax and t:
        # the whisker: TFLOP/s at the slowest and the fastest launch
        if not close(v * t / tmax, lo, False, "") or not close(v * t / tmin, hi, False, ""):
            fails.append("%s: a whisker of %g to %g, but its record's launches give %g to %g" %
                         (where, lo, hi, v * t / tmax, v * t / tmin))


def check_claims_against_figures(lines, fails, counts):
    """A ratio in a sentence (speedup_vs, tflops_vs: records A|B) against
    the figures of the same document that draw both records' identities as
    TFLOP/s: the figure's ratio of A's bar to B's is the sentence's, within
    its printed precision.  A sentence dividing one run's records beside a
    figure drawing another run's (a ladder of one file) fails here even
    where each agrees with its own records."""
    drawn = {}  # identity -> [(figure, TFLOP/s, file)]
    claims = []
    for what, ctx, key, stated, rec, dfile, also in lines:
        if what == "figure" and "|" not in rec and " quantity=tflops " in " " + stated + " ":
            f = dict(kv.split("=", 1) for kv in stated.split(" "))
            if f.get("state") == "value":
                drawn.setdefault(rec, []).append((ctx, float(f["value"]), dfile))
        elif what == "claim" and "|" in rec:
            f = dict(re.findall(r"(\w+)=(.*?)(?= \w+=|$)", stated))
            if f.get("quantity") in ("speedup_vs", "tflops_vs"):
                claims.append((ctx, key, float(f["value"]), rec.split("|"), also))
    for place, expr, v, (a, b), printed in claims:
        for fa, va, fla in drawn.get(a, []):
            for fb, vb, flb in drawn.get(b, []):
                if fa != fb or not vb:
                    continue
                # TFLOP/s of one problem: A's over B's is both B's time over A's and A's rate over B's
                want = va / vb
                counts["claim (against its figure)"] = counts.get("claim (against its figure)", 0) + 1
                if not close(want, v, True, printed):
                    fails.append("claim %s {%s}: says %g ('%s'), but its figure %s draws %g (%s over %s)" %
                                 (place, expr, v, printed, fa, want, fla, flb))


def main(argv):
    if len(argv) < 4:
        sys.stderr.write(__doc__)
        return 2
    attnprof, trace, rest = argv[1], argv[2], argv[3:]
    primary = None
    if rest[:1] == ["--primary"]:
        primary, rest = rest[1], rest[2:]
    files = {}
    for path in rest:
        files[path] = load(attnprof, path)
    # identity -> [(date, path)] of every file holding it; the newest date
    # wins, equal dates the later path (src/results_merge.h); undated is oldest
    holders = {}
    rows = []
    for path, (date, recs) in files.items():
        for r in recs:
            k = identity(r)
            holders.setdefault(k, []).append((date if date != "~" else "", path))
            rows.append((path, r, k))

    def winner(k):
        hs = sorted(holders[k])
        if primary and any(p.rsplit("/", 1)[-1] == primary.rsplit("/", 1)[-1] for _, p in hs):
            return primary.rsplit("/", 1)[-1]
        return hs[-1][1].rsplit("/", 1)[-1]

    # (file base name, identity) -> export row, for the claims
    by_file = {}
    by_call = {}  # (file base name, identity, capture.call) -> the captured calls' export rows
    for path, r, k in rows:
        by_file[(path.rsplit("/", 1)[-1], k)] = r
        if r.get("source") == "capture":
            by_call.setdefault((path.rsplit("/", 1)[-1], k, r.get("capture.call", -1)), []).append(r)
    fails, counts = [], {}
    one_run = {}  # figure -> the file its points come from (from=one-run)
    with open(trace, encoding="utf-8") as f:
        lines = [line.rstrip("\n").split("\t") for line in f]
    check_claims_against_figures(lines, fails, counts)
    for n, fields in enumerate(lines, 1):
        what, ctx, key, stated, drawn, dfile, _also = fields
        counts[what] = counts.get(what, 0) + 1
        if what == "claim":
            check_claim(n, ctx, key, stated, drawn, dfile, _also, by_file, fails, counts)
            continue
        if what == "figure":
            check_figure(ctx, key, stated, drawn, dfile, by_file, by_call, winner, one_run, fails, counts)
            continue
        cond = dict(kv.split("=", 1) for kv in stated.split(" "))
        where = "%s:%d: %s %s at %s" % (trace, n, ctx, key, stated)
        if key.startswith("capture:"):
            if what != "found":
                counts["capture (not checked)"] = counts.get("capture (not checked)", 0) + 1
                continue
            counts["capture checked"] = counts.get("capture checked", 0) + 1
            calls = [(r.get("capture.call", -1), k) for _, r, k in rows if series(r) == key and matches(cond, r)]
            ids = sorted({k for _, k in calls})
            m = re.match(r"(.*)/pid-?\d+/call(\d+)$", drawn)
            if not m or ids != [m.group(1)]:
                fails.append("%s: drew %s, but the conditions name %s" % (where, drawn, ids or "no record"))
            elif int(m.group(2)) != max(c for c, _ in calls):
                fails.append("%s: drew call %s, not the identity's last (%d)" % (where, m.group(2),
                                                                                 max(c for c, _ in calls)))
            continue
        ids = sorted({k for _, r, k in rows if series(r) == key and matches(cond, r)})
        if what == "ambiguous":
            fails.append("%s: named %d records (%s)" % (where, len(ids), ", ".join(ids[:3])))
        elif what == "found":
            if ids != [drawn]:
                fails.append("%s: drew %s, but the conditions name %s" % (where, drawn, ids or "no record"))
            elif dfile != winner(drawn):
                fails.append("%s: drew %s from %s, but the newest record is %s's" % (where, drawn, dfile,
                                                                                     winner(drawn)))
        elif what in ("max", "min"):
            if drawn not in ids:
                fails.append("%s: drew %s, which the conditions do not name" % (where, drawn))
            elif dfile != winner(drawn):
                fails.append("%s: drew %s from %s, not the newest (%s)" % (where, drawn, dfile, winner(drawn)))
        elif what == "missing":
            if ids:
                fails.append("%s: read 'not measured', but %s has it" % (where, ids[0]))
    for m in fails[:20]:
        print("records-check: " + m)
    summary = ", ".join("%d %s" % (v, k) for k, v in sorted(counts.items()))
    print("records-check: %s: %s; %d wrong" % (trace, summary, len(fails)))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
