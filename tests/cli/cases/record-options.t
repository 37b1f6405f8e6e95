# contradictory options are refused
args: record experiments/smoke.yaml --resume --force
exit: 2
stderr: --resume and --force contradict
