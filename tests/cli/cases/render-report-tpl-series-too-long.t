# a series name in a placeholder longer than a series key is an error (it was cut at 95 bytes, and the cut
# could name an existing series)
needs: render
args: report tests/fixtures/results-small.yaml -t tests/fixtures/templates/series-too-long.yaml -o $TMP/t.pdf -q
exit: 2
stderr: tests/fixtures/templates/series-too-long.yaml:8:
stderr: a series name is at most 95 characters
