# a figure written to a full device (/dev/full) fails, naming the file and the system's reason
needs: render
setup: rm -f $TMP/full.png; ln -s /dev/full $TMP/full.png
args: figure tflops tests/fixtures/results-small.yaml -o $TMP/full.png
exit: 1
stderr: full.png': No space left on device
