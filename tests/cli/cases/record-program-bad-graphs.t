# --graphs takes on or off, and says so before the program runs
args: record -o $TMP/x.yaml --graphs maybe -- true
exit: 2
stderr: --graphs 'maybe': use on
