"""attnprof_results: a results file in Python, with the columns of
`attnprof export --csv` (docs/results-format.md, "Flat export").

    import attnprof_results
    rows = attnprof_results.load("experiments/results/fa2-paper.yaml")

load() returns a pandas DataFrame when pandas imports (as_frame=None, the
default; as_frame=False: always the list), else a list of dicts, one per
record, every key in every row, None where a record has no value.

workload(path) gives a program's every kernel where it was recorded with
`record --workload on` (header.workload): one row a kernel kept, in start
order, with name, pid, stream (CUPTI's id), start_ns (from the earliest
kernel's start), dur_ns, grid, block and attention (an attention call's
kernel); an empty list for a file without them.  They come from `attnprof
export PATH --trace`, so the same reader checks the file.

The rows come from `attnprof export PATH --json`, run under the hood: the
columns are the export's own (one definition, src/export.c), the file is
read by attnprof's reader with its checks (end markers, a cut file's
complete records kept, errors with file:line:col), and no YAML library is
needed.  The binary is the attnprof argument, else $ATTNPROF, else
`attnprof` on PATH, else the one at the top of the source tree this module
ships in.
"""
import json
import os
import shutil
import subprocess
import tempfile

__all__ = ["load", "workload", "AttnprofError"]


class AttnprofError(RuntimeError):
    """attnprof could not be run or refused the file (its message)."""


def _binary(attnprof):
    if attnprof:
        return attnprof
    if os.environ.get("ATTNPROF"):
        return os.environ["ATTNPROF"]
    found = shutil.which("attnprof")
    if found:
        return found
    tree = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "attnprof")
    if os.access(tree, os.X_OK):
        return os.path.normpath(tree)
    raise AttnprofError("cannot find the attnprof binary: pass attnprof=PATH or set ATTNPROF")


def _run(cmd):
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
    except OSError as e:
        raise AttnprofError("cannot run '%s': %s" % (cmd[0], e))
    if p.returncode != 0:
        raise AttnprofError(p.stderr.strip() or "'%s' exited with %d" % (" ".join(cmd), p.returncode))
    return p.stdout


def _frame(rows, as_frame, columns):
    if as_frame is False:
        return rows
    try:
        import pandas
    except ImportError:
        if as_frame:
            raise
        return rows
    return pandas.DataFrame(rows, columns=columns)


WORKLOAD_COLUMNS = ["name", "pid", "stream", "start_ns", "dur_ns", "grid", "block", "attention"]


def workload(path, as_frame=None, attnprof=None):
    """The program's kept kernels of results file path (see the module's text)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "trace.json")
        _run([_binary(attnprof), "export", os.fspath(path), "--trace", out])
        with open(out) as f:
            events = json.load(f)["traceEvents"]
    pids = {e["pid"]: e["args"]["pid"] for e in events if e.get("cat") == "program"}
    rows = [{"name": e["name"], "pid": pids[e["pid"]], "stream": e["args"]["stream"],
             "start_ns": int(round(e["ts"] * 1000)), "dur_ns": int(round(e["dur"] * 1000)),
             "grid": e["args"]["grid"], "block": e["args"]["block"], "attention": e["args"]["attention"]}
            for e in events if e.get("cat") in ("workload", "workload,attention")]
    rows.sort(key=lambda r: (r["start_ns"], r["pid"], r["stream"]))
    return _frame(rows, as_frame, WORKLOAD_COLUMNS)


def load(path, source=None, variant=None, as_frame=None, attnprof=None):
    """The records of results file path as rows (see the module's text);
    source/variant keep only those records, as export's --source/--variant."""
    cmd = [_binary(attnprof), "export", os.fspath(path), "--json"]
    if source:
        cmd += ["--source", source]
    if variant:
        cmd += ["--variant", variant]
    rows = json.loads(_run(cmd))
    return _frame(rows, as_frame, list(rows[0].keys()) if rows else None)
