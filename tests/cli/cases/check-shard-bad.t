# a shard beyond its count is refused with the form to use
args: check tests/fixtures/shards/tiny.yaml --shard 4/3
exit: 2
stderr: --shard '4/3' must be K/N, part K of N counted from 1
