# record --gpus LIST --dry-run prints one process per GPU, each its own shard, device and part file, then the merge
args: record tests/fixtures/shards/tiny.yaml --gpus 0,1,3 --dry-run --metrics none -o $TMP/run.yaml
exit: 0
stdout: record tests/fixtures/shards/tiny.yaml --shard 1/3 --device 0 -o
stdout: record tests/fixtures/shards/tiny.yaml --shard 2/3 --device 1 -o
stdout: record tests/fixtures/shards/tiny.yaml --shard 3/3 --device 3 -o
stdout: run.shard-3-of-3.yaml --metrics none &
stdout: wait
stdout: attnprof merge
check: "$bin" record tests/fixtures/shards/tiny.yaml --gpus 0,1,3 --dry-run -o $TMP/run.yaml | tail -1 | grep -q "run.shard-1-of-3.yaml .*run.shard-2-of-3.yaml .*run.shard-3-of-3.yaml -o .*run.yaml$"
