# a part no input holds is named
args: merge tests/fixtures/shards/tiny.shard-1-of-3.yaml tests/fixtures/shards/tiny.shard-3-of-3.yaml -o $TMP/all.yaml
exit: 0
stderr: shard 2/3 of spec 'tiny' is not among the inputs: its 4 configs are missing
