# an unknown replay mode is refused before the GPU is touched
args: record experiments/smoke.yaml -o $TMP/r.yaml --replay application
exit: 2
stderr: --replay 'application' must be auto, kernel or user
