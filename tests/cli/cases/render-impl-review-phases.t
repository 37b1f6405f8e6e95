# a call found by kernel family has no phase: the implementation's count says
# "of unknown phase", not prefill (JAX's Pallas program run with no helper)
args: report experiments/results/capture/capture-pallas.yaml experiments/results/capture/capture-pallas-unmarked.yaml -t templates/impl-review.yaml -o $TMP/p.pdf -q && pdftotext $TMP/p.pdf - | tr '\n' ' ' | tr -s ' '
needs: render
exit: 0
stdout: 6 calls (4 forward, 2 backward; 6 prefill, 0 decode)
stdout: 3 calls (2 forward, 1 backward; 0 prefill, 0 decode, 3 of unknown phase)
file: $TMP/p.pdf
