# records from before per-gradient errors: the correctness table has no gradient rows and no note on them
needs: render
args: report tests/fixtures/results-small.yaml -t templates/review.yaml -o $TMP/r.pdf -q
exit: 0
file: $TMP/r.pdf
check: t=$(pdftotext -layout $TMP/r.pdf -) && echo "$t" | grep -q 'Correctness against the fp64 reference' && ! echo "$t" | grep -qE '^ *(flash2|standard) d[QKV] ' && ! echo "$t" | grep -q 'Rows dQ, dK, dV'
