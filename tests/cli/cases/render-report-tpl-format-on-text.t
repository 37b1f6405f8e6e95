# a format on a text value is an error (it was ignored)
needs: render
args: report tests/fixtures/results-small.yaml -t tests/fixtures/templates/format-on-text.yaml -o $TMP/t.pdf -q
exit: 2
stderr: tests/fixtures/templates/format-on-text.yaml:8:
stderr: formats a number, and this value is text
