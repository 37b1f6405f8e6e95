# an unknown function is named as one (it said "unknown variant 'avg'")
needs: render
args: report tests/fixtures/results-small.yaml -t tests/fixtures/templates/func-unknown.yaml -o $TMP/t.pdf -q
exit: 2
stderr: tests/fixtures/templates/func-unknown.yaml:8:
stderr: unknown function 'avg(': only max() and min()
