#!/usr/bin/env python3
"""tools/bench_records.py RESULTS N: a results file of N records for tools/bench.sh.

The records of RESULTS are repeated, each copy at another batch size (so
every record has its own key), until there are N; each record's `end:` is
its place and the file's closing `end:` the count (results format 2).
Text-level, no YAML module.
"""
import re, sys

text = open(sys.argv[1]).read()
n = int(sys.argv[2])
head, body = text.split("\nrecords:\n", 1)
body = re.sub(r"^end: .*\n?", "", body, flags=re.M)
recs = ["  - source:" + r for r in body.split("  - source:")[1:]]
out, k = [], 0
while len(out) < n:
    for r in recs:
        if len(out) == n:
            break
        r = re.sub(r"^    batch: (\d+)$", lambda m: "    batch: %d" % (int(m.group(1)) + k), r, flags=re.M)
        out.append(re.sub(r"^    end: \d+$", "    end: %d" % (len(out) + 1), r, flags=re.M))
    k += 500  # batch stays within MAX_BATCH (65536) up to 14 000 records
sys.stdout.write(head + "\nrecords:\n" + "".join(out) + "end: {records: %d}\n" % n)
