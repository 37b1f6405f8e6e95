# a 100 000-character word is laid out (Pango alone is quadratic: 4.4 s for 32 000); its time is measured by make bench, not asserted here
needs: render
args: report tests/fixtures/results-small.yaml -t tests/fixtures/templates/long-word.yaml -o $TMP/word.pdf -q
exit: 0
file: $TMP/word.pdf
