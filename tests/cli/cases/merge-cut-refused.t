# merge refuses an input cut short (its lost records would not show in the merged file): exit 2, nothing written
setup: head -c 3000 tests/fixtures/shards/tiny.shard-2-of-3.yaml >$TMP/cut-2-of-3.yaml
args: merge tests/fixtures/shards/tiny.shard-1-of-3.yaml $TMP/cut-2-of-3.yaml tests/fixtures/shards/tiny.shard-3-of-3.yaml -o $TMP/cut-merged.yaml
exit: 2
stderr: cut-2-of-3.yaml is cut short (record 3, at line
stderr: merge refuses a cut input
check: test ! -e $TMP/cut-merged.yaml
