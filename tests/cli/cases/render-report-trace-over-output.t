# --trace-records naming the report's own output (as ./NAME) is refused: the trace vanished under the PDF, exit 0
needs: render
setup: rm -f $TMP/tr-out.pdf $TMP/tr-out.layout
args: report tests/fixtures/results-small.yaml -t templates/review.yaml -o $TMP/tr-out.pdf -q --trace-records $TMP/./tr-out.pdf
exit: 2
stderr: refusing to write
stderr: twice
check: [ ! -e $TMP/tr-out.pdf ]
