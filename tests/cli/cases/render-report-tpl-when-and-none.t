# 'and' with the second condition false: results without stall counters draw only the 'not has:stalls' paragraph
needs: render
args: report tests/fixtures/results-small.yaml -t tests/fixtures/templates/when-and.yaml -o $TMP/t.pdf -q
exit: 0
file: $TMP/t.pdf
check: t=$(pdftotext $TMP/t.pdf -) && echo "$t" | grep -q marker-stalls-absent && ! echo "$t" | grep -q marker-both-true && ! echo "$t" | grep -q marker-three-true
