# no silent cap: memory-workload and warp-states draw 16 kernels; with 20
# captured implementations, or 40 reference series (past the 32 series the
# count once looked at), each says how many it left out, in its title and on stderr
needs: render
setup: awk '/^- source/{n++} n==1' tests/fixtures/capture-small.yaml >$TMP/c20.rec; { sed -n '1,/^records:/p' tests/fixtures/capture-small.yaml; i=1; while [ $i -le 20 ]; do sed "s/variant: sdpa-flash/variant: impl-$i/; s/impl=sdpa-flash/impl=impl-$i/; s/call: 0/call: $i/; s/^\(    totals: {.*\)}$/\1, \"l1tex__t_bytes.sum\": 4.0e9, \"smsp__warps_active.sum\": 2.0e6}/" $TMP/c20.rec; i=$((i+1)); done; } >$TMP/c20.yaml
setup: sed -n '11,30p' tests/fixtures/results-counters.yaml >$TMP/r40.rec; { sed -n '1,10p' tests/fixtures/results-counters.yaml; i=1; while [ $i -le 40 ]; do sed "s/source: attnprof/source: lib$i/; s/variant: standard/variant: ref/; s/end: 1/end: $i/" $TMP/r40.rec; i=$((i+1)); done; echo "end: {records: 40}"; } >$TMP/r40.yaml
args: figure memory-workload $TMP/c20.yaml -o $TMP/c20.pdf
exit: 0
stderr: figure memory-workload: the first 16 of 20 kernels with counters are drawn
check: pdftotext $TMP/c20.pdf - | tr '\n' ' ' | grep -q '(the first 16 of 20 kernels with counters are drawn)'
check: "$bin" figure warp-states $TMP/c20.yaml -o $TMP/c20w.pdf 2>$TMP/c20w.err && grep -q 'figure warp-states: the first 16 of 20 kernels with counters are drawn' $TMP/c20w.err
check: "$bin" figure memory-workload $TMP/r40.yaml -o $TMP/r40.pdf 2>$TMP/r40.err && grep -q 'the first 16 of 40 kernels with counters are drawn' $TMP/r40.err
check: "$bin" figure warp-states $TMP/r40.yaml -o $TMP/r40w.pdf 2>$TMP/r40w.err && grep -q 'the first 16 of 40 kernels with counters are drawn' $TMP/r40w.err
# the warp-state table lists every kernel with the counters (it listed the first 16 and said nothing)
check: "$bin" figure table:stalls $TMP/r40.yaml -o $TMP/r40t.pdf && test "$(pdftotext $TMP/r40t.pdf - | grep -c '^lib[0-9]* ref$')" = 40
