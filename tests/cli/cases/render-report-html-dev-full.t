# an HTML page written to a full device fails with the file and the system's reason (it named neither)
needs: render
setup: rm -rf $TMP/full.html $TMP/full_files; ln -s /dev/full $TMP/full.html
args: report tests/fixtures/results-small.yaml -t templates/review.yaml -o $TMP/full.html -q
exit: 1
stderr: full.html': No space left on device
