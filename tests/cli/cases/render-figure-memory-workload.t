# the memory-workload figure from the synthetic counters fixture: bytes and hit rates per level, the
# shared-memory wavefronts, the backward's dQ reductions in the L2, DRAM against the no-cache model's bytes
needs: render
args: figure memory-workload tests/fixtures/results-counters.yaml -o $TMP/m.pdf
exit: 0
file: $TMP/m.pdf
check: ( t=$(pdftotext -layout $TMP/m.pdf - | tr -s ' ') && for s in 'L1/TEX and shared memory' 'L2 (50.0 MiB)' 'DRAM (HBM)' '27.0 GiB · hit 12.0 %' 'shared: 1.10 G wavefronts' 'reduced in L2 (dQ): 6.00 GiB' '8.48 GiB: read 5.22 GiB, written 3.26 GiB' 'no-cache model 8.25 GiB' 'SYNTHETIC'; do echo "$t" | grep -qF "$s" || exit 1; done )
