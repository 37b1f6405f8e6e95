# files of different specs are refused, naming the field
args: merge tests/fixtures/shards/tiny.shard-1-of-3.yaml tests/fixtures/results-one.yaml -o $TMP/all.yaml
exit: 2
stderr: differ in header.spec.name ('fixture-one' against 'tiny')
