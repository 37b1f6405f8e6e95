# a template error names file:line:col and exits 2
args: report tests/fixtures/results-small.yaml -t tests/fixtures/template-bad-placeholder.yaml -o $TMP/bad.pdf
needs: render
exit: 2
stderr: tests/fixtures/template-bad-placeholder.yaml:9:34: unknown quantity 'tflop': did you mean 'tflops'?
