# -o X.HTML is an HTML page as X.html is (it was refused while X.PDF was accepted); its figures in X_files/
needs: render
args: report tests/fixtures/results-small.yaml -t templates/review.yaml -o $TMP/R.HTML -q
exit: 0
file: $TMP/R.HTML
file: $TMP/R_files
