args: report tests/fixtures/results-small.yaml -t templates/review.yaml -o $TMP/x.svg
needs: render
exit: 2
stderr: a report is a PDF
