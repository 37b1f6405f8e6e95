# figure diff: per identity both files recorded, new ÷ base time with both
# records' spread; its caption counts the verdicts (as attnprof diff does)
needs: render
setup: sed 's/^  date: .*/  date: 2026-12-05T10:00:00Z/' tests/fixtures/results-small.yaml >$TMP/newer.yaml
args: figure diff tests/fixtures/results-small.yaml $TMP/newer.yaml -o $TMP/diff.pdf
exit: 0
check: pdftotext $TMP/diff.pdf - | tr '\n' ' ' | grep -q '110 configurations in two files (the largest changes drawn): 0 slower and 0 faster beyond the spread'
