# a --variant longer than a series key is refused (it was cut at 95 bytes and drew whatever the cut named)
needs: render
args: figure dataflow tests/fixtures/results-small.yaml --variant flash2$(printf '%0100d' 0) -o $TMP/v.svg
exit: 2
stderr: is longer than a series name can be (95 bytes)
