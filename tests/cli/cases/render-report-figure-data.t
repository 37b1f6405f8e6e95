# issue 46 item 5: a figure's numbers reach the writers that can only embed a
# picture: its alt text carries the values of the records it draws, and a table
# of those records (folded under the caption) follows it, in HTML and Markdown;
# figure 9 of the review (TFLOP/s over N) holds flash2's 245 TFLOP/s at N = 512,
# d = 64, as export --csv gives that record; the PDF is the same bytes with or
# without them (its writer is untouched)
needs: render
args: report tests/fixtures/results-small.yaml -t templates/review.yaml -o $TMP/d.html -q && cat $TMP/d.html
exit: 0
stdout: <table class="figdata">
stdout: <details><summary>The records Figure 9 draws (
stdout: flash2 fp16 B=32 H=32 N=512 d=64: throughput 245 TFLOP/s
stdout: <th class="num">throughput</th>
check: "$bin" export tests/fixtures/results-small.yaml --csv --variant flash2 | awk -F, '$5 == 32 && $8 == 512 && $10 == 64 && $11 == "false" && $20 == "fwd" { printf "%.0f\n", $15 }' | grep -qx 245
check: grep 'id="fig9"' -A1 $TMP/d.html | grep -q 'alt="Figure 9: .* Data: .*flash2 fp16 B=32 H=32 N=512 d=64: throughput 245 TFLOP/s'
check: n=$(grep -c '<figure id=' $TMP/d.html); [ "$(grep -c 'alt="Figure [0-9]*: ' $TMP/d.html)" = "$n" ]
check: "$bin" report tests/fixtures/results-small.yaml -t templates/review.yaml -o $TMP/d.md -q && grep -q '^!\[Figure 9: .* Data: .*flash2 fp16 B=32 H=32 N=512 d=64: throughput 245 TFLOP/s' $TMP/d.md && grep -q '^<details><summary>The records Figure 9 draws' $TMP/d.md && grep -q '^| record | throughput | median time | results file |$' $TMP/d.md
