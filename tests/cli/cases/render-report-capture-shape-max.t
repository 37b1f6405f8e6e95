# a captured call at B = 65536, H = 1024, N = 4194304: its grid readings are multiplied in 64 bits
# (gridmap.c's nq * mult[k] overflowed an int: the SAN build aborted the report)
needs: render
args: report tests/fixtures/capture/shape-max.yaml tests/fixtures/capture-reference.yaml -t templates/impl-review.yaml -o $TMP/s.pdf -q
exit: 0
file: $TMP/s.pdf
