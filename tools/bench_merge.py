#!/usr/bin/env python3
"""The merge at scale, measured (a benchmark, not a test): `make bench`.

    python3 tools/bench_merge.py [./attnprof] [RESULTS] [SHARDS] [COPIES]

Splits RESULTS (default experiments/results/fa2-paper.yaml) into SHARDS
(default 200) shard files the way `record --shard K/N` would write them
(its header's spec split by `attnprof check --shard K/N`; each part's records,
header.shard K/N), COPIES times over (default 6: the same parts again,
recorded an hour later, so every identity has that many records to resolve),
then times `attnprof merge` of all of them and prints the records, the seconds
and the seconds per 1000 records (the goal: under 1).
"""
import os
import subprocess
import sys
import tempfile
import time

import yaml

binary = sys.argv[1] if len(sys.argv) > 1 else "./attnprof"
src = sys.argv[2] if len(sys.argv) > 2 else "experiments/results/fa2-paper.yaml"
nparts = int(sys.argv[3]) if len(sys.argv) > 3 else 200
copies = int(sys.argv[4]) if len(sys.argv) > 4 else 6


class Loader(yaml.SafeLoader):
    pass


# dates stay strings, as attnprof reads them
Loader.yaml_implicit_resolvers = {k: [r for r in v if r[0] != "tag:yaml.org,2002:timestamp"]
                                  for k, v in yaml.SafeLoader.yaml_implicit_resolvers.items()}

doc = yaml.load(open(src), Loader=Loader)
tmp = tempfile.mkdtemp(prefix="bench-merge.")
spec_path = os.path.join(tmp, "spec.yaml")
with open(spec_path, "w") as f:
    f.write(doc["header"]["spec"]["text"])


def key(r):
    return (r["source"], r["variant"], r["phase"], r.get("pass", "fwd"), r["dtype"], r["batch"], r["heads"],
            r.get("kv_heads") or r["heads"], r["seqlen_q"], r["seqlen_kv"], r["head_dim"], bool(r["causal"]))


owner = {}
for k in range(1, nparts + 1):
    out = subprocess.run([binary, "check", spec_path, "--shard", "%d/%d" % (k, nparts)], check=True,
                         capture_output=True, text=True).stdout
    for line in out.splitlines()[1:]:
        w = line.split()
        if len(w) >= 12 and w[1] in ("prefill", "decode"):
            owner[("attnprof", w[0], w[1], w[2], w[3], int(w[4]), int(w[5]), int(w[6]), int(w[7]), int(w[8]),
                   int(w[9]), w[10] == "yes")] = k

parts = {k: [] for k in range(1, nparts + 1)}
for r in doc["records"]:
    parts[owner.get(key(r), 1)].append(r)  # records of other sources with part 1

paths = []
for c in range(copies):
    for k in range(1, nparts + 1):
        h = dict(doc["header"])
        h["shard"] = "%d/%d" % (k, nparts)
        h["date"] = "2026-12-01T%02d:00:00Z" % (10 + c)
        recs = []
        for i, r in enumerate(parts[k]):
            r = dict(r)
            r.pop("end", None)
            r["end"] = i + 1
            recs.append(r)
        p = os.path.join(tmp, "run%d.shard-%d-of-%d.yaml" % (c, k, nparts))
        with open(p, "w") as f:
            f.write(yaml.safe_dump({"format": "attnprof-results/2", "header": h, "records": recs}, sort_keys=False,
                                   width=1 << 20))
            f.write("end: {records: %d}\n" % len(recs))
        paths.append(p)

records = copies * len(doc["records"])
t0 = time.monotonic()
res = subprocess.run([binary, "merge", "--quiet"] + paths + ["-o", os.path.join(tmp, "all.yaml")],
                     capture_output=True, text=True)
dt = time.monotonic() - t0
print(res.stderr.strip().splitlines()[-1] if res.stderr.strip() else "(no summary)")
print("bench merge: %d shard files (%d parts x %d runs), %d records in: %.3f s, %.3f s per 1000 records%s"
      % (len(paths), nparts, copies, records, dt, dt * 1000 / max(records, 1),
         "" if res.returncode == 0 else " (merge exited %d)" % res.returncode))
subprocess.run(["rm", "-rf", tmp])
sys.exit(res.returncode)
