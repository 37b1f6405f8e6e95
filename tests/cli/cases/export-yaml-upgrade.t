# export --yaml rewrites a format-1 file in format 2 with its end markers, losing nothing
args: export tests/fixtures/results-export.yaml --yaml -o $TMP/up.yaml
exit: 0
check: grep -q "^format: attnprof-results/2" $TMP/up.yaml && grep -q "^end: {records: " $TMP/up.yaml
check: "$bin" export tests/fixtures/results-export.yaml --json > $TMP/a.json && "$bin" export $TMP/up.yaml --json > $TMP/b.json && cmp $TMP/a.json $TMP/b.json
