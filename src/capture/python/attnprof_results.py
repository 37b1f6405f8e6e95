"""attnprof_results: a results file in Python, with the columns of
`attnprof export --csv` (docs/results-format.md, "Flat export").

    import attnprof_results
    rows = attnprof_results.load("experiments/results/fa2-paper.yaml")

load() returns a pandas DataFrame when pandas imports (as_frame=None, the
default; as_frame=False: always the list), else a list of dicts, one per
record, every key in every row, None where a record has no value.

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

__all__ = ["load", "AttnprofError"]


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


def load(path, source=None, variant=None, as_frame=None, attnprof=None):
    """The records of results file path as rows (see the module's text);
    source/variant keep only those records, as export's --source/--variant."""
    cmd = [_binary(attnprof), "export", os.fspath(path), "--json"]
    if source:
        cmd += ["--source", source]
    if variant:
        cmd += ["--variant", variant]
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
    except OSError as e:
        raise AttnprofError("cannot run '%s': %s" % (cmd[0], e))
    if p.returncode != 0:
        raise AttnprofError(p.stderr.strip() or "'%s' exited with %d" % (" ".join(cmd), p.returncode))
    rows = json.loads(p.stdout)
    if as_frame is False:
        return rows
    try:
        import pandas
    except ImportError:
        if as_frame:
            raise
        return rows
    return pandas.DataFrame(rows, columns=list(rows[0].keys()) if rows else None)
