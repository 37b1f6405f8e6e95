# the same results file given twice is not a second run of every record: refused
needs: render
args: report tests/fixtures/results-small.yaml ./tests/fixtures/results-small.yaml -t templates/review.yaml -o $TMP/twice.pdf
exit: 2
stderr: is given twice: one file is one run
check: test ! -e $TMP/twice.pdf
