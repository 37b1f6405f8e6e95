# Table 1 (conditions) built its 'records' value ('N in' and the results files' names) in a
# 160-byte buffer before the cell could wrap it: review-with-capture's list of seven files, two
# repeat runs and four counter files ended '… counters from: workload.ya'; a file name of 200
# bytes must come whole
needs: render
setup: cp tests/fixtures/results-small.yaml $TMP/results-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa-end.yaml
args: report $TMP/results-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa-end.yaml -t templates/review.yaml -o $TMP/longrecs.md -q
exit: 0
file: $TMP/longrecs.md
check: grep -qE '^\| records \| 110 in results-a{190}-end\.yaml \|$' $TMP/longrecs.md
