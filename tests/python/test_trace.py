"""tests/python/test_trace.py ATTNPROF_BINARY: `export --trace` on every
committed results file, read back against the trace-event format's rules.

The rules are those Perfetto and chrome://tracing need to draw the file
(the JSON object form: "traceEvents", times in microseconds):
  * every event has ph, name, pid; X has tid, ts, dur >= 0; C has ts and
    numeric args; M names a process or thread (process_name, thread_name,
    *_sort_index) with its args;
  * every track an X event uses is named (thread_name), its process too;
  * on each track the calls' ts never go back and calls do not overlap;
    each kernel lies inside its call and after the kernel before it;
  * each counter track's ts never go back;
  * a call carries identity, verdict (correct) and time_source; a kernel
    grid, block (3 numbers each) and registers;
  * as many calls as the file has records and as many kernels as it has
    launches (export --json's kernels column), with the same identities in
    the same order as the records; each call as long as its record's median
    (else its kernels' sum), a captured call with its record's stored-or-not
    verdict (nn_matrices, verdict_rule) and time source, its DRAM counter
    the record's bytes at its start and 0 at its end;
  * one track per stream: calls captured on two streams (a fixture made
    from a committed capture) lie on two tracks, each named by its handle.
  * the program's whole workload (header.workload, record --workload on):
    each program process a process of the trace with its span as a slice
    (cat program) on its track 1; each kernel (cat workload, or
    workload,attention for an attention call's) on a named track of its
    process, with grid, block and attention (true exactly for
    workload,attention), after the kernel before it on its track ends, and
    inside its process's span; on the hand-written fixture
    (tests/fixtures/capture-workload.yaml, read here line by line) every
    kept kernel once, with its name, process, stream, time and launch, the
    overlapping kernel on a track of its own, and kept + dropped =
    gpu_kernels.
The checker is itself checked: traces broken one rule at a time are refused.
Prints "# trace: N passed, N failed, 0 skipped" last.
"""
import copy
import glob
import json
import os
import subprocess
import sys
import tempfile

BIN = sys.argv[1] if len(sys.argv) > 1 else "./attnprof"
passed = failed = 0


def report(ok, what):
    global passed, failed
    if ok:
        passed += 1
        print("ok " + what)
    else:
        failed += 1
        print("FAIL " + what)


def num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def check_trace(doc, records=None):
    """Problems found in a trace document (a list of strings, empty: none).
    records: export --json's rows of the same file, to count against."""
    bad = []
    if not isinstance(doc, dict) or not isinstance(doc.get("traceEvents"), list):
        return ["no traceEvents array"]
    if not isinstance(doc.get("otherData", {}).get("layout"), str):
        bad.append("otherData.layout does not say how the records were laid out")
    procs, threads = set(), set()
    calls, kernels, kernels_w = [], [], []
    last_call = {}   # (pid, tid) -> (ts, end) of the call before
    last_kernel = {}  # (pid, tid) -> end of the kernel before, inside the current call
    last_counter = {}
    spans = {}  # pid -> (ts, end) of its program slice
    last_work = {}  # (pid, tid) -> end of the workload kernel before
    for i, e in enumerate(doc["traceEvents"]):
        where = "event %d" % i
        if not isinstance(e, dict) or e.get("ph") not in ("X", "M", "C"):
            bad.append(where + ": ph is not X, M or C")
            continue
        if not isinstance(e.get("name"), str) or not isinstance(e.get("pid"), int):
            bad.append(where + ": no name or pid")
            continue
        ph = e["ph"]
        if ph == "M":
            args = e.get("args", {})
            if e["name"] == "process_name" and isinstance(args.get("name"), str):
                procs.add(e["pid"])
            elif e["name"] == "thread_name" and isinstance(args.get("name"), str) and isinstance(e.get("tid"), int):
                threads.add((e["pid"], e["tid"]))
            elif e["name"].endswith("_sort_index") and isinstance(args.get("sort_index"), int):
                pass
            else:
                bad.append(where + ": metadata %s without its args" % e["name"])
            continue
        if not num(e.get("ts")) or e["ts"] < 0:
            bad.append(where + ": no ts")
            continue
        if ph == "C":
            args = e.get("args")
            if not isinstance(args, dict) or not args or not all(num(v) for v in args.values()):
                bad.append(where + ": counter without numeric args")
            key = (e["pid"], e["name"])
            if e["ts"] < last_counter.get(key, 0):
                bad.append(where + ": counter %s goes back in time" % e["name"])
            last_counter[key] = e["ts"]
            continue
        # X: a complete event
        if not isinstance(e.get("tid"), int) or not num(e.get("dur")) or e["dur"] < 0:
            bad.append(where + ": X without tid or dur")
            continue
        track = (e["pid"], e["tid"])
        if track not in threads or e["pid"] not in procs:
            bad.append(where + ": track %s is not named" % (track,))
        args = e.get("args", {})
        ts, end = e["ts"], e["ts"] + e["dur"]
        if e.get("cat") == "attention":
            for k in ("identity", "correct", "time_source"):
                if k not in args:
                    bad.append(where + ": call without " + k)
            prev = last_call.get(track)
            if prev and (ts < prev[0] or ts < prev[1] - 1e-9):
                bad.append(where + ": call starts before the call before it on its track ends")
            last_call[track] = (ts, end)
            last_kernel[track] = ts
            calls.append(e)
        elif e.get("cat") == "kernel":
            for k in ("grid", "block"):
                v = args.get(k)
                if not (isinstance(v, list) and len(v) == 3 and all(isinstance(x, int) for x in v)):
                    bad.append(where + ": kernel without " + k)
            if not isinstance(args.get("registers"), int):
                bad.append(where + ": kernel without registers")
            parent = last_call.get(track)
            if not parent:
                bad.append(where + ": kernel outside any call")
            elif ts < parent[0] - 1e-9 or end > parent[1] + 1e-9:
                bad.append(where + ": kernel not inside its call [%g, %g]" % parent)
            elif ts < last_kernel[track] - 1e-9:
                bad.append(where + ": kernel starts before the kernel before it ends")
            last_kernel[track] = end
            kernels.append(e)
        elif e.get("cat") == "program":
            if e["pid"] in spans:
                bad.append(where + ": a second program slice in process %d" % e["pid"])
            spans[e["pid"]] = (ts, end)
        elif e.get("cat") in ("workload", "workload,attention"):
            for k in ("grid", "block"):
                v = args.get(k)
                if not (isinstance(v, list) and len(v) == 3 and all(isinstance(x, int) for x in v)):
                    bad.append(where + ": workload kernel without " + k)
            if args.get("attention") is not (e["cat"] == "workload,attention"):
                bad.append(where + ": cat %s with attention %r" % (e["cat"], args.get("attention")))
            span = spans.get(e["pid"])
            if not span:
                bad.append(where + ": workload kernel before its process's program slice")
            elif ts < span[0] - 1e-9 or end > span[1] + 1e-9:
                bad.append(where + ": workload kernel not inside its program's span [%g, %g]" % span)
            if ts < last_work.get(track, 0) - 1e-9:
                bad.append(where + ": workload kernel starts before the kernel before it on its track ends")
            last_work[track] = end
            kernels_w.append(e)
        else:
            bad.append(where + ": X of unknown cat %r" % e.get("cat"))
    if records is not None:
        if len(calls) != len(records):
            bad.append("%d calls for %d records" % (len(calls), len(records)))
        want = sum(r.get("kernels") or 0 for r in records)
        if len(kernels) != want:
            bad.append("%d kernels for %d launches" % (len(kernels), want))
        # the DRAM counter's values by ts (in whole ns): the first event at a ts is the call's start
        dram = {}
        for e in doc["traceEvents"]:
            if e.get("ph") == "C" and e.get("name") == "DRAM bytes":
                dram.setdefault(round(e["ts"], 3), []).append(e.get("args", {}))
        for c, r in zip(calls, records):
            a = c["args"]
            if (a.get("source"), a.get("variant"), a.get("pass"), a.get("batch"), a.get("seqlen_q")) != (
                    r["source"], r["variant"], r["pass"], r["batch"], r["seqlen_q"]):
                bad.append("call %s is not record %s/%s" % (a.get("identity"), r["source"], r["variant"]))
                break
            where = "call %s" % a.get("identity")
            if num(r.get("time_ms")) and r["time_ms"] > 0 and abs(c["dur"] - r["time_ms"] * 1000) > 1e-3:
                bad.append("%s: %g us long, its record's median is %g ms" % (where, c["dur"], r["time_ms"]))
            if r["source"] == "capture":
                for k in ("nn_matrices", "verdict_rule"):
                    if a.get(k) != r.get("capture." + k):
                        bad.append("%s: %s %r, its record's %r" % (where, k, a.get(k), r.get("capture." + k)))
                if num(r.get("time_ms")) and r["time_ms"] > 0 and a.get("time_source") != r.get("capture.time_source"):
                    bad.append("%s: time_source %r, its record's %r" % (where, a.get("time_source"),
                                                                         r.get("capture.time_source")))
            want_read = r.get("dram__bytes_read.sum")
            if num(want_read):
                at = dram.get(round(c["ts"], 3), [])
                if not at or at[0].get("read") != want_read:
                    bad.append("%s: DRAM read %r at its start, its record's %r" % (
                        where, at[0].get("read") if at else None, want_read))
                end = dram.get(round(c["ts"] + c["dur"], 3), [])
                if not end or end[-1].get("read") != 0:
                    bad.append("%s: the DRAM counter does not fall to 0 at its end" % where)
    return bad


def export_json(path):
    out = subprocess.run([BIN, "export", path, "--json"], capture_output=True, text=True)
    return json.loads(out.stdout) if out.returncode == 0 else None


files = sorted(glob.glob("experiments/results/*.yaml") + glob.glob("experiments/results/capture/*.yaml"))
report(len(files) >= 10, "the committed results files are found (%d)" % len(files))
tmp = tempfile.mkdtemp()
sample = sample_path = None
for path in files:
    out = os.path.join(tmp, os.path.basename(path) + ".json")
    p = subprocess.run([BIN, "export", path, "--trace", out], capture_output=True, text=True)
    if p.returncode != 0:
        report(False, "%s: export --trace exit %d: %s" % (path, p.returncode, p.stderr.strip()))
        continue
    try:
        doc = json.load(open(out))
    except ValueError as err:
        report(False, "%s: not JSON: %s" % (path, err))
        continue
    bad = check_trace(doc, export_json(path))
    report(not bad, "%s: %d events by the format's rules%s" % (path, len(doc["traceEvents"]),
                                                              "" if not bad else ": " + "; ".join(bad[:5])))
    if sample is None and any(e.get("cat") == "kernel" for e in doc["traceEvents"]) and \
            any(e["ph"] == "C" for e in doc["traceEvents"]):
        sample, sample_path = doc, path

# one track per stream: the fixture's second call is on a stream of its own
two = os.path.join(tmp, "two-streams.json")
p = subprocess.run([BIN, "export", "tests/fixtures/capture-two-streams.yaml", "--trace", two],
                   capture_output=True, text=True)
if p.returncode != 0:
    report(False, "two streams: export --trace exit %d: %s" % (p.returncode, p.stderr.strip()))
else:
    doc = json.load(open(two))
    bad = check_trace(doc, export_json("tests/fixtures/capture-two-streams.yaml"))
    names = {e["tid"]: e["args"]["name"] for e in doc["traceEvents"]
             if e["ph"] == "M" and e["name"] == "thread_name"}
    tids = [e["tid"] for e in doc["traceEvents"] if e.get("cat") == "attention"]
    ktids = [e["tid"] for e in doc["traceEvents"] if e.get("cat") == "kernel"]
    report(not bad and len(tids) == 3 and tids[0] == tids[2] != tids[1]
           and names.get(tids[0]) == "stream 0x%x" % 478486112 and names.get(tids[1]) == "stream 0x%x" % 478486400
           and set(ktids) == set(tids),
           "two streams: calls on their streams' tracks %s, named %s%s" % (
               tids, sorted(names.values()), "" if not bad else ": " + "; ".join(bad[:5])))

# the program's whole workload: the hand-written fixture's kernels, read from its lines
WFIX = "tests/fixtures/capture-workload.yaml"


def fixture_workload(path):
    """header.workload of a file as record writes it (one key or list item a line)"""
    w, names, streams, kernels, part = {}, [], [], [], None
    for line in open(path):
        if line.startswith("  gpu_kernels:"):
            w["gpu_kernels"] = int(line.split(":")[1])
        if line == "  workload:\n":
            part = "head"
            continue
        if part is None:
            continue
        if not line.startswith("    "):
            break
        t = line.strip()
        if t.startswith("- "):
            item = t[2:]
            if part == "names":
                names.append(item.strip("'"))
            else:
                kernels.append([int(x) for x in item.split()])
        elif t.startswith("streams:"):
            streams = json.loads(t.split(":", 1)[1])
        else:
            k, v = t.split(":", 1)
            part = k if k in ("names", "kernels") else part
            if v.strip() and k not in ("columns", "names", "kernels"):
                w[k] = int(v)
    w.update(names=names, streams=streams, kernels=kernels)
    return w


wdoc = None
wout = os.path.join(tmp, "workload.json")
p = subprocess.run([BIN, "export", WFIX, "--trace", wout], capture_output=True, text=True)
if p.returncode != 0:
    report(False, "workload: export --trace exit %d: %s" % (p.returncode, p.stderr.strip()))
else:
    wdoc = json.load(open(wout))
    fw = fixture_workload(WFIX)
    bad = check_trace(wdoc, export_json(WFIX))
    report(not bad, "workload: %d events by the format's rules%s" % (len(wdoc["traceEvents"]),
                                                                   "" if not bad else ": " + "; ".join(bad[:5])))
    ev = wdoc["traceEvents"]
    pnames = {e["pid"]: e["args"]["name"] for e in ev if e["ph"] == "M" and e["name"] == "process_name"}
    tnames = {(e["pid"], e["tid"]): e["args"]["name"] for e in ev if e["ph"] == "M" and e["name"] == "thread_name"}
    work = [e for e in ev if e.get("cat") in ("workload", "workload,attention")]
    # every kept kernel once: (name, os pid, stream, ts, dur, grid, block, attention) against the fixture's lines
    t0 = min(k[2] for k in fw["kernels"])
    want = sorted((fw["names"][k[0]], fw["streams"][k[1]][0], fw["streams"][k[1]][1], (k[2] - t0) / 1000.0,
                   k[3] / 1000.0, k[4:7], k[7:10], bool(k[10])) for k in fw["kernels"])
    got = sorted((e["name"], int(pnames[e["pid"]].split()[2].rstrip(":")), e["args"]["stream"], e["ts"], e["dur"],
                  e["args"]["grid"], e["args"]["block"], e["args"]["attention"]) for e in work)
    report(got == want, "workload: the trace's %d kernels are the fixture's %d, each with its name, process, stream, "
           "time and launch" % (len(got), len(want)))
    report(len(work) + fw["dropped"] == fw["gpu_kernels"] and fw["dropped"] == 1,
           "workload: %d kernels in the trace + %d dropped = gpu_kernels %d" % (len(work), fw["dropped"],
                                                                                fw["gpu_kernels"]))
    # the stream of process 610 whose last two kernels overlap: the later one on a track of its own
    tracks = sorted(set(tnames[(e["pid"], e["tid"])] for e in work if pnames[e["pid"]].startswith("program pid 610")))
    report(tracks == ["stream 13", "stream 13: kernels overlapping the one before (1)", "stream 7"],
           "workload: process 610's kernels on its streams' tracks %s" % tracks)
    spans = {e["pid"]: e for e in ev if e.get("cat") == "program"}
    report(sorted(pnames[p].split(":")[0] for p in spans) == ["program pid 610", "program pid 611"] and
           spans[min(spans)]["args"]["dropped"] == 1,
           "workload: a process and its span for each program process (%s)" % sorted(pnames.values()))
    report(isinstance(wdoc["otherData"].get("workload"), str), "workload: otherData.workload says how it is laid out")
    # files without the list: no program process
    report(sample is not None and not any(e.get("cat") in ("program", "workload") for e in sample["traceEvents"]),
           "workload: a trace of a file without header.workload has no program process")

# the checker refuses each kind of break
if sample is None:
    report(False, "no trace with kernels and counters to break")
else:
    def broken(fn):
        d = copy.deepcopy(sample)
        fn(d["traceEvents"])
        return d

    def first(ev, cat):
        return next(e for e in ev if e.get("cat") == cat)

    def kernel_out(ev):
        k = first(ev, "kernel")
        k["dur"] = k["dur"] + 1e9

    def call_back(ev):
        cs = [e for e in ev if e.get("cat") == "attention"]
        cs[1]["ts"] = cs[0]["ts"]

    def no_grid(ev):
        del first(ev, "kernel")["args"]["grid"]

    def no_identity(ev):
        del first(ev, "attention")["args"]["identity"]

    def unnamed(ev):
        ev[:] = [e for e in ev if e.get("name") != "thread_name"]

    def counter_back(ev):
        cs = [e for e in ev if e["ph"] == "C"]
        cs[-1]["ts"] = -1 if cs[-1]["ts"] == 0 else 0

    def kernel_elsewhere(ev):
        k = first(ev, "kernel")
        k["tid"] = k["tid"] + 1
        ev.insert(0, {"ph": "M", "name": "thread_name", "pid": k["pid"], "tid": k["tid"], "args": {"name": "x"}})

    for what, fn in (("a kernel on another track than its call", kernel_elsewhere),
                     ("a kernel past its call's end", kernel_out), ("a call over the one before", call_back),
                     ("a kernel without grid", no_grid), ("a call without identity", no_identity),
                     ("tracks without names", unnamed), ("a counter going back", counter_back)):
        report(bool(check_trace(broken(fn))), "the checker refuses " + what)
    report(not check_trace(sample), "the checker takes the unbroken trace")
    # against its records: a call's length, verdict and counter values
    recs = export_json(sample_path)
    report(not check_trace(sample, recs), "the checker takes the unbroken trace against its records")

    def longer(ev):
        first(ev, "attention")["dur"] += 5

    def dram_wrong(ev):
        c = next(e for e in ev if e["ph"] == "C" and e["name"] == "DRAM bytes")
        c["args"]["read"] += 1

    def no_fall(ev):
        cs = [e for e in ev if e["ph"] == "C" and e["name"] == "DRAM bytes"]
        cs[1]["args"]["read"] = 7

    for what, fn in (("a call longer than its record", longer), ("a DRAM counter off its record", dram_wrong),
                     ("a DRAM counter that stays up after its call", no_fall)):
        report(bool(check_trace(broken(fn), recs)), "the checker refuses " + what)
    if wdoc is not None:
        def wfirst(ev, cat="workload"):
            return next(e for e in ev if e.get("cat") == cat)

        def wbroken(fn):
            d = copy.deepcopy(wdoc)
            fn(d["traceEvents"])
            return d

        def w_outside(ev):
            wfirst(ev)["dur"] += 1e6

        def w_cross(ev):
            ws = [e for e in ev if e.get("cat", "").startswith("workload")]
            ws[1]["ts"], ws[1]["tid"] = ws[0]["ts"] + ws[0]["dur"] / 2, ws[0]["tid"]

        def w_no_block(ev):
            del wfirst(ev)["args"]["block"]

        def w_flag(ev):
            wfirst(ev, "workload,attention")["args"]["attention"] = False

        def w_no_span(ev):
            ev[:] = [e for e in ev if e.get("cat") != "program"]

        def w_unnamed(ev):
            k = wfirst(ev)
            ev[:] = [e for e in ev if not (e["ph"] == "M" and e["name"] == "thread_name" and e.get("pid") == k["pid"]
                                           and e.get("tid") == k["tid"])]

        for what, fn in (("a workload kernel past its program's span", w_outside),
                         ("workload kernels crossing on one track", w_cross),
                         ("a workload kernel without block", w_no_block),
                         ("an attention call's kernel not flagged attention", w_flag),
                         ("workload kernels without their program's span", w_no_span),
                         ("a workload track without a name", w_unnamed)):
            report(bool(check_trace(wbroken(fn))), "the checker refuses " + what)
    cap = os.path.join(tmp, "cap.json")
    subprocess.run([BIN, "export", "tests/fixtures/capture-two-streams.yaml", "--trace", cap], capture_output=True)
    cdoc, crecs = json.load(open(cap)), export_json("tests/fixtures/capture-two-streams.yaml")
    del next(e for e in cdoc["traceEvents"] if e.get("cat") == "attention")["args"]["nn_matrices"]
    report(bool(check_trace(cdoc, crecs)), "the checker refuses a captured call without its verdict")

print("# trace: %d passed, %d failed, 0 skipped" % (passed, failed))
sys.exit(1 if failed else 0)
