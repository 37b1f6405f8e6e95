# --allow-partial merges a cut input's complete records, and the merged header says which input was cut and where
setup: head -c 3000 tests/fixtures/shards/tiny.shard-2-of-3.yaml >$TMP/part-2-of-3.yaml
args: merge tests/fixtures/shards/tiny.shard-1-of-3.yaml $TMP/part-2-of-3.yaml tests/fixtures/shards/tiny.shard-3-of-3.yaml -o $TMP/part-merged.yaml --allow-partial
exit: 0
stderr: part-2-of-3.yaml is cut short
check: grep -q 'merged with --allow-partial: .*part-2-of-3.yaml was cut short (record 3, at line' $TMP/part-merged.yaml
