# The data-flow figure's list of per-kernel DRAM bytes stopped where its column ran out of room
# and said nothing (and its description kept only the first 4 launches: standard's backward
# lost dq_gemm, test_figdesc test_dataflow_every_launch); side by side, standard's backward has
# room for few of its 5 kernels and says how many more it does not list
needs: render
args: figure dataflow-compare experiments/results/fa2-paper.yaml --variant standard --compare flash2 --pass bwd --n 4096 --batch 4 -o $TMP/df.pdf
exit: 0
file: $TMP/df.pdf
check: pdftotext $TMP/df.pdf - | tr '\n' ' ' | grep -qE '[1-4] more kernels not listed here'
