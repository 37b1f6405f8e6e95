# report does not write over one of its inputs
needs: render
setup: cp tests/fixtures/results-small.yaml $TMP/res.pdf
args: report $TMP/res.pdf -t templates/review.yaml -o $TMP/res.pdf -q
exit: 2
stderr: refusing to write
check: cmp tests/fixtures/results-small.yaml $TMP/res.pdf
