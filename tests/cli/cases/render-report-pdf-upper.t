# -o X.PDF: its layout is X.layout as for X.pdf (it was X.PDF.layout), and lint finds it
needs: render
args: report tests/fixtures/results-small.yaml -t templates/review.yaml -o $TMP/R.PDF -q
exit: 0
file: $TMP/R.layout
check: ./attnprof lint $TMP/R.PDF
