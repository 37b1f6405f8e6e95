# 'and' joins conditions: a paragraph is drawn only when every one holds (the counters fixture has stalls, workload, no decode)
needs: render
args: report tests/fixtures/results-counters.yaml -t tests/fixtures/templates/when-and.yaml -o $TMP/t.pdf -q
exit: 0
file: $TMP/t.pdf
check: t=$(pdftotext $TMP/t.pdf -) && echo "$t" | grep -q marker-both-true && echo "$t" | grep -q marker-three-true && ! echo "$t" | grep -q marker-stalls-absent && ! echo "$t" | grep -q marker-never
