# equal recording dates: the file named later in sorted path order wins
setup: mkdir -p $TMP/m && cp tests/fixtures/shards/tiny.shard-2-of-3.yaml $TMP/m/b.yaml && sed '/^    timing: {repetitions: 20, warmup: 2, /s/\(time_ms[_a-z]*: \)\([0-9]\)/\15\2/g' tests/fixtures/shards/tiny.shard-2-of-3.yaml >$TMP/m/a.yaml
args: merge $TMP/m/b.yaml $TMP/m/a.yaml -o $TMP/all.yaml
exit: 0
stderr: same date, later path
check: "$bin" export $TMP/all.yaml --csv >$TMP/o.csv && "$bin" export $TMP/m/b.yaml --csv >$TMP/b.csv && cmp $TMP/o.csv $TMP/b.csv
