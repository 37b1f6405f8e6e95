# --primary FILE: that file's records win over a newer file's record of the same identity
needs: render
setup: sed 's/^  date: .*/  date: 2026-12-05T10:00:00Z/' tests/fixtures/results-small.yaml >$TMP/newer.yaml
args: report tests/fixtures/results-small.yaml $TMP/newer.yaml --primary tests/fixtures/results-small.yaml -t templates/review.yaml -o $TMP/r.pdf -q --trace-records $TMP/t.tsv
exit: 0
stderr: unless the other is --primary's
stderr: records of newer.yaml by results-small.yaml's
check: ! grep "^found" $TMP/t.tsv | grep -q "	newer.yaml	"
