"""tools/capture_table.py < export.csv — a captured run's calls, one line each
(what a GPU call's log shows of a capture; docs/gpu-runs.md)."""
import csv
import sys

cols = ["variant", "pass", "batch", "heads", "seqlen_q", "head_dim", "time_ms", "tflops", "correct",
        "kernels", "capture.family", "capture.origin", "capture.nn_matrices", "capture.verdict_rule"]
rows = list(csv.DictReader(sys.stdin))
print(" ".join("%-14s" % c.replace("capture.", "") for c in cols))
for r in rows[:40]:
    cells = []
    for c in cols:
        v = r.get(c, "")
        try:
            v = "%.4g" % float(v) if "." in v or "e" in v else v
        except ValueError:
            pass
        cells.append("%-14s" % v[:14])
    print(" ".join(cells))
if len(rows) > 40:
    print("... %d calls in all" % len(rows))
