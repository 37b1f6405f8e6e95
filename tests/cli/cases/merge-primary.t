# --primary FILE: its records win every duplicate, though older
args: merge tests/fixtures/shards/tiny.shard-1-of-3.yaml tests/fixtures/shards/tiny.shard-2-of-3.yaml tests/fixtures/shards/tiny.shard-3-of-3.yaml tests/fixtures/shards/rerun-2-of-3.yaml --primary tests/fixtures/shards/tiny.shard-2-of-3.yaml -o $TMP/all.yaml
exit: 0
stderr: in tests/fixtures/shards/rerun-2-of-3.yaml (record 1, recorded 2026-12-01T11:00:00Z) by tests/fixtures/shards/tiny.shard-2-of-3.yaml
stderr: : --primary
check: "$bin" export $TMP/all.yaml --csv >$TMP/a.csv && "$bin" export tests/fixtures/shards/whole.yaml --csv >$TMP/w.csv && cmp $TMP/a.csv $TMP/w.csv
