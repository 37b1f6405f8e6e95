# --timeout 0 is refused before the program runs
args: record --timeout 0 -o $TMP/x.yaml -- true
exit: 2
stderr: --timeout 0 would stop the program at once
