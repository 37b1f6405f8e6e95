# --fail-above PCT: a regression under PCT passes
args: diff tests/fixtures/shards/whole.yaml tests/fixtures/shards/new.yaml --fail-above 25
exit: 0
not-stderr: error
