# an unknown has: condition lists the known ones (the table's, first to last)
needs: render
args: report tests/fixtures/results-small.yaml -t tests/fixtures/templates/has-unknown.yaml -o $TMP/t.pdf -q
exit: 2
stderr: unknown 'has:decodes' (decode, prefill, bwd, ablation,
stderr: synthetic, capture, capture-decode, capture-bwd, capture-window, missing-references, capture-unchecked, capture-kernel-timed, capture-no-versions, workload, stalls, dq-traffic, not-covered, program-workload)
