# the largest of a ratio over the sweep whose two records are of two runs
# (hopper's rung against fa2-paper's cuDNN) is refused like one ratio: the
# max carries both records, not only the one it picked
args: report experiments/results/fa2-paper.yaml experiments/results/hopper.yaml --primary experiments/results/fa2-paper.yaml -t tests/fixtures/templates/claim-two-runs-max.yaml -o $TMP/x.md -q
needs: render
exit: 2
stderr: tests/fixtures/templates/claim-two-runs-max.yaml:13:20: {max(hopper+overlap.speedup_vs.pytorch-sdpa:CUDNN_ATTENTION)} compares records of two runs, hopper.yaml and fa2-paper.yaml
