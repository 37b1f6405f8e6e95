# dates are instants: 2026-12-02T10:00:00+09:00 (01:00 UTC) is older than 2026-12-02T02:14:50Z, so the
# Z file wins although its path sorts first (the first 19 characters compared as text made +09:00 newest)
setup: mkdir -p $TMP/m && sed 's/^  date: .*/  date: 2026-12-02T02:14:50Z/' tests/fixtures/shards/tiny.shard-2-of-3.yaml >$TMP/m/a.yaml && sed 's/^  date: .*/  date: 2026-12-02T10:00:00+09:00/; /^    timing: {repetitions: 20, warmup: 2, /s/\(time_ms[_a-z]*: \)\([0-9]\)/\15\2/g' tests/fixtures/shards/tiny.shard-2-of-3.yaml >$TMP/m/z.yaml
args: merge $TMP/m/z.yaml $TMP/m/a.yaml -o $TMP/all.yaml
exit: 0
stderr: newer recording
check: "$bin" export $TMP/all.yaml --csv >$TMP/o.csv && "$bin" export $TMP/m/a.yaml --csv >$TMP/a.csv && cmp $TMP/o.csv $TMP/a.csv
