# with the GPU half but no GPU: exit 3, the reason, and no results file
needs: cuda-build no-gpu
args: record experiments/smoke.yaml -o $TMP/r.yaml
exit: 3
stderr: no CUDA GPU is visible
