# a batch size out of range is refused with the range
args: record experiments/smoke.yaml -o $TMP/r.yaml --profile-batch 9
exit: 2
stderr: --profile-batch '9' must be a whole number from 1 to 8
