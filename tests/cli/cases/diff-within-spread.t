# a change within the records' spread is no regression: +1 % (spread ±2 %) passes --fail-above 0
setup: sed 's/time_ms: 0.014684,/time_ms: 0.0148,/' tests/fixtures/shards/whole.yaml >$TMP/n.yaml
args: diff tests/fixtures/shards/whole.yaml $TMP/n.yaml --fail-above 0
exit: 0
stdout: summary: 12 configs in both: 0 regressions and 0 improvements beyond the spread, 12 within it
