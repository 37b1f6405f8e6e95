# record --shard takes K/N, checked before anything runs
args: record tests/fixtures/shards/tiny.yaml --shard 2 -o $TMP/r.yaml
exit: 2
stderr: --shard '2' must be K/N
