# a sentence's ratio of records of two runs (fa2-paper's flash1 over
# ablation's flash1+seqpar) is refused at build time, naming the place and both files
args: report experiments/results/fa2-paper.yaml experiments/results/ablation.yaml --primary experiments/results/fa2-paper.yaml -t tests/fixtures/templates/claim-two-runs.yaml -o $TMP/x.md -q
needs: render
exit: 2
stderr: tests/fixtures/templates/claim-two-runs.yaml:12:41: {flash1+seqpar.speedup_vs.flash1@B=8,N=2048|%.2f} compares records of two runs, ablation.yaml and fa2-paper.yaml
