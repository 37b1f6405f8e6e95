# a captured kernel at the largest CUDA grid (2^31-1 x 65535 x 65535 blocks): its waves are counted in 64 bits
# ((int)floor(waves) was undefined: a float-cast-overflow build aborted; make SAN=1 builds with it)
needs: render
args: report tests/fixtures/capture/grid-max.yaml tests/fixtures/capture-reference.yaml -t templates/impl-review.yaml -o $TMP/g.pdf -q
exit: 0
file: $TMP/g.pdf
