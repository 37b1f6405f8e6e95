# --gpus picks the shards and devices itself
args: record tests/fixtures/shards/tiny.yaml --gpus 0,1 --shard 1/2 -o $TMP/r.yaml
exit: 2
stderr: --gpus picks each process's --shard and --device itself
