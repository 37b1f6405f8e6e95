# record --shard 2/3 runs exactly the part check lists, and writes the part in the header
needs: gpu
args: record tests/fixtures/shards/tiny.yaml --shard 2/3 --metrics none --settle 0 --copy-probe 0 --reps 3 -o $TMP/part2.yaml
exit: 0
check: grep -q '^  shard: 2/3$' $TMP/part2.yaml
check: [ $("$bin" export $TMP/part2.yaml --csv | tail -n +2 | wc -l) = 4 ]
