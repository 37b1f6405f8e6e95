# shards of different drivers are refused (exit 2), naming both files and the field; nothing is written
args: merge tests/fixtures/shards/tiny.shard-1-of-3.yaml tests/fixtures/shards/tiny.shard-2-of-3.yaml tests/fixtures/shards/driver-3-of-3.yaml -o $TMP/mixed-driver.yaml
exit: 2
stderr: 'tests/fixtures/shards/driver-3-of-3.yaml' and 'tests/fixtures/shards/tiny.shard-1-of-3.yaml' differ in header.gpu.driver ('575.57.08' against '580.159.04')
stderr: --allow-mixed
check: [ ! -e $TMP/mixed-driver.yaml ]
