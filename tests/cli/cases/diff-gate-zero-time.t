# the gate fails closed: a time of 0 (not positive) exits 1 with the config and why (it passed)
setup: sed '0,/time_ms: [0-9.]*/s//time_ms: 0/' tests/fixtures/shards/new.yaml >$TMP/gate-zero.yaml
args: diff tests/fixtures/shards/whole.yaml $TMP/gate-zero.yaml --fail-above 50
exit: 1
stderr: gate-zero.yaml has time_ms 0, not positive: its change cannot be judged
