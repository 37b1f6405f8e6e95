# the reader refuses the impossible with its place: time_ms_max below time_ms_min (it was read without a word)
setup: sed 's/time_ms_max: 1.91622/time_ms_max: 1.5/' tests/fixtures/results-one.yaml >$TMP/imp-max-below-min.yaml
args: export $TMP/imp-max-below-min.yaml --csv
exit: 2
stderr: imp-max-below-min.yaml:22:95: timing.time_ms_max = 1.5 is below timing.time_ms_min = 1.75352
