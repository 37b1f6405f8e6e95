"""tests/python/test_results_reader.py ATTNPROF_BINARY: attnprof_results.load
(src/capture/python) on the committed results files gives the columns and
values of `export --csv`, row for row; workload() gives the hand-written
fixture's kept kernels (header.workload); a bad file raises AttnprofError with
attnprof's message; the DataFrame path where pandas imports (else skipped).
Prints "# reader: N passed, N failed, N skipped" last.
"""
import csv
import glob
import io
import math
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "src", "capture", "python"))
import attnprof_results  # noqa: E402

BIN = sys.argv[1] if len(sys.argv) > 1 else "./attnprof"
passed = failed = skipped = 0


def report(ok, what):
    global passed, failed
    passed, failed = passed + bool(ok), failed + (not ok)
    print(("ok " if ok else "FAIL ") + what)


def same(cell, v):
    """a CSV cell against the reader's value"""
    if v is None:
        return cell == ""
    if isinstance(v, bool):
        return cell == ("true" if v else "false")
    if isinstance(v, (int, float)):
        try:
            c = float(cell)
        except ValueError:
            return False
        return c == v or (math.isnan(c) and math.isnan(v))
    return cell == v or cell == "'" + v  # a formula-like text cell is quoted in CSV only


files = sorted(glob.glob("experiments/results/*.yaml") + glob.glob("experiments/results/capture/*.yaml"))
report(len(files) >= 10, "the committed results files are found (%d)" % len(files))
files.append("tests/fixtures/capture-workload.yaml")  # a header.workload (record --workload on) reads as before
for path in files:
    rows = attnprof_results.load(path, as_frame=False, attnprof=BIN)
    text = subprocess.run([BIN, "export", path, "--csv"], stdout=subprocess.PIPE, universal_newlines=True).stdout
    table = list(csv.reader(io.StringIO(text)))
    header, body = table[0], table[1:]
    bad = []
    if len(rows) != len(body):
        bad.append("%d rows, export --csv has %d" % (len(rows), len(body)))
    for i, (row, line) in enumerate(zip(rows, body)):
        if list(row.keys()) != header:
            bad.append("row %d: columns differ from export --csv's" % i)
            break
        diff = [k for k, c in zip(header, line) if not same(c, row[k])]
        if diff:
            bad.append("row %d: %s differ" % (i, ", ".join(diff[:3])))
            break
    report(not bad, "%s: %d rows, the columns and values of export --csv%s" % (path, len(rows), ": " + "; ".join(bad) if bad else ""))

sub = attnprof_results.load("experiments/results/fa2-paper.yaml", variant="flash2", as_frame=False, attnprof=BIN)
report(sub and all(r["variant"] == "flash2" for r in sub), "variant= keeps that variant's records (%d)" % len(sub))
try:
    attnprof_results.load("tests/cli/cases/export-csv.t", attnprof=BIN)
    report(False, "a file that is not a results file raises")
except attnprof_results.AttnprofError as e:
    report("export-csv.t" in str(e), "a file that is not a results file raises with attnprof's message: %s" % str(e)[:80])

# workload(): the program's kept kernels, those of the fixture's lines
wl = attnprof_results.workload("tests/fixtures/capture-workload.yaml", as_frame=False, attnprof=BIN)
fix = [l.split() for l in open("tests/fixtures/capture-workload.yaml") if l.startswith("    - ") and
       len(l.split()) == 12]
t0 = min(int(k[3]) for k in fix)
want = sorted(((int(k[3]) - t0, int(k[4]), [int(x) for x in k[5:8]], k[11] == "1") for k in fix))
got = sorted((r["start_ns"], r["dur_ns"], r["grid"], r["attention"]) for r in wl)
report(got == want and len(wl) == 10 and list(wl[0].keys()) == attnprof_results.WORKLOAD_COLUMNS and
       wl[0]["start_ns"] == 0 and wl[0]["name"].startswith("void gemm_kernel") and wl[0]["pid"] == 610 and
       sorted(set((r["pid"], r["stream"]) for r in wl)) == [(610, 7), (610, 13), (611, 7)],
       "workload(): the fixture's 10 kernels in start order, with name, pid, stream, start, duration, grid, attention")
report(attnprof_results.workload("experiments/results/fa2-paper.yaml", as_frame=False, attnprof=BIN) == [],
       "workload(): a file without header.workload has none")

try:
    import pandas  # noqa: F401
    df = attnprof_results.load("experiments/results/decode.yaml", attnprof=BIN)
    rows = attnprof_results.load("experiments/results/decode.yaml", as_frame=False, attnprof=BIN)
    report(list(df.columns) == list(rows[0].keys()) and len(df) == len(rows), "a DataFrame with the same columns and rows")
except ImportError:
    print("skip DataFrame: skipped: pandas is not installed")
    skipped += 1
print("# reader: %d passed, %d failed, %d skipped" % (passed, failed, skipped))
sys.exit(1 if failed else 0)
