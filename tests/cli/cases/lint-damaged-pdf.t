# lint on a PDF cut short, with its layout beside it: the PDF is damaged (it blamed a missing poppler-utils)
needs: render
args: lint $TMP/cut.pdf
setup: ./attnprof report tests/fixtures/results-small.yaml -t templates/review.yaml -o $TMP/cut.pdf -q 2>/dev/null && head -c 3000 $TMP/cut.pdf >$TMP/cut.tmp && mv $TMP/cut.tmp $TMP/cut.pdf
exit: 2
stderr: pdftotext could not read '
stderr: the PDF is damaged or cut short
not-stderr: install poppler
