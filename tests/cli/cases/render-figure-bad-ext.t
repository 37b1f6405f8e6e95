args: figure tflops tests/fixtures/results-small.yaml -o $TMP/x.jpg
needs: render
exit: 2
stderr: name it .svg, .png or .pdf
