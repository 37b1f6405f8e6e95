# Table 1 and "What ran" print what identifies the results file, not the
# recording host's folders: "attnprof record -o /root/out/capture-sdpa.yaml"
# is written with the file's name alone
args: report experiments/results/capture/capture-sdpa.yaml experiments/results/fa2-paper.yaml -t templates/impl-review.yaml -o $TMP/s.md -q
needs: render
exit: 0
check: ! grep -q "/root/out" $TMP/s.md
check: grep -q "ran under attnprof record -o capture-sdpa.yaml --force --timeout 300, recorded" $TMP/s.md
check: ./attnprof report experiments/results/fa2-paper.yaml -t templates/review.yaml -o $TMP/r.md -q && grep -q "| command | attnprof record -o fa2-paper.yaml --force --progress experiments/fa2-paper.yaml |" $TMP/r.md && ! grep -q "/root/out" $TMP/r.md
