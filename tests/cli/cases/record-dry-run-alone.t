# --dry-run goes with --gpus
args: record tests/fixtures/shards/tiny.yaml --dry-run -o $TMP/r.yaml
exit: 2
stderr: --dry-run goes with --gpus
