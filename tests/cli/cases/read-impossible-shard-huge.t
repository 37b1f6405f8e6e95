# the reader refuses the impossible with its place: shard 1/99999999999 (it wrapped through %d) (it was read without a word)
setup: sed 's/^  host: fixture/  host: fixture\n  shard: 1\/99999999999/' tests/fixtures/results-one.yaml >$TMP/imp-shard-huge.yaml
args: export $TMP/imp-shard-huge.yaml --csv
exit: 2
stderr: imp-shard-huge.yaml:6:10: header.shard must be K/N
