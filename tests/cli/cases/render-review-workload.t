# the review with a captured program recorded with --workload on among its inputs: the Speed
# section says attention's share of that program's GPU time and the 2x bound (the header's) and
# draws the workload-share figure; without the list (render-impl-review.t's fixture) neither
args: report tests/fixtures/capture-workload.yaml tests/fixtures/results-small.yaml -t templates/review.yaml -o $TMP/rw.pdf -q && pdftotext $TMP/rw.pdf - | tr '\n' ' '
needs: render
exit: 0
stdout: The captured program as a whole. Attention took 97.6 % of the GPU time
stdout: at most 1.95× faster end to end (Amdahl)
stdout: The whole program's GPU time per phase
