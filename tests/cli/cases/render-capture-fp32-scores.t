# fp32 S and P of a captured call (flex-eager on fp16 inputs runs cuBLAS's fp32 GEMM
# sm80_xmma_gemm_f32f32…) are drawn at 4 bytes an element: 1.00 GiB at B=16, H=16, N=1k, not
# 512 MiB (the figure multiplied by 2 whatever the kernels wrote); the figure's count of
# kernels writing a matrix is the verdict's, the one the review's text prints (it printed the
# count the file was recorded with, 8 against the text's 7)
needs: render
args: figure capture-dataflow experiments/results/capture/capture-flex-eager.yaml -o $TMP/cd.pdf
exit: 0
file: $TMP/cd.pdf
check: pdftotext $TMP/cd.pdf - | grep -q 'S B·H·Nq·Nkv · 1.00 GiB · STORED'
check: pdftotext $TMP/cd.pdf - | tr '\n' ' ' | grep -q 'B·H·Nq·Nkv·4 = 922 MiB (one Nq × Nkv matrix at 4 bytes an element)'
check: pdftotext $TMP/cd.pdf - | grep -q 'one Nq × Nkv matrix: 8'
check: ./attnprof report experiments/results/capture/capture-flex-eager.yaml -t templates/impl-review.yaml -o $TMP/r.md -q && grep -q 'By traffic, 8 kernels of one forward call' $TMP/r.md
