# issue 52: --quiet says no step, even with --progress; without either, a stderr
# that is no terminal gets none either (a log is not a progress bar)
needs: render
args: report tests/fixtures/results-small.yaml -t templates/review.yaml -o $TMP/q.pdf --progress --quiet
exit: 0
not-stderr: records read
not-stderr: page 1 of
not-stderr: laying out
stderr: attnprof: wrote 
check: "$bin" report tests/fixtures/results-small.yaml -t templates/review.yaml -o $TMP/q.html 2>$TMP/e; ! grep -q 'figure 1 of\|records read' $TMP/e
