# the same results files in any order make the same document, byte for byte
# (files are taken in the order recorded; duplicates by results_supersedes)
needs: render
setup: sed 's/^  date: .*/  date: 2026-12-05T10:00:00Z/' tests/fixtures/results-small.yaml >$TMP/newer.yaml
args: report tests/fixtures/results-small.yaml $TMP/newer.yaml tests/fixtures/capture-small.yaml -t templates/review.yaml -o $TMP/order1.pdf -q
exit: 0
check: "$bin" report tests/fixtures/capture-small.yaml $TMP/newer.yaml tests/fixtures/results-small.yaml -t templates/review.yaml -o $TMP/order2.pdf -q
check: cmp $TMP/order1.pdf $TMP/order2.pdf
