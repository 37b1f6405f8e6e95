"""tools/workload_trace_check.py RESULTS TRACE: the whole-workload kernels of
an `export --trace` file against its results file's header (gpu-run.sh
step workloadtrace; docs/results-format.md, "The workload's kernels").

Prints one line: the trace's workload kernels (cat workload and
workload,attention), header.workload.dropped and header.gpu_kernels, and
PASS when kernels + dropped == gpu_kernels > 0, the attention-flagged ones
are at most header.attention_kernels, and on every track the kernels start
in order without crossing, each inside its process's program span; else
FAIL with the first reason.  Exit 0 on PASS, 1 on FAIL.
"""
import json
import sys


def header_value(lines, prefix):
    for line in lines:
        if line.startswith(prefix):
            return int(line.split(":", 1)[1])
    return None


def main(results, trace):
    lines = open(results).read().splitlines()
    gpu = header_value(lines, "  gpu_kernels:")
    att = header_value(lines, "  attention_kernels:") or 0
    dropped = header_value(lines, "    dropped:") or 0
    ev = json.load(open(trace))["traceEvents"]
    spans = {e["pid"]: (e["ts"], e["ts"] + e["dur"]) for e in ev if e.get("cat") == "program"}
    work = [e for e in ev if e.get("cat") in ("workload", "workload,attention")]
    natt = sum(e["cat"] == "workload,attention" for e in work)
    why = []
    if not gpu:
        why.append("the header counts no kernel (gpu_kernels %r: recorded without --workload on?)" % gpu)
    elif len(work) + dropped != gpu:
        why.append("%d + %d dropped is not gpu_kernels %d" % (len(work), dropped, gpu))
    if natt > att:
        why.append("%d attention kernels in the trace, header.attention_kernels %d" % (natt, att))
    last = {}
    for e in work:
        track, end = (e["pid"], e["tid"]), e["ts"] + e["dur"]
        span = spans.get(e["pid"])
        if not span or e["ts"] < span[0] - 1e-9 or end > span[1] + 1e-9:
            why.append("%s outside its program's span" % e["name"][:60])
        if e["ts"] < last.get(track, 0) - 1e-9:
            why.append("%s crosses the kernel before it on track %s" % (e["name"][:60], track))
        last[track] = end
    print("%s workloadtrace: %d workload kernels in the trace (%d of attention calls) + %d dropped vs gpu_kernels %s "
          "in the header; %d tracks in %d program processes%s" % (
              "FAIL" if why else "PASS", len(work), natt, dropped, gpu, len(last), len(spans),
              "; " + "; ".join(why[:3]) if why else ""))
    return 1 if why else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
