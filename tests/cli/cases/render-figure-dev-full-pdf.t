# a figure written to a full device (/dev/full) fails, naming the file and the system's reason (it exited 0: the failed write was left to an fflush that had nothing to fail on)
needs: render
setup: rm -f $TMP/full.pdf; ln -s /dev/full $TMP/full.pdf
args: figure tflops tests/fixtures/results-small.yaml -o $TMP/full.pdf
exit: 1
stderr: full.pdf': No space left on device
