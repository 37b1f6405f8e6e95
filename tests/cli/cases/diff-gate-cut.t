# the gate fails closed: a new file cut short exits 1 (its complete records compared, the rest never were)
setup: head -c 3000 tests/fixtures/shards/new.yaml >$TMP/gate-cut.yaml
args: diff tests/fixtures/shards/whole.yaml $TMP/gate-cut.yaml --fail-above 50
exit: 1
stderr: gate-cut.yaml is cut short: the configs after the cut are not compared
