# the order of the files on the command line does not change the merged file's bytes
args: merge tests/fixtures/shards/rerun-2-of-3.yaml tests/fixtures/shards/tiny.shard-3-of-3.yaml tests/fixtures/shards/tiny.shard-1-of-3.yaml tests/fixtures/shards/tiny.shard-2-of-3.yaml -o $TMP/a.yaml --quiet
exit: 0
check: "$bin" merge tests/fixtures/shards/tiny.shard-1-of-3.yaml tests/fixtures/shards/tiny.shard-2-of-3.yaml tests/fixtures/shards/rerun-2-of-3.yaml tests/fixtures/shards/tiny.shard-3-of-3.yaml -o $TMP/b.yaml && cmp $TMP/a.yaml $TMP/b.yaml
