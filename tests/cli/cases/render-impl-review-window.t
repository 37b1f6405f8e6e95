# calls counted in one profiling window (record --window on) get the caveat
# that says what that mode measured (render-impl-review.t: not without it)
setup: sed 's/^    graph_launches: 0$/    graph_launches: 0\n    counter_window: true/' tests/fixtures/capture-small.yaml >$TMP/win.yaml
args: report $TMP/win.yaml tests/fixtures/capture-reference.yaml -t templates/impl-review.yaml -o $TMP/w.pdf -q && pdftotext $TMP/w.pdf - | tr '\n' ' '
needs: render
exit: 0
stdout: Counted in one window.
stdout: a second capture with --window off
