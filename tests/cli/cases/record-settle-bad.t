# a settling limit that is not a number of milliseconds from 0 to 60000 is refused with the range
args: record experiments/smoke.yaml -o $TMP/r.yaml --settle 2s
exit: 2
stderr: --settle '2s' must be a number of milliseconds from 0 to 60000
