# record --device I beyond the visible GPUs is refused, saying how many there are
needs: gpu
args: record tests/fixtures/shards/tiny.yaml --device 99 --metrics none -o $TMP/dev99.yaml
exit: 2
stderr: --device 99: device 99 is not visible
check: [ ! -e $TMP/dev99.yaml ]
