# the spec of the references missing at the captured shapes is written, and
# 'attnprof check' accepts it (the fixture's odd-kernel shape has no reference)
args: report tests/fixtures/capture-small.yaml tests/fixtures/capture-reference.yaml -t templates/impl-review.yaml -o $TMP/impl2.pdf -q --missing-spec $TMP/missing.yaml && "$bin" check $TMP/missing.yaml
needs: render cupti-host
exit: 0
stderr: wrote
stderr: 1 shape without reference records
stdout: 8192     8192   64
stdout: valid: 2 configs, metric set
file: $TMP/missing.yaml
