# --resume continues only the part the file holds: another --shard is refused, naming both
setup: cp tests/fixtures/shards/tiny.shard-1-of-3.yaml $TMP/r.yaml
args: record tests/fixtures/shards/tiny.yaml --shard 2/3 --resume -o $TMP/r.yaml
exit: 2
stderr: cannot resume
stderr: as shard 2/3: it holds shard 1/3; resume it with --shard 1/3
check: cmp tests/fixtures/shards/tiny.shard-1-of-3.yaml $TMP/r.yaml
