# patent-causal at --n 64k draws grouped tile pairs: a file of bounded size (it wrote a rectangle per pair)
needs: render
args: figure patent-causal tests/fixtures/results-small.yaml --n 64k -o $TMP/pc.pdf
exit: 0
check: [ $(stat -c %s $TMP/pc.pdf) -lt 1000000 ]
