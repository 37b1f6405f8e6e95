args: figure partition-grid tests/fixtures/results-small.yaml --style patent --dpi 100 -o $TMP/grid.png
needs: render
exit: 0
file: $TMP/grid.png
