# no silent cap: the captured-compare chart draws 24 shapes; with 30 it says
# so in its title and on stderr, as figure and as a document's figure
needs: render
setup: awk '/^- source/{n++} n==1' tests/fixtures/capture-small.yaml >$TMP/sh30.rec; { sed -n '1,/^records:/p' tests/fixtures/capture-small.yaml; i=1; while [ $i -le 30 ]; do n=$((i*64)); sed "s/seqlen_q: 4096/seqlen_q: $n/; s/seqlen_kv: 4096/seqlen_kv: $n/; s/Nq=4096 Nkv=4096/Nq=$n Nkv=$n/; s/call: 0/call: $i/; s/call=0/call=$i/" $TMP/sh30.rec; i=$((i+1)); done; } >$TMP/sh30.yaml
args: figure capture-compare $TMP/sh30.yaml -o $TMP/sh30.pdf
exit: 0
stderr: figure capture-compare: 24 of the 30 shapes are drawn
check: pdftotext $TMP/sh30.pdf - | tr '\n' ' ' | grep -q '(24 of the 30 shapes are drawn)'
check: "$bin" report $TMP/sh30.yaml -t templates/impl-review.yaml -o $TMP/sh30-doc.pdf 2>$TMP/sh30.err && grep -q '(capture-compare): 24 of the 30 shapes are drawn' $TMP/sh30.err && pdftotext $TMP/sh30-doc.pdf - | tr '\n' ' ' | grep -q '24 of the 30 shapes are drawn'
