# the layout beside the PDF naming a results input is a usage error (exit 2, as docs/cli.md says; it was 1)
needs: render
setup: cp tests/fixtures/results-small.yaml $TMP/lo-in.layout; rm -f $TMP/lo-in.pdf
args: report $TMP/lo-in.layout -t templates/review.yaml -o $TMP/lo-in.pdf -q
exit: 2
stderr: refusing to write
check: cmp tests/fixtures/results-small.yaml $TMP/lo-in.layout
check: [ ! -e $TMP/lo-in.pdf ]
