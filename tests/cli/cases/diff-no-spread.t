# a record without its min/max has no spread to judge a change by: said, and not counted either way
# (--allow-missing: without it the gate fails closed, diff-gate-no-spread.t)
setup: sed '0,/time_ms_min: [0-9.]*/s//time_ms_min: ~/' tests/fixtures/shards/whole.yaml >$TMP/nospread.yaml
args: diff tests/fixtures/shards/whole.yaml $TMP/nospread.yaml --fail-above 0 --allow-missing
exit: 0
stdout: 1.000    +0.0%  spread unknown
stdout: 11 within it, 1 without a recorded spread
