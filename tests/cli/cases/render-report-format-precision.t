# %.999999999f is refused before anything is formatted (it took 63 s to print)
needs: render
args: report tests/fixtures/results-small.yaml -t tests/fixtures/templates/format-precision.yaml -o $TMP/prec.pdf -q
exit: 2
stderr: tests/fixtures/templates/format-precision.yaml:8:46: unknown format
stderr: precision up to 12
