# The roofline of a file with header.gpu.ceilings (synthetic fixture values):
# the mma.sync roof beside cuBLAS's (wgmma) one, the L2 and shared-memory
# slopes with their kernels' points, named in the legend; the one ceiling
# the fixture did not measure, the read-only stream, named as such
args: figure roofline tests/fixtures/results-small.yaml --d 128 --causal no -o $TMP/roof.pdf
needs: render
exit: 0
check: pdftotext $TMP/roof.pdf - | grep -q 'mma.sync 620 TFLOP/s'
check: pdftotext $TMP/roof.pdf - | grep -q 'wgmma (cuBLAS GEMM) 790 TFLOP/s'
check: pdftotext $TMP/roof.pdf - | grep -q 'same kernel, L2 bytes'
check: pdftotext $TMP/roof.pdf - | grep -q 'same kernel, shared bytes'
check: pdftotext $TMP/roof.pdf - | tr '\n' ' ' | grep -q 'a point per tensor-core kernel of a call, its longest filled'
check: pdftotext $TMP/roof.pdf - | tr '\n' ' ' | grep -q 'not measured: read-only stream\( \|$\)'
