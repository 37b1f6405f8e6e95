# --window takes on or off, and says so before the program runs
args: record -o $TMP/x.yaml --window maybe -- true
exit: 2
stderr: --window 'maybe': use on
