# the warp-states figure from the synthetic counters fixture: a bar per kernel (forward, then backward,
# captured calls after attnprof's), the largest reasons named in the legend, the shares printed, the banner
needs: render
args: figure warp-states tests/fixtures/results-counters.yaml -o $TMP/w.pdf
exit: 0
file: $TMP/w.pdf
check: ( t=$(pdftotext -layout $TMP/w.pdf - | tr -s ' ') && for s in 'long scoreboard' 'math-pipe throttle' 'MIO throttle' 'other reasons' 'capture sdpa-flash' 'flash2 bwd' 'hopper+wgmma' '100 %' 'SYNTHETIC'; do echo "$t" | grep -qF "$s" || exit 1; done )
