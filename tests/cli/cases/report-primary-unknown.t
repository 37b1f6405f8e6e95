# --primary must name one of the results files given
needs: render
args: report tests/fixtures/results-small.yaml -t templates/review.yaml -o $TMP/r.pdf --primary nonesuch.yaml
exit: 2
stderr: --primary 'nonesuch.yaml' is not one of the results files given
