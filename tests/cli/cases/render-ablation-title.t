# each ablation table's title names its ladder and shape: the review has three (flash1 →
# flash2 at B=8, N=2048 and at B=1, N=16384, and the Hopper rungs flash2 → hopper+overlap at
# B=4, N=4096), which all read "The ablation ladder, step by step" — Table 16, the Hopper
# rungs, was no ablation of FA2's three changes
args: report experiments/results/fa2-paper.yaml experiments/results/ablation.yaml experiments/results/hopper.yaml --primary experiments/results/fa2-paper.yaml -t templates/review.yaml -o $TMP/r.md -q
needs: render
exit: 0
check: grep -q '^\*\*Table [0-9]*\.\*\* The flash1 → flash2 ladder at B=8, H=16, N=2048, d=128, step by step\.$' $TMP/r.md
check: grep -q '^\*\*Table [0-9]*\.\*\* The flash1 → flash2 ladder at B=1, H=16, N=16384, d=128, step by step\.$' $TMP/r.md
check: grep -q '^\*\*Table [0-9]*\.\*\* The flash2 → hopper+overlap ladder at B=4, H=16, N=4096, d=128, step by step\.$' $TMP/r.md
check: ! grep -q 'The ablation ladder, step by step' $TMP/r.md
