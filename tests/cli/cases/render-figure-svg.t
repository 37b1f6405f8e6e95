args: figure dataflow-compare tests/fixtures/results-small.yaml --variant standard --compare flash2 --n 4096 -o $TMP/df.svg
needs: render
exit: 0
file: $TMP/df.svg
