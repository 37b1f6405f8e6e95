# issue 52: the HTML page and --figures-dir say figure k of n, one line per figure
needs: render
args: report tests/fixtures/results-small.yaml -t templates/review.yaml -o $TMP/p.html --progress
exit: 0
stderr: attnprof: figure 1 of 
check: "$bin" report tests/fixtures/results-small.yaml -t templates/review.yaml -o $TMP/p.html --progress 2>$TMP/e; n=$(sed -n 's/.*: wrote .*, \([0-9]*\) figures.*/\1/p' $TMP/e); [ -n "$n" ] && [ "$(grep -c '^attnprof: figure [0-9]* of '"$n"'$' $TMP/e)" -eq "$n" ]
check: "$bin" report tests/fixtures/results-small.yaml -t templates/review.yaml -o $TMP/q.pdf --figures-dir $TMP/figs --progress 2>$TMP/f; grep -q "^attnprof: figure 1 of [0-9]* ($TMP/figs)$" $TMP/f
