# the reader refuses the impossible with its place: an infinite time (it was read without a word)
setup: sed 's/time_ms: 1.80775,/time_ms: .inf,/' tests/fixtures/results-one.yaml >$TMP/imp-inf-time.yaml
args: export $TMP/imp-inf-time.yaml --csv
exit: 2
stderr: imp-inf-time.yaml:22:51: timing.time_ms = .inf is impossible
