# sitecustomize.py: put in front of a Python program by `attnprof record -- CMD`
# (on PYTHONPATH, ATTNPROF_HOOK=1).  It installs attnprof_hook, which marks each
# attention call with an NVTX range the injection library profiles, then runs
# any sitecustomize the program had of its own, so the program sees no change.
import os
import sys


def _chain_next_sitecustomize():
    here = os.path.dirname(os.path.abspath(__file__))
    import importlib.machinery
    import importlib.util
    rest = [p for p in sys.path if os.path.abspath(p or ".") != here]
    spec = importlib.machinery.PathFinder.find_spec("sitecustomize", rest)
    if spec and spec.origin and os.path.dirname(os.path.abspath(spec.origin)) != here:
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)


if os.environ.get("ATTNPROF_HOOK") == "1":
    try:
        import attnprof_hook
        attnprof_hook.install()
    except Exception as e:  # never break the program
        sys.stderr.write("attnprof-hook: not installed: %s\n" % e)
try:
    _chain_next_sitecustomize()
except Exception as e:
    sys.stderr.write("attnprof-hook: the program's own sitecustomize failed: %s\n" % e)
