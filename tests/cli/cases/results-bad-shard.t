# a results header's shard must be K/N
setup: sed 's|^  shard: 1/3|  shard: 4/3|' tests/fixtures/shards/tiny.shard-1-of-3.yaml >$TMP/bad.yaml
args: export $TMP/bad.yaml --csv
exit: 2
stderr: header.shard must be K/N
