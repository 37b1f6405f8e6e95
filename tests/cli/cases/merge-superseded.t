# a duplicate identity: the newer recording wins, and each superseded record is named
args: merge tests/fixtures/shards/tiny.shard-1-of-3.yaml tests/fixtures/shards/tiny.shard-2-of-3.yaml tests/fixtures/shards/tiny.shard-3-of-3.yaml tests/fixtures/shards/rerun-2-of-3.yaml -o $TMP/all.yaml
exit: 0
stderr: superseded: attnprof/flash2/prefill/fp16/B2/H4/Hkv4/Nq256/Nkv256/d64/c0 in tests/fixtures/shards/tiny.shard-2-of-3.yaml
stderr: by tests/fixtures/shards/rerun-2-of-3.yaml (record 2, recorded 2026-12-01T11:00:00Z): newer recording
stderr: 12 records from 4 files, 4 superseded
check: "$bin" export $TMP/all.yaml --csv >$TMP/a.csv && "$bin" export tests/fixtures/shards/rerun-2-of-3.yaml --csv | tail -n +2 | while read -r l; do grep -qxF "$l" $TMP/a.csv || exit 1; done
