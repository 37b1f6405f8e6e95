# the counter figures without their counters say what is missing and which spec records it
needs: render
args: figure warp-states tests/fixtures/results-small.yaml -o $TMP/w.pdf && "$bin" figure memory-workload tests/fixtures/results-small.yaml -o $TMP/m.pdf
exit: 0
check: pdftotext $TMP/w.pdf - | grep -q 'no warp-state counters at these conditions' && pdftotext $TMP/w.pdf - | tr '\n' ' ' | grep -q 'experiments/stalls.yaml' && pdftotext $TMP/m.pdf - | grep -q 'no memory-workload counters'
