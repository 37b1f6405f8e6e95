# issue 52: report says each step on stderr when asked (--progress; on a terminal
# without asking): the files read, the records, the model, every layout pass, page
# k of n; stdout stays empty
needs: render
args: report tests/fixtures/results-small.yaml -t templates/review.yaml -o $TMP/p.pdf --progress
exit: 0
stderr: attnprof: reading 1 results file
stderr: attnprof: 110 records read; building the document model
stderr: attnprof: laying out the pages (pass 1 of 3)
stderr: attnprof: laying out the pages (pass 2 of 3)
stderr: attnprof: page 1 of 
check: "$bin" report tests/fixtures/results-small.yaml -t templates/review.yaml -o $TMP/p.pdf --progress 2>$TMP/e >$TMP/o; n=$(sed -n 's/.*: wrote .*: \([0-9]*\) pages.*/\1/p' $TMP/e); [ -n "$n" ] && grep -qx "attnprof: page $n of $n" $TMP/e && [ "$(grep -c '^attnprof: page [0-9]* of ' $TMP/e)" -eq "$n" ] && [ ! -s $TMP/o ]
