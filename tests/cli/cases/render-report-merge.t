# several results files merge; a key in two files is kept from the first and named once
args: report tests/fixtures/results-small.yaml tests/fixtures/results-nometrics.yaml --repeat tests/fixtures/results-small.yaml -t templates/review.yaml -o $TMP/merged.pdf -q
needs: render
exit: 0
stderr: appear in more than one results file
stderr: wrote
file: $TMP/merged.pdf
