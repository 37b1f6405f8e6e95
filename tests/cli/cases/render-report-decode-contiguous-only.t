# decode records without a paged cache (results-small's): no "Decode as servers
# run it" section (has:paged), so documents of such files are unchanged
args: report tests/fixtures/results-small.yaml -t templates/review.yaml -o $TMP/x.md -q && cat $TMP/x.md
needs: render
exit: 0
stdout: Prefill and decode
not-stdout: Decode as servers run it
not-stdout: decode-paged
