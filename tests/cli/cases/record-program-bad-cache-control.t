# --cache-control takes all or none, and says so before the program runs
args: record -o $TMP/x.yaml --cache-control some -- true
exit: 2
stderr: --cache-control 'some': use all
