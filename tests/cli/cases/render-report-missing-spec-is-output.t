# --missing-spec naming the -o PDF itself is refused, and the PDF stays as it was (it was overwritten, exit 0)
needs: render
setup: ./attnprof report tests/fixtures/capture-small.yaml tests/fixtures/capture-reference.yaml -t templates/impl-review.yaml -o $TMP/m.pdf -q 2>/dev/null; md5sum $TMP/m.pdf >$TMP/m.md5
args: report tests/fixtures/capture-small.yaml tests/fixtures/capture-reference.yaml -t templates/impl-review.yaml -o $TMP/m.pdf -q --missing-spec $TMP/m.pdf
exit: 2
stderr: refusing to write
check: md5sum -c $TMP/m.md5
