# more than a minute of settling per config is refused
args: record experiments/smoke.yaml -o $TMP/r.yaml --settle 60001
exit: 2
stderr: --settle '60001' must be a number of milliseconds from 0 to 60000
