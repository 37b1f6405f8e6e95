# the ablation table's note speaks of "single changes below" only where the
# table has them: the FA2 ladder at B=8, N=2048 has, the Hopper ladder has
# none; and the slides say which passes their records measured (run.passes)
args: report experiments/results/fa2-paper.yaml experiments/results/ablation.yaml experiments/results/hopper.yaml --primary experiments/results/fa2-paper.yaml -t templates/review.yaml -o $TMP/r.md -q
needs: render
exit: 0
check: grep -q "non-causal, fp16. step = time of the rung before / this time. Every rung from one results file" $TMP/r.md
check: grep -q "Ladder rungs above, single changes applied to flash1 below" $TMP/r.md
check: [ "$(grep -c 'Ladder rungs above' $TMP/r.md)" -eq 2 ]
check: ./attnprof report experiments/results/fa2-paper.yaml -t templates/slides.yaml -o $TMP/s.md -q && grep -q "fp16, forward and backward passes, medians" $TMP/s.md
check: ./attnprof report experiments/results/decode.yaml -t templates/slides.yaml -o $TMP/d.md -q && grep -q "fp16, forward pass, medians" $TMP/d.md
