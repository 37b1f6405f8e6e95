# a table cell whose record has no measurement of the column's quantity must print "–": the
# layout carries each quantity cell's provenance (cell lines: the row's record, the quantity,
# 1 measured or 0 not) and lint finds a zero printed in a cell of 0.  The SDPA capture's
# backward calls have no footprint or peak ('beyond Q, K, V' –, cell 0: no finding); the
# case then writes "0 B" into the first such cell of the layout, as the table printed before
# 844b22c, and lint reports it
needs: render
setup: ./attnprof report experiments/results/capture/capture-sdpa.yaml experiments/results/fa2-paper.yaml -t templates/impl-review.yaml -o $TMP/s.pdf -q
setup: ./attnprof lint $TMP/s.pdf
setup: grep -q '^cell 12 .* 0 beyond_inputs capture/sdpa-flash/prefill/fp16/B16/H16/Hkv16/Nq1024/Nkv1024/d128/c0/bwd/pid' $TMP/s.layout
setup: awk 'NR==FNR { if ($1=="cell" && $7==0 && !p) { p=$2; x0=$3; y0=$4; x1=$5; y1=$6 } next } $1=="text" && $2==p && !d { cx=($7+$11)/2; cy=($8+$12)/2; if (cx>=x0 && cx<=x1 && cy>=y0 && cy<=y1) { $15="0 B"; d=1 } } { print }' $TMP/s.layout $TMP/s.layout >$TMP/z.layout && mv $TMP/z.layout $TMP/s.layout
args: lint $TMP/s.pdf
exit: 1
stdout: '0 B' printed in a table cell, but record capture/sdpa-flash/prefill/fp16/B16/H16/Hkv16/Nq1024/Nkv1024/d128/c0/bwd/pid
stdout: has no beyond_inputs (not measured: print '–')
stderr: 1 finding
