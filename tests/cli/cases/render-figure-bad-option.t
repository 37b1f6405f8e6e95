args: figure tflops tests/fixtures/results-small.yaml --dpii 100 -o $TMP/x.png
needs: render
exit: 2
stderr: unknown option '--dpii': did you mean '--dpi'?
