# a results file without hardware counters renders and names the gap and its fix
args: report tests/fixtures/results-nometrics.yaml -t templates/review.yaml -o $TMP/nomet.pdf -q
needs: render
exit: 0
stderr: have no hardware counters
stderr: re-run 'attnprof record'
file: $TMP/nomet.pdf
