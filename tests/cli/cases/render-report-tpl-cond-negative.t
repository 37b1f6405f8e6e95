# @N=-1 names its value and what N takes (it said "bad value '' for N")
needs: render
args: report tests/fixtures/results-small.yaml -t tests/fixtures/templates/cond-negative.yaml -o $TMP/t.pdf -q
exit: 2
stderr: tests/fixtures/templates/cond-negative.yaml:8:
stderr: bad value '-1' for N: a whole number from 1
