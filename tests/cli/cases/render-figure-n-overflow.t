# --n 9223372036854775807k is refused before it is multiplied (signed overflow)
needs: render
args: figure tflops tests/fixtures/results-small.yaml --n 9223372036854775807k -o $TMP/n.svg
exit: 2
stderr: --n must be a whole number from 1 to 4096k, not '9223372036854775807k'
