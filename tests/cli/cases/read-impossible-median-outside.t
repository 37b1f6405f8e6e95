# the reader refuses the impossible with its place: a median time_ms below
# the fastest launch or above the slowest (a 10x-faster median beside the old
# min and max read as an improvement; diff --fail-above exited 0)
setup: sed 's/time_ms: 1.80775,/time_ms: 0.180775,/' tests/fixtures/results-one.yaml >$TMP/imp-median-low.yaml && ! cmp -s tests/fixtures/results-one.yaml $TMP/imp-median-low.yaml
setup: sed 's/time_ms: 1.80775,/time_ms: 18.0775,/' tests/fixtures/results-one.yaml >$TMP/imp-median-high.yaml && ! cmp -s tests/fixtures/results-one.yaml $TMP/imp-median-high.yaml
args: diff tests/fixtures/results-one.yaml $TMP/imp-median-low.yaml --fail-above 5
exit: 2
stderr: imp-median-low.yaml:22:
stderr: timing.time_ms = 0.180775, the median, is outside timing.time_ms_min = 1.75352 .. time_ms_max = 1.91622: impossible
check: "$bin" export $TMP/imp-median-high.yaml --csv >/dev/null 2>$TMP/imp-high.err; test $? = 2 && grep -q 'timing.time_ms = 18.0775, the median, is outside' $TMP/imp-high.err
