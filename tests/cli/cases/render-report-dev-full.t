# a report written to a full device fails with the file and the system's reason ("error while writing to output stream")
needs: render
setup: rm -f $TMP/full.pdf; ln -s /dev/full $TMP/full.pdf
args: report tests/fixtures/results-small.yaml -t templates/review.yaml -o $TMP/full.pdf -q
exit: 1
stderr: full.pdf': No space left on device
