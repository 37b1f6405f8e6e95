# the gate fails closed: a compared time that is missing (time_ms: ~) exits 1 with the config and why (it passed)
setup: sed '0,/time_ms: [0-9.]*/s//time_ms: ~/' tests/fixtures/shards/new.yaml >$TMP/gate-none.yaml
args: diff tests/fixtures/shards/whole.yaml $TMP/gate-none.yaml --fail-above 50
exit: 1
stderr: attnprof/standard/prefill/fp16/B2/H4/Hkv4/Nq256/Nkv256/d64/c0 in
stderr: gate-none.yaml has no time: its change cannot be judged
