# a condition without a value says so
needs: render
args: report tests/fixtures/results-small.yaml -t tests/fixtures/templates/cond-empty.yaml -o $TMP/t.pdf -q
exit: 2
stderr: tests/fixtures/templates/cond-empty.yaml:8:
stderr: expected a value after 'N='
