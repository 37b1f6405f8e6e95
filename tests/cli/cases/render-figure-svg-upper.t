# figure extensions are read without case: -o X.SVG is an SVG
needs: render
args: figure tflops tests/fixtures/results-small.yaml -o $TMP/F.SVG
exit: 0
check: grep -q '<svg' $TMP/F.SVG
