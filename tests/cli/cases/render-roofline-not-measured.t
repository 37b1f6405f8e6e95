# A file without the ceilings (every file before 2026-12-02; here one with
# no tensor rate either): no such roof is drawn, each is named as not measured
args: figure roofline tests/fixtures/results-nometrics.yaml -o $TMP/roof.pdf
needs: render
exit: 0
check: pdftotext $TMP/roof.pdf - | tr '\n' ' ' | grep -q 'not measured: GEMM (wgmma) rate, mma.sync rate, read-only stream, L2 roof, shared-memory roof'
check: ! pdftotext $TMP/roof.pdf - | grep -q 'same kernel, L2 bytes'
