# the reader refuses the impossible with its place: a NUL-cut header string (it was read without a word)
setup: sed 's/host: fixture/host: "fix\\0ture"/' tests/fixtures/results-one.yaml >$TMP/imp-nul-string.yaml
args: export $TMP/imp-nul-string.yaml --csv
exit: 2
stderr: imp-nul-string.yaml:5:9: a NUL character inside a string is not accepted
