# an HTML report whose page cannot be written (a link to /dev/full) leaves the previous X_files/ figures as they were
# (each figure had been renamed into place before the page failed)
needs: render
setup: ./attnprof report tests/fixtures/results-small.yaml -t templates/review.yaml -o $TMP/h.html -q 2>/dev/null; md5sum $TMP/h_files/* >$TMP/h.md5; rm -f $TMP/h.html; ln -s /dev/full $TMP/h.html
args: report tests/fixtures/results-small.yaml -t templates/review.yaml --style print -o $TMP/h.html -q
exit: 1
check: md5sum -c $TMP/h.md5
check: [ -z "$(ls -a $TMP/h_files | grep '\.tmp\.')" ]
