# an interrupted shard resumes with --resume: only its missing config runs, and the part merges whole
needs: gpu
setup: cp tests/fixtures/shards/partial-2-of-3.yaml $TMP/resume2.yaml
args: record tests/fixtures/shards/tiny.yaml --shard 2/3 --resume --metrics none --settle 0 --copy-probe 0 --reps 3 -o $TMP/resume2.yaml
exit: 0
stderr: 1 config recorded
stderr: 3 configs were already in the file, skipped (--resume)
check: "$bin" merge tests/fixtures/shards/tiny.shard-1-of-3.yaml $TMP/resume2.yaml tests/fixtures/shards/tiny.shard-3-of-3.yaml -o $TMP/resumed-all.yaml --allow-mixed 2>&1 | grep -q '12 records from 3 files, 0 superseded, 0 configs missing'
