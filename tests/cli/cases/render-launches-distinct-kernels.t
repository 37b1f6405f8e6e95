# the kernel-launches table (review Table 9) shortened four hopper kernels (template instances
# of one function) to one text, 'hopper::hopper_fwd_kernel<…>', in four rows and four times in
# its note: kernels that share a short name are numbered among themselves, row and note alike
needs: render
args: report experiments/results/fa2-paper.yaml experiments/results/hopper.yaml --primary experiments/results/fa2-paper.yaml -t templates/review.yaml -o $TMP/l.md -q
exit: 0
file: $TMP/l.md
check: grep -F 'hopper::hopper\_fwd\_kernel&lt;…&gt; (4) = \_ZN6hopper17hopper\_fwd\_kernelILi128ELb0ELb0ELi3E' $TMP/l.md
check: grep -F '| hopper+overlap |' $TMP/l.md | grep -qF 'hopper::hopper\_fwd\_kernel&lt;…&gt; (4)'
check: grep -F 'flash::flash\_fwd&lt;…&gt; (2) = \_ZN5flash9flash\_fwdI6\_\_halfLi128ELb1ELb1ELb1E' $TMP/l.md
check: ! grep -F 'in full:' $TMP/l.md | grep -qF 'hopper::hopper\_fwd\_kernel&lt;…&gt; = '
