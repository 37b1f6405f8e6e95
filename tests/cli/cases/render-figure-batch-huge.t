# --batch beyond a spec's limit is refused: B·H of a figure's shape stays inside an int
needs: render
args: figure partition-grid tests/fixtures/results-small.yaml --batch 1073741824 -o $TMP/b.svg
exit: 2
stderr: --batch must be a whole number from 1 to 65536, not '1073741824'
