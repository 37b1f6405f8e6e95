# --n 4096k (2^31 tile pairs) is drawn as at most 128 × 128 cells of grouped pairs, so the file stays small
# (every pair was a rectangle: --n 1048576 grew to 24 GB and was killed, 64k wrote megabytes)
needs: render
args: figure causal-blocks tests/fixtures/results-small.yaml --n 4096k -o $TMP/cb.pdf
exit: 0
check: [ $(stat -c %s $TMP/cb.pdf) -lt 1000000 ]
check: pdftotext $TMP/cb.pdf - | grep -q 'one cell drawn: 512 × 512 tile pairs'
