# the reader refuses the impossible with its place: a !!binary header string (it was read without a word)
setup: sed 's/host: fixture/host: !!binary aGVsbG8=/' tests/fixtures/results-one.yaml >$TMP/imp-binary-tag.yaml
args: export $TMP/imp-binary-tag.yaml --csv
exit: 2
stderr: imp-binary-tag.yaml:5:9: the tag '!!binary' is not accepted
