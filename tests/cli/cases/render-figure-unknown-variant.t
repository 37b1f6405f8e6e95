args: figure dataflow tests/fixtures/results-small.yaml --variant flash3 -o $TMP/x.svg
needs: render
exit: 2
stderr: unknown variant 'flash3'
