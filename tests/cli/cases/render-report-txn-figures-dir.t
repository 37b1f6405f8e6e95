# a report that fails on --figures-dir leaves the previous PDF, layout and notes byte for byte (it had replaced them)
needs: render
setup: ./attnprof report tests/fixtures/results-small.yaml -t templates/slides.yaml -o $TMP/t.pdf -q 2>/dev/null; md5sum $TMP/t.pdf $TMP/t.layout $TMP/t.notes.txt >$TMP/t.md5
args: report tests/fixtures/results-small.yaml -t templates/review.yaml -o $TMP/t.pdf -q --figures-dir /nonexistent-attnprof/figs
exit: 1
check: md5sum -c $TMP/t.md5
check: [ -z "$(ls -a $TMP | grep '\.tmp\.')" ]
