# a figure written to a full device (/dev/full) fails, naming the file and the system's reason
needs: render
setup: rm -f $TMP/full.svg; ln -s /dev/full $TMP/full.svg
args: figure tflops tests/fixtures/results-small.yaml -o $TMP/full.svg
exit: 1
stderr: full.svg': No space left on device
