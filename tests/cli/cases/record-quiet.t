# issue 52: record --quiet says no config, even with --progress (the results file
# has them all); without it, --progress says each one
needs: gpu
args: record tests/fixtures/shards/tiny.yaml --metrics none --progress --quiet --copy-probe 0 --ceilings off -o $TMP/q.yaml
exit: 0
not-stderr: [1/
not-stderr: metric set
check: n=$("$bin" check tests/fixtures/shards/tiny.yaml --quiet | sed -n 's/.*valid: \([0-9]*\) configs.*/\1/p'); [ "$("$bin" export $TMP/q.yaml --csv | tail -n +2 | grep -c .)" = "$n" ]
check: "$bin" record tests/fixtures/shards/tiny.yaml --metrics none --progress --copy-probe 0 --ceilings off -o $TMP/p.yaml 2>&1 | grep -q '^\[1/'
