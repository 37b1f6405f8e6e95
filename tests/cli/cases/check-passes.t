# check counts the passes of the metric set on GH100
needs: cuda-build cupti-host
args: check experiments/fa2-paper.yaml --quiet
exit: 0
stdout: 2 passes per kernel on GH100
