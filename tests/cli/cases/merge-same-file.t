# one file under two names is refused: it would supersede itself
args: merge tests/fixtures/shards/tiny.shard-1-of-3.yaml ./tests/fixtures/shards/tiny.shard-1-of-3.yaml -o $TMP/twice.yaml
exit: 2
stderr: are one file: give each results file once
