# two processes on one GPU would time each other: a device named twice is refused
args: record tests/fixtures/shards/tiny.yaml --gpus 0,1,0 --dry-run -o $TMP/r.yaml
exit: 2
stderr: names device 0 twice
