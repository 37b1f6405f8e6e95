# issue 46 item 5: a figure's numbers reach the writers that can only embed a
# picture: its alt text carries the values it draws, and a table of them with
# their records (folded under the caption) follows it, in HTML and Markdown;
# figure 9 of the review (TFLOP/s over N, from its description) holds flash2's
# 245 TFLOP/s at N = 512, d = 64, as export --csv gives that record; figure 2
# (a data flow, no description yet) the records it drew with their DRAM bytes
needs: render
args: report tests/fixtures/results-small.yaml -t templates/review.yaml -o $TMP/d.html -q && cat $TMP/d.html
exit: 0
stdout: <table class="figdata">
stdout: <details><summary>The data of Figure 9 (
stdout: <tr><td>flash2 fp16 B=32 H=32 N=512 d=64</td><td>flash2</td><td class="num">245 TFLOP/s</td>
stdout: <th class="num">DRAM read</th>
check: "$bin" export tests/fixtures/results-small.yaml --csv --variant flash2 | awk -F, '$5 == 32 && $8 == 512 && $10 == 64 && $11 == "false" && $20 == "fwd" { printf "%.0f\n", $15 }' | grep -qx 245
check: grep 'id="fig9"' -A1 $TMP/d.html | grep -q 'alt="Figure 9: .* Data: .*flash2 fp16 B=32 H=32 N=512 d=64: value 245 TFLOP/s'
check: n=$(grep -c '<figure id=' $TMP/d.html); [ "$(grep -c 'alt="Figure [0-9]*: ' $TMP/d.html)" = "$n" ]
check: "$bin" report tests/fixtures/results-small.yaml -t templates/review.yaml -o $TMP/d.md -q && grep -q '^!\[Figure 9: .* Data: .*flash2 fp16 B=32 H=32 N=512 d=64: value 245 TFLOP/s' $TMP/d.md && grep -q '^<details><summary>The data of Figure 9' $TMP/d.md && grep -q '^| record | series | value | results file |$' $TMP/d.md && grep -q '^| record | DRAM read | DRAM written | peak memory | median time | results file |$' $TMP/d.md
