# the same ratio named a cross-run comparison (across_runs) is drawn, and the sentence says so
args: report experiments/results/fa2-paper.yaml experiments/results/ablation.yaml --primary experiments/results/fa2-paper.yaml -t tests/fixtures/templates/claim-across-runs.yaml -o $TMP/x.md -q && cat $TMP/x.md
needs: render
exit: 0
stdout: Sequence parallelism gives ×2.31 (across runs: ablation, fa2-paper).
