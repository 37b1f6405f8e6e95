#!/usr/bin/env python3
"""tools/bench_records.py RESULTS N: a synthetic results file of N records for tools/bench.sh.

Not a measurement: the records of RESULTS are repeated until there are N,
and the header's notes say so.  Copy k adds k * (the largest batch + 1) to
every record's batch, so each record has its own key and no copy lands on
a shape (B, or B·N) the original's documents look up: the document drawn
stays the same while the records grow.  MAX_BATCH (65536) bounds the copies
(about 2 000 of the small fixture: 218 000 records).  Each record's `end:`
is its place and the file's closing `end:` the count (results format 2).
Deterministic; text-level, no YAML module.
"""
import re, sys

MAX_BATCH = 65536  # src/results.h

text = open(sys.argv[1]).read()
n = int(sys.argv[2])
head, body = text.split("\nrecords:\n", 1)
head = re.sub(r'^  notes: .*$', '  notes: "synthetic benchmark input, not a measurement: %s repeated to %d records by tools/bench_records.py"'
              % (sys.argv[1], n), head, flags=re.M)
body = re.sub(r"^end: .*\n?", "", body, flags=re.M)
recs = ["  - source:" + r for r in body.split("  - source:")[1:]]
batches = [int(b) for b in re.findall(r"^    batch: (\d+)$", body, flags=re.M)]
step = max(batches) + 1
if (n + len(recs) - 1) // len(recs) * step > MAX_BATCH:
    sys.exit("bench_records.py: %d records would take a batch past %d" % (n, MAX_BATCH))
out, k = [], 0
while len(out) < n:
    for r in recs:
        if len(out) == n:
            break
        r = re.sub(r"^    batch: (\d+)$", lambda m: "    batch: %d" % (int(m.group(1)) + k * step), r, flags=re.M)
        out.append(re.sub(r"^    end: \d+$", "    end: %d" % (len(out) + 1), r, flags=re.M))
    k += 1
sys.stdout.write(head + "\nrecords:\n" + "".join(out) + "end: {records: %d}\n" % n)
