# --missing-spec naming a results input is refused and the input stays as it was (it was overwritten, exit 0)
needs: render
setup: cp tests/fixtures/capture-small.yaml $TMP/cap.yaml; rm -f $TMP/mi.pdf
args: report $TMP/cap.yaml tests/fixtures/capture-reference.yaml -t templates/impl-review.yaml -o $TMP/mi.pdf -q --missing-spec $TMP/cap.yaml
exit: 2
stderr: it is the results file this command reads
check: cmp $TMP/cap.yaml tests/fixtures/capture-small.yaml
check: [ ! -e $TMP/mi.pdf ]
