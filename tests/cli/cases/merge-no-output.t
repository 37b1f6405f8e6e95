# merge needs -o
args: merge tests/fixtures/shards/tiny.shard-1-of-3.yaml
exit: 2
stderr: merge needs -o FILE
