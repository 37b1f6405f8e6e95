# a missing results file is bad input
args: report no/such/results.yaml -t templates/review.yaml -o $TMP/x.pdf
needs: render
exit: 2
stderr: cannot open results file 'no/such/results.yaml'
