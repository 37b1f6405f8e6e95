# a page drawing records of two runs recorded on different days says both
# days in its footer; a page of one run's records, and every page of a
# one-file report, say nothing of it (the title block gives the dates); a table
# (tests/fixtures/templates/two-days.yaml) draws the two runs, since the review's
# sentences would quote a ratio of two runs, which is refused
needs: render
setup: python3 tests/fixtures/results-subset.py tests/fixtures/results-small.yaml flash2 2026-12-05T10:00:00Z $TMP/newer.yaml
setup: "$bin" report tests/fixtures/results-small.yaml -t templates/review.yaml -o $TMP/one.pdf -q 2>/dev/null
args: report $TMP/newer.yaml tests/fixtures/results-small.yaml -t tests/fixtures/templates/two-days.yaml -o $TMP/r.pdf -q
exit: 0
check: grep -q "this page: records of 2026-11-29 and 2026-12-05" $TMP/r.layout
check: test "$(grep -c 'this page: records of' $TMP/r.layout)" -lt "$(grep -c '^page ' $TMP/r.layout)"
check: ! grep -q "this page: records of" $TMP/one.layout
