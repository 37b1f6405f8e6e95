# figure does not write over its results file
needs: render
setup: cp tests/fixtures/results-small.yaml $TMP/res.svg
args: figure tflops $TMP/res.svg -o $TMP/res.svg
exit: 2
stderr: refusing to write
check: cmp tests/fixtures/results-small.yaml $TMP/res.svg
