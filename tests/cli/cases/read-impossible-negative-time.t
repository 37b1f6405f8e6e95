# the reader refuses the impossible with its place: a negative time_ms beside a positive minimum (it was read without a word)
setup: sed 's/time_ms: 1.80775,/time_ms: -1.8,/' tests/fixtures/results-one.yaml >$TMP/imp-negative-time.yaml
args: export $TMP/imp-negative-time.yaml --csv
exit: 2
stderr: imp-negative-time.yaml:22:51: timing.time_ms = -1.8 is impossible
