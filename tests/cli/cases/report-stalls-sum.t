# the warp-state table says what each row's recorded stall reasons add up to (an active warp is in
# one state a cycle: 100 % only when every reason is counted), and the note names the reasons the
# records of the short rows lack instead of claiming 100 % (issue 47 item 4: the Hopper rungs read
# 95.1 % and 98.8 % without the gmma reason); the fixture with the misc reason taken out of two records
needs: render
setup: sed 's/smsp__warps_issue_stalled_misc.sum: 1.6e+08, //' tests/fixtures/results-counters.yaml >$TMP/c.yaml
args: report $TMP/c.yaml -t templates/review.yaml -o $TMP/r.md -q
exit: 0
file: $TMP/r.md
check: grep -q '| largest other | sum |$' $TMP/r.md
check: grep -q '^| standard | 48.0 % | .* | 96.0 % |$' $TMP/r.md
check: grep -q '^| flash2 | 57.0 % | .* | 100.0 % |$' $TMP/r.md
check: grep -q 'sum = what the row.s recorded reasons add up to. 2 of the 6 rows add up to less than 99 %: their records lack the reasons GMMA, misc\.' $TMP/r.md
check: ! grep -q 'so a row adds up to 100 %;' $TMP/r.md
check: "$bin" report tests/fixtures/results-counters.yaml -t templates/review.yaml -o $TMP/full.md -q && grep -q 'add up to. Selected = issuing' $TMP/full.md
