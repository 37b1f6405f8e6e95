# record --device takes a device number
args: record tests/fixtures/shards/tiny.yaml --device gpu1 -o $TMP/r.yaml
exit: 2
stderr: --device 'gpu1' must be a device number
