# the same 6000-byte GPU name in the review as a PDF: no invalid UTF-8 reaches Pango
needs: render
args: report tests/fixtures/results/gpu-name-long.yaml -t templates/review.yaml -o $TMP/g.pdf -q
exit: 0
not-stderr: Pango
not-stderr: UTF-8
