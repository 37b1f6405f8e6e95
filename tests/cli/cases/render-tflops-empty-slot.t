# Slide 16's TFLOP/s bars (values printed on them) left hopper+overlap's slots at N = 512 and 1k
# empty with no word, where hopper.yaml has no record (issue 47 item 7, 'empty slots marked
# "not measured"'): an empty slot among labelled bars says 'not measured', once a slot
needs: render
args: report experiments/results/fa2-paper.yaml experiments/results/hopper.yaml -t tests/fixtures/templates/slides-tflops-only.yaml -o $TMP/emptyslot.pdf -q
exit: 0
file: $TMP/emptyslot.layout
check: test "$(grep -c '^text .* figure .* not measured$' $TMP/emptyslot.layout)" -eq 2
# the words lie clear of the grid lines (knocked out as the values are): lint 0
check: "$bin" lint $TMP/emptyslot.pdf
