# --fail-above PCT: a regression beyond the spread over PCT exits 1
args: diff tests/fixtures/shards/whole.yaml tests/fixtures/shards/new.yaml --fail-above 10
exit: 1
stderr: 1 regression beyond the run-to-run spread exceeds --fail-above 10 %: worst +20.0 %
