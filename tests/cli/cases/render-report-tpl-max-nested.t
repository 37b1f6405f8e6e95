# max(max(x)) says they do not nest (it said "unknown variant 'max'")
needs: render
args: report tests/fixtures/results-small.yaml -t tests/fixtures/templates/max-nested.yaml -o $TMP/t.pdf -q
exit: 2
stderr: tests/fixtures/templates/max-nested.yaml:8:
stderr: max() and min() do not nest
