args: figure tflop tests/fixtures/results-small.yaml -o $TMP/x.svg
needs: render
exit: 2
stderr: unknown figure 'tflop': did you mean 'tflops'?
