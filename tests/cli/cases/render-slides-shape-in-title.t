# slides 11, 14 and 19 drew the ablation's shape (B = 8, N = 2048) in a deck whose default is
# N = 4096 (B·N = 16k) without saying so: their titles name the shape (kept on one line)
needs: render
args: report experiments/results/fa2-paper.yaml experiments/results/ablation.yaml --primary experiments/results/fa2-paper.yaml -t templates/slides.yaml -o $TMP/s.md -q
exit: 0
file: $TMP/s.md
check: grep -q 'FA2 swaps the loops (B.*=.*8, N.*=.*2048): O stays in registers' $TMP/s.md
check: grep -q 'Split-Q removes the shared-memory exchange (B.*=.*8, N.*=.*2048): store wavefronts' $TMP/s.md
check: grep -q 'The ablation at B.*=.*8, N.*=.*2048: ' $TMP/s.md
