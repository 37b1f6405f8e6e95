# an interrupted shard is named with what it lacks and how to finish it
args: merge tests/fixtures/shards/tiny.shard-1-of-3.yaml tests/fixtures/shards/partial-2-of-3.yaml tests/fixtures/shards/tiny.shard-3-of-3.yaml -o $TMP/all.yaml
exit: 0
stderr: tests/fixtures/shards/partial-2-of-3.yaml (shard 2/3 of spec 'tiny') is partial: 1 of its 4 configs is missing (attnprof/standard/prefill/fp16/B2/H4/Hkv4/Nq1024/Nkv1024/d64/c0)
stderr: finish it with 'attnprof record tests/fixtures/shards/tiny.yaml --shard 2/3 -o tests/fixtures/shards/partial-2-of-3.yaml --resume'
stderr: 11 records from 3 files, 0 superseded, 1 config missing
