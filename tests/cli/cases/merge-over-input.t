# the merged file is never one of the inputs
setup: cp tests/fixtures/shards/tiny.shard-1-of-3.yaml $TMP/a.yaml
args: merge $TMP/a.yaml tests/fixtures/shards/tiny.shard-2-of-3.yaml -o $TMP/a.yaml
exit: 2
stderr: is one of the files to merge
check: cmp $TMP/a.yaml tests/fixtures/shards/tiny.shard-1-of-3.yaml
