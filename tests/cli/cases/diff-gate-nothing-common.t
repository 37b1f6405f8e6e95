# the gate fails closed: two files with no config in common compared nothing: exit 1 (it passed)
args: diff tests/fixtures/shards/whole.yaml tests/fixtures/results-one.yaml --fail-above 50
exit: 1
stderr: have no config in common: nothing was compared
