# the parts of check --shard K/3 are disjoint and together the sweep (the rows, sorted, are the whole check's)
args: check tests/fixtures/shards/tiny.yaml
exit: 0
check: for k in 1 2 3; do "$bin" check tests/fixtures/shards/tiny.yaml --shard $k/3 | grep ' prefill '; done | sort >$TMP/parts && "$bin" check tests/fixtures/shards/tiny.yaml | grep ' prefill ' | sort >$TMP/whole && cmp $TMP/parts $TMP/whole && [ $(wc -l <$TMP/whole) = 12 ]
