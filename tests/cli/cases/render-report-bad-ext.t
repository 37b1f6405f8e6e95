# a report is a PDF, an HTML page or Markdown; anything else is refused, naming all three
needs: render
args: report tests/fixtures/results-small.yaml -t templates/review.yaml -o $TMP/r.docx
exit: 2
stderr: a report is a PDF, an HTML page or Markdown: name the output
stderr: with .pdf, .html or .md
