# {table:} is an error (it printed 'table:')
needs: render
args: report tests/fixtures/results-small.yaml -t tests/fixtures/templates/table-empty.yaml -o $TMP/t.pdf -q
exit: 2
stderr: tests/fixtures/templates/table-empty.yaml:8:
stderr: expected a table kind after 'table:'
