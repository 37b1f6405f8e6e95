# files of different GPUs are refused, naming the field
setup: sed 's/name: NVIDIA H200/name: NVIDIA H100 80GB HBM3/' tests/fixtures/shards/tiny.shard-3-of-3.yaml >$TMP/h100.yaml
args: merge tests/fixtures/shards/tiny.shard-1-of-3.yaml $TMP/h100.yaml -o $TMP/all.yaml
exit: 2
stderr: differ in header.gpu.name
