# --trace-records naming the results input is refused, the input kept (it was replaced by the trace, exit 0)
needs: render
setup: cp tests/fixtures/results-small.yaml $TMP/tr-in.yaml; rm -f $TMP/tr-in.pdf
args: report $TMP/tr-in.yaml -t templates/review.yaml -o $TMP/tr-in.pdf -q --trace-records $TMP/tr-in.yaml
exit: 2
stderr: refusing to write
stderr: it is the results file this command reads
check: cmp tests/fixtures/results-small.yaml $TMP/tr-in.yaml
check: [ ! -e $TMP/tr-in.pdf ]
