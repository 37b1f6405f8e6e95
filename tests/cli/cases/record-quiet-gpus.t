# issue 52: record --quiet goes to every process --gpus starts (none says its configs)
args: record tests/fixtures/shards/tiny.yaml --gpus 0,1 --dry-run --quiet --metrics none -o $TMP/run.yaml
exit: 0
stdout: record tests/fixtures/shards/tiny.yaml --shard 1/2 --device 0 -o
stdout: run.shard-2-of-2.yaml --quiet --metrics none &
