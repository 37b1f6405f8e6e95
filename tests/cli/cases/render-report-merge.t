# several results files merge; a key in two files is kept from the first and named once
setup: sed "s/time_ms: 1.24945, time_ms_min: 1.21196/time_ms: 1.25811, time_ms_min: 1.22003/" tests/fixtures/results-small.yaml >$TMP/small-run2.yaml
args: report tests/fixtures/results-small.yaml tests/fixtures/results-nometrics.yaml --repeat $TMP/small-run2.yaml -t templates/review.yaml -o $TMP/merged.pdf -q
needs: render
exit: 0
stderr: appear in more than one results file
stderr: wrote
file: $TMP/merged.pdf
