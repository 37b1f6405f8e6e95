# a full disk between the PDF and its layout (the layout a link to /dev/full) leaves the previous PDF as it was
needs: render
setup: ./attnprof report tests/fixtures/results-small.yaml -t templates/review.yaml -o $TMP/l.pdf -q 2>/dev/null; md5sum $TMP/l.pdf >$TMP/l.md5; rm -f $TMP/l.layout; ln -s /dev/full $TMP/l.layout
args: report tests/fixtures/results-small.yaml -t templates/slides.yaml -o $TMP/l.pdf -q
exit: 1
stderr: l.layout': No space left on device
check: md5sum -c $TMP/l.md5
