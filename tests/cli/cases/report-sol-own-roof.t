# the speed-of-light table gives each variant's longest kernel its own roof (issue 47 item 4):
# standard's softmax_rows issues no MMA, so its roof is memory and it has no tensor-pipe figure;
# its shared-memory wavefronts against the measured shared-memory roof, and "not visible" for a
# wgmma/TMA kernel whose operand reads were not counted (the LSU counters do not see them), not 0 %
needs: render
args: report experiments/results/fa2-paper.yaml experiments/results/hopper.yaml --primary experiments/results/fa2-paper.yaml -t templates/review.yaml -o $TMP/r.md -q
exit: 0
check: grep -q '^| variant | longest kernel (its roof) | time | DRAM GB/s | of copy | shared of roof | tensor pipe | ceiling (path) | call of it |$' $TMP/r.md
check: grep -q '^| standard | softmax\\_rows&lt;…&gt; (memory) | [0-9.]* ms | [0-9]* | [0-9]* % | [0-9]* % | – | wgmma (cuBLAS)' $TMP/r.md
check: grep -q '^| flash2 | flash::flash\\_fwd&lt;…&gt; (tensor) | [0-9.]* ms | [0-9]* | [0-9]* % | [0-9]* % | [0-9]* % | mma.sync' $TMP/r.md
check: grep -q '^| hopper+overlap | hopper::hopper\\_fwd\\_kernel&lt;…&gt; (tensor) | [0-9.]* ms | [0-9]* | [0-9]* % | not visible | [0-9]* % | wgmma' $TMP/r.md
