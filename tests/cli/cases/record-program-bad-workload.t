# --workload takes on or off, and says so before the program runs
args: record -o $TMP/x.yaml --workload all -- true
exit: 2
stderr: --workload 'all': use on
