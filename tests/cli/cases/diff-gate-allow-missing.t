# --allow-missing opts out explicitly: the gap is a warning and the gate passes on what it could compare
setup: sed '0,/time_ms: [0-9.]*/s//time_ms: 0/' tests/fixtures/shards/new.yaml >$TMP/gate-allow.yaml
args: diff tests/fixtures/shards/whole.yaml $TMP/gate-allow.yaml --fail-above 50 --allow-missing
exit: 0
stderr: warning: --fail-above:
stderr: --allow-missing: 1 gap in the evidence said, not failed
