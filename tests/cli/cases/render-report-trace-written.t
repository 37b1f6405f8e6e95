# --trace-records through the output rule still writes the trace beside the report, no temporary left
needs: render
setup: rm -rf $TMP/trw; mkdir $TMP/trw
args: report tests/fixtures/results-small.yaml -t templates/review.yaml -o $TMP/trw/r.pdf -q --trace-records $TMP/trw/trace.txt
exit: 0
check: [ -s $TMP/trw/trace.txt ] && [ -s $TMP/trw/r.pdf ]
check: [ -z "$(ls -A $TMP/trw | grep tmp)" ]
