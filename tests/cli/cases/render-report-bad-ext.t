# a report is a PDF or an HTML page; anything else is refused, naming both
needs: render
args: report tests/fixtures/results-small.yaml -t templates/review.yaml -o $TMP/r.docx
exit: 2
stderr: a report is a PDF or an HTML page: name the output
