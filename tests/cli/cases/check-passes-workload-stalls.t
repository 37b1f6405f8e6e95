# the memory-workload and warp-state sets (issue 31): every name accepted by the
# GH100 host API, and their passes counted (no GPU)
needs: cuda-build cupti-host
args: check experiments/workload.yaml --quiet && "$bin" check experiments/stalls.yaml --quiet
exit: 0
stdout: metric set 'workload' (13 metrics, 3 passes per kernel on GH100)
stdout: metric set 'stalls' (21 metrics, 6 passes per kernel on GH100)
