# records of another GPU are not more runs of these: refused, naming both GPUs
needs: render
setup: sed 's/name: NVIDIA H200/name: NVIDIA H100 80GB HBM3/' tests/fixtures/results-small.yaml >$TMP/h100.yaml
args: report tests/fixtures/results-small.yaml $TMP/h100.yaml -t templates/review.yaml -o $TMP/r.pdf
exit: 2
stderr: a document draws one GPU's records
stderr: NVIDIA H100 80GB HBM3
