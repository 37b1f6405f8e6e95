# no silent cap: 40 captured implementations each get their section in impl-review (it showed the first 16),
# and the compare chart, which draws 8, says in its title and on stderr that the tables list all 40
needs: render
setup: awk '/^- source/{n++} n==1' tests/fixtures/capture-small.yaml >$TMP/impl40.rec; { sed -n '1,/^records:/p' tests/fixtures/capture-small.yaml; i=1; while [ $i -le 40 ]; do sed "s/variant: sdpa-flash/variant: impl-$i/; s/impl=sdpa-flash/impl=impl-$i/; s/call: 0/call: $i/" $TMP/impl40.rec; i=$((i+1)); done; } >$TMP/impl40.yaml
args: report $TMP/impl40.yaml -t templates/impl-review.yaml -o $TMP/impl40.pdf
exit: 0
stderr: the first 8 of 40 captured implementations are drawn; the tables list all
check: pdftotext $TMP/impl40.pdf - | grep -q 'Implementation impl-40$'
check: test "$(pdftotext $TMP/impl40.pdf - | grep -c ' Implementation impl-[0-9]*$')" -ge 40
check: pdftotext $TMP/impl40.pdf - | tr '\n' ' ' | grep -q 'the first 8 of 40 captured implementations are drawn'
