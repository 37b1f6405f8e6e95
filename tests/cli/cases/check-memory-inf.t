# --memory inf is refused (it said "more than the 0 B available")
args: check experiments/smoke.yaml --memory inf
exit: 2
stderr: --memory 'inf' is not a number of GiB
