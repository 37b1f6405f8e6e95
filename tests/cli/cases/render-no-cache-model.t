# The documents called the model's DRAM bytes 'the model's minimum' / 'model minimum' while the
# measurement undercuts it (flash1 at 0.18-0.48x of it at small N: its O_acc round trips stay
# in the L2), issue 47 item 7: the model is what the loop order moves when the L2 serves none
# of it, and the review, its figures and the slides name it so, 'the no-cache model'
needs: render
args: report experiments/results/fa2-paper.yaml -t templates/review.yaml -o $TMP/nocache.md -q
exit: 0
file: $TMP/nocache.md
check: ! grep -rqiE "model minimum|model's minimum|model min\." $TMP/nocache.md $TMP/nocache_files
check: grep -qF 'the no-cache model (read Q, K, V once, write O once, nothing served by the L2) is' $TMP/nocache.md
check: grep -qF 'with the no-cache model' $TMP/nocache.md
check: grep -qF 'no-cache model' $TMP/nocache_files/fig17-hbm.svg && grep -qF 'no-cache model' $TMP/nocache_files/fig04-dataflow-standard.svg
check: "$bin" report experiments/results/fa2-paper.yaml -t templates/slides.yaml -o $TMP/nocache-s.pdf -q && ! grep -qiE "model minimum|model's minimum" $TMP/nocache-s.notes.txt && grep -qF "with the no-cache model's bytes as lines" $TMP/nocache-s.notes.txt
