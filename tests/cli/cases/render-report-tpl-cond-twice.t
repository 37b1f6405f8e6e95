# a condition given twice is an error (the last one won)
needs: render
args: report tests/fixtures/results-small.yaml -t tests/fixtures/templates/cond-twice.yaml -o $TMP/t.pdf -q
exit: 2
stderr: tests/fixtures/templates/cond-twice.yaml:8:
stderr: condition 'N' is given twice
