# a text value compared with a number, or a number that is not finite (nan, 1e999), made a
# condition that was always false, exit 0 (issue 48 item 11): refused at the condition's place
needs: render
args: report tests/fixtures/results-small.yaml -t tests/fixtures/templates/when-nan.yaml -o $TMP/w.pdf -q
exit: 2
stderr: tests/fixtures/templates/when-nan.yaml:10:32:
stderr: 'nan' is not a finite number
setup: rm -f $TMP/w.pdf
check: test ! -e $TMP/w.pdf
