# a shard's file is not resumed as the whole sweep
setup: cp tests/fixtures/shards/tiny.shard-1-of-3.yaml $TMP/r.yaml
args: record tests/fixtures/shards/tiny.yaml --resume -o $TMP/r.yaml
exit: 2
stderr: as the whole sweep: it holds shard 1/3
