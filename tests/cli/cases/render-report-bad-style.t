args: report tests/fixtures/results-small.yaml -t templates/review.yaml --style neon -o $TMP/x.pdf
needs: render
exit: 2
stderr: unknown style 'neon'
