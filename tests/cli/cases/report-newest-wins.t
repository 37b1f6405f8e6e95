# an identity recorded in two files draws the newer file's record (its header
# date), whatever order the files are given in; the note lists what was
# superseded; every lookup (--trace-records) names the newer file
needs: render
setup: sed 's/^  date: .*/  date: 2026-12-05T10:00:00Z/' tests/fixtures/results-small.yaml >$TMP/newer.yaml
args: report $TMP/newer.yaml tests/fixtures/results-small.yaml -t templates/review.yaml -o $TMP/r.pdf -q --trace-records $TMP/t.tsv
exit: 0
stderr: the newer record is drawn
stderr: records of results-small.yaml by newer.yaml's
check: grep -q "	newer.yaml	" $TMP/t.tsv
check: ! grep "^found" $TMP/t.tsv | grep -q "	results-small.yaml	"
