# a 6000-byte GPU name reaches the review's tables and text cut at a character, marked "…": no invalid UTF-8 for
# Pango (its warnings: a run vanished) and a valid HTML page (table cells were cut by bytes)
needs: render
args: report tests/fixtures/results/gpu-name-long.yaml -t templates/review.yaml -o $TMP/g.html -q
exit: 0
not-stderr: Pango
check: python3 -c "import sys; open(sys.argv[1], 'rb').read().decode('utf-8')" $TMP/g.html
