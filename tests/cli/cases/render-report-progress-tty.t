# issue 52: on a terminal (script(1) gives the command one) report says its steps
# without being asked, each rewriting one line (carriage return, erase line: ^M^[[K
# under cat -v), and the summary (as every warning) erases the last step before it; --quiet says
# none there either
needs: render
args: --version
exit: 0
check: script -qec "'$bin' report tests/fixtures/results-small.yaml -t templates/review.yaml -o $TMP/t.html" /dev/null </dev/null | cat -v >$TMP/tty; grep -qF '^M^[[Kattnprof: figure 1 of ' $TMP/tty && grep "attnprof: wrote $TMP/t.html" $TMP/tty | grep -q '^attnprof: wrote\|\^\[\[Kattnprof: wrote'
check: script -qec "'$bin' report tests/fixtures/results-small.yaml -t templates/review.yaml -o $TMP/t.html --quiet" /dev/null </dev/null | cat -v >$TMP/tty2; grep -q "attnprof: wrote $TMP/t.html" $TMP/tty2 && ! grep -q 'figure 1 of' $TMP/tty2
