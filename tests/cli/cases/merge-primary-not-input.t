# --primary names one of the files to merge
args: merge tests/fixtures/shards/tiny.shard-1-of-3.yaml tests/fixtures/shards/tiny.shard-2-of-3.yaml --primary tests/fixtures/shards/whole.yaml -o $TMP/all.yaml
exit: 2
stderr: --primary 'tests/fixtures/shards/whole.yaml' is not one of the files to merge
