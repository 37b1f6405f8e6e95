# height: 0 is refused with its place and the range (it exited 2 with no message)
needs: render
args: report tests/fixtures/results-small.yaml -t tests/fixtures/templates/height-zero.yaml -o $TMP/h0.pdf
exit: 2
stderr: tests/fixtures/templates/height-zero.yaml:9:17: height is the figure's height / width: more than 0, at most 3
