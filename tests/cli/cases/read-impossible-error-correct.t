# the reader refuses the impossible with its place: an error of 1e308 beside correct: true (it was read without a word)
setup: sed 's/rel_l2_err: 0.000405/rel_l2_err: 1e308/' tests/fixtures/results-one.yaml >$TMP/imp-error-correct.yaml
args: export $TMP/imp-error-correct.yaml --csv
exit: 2
stderr: imp-error-correct.yaml:24:82: correctness.rel_l2_err = 1e+308 beside correct: true is impossible
