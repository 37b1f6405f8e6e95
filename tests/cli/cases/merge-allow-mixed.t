# --allow-mixed merges them, each record whole, and the header's notes list every file's conditions
args: merge tests/fixtures/shards/tiny.shard-1-of-3.yaml tests/fixtures/shards/tiny.shard-2-of-3.yaml tests/fixtures/shards/driver-3-of-3.yaml --allow-mixed -o $TMP/all.yaml
exit: 0
stderr: 12 records from 3 files
check: grep -q 'merged with --allow-mixed' $TMP/all.yaml && grep -q '575.57.08' $TMP/all.yaml
check: "$bin" export $TMP/all.yaml --csv >$TMP/a.csv && "$bin" export tests/fixtures/shards/whole.yaml --csv >$TMP/w.csv && cmp $TMP/a.csv $TMP/w.csv
