# issue 52: merge --progress says each file as it reads it; --quiet none (and no
# superseded lines), the summary stays
args: merge tests/fixtures/shards/tiny.shard-1-of-3.yaml tests/fixtures/shards/tiny.shard-2-of-3.yaml tests/fixtures/shards/tiny.shard-3-of-3.yaml -o $TMP/all.yaml --progress
exit: 0
stderr: attnprof: reading file 1 of 3 (tests/fixtures/shards/tiny.shard-1-of-3.yaml)
stderr: attnprof: reading file 3 of 3 (tests/fixtures/shards/tiny.shard-3-of-3.yaml)
stderr: records from 3 files
check: "$bin" merge tests/fixtures/shards/tiny.shard-1-of-3.yaml tests/fixtures/shards/tiny.shard-2-of-3.yaml tests/fixtures/shards/rerun-2-of-3.yaml tests/fixtures/shards/tiny.shard-3-of-3.yaml -o $TMP/q.yaml --progress --quiet 2>$TMP/e; ! grep -q 'reading file\|superseded:' $TMP/e && grep -q 'records from 4 files' $TMP/e
