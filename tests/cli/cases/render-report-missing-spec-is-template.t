# --missing-spec naming the template is refused and the template stays as it was
needs: render
setup: cp templates/impl-review.yaml $TMP/tpl.yaml
args: report tests/fixtures/capture-small.yaml tests/fixtures/capture-reference.yaml -t $TMP/tpl.yaml -o $TMP/mt.pdf -q --missing-spec $TMP/tpl.yaml
exit: 2
stderr: refusing to write
check: cmp $TMP/tpl.yaml templates/impl-review.yaml
