# the correctness table: a row per gradient (dQ, dK, dV) under each series with backward records that
# kept them, each with its own errors and bounds, and the note says where the bounds come from
needs: render
args: report tests/fixtures/results-counters.yaml -t templates/review.yaml -o $TMP/r.pdf -q
exit: 0
file: $TMP/r.pdf
check: t=$(pdftotext -layout $TMP/r.pdf - | tr -s ' ') && echo "$t" | grep -q 'flash2 dK 1 1 of 1 2.20e-03 0.058 1.30e-03 0.01' && echo "$t" | grep -q 'standard dV 1 1 of 1 1.20e-03 0.044 6.00e-04' && echo "$t" | tr '\n' ' ' | grep -q 'max |err| ≤ 5e-02 (fp16) or 2e-01 (bf16)'
