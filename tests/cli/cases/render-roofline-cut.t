# no silent cap: the roofline draws 16 implementations; with 40 captured it
# says so in its title and on stderr (it showed the first 16 and said nothing)
needs: render
setup: awk '/^- source/{n++} n==1' tests/fixtures/capture-small.yaml >$TMP/roof40.rec; { sed -n '1,/^records:/p' tests/fixtures/capture-small.yaml; i=1; while [ $i -le 40 ]; do sed "s/variant: sdpa-flash/variant: impl-$i/; s/impl=sdpa-flash/impl=impl-$i/; s/call: 0/call: $i/" $TMP/roof40.rec; i=$((i+1)); done; } >$TMP/roof40.yaml
args: figure roofline $TMP/roof40.yaml -o $TMP/roof40.pdf
exit: 0
stderr: figure roofline: the first 16 of 40 implementations are drawn
check: pdftotext $TMP/roof40.pdf - | tr '\n' ' ' | grep -q 'measured ceilings (the first 16 of 40 implementations are drawn)'
# 16 draw without a word
check: { sed -n '1,/^records:/p' tests/fixtures/capture-small.yaml; i=1; while [ $i -le 16 ]; do sed "s/variant: sdpa-flash/variant: impl-$i/; s/impl=sdpa-flash/impl=impl-$i/; s/call: 0/call: $i/" $TMP/roof40.rec; i=$((i+1)); done; } >$TMP/roof16.yaml && "$bin" figure roofline $TMP/roof16.yaml -o $TMP/roof16.pdf 2>$TMP/roof16.err && ! grep -q 'are drawn' $TMP/roof16.err && ! pdftotext $TMP/roof16.pdf - | grep -q 'are drawn'
