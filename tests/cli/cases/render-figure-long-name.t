# a 255-byte figure name is written (the temporary name added .NAME.tmp.XXXXXX: "File name too long")
needs: render
args: figure tflops tests/fixtures/results-small.yaml -o $TMP/$(printf '%0251d' 0).svg
exit: 0
file: $TMP/$(printf '%0251d' 0).svg
