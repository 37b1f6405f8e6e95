# record --gpus starts one process per GPU; with no GPU each says so and writes nothing: nothing is merged, named with how many parts are missing
needs: no-gpu
args: record tests/fixtures/shards/tiny.yaml --gpus 0,1 --metrics none -o $TMP/gpus.yaml
exit: 3
stderr: shard 1/2 on GPU 0
stderr: shard 2/2 on GPU 1
stderr: 2 of 2 parts were not written: nothing merged
check: [ ! -e $TMP/gpus.yaml ]
