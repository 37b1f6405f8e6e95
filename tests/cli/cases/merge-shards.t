# the three shards merged hold the single run's records, in its order: their export is the single run's
args: merge tests/fixtures/shards/tiny.shard-2-of-3.yaml tests/fixtures/shards/tiny.shard-3-of-3.yaml tests/fixtures/shards/tiny.shard-1-of-3.yaml -o $TMP/all.yaml
exit: 0
stderr: all.yaml: 12 records from 3 files, 0 superseded, 0 configs missing
not-stderr: warning
check: "$bin" export $TMP/all.yaml --csv >$TMP/a.csv && "$bin" export tests/fixtures/shards/whole.yaml --csv >$TMP/w.csv && cmp $TMP/a.csv $TMP/w.csv
check: ! grep -q '^  shard:' $TMP/all.yaml
