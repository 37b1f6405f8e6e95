# newest-wins over several report inputs compares instants: 2026-11-30T00:30:00+09:00 (2026-11-29 15:30 UTC) is older
# than results-small.yaml's 2026-11-29T16:00:00Z, so results-small's records are drawn
needs: render
setup: sed 's/^  date: .*/  date: 2026-11-30T00:30:00+09:00/' tests/fixtures/results-small.yaml >$TMP/offset.yaml
args: report $TMP/offset.yaml tests/fixtures/results-small.yaml -t templates/review.yaml -o $TMP/r.pdf -q --trace-records $TMP/t.tsv
exit: 0
stderr: records of offset.yaml by results-small.yaml's
check: grep -q "	results-small.yaml	" $TMP/t.tsv
check: ! grep "^found" $TMP/t.tsv | grep -q "	offset.yaml	"
