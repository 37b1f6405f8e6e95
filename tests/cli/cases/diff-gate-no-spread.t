# the gate fails closed: 10x slower with no time_ms_min/time_ms_max has no spread to judge by: exit 1 (it passed)
setup: sed '0,/time_ms: [0-9.]*, time_ms_min: [0-9.]*, time_ms_max: [0-9.]*/s//time_ms: 0.147, time_ms_min: ~, time_ms_max: ~/' tests/fixtures/shards/new.yaml >$TMP/gate-nospread.yaml
args: diff tests/fixtures/shards/whole.yaml $TMP/gate-nospread.yaml --fail-above 50
exit: 1
stderr: has no run-to-run spread (time_ms_min, time_ms_max) in
stderr: the gate fails closed on missing evidence; --allow-missing lets it pass with warnings
